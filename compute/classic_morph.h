// The classic 2-D operators of Thurley & Danell: van Herk/Gil-Werman by horizontal,
// vertical and ±45° lines, rectangles as two lines, octagons and discs as line
// decompositions. Borders are ignored (OpenCV's default border does the same).
#pragma once

#include "compute/backend.h"
#include "compute/image.h"
#include "compute/line_morph.h"

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

struct ClassicSE {
    ClassicShape shape = ClassicShape::Rect;
    int width = 1;   // lines and rectangles
    int height = 1;  // rectangles
    int radius = 1;  // octagons and discs
};

// dst = op(src) by the structuring element; Erode, Dilate, Open, Close or TopHat.
template <class T>
void classicMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const ClassicSE& se,
                  const EngineOptions& opt = {});

}  // namespace linescope
