// findContours against OpenCV's cv::findContours, the outside oracle of design.md §1: for
// every retrieval mode and both approximations, the same contours in the same order, each
// with the same points from the same start in the same direction, the same hierarchy
// (next, previous, first child, parent) and the hole flags OpenCV's tree implies.
//
// The images aim at what border tracking by rectangles can get wrong: borders that cross
// many rectangles and rectangle seams at every offset (rectangle sizes from 1×1 up, images
// cropped at every offset), pixels shared by several borders (one-pixel lines, diagonals,
// corners touching in 8-connectivity, checkerboards, spirals), objects on the image frame,
// deep nesting, thousands of borders (OpenCV cycles its 127 labels), and odd thread counts.
#include "compute/contours/contours.h"
#include "tests/support/opencv_contours.h"
#include "tests/support/random_images.h"

#include <QtTest/QtTest>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace linescope;

namespace {

constexpr ContourMode kModes[] = {ContourMode::External, ContourMode::List, ContourMode::CComp, ContourMode::Tree};
constexpr ContourApprox kApproxes[] = {ContourApprox::None, ContourApprox::Simple};

int cvMode(ContourMode m) {
    switch (m) {
    case ContourMode::External: return cv::RETR_EXTERNAL;
    case ContourMode::List: return cv::RETR_LIST;
    case ContourMode::CComp: return cv::RETR_CCOMP;
    case ContourMode::Tree: return cv::RETR_TREE;
    }
    return -1;
}

int cvApprox(ContourApprox a) { return a == ContourApprox::None ? cv::CHAIN_APPROX_NONE : cv::CHAIN_APPROX_SIMPLE; }

struct CvContours {
    std::vector<std::vector<cv::Point>> contours;
    std::vector<cv::Vec4i> hierarchy;
};

CvContours opencvContours(const cv::Mat& binary, ContourMode mode, ContourApprox approx) {
    CvContours c;
    cv::findContours(binary.clone(), c.contours, c.hierarchy, cvMode(mode), cvApprox(approx));
    return c;
}

// Hole flags as OpenCV's hierarchy implies them: odd depth in the tree and in ccomp, none in
// external; list has no hierarchy, so each contour takes the flag of the same contour
// (same points) in the tree.
std::vector<bool> opencvHoles(const cv::Mat& binary, ContourMode mode, ContourApprox approx, const CvContours& c) {
    if (mode == ContourMode::Tree || mode == ContourMode::CComp) return test::holesByDepth(c.hierarchy);
    std::vector<bool> hole(c.contours.size(), false);
    if (mode == ContourMode::External) return hole;
    const CvContours tree = opencvContours(binary, ContourMode::Tree, approx);
    const std::vector<bool> treeHole = test::holesByDepth(tree.hierarchy);
    std::multimap<std::vector<int>, bool> byPoints;
    auto key = [](const std::vector<cv::Point>& pts) {
        std::vector<int> k;
        for (const auto& p : pts) k.insert(k.end(), {p.x, p.y});
        return k;
    };
    for (std::size_t i = 0; i < tree.contours.size(); ++i) byPoints.emplace(key(tree.contours[i]), treeHole[i]);
    for (std::size_t i = 0; i < c.contours.size(); ++i) {
        auto it = byPoints.find(key(c.contours[i]));
        if (it != byPoints.end()) {
            hole[i] = it->second;
            byPoints.erase(it);
        }
    }
    return hole;
}

std::string pointText(int x, int y) {
    std::string s = "(";  // appended step by step: GCC 12 warns falsely (-Wrestrict) on "(" + std::string
    s += std::to_string(x);
    s += ", ";
    s += std::to_string(y);
    s += ')';
    return s;
}

ImageView<const std::uint8_t> viewOf(const cv::Mat& m) {
    return {m.ptr<std::uint8_t>(), m.cols, m.rows, static_cast<std::ptrdiff_t>(m.step)};
}

// std::nullopt when the engine returns exactly what OpenCV returns, else the first difference.
std::optional<std::string> differenceFromOpenCV(const cv::Mat& binary, ContourMode mode, ContourApprox approx,
                                                const EngineOptions& options = {}, const ContourTuning& tuning = {}) {
    const CvContours expected = opencvContours(binary, mode, approx);
    Contours actual;
    // The CPU backend unless a test asks otherwise: Auto would take a GPU where there is one,
    // whose rectangles are not the ones these tests vary (test_cuda_contours covers it).
    EngineOptions engine = options;
    if (engine.backend == Backend::Auto) engine.backend = Backend::Cpu;
    try {
        actual = findContours(viewOf(binary), mode, approx, engine, nullptr, tuning);
    } catch (const Error& e) {
        return std::string("threw: ") + e.what();
    }
    const std::string where = std::string(contourModeName(mode)) + "/" + contourApproxName(approx) + " on " +
                              std::to_string(binary.cols) + "x" + std::to_string(binary.rows) + ", rectangles " +
                              std::to_string(tuning.rectWidth) + "x" + std::to_string(tuning.rectHeight) + ", " +
                              std::to_string(options.threads) + " threads: ";
    const std::size_t n = expected.contours.size();
    if (actual.size() != n)
        return where + std::to_string(actual.size()) + " contours, OpenCV has " + std::to_string(n);
    const std::vector<bool> holes = opencvHoles(binary, mode, approx, expected);
    for (std::size_t i = 0; i < n; ++i) {
        const auto& e = expected.contours[i];
        const std::string which = where + "contour " + std::to_string(i) + " (OpenCV starts it at " +
                                  pointText(e[0].x, e[0].y) + ", ours at " +
                                  pointText(actual.begin(i)->x, actual.begin(i)->y) + "): ";
        if (actual.length(i) != e.size())
            return which + std::to_string(actual.length(i)) + " points, OpenCV has " + std::to_string(e.size());
        for (std::size_t j = 0; j < e.size(); ++j) {
            const ContourPoint p = actual.begin(i)[j];
            if (p.x != e[j].x || p.y != e[j].y)
                return which + "point " + std::to_string(j) + " is " + pointText(p.x, p.y) + ", OpenCV has " +
                       pointText(e[j].x, e[j].y);
        }
        const cv::Vec4i h = expected.hierarchy[i];
        const cv::Vec4i got(actual.next[i], actual.previous[i], actual.firstChild[i], actual.parent[i]);
        if (h != got)
            return which + "hierarchy [" + std::to_string(got[0]) + ", " + std::to_string(got[1]) + ", " +
                   std::to_string(got[2]) + ", " + std::to_string(got[3]) + "], OpenCV has [" + std::to_string(h[0]) +
                   ", " + std::to_string(h[1]) + ", " + std::to_string(h[2]) + ", " + std::to_string(h[3]) + "]";
        if (static_cast<bool>(actual.hole[i]) != holes[i])
            return which + (actual.hole[i] ? "a hole, OpenCV's tree says outer" : "outer, OpenCV's tree says a hole");
    }
    return std::nullopt;
}

// All four modes and both approximations.
std::optional<std::string> differenceInAnyMode(const cv::Mat& binary, const EngineOptions& options = {},
                                               const ContourTuning& tuning = {}) {
    for (ContourMode mode : kModes)
        for (ContourApprox approx : kApproxes)
            if (auto d = differenceFromOpenCV(binary, mode, approx, options, tuning)) return d;
    return std::nullopt;
}

// Rectangles of rw × rh, and every phase on all the threads asked for however small the
// image (the default grains keep small images on one worker), so the parallel paths run too.
ContourTuning onEveryWorker(int rw, int rh) {
    ContourTuning t{rw, rh};
    t.pixelsPerWorker = t.pointsPerWorker = t.recordsPerWorker = 1;
    return t;
}

// Filled blobs drawn in turn as foreground and background, so that they make holes, islands
// in holes and holes in those; rings and nested discs add deeper nesting. Foreground values
// vary: any non-zero value is foreground.
cv::Mat randomBlobs(int w, int h, int count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    cv::Mat m = cv::Mat::zeros(h, w, CV_8U);
    const int maxR = std::max(2, std::min(w, h) / 5);
    for (int i = 0; i < count; ++i) {
        const cv::Point c(uniform(0, w - 1), uniform(0, h - 1));
        const int r = uniform(1, maxR);
        const cv::Scalar fg(uniform(1, 255)), colour = uniform(0, 2) ? fg : cv::Scalar(0);
        switch (uniform(0, 4)) {
        case 0: cv::circle(m, c, r, colour, cv::FILLED); break;
        case 1: cv::ellipse(m, c, {r, std::max(1, r / 3)}, uniform(0, 179), 0, 360, colour, cv::FILLED); break;
        case 2: cv::rectangle(m, cv::Rect(c.x, c.y, r, uniform(1, maxR)), colour, cv::FILLED); break;
        case 3: cv::circle(m, c, r, fg, uniform(1, 3)); break;  // a ring: a hole with a possible island
        default:
            for (int k = r; k > 0; k -= uniform(1, 3)) cv::circle(m, c, k, (k / 2) % 2 ? fg : cv::Scalar(0), cv::FILLED);
        }
    }
    return m;
}

cv::Mat noise(int w, int h, double density, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution on(density);
    cv::Mat m(h, w, CV_8U);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) m.at<std::uint8_t>(y, x) = on(rng) ? 1 : 0;
    return m;
}

