// The CLI's parser on its own: strict numbers (no truncation, no hexadecimal, no spaces,
// nothing infinite), short words that are options or numbers, the help-against-options
// check; batch's default decoders, CPU engine threads and their byte gate; and app/io's
// JSON strings, which must stay valid UTF-8 whatever the file names.
#include "app/cli/args.h"
#include "app/cli/batch_plan.h"
#include "app/cli/byte_gate.h"
#include "app/io/json_writer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

using namespace linescope;
using namespace linescope::cli;

namespace {
// The UsageError's text, or "" when `f` throws nothing.
template <class F>
std::string usageError(F&& f) {
    try {
        f();
    } catch (const UsageError& e) {
        return e.what();
    }
    return {};
}
}  // namespace

class TestCliArgs : public QObject {
    Q_OBJECT

private slots:
    // A decoder a core on the CPU; two cores left to each GPU; never fewer than two.
    void batchDecodersLeaveCoresToGpuEngines() {
        QCOMPARE(defaultBatchDecoders(16, 0), 16);
        QCOMPARE(defaultBatchDecoders(16, 1), 14);
        QCOMPARE(defaultBatchDecoders(32, 2), 28);
        QCOMPARE(defaultBatchDecoders(4, 2), 2);
        QCOMPARE(defaultBatchDecoders(1, 0), 2);
        QCOMPARE(defaultBatchDecoders(0, 1), 2);  // hardware_concurrency may not know
    }

    // On the CPU a batch of at least as many files as cores runs one file a core, each on one
    // thread; fewer files get one engine thread with every core.
    void cpuBatchRunsAFileACoreWhenFilesAreEnough() {
        const auto check = [](int cores, std::size_t files, int threads, int threadsEach) {
            const CpuEngines e = defaultBatchCpuEngines(cores, files);
            QCOMPARE(e.threads, threads);
            QCOMPARE(e.threadsEach, threadsEach);
        };
        check(2, 50, 2, 1);
        check(16, 16, 16, 1);
        check(16, 15, 1, 0);
        check(2, 1, 1, 0);
        check(1, 50, 1, 0);
        check(0, 50, 1, 0);  // hardware_concurrency may not know
    }

    // The CPU engine threads of a batch hold their images' bytes: a second image waits while
    // the two together would pass the limit, and goes on when the first is done; an image
    // larger than the limit alone still runs (the loader has already refused anything larger
    // than its budget, so the batch never stops).
    void cpuImagesWaitForRoomButOneAlwaysRuns() {
        ByteGate gate(100);
        {
            ByteGate::Hold big(gate, 250);  // alone: goes through
            QCOMPARE(gate.held(), std::uint64_t{250});
        }
        std::atomic<bool> secondIn{false};
        std::thread second;
        {
            ByteGate::Hold first(gate, 60);
            ByteGate::Hold small(gate, 40);  // 100 fits
            second = std::thread([&] {
                ByteGate::Hold h(gate, 60);
                secondIn = true;
            });
            QTRY_COMPARE(gate.waiting(), std::uint64_t{1});
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            QVERIFY(!secondIn);  // 160 would pass the limit
        }
        second.join();
        QVERIFY(secondIn);
        QCOMPARE(gate.held(), std::uint64_t{0});

        // In order: a large hold that waits is not passed over by a small one that would fit.
        std::atomic<int> order{0}, largeAt{-1}, smallAt{-1};
        std::thread large, small;
        {
            ByteGate::Hold first(gate, 60);
            large = std::thread([&] {
                ByteGate::Hold h(gate, 90);
                largeAt = order++;
            });
            QTRY_COMPARE(gate.waiting(), std::uint64_t{1});
            small = std::thread([&] {
                ByteGate::Hold h(gate, 10);  // 70 would fit, but the large one came first
                smallAt = order++;
            });
            QTRY_COMPARE(gate.waiting(), std::uint64_t{2});
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            QCOMPARE(smallAt.load(), -1);
        }
        large.join();
        small.join();
        QCOMPARE(largeAt.load(), 0);
        QCOMPARE(smallAt.load(), 1);
    }

    void integers() {
        QCOMPARE(parseInteger("17", "--n", 0, 100), 17LL);
        QCOMPARE(parseInteger("+17", "--n", 0, 100), 17LL);
        QCOMPARE(parseInteger("-3", "--n", -5, 5), -3LL);
        for (const char* bad : {"1.9", "2.5", "0.5", "1e3", "0x10", " 5", "5 ", "", "+", "-", "+-3", "++3", "inf", "nan",
                                "3px", "99999999999999999999999"}) {
            const std::string e = usageError([&] { (void)parseInteger(bad, "--block", 1, 4096); });
            QVERIFY2(e.find("--block") != std::string::npos && e.find(std::string("'") + bad + "'") != std::string::npos,
                     bad);
        }
        QVERIFY(usageError([] { (void)parseInteger("0", "--block", 1, 4096); }).find("between 1 and 4096") !=
                std::string::npos);
    }

