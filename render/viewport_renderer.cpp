#include "render/viewport_renderer.h"

#include "compute/line_geometry.h"
#include "render/shaders.h"
#include "compute/thread_pool.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace linescope::render {
namespace {

struct PixelFormat {
    GLint internalFormat;
    GLenum type;
    std::size_t bytes;
    double scale;  // texel (normalized) → the view's units
};

PixelFormat formatOf(PixelType t) {
    switch (t) {
    case PixelType::U8: return {GL_R8, GL_UNSIGNED_BYTE, 1, 255.0};
    case PixelType::U16: return {GL_R16, GL_UNSIGNED_SHORT, 2, 65535.0};
    case PixelType::F32: break;
    }
    return {GL_R32F, GL_FLOAT, 4, 1.0};
}

GLenum typeOfInternalFormat(GLint internalFormat) {
    switch (internalFormat) {
    case GL_R8: return GL_UNSIGNED_BYTE;
    case GL_R16: return GL_UNSIGNED_SHORT;
    default: return GL_FLOAT;
    }
}

void checkSize(int width, int height, const char* what) {
    if (width <= 0 || height <= 0)
        throw Error(std::string(what) + ": the view must not be empty");
}

}  // namespace

void ViewportRenderer::initialize(GlProcLoader loader) {
    if (initialized_) release();
    gl_.load(loader);
    while (gl_.GetError() != GL_NO_ERROR) {}  // errors the host left behind are not ours
    grey_ = buildProgram(shaders::kVertex, shaders::kGrey, "grey");
    orientation_ = buildProgram(shaders::kVertex, shaders::kOrientation, "orientation", shaders::kOrientationHsv);
    orientationOver_ = buildProgram(shaders::kVertex, shaders::kOrientationOverImage, "orientation over image",
                                    shaders::kOrientationHsv);
    signedDifference_ = buildProgram(shaders::kVertex, shaders::kSignedDifference, "signed difference");
    solid_ = buildProgram(shaders::kVertex, shaders::kSolid, "solid");

    auto makeVao = [&](GLuint& vao, GLuint& vbo) {
        gl_.GenVertexArrays(1, &vao);
        gl_.GenBuffers(1, &vbo);
        gl_.BindVertexArray(vao);
        gl_.BindBuffer(GL_ARRAY_BUFFER, vbo);
        gl_.EnableVertexAttribArray(0);
        gl_.VertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
        gl_.BindVertexArray(0);
        gl_.BindBuffer(GL_ARRAY_BUFFER, 0);
    };
    makeVao(quadVao_, quadVbo_);
    makeVao(contourVao_, contourVbo_);
    // Contours are uploaded as the engine's integer points (ContourPoint: two ints), converted
    // to float by OpenGL: no per-point work on the CPU.
    gl_.BindVertexArray(contourVao_);
    gl_.BindBuffer(GL_ARRAY_BUFFER, contourVbo_);
    gl_.VertexAttribPointer(0, 2, GL_INT, GL_FALSE, sizeof(ContourPoint), nullptr);
    gl_.BindVertexArray(0);
    gl_.BindBuffer(GL_ARRAY_BUFFER, 0);
    makeVao(glyphVao_, glyphVbo_);
    makeVao(needleVao_, needleVbo_);
    gl_.check("ViewportRenderer::initialize");
    initialized_ = true;
    ++generation_;
    contoursDirty_ = true;  // the CPU-side contours and glyph are uploaded again
    glyphDirty_ = true;
    needlesDirty_ = true;
}

void ViewportRenderer::release() {
    if (!initialized_) return;
    deleteTexture(image_);
    deleteTexture(angle_);
    deleteTexture(strength_);
    deleteTexture(difference_);
    for (Program* p : {&grey_, &orientation_, &orientationOver_, &signedDifference_, &solid_}) {
        gl_.DeleteProgram(p->id);
        *p = Program{};
    }
    for (GLuint* vao : {&quadVao_, &contourVao_, &glyphVao_, &needleVao_}) {
        gl_.DeleteVertexArrays(1, vao);
        *vao = 0;
    }
    for (GLuint* vbo : {&quadVbo_, &contourVbo_, &glyphVbo_, &needleVbo_}) {
        gl_.DeleteBuffers(1, vbo);
        *vbo = 0;
    }
    initialized_ = false;
}

