// Singular points by the Poincaré index (compute/singular_points.h): synthetic block fields
// of the zero-pole model with a known core and delta, fields without any, a core on the
// background, and synthetic prints (tests/tasks/prints) whose model's cores and deltas are
// known, through the engine's own orientation field.
#include "compute/orientation_field.h"
#include "compute/singular_points.h"
#include "tests/tasks/prints/fingerprint_synth.h"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <vector>

using namespace linescope;

namespace {

constexpr double kPi = std::numbers::pi;

// The angle counter-clockwise on screen (y down) of the vector from p to (x, y), radians.
double screenArg(double x, double y, double px, double py) { return std::atan2(-(y - py), x - px); }

// Sherlock and Monro's zero-pole field over blocks: θ = ½ Σ arg(z − core) − ½ Σ arg(z − delta),
// evaluated at the blocks' centres; positions in blocks.
std::vector<float> zeroPoleField(int bw, int bh, const std::vector<QPointF>& cores, const std::vector<QPointF>& deltas,
                                 double theta0 = 0) {
    std::vector<float> f(static_cast<std::size_t>(bw) * bh);
    for (int y = 0; y < bh; ++y)
        for (int x = 0; x < bw; ++x) {
            double t = theta0;
            for (const QPointF& c : cores) t += 0.5 * screenArg(x + 0.5, y + 0.5, c.x(), c.y());
            for (const QPointF& d : deltas) t -= 0.5 * screenArg(x + 0.5, y + 0.5, d.x(), d.y());
            double deg = std::fmod(t * 180 / kPi, 180.0);
            if (deg < 0) deg += 180;
            f[static_cast<std::size_t>(y) * bw + x] = static_cast<float>(deg >= 180 ? 0 : deg);
        }
    return f;
}

int countKind(const std::vector<SingularPoint>& pts, SingularKind k) {
    int n = 0;
    for (const auto& p : pts) n += p.kind == k ? 1 : 0;
    return n;
}

// The point of kind k nearest (x, y), its distance in blocks (infinity when none).
double nearest(const std::vector<SingularPoint>& pts, SingularKind k, double x, double y) {
    double best = INFINITY;
    for (const auto& p : pts)
        if (p.kind == k) best = std::min(best, std::hypot(p.x - x, p.y - y));
    return best;
}

}  // namespace

class TestSingularPoints : public QObject {
    Q_OBJECT
private slots:
    void indexAroundOneCoreAndOneDelta() {
        // Core and delta off the block centres (between blocks), as in prints.
        const auto f = zeroPoleField(30, 24, {QPointF(9.3, 8.2)}, {QPointF(20.6, 15.7)});
        // The block holding each point has a ring around it with index ±1.
        QCOMPARE(poincareIndex(f, 30, 24, 9, 8), 1);
        QCOMPARE(poincareIndex(f, 30, 24, 20, 15), -1);
        QCOMPARE(poincareIndex(f, 30, 24, 15, 12), 0);
        QCOMPARE(poincareIndex(f, 30, 24, 3, 20), 0);
        QCOMPARE(poincareIndex(f, 30, 24, 0, 5), 0);  // the ring leaves the field
    }

    void findsTheKnownPositions_data() {
        QTest::addColumn<double>("smoothing");
        QTest::newRow("raw") << 0.0;
        QTest::newRow("sigma 1") << 1.0;
        QTest::newRow("sigma 2") << 2.0;
    }
    void findsTheKnownPositions() {
        QFETCH(double, smoothing);
        const QPointF core(9.3, 8.2), delta(20.6, 15.7);
        const auto f = zeroPoleField(30, 24, {core}, {delta}, 0.3);
        const auto pts = singularPoints(f, {}, 30, 24, {smoothing});
        QCOMPARE(countKind(pts, SingularKind::Core), 1);
        QCOMPARE(countKind(pts, SingularKind::Delta), 1);
        QVERIFY2(nearest(pts, SingularKind::Core, core.x(), core.y()) <= 1.0, "core more than a block off");
        QVERIFY2(nearest(pts, SingularKind::Delta, delta.x(), delta.y()) <= 1.0, "delta more than a block off");
        QCOMPARE(pts.front().kind, SingularKind::Core);  // cores first
    }

    void whorlHasTwoCoresAndTwoDeltas() {
        const auto f = zeroPoleField(40, 40, {QPointF(17.4, 16.2), QPointF(22.5, 21.3)}, {QPointF(7.2, 31.6), QPointF(32.3, 31.8)});
        const auto pts = singularPoints(f, {}, 40, 40, {1.0});
        QCOMPARE(countKind(pts, SingularKind::Core), 2);
        QCOMPARE(countKind(pts, SingularKind::Delta), 2);
        QVERIFY(nearest(pts, SingularKind::Core, 17.4, 16.2) <= 1.0);
        QVERIFY(nearest(pts, SingularKind::Core, 22.5, 21.3) <= 1.0);
        QVERIFY(nearest(pts, SingularKind::Delta, 7.2, 31.6) <= 1.0);
        QVERIFY(nearest(pts, SingularKind::Delta, 32.3, 31.8) <= 1.0);
    }

