// The viewport's OpenGL work, free of widgets: one view image in a texture (uploaded from
// the CPU through pixel buffer objects, or written by CUDA through render/cuda_gl_interop.h),
// drawn with pan and zoom through a colour-map shader, the contours as line buffers, and the
// structuring-element glyph. It draws into whatever context is current when its methods are
// called: the QOpenGLWidget's in the app, a bare EGL pbuffer context in tests.
//
// Thread: every method runs on the thread whose OpenGL context is current (the GUI thread in
// the app). initialize() and release() bracket one context's life: Qt may destroy and
// recreate the widget's context, and then the owner calls release() (context still current)
// and initialize() again, and re-uploads or re-registers the views (contextGeneration()).
#pragma once

#include "compute/contours/contours.h"
#include "compute/image.h"
#include "compute/sweep.h"
#include "render/gl_functions.h"
#include "render/se_glyph.h"
#include "render/view_transform.h"

#include <array>
#include <memory>
#include <cstdint>
#include <functional>
#include <vector>

namespace linescope::render {

// How the view's values become colours (both are shaders).
enum class ColourMap {
    Grey,         // (v − lo) / (hi − lo), clamped, as grey
    Orientation,  // design.md §1: hue = 360°·α/180, saturation 1, value = strength / max
    // Orientation blended over the grey view (the Image texture, usually the original):
    // hue and saturation as Orientation at full value, mixed into the grey by
    // blend · strength / max, so weak pixels show the image and strong ones their colour.
    OrientationOverImage,
    // Two results compared (uploadDifference): the Image texture's grey where they agree,
    // a colour for the sign of the difference where they do not (shaders.h).
    SignedDifference,
};

struct Rgba {
    float r = 0, g = 0, b = 0, a = 1;
};

// A rectangle of the framebuffer in pixels, origin at the top-left corner, y down.
struct PixelRect {
    int x = 0, y = 0, width = 0, height = 0;
    bool empty() const { return width <= 0 || height <= 0; }
};

// Where to draw: a framebuffer object (0: the default framebuffer; Qt: the widget's
// defaultFramebufferObject()) and its size in pixels. `area` is the part the view transform
// maps into (screen (0, 0) is its top-left corner) and `clip` the part drawn; empty means the
// whole framebuffer. Side-by-side views give each renderer one half as area and clip; a split
// view gives both the whole area and each its side of the split as clip. `clear` clears the
// clip to the background first.
struct RenderTarget {
    GLuint framebuffer = 0;
    int width = 0;
    int height = 0;
    PixelRect area{};
    PixelRect clip{};
    bool clear = true;
};

// The textures a view lives in, for CUDA interop (cudaGraphicsGLRegisterImage).
enum class ViewTexture {
    Image,        // the grey view: GL_R8, GL_R16 or GL_R32F after its pixel type
    Angle,        // orientation map: α in degrees, GL_R32F
    Strength,     // orientation map: strength, GL_R32F
};

class ViewportRenderer {
public:
    ViewportRenderer() = default;
    ViewportRenderer(const ViewportRenderer&) = delete;
    ViewportRenderer& operator=(const ViewportRenderer&) = delete;
    ~ViewportRenderer() = default;  // touches no OpenGL: call release() while the context lives

    // Loads the entry points, compiles the shaders, creates the buffers. Context current.
    // Throws linescope::Error (with the shader log) on failure.
    void initialize(GlProcLoader loader);
    // Deletes every OpenGL object. Context current. The CPU-side state (view transform,
    // range, contours, glyph) survives, so initialize() on a new context restores it except
    // for the view textures, which the owner uploads (or CUDA writes) again.
    void release();
    bool initialized() const { return initialized_; }
    // Increases at every initialize(): texture names change, interop must re-register.
    std::uint64_t contextGeneration() const { return generation_; }
    const GlFunctions& gl() const { return gl_; }

