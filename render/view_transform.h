// Pan and zoom of the viewport as plain arithmetic (no OpenGL, no widgets), so that the
// renderer, the widget's mouse handling and the tests agree on one mapping.
#pragma once

#include <cmath>

namespace linescope::render {

// Screen coordinates are framebuffer pixels, origin at the top-left corner, y down (the
// widget multiplies its logical coordinates by the device pixel ratio first). Image
// coordinates are continuous: pixel (x, y) covers [x, x+1) × [y, y+1).
//   screen = pan + zoom · image
struct ViewTransform {
    double zoom = 1;  // screen pixels per image pixel
    double panX = 0;  // screen position of the image's top-left corner
    double panY = 0;

    double screenX(double imageX) const { return panX + zoom * imageX; }
    double screenY(double imageY) const { return panY + zoom * imageY; }
    double imageX(double screenX) const { return (screenX - panX) / zoom; }
    double imageY(double screenY) const { return (screenY - panY) / zoom; }
    // The image pixel under a screen point (may lie outside the image).
    int pixelX(double sx) const { return static_cast<int>(std::floor(imageX(sx))); }
    int pixelY(double sy) const { return static_cast<int>(std::floor(imageY(sy))); }

    // Nearest-neighbour pixels when zoomed in (and at 1:1), filtered when zoomed out.
    bool magnifies() const { return zoom >= 1; }

    // The whole image in the view, centred; the pan is rounded to whole screen pixels so
    // that integer zooms stay pixel-exact.
    static ViewTransform fit(int imageW, int imageH, int viewW, int viewH) {
        ViewTransform t;
        if (imageW <= 0 || imageH <= 0 || viewW <= 0 || viewH <= 0) return t;
        t.zoom = std::fmin(static_cast<double>(viewW) / imageW, static_cast<double>(viewH) / imageH);
        t.panX = std::round((viewW - t.zoom * imageW) / 2);
        t.panY = std::round((viewH - t.zoom * imageH) / 2);
        return t;
    }
    // 1:1, centred.
    static ViewTransform oneToOne(int imageW, int imageH, int viewW, int viewH) {
        ViewTransform t;
        t.panX = std::round((viewW - imageW) / 2.0);
        t.panY = std::round((viewH - imageH) / 2.0);
        return t;
    }
    // Zooms by factor about a screen point, which keeps the image point under it.
    void zoomAt(double sx, double sy, double factor) {
        const double ix = imageX(sx), iy = imageY(sy);
        zoom = std::fmin(std::fmax(zoom * factor, kMinZoom), kMaxZoom);
        panX = sx - zoom * ix;
        panY = sy - zoom * iy;
    }
    // A mouse wheel turn about the cursor; Qt's angleDelta().y() units (120 per notch):
    // four notches double the zoom.
    void wheel(double sx, double sy, double angleDelta) { zoomAt(sx, sy, std::exp2(angleDelta / 480.0)); }
    // A drag by (dx, dy) screen pixels.
    void drag(double dx, double dy) { panX += dx; panY += dy; }

    static constexpr double kMinZoom = 1.0 / 64;
    static constexpr double kMaxZoom = 256;
};

}  // namespace linescope::render
