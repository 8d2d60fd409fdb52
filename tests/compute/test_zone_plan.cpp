// The image zones' planner (compute/zone_plan.h), without a GPU: the strips' kept rows cover
// the image once and in order, each strip reads its kept rows and the operator's reach on
// both sides (clipped to the image), fits the budget, and is as tall as the budget allows;
// one strip when the whole image fits; none, with the smallest strip's need, when even 2R + 1
// rows do not fit. And the premise of zones, on the CPU's per-line path (which draws lines
// only through LineFamily): strips with their stripFamily give the whole image's kept rows
// bit for bit, and strips drawing lines of their own do not. The GPU suite test_cuda_zones
// runs the strips on the device.
#include "compute/cpu/per_line_morph.h"
#include "compute/zone_plan.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <algorithm>
#include <random>
#include <string>

using namespace linescope;

namespace {

// A strip's bytes as the CUDA planners count them: rows of a padded pitch plus a transposed
// image whose pitch is padded too (so not linear in the rows), plus a constant.
std::size_t stripBytes(int rows, std::size_t pitch, std::size_t columns, std::size_t fixed) {
    return fixed + pitch * static_cast<std::size_t>(rows) + (static_cast<std::size_t>(rows) + 511) / 512 * 512 * columns;
}

// op on the image strip by strip (each strip's lines from `familyOf`), the kept rows copied out.
template <class T, class FamilyOf>
Image<T> inZones(const Image<T>& img, MorphOp op, Segment seg, const std::vector<Strip>& strips, FamilyOf&& familyOf) {
    Image<T> out(img.width(), img.height());
    for (const Strip& s : strips) {
        const ImageView<const T> in(img.cview().row(s.loadBegin), img.width(), s.loadRows(), img.width());
        Image<T> part(img.width(), s.loadRows());
        cpu::perLineMorph<T>(op, LineAlgorithm::VanHerk, in, part.view(), familyOf(s), seg, 1);
        for (int y = s.keepBegin; y < s.keepEnd; ++y)
            for (int x = 0; x < img.width(); ++x) out.at(x, y) = part.at(x, y - s.loadBegin);
    }
    return out;
}

}  // namespace

class TestZonePlan : public QObject {
    Q_OBJECT

private slots:
    void reachOfEachOperator() {
        QCOMPARE(zoneReach(MorphOp::Open, 41), 40);
        QCOMPARE(zoneReach(MorphOp::Close, 2), 1);
        QCOMPARE(zoneReach(MorphOp::TopHat, 1), 0);
        QCOMPARE(zoneReach(MorphOp::Erode, 41), 20);
        QCOMPARE(zoneReach(MorphOp::Dilate, 40), 20);  // a = 19, b = 20
        QCOMPARE(zoneReach(MorphOp::Erode, 1), 0);
        QVERIFY_THROWS_EXCEPTION(Error, zoneReach(MorphOp::Open, 0));
    }

    void stripsCoverTheImage() {
        std::mt19937_64 rng(5);
        int zoned = 0;
        for (int i = 0; i < test::scaled(3000); ++i) {
            const int H = 1 + static_cast<int>(rng() % 2000);
            const int R = rng() % 8 == 0 ? static_cast<int>(rng() % 5000) : static_cast<int>(rng() % 200);
            const std::size_t pitch = 512 * (1 + rng() % 8), columns = rng() % 2 ? 0 : 1 + rng() % 700;
            const std::size_t fixed = rng() % 3 == 0 ? 0 : rng() % 100000;
            auto bytes = [&](int rows) { return stripBytes(rows, pitch, columns, fixed); };
            const std::size_t budget = bytes(1 + static_cast<int>(rng() % (H + 50)));
            const StripPlan plan = planStrips(H, R, budget, bytes);
            const int reach = std::min(R, H);
            const std::string ctx = "H " + std::to_string(H) + " R " + std::to_string(R) + " budget " +
                                    std::to_string(budget);
            QCOMPARE(plan.smallestRows, std::min(H, 2 * reach + 1));
            QCOMPARE(plan.smallestBytes, bytes(plan.smallestRows));
            if (!plan.fits()) {
                QVERIFY2(bytes(plan.smallestRows) > budget, ctx.c_str());
                continue;
            }
            if (bytes(H) <= budget) QVERIFY2(plan.strips.size() == 1, ctx.c_str());
            zoned += plan.strips.size() > 1;
            int next = 0;
            for (std::size_t k = 0; k < plan.strips.size(); ++k) {
                const Strip& s = plan.strips[k];
                const std::string sc = ctx + " strip " + std::to_string(k);
                QVERIFY2(s.keepBegin == next && s.keepEnd > s.keepBegin, sc.c_str());
                QVERIFY2(s.loadBegin == std::max(0, s.keepBegin - reach), sc.c_str());
                QVERIFY2(s.loadEnd == std::min(H, s.keepEnd + reach), sc.c_str());
                QVERIFY2(bytes(s.loadRows()) <= budget, sc.c_str());
                // As tall as the budget allows: one more kept row would not fit (but the last).
                if (k + 1 < plan.strips.size()) QVERIFY2(bytes(s.loadRows() + 1) > budget, sc.c_str());
                next = s.keepEnd;
            }
            QVERIFY2(next == H, ctx.c_str());
        }
        QVERIFY(zoned > 0);
    }

