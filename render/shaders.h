// The renderer's GLSL (3.30 core). One vertex shader maps image coordinates to the target
// through the pan/zoom of view_transform.h; the fragment shaders are the colour maps.
#pragma once

namespace linescope::render::shaders {

// screen = pan + zoom · image (pixels, y down) → normalized device coordinates (y up).
inline constexpr const char* kVertex = R"(#version 330 core
layout(location = 0) in vec2 aImage;
uniform vec2 uPan;
uniform float uZoom;
uniform vec2 uViewport;
uniform vec2 uImageSize;
out vec2 vTex;
void main() {
    vec2 screen = uPan + uZoom * aImage;
    gl_Position = vec4(2.0 * screen.x / uViewport.x - 1.0, 1.0 - 2.0 * screen.y / uViewport.y, 0.0, 1.0);
    vTex = aImage / uImageSize;
}
)";

// Grey: the texel in the view's units (uScale undoes the normalization of R8/R16), then the
// display range. Texture row 0 is image row 0, so image y down maps to t increasing.
inline constexpr const char* kGrey = R"(#version 330 core
in vec2 vTex;
uniform sampler2D uImage;
uniform float uScale;
uniform float uLo;
uniform float uHi;
out vec4 fragColour;
void main() {
    float v = texture(uImage, vTex).r * uScale;
    float g = uHi > uLo ? clamp((v - uLo) / (uHi - uLo), 0.0, 1.0) : float(v >= uHi);
    fragColour = vec4(g, g, g, 1.0);
}
)";

// Orientation: design.md §1, the same HSV sectors as compute/orientation_colours.cpp.
// hsv(alpha, value) is shared by the plain map and the blend over the image: the renderer
// compiles each of them from two sources, the header below and then the function.
inline constexpr const char* kOrientationHsv = R"(
vec3 hsv(float alpha, float value) {
    float h = mod(2.0 * mod(alpha, 180.0), 360.0) / 60.0;
    int sector = int(floor(h)) % 6;
    float f = h - floor(h);
    float q = value * (1.0 - f), t = value * f;
    if (sector == 0) return vec3(value, t, 0.0);
    if (sector == 1) return vec3(q, value, 0.0);
    if (sector == 2) return vec3(0.0, value, t);
    if (sector == 3) return vec3(0.0, q, value);
    if (sector == 4) return vec3(t, 0.0, value);
    return vec3(value, 0.0, q);
}
)";

inline constexpr const char* kOrientation = R"(#version 330 core
in vec2 vTex;
uniform sampler2D uAngle;
uniform sampler2D uStrength;
uniform float uMaxStrength;
out vec4 fragColour;
vec3 hsv(float alpha, float value);
void main() {
    float value = uMaxStrength > 0.0 ? clamp(texture(uStrength, vTex).r / uMaxStrength, 0.0, 1.0) : 0.0;
    fragColour = vec4(hsv(texture(uAngle, vTex).r, value), 1.0);
}
)";

// Orientation over the grey view: the colour at full value, weighted by blend · strength.
inline constexpr const char* kOrientationOverImage = R"(#version 330 core
in vec2 vTex;
uniform sampler2D uImage;
uniform float uScale;
uniform float uLo;
uniform float uHi;
uniform sampler2D uAngle;
uniform sampler2D uStrength;
uniform float uMaxStrength;
uniform float uBlend;
out vec4 fragColour;
vec3 hsv(float alpha, float value);
void main() {
    float v = texture(uImage, vTex).r * uScale;
    float g = uHi > uLo ? clamp((v - uLo) / (uHi - uLo), 0.0, 1.0) : float(v >= uHi);
    float value = uMaxStrength > 0.0 ? clamp(texture(uStrength, vTex).r / uMaxStrength, 0.0, 1.0) : 0.0;
    vec3 colour = hsv(texture(uAngle, vTex).r, 1.0);
    fragColour = vec4(mix(vec3(g), colour, clamp(uBlend * value, 0.0, 1.0)), 1.0);
}
)";

// Two line kinds' results compared: where the signed difference d = A − B is 0 the grey of
// A, dimmed, so that the image stays readable under the marks; elsewhere orange where A is
// above B and blue where it is below, brighter the larger |d| is against the largest. The
// difference is filtered when zoomed out, so a one-pixel line of disagreement still shows.
inline constexpr const char* kSignedDifference = R"(#version 330 core
in vec2 vTex;
uniform sampler2D uImage;
uniform float uScale;
uniform float uLo;
uniform float uHi;
uniform sampler2D uDifference;
uniform float uMaxDifference;
out vec4 fragColour;
void main() {
    float d = texture(uDifference, vTex).r;
    if (d == 0.0) {
        float v = texture(uImage, vTex).r * uScale;
        float g = uHi > uLo ? clamp((v - uLo) / (uHi - uLo), 0.0, 1.0) : float(v >= uHi);
        float dim = 0.12 + 0.4 * g;
        fragColour = vec4(dim, dim, dim, 1.0);
        return;
    }
    float t = uMaxDifference > 0.0 ? clamp(abs(d) / uMaxDifference, 0.0, 1.0) : 1.0;
    vec3 colour = d > 0.0 ? vec3(1.0, 0.5, 0.05) : vec3(0.15, 0.6, 1.0);
    fragColour = vec4(colour * (0.6 + 0.4 * t), 1.0);
}
)";

// Contours and the glyph: one colour.
inline constexpr const char* kSolid = R"(#version 330 core
uniform vec4 uColour;
out vec4 fragColour;
void main() { fragColour = uColour; }
)";

}  // namespace linescope::render::shaders
