// The order of a long sweep's angles (compute/sweep_chunks.h), without a GPU: the chunks
// partition the angle set, each chunk's angles are the set's own to the bit, the first
// chunks cover every d-th angle so that a preview is evenly spread, and — the premise of the
// device's interleaved sweeps — folding the chunks' sweeps in this order with the tie rule
// (the smallest angle index) gives sweep() over the whole set bit for bit. The GPU suites
// (test_cuda_zones, test_gpu_session) run the device fold itself.
#include "compute/sweep.h"
#include "compute/sweep_chunks.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <cstring>
#include <string>
#include <vector>

using namespace linescope;

namespace {

bool sameDouble(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every index of `all` in exactly one chunk, each chunk's angle j the set's angle first + stride·j.
void checkPartition(const AngleSet& all, const std::vector<SweepChunk>& chunks) {
    std::vector<int> seen(static_cast<std::size_t>(all.count), 0);
    for (const SweepChunk& c : chunks)
        for (int j = 0; j < c.angles.count; ++j) {
            const int k = c.first + c.stride * j;
            QVERIFY(k >= 0 && k < all.count);
            ++seen[static_cast<std::size_t>(k)];
            QVERIFY2(sameDouble(c.angles.angle(j), all.angle(k)), ("angle " + std::to_string(k)).c_str());
        }
    for (int k = 0; k < all.count; ++k) QCOMPARE(seen[static_cast<std::size_t>(k)], 1);
}

// The host twin of the device's foldChunk (compute/cuda/resident.cu).
template <class T>
void fold(SweepResult<T>& acc, const SweepResult<T>& part, const SweepChunk& c, bool take, bool bySup) {
    for (int y = 0; y < acc.sup.height(); ++y)
        for (int x = 0; x < acc.sup.width(); ++x) {
            const T cs = part.sup.at(x, y), ci = part.inf.at(x, y);
            const auto k = static_cast<std::uint16_t>(c.first + c.stride * part.argIndex.at(x, y));
            if (take) {
                acc.sup.at(x, y) = cs;
                acc.inf.at(x, y) = ci;
                acc.argIndex.at(x, y) = k;
                continue;
            }
            const T s = acc.sup.at(x, y), i = acc.inf.at(x, y);
            const bool better = bySup ? (s < cs || (s == cs && k < acc.argIndex.at(x, y)))
                                      : (ci < i || (ci == i && k < acc.argIndex.at(x, y)));
            if (better) acc.argIndex.at(x, y) = k;
            if (s < cs) acc.sup.at(x, y) = cs;
            if (ci < i) acc.inf.at(x, y) = ci;
        }
}

template <class T>
void checkFoldEqualsSweep(const AngleSet& angles, int chunkAngles, MorphOp op, std::uint64_t seed,
                          test::ImageKind kind) {
    const Image<T> img = test::randomImage<T>(37, 29, seed, kind);
    const SweepRequest req{op, 5, angles};
    const SweepResult<T> want = sweep<T>(img.cview(), req);
    const auto chunks = sweepChunks(angles, chunkAngles);
    SweepResult<T> acc;
    acc.sup = Image<T>(img.width(), img.height());
    acc.inf = Image<T>(img.width(), img.height());
    acc.argIndex = Image<std::uint16_t>(img.width(), img.height());
    const bool bySup = op == MorphOp::Open || op == MorphOp::Erode;
    for (std::size_t c = 0; c < chunks.size(); ++c) {
        SweepRequest part = req;
        part.angles = chunks[c].angles;
        fold<T>(acc, sweep<T>(img.cview(), part), chunks[c], c == 0, bySup);
    }
    const std::string what = std::string(morphOpName(op)) + " " + test::imageKindName(kind) + " chunk " +
                             std::to_string(chunkAngles);
    const auto d1 = test::firstDifference(want.sup, acc.sup), d2 = test::firstDifference(want.inf, acc.inf);
    const auto d3 = test::firstDifference(want.argIndex, acc.argIndex);
    QVERIFY2(!d1, (what + " sup: " + d1.value_or("")).c_str());
    QVERIFY2(!d2, (what + " inf: " + d2.value_or("")).c_str());
    QVERIFY2(!d3, (what + " arg: " + d3.value_or("")).c_str());
}

}  // namespace

class TestSweepChunks : public QObject {
    Q_OBJECT

private slots:
    void interleavedAndEvenlySpread() {
        const AngleSet all = AngleSet::overHalfTurn(180);
        const auto chunks = sweepChunks(all, 45);
        QCOMPARE(chunks.size(), std::size_t{4});
        checkPartition(all, chunks);
        const int firsts[] = {0, 2, 1, 3};  // after 1 chunk every 4th angle, after 2 every 2nd
        for (int c = 0; c < 4; ++c) {
            QCOMPARE(chunks[static_cast<std::size_t>(c)].first, firsts[c]);
            QCOMPARE(chunks[static_cast<std::size_t>(c)].stride, 4);
            QCOMPARE(chunks[static_cast<std::size_t>(c)].angles.count, 45);
        }
        const auto one = coveredAfter(all, chunks, 1), two = coveredAfter(all, chunks, 2);
        QVERIFY(one && two);
        QCOMPARE(one->count, 45);
        QCOMPARE(one->step, 4.0);
        QCOMPARE(two->count, 90);
        QCOMPARE(two->step, 2.0);
        QVERIFY(!coveredAfter(all, chunks, 3));  // 0, 1, 2 mod 4: not evenly spread
        QVERIFY(!coveredAfter(all, chunks, 4));  // done: the sweep itself, not a preview
    }