ViewportRenderer::Program ViewportRenderer::buildProgram(const char* vertex, const char* fragment,
                                                         const char* name, const char* fragmentTail) {
    auto compile = [&](GLenum kind, const char* source, const char* tail) {
        const GLuint s = gl_.CreateShader(kind);
        const char* parts[] = {source, tail};
        gl_.ShaderSource(s, tail ? 2 : 1, parts, nullptr);
        gl_.CompileShader(s);
        GLint ok = GL_FALSE;
        gl_.GetShaderiv(s, GL_COMPILE_STATUS, &ok);
        if (!ok) {
            char log[2048] = {};
            gl_.GetShaderInfoLog(s, sizeof log, nullptr, log);
            gl_.DeleteShader(s);
            throw Error(std::string("the ") + name + (kind == GL_VERTEX_SHADER ? " vertex" : " fragment") +
                        " shader did not compile: " + log);
        }
        return s;
    };
    const GLuint vs = compile(GL_VERTEX_SHADER, vertex, nullptr);
    const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment, fragmentTail);
    Program p;
    p.id = gl_.CreateProgram();
    gl_.AttachShader(p.id, vs);
    gl_.AttachShader(p.id, fs);
    gl_.BindAttribLocation(p.id, 0, "aImage");
    gl_.LinkProgram(p.id);
    gl_.DeleteShader(vs);  // flagged; freed with the program
    gl_.DeleteShader(fs);
    GLint ok = GL_FALSE;
    gl_.GetProgramiv(p.id, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        gl_.GetProgramInfoLog(p.id, sizeof log, nullptr, log);
        gl_.DeleteProgram(p.id);
        throw Error(std::string("the ") + name + " shader program did not link: " + log);
    }
    p.pan = gl_.GetUniformLocation(p.id, "uPan");
    p.zoom = gl_.GetUniformLocation(p.id, "uZoom");
    p.viewport = gl_.GetUniformLocation(p.id, "uViewport");
    p.imageSize = gl_.GetUniformLocation(p.id, "uImageSize");
    p.colour = gl_.GetUniformLocation(p.id, "uColour");
    p.image = gl_.GetUniformLocation(p.id, "uImage");
    p.scale = gl_.GetUniformLocation(p.id, "uScale");
    p.lo = gl_.GetUniformLocation(p.id, "uLo");
    p.hi = gl_.GetUniformLocation(p.id, "uHi");
    p.angle = gl_.GetUniformLocation(p.id, "uAngle");
    p.strength = gl_.GetUniformLocation(p.id, "uStrength");
    p.maxStrength = gl_.GetUniformLocation(p.id, "uMaxStrength");
    p.blend = gl_.GetUniformLocation(p.id, "uBlend");
    p.difference = gl_.GetUniformLocation(p.id, "uDifference");
    p.maxDifference = gl_.GetUniformLocation(p.id, "uMaxDifference");
    return p;
}

// --- textures -------------------------------------------------------------------------

void ViewportRenderer::deleteTexture(Texture& t) {
    if (t.id) gl_.DeleteTextures(1, &t.id);
    if (t.pbo) gl_.DeleteBuffers(1, &t.pbo);
    t = Texture{};
}

void ViewportRenderer::ensureTexture(Texture& t, GLint internalFormat, int width, int height) {
    if (!initialized_) throw Error("ViewportRenderer: initialize() first, with the context current");
    if (t.id && t.internalFormat == internalFormat && t.width == width && t.height == height) return;
    // New storage has a new serial: CUDA registrations follow it (OpenGL may hand out the
    // deleted name again, so the name alone cannot tell the storage was replaced).
    if (t.id) gl_.DeleteTextures(1, &t.id);
    t.serial = ++nextSerial_;
    gl_.GenTextures(1, &t.id);
    gl_.BindTexture(GL_TEXTURE_2D, t.id);
    gl_.TexImage2D(GL_TEXTURE_2D, 0, internalFormat, width, height, 0, GL_RED,
                   typeOfInternalFormat(internalFormat), nullptr);
    gl_.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl_.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl_.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl_.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    gl_.BindTexture(GL_TEXTURE_2D, 0);
    gl_.check("allocating a view texture");
    t.internalFormat = internalFormat;
    t.width = width;
    t.height = height;
    t.mipmapsStale = true;
}

