// app/io's atomic writes: a failed write leaves the previous file byte for byte and no
// temporary file behind; modes, links, devices and FIFOs; concurrent writers; the reasons.
#include "app/io/atomic_file.h"
#include "app/io/image_io.h"
#include "app/io/text_file.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace linescope;
namespace fs = std::filesystem;

namespace {

std::string readAll(const std::string& path) {
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly)) return "<unreadable>";
    return f.readAll().toStdString();
}

// The names in `dir`, hidden ones (the temporary files) included.
QStringList entries(const QTemporaryDir& dir) {
    return QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

mode_t modeOf(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0;
}

// The IoError's message, or "" when `write` succeeds.
template <class F>
std::string errorOf(F&& write) {
    try {
        write();
    } catch (const io::IoError& e) {
        return e.what();
    }
    return {};
}

cv::Mat noise(int w, int h, int seed) {
    cv::Mat m(h, w, CV_8UC1);
    cv::theRNG().state = static_cast<std::uint64_t>(seed);
    cv::randu(m, 0, 256);
    return m;
}

}  // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT

private slots:
    void writesAndReplaces() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("a.json").toStdString();
        io::writeTextFile(path, "first\n");
        QCOMPARE(readAll(path), std::string("first\n"));
        io::writeTextFile(path, "second, longer\n");
        QCOMPARE(readAll(path), std::string("second, longer\n"));
        io::writeTextFile(path, "");
        QCOMPARE(readAll(path), std::string());
        QCOMPARE(entries(dir), QStringList{"a.json"});
    }

    // A full disk in the middle of the file: the old file stays, byte for byte.
    void failedTextWriteKeepsTheOldFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("spectrum.json").toStdString();
        const std::string old = "{\"length\": 15, \"angles\": [0, 2, 4]}\n";
        io::writeTextFile(path, old);
        io::failNextWriteForTesting(ENOSPC, 7);
        const std::string error = errorOf([&] { io::writeTextFile(path, std::string(100000, 'x')); });
        QCOMPARE(error, "cannot write '" + path + "': No space left on device");
        QCOMPARE(readAll(path), old);
        QCOMPARE(entries(dir), QStringList{"spectrum.json"});
        io::writeTextFile(path, "after\n");  // the seam fires once
        QCOMPARE(readAll(path), std::string("after\n"));
    }

    void failedImageWriteKeepsTheOldImage() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("supremum.png").toStdString();
        io::writeImage(path, noise(300, 200, 1));
        const std::string old = readAll(path);
        QVERIFY(old.size() > 1000);
        io::failNextWriteForTesting(ENOSPC, old.size() / 2);
        const std::string error = errorOf([&] { io::writeImage(path, noise(300, 200, 2)); });
        QVERIFY2(error.find("No space left on device") != std::string::npos, error.c_str());
        QVERIFY(readAll(path) == old);
        QCOMPARE(entries(dir), QStringList{"supremum.png"});
        // And a failure before any byte (EIO, say) too.
        io::failNextWriteForTesting(EIO, 0);
        QVERIFY(errorOf([&] { io::writeImage(path, noise(300, 200, 3)); }).find("Input/output error") != std::string::npos);
        QVERIFY(readAll(path) == old);
        QCOMPARE(entries(dir), QStringList{"supremum.png"});
    }

    // Every format writeImage accepts goes through the in-memory encoders and reads back.
    void imageFormatsReadBack() {
        QTemporaryDir dir;
        const cv::Mat u8 = noise(17, 9, 4);
        cv::Mat u16, f32;
        u8.convertTo(u16, CV_16U, 257);
        u8.convertTo(f32, CV_32F, 1.0 / 255);
        const std::pair<const char*, cv::Mat> cases[] = {
            {"a.png", u8}, {"a.tif", u8}, {"a.pgm", u8}, {"a.bmp", u8}, {"b.png", u16}, {"b.tiff", u16},
            {"b.pgm", u16}, {"c.tiff", f32}, {"c.pfm", f32}, {"A.PNG", u8}};
        for (const auto& [name, image] : cases) {
            const std::string path = dir.filePath(name).toStdString();
            io::writeImage(path, image);
            const cv::Mat back = cv::imread(path, cv::IMREAD_UNCHANGED);
            QVERIFY2(back.type() == image.type() && cv::norm(back, image, cv::NORM_INF) == 0, name);
        }
        io::writeImage(dir.filePath("d.jpg").toStdString(), u8);  // lossy: only readable
        QCOMPARE(cv::imread(dir.filePath("d.jpg").toStdString(), cv::IMREAD_UNCHANGED).size(), u8.size());
    }

    void newFilesFollowTheUmaskReplacedOnesKeepTheirMode() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.csv").toStdString();
        const mode_t saved = ::umask(027);
        io::writeTextFile(path, "a\n");
        ::umask(saved);
        QCOMPARE(modeOf(path), mode_t(0640));
        QVERIFY(::chmod(path.c_str(), 0604) == 0);
        io::writeTextFile(path, "b\n");
        QCOMPARE(modeOf(path), mode_t(0604));
    }

    // A link is followed: its target gets the new content, the link stays a link.
    void symbolicLinkIsFollowed() {
        QTemporaryDir dir;
        const std::string target = dir.filePath("target.csv").toStdString();
        const std::string link = dir.filePath("link.csv").toStdString();
        io::writeTextFile(target, "old\n");
        fs::create_symlink(target, link);
        io::writeTextFile(link, "new\n");
        QVERIFY(fs::is_symlink(link));
        QCOMPARE(readAll(target), std::string("new\n"));
        QCOMPARE(entries(dir), (QStringList{"link.csv", "target.csv"}));
    }

    // Devices and FIFOs are written into, never replaced by a regular file.
    void devicesAreWrittenInPlace() {
        if (!fs::exists("/dev/null") || !fs::exists("/dev/full")) QSKIP("no /dev/null or /dev/full here");
        io::writeTextFile("/dev/null", "nothing\n");
        QVERIFY(fs::is_character_file("/dev/null"));
        QCOMPARE(errorOf([] { io::writeTextFile("/dev/full", "x"); }),
                 std::string("cannot write '/dev/full': No space left on device"));
        QVERIFY(fs::is_character_file("/dev/full"));
    }

    void fifoWithoutReaderIsAnErrorNotAHang() {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("pipe").toStdString();
        QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
        QCOMPARE(errorOf([&] { io::writeTextFile(fifo, "x"); }),
                 "cannot write '" + fifo + "': nothing reads from this FIFO");
        QVERIFY(fs::is_fifo(fifo));
    }

    void reasons() {
        QTemporaryDir dir;
        const std::string file = dir.filePath("file.txt").toStdString();
        io::writeTextFile(file, "x");
        const std::string missing = dir.filePath("missing").toStdString();
        QCOMPARE(errorOf([&] { io::writeTextFile(missing + "/a.json", "x"); }),
                 "cannot write '" + missing + "/a.json': the folder '" + missing + "' does not exist");
        QCOMPARE(errorOf([&] { io::writeTextFile(file + "/a.json", "x"); }),
                 "cannot write '" + file + "/a.json': '" + file + "' is not a folder");
        QCOMPARE(errorOf([&] { io::writeTextFile(dir.path().toStdString(), "x"); }),
                 "cannot write '" + dir.path().toStdString() + "': it is a folder");
        QCOMPARE(errorOf([&] { io::writeImage(file + "/a.png", noise(4, 4, 5)); }),
                 "cannot write '" + file + "/a.png': '" + file + "' is not a folder");
        QCOMPARE(entries(dir), QStringList{"file.txt"});
    }

    // Root may write anywhere, so only an ordinary user sees these refusals.
    void permissionDenied() {
        if (::geteuid() == 0) QSKIP("running as root: permissions are not enforced");
        QTemporaryDir dir;
        const std::string path = dir.filePath("ro.json").toStdString();
        io::writeTextFile(path, "kept\n");
        QVERIFY(::chmod(path.c_str(), 0444) == 0);
        QCOMPARE(errorOf([&] { io::writeTextFile(path, "new\n"); }), "cannot write '" + path + "': Permission denied");
        QCOMPARE(readAll(path), std::string("kept\n"));
        QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0500) == 0);
        const std::string fresh = dir.filePath("new.json").toStdString();
        QCOMPARE(errorOf([&] { io::writeTextFile(fresh, "x"); }), "cannot write '" + fresh + "': Permission denied");
        QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0700) == 0);
    }

    // Writers racing on one path: the file is always one writer's whole content.
    void concurrentWritersLeaveOneWholeFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("race.bin").toStdString();
        constexpr int kWriters = 4, kRounds = 20;
        constexpr std::size_t kSize = 1 << 18;
        std::vector<std::thread> writers;
        std::atomic<int> failures{0};
        for (int w = 0; w < kWriters; ++w)
            writers.emplace_back([&, w] {
                const std::string content(kSize + static_cast<std::size_t>(w), static_cast<char>('a' + w));
                for (int i = 0; i < kRounds; ++i) {
                    try {
                        io::writeTextFile(path, content);
                    } catch (const io::IoError&) {
                        ++failures;
                    }
                }
            });
        for (auto& t : writers) t.join();
        QCOMPARE(failures.load(), 0);
        const std::string result = readAll(path);
        QVERIFY(!result.empty());
        const int w = result[0] - 'a';
        QVERIFY(w >= 0 && w < kWriters);
        QCOMPARE(result, std::string(kSize + static_cast<std::size_t>(w), result[0]));
        QCOMPARE(entries(dir), QStringList{"race.bin"});
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "test_atomic_file.moc"
