// io::readImage refuses, before decoding anything, what would block or exhaust memory: FIFOs
// and other non-regular files, images whose header announces more memory than the budget
// (decompression bombs), TIFFs of sample types or channel counts the engine cannot use; it
// says so in one sentence naming the size or the type, and notes the pages of a multi-page
// TIFF it does not read. The header reader agrees with what OpenCV decodes.
#include "app/io/codec_stderr.h"
#include "app/io/image_header.h"
#include "app/io/image_io.h"
#include "app/io/memory_budget.h"

#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <opencv2/imgcodecs.hpp>

#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace linescope;

namespace {

void writeBytes(const std::string& path, const std::vector<unsigned char>& bytes) {
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                static_cast<std::streamsize>(bytes.size()));
}

void put16(std::vector<unsigned char>& b, unsigned v) { b.push_back(v & 0xFF), b.push_back((v >> 8) & 0xFF); }
void put32(std::vector<unsigned char>& b, std::uint32_t v) { put16(b, v & 0xFFFF), put16(b, v >> 16); }

// An uncompressed little-endian TIFF of `pages` pages w×h, `spp` samples of `bits` bits,
// SampleFormat `format` (1 uint, 2 int, 3 float), every sample zero.
std::vector<unsigned char> tiffFile(int w, int h, int spp, int bits, int format, int pages = 1) {
    std::vector<unsigned char> b{'I', 'I', 42, 0};
    put32(b, 8);
    const std::uint32_t dataBytes = static_cast<std::uint32_t>(w * h * spp * bits / 8);
    const int tags = 10;
    for (int p = 0; p < pages; ++p) {
        const auto ifdSize = static_cast<std::uint32_t>(2 + tags * 12 + 4);
        const auto bitsAt = static_cast<std::uint32_t>(b.size()) + ifdSize;  // spp SHORTs when spp > 2
        const std::uint32_t dataAt = bitsAt + 2u * static_cast<std::uint32_t>(spp);
        const std::uint32_t next = p + 1 < pages ? dataAt + dataBytes : 0;
        put16(b, tags);
        const auto tag = [&](unsigned id, unsigned type, std::uint32_t count, std::uint32_t value) {
            put16(b, id), put16(b, type), put32(b, count), put32(b, value);
        };
        tag(256, 4, 1, static_cast<std::uint32_t>(w));
        tag(257, 4, 1, static_cast<std::uint32_t>(h));
        tag(258, 3, static_cast<std::uint32_t>(spp), spp > 2 ? bitsAt : static_cast<std::uint32_t>(bits | (spp == 2 ? bits << 16 : 0)));
        tag(259, 3, 1, 1);                      // no compression
        tag(262, 3, 1, spp >= 3 ? 2 : 1);       // RGB or min-is-black
        tag(273, 4, 1, dataAt);                 // one strip
        tag(277, 3, 1, static_cast<std::uint32_t>(spp));
        tag(278, 4, 1, static_cast<std::uint32_t>(h));
        tag(279, 4, 1, dataBytes);
        tag(339, 3, 1, static_cast<std::uint32_t>(format));
        put32(b, next);
        for (int s = 0; s < spp; ++s) put16(b, static_cast<unsigned>(bits));
        b.resize(b.size() + dataBytes, 0);
    }
    return b;
}

