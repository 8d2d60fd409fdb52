// The angular resolution (line_resolution.h) against brute force: the pixel set of every grid
// angle taken as a plain std::set, compared with its neighbour's. The ticks must be exactly
// the angles where the set changes, on the window's 0.1° grid and on a 0.01° grid, for every
// kind and several λ; every snapped step must give a different set.
#include "compute/image.h"
#include "compute/line_kernel.h"
#include "compute/line_resolution.h"

#include <QtTest>

#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace linescope;

namespace {

using PixelSet = std::set<std::pair<int, int>>;

PixelSet pixelSet(LineKind kind, double angle, int length) {
    PixelSet s;
    for (const Offset& o : lineKernel(kind, angle, length).offsets()) s.insert({o.dx, o.dy});
    return s;
}

// Every grid index whose set differs from the index before it (modulo the grid).
std::vector<int> bruteChanges(LineKind kind, int length, int stepsPerDegree) {
    const int n = 180 * stepsPerDegree;
    std::vector<PixelSet> sets;
    sets.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) sets.push_back(pixelSet(kind, static_cast<double>(i) / stepsPerDegree, length));
    std::vector<int> out;
    for (int i = 0; i < n; ++i)
        if (sets[static_cast<std::size_t>(i)] != sets[static_cast<std::size_t>((i + n - 1) % n)]) out.push_back(i);
    return out;
}

QString label(LineKind kind, int length, int steps) {
    return QStringLiteral("%1 λ %2 at 1/%3°").arg(lineKindName(kind)).arg(length).arg(steps);
}

constexpr LineKind kKinds[] = {LineKind::Paths, LineKind::Segment, LineKind::Periodic};

}  // namespace

class TestLineResolution : public QObject {
    Q_OBJECT
private slots:
    // The ticks are exactly where the pixel set changes, on the window's grid (0.1°).
    void ticksAreTheChangesOnTheWindowsGrid() {
        for (LineKind kind : kKinds)
            for (int length : {1, 2, 3, 4, 5, 8, 11, 21, 40, 101}) {
                const AngleResolution r(kind, length);
                QVERIFY2(r.changes() == bruteChanges(kind, length, 10), qPrintable(label(kind, length, 10)));
            }
    }

    // The same on a grid ten times finer: the function is not tied to one step.
    void ticksAreTheChangesOnAFineGrid() {
        for (LineKind kind : kKinds)
            for (int length : {3, 6, 11, 25}) {
                const AngleResolution r(kind, length, 100);
                QVERIFY2(r.changes() == bruteChanges(kind, length, 100), qPrintable(label(kind, length, 100)));
            }
    }

    // Between two 0.1° angles that give the same set, no angle of a finer grid gives another:
    // a run of the window's grid is one segment, not two that the grid stepped over.
    void runsHoldOneSetOnAFinerGrid() {
        for (LineKind kind : kKinds)
            for (int length : {5, 11, 21}) {
                const AngleResolution coarse(kind, length);
                const AngleResolution fine(kind, length, 100);
                for (int i = 0; i + 1 < coarse.gridSize(); ++i) {
                    if (coarse.runAt(i) != coarse.runAt(i + 1)) continue;
                    QVERIFY2(fine.runAt(i * 10) == fine.runAt(i * 10 + 10),
                             qPrintable(label(kind, length, 10) + QStringLiteral(" between %1° and %2°")
                                                                      .arg(coarse.angleOf(i))
                                                                      .arg(coarse.angleOf(i + 1))));
                }
            }
    }

    // Each run's angles give one set of the run's size; neighbouring runs differ.
    void runsAreConsistent() {
        for (LineKind kind : kKinds)
            for (int length : {2, 7, 30}) {
                const AngleResolution r(kind, length);
                int total = 0;
                for (const SegmentRun& run : r.runs()) {
                    total += run.count;
                    const PixelSet first = pixelSet(kind, r.angleOf(run.first), length);
                    QCOMPARE(static_cast<int>(first.size()), run.pixels);
                    for (int k = 1; k < run.count; ++k)
                        QVERIFY2(pixelSet(kind, r.angleOf(run.first + k), length) == first,
                                 qPrintable(label(kind, length, 10)));
                }
                QCOMPARE(total, r.gridSize());
            }
    }

    // Snapping forward (as an arrow key or a one-step drag does) from 0° visits every run once,
    // each step giving a different set, and comes back to where it started; backwards too.
    void everySnappedStepGivesADifferentSet() {
        for (LineKind kind : kKinds)
            for (int length : {2, 5, 11, 21, 64}) {
                const AngleResolution r(kind, length);
                const int runs = static_cast<int>(r.runs().size());
                QVERIFY(runs > 1);
                for (int direction : {1, -1}) {
                    int at = r.runs().front().first;
                    std::set<int> visited{r.runAt(at)};
                    for (int step = 0; step < runs; ++step) {
                        const int next = r.snap(at, at + direction);
                        QVERIFY2(pixelSet(kind, r.angleOf(next), length) != pixelSet(kind, r.angleOf(at), length),
                                 qPrintable(label(kind, length, 10) + QStringLiteral(" from %1°").arg(r.angleOf(at))));
                        visited.insert(r.runAt(next));
                        at = next;
                    }
                    QCOMPARE(static_cast<int>(visited.size()), runs);
                    QCOMPARE(at, r.runs().front().first);
                }
            }
    }

    // A move into another run lands on that run's first angle; a step inside a run skips to
    // the next run in its direction, also from the middle of a run and across 0°.
    void snapLandsOnFirstAngles() {
        const AngleResolution r(LineKind::Segment, 11);
        const int n = r.gridSize();
        for (int current : {0, 5, 300, 451, n - 1})
            for (int target : {current + 1, current - 1, current + 40, current - 40, current + 450}) {
                const int got = r.snap(current, target);
                QCOMPARE(r.runs()[static_cast<std::size_t>(r.runAt(got))].first, got);
                QVERIFY(r.runAt(got) != r.runAt(current));
            }
        QCOMPARE(r.snap(300, 300), 300);
    }

    // λ = 1 is one pixel at every angle: no ticks, and snapping leaves the angle alone.
    void onePixelHasOneRun() {
        for (LineKind kind : kKinds) {
            const AngleResolution r(kind, 1);
            QCOMPARE(static_cast<int>(r.runs().size()), 1);
            QVERIFY(r.changes().empty());
            QCOMPARE(r.snap(10, 11), 11);
        }
    }

    void indexOfWraps() {
        const AngleResolution r(LineKind::Paths, 5);
        QCOMPARE(r.indexOf(30.0), 300);
        QCOMPARE(r.indexOf(180.0), 0);
        QCOMPARE(r.indexOf(-0.1), 1799);
        QCOMPARE(r.indexOf(210.04), 300);
    }

    void refusesBadInput() {
        QVERIFY_THROWS_EXCEPTION(Error, AngleResolution(LineKind::Segment, 0));
        QVERIFY_THROWS_EXCEPTION(Error, AngleResolution(LineKind::Segment, 5, 0));
    }
};

QTEST_APPLESS_MAIN(TestLineResolution)
#include "test_line_resolution.moc"
