#include "tests/support/binary_shapes.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

namespace linescope::test {

BinaryImage::BinaryImage(int w, int h, std::uint8_t value)
    : width(w), height(h), pixels(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), value) {}

void BinaryImage::set(int x, int y, std::uint8_t v) {
    if (x >= 0 && y >= 0 && x < width && y < height)
        pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)] = v;
}

void fillDisc(BinaryImage& m, int cx, int cy, int r, std::uint8_t v) {
    for (int y = std::max(0, cy - r); y <= std::min(m.height - 1, cy + r); ++y)
        for (int x = std::max(0, cx - r); x <= std::min(m.width - 1, cx + r); ++x)
            if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r) m.set(x, y, v);
}

void fillRing(BinaryImage& m, int cx, int cy, int r, int thickness, std::uint8_t v) {
    const int inner = std::max(0, r - thickness);
    for (int y = std::max(0, cy - r); y <= std::min(m.height - 1, cy + r); ++y)
        for (int x = std::max(0, cx - r); x <= std::min(m.width - 1, cx + r); ++x) {
            const int d = (x - cx) * (x - cx) + (y - cy) * (y - cy);
            if (d <= r * r && d > inner * inner) m.set(x, y, v);
        }
}

void fillRect(BinaryImage& m, int x, int y, int w, int h, std::uint8_t v) {
    for (int yy = std::max(0, y); yy < std::min(m.height, y + h); ++yy)
        for (int xx = std::max(0, x); xx < std::min(m.width, x + w); ++xx) m.set(xx, yy, v);
}

void drawLine(BinaryImage& m, int x0, int y0, int x1, int y1, std::uint8_t v, bool fourConnected) {
    // Bresenham; a 4-connected line adds the pixel of each diagonal step's horizontal move.
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
    const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (;;) {
        m.set(x0, y0, v);
        if (x0 == x1 && y0 == y1) break;
        const int e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            x0 += sx;
            if (fourConnected && e2 <= dx) m.set(x0, y0, v);
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}

BinaryImage randomBlobs(int w, int h, int count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    BinaryImage m(w, h);
    const int maxR = std::max(2, std::min(w, h) / 5);
    for (int i = 0; i < count; ++i) {
        const int cx = uniform(0, w - 1), cy = uniform(0, h - 1), r = uniform(1, maxR);
        const auto fg = static_cast<std::uint8_t>(uniform(1, 255));
        const std::uint8_t colour = uniform(0, 2) ? fg : 0;
        switch (uniform(0, 4)) {
        case 0: fillDisc(m, cx, cy, r, colour); break;
        case 1: fillRect(m, cx, cy, r, uniform(1, maxR), colour); break;
        case 2: fillRing(m, cx, cy, r, uniform(1, 3), fg); break;  // a hole with a possible island
        case 3: drawLine(m, cx, cy, uniform(0, w - 1), uniform(0, h - 1), fg, uniform(0, 1) == 1); break;
        default:
            for (int k = r; k > 0; k -= uniform(1, 3)) fillDisc(m, cx, cy, k, (k / 2) % 2 ? fg : 0);
        }
    }
    return m;
}

BinaryImage noiseImage(int w, int h, double density, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution on(density);
    BinaryImage m(w, h);
    for (auto& v : m.pixels) v = on(rng) ? 1 : 0;
    return m;
}

BinaryImage checkerboard(int w, int h, int cell) {
    BinaryImage m(w, h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) m.set(x, y, ((x / cell + y / cell) % 2) ? 1 : 0);
    return m;
}

BinaryImage squareSpiral(int size, int gap) {
    BinaryImage m(size, size);
    int x0 = 1, y0 = 1, x1 = size - 2, y1 = size - 2;
    while (x0 <= x1 && y0 <= y1) {
        drawLine(m, x0, y0, x1, y0, 255, false);
        drawLine(m, x1, y0, x1, y1, 255, false);
        drawLine(m, x1, y1, x0, y1, 255, false);
        drawLine(m, x0, y1, x0, y0 + gap + 1, 255, false);
        x0 += gap + 1;
        y0 += gap + 1;
        x1 -= gap + 1;
        y1 -= gap + 1;
        if (x0 <= x1) drawLine(m, x0 - gap - 1, y0, x0, y0, 255, false);
    }
    return m;
}

BinaryImage thicken(const BinaryImage& m) {
    BinaryImage t = m;
    for (int y = 0; y < m.height; ++y)
        for (int x = 0; x < m.width; ++x)
            if (m.at(x, y)) {
                t.set(x + 1, y, 255);
                t.set(x, y + 1, 255);
                t.set(x + 1, y + 1, 255);
            }
    return t;
}

BinaryImage crop(const BinaryImage& m, int x, int y, int w, int h) {
    BinaryImage c(w, h);
    for (int yy = 0; yy < h; ++yy)
        for (int xx = 0; xx < w; ++xx) c.set(xx, yy, m.at(x + xx, y + yy));
    return c;
}

namespace {

// `discs` discs on a jittered grid, a third with a hole and every ninth hole with an island
// while `borders` allows (radius permitting); returns how many borders it drew.
int drawDiscField(BinaryImage& m, int discs, int borders, std::uint64_t seed) {
    const int w = m.width, h = m.height;
    // A grid of about square cells holding the discs, filled row by row.
    const double cell = std::sqrt(static_cast<double>(w) * static_cast<double>(h) / std::max(1, discs));
    const int cols = std::max(1, static_cast<int>(std::floor(w / cell)));
    const int rows = std::max(1, (discs + cols - 1) / cols);
    const double cw = static_cast<double>(w) / cols, ch = static_cast<double>(h) / rows;
    // The largest radius that keeps discs of neighbouring cells apart, rounding included.
    const double room = std::max(0.0, std::min(cw, ch) / 2 - 2);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int total = 0;
    for (int i = 0; i < discs; ++i) {
        // Radii of a quarter to a half of the room: borders of sizes like the paper's images.
        const int r = static_cast<int>(room * (0.25 + 0.3 * unit(rng)));
        const double slack = room - r;
        const int cx = static_cast<int>((i % cols + 0.5) * cw + (unit(rng) * 2 - 1) * slack);
        const int cy = static_cast<int>((i / cols + 0.5) * ch + (unit(rng) * 2 - 1) * slack);
        fillDisc(m, cx, cy, r, 255);
        ++total;
        if (total < borders && i % 3 == 2 && r >= 4) {
            fillDisc(m, cx, cy, r / 2, 0);
            ++total;
            if (total < borders && i % 9 == 8 && r >= 8) {
                fillDisc(m, cx, cy, r / 4, 255);
                ++total;
            }
        }
    }
    return total;
}

}  // namespace

BinaryImage discField(int w, int h, int borders, std::uint64_t seed, int* made) {
    // How many discs: each brings one border, every third a hole, every ninth hole an island;
    // small discs have none, so more discs are drawn until the count is reached.
    int discs = 0;
    for (int count = 0; count < borders; ++discs) {
        ++count;
        if (count < borders && discs % 3 == 2) {
            ++count;
            if (count < borders && discs % 9 == 8) ++count;
        }
    }
    BinaryImage m(w, h);
    int total = drawDiscField(m, discs, borders, seed);
    for (int attempt = 0; attempt < 8 && total < borders; ++attempt) {
        discs += borders - total;
        m = BinaryImage(w, h);
        total = drawDiscField(m, discs, borders, seed);
    }
    if (made) *made = total;
    return m;
}

}  // namespace linescope::test