// A PNG whose header says w×h RGBA16 and whose data is a few bytes: the header check must
// refuse it without decoding (before it, OpenCV allocated the whole image).
std::vector<unsigned char> pngHeaderOnly(std::uint32_t w, std::uint32_t h) {
    std::vector<unsigned char> b{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    for (std::uint32_t v : {w, h}) for (int s = 24; s >= 0; s -= 8) b.push_back((v >> s) & 0xFF);
    for (int c : {16, 6, 0, 0, 0}) b.push_back(static_cast<unsigned char>(c));
    for (int i = 0; i < 4 + 12 + 12; ++i) b.push_back(0);  // CRC, an empty IDAT and IEND (CRCs wrong)
    return b;
}

std::string errorOf(const std::string& path, std::vector<std::string>* notices = nullptr) {
    try {
        io::readImage(path, [&](const std::string& line) { if (notices) notices->push_back(line); });
    } catch (const io::IoError& e) {
        return e.what();
    }
    return {};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

class TestImageLoading : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

private slots:
    void cleanup() { io::setImageMemoryBudget(0); }

    void fifoIsRefusedWithoutBlocking() {
        const std::string fifo = path("pipe.png");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const std::string e = errorOf(fifo);  // before the check, imread blocked here for good
        QVERIFY2(contains(e, "FIFO"), e.c_str());
    }

    void characterDeviceIsRefused() {
        const std::string e = errorOf("/dev/zero");
        QVERIFY2(contains(e, "character device"), e.c_str());
    }

    void headerBombIsRefusedBeforeDecoding() {
        writeBytes(path("bomb.png"), pngHeaderOnly(32768, 32767));
        io::setImageMemoryBudget(std::uint64_t{4} << 30);
        const std::string e = errorOf(path("bomb.png"));
        QVERIFY2(contains(e, "32768×32767") && contains(e, "4 channels of 16-bit") && contains(e, "budget of 4.0 GiB"),
                 e.c_str());
    }

    // Real files of every parsed format, refused under a small budget and read under the
    // default one.
    void budgetHoldsForEveryParsedFormat_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("type");
        QTest::addRow("png rgba16") << "a.png" << CV_16UC4;
        QTest::addRow("tiff float32") << "a.tiff" << CV_32FC1;
        QTest::addRow("pgm 16-bit") << "a.pgm" << CV_16UC1;
        QTest::addRow("ppm") << "a.ppm" << CV_8UC3;
        QTest::addRow("pfm") << "a.pfm" << CV_32FC1;
        QTest::addRow("jpeg") << "a.jpg" << CV_8UC3;
        QTest::addRow("bmp") << "a.bmp" << CV_8UC3;
    }
    void budgetHoldsForEveryParsedFormat() {
        QFETCH(QString, name);
        QFETCH(int, type);
        const std::string file = dir_.filePath(name).toStdString();
        QVERIFY(cv::imwrite(file, cv::Mat(700, 900, type, cv::Scalar::all(7))));
        const auto header = io::readImageHeader(file);
        QVERIFY(header.has_value());
        QCOMPARE(header->width, 900);
        QCOMPARE(header->height, 700);
        QCOMPARE(header->channels, CV_MAT_CN(type));
        io::setImageMemoryBudget(512 * 1024);
        const std::string e = errorOf(file);
        QVERIFY2(contains(e, "900×700") && contains(e, "budget of 512 KiB"), e.c_str());
        io::setImageMemoryBudget(0);
        QCOMPARE(errorOf(file), std::string());
    }

    void unsupportedTiffsAreNamed_data() {
        QTest::addColumn<int>("spp");
        QTest::addColumn<int>("bits");
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("expected");
        QTest::addRow("uint32") << 1 << 32 << 1 << "uint32";
        QTest::addRow("int16") << 1 << 16 << 2 << "int16";
        QTest::addRow("float16") << 1 << 16 << 3 << "float16";
        QTest::addRow("5 samples") << 5 << 8 << 1 << "5 samples per pixel";
    }
    void unsupportedTiffsAreNamed() {
        QFETCH(int, spp);
        QFETCH(int, bits);
        QFETCH(int, format);
        QFETCH(QString, expected);
        writeBytes(path("odd.tiff"), tiffFile(16, 8, spp, bits, format));
        const std::string e = errorOf(path("odd.tiff"));
        QVERIFY2(contains(e, expected.toStdString()) && contains(e, "odd.tiff"), e.c_str());
        QVERIFY2(!contains(e, "OpenCV") && e.find('\n') == std::string::npos, e.c_str());
    }

    // Gray and alpha: OpenCV reads the gray channel.
    void twoSampleTiffIsRead() {
        writeBytes(path("ga.tiff"), tiffFile(16, 8, 2, 8, 1));
        QCOMPARE(errorOf(path("ga.tiff")), std::string());
    }

    // Formats outside the list are refused before any decoder sees them: OpenCV hands a
    // file with "DICM" at byte 128 to GDCM, which aborted the process.
    void unknownFormatsAreRefusedUpFront() {
        std::vector<unsigned char> dicom(132, 0);
        dicom[128] = 'D', dicom[129] = 'I', dicom[130] = 'C', dicom[131] = 'M';
        writeBytes(path("scan.png"), dicom);
        const std::string e = errorOf(path("scan.png"));
        QVERIFY2(contains(e, "not an image in a format LineScope reads"), e.c_str());
        writeBytes(path("text.png"), {'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd', '\n'});
        QVERIFY(contains(errorOf(path("text.png")), "not an image in a format"));
    }

    // A JPEG cut short decodes with grey in place of the missing part and a libjpeg warning:
    // refused, not shown.
    void truncatedJpegIsRefused() {
        std::vector<uchar> bytes;
        cv::Mat noise(64, 64, CV_8UC1);
        cv::randu(noise, 0, 255);
        QVERIFY(cv::imencode(".jpg", noise, bytes));
        bytes.resize(bytes.size() / 2);
        writeBytes(path("cut.jpg"), bytes);
        const std::string e = errorOf(path("cut.jpg"));
        QVERIFY2(contains(e, "truncated or damaged"), e.c_str());
    }

    void multiPageTiffSaysItReadsTheFirstPage() {
        writeBytes(path("pages.tiff"), tiffFile(16, 8, 1, 8, 1, 3));
        std::vector<std::string> notices;
        QCOMPARE(errorOf(path("pages.tiff"), &notices), std::string());
        QCOMPARE(notices.size(), std::size_t{1});
        QVERIFY2(contains(notices[0], "3 pages: using the first"), notices[0].c_str());
    }

    // The app decodes on worker threads: concurrent reads that make codecs complain (each
    // captures fd 2 while it decodes) must leave fd 2 as it was, and each gets its own error.
    void concurrentReadsKeepStderr() {
        std::vector<unsigned char> png;
        {
            std::vector<uchar> bytes;
            QVERIFY(cv::imencode(".png", cv::Mat(64, 64, CV_8UC1, cv::Scalar(9)), bytes));
            bytes.resize(bytes.size() - 20);  // IDAT cut: libpng complains on stderr
            png.assign(bytes.begin(), bytes.end());
        }
        writeBytes(path("cut.png"), png);
        struct stat before {}, after {};
        QCOMPARE(::fstat(2, &before), 0);
        std::atomic<int> errors{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 6; ++t)
            threads.emplace_back([&] {
                for (int i = 0; i < 25; ++i)
                    if (!errorOf(path("cut.png")).empty()) ++errors;
            });
        for (auto& th : threads) th.join();
        QCOMPARE(errors.load(), 6 * 25);
        QCOMPARE(::fstat(2, &after), 0);
        QVERIFY(before.st_dev == after.st_dev && before.st_ino == after.st_ino);
    }

    // Batch decodes on many threads at once: a good JPEG decoded beside a damaged one (whose
    // libjpeg warning lands in the shared capture) must still be read, each damaged one
    // refused, and every good image equal to OpenCV's own reading of it.
    void concurrentReadsJudgeEachFileAlone() {
        cv::Mat noise(96, 80, CV_8UC1);
        cv::randu(noise, 0, 255);
        std::vector<uchar> good;
        QVERIFY(cv::imencode(".jpg", noise, good));
        std::vector<uchar> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(good.size() / 2));
        writeBytes(path("good.jpg"), good);
        writeBytes(path("half.jpg"), cut);
        const cv::Mat want = cv::imread(path("good.jpg"), cv::IMREAD_UNCHANGED);
        std::atomic<int> wrong{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 8; ++t)
            threads.emplace_back([&, t] {
                for (int i = 0; i < 30; ++i) {
                    if ((i + t) % 2 == 0) {
                        if (!contains(errorOf(path("half.jpg")), "truncated or damaged")) ++wrong;
                        continue;
                    }
                    try {
                        const cv::Mat m = io::readImage(path("good.jpg"), [](const std::string&) {});
                        if (m.size() != want.size() || m.type() != want.type() || cv::norm(m, want, cv::NORM_INF) != 0)
                            ++wrong;
                    } catch (const std::exception&) {
                        ++wrong;
                    }
                }
            });
        for (auto& th : threads) th.join();
        QCOMPARE(wrong.load(), 0);
    }

    // Codec calls on two threads run at the same time (each waits here until the other has
    // begun: were they taken one at a time, neither would see the other within ten seconds).
    void codecCallsRunSideBySide() {
        std::atomic<int> inside{0}, runs{0};
        std::atomic<bool> met[2] = {false, false};
        std::string lines[2];
        auto worker = [&](int i) {
            lines[i] = io::quietCodecCall([&] {
                ++runs;
                ++inside;
                const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                while (inside.load() < 2 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
                met[i] = inside.load() >= 2;
            });
        };
        std::thread a(worker, 0), b(worker, 1);
        a.join();
        b.join();
        QVERIFY(met[0] && met[1]);
        QCOMPARE(runs.load(), 2);  // nothing was written: no call ran again
        QCOMPARE(lines[0], std::string());
        QCOMPARE(lines[1], std::string());
    }

    // A call that prints beside one that does not: both run again alone, and the line is
    // given to the call that wrote it, not to its neighbour.
    void aLineGoesToTheCallThatWroteIt() {
        std::atomic<int> entered{0}, runsA{0}, runsB{0};
        std::string lineA = "unset", lineB = "unset";
        auto meet = [&](std::atomic<int>& runs) {
            if (runs++ > 0) return;  // the second run, alone: nobody to meet
            ++entered;
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (entered.load() < 2 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
        };
        std::atomic<bool> aWrote{false};
        std::thread a([&] {
            lineA = io::quietCodecCall([&] {
                meet(runsA);
                std::fprintf(stderr, "\ncodec says: A is broken\n");
                aWrote = true;
            });
        });
        std::thread b([&] {
            lineB = io::quietCodecCall([&] {
                const bool first = runsB.load() == 0;
                meet(runsB);
                // B's first run ends after A has written, inside the window they share.
                const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                while (first && !aWrote.load() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
            });
        });
        a.join();
        b.join();
        QCOMPARE(lineA, std::string("codec says: A is broken"));
        QCOMPARE(lineB, std::string());
        QCOMPARE(runsA.load(), 2);
        QCOMPARE(runsB.load(), 2);
    }

    // A call whose line does not matter for its outcome (a PNG's warning on a good decode) is
    // not run again, even though it printed: one run, no line.
    void anUnwantedLineCostsNoSecondRun() {
        int runs = 0;
        const std::string line = io::quietCodecCall(
            [&] {
                ++runs;
                std::fprintf(stderr, "libpng warning: iCCP: known incorrect sRGB profile\n");
            },
            [] { return false; });
        QCOMPARE(runs, 1);
        QCOMPARE(line, std::string());
        // Wanted, the same call runs again alone and gives its line.
        runs = 0;
        const std::string wanted = io::quietCodecCall(
            [&] {
                ++runs;
                std::fprintf(stderr, "libpng warning: iCCP: known incorrect sRGB profile\n");
            },
            [] { return true; });
        QCOMPARE(runs, 2);
        QCOMPARE(wanted, std::string("libpng warning: iCCP: known incorrect sRGB profile"));
    }

    void byteSizes() {
        QCOMPARE(io::parseByteSize("8G").value_or(0), std::uint64_t{8} << 30);
        QCOMPARE(io::parseByteSize("512MiB").value_or(0), std::uint64_t{512} << 20);
        QCOMPARE(io::parseByteSize("100k").value_or(0), std::uint64_t{100} << 10);
        QCOMPARE(io::parseByteSize("123").value_or(0), std::uint64_t{123});
        for (const char* bad : {"", "0", "-1", "1.5G", "G", "12X", "9999999999T"})
            QVERIFY2(!io::parseByteSize(bad).has_value(), bad);
        QCOMPARE(io::byteSizeText(1536.0 * 1024 * 1024), std::string("1.5 GiB"));
    }
};

QTEST_MAIN(TestImageLoading)
#include "test_image_loading.moc"