void ViewportRenderer::uploadPlane(Texture& t, const void* rows, std::size_t rowBytes,
                                   std::ptrdiff_t strideBytes, int height, GLenum format, GLenum type) {
    const auto* src = static_cast<const unsigned char*>(rows);
    uploadRows(t, rowBytes, height, format, type, [&](int y, unsigned char* dst) {
        std::memcpy(dst, src + strideBytes * y, rowBytes);
    });
}

void ViewportRenderer::uploadRows(Texture& t, std::size_t rowBytes, int height, GLenum format, GLenum type,
                                  const std::function<void(int y, unsigned char* dst)>& fillRow) {
    const std::size_t size = rowBytes * static_cast<std::size_t>(height);
    if (!t.pbo) gl_.GenBuffers(1, &t.pbo);
    gl_.BindBuffer(GL_PIXEL_UNPACK_BUFFER, t.pbo);
    // Orphaning: the driver hands out fresh storage while a previous transfer from this
    // buffer may still be in flight, so this copy never waits on the GPU.
    gl_.BufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(size), nullptr, GL_STREAM_DRAW);
    bool copied = false;
    for (int attempt = 0; attempt < 2 && !copied; ++attempt) {  // UnmapBuffer may report lost contents
        auto* dst = static_cast<unsigned char*>(gl_.MapBufferRange(
            GL_PIXEL_UNPACK_BUFFER, 0, static_cast<GLsizeiptr>(size), GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT));
        if (!dst) break;
        // Rows straight into the mapped buffer, on every core: a 16 Mpx view is 64 MB a plane.
        parallelFor(static_cast<std::size_t>(height), 0, [&](std::size_t y0, std::size_t y1) {
            for (std::size_t y = y0; y < y1; ++y) fillRow(static_cast<int>(y), dst + rowBytes * y);
        });
        copied = gl_.UnmapBuffer(GL_PIXEL_UNPACK_BUFFER) == GL_TRUE;
    }
    if (!copied) {
        gl_.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        gl_.check("mapping a pixel buffer object");
        throw Error("uploading a view: the pixel buffer object could not be mapped");
    }
    gl_.BindTexture(GL_TEXTURE_2D, t.id);
    gl_.PixelStorei(GL_UNPACK_ALIGNMENT, 1);
    gl_.PixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    gl_.TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, t.width, t.height, format, type, nullptr);  // from the PBO
    gl_.PixelStorei(GL_UNPACK_ALIGNMENT, 4);
    gl_.BindTexture(GL_TEXTURE_2D, 0);
    gl_.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    gl_.check("uploading a view through a pixel buffer object");
    t.mipmapsStale = true;
}

template <class T>
void ViewportRenderer::uploadImage(ImageView<const T> image) {
    checkSize(image.width, image.height, "uploadImage");
    const PixelFormat f = formatOf(pixelTypeOf<T>());
    ensureTexture(image_, f.internalFormat, image.width, image.height);
    imageType_ = pixelTypeOf<T>();
    uploadPlane(image_, image.data, sizeof(T) * static_cast<std::size_t>(image.width),
                static_cast<std::ptrdiff_t>(sizeof(T)) * image.stride, image.height, GL_RED, f.type);
}

template void ViewportRenderer::uploadImage<std::uint8_t>(ImageView<const std::uint8_t>);
template void ViewportRenderer::uploadImage<std::uint16_t>(ImageView<const std::uint16_t>);
template void ViewportRenderer::uploadImage<float>(ImageView<const float>);

void ViewportRenderer::allocateImage(PixelType type, int width, int height) {
    checkSize(width, height, "allocateImage");
    ensureTexture(image_, formatOf(type).internalFormat, width, height);
    imageType_ = type;
}

void ViewportRenderer::setDisplayRange(double lo, double hi) {
    lo_ = lo;
    hi_ = hi;
}

void ViewportRenderer::allocateOrientation(int width, int height) {
    checkSize(width, height, "allocateOrientation");
    ensureTexture(angle_, GL_R32F, width, height);
    ensureTexture(strength_, GL_R32F, width, height);
    orientationW_ = width;
    orientationH_ = height;
}

