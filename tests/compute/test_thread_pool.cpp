// The engine's worker pool: every index once, chunks that repeat (float sums rely on it),
// nested loops that do not deadlock, and bodies that throw: every worker joined, the error
// rethrown once on the caller, the pool usable afterwards.
#include "compute/thread_pool.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace linescope;

namespace {

std::vector<std::pair<std::size_t, std::size_t>> chunksOf(std::size_t count, int threads) {
    std::mutex m;
    std::vector<std::pair<std::size_t, std::size_t>> chunks;
    parallelFor(count, threads, [&](std::size_t b, std::size_t e) {
        std::lock_guard lk(m);
        chunks.emplace_back(b, e);
    });
    std::sort(chunks.begin(), chunks.end());
    return chunks;
}

}  // namespace

class TestThreadPool : public QObject {
    Q_OBJECT
private slots:
    void everyIndexOnce_data() {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("threads");
        for (int count : {1, 2, 3, 7, 64, 1000, 4097})
            for (int threads : {0, 1, 2, 3, 8}) QTest::addRow("%d items, %d threads", count, threads) << count << threads;
    }
    void everyIndexOnce() {
        QFETCH(int, count);
        QFETCH(int, threads);
        std::vector<std::atomic<int>> hits(static_cast<std::size_t>(count));
        std::atomic<bool> emptyChunk{false};  // QTest's macros are not for worker threads
        parallelFor(static_cast<std::size_t>(count), threads, [&](std::size_t b, std::size_t e) {
            if (b >= e) emptyChunk = true;
            for (std::size_t i = b; i < e; ++i) hits[i].fetch_add(1);
        });
        QVERIFY(!emptyChunk);
        for (int i = 0; i < count; ++i) QCOMPARE(hits[static_cast<std::size_t>(i)].load(), 1);
    }

    void chunksRepeatAndTile() {
        for (int threads : {1, 2, 5})
            for (std::size_t count : {std::size_t{1}, std::size_t{9}, std::size_t{1000}}) {
                const auto a = chunksOf(count, threads);
                QCOMPARE(a, chunksOf(count, threads));
                QCOMPARE(a.size(), std::min<std::size_t>(count, static_cast<std::size_t>(threads)));
                std::size_t next = 0;
                for (const auto& [b, e] : a) {
                    QCOMPARE(b, next);
                    next = e;
                }
                QCOMPARE(next, count);
            }
    }

    void emptyLoopCallsNothing() {
        bool called = false;
        parallelFor(0, 4, [&](std::size_t, std::size_t) { called = true; });
        QVERIFY(!called);
    }

    void oneThreadRunsOnTheCaller() {
        const auto caller = std::this_thread::get_id();
        parallelFor(100, 1, [&](std::size_t, std::size_t) { QCOMPARE(std::this_thread::get_id(), caller); });
    }

    // The caller runs chunk 0; when it throws, parallelFor must still wait for the workers,
    // which are busy on the caller's frame (`running`, `done`), before it unwinds it.
    void callerFailureJoinsTheWorkers() {
        for (int round = 0; round < 20; ++round) {
            std::atomic<int> running{0};
            std::vector<int> done(4, 0);
            bool caught = false;
            try {
                parallelFor(4, 4, [&](std::size_t b, std::size_t) {
                    ++running;
                    if (b == 0) {
                        --running;
                        throw std::runtime_error("chunk 0 failed");
                    }
                    std::this_thread::sleep_for(std::chrono::milliseconds(2));
                    done[b] = 1;
                    --running;
                });
            } catch (const std::runtime_error& e) {
                caught = std::string(e.what()) == "chunk 0 failed";
            }
            QVERIFY(caught);
            QCOMPARE(running.load(), 0);  // nobody is still inside the body
        }
    }

    // An exception on a worker thread reaches the caller (it used to call std::terminate).
    void workerFailureIsRethrownOnTheCaller() {
        const auto caller = std::this_thread::get_id();
        std::atomic<bool> thrownElsewhere{false};
        try {
            parallelFor(8, 4, [&](std::size_t b, std::size_t) {
                if (b >= 6) {
                    thrownElsewhere = std::this_thread::get_id() != caller;
                    throw std::bad_alloc();
                }
            });
            QFAIL("parallelFor returned although a chunk threw");
        } catch (const std::bad_alloc&) {
        }
        QVERIFY(thrownElsewhere);
    }

    // Several chunks fail: one exception comes out, always the lowest chunk's.
    void lowestFailingChunkWins() {
        for (int round = 0; round < 20; ++round) {
            try {
                parallelFor(6, 3, [&](std::size_t b, std::size_t) {
                    if (b > 0) throw std::runtime_error("chunk " + std::to_string(b));
                });
                QFAIL("no exception");
            } catch (const std::runtime_error& e) {
                QCOMPARE(std::string(e.what()), std::string("chunk 2"));
            }
        }
    }

    void poolWorksAfterFailures() {
        for (int round = 0; round < 10; ++round) {
            QVERIFY_THROWS_EXCEPTION(std::logic_error, parallelFor(100, 4, [](std::size_t b, std::size_t) {
                if (b == 25) throw std::logic_error("x");
            }));
            std::atomic<int> sum{0};
            parallelFor(100, 4, [&](std::size_t b, std::size_t e) { sum += static_cast<int>(e - b); });
            QCOMPARE(sum.load(), 100);
        }
    }

    // A nested loop that throws fails its enclosing chunk, which fails the outer loop.
    void nestedFailurePropagates() {
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, parallelFor(4, 4, [](std::size_t b, std::size_t) {
            parallelFor(10, 4, [&](std::size_t nb, std::size_t ne) {
                if (b == 3 && nb <= 5 && 5 < ne) throw std::runtime_error("inner");
            });
        }));
    }

    void nestedLoopsComplete() {
        std::atomic<int> total{0};
        parallelFor(4, 2, [&](std::size_t b, std::size_t e) {
            for (std::size_t i = b; i < e; ++i)
                parallelFor(10, 2, [&](std::size_t ib, std::size_t ie) { total += static_cast<int>(ie - ib); });
        });
        QCOMPARE(total.load(), 40);
    }

    void resolvesThreadCounts() {
        QVERIFY(resolveThreads(0) >= 1);
        QCOMPARE(resolveThreads(3), 3);
    }

    // A CPU batch runs one file a core and gives each file's engine calls one thread: within
    // the scope, on its thread only, "one per core" is the scope's count, and a loop of
    // "one per core" runs on the caller alone; explicit counts are kept; scopes nest.
    void defaultThreadsScopeChangesOnlyOnePerCore() {
        const int cores = resolveThreads(0);
        {
            DefaultThreadsScope one(1);
            QCOMPARE(resolveThreads(0), 1);
            QCOMPARE(resolveThreads(3), 3);
            QCOMPARE(chunksOf(100, 0).size(), std::size_t{1});
            int elsewhere = 0;
            std::thread([&] { elsewhere = resolveThreads(0); }).join();
            QCOMPARE(elsewhere, cores);
            {
                DefaultThreadsScope two(2);
                QCOMPARE(resolveThreads(0), 2);
                QCOMPARE(chunksOf(100, 0).size(), std::size_t{2});
            }
            QCOMPARE(resolveThreads(0), 1);
        }
        QCOMPARE(resolveThreads(0), cores);
        DefaultThreadsScope none(0);  // 0 leaves "one per core" as it is
        QCOMPARE(resolveThreads(0), cores);
    }
};

QTEST_APPLESS_MAIN(TestThreadPool)
#include "test_thread_pool.moc"
