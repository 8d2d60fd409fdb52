// GPU contours against the CPU backend, exactly: the same contours in the same order, each
// with the same points from the same start in the same direction, the same hierarchy
// (next, previous, first child, parent) and hole flags, for every retrieval mode and both
// approximations. The CPU backend is the oracle here (it is itself checked against OpenCV in
// test_contours; the GPU machine has no OpenCV C++).
//
// The images are test_contours' families, drawn without OpenCV: nested holes, one-pixel
// lines and diagonals, corners touching in 8-connectivity, checkerboards, spirals, objects on
// the frame, every 3×3 image, uniform images, noise with thousands of borders, and one image
// cropped at every offset against GPU rectangles from 1×1 to 62×64, so that borders cross
// the rectangles' seams at every phase; then the paper's 4928×4112 and a 16384×16384 image
// with hundreds of thousands of borders. On a machine without a usable GPU every test skips
// and says why.
#include "compute/backend.h"
#include "compute/contours/contours.h"
#include "compute/cuda/contours_device.h"
#include "compute/cuda/cuda_backend.h"
#include "compute/cuda/cuda_context.h"
#include "tests/support/binary_shapes.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace linescope;
using test::BinaryImage;

namespace {

constexpr ContourMode kModes[] = {ContourMode::External, ContourMode::List, ContourMode::CComp, ContourMode::Tree};
constexpr ContourApprox kApproxes[] = {ContourApprox::None, ContourApprox::Simple};

EngineOptions backend(Backend b) {
    EngineOptions o;
    o.backend = b;
    return o;
}

ContourTuning gpuRects(int w, int h) {
    ContourTuning t;
    t.gpuRectWidth = w;
    t.gpuRectHeight = h;
    return t;
}

std::string pointText(const ContourPoint& p) {
    std::string s = "(";  // appended step by step: GCC 12 warns falsely (-Wrestrict) on "(" + std::string
    s += std::to_string(p.x);
    s += ", ";
    s += std::to_string(p.y);
    s += ')';
    return s;
}

std::string links(const Contours& c, std::size_t i) {
    std::string s = "[";  // step by step, as pointText
    for (int v : {c.next[i], c.previous[i], c.firstChild[i], c.parent[i]}) {
        if (s.size() > 1) s += ", ";
        s += std::to_string(v);
    }
    return s + "]";
}

// std::nullopt when equal, else the first difference.
std::optional<std::string> firstDifference(const Contours& want, const Contours& got) {
    if (got.size() != want.size())
        return std::to_string(got.size()) + " contours, the CPU has " + std::to_string(want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        const std::string which = "contour " + std::to_string(i) + " (the CPU starts it at " + pointText(*want.begin(i)) +
                                  "): ";
        if (got.length(i) != want.length(i))
            return which + std::to_string(got.length(i)) + " points, the CPU has " + std::to_string(want.length(i));
        for (std::size_t j = 0; j < want.length(i); ++j)
            if (!(got.begin(i)[j] == want.begin(i)[j]))
                return which + "point " + std::to_string(j) + " is " + pointText(got.begin(i)[j]) + ", the CPU has " +
                       pointText(want.begin(i)[j]);
        if (got.next[i] != want.next[i] || got.previous[i] != want.previous[i] ||
            got.firstChild[i] != want.firstChild[i] || got.parent[i] != want.parent[i])
            return which + "hierarchy " + links(got, i) + ", the CPU has " + links(want, i);
        if (got.hole[i] != want.hole[i]) return which + (got.hole[i] ? "a hole, the CPU says outer" : "outer, the CPU says a hole");
    }
    return std::nullopt;
}

std::string where(ImageView<const std::uint8_t> img, ContourMode mode, ContourApprox approx, const ContourTuning& t) {
    return std::string(contourModeName(mode)) + "/" + contourApproxName(approx) + " on " + std::to_string(img.width) + "x" +
           std::to_string(img.height) + ", GPU rectangles " + std::to_string(t.gpuRectWidth) + "x" +
           std::to_string(t.gpuRectHeight) + ": ";
}

// The GPU (host API) against the CPU for one mode and approximation.
std::optional<std::string> gpuDiffers(ImageView<const std::uint8_t> img, ContourMode mode, ContourApprox approx,
                                      const ContourTuning& tuning) {
    const Contours want = findContours(img, mode, approx, backend(Backend::Cpu));
    Contours got;
    try {
        got = findContours(img, mode, approx, backend(Backend::Cuda), nullptr, tuning);
    } catch (const Error& e) {
        return where(img, mode, approx, tuning) + "threw: " + e.what();
    }
    if (auto d = firstDifference(want, got)) return where(img, mode, approx, tuning) + *d;
    return std::nullopt;
}

// Every mode and approximation.
std::optional<std::string> gpuDiffersInAnyMode(ImageView<const std::uint8_t> img, const ContourTuning& tuning = {}) {
    for (ContourMode mode : kModes)
        for (ContourApprox approx : kApproxes)
            if (auto d = gpuDiffers(img, mode, approx, tuning)) return d;
    return std::nullopt;
}
std::optional<std::string> gpuDiffersInAnyMode(const BinaryImage& img, const ContourTuning& tuning = {}) {
    return gpuDiffersInAnyMode(img.view(), tuning);
}

// Every `n` items at full scale; every few of them under LINESCOPE_TEST_SCALE < 1 (the
// sanitizer runs), so that exhaustive loops stay exhaustive where it matters.
int strideFor(int n) { return std::max(1, n / test::scaled(n)); }

// About 400 borders at the size of the paper's 4× images, as test_contours draws them: 330
// discs, a third with a hole, some with an island, and a thick line across the image.
BinaryImage paperImage() {
    std::mt19937_64 rng(11);
    auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    BinaryImage m(4928, 4112);
    for (int i = 0; i < 330; ++i) {
        const int cx = uniform(0, m.width - 1), cy = uniform(0, m.height - 1), r = uniform(10, 70);
        test::fillDisc(m, cx, cy, r, 255);
        if (i % 3 == 0) test::fillDisc(m, cx, cy, r / 3, 0);
        if (i % 9 == 0) test::fillDisc(m, cx, cy, r / 6, 255);
    }
    for (int d = -1; d <= 1; ++d) test::drawLine(m, 0, 2000 + d, 4927, 2100 + d, 255, true);
    return m;
}

}  // namespace