void ViewportRenderer::uploadOrientation(ImageView<const float> angleDegrees, ImageView<const float> strength,
                                         double maxStrength) {
    checkSize(angleDegrees.width, angleDegrees.height, "uploadOrientation");
    if (strength.width != angleDegrees.width || strength.height != angleDegrees.height)
        throw Error("uploadOrientation: the angle and strength images differ in size");
    allocateOrientation(angleDegrees.width, angleDegrees.height);
    const std::size_t rowBytes = sizeof(float) * static_cast<std::size_t>(angleDegrees.width);
    uploadPlane(angle_, angleDegrees.data, rowBytes, static_cast<std::ptrdiff_t>(sizeof(float)) * angleDegrees.stride,
                angleDegrees.height, GL_RED, GL_FLOAT);
    uploadPlane(strength_, strength.data, rowBytes, static_cast<std::ptrdiff_t>(sizeof(float)) * strength.stride,
                strength.height, GL_RED, GL_FLOAT);
    maxStrength_ = maxStrength;
}

template <class T>
void ViewportRenderer::uploadOrientation(const SweepResult<T>& sweep, int step) {
    const int w = sweep.strength.width(), h = sweep.strength.height();
    checkSize(w, h, "uploadOrientation");
    step = std::max(step, 1);
    const int tw = (w + step - 1) / step, th = (h + step - 1) / step;
    allocateOrientation(tw, th);
    orientationW_ = w;
    orientationH_ = h;
    // α_k once an angle, not once a pixel; the planes are written into the pixel buffers
    // directly (no float images in between), row by row on every core.
    std::vector<float> angleOf(static_cast<std::size_t>(std::max(sweep.angles.count, 1)));
    for (int k = 0; k < sweep.angles.count; ++k)
        angleOf[static_cast<std::size_t>(k)] = static_cast<float>(normalizeAngle(sweep.angles.angle(k)));
    const std::size_t rowBytes = sizeof(float) * static_cast<std::size_t>(tw);
    uploadRows(angle_, rowBytes, th, GL_RED, GL_FLOAT, [&](int y, unsigned char* dst) {
        const std::uint16_t* k = sweep.argIndex.view().row(y * step);
        auto* a = reinterpret_cast<float*>(dst);
        for (int x = 0; x < tw; ++x) a[x] = angleOf[k[x * step]];
    });
    std::vector<double> rowMax(static_cast<std::size_t>(th), 0.0);
    uploadRows(strength_, rowBytes, th, GL_RED, GL_FLOAT, [&](int y, unsigned char* dst) {
        const T* s = sweep.strength.view().row(y * step);
        auto* f = reinterpret_cast<float*>(dst);
        double m = 0;
        for (int x = 0; x < tw; ++x) {
            f[x] = static_cast<float>(s[x * step]);
            m = std::max(m, static_cast<double>(s[x * step]));
        }
        rowMax[static_cast<std::size_t>(y)] = m;
    });
    double maxStrength = 0;
    for (double m : rowMax) maxStrength = std::max(maxStrength, m);
    maxStrength_ = std::isfinite(maxStrength) ? maxStrength : 0;  // as orientationColours: black
}

template void ViewportRenderer::uploadOrientation<std::uint8_t>(const SweepResult<std::uint8_t>&, int);
template void ViewportRenderer::uploadOrientation<std::uint16_t>(const SweepResult<std::uint16_t>&, int);
template void ViewportRenderer::uploadOrientation<float>(const SweepResult<float>&, int);

void ViewportRenderer::setMaxStrength(double maxStrength) { maxStrength_ = maxStrength; }

void ViewportRenderer::uploadDifference(ImageView<const float> d, double maxAbs) {
    checkSize(d.width, d.height, "uploadDifference");
    ensureTexture(difference_, GL_R32F, d.width, d.height);
    uploadPlane(difference_, d.data, sizeof(float) * static_cast<std::size_t>(d.width),
                static_cast<std::ptrdiff_t>(sizeof(float)) * d.stride, d.height, GL_RED, GL_FLOAT);
    maxDifference_ = maxAbs;
}

// The image size the view covers (the orientation textures may be smaller: a preview's).
int ViewportRenderer::viewWidth() const {
    return colourMap_ == ColourMap::Orientation ? orientationW_ : image_.id ? image_.width : orientationW_;
}
int ViewportRenderer::viewHeight() const {
    return colourMap_ == ColourMap::Orientation ? orientationH_ : image_.id ? image_.height : orientationH_;
}

GLuint ViewportRenderer::texture(ViewTexture which) const {
    switch (which) {
    case ViewTexture::Image: return image_.id;
    case ViewTexture::Angle: return angle_.id;
    case ViewTexture::Strength: break;
    }
    return strength_.id;
}

