// The tile sweep's per-line work (compute/cuda/tile_sweep_lines.h) run on the host in the
// kernel's own schedule — squares with their margins, groups of angles, the lines of a warp
// walked over one shared range, (angle, warp) items folded in a random order through the
// keys, groups merged — and compared bit for bit with the CPU engine's sweep. This checks the
// geometry and the streaming filters without a GPU; test_cuda_line_morph checks the kernel.
#include "compute/cuda/tile_sweep_lines.h"
#include "compute/sweep.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <algorithm>
#include <climits>
#include <numeric>
#include <cmath>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace linescope;
using namespace linescope::cuda::tile;

namespace {

template <class T>
using Sum = std::conditional_t<std::is_floating_point_v<T>, double, long long>;

struct Schedule {
    int side = 32;
    int anglesPerGroup = 1000;
};

template <class T, bool MinFirst, bool TwoStage>
SweepResult<T> emulate(const Image<T>& img, const SweepRequest& req, const Schedule& sch, std::uint64_t seed) {
    using First = Op<T, MinFirst>;
    using Keys = SweepKeys<T, MinFirst>;
    using Key = typename Keys::Key;
    const int W = img.width(), H = img.height(), N = req.angles.count, side = sch.side;
    const LineStages st = lineStagesOf(req.op, segmentOf(req.length), std::max(W, H));
    const int R = std::max(st.reachLeft(), st.reachRight()), span = side + 2 * R;
    const int scratchValues = st.first.length() + (TwoStage ? st.second.length() : 1);
    const int groups = (N + sch.anglesPerGroup - 1) / sch.anglesPerGroup;
    const int batches = (2 * side + 2 + 31) / 32;
    std::vector<Key> keys(static_cast<std::size_t>(groups) * W * H);
    std::vector<unsigned> other(keys.size());
    std::vector<Sum<T>> spectrum(N, 0);
    std::vector<T> tileIn(static_cast<std::size_t>(span) * span);
    std::vector<Key> squareKeys(side * side);
    std::vector<unsigned> squareOther(side * side);
    std::vector<T> scratch(static_cast<std::size_t>(scratchValues) * 32);
    std::mt19937_64 order(seed);

    for (int Y0 = 0; Y0 < H; Y0 += side)
        for (int X0 = 0; X0 < W; X0 += side)
            for (int g = 0; g < groups; ++g) {
                for (int r = 0; r < span; ++r)
                    for (int q = 0; q < span; ++q) {
                        const int x = X0 - R + q, y = Y0 - R + r;
                        tileIn[r * span + q] =
                            x >= 0 && x < W && y >= 0 && y < H ? canonical(img.at(x, y)) : First::neutral();
                    }
                const int kBegin = g * sch.anglesPerGroup, kEnd = std::min(N, kBegin + sch.anglesPerGroup);
                std::fill(squareKeys.begin(), squareKeys.end(), Keys::kFirstKey);
                std::fill(squareOther.begin(), squareOther.end(), Keys::kFirstOther);
                // The kernel's warps take (angle, batch) items in any order: so does this.
                std::vector<int> items((kEnd - kBegin) * batches);
                std::iota(items.begin(), items.end(), 0);
                std::shuffle(items.begin(), items.end(), order);
                for (const int item : items) {
                    const int k = kBegin + item / batches, batch = item % batches;
                    const LineFamily fam = lineFamily(req.angles.angle(k), W, H);
                    TileFrame f;
                    f.slope = fam.slope;
                    f.tn = f.un = side;
                    if (fam.yMajor) {
                        f.n = H, f.m = W, f.t0 = Y0, f.u0 = X0, f.inT = span, f.inU = 1, f.accT = side, f.accU = 1;
                    } else {
                        f.n = W, f.m = H, f.t0 = X0, f.u0 = Y0, f.inT = 1, f.inU = span, f.accT = 1, f.accU = side;
                    }
                    f.tBase = f.t0 - R;
                    f.uBase = f.u0 - R;
                    int first, last;
                    f.lines(first, last);
                    if (batch * 32 > last - first) continue;
                    LineSpan spans[32];
                    int ta = INT_MAX, tb = INT_MIN;
                    for (int lane = 0; lane < 32; ++lane) {
                        const int c = first + batch * 32 + lane;
                        if (c > last) continue;
                        spans[lane] = lineSpan(f, c, st.reachLeft(), st.reachRight());
                        if (!spans[lane].active()) continue;
                        ta = std::min(ta, spans[lane].ta);
                        tb = std::max(tb, spans[lane].tb);
                    }
                    if (ta > tb) continue;
                    for (int lane = 0; lane < 32; ++lane) {
                        const LineSpan& s = spans[lane];
                        walkLine<T, MinFirst, TwoStage, 32>(
                            tileIn.data(), f, s, ta - st.reachLeft(), tb + st.reachRight(), st.first, st.second,
                            scratch.data() + lane, [&](int t, int off, Work<T> w) {
                                if (t < s.ta || t > s.tb) throw Error("walkLine emitted outside the line's outputs");
                                if (off != f.off(t)) throw Error("walkLine passed a wrong offset");
                                const T v = static_cast<T>(w);
                                if (static_cast<Work<T>>(v) != w) throw Error("walkLine's word is not a pixel value");
                                const int u = s.c + off;
                                const int i = (t - f.t0) * f.accT + (u - f.u0) * f.accU;
                                const Key key = Keys::key(v, k);
                                const unsigned o = Keys::ordered(v);
                                squareKeys[i] = MinFirst ? std::max(squareKeys[i], key) : std::min(squareKeys[i], key);
                                squareOther[i] = MinFirst ? std::min(squareOther[i], o) : std::max(squareOther[i], o);
                                spectrum[k] += static_cast<Sum<T>>(v);
                            });
                    }
                }
                for (int r = 0; r < side && Y0 + r < H; ++r)
                    for (int q = 0; q < side && X0 + q < W; ++q) {
                        const std::size_t p = static_cast<std::size_t>(g) * W * H +
                                              static_cast<std::size_t>(Y0 + r) * W + X0 + q;
                        keys[p] = squareKeys[r * side + q];
                        other[p] = squareOther[r * side + q];
                    }
            }

    SweepResult<T> out;
    out.sup = Image<T>(W, H);
    out.inf = Image<T>(W, H);
    out.strength = Image<T>(W, H);
    out.argIndex = Image<std::uint16_t>(W, H);
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            const std::size_t p = static_cast<std::size_t>(y) * W + x;
            Key key = keys[p];
            unsigned o = other[p];
            for (int g = 1; g < groups; ++g) {  // the kernel's merge compares decoded values: equivalent
                const std::size_t pg = static_cast<std::size_t>(g) * W * H + p;
                key = MinFirst ? std::max(key, keys[pg]) : std::min(key, keys[pg]);
                o = MinFirst ? std::min(o, other[pg]) : std::max(o, other[pg]);
            }
            const T b = Keys::keyValue(key), ov = Keys::value(o);
            const T hi = MinFirst ? b : ov, lo = MinFirst ? ov : b;
            out.sup.at(x, y) = hi;
            out.inf.at(x, y) = lo;
            out.strength.at(x, y) = static_cast<T>(hi - lo);
            out.argIndex.at(x, y) = Keys::keyAngle(key);
        }
    for (int k = 0; k < N; ++k) {
        if constexpr (!std::is_floating_point_v<T>) out.spectrumExact.push_back(spectrum[k]);
        out.spectrum.push_back(static_cast<double>(spectrum[k]));
    }
    return out;
}

