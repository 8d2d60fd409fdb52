// Contours of a binary image (design.md §1 "Contours"): the borders of the non-zero pixels,
// 8-connectivity, the image frame taken as zero, exactly as OpenCV's findContours returns
// them (the same points from the same start in the same direction, the same list order and
// hierarchy) for its four retrieval modes and CHAIN_APPROX_NONE / _SIMPLE.
//
// Both backends are the parallel border tracking of Garcia-Molla et al. (2022): the image is
// cut into rectangles and each rectangle's borders are followed on their own. The CPU
// (worker threads) joins the pieces by vertical then horizontal merge sweeps; the GPU (one
// thread per rectangle, compute/cuda/contours_*) links them all at once by sorting the
// moves that cross rectangles and finds each border by pointer jumping.
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

// Milliseconds spent in each phase of the last call (on the GPU: CUDA events).
struct ContourTimings {
    double preprocess = 0;  // foreground and border-pixel bitmaps (GPU: and the upload of a host image)
    double track = 0;       // border tracking inside each rectangle
    double connect = 0;     // joining the borders that cross rectangles
    double hierarchy = 0;   // start points, holes, parents and OpenCV's order (GPU: and the points in place)
    double download = 0;    // CPU: writing the output arrays; GPU: copying the points to the host
    double total = 0;
};

// The largest GPU tracking rectangle: a row of it and a pixel either side fill one 64-bit
// word, and the rows and labels of 32 threads fit a block's shared memory.
inline constexpr int kMaxGpuRectWidth = 62;
inline constexpr int kMaxGpuRectHeight = 64;

// Knobs of the rectangle tracking; every value gives the same contours.
struct ContourTuning {
    int rectWidth = 128;   // pixels per tracking rectangle, across
    int rectHeight = 128;  // and down
    // A phase wakes one worker thread per this much of its work (waking one costs tens of
    // microseconds); 1 runs every phase on all threads however little work it has.
    std::size_t pixelsPerWorker = std::size_t{1} << 20;  // preprocessing and scanning
    std::size_t pointsPerWorker = std::size_t{1} << 16;  // following and writing border points
    std::size_t recordsPerWorker = std::size_t{1} << 13;  // pieces, chains and borders
    // The GPU's rectangles, one tracking thread each with the rectangle's pixels and labels
    // in shared memory: 1 to kMaxGpuRectWidth pixels across and 1 to kMaxGpuRectHeight down.
    int gpuRectWidth = 32;
    int gpuRectHeight = 32;
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
    // reused. Throws Error on an empty image or a side over 65535 pixels. The constructor
    // resolves the backend (Auto: CUDA when usable) and throws when CUDA is asked for and
    // not usable, or the rectangles are bad.
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