std::uint64_t ViewportRenderer::textureSerial(ViewTexture which) const {
    switch (which) {
    case ViewTexture::Image: return image_.serial;
    case ViewTexture::Angle: return angle_.serial;
    case ViewTexture::Strength: break;
    }
    return strength_.serial;
}

// --- contours and glyph ---------------------------------------------------------------

void ViewportRenderer::setContours(const Contours& contours) {
    setContours(std::make_shared<const Contours>(contours));
}

void ViewportRenderer::setContours(std::shared_ptr<const Contours> shared) {
    clearContours();
    if (!shared) return;
    contours_ = std::move(shared);
    const Contours& contours = *contours_;
    for (std::size_t i = 0; i < contours.size(); ++i) {
        const bool hole = i < contours.hole.size() && contours.hole[i];
        (hole ? holeFirst_ : outerFirst_).push_back(static_cast<GLint>(contours.offsets[i]));
        (hole ? holeCount_ : outerCount_).push_back(static_cast<GLsizei>(contours.length(i)));
        contourFirst_.push_back(static_cast<GLint>(contours.offsets[i]));
        contourCount_.push_back(static_cast<GLsizei>(contours.length(i)));
    }
}

void ViewportRenderer::clearContours() {
    contours_.reset();
    outerFirst_.clear();
    outerCount_.clear();
    holeFirst_.clear();
    holeCount_.clear();
    contourFirst_.clear();
    contourCount_.clear();
    contoursDirty_ = true;
}

void ViewportRenderer::setNeedles(std::vector<float> endpoints) {
    needles_ = std::move(endpoints);
    needlesDirty_ = true;
}

void ViewportRenderer::setGlyph(double angleDegrees, int length, int x, int y, LineKind kind) {
    hasGlyph_ = true;
    glyphKind_ = kind;
    glyphAngle_ = angleDegrees;
    glyphLength_ = length;
    glyphX_ = x;
    glyphY_ = y;
    glyphDirty_ = true;
}

void ViewportRenderer::clearGlyph() {
    hasGlyph_ = false;
    glyphDirty_ = true;
}

void ViewportRenderer::uploadContourBuffer() {
    gl_.BindBuffer(GL_ARRAY_BUFFER, contourVbo_);
    const std::size_t n = contours_ ? contours_->points.size() : 0;
    gl_.BufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(n * sizeof(ContourPoint)),
                   n ? contours_->points.data() : nullptr, GL_STATIC_DRAW);
    gl_.BindBuffer(GL_ARRAY_BUFFER, 0);
    contoursDirty_ = false;
}

void ViewportRenderer::uploadGlyphBuffer() {
    const int w = viewWidth(), h = viewHeight();
    std::vector<float> v;
    if (hasGlyph_) {
        // Two triangles per pixel, covering exactly [x, x+1) × [y, y+1) in image coordinates.
        for (const GlyphPixel& p : lineGlyph(glyphKind_, glyphAngle_, glyphLength_, glyphX_, glyphY_, w, h)) {
            const float x0 = static_cast<float>(p.x), y0 = static_cast<float>(p.y);
            const float x1 = x0 + 1, y1 = y0 + 1;
            for (float c : {x0, y0, x1, y0, x0, y1, x1, y0, x1, y1, x0, y1}) v.push_back(c);
        }
    }
    gl_.BindBuffer(GL_ARRAY_BUFFER, glyphVbo_);
    gl_.BufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(v.size() * sizeof(float)), v.empty() ? nullptr : v.data(),
                   GL_DYNAMIC_DRAW);
    gl_.BindBuffer(GL_ARRAY_BUFFER, 0);
    glyphVertexCount_ = static_cast<GLsizei>(v.size() / 2);
    glyphForW_ = w;
    glyphForH_ = h;
    glyphDirty_ = false;
}

// --- drawing --------------------------------------------------------------------------

void ViewportRenderer::setTransformUniforms(const Program& p, const PixelRect& area, int imageW, int imageH) {
    gl_.Uniform2f(p.pan, static_cast<float>(view_.panX), static_cast<float>(view_.panY));
    gl_.Uniform1f(p.zoom, static_cast<float>(view_.zoom));
    gl_.Uniform2f(p.viewport, static_cast<float>(area.width), static_cast<float>(area.height));
    gl_.Uniform2f(p.imageSize, static_cast<float>(std::max(imageW, 1)), static_cast<float>(std::max(imageH, 1)));
}