// A square spiral of one-pixel lines with `gap` background pixels between turns.
cv::Mat spiral(int size, int gap) {
    cv::Mat m = cv::Mat::zeros(size, size, CV_8U);
    int x0 = 1, y0 = 1, x1 = size - 2, y1 = size - 2;
    while (x0 <= x1 && y0 <= y1) {
        cv::line(m, {x0, y0}, {x1, y0}, 255);
        cv::line(m, {x1, y0}, {x1, y1}, 255);
        cv::line(m, {x1, y1}, {x0, y1}, 255);
        cv::line(m, {x0, y1}, {x0, y0 + gap + 1}, 255);
        x0 += gap + 1;
        y0 += gap + 1;
        x1 -= gap + 1;
        y1 -= gap + 1;
        if (x0 <= x1) cv::line(m, {x0 - gap - 1, y0}, {x0, y0}, 255);
    }
    return m;
}

cv::Mat checkerboard(int w, int h, int cell) {
    cv::Mat m(h, w, CV_8U);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) m.at<std::uint8_t>(y, x) = ((x / cell + y / cell) % 2) ? 1 : 0;
    return m;
}

}  // namespace

class TestContours : public QObject {
    Q_OBJECT

private slots:
    void randomBlobsWithNestedHoles() {
        for (int i = 0; i < test::scaled(60); ++i) {
            const int w = 20 + (i * 37) % 180, h = 16 + (i * 53) % 150;
            const cv::Mat img = randomBlobs(w, h, 4 + i % 30, 100 + static_cast<std::uint64_t>(i));
            const ContourTuning tuning = onEveryWorker(1 + (i * 7) % 40, 1 + (i * 11) % 45);
            EngineOptions options;
            options.threads = 1 + i % 3;
            const auto d = differenceInAnyMode(img, options, tuning);
            LINESCOPE_CHECK(!d, "random blobs, seed " + std::to_string(100 + i) + ": " + *d);
        }
    }

