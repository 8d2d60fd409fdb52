// Contours of a binary image (design.md §1 "Contours"): the borders of the non-zero pixels,
// 8-connectivity, the image frame taken as zero, exactly as OpenCV's findContours returns
// them (the same points from the same start in the same direction, the same list order and
// hierarchy) for its four retrieval modes and CHAIN_APPROX_NONE / _SIMPLE.
//
// The CPU backend is the parallel border tracking of Garcia-Molla et al. (2022) on worker
// threads: the image is cut into rectangles, each rectangle's borders are followed on their
// own, and the pieces are joined by vertical then horizontal merge sweeps.
#pragma once

#include "compute/backend.h"
#include "compute/image.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace linescope {

// Which borders, and which hierarchy (OpenCV's RETR_EXTERNAL, _LIST, _CCOMP, _TREE).
enum class ContourMode {
    External,  // outer borders of the components that no hole encloses
    List,      // all borders, no hierarchy
    CComp,     // two levels: outer borders, and each hole under the outer border of its component
    Tree,      // the full nesting: holes under outer borders, components in holes under the hole
};

// Which points of a border (OpenCV's CHAIN_APPROX_NONE and CHAIN_APPROX_SIMPLE).
enum class ContourApprox {
    None,    // every border pixel, as the tracking visits it
    Simple,  // only the pixels where the direction changes
};

const char* contourModeName(ContourMode m);      // "external", "list", "ccomp", "tree"
const char* contourApproxName(ContourApprox a);  // "none", "simple"
ContourMode parseContourMode(const std::string& s);      // throws Error
ContourApprox parseContourApprox(const std::string& s);  // throws Error

struct ContourPoint {
    int x = 0;
    int y = 0;
    bool operator==(const ContourPoint&) const = default;
};

// All contours in one array: contour i is points[offsets[i] .. offsets[i + 1]). The
// hierarchy is OpenCV's (next, previous, first child, parent; −1 for none), and hole says
// whether the contour is a hole border.
struct Contours {
    std::vector<ContourPoint> points;
    std::vector<std::size_t> offsets{0};
    std::vector<int> next, previous, firstChild, parent;
    std::vector<std::uint8_t> hole;

    std::size_t size() const { return offsets.size() - 1; }
    std::size_t length(std::size_t i) const { return offsets[i + 1] - offsets[i]; }
    const ContourPoint* begin(std::size_t i) const { return points.data() + offsets[i]; }
};

// Milliseconds spent in each phase of the last call.
struct ContourTimings {
    double preprocess = 0;  // foreground and border-pixel bitmaps
    double track = 0;       // border tracking inside each rectangle
    double connect = 0;     // merge sweeps joining the borders that cross rectangles
    double hierarchy = 0;   // start points, holes, parents and OpenCV's order
    double download = 0;    // writing the contours into the output arrays
    double total = 0;
};

// Knobs of the rectangle tracking; every value gives the same contours.
struct ContourTuning {
    int rectWidth = 128;   // pixels per tracking rectangle, across
    int rectHeight = 128;  // and down
    // A phase wakes one worker thread per this much of its work (waking one costs tens of
    // microseconds); 1 runs every phase on all threads however little work it has.
    std::size_t pixelsPerWorker = std::size_t{1} << 20;  // preprocessing and scanning
    std::size_t pointsPerWorker = std::size_t{1} << 16;  // following and writing border points
    std::size_t recordsPerWorker = std::size_t{1} << 13;  // pieces, chains and borders
};

// Finds contours again and again with the same working memory: its buffers grow to the
// largest image seen and are kept, so that repeated calls (a live view, a benchmark) pay
// neither allocation nor page faults. One call at a time per finder.
class ContourFinder {
public:
    explicit ContourFinder(const EngineOptions& options = {}, const ContourTuning& tuning = {});
    ~ContourFinder();
    ContourFinder(ContourFinder&&) noexcept;
    ContourFinder& operator=(ContourFinder&&) noexcept;

    // The contours of a binary image (non-zero = foreground) into `out`, whose arrays are
    // reused. Throws Error on an empty image, a side over 65535 pixels or an unavailable backend.
    void find(ImageView<const std::uint8_t> binary, ContourMode mode, ContourApprox approx, Contours& out,
              ContourTimings* timings = nullptr);

    struct Workspace;

private:
    EngineOptions options_;
    ContourTuning tuning_;
    std::unique_ptr<Workspace> workspace_;
};

// One call with fresh working memory.
Contours findContours(ImageView<const std::uint8_t> binary, ContourMode mode, ContourApprox approx,
                      const EngineOptions& options = {}, ContourTimings* timings = nullptr,
                      const ContourTuning& tuning = {});

}  // namespace linescope