    void reals() {
        QCOMPARE(parseReal("30", "--angle"), 30.0);
        QCOMPARE(parseReal("-2.5", "--angle"), -2.5);
        QCOMPARE(parseReal("+2.5", "--angle"), 2.5);
        QCOMPARE(parseReal(".5", "--angle"), 0.5);
        QCOMPARE(parseReal("1e-3", "--angle"), 1e-3);
        for (const char* bad : {"0x1e", "0x1p4", "inf", "-inf", "Infinity", "nan", "NAN(1)", "1e400", "-1e400", " 30",
                                "30 ", "\t30", "", "+", "+-3", "++3", "30°", "1,5"}) {
            const std::string e = usageError([&] { (void)parseReal(bad, "--angle"); });
            QVERIFY2(e.find("--angle") != std::string::npos && e.find(std::string("'") + bad + "'") != std::string::npos,
                     bad);
        }
    }

    void shortWords() {
        const std::vector<OptionSpec> specs{{"--angle", true}, {"--quick", false}};
        const Args a({"-3", "--angle", "-3", "-.5", "-", "--", "-l"}, specs, "open");
        QCOMPARE(a.value("--angle").value_or(""), std::string("-3"));
        QCOMPARE(a.positionals(), (std::vector<std::string>{"-3", "-.5", "-", "-l"}));  // "-l" after "--" is a file
        QCOMPARE(Args({"--angle=-7"}, specs, "open").value("--angle").value_or(""), std::string("-7"));
        QVERIFY(Args({"-h"}, specs, "open").helpRequested());
        for (const char* bad : {"-l", "-x=1", "-inf", "-quick"}) {
            const std::string e = usageError([&] { Args({bad}, specs, "open"); });
            QVERIFY2(e.find(std::string("unknown option '") + bad + "'") != std::string::npos, e.c_str());
        }
        QVERIFY(usageError([&] { Args({"--frobnicate"}, specs, "open"); }).find("unknown option '--frobnicate'") !=
                std::string::npos);
        QVERIFY(!usageError([&] { Args({"--quick=1"}, specs, "open"); }).empty());
        QVERIFY(!usageError([&] { Args({"--angle"}, specs, "open"); }).empty());
    }

    void helpAgainstOptions() {
        const std::vector<OptionSpec> specs{{"--length", true}, {"--refine-step", true}, {"--bright-lines", false}};
        const std::string help = "usage: x [--length L] PAGE (see --help)\n"
                                 "  --refine-step S    in steps; --bright-lines, e.g. --length=5.\n"
                                 "  a -- b, pre--length and --- are not options\n";
        HelpMismatch m = compareHelp(specs, help);
        QVERIFY(m.undeclared.empty() && m.undocumented.empty());
        m = compareHelp({{"--length", true}, {"--frobnicate", false}}, help);
        QCOMPARE(m.undocumented, std::vector<std::string>{"--frobnicate"});
        QCOMPARE(m.undeclared, (std::vector<std::string>{"--refine-step", "--bright-lines"}));
    }

    void jsonStringsStayUtf8() {
        // Valid UTF-8 passes through; stray and truncated bytes, overlong forms and
        // surrogates become U+FFFD; control characters are escaped.
        const std::vector<std::pair<std::string, QString>> cases{
            {"plain.png", QStringLiteral("plain.png")},
            {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb5", QStringLiteral("café € 🎵")},
            {"caf\xe9.png", QStringLiteral("caf\uFFFD.png")},
            {"\xff\xfe", QStringLiteral("\uFFFD\uFFFD")},
            {"\xc0\xaf", QStringLiteral("\uFFFD\uFFFD")},      // overlong '/'
            {"\xed\xa0\x80", QStringLiteral("\uFFFD\uFFFD\uFFFD")},  // a UTF-16 surrogate
            {"\xf4\x90\x80\x80", QStringLiteral("\uFFFD\uFFFD\uFFFD\uFFFD")},  // above U+10FFFF
            {"end\xe2\x82", QStringLiteral("end\uFFFD\uFFFD")},  // truncated
            {"tab\t\"q\"\\\x01", QStringLiteral("tab\t\"q\"\\\u0001")},
        };
        for (const auto& [text, expected] : cases) {
            const std::string json = "[" + io::jsonString(text) + "]";
            QJsonParseError err{};
            const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &err);
            QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(QString::fromLatin1(json) + ": " + err.errorString()));
            QCOMPARE(doc.array().at(0).toString(), expected);
        }
    }
};

QTEST_APPLESS_MAIN(TestCliArgs)
#include "test_cli_args.moc"