    void linesAndDiagonals() {
        // One-pixel lines in 8- and 4-connectivity at many slopes, open and closed polylines,
        // crossings, T-junctions and lone pixels: pixels on several borders, and borders that
        // run along a line and back.
        std::mt19937_64 rng(7);
        auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        for (int i = 0; i < test::scaled(40); ++i) {
            cv::Mat m = cv::Mat::zeros(64 + i % 9, 80 + i % 13, CV_8U);
            for (int k = 0; k < 3 + i % 8; ++k) {
                const cv::Point a(uniform(-5, m.cols + 4), uniform(-5, m.rows + 4));
                const cv::Point b(uniform(-5, m.cols + 4), uniform(-5, m.rows + 4));
                cv::line(m, a, b, 255, 1, uniform(0, 1) ? cv::LINE_8 : cv::LINE_4);
            }
            for (int k = 0; k < 5; ++k) m.at<std::uint8_t>(uniform(0, m.rows - 1), uniform(0, m.cols - 1)) = 9;
            cv::rectangle(m, cv::Rect(uniform(0, 20), uniform(0, 20), uniform(1, 30), uniform(1, 30)), 255, 1);
            for (int r : {1, 2, 5, 16}) {
                const ContourTuning tuning{r, r + i % 3};
                const auto d = differenceInAnyMode(m, {}, tuning);
                LINESCOPE_CHECK(!d, "lines " + std::to_string(i) + ": " + *d);
            }
        }
    }