template <class T>
SweepResult<T> emulated(const Image<T>& img, const SweepRequest& req, const Schedule& sch, std::uint64_t seed) {
    switch (req.op) {
    case MorphOp::Erode: return emulate<T, true, false>(img, req, sch, seed);
    case MorphOp::Dilate: return emulate<T, false, false>(img, req, sch, seed);
    case MorphOp::Open: return emulate<T, true, true>(img, req, sch, seed);
    default: return emulate<T, false, true>(img, req, sch, seed);
    }
}

template <class T>
std::string firstDifference(const Image<T>& a, const Image<T>& b) {
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            if (std::memcmp(&a.at(x, y), &b.at(x, y), sizeof(T)) != 0)
                return "differs at (" + std::to_string(x) + ", " + std::to_string(y) + "): " +
                       std::to_string(static_cast<double>(b.at(x, y))) + ", expected " +
                       std::to_string(static_cast<double>(a.at(x, y)));
    return {};
}

template <class T>
void check(int w, int h, std::uint64_t seed, MorphOp op, int length, AngleSet angles, Schedule sch,
           test::ImageKind kind, QStringList& failures) {
    const Image<T> img = test::randomImage<T>(w, h, seed, kind);
    SweepRequest req;
    req.op = op;
    req.length = length;
    req.angles = angles;
    EngineOptions cpu;
    cpu.backend = Backend::Cpu;
    const SweepResult<T> want = sweep<T>(img.cview(), req, cpu);
    const SweepResult<T> got = emulated<T>(img, req, sch, seed);
    const std::string where = std::string(pixelTypeName(pixelTypeOf<T>())) + " " + morphOpName(op) + " λ " +
                              std::to_string(length) + " " + std::to_string(w) + "x" + std::to_string(h) +
                              " angles " + std::to_string(angles.start) + "+k*" + std::to_string(angles.step) + " x" +
                              std::to_string(angles.count) + " side " + std::to_string(sch.side) + " group " +
                              std::to_string(sch.anglesPerGroup) + " " + test::imageKindName(kind);
    auto fail = [&](const std::string& m) { failures << QString::fromStdString(where + ": " + m); };
    if (auto d = firstDifference(want.sup, got.sup); !d.empty()) fail("sup " + d);
    if (auto d = firstDifference(want.inf, got.inf); !d.empty()) fail("inf " + d);
    if (auto d = firstDifference(want.argIndex, got.argIndex); !d.empty()) fail("arg " + d);
    if (auto d = firstDifference(want.strength, got.strength); !d.empty()) fail("strength " + d);
    if (want.spectrumExact != got.spectrumExact) fail("the exact spectra differ");
    for (std::size_t k = 0; k < want.spectrum.size(); ++k) {
        const double a = want.spectrum[k], b = got.spectrum[k];
        if (a == b || (std::isnan(a) && std::isnan(b))) continue;
        // Float spectra: double sums in another order.
        if (!std::is_floating_point_v<T> || !(std::abs(a - b) <= 1e-9 * (std::abs(a) + 1e-300) * w * h)) {
            fail("spectrum[" + std::to_string(k) + "] = " + std::to_string(b) + ", expected " + std::to_string(a));
            break;
        }
    }
}

}  // namespace