    // The grey view from the CPU: copied into a pixel buffer object and uploaded from there,
    // so the driver transfers it asynchronously (the buffer is orphaned at each upload, so a
    // new frame never waits for the previous transfer). uint8 → GL_R8, uint16 → GL_R16
    // (normalized), float → GL_R32F.
    template <class T>
    void uploadImage(ImageView<const T> image);
    // Allocates the grey view's texture without pixels (for CUDA to write). Reallocates only
    // when the type or size changes.
    void allocateImage(PixelType type, int width, int height);
    // The value range shown from black to white, in the view's own units (0…255 for uint8,
    // 0…65535 for uint16, any for float).
    void setDisplayRange(double lo, double hi);

    // The orientation map: α (degrees, any value; taken modulo 180 in the shader) and the
    // strength, both float, with the strength shown as white-point maxStrength.
    void uploadOrientation(ImageView<const float> angleDegrees, ImageView<const float> strength,
                           double maxStrength);
    // α_k of argIndex, strength, its max. With step > 1 every step-th pixel of every step-th
    // row only, into textures step times smaller drawn over the whole image: a preview computed
    // at 1/step resolution (and upscaled) loses nothing and uploads step² times fewer bytes.
    template <class T>
    void uploadOrientation(const SweepResult<T>& sweep, int step = 1);
    void allocateOrientation(int width, int height);      // for CUDA to write
    void setMaxStrength(double maxStrength);

    // The signed difference of two results (A − B, as float) over the Image texture's view of
    // A, shown with ColourMap::SignedDifference; maxAbs is the largest |A − B|.
    void uploadDifference(ImageView<const float> signedDifference, double maxAbs);

    void setColourMap(ColourMap map) { colourMap_ = map; }
    // The weight of the orientation colours in OrientationOverImage, 0…1.
    void setOrientationBlend(double blend) { blend_ = blend; }

    // Orientation needles: line segments in image coordinates, (x0, y0, x1, y1) each
    // (render/orientation_needles.h makes them from a sweep), drawn in one colour.
    void setNeedles(std::vector<float> endpoints);
    void clearNeedles() { setNeedles({}); }

    // Contours as line loops through the pixel centres, outer and hole borders in their colours.
    void setContours(const Contours& contours);  // a copy is kept
    void setContours(std::shared_ptr<const Contours> contours);  // shared, not copied
    void clearContours();
    void setContourColours(Rgba outer, Rgba hole) { outerColour_ = outer; holeColour_ = hole; }
    // One contour drawn on top in the highlight colour (-1: none), e.g. the list's selection.
    void setHighlightedContour(int index) { highlighted_ = index; }

    // The SE glyph: the line of λ pixels at the angle around image pixel (x, y), as the
    // engine's own pixels for the kind (lineGlyph), drawn as whole image pixels.
    void setGlyph(double angleDegrees, int length, int x, int y, LineKind kind = LineKind::Paths);
    void clearGlyph();
    void setGlyphColour(Rgba c) { glyphColour_ = c; }

    void setView(const ViewTransform& view) { view_ = view; }
    const ViewTransform& view() const { return view_; }
    void setBackground(Rgba c) { background_ = c; }

    // Size of the current view (the image or the orientation map), 0×0 when none.
    int viewWidth() const;
    int viewHeight() const;

    // Clears the target's clip (when asked) and draws image, needles, contours and glyph
    // there. Context current.
    void render(const RenderTarget& target);

    // Fills a rectangle of the target with a colour (a split view's divider). Context current.
    void fill(const RenderTarget& target, const PixelRect& rect, Rgba colour);

    // The texture name of a view (0 when not allocated), for interop.
    GLuint texture(ViewTexture which) const;
    // Changes whenever the view's texture storage is (re)allocated, in any context. OpenGL
    // recycles deleted names, so a registration must follow this, not the name.
    std::uint64_t textureSerial(ViewTexture which) const;

private:
    struct Texture {
        GLuint id = 0;
        GLuint pbo = 0;
        int width = 0;
        int height = 0;
        GLint internalFormat = 0;
        bool mipmapsStale = true;
        std::uint64_t serial = 0;
    };
    struct Program {
        GLuint id = 0;
        GLint pan = -1, zoom = -1, viewport = -1, imageSize = -1;
        GLint colour = -1;
        GLint image = -1, scale = -1, lo = -1, hi = -1;
        GLint angle = -1, strength = -1, maxStrength = -1, blend = -1;
        GLint difference = -1, maxDifference = -1;
    };

