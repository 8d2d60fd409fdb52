// Orientation needles for fingerprints and textures: one short segment per grid cell along
// the sweep's orientation at the cell's centre pixel, its length following the strength.
// Plain arithmetic over the sweep's planes, so tests check it without OpenGL.
#pragma once

#include <functional>
#include <vector>

namespace linescope::render {

// Segments as (x0, y0, x1, y1) in image coordinates (pixel centres at +0.5), one per cell of
// `step`×`step` pixels whose centre pixel has strength > 0: centred there, along
// d = (cos α, −sin α) (design.md §1), of length 0.9·step·strength/maxStrength.
// Empty when step < 2 or maxStrength ≤ 0 (nothing oriented to show).
// angleAt and strengthAt are read at the cells' centres only, so a caller hands over its
// sweep's planes without converting them.
std::vector<float> orientationNeedles(int width, int height, const std::function<double(int, int)>& angleAt,
                                      const std::function<double(int, int)>& strengthAt, double maxStrength,
                                      int step);

}  // namespace linescope::render