    void touchingCornersAndCheckerboards() {
        // Squares that touch only at corners are one component in 8-connectivity; each
        // background cell of a checkerboard is a separate one-pixel hole.
        cv::Mat corners = cv::Mat::zeros(40, 50, CV_8U);
        for (int k = 0; k < 6; ++k) cv::rectangle(corners, cv::Rect(3 + 5 * k, 3 + 5 * k, 5, 5), 1, cv::FILLED);
        for (int k = 0; k < 6; ++k) corners.at<std::uint8_t>(30 - k, 30 + k) = 1;
        cv::rectangle(corners, cv::Rect(40, 2, 4, 4), 1, cv::FILLED);
        cv::rectangle(corners, cv::Rect(44, 6, 4, 4), 1, cv::FILLED);
        cv::rectangle(corners, cv::Rect(36, 6, 4, 4), 1, cv::FILLED);
        for (int r : {1, 2, 3, 4, 5, 7, 64}) {
            const ContourTuning tuning{r, r};
            auto d = differenceInAnyMode(corners, {}, tuning);
            LINESCOPE_CHECK(!d, "touching corners: " + *d);
        }
        for (int cell : {1, 2, 3}) {
            const cv::Mat board = checkerboard(61, 47, cell);
            for (int r : {1, 2, 3, 8, 13, 100}) {
                const ContourTuning tuning = onEveryWorker(r, r + 1);
                EngineOptions options;
                options.threads = 2;
                auto d = differenceInAnyMode(board, options, tuning);
                LINESCOPE_CHECK(!d, "checkerboard of " + std::to_string(cell) + "-pixel cells: " + *d);
            }
        }
    }

    void spirals() {
        for (int gap : {1, 2, 3}) {
            for (int size : {9, 40, 101}) {
                const cv::Mat s = spiral(size, gap);
                for (int r : {1, 3, 8, 32, 200}) {
                    const ContourTuning tuning{r, r};
                    auto d = differenceInAnyMode(s, {}, tuning);
                    LINESCOPE_CHECK(!d, "spiral of " + std::to_string(size) + " with gap " + std::to_string(gap) + ": " + *d);
                    // A thick spiral: its background corridor is one long hole.
                    cv::Mat thick;
                    cv::dilate(s, thick, cv::Mat::ones(2, 2, CV_8U));
                    d = differenceInAnyMode(thick, {}, tuning);
                    LINESCOPE_CHECK(!d, "thick spiral of " + std::to_string(size) + ": " + *d);
                }
            }
        }
    }

    void objectsOnTheFrame() {
        // The frame is background: objects touching the image's edge are closed by it.
        cv::Mat m = cv::Mat::zeros(50, 60, CV_8U);
        cv::rectangle(m, cv::Rect(0, 0, 60, 50), 255, 1);          // the whole edge: a ring
        cv::rectangle(m, cv::Rect(0, 20, 15, 10), 255, cv::FILLED);  // on the left edge
        cv::circle(m, {59, 25}, 8, 255, cv::FILLED);                   // on the right edge
        cv::rectangle(m, cv::Rect(25, 40, 10, 10), 255, cv::FILLED);  // on the bottom edge
        cv::rectangle(m, cv::Rect(28, 43, 3, 3), 0, cv::FILLED);      // with a hole
        m.at<std::uint8_t>(0, 30) = 0;                                // break the ring at the top
        for (int r : {1, 4, 7, 16, 64}) {
            auto d = differenceInAnyMode(m, {}, ContourTuning{r, r});
            LINESCOPE_CHECK(!d, "objects on the frame: " + *d);
        }
        for (int i = 0; i < test::scaled(20); ++i) {
            cv::Mat b = randomBlobs(30 + i, 25 + i, 12, 900 + static_cast<std::uint64_t>(i));
            b.row(0).setTo(i % 2 ? 255 : 0);
            b.col(b.cols - 1).setTo(i % 3 ? 7 : 0);
            auto d = differenceInAnyMode(b, {}, ContourTuning{1 + i % 6, 1 + i % 5});
            LINESCOPE_CHECK(!d, "blobs on the frame " + std::to_string(i) + ": " + *d);
        }
    }