class TestTileSweepLines : public QObject {
    Q_OBJECT
private slots:
    void streamExtremeIsASlidingWindow() {
        // Every window of every length over a random stream, against the direct minimum.
        std::mt19937 rng(7);
        for (int len = 1; len <= 9; ++len) {
            std::vector<int> x(50), h(len);
            for (int& v : x) v = static_cast<int>(rng() % 20);
            StreamExtreme<int, Op<int, true>, 1> s{h.data(), len};
            for (int n = 0; n < static_cast<int>(x.size()); ++n) {
                int out = -1;
                const bool complete = s.push(x[n], out);
                QCOMPARE(complete, n >= len - 1);
                if (!complete) continue;
                int want = INT_MAX;
                for (int i = n - len + 1; i <= n; ++i) want = std::min(want, x[i]);
                QCOMPARE(out, want);
            }
            // The same stream through fill (before the first window) and full (after).
            std::vector<int> h2(len);
            StreamExtreme<int, Op<int, true>, 1> f{h2.data(), len};
            for (int n = 0; n < static_cast<int>(x.size()); ++n) {
                if (n < len - 1) {
                    f.fill(x[n]);
                    continue;
                }
                int want = INT_MAX;
                for (int i = n - len + 1; i <= n; ++i) want = std::min(want, x[i]);
                QCOMPARE(f.full(x[n]), want);
            }
        }
    }

