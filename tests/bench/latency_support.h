// What the latency benchmarks share: their test image, percentiles and PPM screenshots.
#pragma once

#include "compute/image.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace linescope::bench {

// A fingerprint-like test image: ridges whose orientation turns across the image, plus noise.
inline Image<std::uint8_t> ridges(int w, int h) {
    Image<std::uint8_t> img(w, h);
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> noise(-20, 20);
    const double cx = w / 2.0, cy = h / 2.0, period = 9.0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double r = std::hypot(x - cx, y - cy);
            const double v = 128 + 90 * std::sin(2 * std::numbers::pi * (r / period + 0.002 * x));
            img.at(x, y) = static_cast<std::uint8_t>(std::clamp(static_cast<int>(v) + noise(rng), 0, 255));
        }
    return img;
}

// A page-like test image: dark letters (rings and bars of letter size) in lines of words on
// light paper, plus noise: what contours of a scanned page trace (one border or two a letter).
inline Image<std::uint8_t> page(int w, int h) {
    Image<std::uint8_t> img(w, h);
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> noise(-8, 8), letterW(10, 18), wordLen(2, 9), gap(12, 24), kind(0, 2);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) img.at(x, y) = static_cast<std::uint8_t>(225 + noise(rng));
    const int lineH = 40, letterH = 24;
    for (int top = 60; top + letterH < h - 60; top += lineH) {
        int x = 80;
        while (x < w - 120) {
            const int letters = wordLen(rng);
            for (int k = 0; k < letters && x < w - 100; ++k) {
                const int lw = letterW(rng), shape = kind(rng);
                const double cx = x + lw / 2.0, cy = top + letterH / 2.0;
                for (int yy = top; yy < top + letterH; ++yy)
                    for (int xx = x; xx < x + lw; ++xx) {
                        const double dx = (xx + 0.5 - cx) / (lw / 2.0), dy = (yy + 0.5 - cy) / (letterH / 2.0);
                        const double r = std::hypot(dx, dy);
                        const bool ink = shape == 0   ? (r < 1.0 && r > 0.55)                    // an 'o'
                                         : shape == 1 ? (std::abs(dx) < 0.35)                    // an 'l'
                                                      : (r < 1.0 && (dy > 0.2 || std::abs(dx) < 0.3));  // a 'u'-ish blob
                        if (ink) img.at(xx, yy) = static_cast<std::uint8_t>(40 + noise(rng));
                    }
                x += lw + 3;
            }
            x += gap(rng);
        }
    }
    return img;
}

// "WxH" as two positive sizes; false when it is not that.
inline bool parseSize(const char* text, int* w, int* h) {
    return std::sscanf(text, "%dx%d", w, h) == 2 && *w > 0 && *h > 0;
}

// The q-quantile (0 < q <= 1) of the samples, nearest rank; 0 when there are none.
inline double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1)];
}

// An RGBA frame as a binary PPM (alpha dropped).
inline void writePpm(const std::string& path, const std::vector<std::uint8_t>& rgba, int w, int h) {
    std::ofstream f(path, std::ios::binary);
    f << "P6\n" << w << " " << h << "\n255\n";
    for (std::size_t i = 0; i < rgba.size(); i += 4) f.write(reinterpret_cast<const char*>(&rgba[i]), 3);
}

}  // namespace linescope::bench