    void ensureTexture(Texture& t, GLint internalFormat, int width, int height);
    void uploadPlane(Texture& t, const void* rows, std::size_t rowBytes, std::ptrdiff_t strideBytes,
                     int height, GLenum format, GLenum type);
    // The same with each row written by fillRow(y, dst) into the mapped pixel buffer (rows on
    // every core: fillRow must be safe to call from several threads).
    void uploadRows(Texture& t, std::size_t rowBytes, int height, GLenum format, GLenum type,
                    const std::function<void(int y, unsigned char* dst)>& fillRow);
    void deleteTexture(Texture& t);
    // The fragment shader is `fragment` followed by `fragmentTail` (shared functions), if any.
    Program buildProgram(const char* vertex, const char* fragment, const char* name,
                         const char* fragmentTail = nullptr);
    void setTransformUniforms(const Program& p, const PixelRect& area, int imageW, int imageH);
    void drawView(const PixelRect& area, int w, int h);
    void drawLines(const PixelRect& area, int w, int h);
    void setSampling(Texture& t, bool allowFiltering);
    void uploadGlyphBuffer();
    void uploadContourBuffer();

    GlFunctions gl_{};
    bool initialized_ = false;
    std::uint64_t generation_ = 0;
    std::uint64_t nextSerial_ = 0;

    Texture image_, angle_, strength_, difference_;
    int orientationW_ = 0, orientationH_ = 0;  // the image size the orientation textures cover
    PixelType imageType_ = PixelType::U8;
    Program grey_, orientation_, orientationOver_, signedDifference_, solid_;
    GLuint quadVao_ = 0, quadVbo_ = 0;
    GLuint contourVao_ = 0, contourVbo_ = 0;
    GLuint glyphVao_ = 0, glyphVbo_ = 0;
    GLuint needleVao_ = 0, needleVbo_ = 0;

    ViewTransform view_;
    ColourMap colourMap_ = ColourMap::Grey;
    double lo_ = 0, hi_ = 255;
    double maxStrength_ = 1;
    double maxDifference_ = 1;
    double blend_ = 0.7;
    Rgba background_{0.12f, 0.12f, 0.12f, 1};

    // Contours: the engine's points (uploaded as they are), and the (first, count) of outer
    // and hole loops.
    std::shared_ptr<const Contours> contours_;
    std::vector<GLint> outerFirst_, holeFirst_;
    std::vector<GLsizei> outerCount_, holeCount_;
    std::vector<GLint> contourFirst_;     // every contour, in the engine's order
    std::vector<GLsizei> contourCount_;
    int highlighted_ = -1;
    Rgba highlightColour_{1, 0.3f, 1, 1};
    bool contoursDirty_ = false;
    // The SVG export's colours (#ff2020, #0050ff), which the contours dock's legend shows.
    Rgba outerColour_{1, 0x20 / 255.0f, 0x20 / 255.0f, 1};
    Rgba holeColour_{0, 0x50 / 255.0f, 1, 1};

    std::vector<float> needles_;
    bool needlesDirty_ = false;
    Rgba needleColour_{1, 1, 1, 0.9f};

    bool hasGlyph_ = false;
    double glyphAngle_ = 0;
    int glyphLength_ = 1, glyphX_ = 0, glyphY_ = 0;
    LineKind glyphKind_ = LineKind::Paths;
    int glyphForW_ = -1, glyphForH_ = -1;  // the view size the glyph buffer was built for
    bool glyphDirty_ = false;
    GLsizei glyphVertexCount_ = 0;
    Rgba glyphColour_{1, 0.2f, 0.2f, 1};
};

}  // namespace linescope::render