    void zonesGiveTheWholeImagesRows() {
        std::mt19937_64 rng(9);
        const auto angles = test::interestingAngles(16, 9);
        const MorphOp ops[] = {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close, MorphOp::TopHat};
        int zoned = 0, ownLinesDiffer = 0;
        for (int i = 0; i < test::scaled(400); ++i) {
            const int w = 1 + static_cast<int>(rng() % 120), h = 1 + static_cast<int>(rng() % 160);
            const auto img = test::randomImage<std::uint8_t>(w, h, rng(), test::ImageKind::FewLevels);
            const MorphOp op = ops[rng() % std::size(ops)];
            const int length = 1 + static_cast<int>(rng() % 60);
            const double angle = angles[rng() % angles.size()];
            const LineFamily whole = lineFamily(angle, w, h);
            const Segment seg = segmentOf(length);
            const int reach = zoneReach(op, length);
            // A budget of 2R + 1 to 2R + 40 rows: many strips, some keeping fewer rows than R.
            const int rows = std::min(h, 2 * reach + 1 + static_cast<int>(rng() % 40));
            const StripPlan plan = planStrips(h, reach, static_cast<std::size_t>(rows), [](int r) { return std::size_t(r); });
            QVERIFY(plan.fits());
            Image<std::uint8_t> want(w, h);
            cpu::perLineMorph<std::uint8_t>(op, LineAlgorithm::VanHerk, img.cview(), want.view(), whole, seg, 1);
            const auto got = inZones(img, op, seg, plan.strips, [&](const Strip& s) {
                return stripFamily(whole, s.loadBegin, s.loadRows());
            });
            const std::string ctx = std::string(morphOpName(op)) + " angle " + std::to_string(angle) + " λ " +
                                    std::to_string(length) + " " + std::to_string(w) + "x" + std::to_string(h) + " in " +
                                    std::to_string(plan.strips.size()) + " strips";
            const auto d = test::firstDifference(want, got);
            QVERIFY2(!d, (ctx + ": " + d.value_or("")).c_str());
            zoned += plan.strips.size() > 1;
            // The trap: a strip that draws lines of its own groups pixels otherwise.
            const auto own = inZones(img, op, seg, plan.strips, [&](const Strip& s) {
                return lineFamily(angle, w, s.loadRows());
            });
            ownLinesDiffer += test::firstDifference(want, own).has_value();
        }
        QVERIFY(zoned > test::scaled(400) / 2);
        QVERIFY(ownLinesDiffer > 0);
    }

    void moderateImageInManyZones() {
        // 523 rows, λ = 41 (R = 40), a budget for 120 rows: strips of 120 rows keeping 40 to 80.
        auto bytes = [](int rows) { return std::size_t(1000) * static_cast<std::size_t>(rows); };
        const StripPlan plan = planStrips(523, 40, 120'000, bytes);
        QVERIFY(plan.fits());
        QCOMPARE(static_cast<int>(plan.strips.size()), 12);  // 80 + 10 × 40 + 43
        QCOMPARE(plan.strips.front().keepEnd, 80);
        QCOMPARE(plan.strips.back().keepEnd, 523);
        QVERIFY(!planStrips(523, 40, 80'000, bytes).fits());  // 81 rows: 81 000 bytes
        QCOMPARE(planStrips(523, 40, 80'000, bytes).smallestBytes, std::size_t(81'000));
        QCOMPARE(planStrips(523, 40, 81'000, bytes).strips.size(), std::size_t(443));  // one kept row each but the ends: 41 + 441 + 41
    }
};

QTEST_APPLESS_MAIN(TestZonePlan)
#include "test_zone_plan.moc"