void ViewportRenderer::setSampling(Texture& t, bool allowFiltering) {
    gl_.BindTexture(GL_TEXTURE_2D, t.id);
    if (allowFiltering && !view_.magnifies()) {
        if (t.mipmapsStale) {
            gl_.GenerateMipmap(GL_TEXTURE_2D);
            t.mipmapsStale = false;
        }
        gl_.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
        gl_.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    } else {
        gl_.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        gl_.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
}

void ViewportRenderer::render(const RenderTarget& target) {
    if (!initialized_) throw Error("ViewportRenderer: initialize() first, with the context current");
    const PixelRect whole{0, 0, target.width, target.height};
    const PixelRect area = target.area.empty() ? whole : target.area;
    const PixelRect clip = target.clip.empty() ? area : target.clip;
    gl_.BindFramebuffer(GL_FRAMEBUFFER, target.framebuffer);
    // OpenGL's window coordinates have y up: flip the top-left rectangles.
    gl_.Viewport(area.x, target.height - area.y - area.height, area.width, area.height);
    // The host (Qt, ImGui) may leave any state behind: set what the drawing depends on.
    gl_.Disable(GL_DEPTH_TEST);
    gl_.Disable(GL_STENCIL_TEST);
    gl_.Disable(GL_CULL_FACE);
    gl_.Disable(GL_BLEND);
    gl_.Enable(GL_SCISSOR_TEST);
    gl_.Scissor(clip.x, target.height - clip.y - clip.height, clip.width, clip.height);
    if (target.clear) {
        gl_.ClearColor(background_.r, background_.g, background_.b, background_.a);
        gl_.Clear(GL_COLOR_BUFFER_BIT);
    }
    if (target.width > 0 && target.height > 0 && !area.empty() && !clip.empty()) {
        const int w = viewWidth(), h = viewHeight();
        drawView(area, w, h);
        drawLines(area, w, h);
    }
    gl_.Disable(GL_SCISSOR_TEST);
    gl_.BindVertexArray(0);
    gl_.UseProgram(0);
    for (GLenum unit : {GL_TEXTURE2, GL_TEXTURE1, GL_TEXTURE0}) {
        gl_.ActiveTexture(unit);
        gl_.BindTexture(GL_TEXTURE_2D, 0);
    }
    gl_.check("ViewportRenderer::render");
}

void ViewportRenderer::fill(const RenderTarget& target, const PixelRect& rect, Rgba colour) {
    if (rect.empty()) return;
    gl_.BindFramebuffer(GL_FRAMEBUFFER, target.framebuffer);
    gl_.Enable(GL_SCISSOR_TEST);
    gl_.Scissor(rect.x, target.height - rect.y - rect.height, rect.width, rect.height);
    gl_.ClearColor(colour.r, colour.g, colour.b, colour.a);
    gl_.Clear(GL_COLOR_BUFFER_BIT);
    gl_.Disable(GL_SCISSOR_TEST);
}

void ViewportRenderer::drawView(const PixelRect& area, int w, int h) {
    const bool difference = colourMap_ == ColourMap::SignedDifference;
    const bool orientation = colourMap_ == ColourMap::Orientation || colourMap_ == ColourMap::OrientationOverImage;
    const bool over = colourMap_ == ColourMap::OrientationOverImage;
    const bool haveView = orientation  ? (angle_.id && strength_.id && (!over || image_.id))
                          : difference ? (image_.id && difference_.id)
                                       : image_.id != 0;
    if (!haveView) return;
    const float quad[] = {0, 0, static_cast<float>(w), 0, 0, static_cast<float>(h),
                          static_cast<float>(w), static_cast<float>(h)};
    gl_.BindBuffer(GL_ARRAY_BUFFER, quadVbo_);
    gl_.BufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_DYNAMIC_DRAW);
    gl_.BindBuffer(GL_ARRAY_BUFFER, 0);
    const Program& p = over ? orientationOver_ : orientation ? orientation_ : difference ? signedDifference_ : grey_;
    gl_.UseProgram(p.id);
    setTransformUniforms(p, area, w, h);
    if (orientation) {
        // Angles do not average (0° and 179° are neighbours): always nearest.
        gl_.ActiveTexture(GL_TEXTURE1);
        setSampling(angle_, false);
        gl_.ActiveTexture(GL_TEXTURE2);
        setSampling(strength_, false);
        gl_.Uniform1i(p.angle, 1);
        gl_.Uniform1i(p.strength, 2);
        gl_.Uniform1f(p.maxStrength, static_cast<float>(maxStrength_));
        gl_.Uniform1f(p.blend, static_cast<float>(blend_));
    }
    if (difference) {
        gl_.ActiveTexture(GL_TEXTURE1);
        setSampling(difference_, true);
        gl_.Uniform1i(p.difference, 1);
        gl_.Uniform1f(p.maxDifference, static_cast<float>(maxDifference_));
    }
    if (!orientation || over) {
        gl_.ActiveTexture(GL_TEXTURE0);
        // Filtering the grey under the colours would blur it against nearest-sampled angles.
        setSampling(image_, !over);
        gl_.Uniform1i(p.image, 0);
        gl_.Uniform1f(p.scale, static_cast<float>(formatOf(imageType_).scale));
        gl_.Uniform1f(p.lo, static_cast<float>(lo_));
        gl_.Uniform1f(p.hi, static_cast<float>(hi_));
    }
    gl_.BindVertexArray(quadVao_);
    gl_.DrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

void ViewportRenderer::drawLines(const PixelRect& area, int w, int h) {
    gl_.UseProgram(solid_.id);
    setTransformUniforms(solid_, area, w, h);
    gl_.Enable(GL_BLEND);
    gl_.BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    if (needlesDirty_) {
        gl_.BindBuffer(GL_ARRAY_BUFFER, needleVbo_);
        gl_.BufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(needles_.size() * sizeof(float)),
                       needles_.empty() ? nullptr : needles_.data(), GL_STATIC_DRAW);
        gl_.BindBuffer(GL_ARRAY_BUFFER, 0);
        needlesDirty_ = false;
    }
    if (!needles_.empty()) {
        gl_.Uniform4f(solid_.colour, needleColour_.r, needleColour_.g, needleColour_.b, needleColour_.a);
        gl_.BindVertexArray(needleVao_);
        gl_.DrawArrays(GL_LINES, 0, static_cast<GLsizei>(needles_.size() / 2));
    }
    if (contoursDirty_) uploadContourBuffer();
    if (contours_ && !contours_->points.empty()) {
        // Through the pixel centres: the points are whole pixels, shifted by half a pixel.
        gl_.Uniform2f(solid_.pan, static_cast<float>(view_.panX + 0.5 * view_.zoom),
                      static_cast<float>(view_.panY + 0.5 * view_.zoom));
        gl_.BindVertexArray(contourVao_);
        auto drawLoops = [&](const GLint* first, const GLsizei* count, std::size_t n, Rgba c) {
            if (n == 0) return;
            gl_.Uniform4f(solid_.colour, c.r, c.g, c.b, c.a);
            gl_.MultiDrawArrays(GL_LINE_LOOP, first, count, static_cast<GLsizei>(n));
            // The points too: a one-pixel contour has no line, and line ends are half-open.
            gl_.MultiDrawArrays(GL_POINTS, first, count, static_cast<GLsizei>(n));
        };
        drawLoops(outerFirst_.data(), outerCount_.data(), outerFirst_.size(), outerColour_);
        drawLoops(holeFirst_.data(), holeCount_.data(), holeFirst_.size(), holeColour_);
        if (highlighted_ >= 0 && static_cast<std::size_t>(highlighted_) < contourFirst_.size()) {
            const auto i = static_cast<std::size_t>(highlighted_);
            drawLoops(&contourFirst_[i], &contourCount_[i], 1, highlightColour_);
        }
        gl_.Uniform2f(solid_.pan, static_cast<float>(view_.panX), static_cast<float>(view_.panY));
    }
    if (glyphDirty_ || glyphForW_ != w || glyphForH_ != h) uploadGlyphBuffer();
    if (glyphVertexCount_ > 0) {
        gl_.Uniform4f(solid_.colour, glyphColour_.r, glyphColour_.g, glyphColour_.b, glyphColour_.a);
        gl_.BindVertexArray(glyphVao_);
        gl_.DrawArrays(GL_TRIANGLES, 0, glyphVertexCount_);
    }
    gl_.Disable(GL_BLEND);
}

}  // namespace linescope::render