    void keysOrderValuesThenAngles() {
        // Keys compare as (value, then the smaller angle index) and give both back, for every
        // class of float (±∞, ±denormals, ±0 as +0) and the integer types' ends.
        const float fs[] = {-std::numeric_limits<float>::infinity(), -3.0e38f, -1.0f, -1e-42f, 0.0f, 1e-42f,
                            1.0f, 3.0e38f, std::numeric_limits<float>::infinity()};
        for (std::size_t i = 0; i < std::size(fs); ++i) {
            using K = SweepKeys<float, true>;
            QCOMPARE(K::keyValue(K::key(fs[i], 7)), fs[i]);
            QCOMPARE(K::keyAngle(K::key(fs[i], 7)), std::uint16_t(7));
            QCOMPARE(K::value(K::ordered(fs[i])), fs[i]);
            if (i > 0) QVERIFY(K::key(fs[i - 1], 0) < K::key(fs[i], 719));
            QVERIFY(K::key(fs[i], 3) > K::key(fs[i], 4));  // a maximum keeps the smaller index
            using M = SweepKeys<float, false>;
            QVERIFY(M::key(fs[i], 3) < M::key(fs[i], 4));  // a minimum too
        }
        using K16 = SweepKeys<std::uint16_t, true>;
        QCOMPARE(K16::keyValue(K16::key(65535, 0)), std::uint16_t(65535));
        QVERIFY(K16::key(65534, 0) < K16::key(65535, 719));
        QVERIFY(K16::kFirstKey < K16::key(0, 719));
        using M8 = SweepKeys<std::uint8_t, false>;
        QVERIFY(M8::kFirstKey > M8::key(255, 719));
    }

    void sweepsEqualTheEngine_data() {
        QTest::addColumn<int>("type");
        QTest::newRow("uint8") << 0;
        QTest::newRow("uint16") << 1;
        QTest::newRow("float32") << 2;
    }
    void sweepsEqualTheEngine() {
        QFETCH(int, type);
        QStringList failures;
        std::mt19937_64 rng(1234 + type);
        auto run = [&](auto zero) {
            using T = decltype(zero);
            for (MorphOp op : {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close}) {
                check<T>(96, 64, rng(), op, 11, AngleSet{0, 1, 180}, {32, 1000}, test::ImageKind::FewLevels, failures);
                check<T>(37, 5, rng(), op, 4, AngleSet{-10, 0.25, 81}, {32, 20}, test::ImageKind::Noise, failures);
                check<T>(5, 53, rng(), op, 2, AngleSet{44, 0.5, 5}, {32, 2}, test::ImageKind::Specials, failures);
                check<T>(1, 1, rng(), op, 5, AngleSet{0, 30, 6}, {32, 4}, test::ImageKind::Noise, failures);
                check<T>(130, 77, rng(), op, 41, AngleSet{0, 7.3, 25}, {48, 7}, test::ImageKind::Noise, failures);
                check<T>(70, 90, rng(), op, 64, AngleSet{3, 11, 17}, {64, 5}, test::ImageKind::FewLevels, failures);
                check<T>(33, 65, rng(), op, 1, AngleSet{0, 45, 4}, {32, 3}, test::ImageKind::Noise, failures);
                check<T>(64, 64, rng(), op, 200, AngleSet{10, 20, 9}, {32, 4}, test::ImageKind::Blocky, failures);
                check<T>(160, 120, rng(), op, 11, AngleSet{0, 3, 60}, {32, 1000}, test::ImageKind::Noise, failures);
            }
        };
        if (type == 0) run(std::uint8_t{});
        else if (type == 1) run(std::uint16_t{});
        else run(float{});
        if (!failures.isEmpty()) QFAIL(qPrintable(failures.mid(0, 10).join("\n")));
    }
};

QTEST_APPLESS_MAIN(TestTileSweepLines)
#include "test_tile_sweep_lines.moc"