    void smoothFieldsHaveNone() {
        std::vector<float> f(20 * 15);
        for (int y = 0; y < 15; ++y)
            for (int x = 0; x < 20; ++x) f[static_cast<std::size_t>(y) * 20 + x] = static_cast<float>(std::fmod(170.0 + 6.0 * x + 2.0 * y, 180.0));
        QVERIFY(singularPoints(f, {}, 20, 15, {0.0}).empty());
        QVERIFY(singularPoints(f, {}, 20, 15, {1.0}).empty());
    }

    void backgroundRingsAreSkipped() {
        const auto f = zeroPoleField(30, 24, {QPointF(9.3, 8.2)}, {QPointF(20.6, 15.7)});
        std::vector<unsigned char> fg(f.size(), 1);
        // The core's block on the background (a point lies inside the rings of up to 4 blocks:
        // each of them has that block in its 3×3).
        fg[static_cast<std::size_t>(8) * 30 + 9] = 0;
        const auto pts = singularPoints(f, fg, 30, 24, {0.0});
        QCOMPARE(countKind(pts, SingularKind::Core), 0);
        QCOMPARE(countKind(pts, SingularKind::Delta), 1);
    }

    // Prints of every class with singular points: each model core and delta well inside the
    // finger is found within 1.5 blocks (24 px) by the engine's field at its defaults (a pair
    // closer than 3 blocks may be found as one point near either).
    void syntheticPrints_data() {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<int>("quality");
        int found = 0;
        for (quint64 seed = 1; seed < 60 && found < 6; ++seed) {
            const auto q = found < 4 ? tasks::PrintQuality::Good : tasks::PrintQuality::Degraded;
            const auto print = tasks::makeSyntheticPrint(seed, q);
            if (print.cores.empty() || print.partial) continue;
            ++found;
            QTest::addRow("%s %s seed %llu", tasks::printClassName(print.printClass), tasks::printQualityName(q),
                          static_cast<unsigned long long>(seed))
                << seed << static_cast<int>(q);
        }
    }
    void syntheticPrints() {
        QFETCH(quint64, seed);
        QFETCH(int, quality);
        const auto print = tasks::makeSyntheticPrint(seed, static_cast<tasks::PrintQuality>(quality));
        const cv::Mat& img = print.image;
        const ImageView<const std::uint8_t> view(img.ptr<std::uint8_t>(), img.cols, img.rows, static_cast<std::ptrdiff_t>(img.step));
        OrientationFieldParams p;
        const OrientationField field = estimateOrientationField(view, p);
        const double b = field.blockSize;
        const auto pts = singularPoints(field.angle, field.foreground, field.blocksX, field.blocksY, {1.0});
        // Well inside: every block within 2 of the point's block is on the finger's mask.
        const auto wellInside = [&](const cv::Point2d& q) {
            for (int dy = -40; dy <= 40; dy += 8)
                for (int dx = -40; dx <= 40; dx += 8) {
                    const int x = static_cast<int>(q.x) + dx, y = static_cast<int>(q.y) + dy;
                    if (x < 0 || y < 0 || x >= img.cols || y >= img.rows || !print.mask.at<uchar>(y, x)) return false;
                }
            return true;
        };
        int checked = 0;
        for (const auto& [kind, list] : {std::pair{SingularKind::Core, &print.cores}, std::pair{SingularKind::Delta, &print.deltas}})
            for (const cv::Point2d& q : *list) {
                if (!wellInside(q)) continue;
                ++checked;
                double d = nearest(pts, kind, q.x / b, q.y / b);
                // Two points of a kind less than 3 blocks apart (a whorl's pair of cores) share
                // the 3×3-block ring of the Poincaré index, so the field may show them as one:
                // then a point found near either stands for both.
                for (const cv::Point2d& other : *list)
                    if (other != q && cv::norm(other - q) < 3 * b) d = std::min(d, nearest(pts, kind, other.x / b, other.y / b));
                QVERIFY2(d <= 1.5, qPrintable(QString("%1 at (%2, %3) px: nearest found %4 blocks away (%5 points)")
                                                  .arg(kind == SingularKind::Core ? "core" : "delta")
                                                  .arg(q.x).arg(q.y).arg(d).arg(pts.size())));
            }
        QVERIFY2(checked > 0, "no singular point well inside this print");
    }
};

QTEST_APPLESS_MAIN(TestSingularPoints)
#include "test_singular_points.moc"
