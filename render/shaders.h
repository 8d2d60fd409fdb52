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
inline constexpr const char* kOrientation = R"(#version 330 core
in vec2 vTex;
uniform sampler2D uAngle;
uniform sampler2D uStrength;
uniform float uMaxStrength;
out vec4 fragColour;
void main() {
    float alpha = mod(texture(uAngle, vTex).r, 180.0);
    float value = uMaxStrength > 0.0 ? clamp(texture(uStrength, vTex).r / uMaxStrength, 0.0, 1.0) : 0.0;
    float h = mod(2.0 * alpha, 360.0) / 60.0;
    int sector = int(floor(h)) % 6;
    float f = h - floor(h);
    float q = value * (1.0 - f), t = value * f;
    vec3 rgb;
    if (sector == 0) rgb = vec3(value, t, 0.0);
    else if (sector == 1) rgb = vec3(q, value, 0.0);
    else if (sector == 2) rgb = vec3(0.0, value, t);
    else if (sector == 3) rgb = vec3(0.0, q, value);
    else if (sector == 4) rgb = vec3(t, 0.0, value);
    else rgb = vec3(value, 0.0, q);
    fragColour = vec4(rgb, 1.0);
}
)";

// Contours and the glyph: one colour.
inline constexpr const char* kSolid = R"(#version 330 core
uniform vec4 uColour;
out vec4 fragColour;
void main() { fragColour = uColour; }
)";

}  // namespace linescope::render::shaders