    void everySetAndChunkSizeIsPartitioned() {
        for (const AngleSet& all : {AngleSet::overHalfTurn(180), AngleSet::overHalfTurn(7), AngleSet::overHalfTurn(720),
                                    AngleSet::parse("-10:10.25:0.25"), AngleSet{0.1, 0.7, 101}, AngleSet{5, 1, 1}})
            for (int chunk : {0, 1, 3, 8, 45, 100, 1000}) {
                const auto chunks = sweepChunks(all, chunk);
                checkPartition(all, chunks);
                if (QTest::currentTestFailed()) {
                    qWarning("set %g:%g x%d, chunk %d", all.start, all.step, all.count, chunk);
                    return;
                }
                for (int done = 1; done < static_cast<int>(chunks.size()); ++done)
                    if (const auto covered = coveredAfter(all, chunks, done))
                        for (int j = 0; j < covered->count; ++j) {  // every angle covered is one done
                            bool found = false;
                            for (int c = 0; c < done && !found; ++c)
                                for (int i = 0; i < chunks[static_cast<std::size_t>(c)].angles.count && !found; ++i)
                                    found = sameDouble(chunks[static_cast<std::size_t>(c)].angles.angle(i),
                                                       covered->angle(j));
                            QVERIFY(found);
                        }
            }
    }

    // Flat and few-level images make ties at most pixels: the rule must pick sweep()'s angle.
    void foldingTheChunksGivesTheSweep() {
        for (int chunk : {0, 7, 45})
            for (MorphOp op : {MorphOp::Open, MorphOp::Close, MorphOp::Erode})
                for (test::ImageKind kind : {test::ImageKind::FewLevels, test::ImageKind::Blocky, test::ImageKind::Specials}) {
                    checkFoldEqualsSweep<std::uint8_t>(AngleSet::overHalfTurn(180), chunk, op, 3, kind);
                    checkFoldEqualsSweep<float>(AngleSet::overHalfTurn(60), chunk, op, 4, kind);
                    checkFoldEqualsSweep<std::uint16_t>(AngleSet{0.1, 0.7, 101}, chunk, op, 5, kind);
                }
    }
};

QTEST_APPLESS_MAIN(TestSweepChunks)
#include "test_sweep_chunks.moc"
