// The engine's worker pool: every index once, chunks that repeat (float sums rely on it),
// nested loops that do not deadlock.
#include "compute/thread_pool.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <mutex>
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
};

QTEST_APPLESS_MAIN(TestThreadPool)
#include "test_thread_pool.moc"