    void singlePixelsEmptyAndFullImages() {
        for (int w : {1, 2, 3, 17}) {
            for (int h : {1, 2, 3, 11}) {
                for (int value : {0, 1, 255}) {
                    const cv::Mat m(h, w, CV_8U, cv::Scalar(value));
                    auto d = differenceInAnyMode(m, {}, ContourTuning{2, 3});
                    LINESCOPE_CHECK(!d, "uniform " + std::to_string(value) + ": " + *d);
                }
                cv::Mat dot = cv::Mat::zeros(h, w, CV_8U);
                dot.at<std::uint8_t>(h / 2, w / 2) = 1;
                auto d = differenceInAnyMode(dot, {}, ContourTuning{1, 1});
                LINESCOPE_CHECK(!d, "one pixel: " + *d);
            }
        }
        // Every small image: all 2^9 binary images of 3×3 and random ones up to 6×6.
        for (int bits = 0; bits < 512; ++bits) {
            cv::Mat m(3, 3, CV_8U);
            for (int k = 0; k < 9; ++k) m.at<std::uint8_t>(k / 3, k % 3) = (bits >> k) & 1;
            auto d = differenceInAnyMode(m, {}, ContourTuning{1 + bits % 3, 1 + bits % 2});
            LINESCOPE_CHECK(!d, "3x3 image " + std::to_string(bits) + ": " + *d);
        }
        for (int i = 0; i < test::scaled(300); ++i) {
            const cv::Mat m = noise(1 + i % 6, 1 + (i / 6) % 6, 0.6, 3000 + static_cast<std::uint64_t>(i));
            auto d = differenceInAnyMode(m, {}, ContourTuning{1 + i % 4, 1 + i % 3});
            LINESCOPE_CHECK(!d, "small noise " + std::to_string(i) + ": " + *d);
        }
    }

    void manyBordersAndDeepNesting() {
        // Thousands of borders (OpenCV reuses its 127 border labels) and noise, where most
        // pixels lie on several borders.
        for (int i = 0; i < test::scaled(12); ++i) {
            const cv::Mat m = noise(150 + 23 * i, 120 + 17 * i, 0.2 + 0.05 * (i % 7), 5000 + static_cast<std::uint64_t>(i));
            EngineOptions options;
            options.threads = 1 + i % 3;
            auto d = differenceInAnyMode(m, options, onEveryWorker(1 + (i * 9) % 70, 1 + (i * 5) % 60));
            LINESCOPE_CHECK(!d, "noise " + std::to_string(i) + ": " + *d);
        }
        // Concentric rings: nesting 40 deep.
        cv::Mat rings = cv::Mat::zeros(330, 330, CV_8U);
        for (int r = 160; r > 0; r -= 4) cv::circle(rings, {165, 165}, r, 255, 2);
        auto d = differenceInAnyMode(rings, {}, ContourTuning{32, 32});
        LINESCOPE_CHECK(!d, "concentric rings: " + *d);
    }

    void thresholdedSamples() {
        for (const char* name : {"fingerprint", "music_sheet", "oriented_texture", "text_page"}) {
            const std::string path = std::string(LINESCOPE_SAMPLES_DIR) + "/" + name + ".png";
            const cv::Mat grey = cv::imread(path, cv::IMREAD_GRAYSCALE);
            QVERIFY2(!grey.empty(), path.c_str());
            for (int t : {60, 128, 200}) {
                const cv::Mat binary = grey > t;
                auto d = differenceInAnyMode(binary);
                LINESCOPE_CHECK(!d, std::string(name) + " > " + std::to_string(t) + ": " + *d);
            }
            const cv::Mat dark = grey < 128;
            auto d = differenceInAnyMode(dark, {}, ContourTuning{37, 23});
            LINESCOPE_CHECK(!d, std::string(name) + " < 128: " + *d);
        }
    }

    void bigImage() {
        // The size of the paper's 4× images, with about 400 borders.
        std::mt19937_64 rng(11);
        auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        cv::Mat m = cv::Mat::zeros(4112, 4928, CV_8U);
        for (int i = 0; i < 330; ++i) {
            const cv::Point c(uniform(0, m.cols - 1), uniform(0, m.rows - 1));
            const int r = uniform(10, 70);
            cv::circle(m, c, r, 255, cv::FILLED);
            if (i % 3 == 0) cv::circle(m, c, r / 3, 0, cv::FILLED);
            if (i % 9 == 0) cv::circle(m, c, r / 6, 255, cv::FILLED);
        }
        cv::line(m, {0, 2000}, {4927, 2100}, 255, 3);  // one border across a whole row of rectangles
        for (ContourMode mode : kModes)
            for (ContourApprox approx : kApproxes) {
                auto d = differenceFromOpenCV(m, mode, approx);
                LINESCOPE_CHECK(!d, "big image: " + *d);
            }
        const CvContours c = opencvContours(m, ContourMode::List, ContourApprox::None);
        QVERIFY2(c.contours.size() >= 300 && c.contours.size() <= 600, std::to_string(c.contours.size()).c_str());
    }

