// How a classic operator runs on the GPU: which layout its line factors take and how much
// device memory it needs. Host code only, mirroring runStages in compute/classic_morph.cpp.
#pragma once

#include "compute/classic_morph.h"
#include "compute/classic_se_offsets.h"
#include "compute/cuda/device_image.h"
#include "compute/image.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace linescope::cuda::classic {

inline std::size_t imageBytes(int w, int h, std::size_t element) {
    return devicePitch(w, element) * static_cast<std::size_t>(h);
}

// How the factors run (classic_morph.cpp's runStages):
//   Copy      no factor (a single-pixel SE): the raw input;
//   Window    Naive, Global, SharedTile: one 2-D window kernel for the rectangle;
//   Unpadded  one factor, or only horizontal and vertical ones: on the image itself;
//   Padded    any other sequence: on the image padded by the SE's reach with the neutral
//             value, then cropped.
enum class Layout { Copy, Window, Unpadded, Padded };

struct Plan {
    Layout layout = Layout::Copy;
    ClassicMethod method = ClassicMethod::VanHerk;
    std::vector<LineStage> stages;
    int padX = 0, padY = 0;
    int workW = 0, workH = 0;  // the image the factors run on
    int workImages = 0;        // ping-pong images of workW × workH
    bool transposeVertical = false;
    bool keys = false;         // Global's scatter dilation
    // Bytes of each scratch region (prefix, suffix, and the transposed pair).
    std::size_t scanRegion = 0, transposeRegion = 0;
};

inline bool isWindowMethod(ClassicMethod m) {
    return m == ClassicMethod::Naive || m == ClassicMethod::Global || m == ClassicMethod::SharedTile;
}

// Throws Error on a bad SE (as the CPU does), a window method with a shape other than Rect,
// or a padded image too large (the CPU's message).
inline Plan makePlan(MorphOp op, int width, int height, const ClassicSE& se, std::size_t elementSize) {
    Plan p;
    p.stages = classicSEStages(se);  // throws on a bad size, as on the CPU
    p.method = se.method == ClassicMethod::Auto ? ClassicMethod::VanHerk : se.method;
    if (isWindowMethod(p.method) && se.shape != ClassicShape::Rect)
        throw Error(std::string("the classic method '") + classicMethodName(p.method) +
                    "' takes rectangles only on the CUDA backend (use auto, vhgw or vhgw-transpose)");
    p.workW = width;
    p.workH = height;
    if (p.stages.empty()) {
        p.layout = Layout::Copy;
        return p;
    }
    if (isWindowMethod(p.method)) {
        p.layout = Layout::Window;
        p.keys = p.method == ClassicMethod::Global && op != MorphOp::Erode;
        return p;
    }
    const bool axisOnly = std::all_of(p.stages.begin(), p.stages.end(),
                                      [](const LineStage& s) { return s.dx == 0 || s.dy == 0; });
    if (p.stages.size() == 1 || axisOnly) {
        p.layout = Layout::Unpadded;
        p.workImages = p.stages.size() > 1 ? 1 : 0;
    } else {
        std::int64_t padX = 0, padY = 0;
        for (const LineStage& s : p.stages) {
            const std::int64_t reach = std::max(s.a, s.b);
            padX += reach * std::abs(s.dx);
            padY += reach * std::abs(s.dy);
        }
        const std::int64_t pw = width + 2 * padX, ph = height + 2 * padY;
        if (pw > std::numeric_limits<int>::max() || ph > std::numeric_limits<int>::max() ||
            pw * ph > (std::int64_t{1} << 31))
            throw Error("the structuring element is too large: its padded working image would be " +
                        std::to_string(pw) + "x" + std::to_string(ph) + " pixels");
        p.layout = Layout::Padded;
        p.padX = static_cast<int>(padX);
        p.padY = static_cast<int>(padY);
        p.workW = static_cast<int>(pw);
        p.workH = static_cast<int>(ph);
        p.workImages = 2;
    }
    p.transposeVertical = p.method == ClassicMethod::VanHerkTranspose &&
                          std::any_of(p.stages.begin(), p.stages.end(), [](const LineStage& s) { return s.dx == 0; });
    p.scanRegion = imageBytes(p.workW, p.workH, elementSize);
    if (p.transposeVertical) {
        p.transposeRegion = imageBytes(p.workH, p.workW, elementSize);
        p.scanRegion = std::max(p.scanRegion, p.transposeRegion);
    }
    return p;
}

}  // namespace linescope::cuda::classic
