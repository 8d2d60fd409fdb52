// The classic 2-D operators of Thurley & Danell: van Herk/Gil-Werman by horizontal,
// vertical and ±45° lines, rectangles as two lines, octagons and discs as line
// decompositions. Borders are ignored (OpenCV's default border does the same).
#pragma once

#include "compute/backend.h"
#include "compute/image.h"
#include "compute/line_morph.h"

#include <string>

namespace linescope {

enum class ClassicShape {
    HLine,     // width × 1
    VLine,     // 1 × height
    Diag45,    // the 45° line (up-right), `width` pixels
    Diag135,   // the 135° line (up-left), `width` pixels
    Rect,      // width × height
    Octagon,   // radius r: an octagon decomposed into H, V, 45° and 135° lines
    Disc,      // radius r: a disc approximated by lines of several angles
};

// How the CUDA backend computes a classic operator. The CPU backend ignores it (it always
// runs the line decomposition) and computes the same pixels whatever the method; so does
// every method on the CUDA backend, bit for bit: they differ only in speed, which is what
// they are kept to show.
enum class ClassicMethod {
    Auto,              // VanHerk
    VanHerk,           // Thurley & Danell: van Herk/Gil-Werman along each line factor, the
                       // vertical factors by a direct column kernel; every shape
    VanHerkTranspose,  // as VanHerk, but vertical factors by transpose, horizontal pass,
                       // transpose back (their "THT"); shapes without one run as VanHerk
    Naive,             // Izmantoko & Choi, Rect only on CUDA: every thread reads its whole
                       // window from device memory (O(w·h) a pixel)
    Global,            // Izmantoko & Choi's "global" kernels, Rect only on CUDA: erosion gathers
                       // its window (as Naive), dilation scatters each pixel into the outputs
                       // it reaches (atomic maxima in device memory)
    SharedTile,        // Izmantoko & Choi's "shared" kernel, Rect only on CUDA: a tile and its
                       // halo staged in shared memory (O(w·h) a pixel from shared memory)
};
// Naive, Global and SharedTile on the CUDA backend throw Error for shapes other than Rect.

const char* classicShapeName(ClassicShape s);     // "HLine", "VLine", "Diag45", "Diag135", "Rect", "Octagon", "Disc"
const char* classicMethodName(ClassicMethod m);  // "auto", "vhgw", "vhgw-transpose", "naive", "global", "tile"
ClassicMethod parseClassicMethod(const std::string& s);  // the names above; throws Error

struct ClassicSE {
    ClassicShape shape = ClassicShape::Rect;
    int width = 1;   // lines and rectangles
    int height = 1;  // rectangles
    int radius = 1;  // octagons and discs
    ClassicMethod method = ClassicMethod::Auto;  // the CUDA backend's kernels (see above)
};

// dst = op(src) by the structuring element; Erode, Dilate, Open, Close or TopHat.
template <class T>
void classicMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const ClassicSE& se,
                  const EngineOptions& opt = {});

}  // namespace linescope