class TestCudaContours : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        std::string why;
        if (!cuda::deviceUsable(&why)) QSKIP(("no usable CUDA device: " + why).c_str());
        qInfo("%s", cuda::deviceDescription().c_str());
    }

    void randomBlobsWithNestedHoles() {
        for (int i = 0; i < test::scaled(60); ++i) {
            const int w = 20 + (i * 37) % 180, h = 16 + (i * 53) % 150;
            const BinaryImage img = test::randomBlobs(w, h, 4 + i % 30, 100 + static_cast<std::uint64_t>(i));
            const auto d = gpuDiffersInAnyMode(img, gpuRects(1 + (i * 7) % 62, 1 + (i * 11) % 64));
            LINESCOPE_CHECK(!d, "random blobs, seed " + std::to_string(100 + i) + ": " + *d);
        }
    }

    void linesAndDiagonals() {
        // One-pixel lines in 8- and 4-connectivity at many slopes, crossings, lone pixels and
        // rectangle outlines: pixels on several borders, borders that run along a line and back.
        std::mt19937_64 rng(7);
        auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        for (int i = 0; i < test::scaled(40); ++i) {
            BinaryImage m(80 + i % 13, 64 + i % 9);
            for (int k = 0; k < 3 + i % 8; ++k)
                test::drawLine(m, uniform(-5, m.width + 4), uniform(-5, m.height + 4), uniform(-5, m.width + 4),
                               uniform(-5, m.height + 4), 255, uniform(0, 1) == 1);
            for (int k = 0; k < 5; ++k) m.set(uniform(0, m.width - 1), uniform(0, m.height - 1), 9);
            const int x = uniform(0, 20), y = uniform(0, 20), w = uniform(1, 30), h = uniform(1, 30);
            test::fillRect(m, x, y, w, 1, 255);
            test::fillRect(m, x, y + h - 1, w, 1, 255);
            test::fillRect(m, x, y, 1, h, 255);
            test::fillRect(m, x + w - 1, y, 1, h, 255);
            for (int r : test::caseSet({1, 2, 5, 16, 32, 62})) {
                const auto d = gpuDiffersInAnyMode(m, gpuRects(r, std::min(64, r + i % 3)));
                LINESCOPE_CHECK(!d, "lines " + std::to_string(i) + ": " + *d);
            }
        }
        // Long diagonals through many rectangles, both ways.
        BinaryImage diagonals(300, 200);
        for (int k = -400; k < 400; k += 7) {
            test::drawLine(diagonals, k, 0, k + 199, 199, 255, false);
            test::drawLine(diagonals, k + 3, 199, k + 202, 0, 255, k % 2 == 0);
        }
        for (int r : test::caseSet({1, 3, 8, 31, 62})) {
            const auto d = gpuDiffersInAnyMode(diagonals, gpuRects(r, r));
            LINESCOPE_CHECK(!d, "diagonals: " + *d);
        }
    }

    void touchingCornersAndCheckerboards() {
        // Squares that touch only at corners are one component in 8-connectivity; each
        // background cell of a checkerboard is a separate one-pixel hole.
        BinaryImage corners(50, 40);
        for (int k = 0; k < 6; ++k) test::fillRect(corners, 3 + 5 * k, 3 + 5 * k, 5, 5, 1);
        for (int k = 0; k < 6; ++k) corners.set(30 + k, 30 - k, 1);
        test::fillRect(corners, 40, 2, 4, 4, 1);
        test::fillRect(corners, 44, 6, 4, 4, 1);
        test::fillRect(corners, 36, 6, 4, 4, 1);
        for (int r : test::caseSet({1, 2, 3, 4, 5, 7, 62})) {
            const auto d = gpuDiffersInAnyMode(corners, gpuRects(r, r));
            LINESCOPE_CHECK(!d, "touching corners: " + *d);
        }
        for (int cell : test::caseSet({1, 2, 3})) {
            const BinaryImage board = test::checkerboard(61, 47, cell);
            for (int r : test::caseSet({1, 2, 3, 8, 13, 62})) {
                const auto d = gpuDiffersInAnyMode(board, gpuRects(r, r + 1));
                LINESCOPE_CHECK(!d, "checkerboard of " + std::to_string(cell) + "-pixel cells: " + *d);
            }
        }
    }

    void spirals() {
        for (int gap : test::caseSet({1, 2, 3})) {
            for (int size : {9, 40, 101}) {
                if (size == 101 && test::testScale() < 1) continue;  // sanitizer runs
                const BinaryImage s = test::squareSpiral(size, gap);
                const BinaryImage thick = test::thicken(s);  // its background corridor is one long hole
                for (int r : test::caseSet({1, 3, 8, 32, 62})) {
                    auto d = gpuDiffersInAnyMode(s, gpuRects(r, r));
                    LINESCOPE_CHECK(!d, "spiral of " + std::to_string(size) + " with gap " + std::to_string(gap) + ": " + *d);
                    d = gpuDiffersInAnyMode(thick, gpuRects(r, r));
                    LINESCOPE_CHECK(!d, "thick spiral of " + std::to_string(size) + ": " + *d);
                }
            }
        }
    }

    void objectsOnTheFrame() {
        // The frame is background: objects touching the image's edge are closed by it.
        BinaryImage m(60, 50);
        test::fillRect(m, 0, 0, 60, 1, 255);  // the whole edge: a ring, broken at the top
        test::fillRect(m, 0, 49, 60, 1, 255);
        test::fillRect(m, 0, 0, 1, 50, 255);
        test::fillRect(m, 59, 0, 1, 50, 255);
        test::fillRect(m, 0, 20, 15, 10, 255);
        test::fillDisc(m, 59, 25, 8, 255);
        test::fillRect(m, 25, 40, 10, 10, 255);
        test::fillRect(m, 28, 43, 3, 3, 0);
        m.set(30, 0, 0);
        for (int r : test::caseSet({1, 4, 7, 16, 62})) {
            const auto d = gpuDiffersInAnyMode(m, gpuRects(r, r));
            LINESCOPE_CHECK(!d, "objects on the frame: " + *d);
        }
        for (int i = 0; i < test::scaled(20); ++i) {
            BinaryImage b = test::randomBlobs(30 + i, 25 + i, 12, 900 + static_cast<std::uint64_t>(i));
            test::fillRect(b, 0, 0, b.width, 1, i % 2 ? 255 : 0);
            test::fillRect(b, b.width - 1, 0, 1, b.height, i % 3 ? 7 : 0);
            const auto d = gpuDiffersInAnyMode(b, gpuRects(1 + i % 6, 1 + i % 5));
            LINESCOPE_CHECK(!d, "blobs on the frame " + std::to_string(i) + ": " + *d);
        }
    }

    void smallEmptyAndFullImages() {
        for (int w : {1, 2, 3, 17}) {
            for (int h : {1, 2, 3, 11}) {
                for (int value : {0, 1, 255}) {
                    const BinaryImage m(w, h, static_cast<std::uint8_t>(value));
                    const auto d = gpuDiffersInAnyMode(m, gpuRects(2, 3));
                    LINESCOPE_CHECK(!d, "uniform " + std::to_string(value) + ": " + *d);
                }
                BinaryImage dot(w, h);
                dot.set(w / 2, h / 2, 1);
                const auto d = gpuDiffersInAnyMode(dot, gpuRects(1, 1));
                LINESCOPE_CHECK(!d, "one pixel: " + *d);
            }
        }
        // Every binary image of 3×3, and random ones up to 6×6.
        for (int bits = 0; bits < 512; bits += strideFor(512)) {
            BinaryImage m(3, 3);
            for (int k = 0; k < 9; ++k) m.set(k % 3, k / 3, static_cast<std::uint8_t>((bits >> k) & 1));
            const auto d = gpuDiffersInAnyMode(m, gpuRects(1 + bits % 3, 1 + bits % 2));
            LINESCOPE_CHECK(!d, "3x3 image " + std::to_string(bits) + ": " + *d);
        }
        for (int i = 0; i < test::scaled(300); ++i) {
            const BinaryImage m = test::noiseImage(1 + i % 6, 1 + (i / 6) % 6, 0.6, 3000 + static_cast<std::uint64_t>(i));
            const auto d = gpuDiffersInAnyMode(m, gpuRects(1 + i % 4, 1 + i % 3));
            LINESCOPE_CHECK(!d, "small noise " + std::to_string(i) + ": " + *d);
        }
    }

    void noiseWithManyBorders() {
        // Thousands of borders, most pixels on several of them, many crossing rectangles.
        for (int i = 0; i < test::scaled(12); ++i) {
            const BinaryImage m = test::noiseImage(150 + 23 * i, 120 + 17 * i, 0.2 + 0.05 * (i % 7),
                                                   5000 + static_cast<std::uint64_t>(i));
            const auto d = gpuDiffersInAnyMode(m, gpuRects(1 + (i * 9) % 62, 1 + (i * 5) % 64));
            LINESCOPE_CHECK(!d, "noise " + std::to_string(i) + ": " + *d);
        }
        const int side = test::testScale() < 1 ? 300 : 1500;
        const BinaryImage big = test::noiseImage(side, side * 11 / 15, 0.35, 77);
        for (int r : test::caseSet({8, 16, 32, 62})) {
            const auto d = gpuDiffersInAnyMode(big, gpuRects(r, r));
            LINESCOPE_CHECK(!d, "big noise: " + *d);
        }
        // Concentric rings: nesting 40 deep.
        BinaryImage rings(330, 330);
        for (int r = 160; r > 0; r -= 4) test::fillRing(rings, 165, 165, r, 2, 255);
        const auto d = gpuDiffersInAnyMode(rings);
        LINESCOPE_CHECK(!d, "concentric rings: " + *d);
    }

    void rectangleSeamsAtEveryOffset() {
        // One image cropped at every offset against rectangles of many sizes, so that each
        // border crosses the seams at every phase.
        const BinaryImage base = test::randomBlobs(90, 80, 25, 42);
        for (int r : test::caseSet({1, 2, 3, 4, 7, 8, 16, 31, 32, 33, 62})) {
            for (int dx = 0; dx < r; dx += strideFor(r)) {
                const int dy = (dx * 5) % r;
                const BinaryImage crop = test::crop(base, dx, dy, base.width - dx, base.height - dy);
                const auto d = gpuDiffersInAnyMode(crop, gpuRects(r, std::min(64, r + dx % 2)));
                LINESCOPE_CHECK(!d, "crop at (" + std::to_string(dx) + ", " + std::to_string(dy) + "): " + *d);
            }
        }
    }

    void stridedViewsAndReusedFinder() {
        // A view inside a larger buffer (stride > width, rows not 16-byte aligned).
        const BinaryImage big = test::randomBlobs(200, 150, 40, 5);
        const ImageView<const std::uint8_t> inner(big.pixels.data() + 9 * 200 + 13, 150, 120, 200);
        auto d = gpuDiffersInAnyMode(inner, gpuRects(16, 16));
        LINESCOPE_CHECK(!d, "strided view: " + *d);

        // One finder through small and large images: its device buffers grow (tracking twice
        // when a first guess is too small) and are reused.
        ContourFinder finder(backend(Backend::Cuda), gpuRects(20, 12));
        Contours reused;
        for (int i = 0; i < 8; ++i) {
            const BinaryImage m = i % 4 == 3 ? test::noiseImage(900, 700, 0.4, 600 + static_cast<std::uint64_t>(i))
                                             : test::randomBlobs(40 + 60 * (i % 3), 30 + 50 * ((i + 1) % 3), 20,
                                                                 600 + static_cast<std::uint64_t>(i));
            const ContourMode mode = kModes[i % 4];
            const ContourApprox approx = kApproxes[(i / 4) % 2];
            finder.find(m.view(), mode, approx, reused);
            const Contours want = findContours(m.view(), mode, approx, backend(Backend::Cpu));
            const auto diff = firstDifference(want, reused);
            LINESCOPE_CHECK(!diff, "reused finder, image " + std::to_string(i) + ": " + *diff);
        }
    }

    void deviceResidentEntryPoint() {
        // findContoursDevice on images already on the device: pitched, and at an odd address
        // with an odd pitch (the foreground bits then load bytes, not 16-byte vectors).
        cuda::CudaContext& ctx = cuda::CudaContext::get();
        for (int i = 0; i < 4; ++i) {
            const BinaryImage m = test::randomBlobs(333 + 97 * i, 251 + 61 * i, 30, 70 + static_cast<std::uint64_t>(i));
            const ContourMode mode = kModes[i];
            const ContourApprox approx = kApproxes[i % 2];
            const Contours want = findContours(m.view(), mode, approx, backend(Backend::Cpu));
            Contours got;
            ContourTimings timings;
            {
                auto lock = ctx.lock();
                const bool odd = i % 2 == 1;
                const std::size_t pitch = odd ? static_cast<std::size_t>(m.width) + 7 : cuda::devicePitch(m.width, 1);
                auto* base = static_cast<std::uint8_t*>(
                    ctx.buffer(cuda::BufferSlot::Temp).reserve(pitch * static_cast<std::size_t>(m.height) + 16));
                std::uint8_t* data = base + (odd ? 1 : 0);
                ctx.upload(m.pixels.data(), m.width, data, pitch, static_cast<std::size_t>(m.width), m.height);
                const cuda::DeviceImageView<const std::uint8_t> view{data, m.width, m.height, pitch};
                cuda::findContoursDevice(view, mode, approx, ContourTuning{}, got, &timings, ctx);
            }
            const auto d = firstDifference(want, got);
            LINESCOPE_CHECK(!d, "device-resident, image " + std::to_string(i) + ": " + *d);
            QVERIFY(timings.preprocess >= 0 && timings.track >= 0 && timings.connect >= 0 && timings.hierarchy >= 0 &&
                    timings.download >= 0 && timings.total > 0);
        }
    }

    void timingsAndBadInput() {
        const BinaryImage m = test::randomBlobs(300, 200, 30, 3);
        ContourTimings t;
        const Contours c = findContours(m.view(), ContourMode::Tree, ContourApprox::Simple, backend(Backend::Cuda), &t);
        QVERIFY(c.size() > 0);
        QVERIFY(t.preprocess >= 0 && t.track >= 0 && t.connect >= 0 && t.hierarchy >= 0 && t.download >= 0);
        QVERIFY(t.total >= t.preprocess + t.track + t.connect);

        QVERIFY_THROWS_EXCEPTION(Error, findContours(ImageView<const std::uint8_t>(), ContourMode::Tree,
                                                     ContourApprox::None, backend(Backend::Cuda)));
        for (auto [w, h] : {std::pair{0, 8}, std::pair{8, 0}, std::pair{63, 8}, std::pair{8, 65}})
            QVERIFY_THROWS_EXCEPTION(Error, ContourFinder(backend(Backend::Cuda), gpuRects(w, h)));
        // The largest rectangles run.
        const auto d = gpuDiffersInAnyMode(m, gpuRects(kMaxGpuRectWidth, kMaxGpuRectHeight));
        LINESCOPE_CHECK(!d, "largest rectangles: " + *d);
    }

    void largePaperSizeImage() {
        const BinaryImage m = paperImage();
        for (int r : test::caseSet({16, 32})) {
            const auto d = gpuDiffersInAnyMode(m, gpuRects(r, r));
            LINESCOPE_CHECK(!d, "4928x4112: " + *d);
        }
        const Contours c = findContours(m.view(), ContourMode::List, ContourApprox::None, backend(Backend::Cuda));
        QVERIFY2(c.size() >= 300 && c.size() <= 600, std::to_string(c.size()).c_str());
    }

    void largeImageWithManyBorders() {
        // 16384×16384: about 200 000 discs (with holes and islands) on a grid, a patch of
        // noise, and lines across the whole image.
        int made = 0;
        BinaryImage m = test::discField(16384, 16384, 300000, 21, &made);
        const BinaryImage patch = test::noiseImage(1024, 1024, 0.3, 22);
        for (int y = 0; y < patch.height; ++y)
            std::memcpy(m.pixels.data() + static_cast<std::size_t>(8000 + y) * 16384 + 8000,
                        patch.pixels.data() + static_cast<std::size_t>(y) * 1024, 1024);
        test::drawLine(m, 0, 100, 16383, 16300, 255, false);
        test::drawLine(m, 0, 16383, 16383, 0, 255, true);
        for (int k = 0; k < 3; ++k) test::fillRect(m, 0, 4000 + 5000 * k, 16384, 2, 255);
        for (ContourMode mode : kModes)
            for (ContourApprox approx : kApproxes) {
                const auto d = gpuDiffers(m.view(), mode, approx, ContourTuning{});
                LINESCOPE_CHECK(!d, "16384x16384: " + *d);
            }
        const Contours c = findContours(m.view(), ContourMode::List, ContourApprox::Simple, backend(Backend::Cuda));
        qInfo("16384x16384: %zu borders (%d drawn as discs, holes and islands)", c.size(), made);
        QVERIFY(c.size() > 100000);
    }
};

QTEST_MAIN(TestCudaContours)
#include "test_cuda_contours.moc"