    void rectangleSeamsAtEveryOffset() {
        // One image cropped at every offset against rectangles of many sizes, so that each
        // border crosses the seams at every phase.
        const cv::Mat base = randomBlobs(90, 80, 25, 42);
        for (int r : {1, 2, 3, 4, 7, 8, 16}) {
            for (int dx = 0; dx < r; ++dx) {
                const int dy = (dx * 5) % r;
                const cv::Mat crop = base(cv::Rect(dx, dy, base.cols - dx, base.rows - dy));
                EngineOptions options;
                options.threads = 1 + dx % 3;
                auto d = differenceInAnyMode(crop, options, onEveryWorker(r, r + (dx % 2)));
                LINESCOPE_CHECK(!d, "crop at (" + std::to_string(dx) + ", " + std::to_string(dy) + "): " + *d);
            }
        }
    }

    void threadCounts() {
        const cv::Mat m = randomBlobs(400, 300, 80, 77);
        for (int threads : {1, 2, 3, 7}) {
            EngineOptions options;
            options.threads = threads;
            for (int r : {5, 33, 128}) {
                auto d = differenceInAnyMode(m, options, onEveryWorker(r, r));
                LINESCOPE_CHECK(!d, "threads " + std::to_string(threads) + ": " + *d);
            }
        }
    }

    void stridedViewAndReusedFinder() {
        // A view inside a larger buffer (stride > width), and one finder reused across sizes.
        const cv::Mat big = randomBlobs(200, 150, 40, 5);
        const cv::Mat inner = big(cv::Rect(13, 9, 150, 120));
        QVERIFY(!inner.isContinuous());
        auto d = differenceInAnyMode(inner, {}, ContourTuning{16, 16});
        LINESCOPE_CHECK(!d, "strided view: " + *d);

        ContourFinder finder({}, ContourTuning{20, 12});
        Contours reused;
        for (int i = 0; i < 6; ++i) {
            const cv::Mat m = randomBlobs(40 + 60 * (i % 3), 30 + 50 * ((i + 1) % 3), 20, 600 + static_cast<std::uint64_t>(i));
            const ContourMode mode = kModes[i % 4];
            finder.find(viewOf(m), mode, ContourApprox::None, reused);
            const Contours fresh = findContours(viewOf(m), mode, ContourApprox::None, {}, nullptr, ContourTuning{20, 12});
            QCOMPARE(reused.points, fresh.points);
            QCOMPARE(reused.offsets, fresh.offsets);
            QCOMPARE(reused.parent, fresh.parent);
            QCOMPARE(reused.next, fresh.next);
        }
    }

    void timingsAndBadInput() {
        const cv::Mat m = randomBlobs(300, 200, 30, 3);
        ContourTimings t;
        const Contours c = findContours(viewOf(m), ContourMode::Tree, ContourApprox::Simple, {}, &t);
        QVERIFY(c.size() > 0);
        QVERIFY(t.preprocess >= 0 && t.track >= 0 && t.connect >= 0 && t.hierarchy >= 0 && t.download >= 0);
        QVERIFY(t.total >= t.preprocess + t.track + t.connect);

        QVERIFY_THROWS_EXCEPTION(Error, findContours(ImageView<const std::uint8_t>(), ContourMode::Tree, ContourApprox::None));
        std::vector<std::uint8_t> wide(70000, 1);
        QVERIFY_THROWS_EXCEPTION(Error, findContours(ImageView<const std::uint8_t>(wide.data(), 70000, 1),
                                                     ContourMode::Tree, ContourApprox::None));
        QVERIFY_THROWS_EXCEPTION(Error, ContourFinder({}, ContourTuning{0, 8}));
        if (!backendAvailable(Backend::Cuda))
            QVERIFY_THROWS_EXCEPTION(Error, ContourFinder({Backend::Cuda, LineAlgorithm::Auto, 0}));
        // 65535×65535 one-pixel rectangles: more than the rectangle numbering holds (the
        // check comes before any pixel is read, so a one-row buffer serves as the image).
        std::vector<std::uint8_t> row(65535, 0);
        ContourFinder tiny({Backend::Cpu, LineAlgorithm::Auto, 0}, ContourTuning{1, 1});
        Contours out;
        QVERIFY_THROWS_EXCEPTION(Error, tiny.find(ImageView<const std::uint8_t>(row.data(), 65535, 65535, 0),
                                                  ContourMode::List, ContourApprox::None, out));
        QCOMPARE(parseContourMode("ccomp"), ContourMode::CComp);
        QCOMPARE(parseContourApprox("simple"), ContourApprox::Simple);
        QVERIFY_THROWS_EXCEPTION(Error, parseContourMode("all"));
    }
};

QTEST_MAIN(TestContours)
#include "test_contours.moc"
