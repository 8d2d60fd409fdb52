#include "compute/singular_points.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>

namespace linescope {

namespace {

constexpr double kRad = std::numbers::pi / 180.0;

// The turn from direction a to direction b (degrees, 180°-periodic) in (−90, 90].
double turn(double a, double b) {
    double d = std::fmod(b - a, 180.0);
    if (d <= -90.0) d += 180.0;
    if (d > 90.0) d -= 180.0;
    return d;
}

std::size_t at(int bx, int by, int blocksX) {
    return static_cast<std::size_t>(by) * static_cast<std::size_t>(blocksX) + static_cast<std::size_t>(bx);
}

// The ring counter-clockwise on screen (y down): E, NE, N, NW, W, SW, S, SE.
constexpr int kRingX[8] = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr int kRingY[8] = {0, -1, -1, -1, 0, 1, 1, 1};

}  // namespace

int poincareIndex(const std::vector<float>& angle, int blocksX, int blocksY, int bx, int by) {
    if (bx < 1 || by < 1 || bx + 1 >= blocksX || by + 1 >= blocksY) return 0;
    double sum = 0;
    for (int i = 0; i < 8; ++i) {
        const int j = (i + 1) % 8;
        sum += turn(angle[at(bx + kRingX[i], by + kRingY[i], blocksX)], angle[at(bx + kRingX[j], by + kRingY[j], blocksX)]);
    }
    // The sum is a multiple of 180° up to rounding; ±1/2 is what fields of ridges have.
    const long half = std::lround(sum / 180.0);
    return half >= 1 ? 1 : half <= -1 ? -1 : 0;
}

std::vector<float> smoothOrientationBlocks(const std::vector<float>& angle, const std::vector<unsigned char>& foreground,
                                           int blocksX, int blocksY, double sigma) {
    std::vector<float> out = angle;
    if (sigma <= 0 || blocksX <= 0 || blocksY <= 0) return out;
    const auto isForeground = [&](std::size_t b) { return foreground.empty() || foreground[b] != 0; };
    const int r = std::max(1, static_cast<int>(std::ceil(3 * sigma)));
    std::vector<double> w(static_cast<std::size_t>(2 * r + 1));
    for (int k = -r; k <= r; ++k) w[static_cast<std::size_t>(k + r)] = std::exp(-0.5 * k * k / (sigma * sigma));
    const std::size_t n = angle.size();
    std::vector<double> c(n, 0), s(n, 0), mass(n, 0), c2(n, 0), s2(n, 0), mass2(n, 0);
    for (std::size_t b = 0; b < n; ++b)
        if (isForeground(b)) {
            c[b] = std::cos(2 * angle[b] * kRad);
            s[b] = std::sin(2 * angle[b] * kRad);
            mass[b] = 1;
        }
    // Separable: rows, then columns; the mass renormalises near the background and the frame.
    for (int y = 0; y < blocksY; ++y)
        for (int x = 0; x < blocksX; ++x) {
            double sc = 0, ss = 0, sm = 0;
            for (int k = -r; k <= r; ++k) {
                const int xx = x + k;
                if (xx < 0 || xx >= blocksX) continue;
                const double wk = w[static_cast<std::size_t>(k + r)];
                const std::size_t q = at(xx, y, blocksX);
                sc += wk * c[q], ss += wk * s[q], sm += wk * mass[q];
            }
            const std::size_t b = at(x, y, blocksX);
            c2[b] = sc, s2[b] = ss, mass2[b] = sm;
        }
    for (int y = 0; y < blocksY; ++y)
        for (int x = 0; x < blocksX; ++x) {
            const std::size_t b = at(x, y, blocksX);
            if (!isForeground(b)) continue;
            double sc = 0, ss = 0;
            for (int k = -r; k <= r; ++k) {
                const int yy = y + k;
                if (yy < 0 || yy >= blocksY) continue;
                const double wk = w[static_cast<std::size_t>(k + r)];
                const std::size_t q = at(x, yy, blocksX);
                sc += wk * c2[q], ss += wk * s2[q];
            }
            if (sc == 0 && ss == 0) continue;
            double deg = 0.5 * std::atan2(ss, sc) / kRad;
            if (deg < 0) deg += 180.0;
            out[b] = static_cast<float>(deg >= 180.0 ? 0.0 : deg);
        }
    return out;
}

std::vector<SingularPoint> singularPoints(const std::vector<float>& angle, const std::vector<unsigned char>& foreground,
                                          int blocksX, int blocksY, const SingularPointParams& p) {
    std::vector<SingularPoint> points;
    if (blocksX < 3 || blocksY < 3) return points;
    const std::vector<float> field = smoothOrientationBlocks(angle, foreground, blocksX, blocksY, p.smoothing);
    const auto isForeground = [&](int x, int y) { return foreground.empty() || foreground[at(x, y, blocksX)] != 0; };
    std::vector<int> index(angle.size(), 0);
    for (int y = 1; y + 1 < blocksY; ++y)
        for (int x = 1; x + 1 < blocksX; ++x) {
            bool inside = true;
            for (int dy = -1; dy <= 1 && inside; ++dy)
                for (int dx = -1; dx <= 1 && inside; ++dx) inside = isForeground(x + dx, y + dy);
            if (inside) index[at(x, y, blocksX)] = poincareIndex(field, blocksX, blocksY, x, y);
        }
    // 8-connected groups of one kind become one point (a core often shows on 2 blocks).
    std::vector<unsigned char> seen(index.size(), 0);
    for (const int wanted : {1, -1})
        for (int y = 0; y < blocksY; ++y)
            for (int x = 0; x < blocksX; ++x) {
                if (index[at(x, y, blocksX)] != wanted || seen[at(x, y, blocksX)]) continue;
                std::vector<std::pair<int, int>> stack{{x, y}};
                seen[at(x, y, blocksX)] = 1;
                double sx = 0, sy = 0;
                int count = 0;
                while (!stack.empty()) {
                    const auto [cx, cy] = stack.back();
                    stack.pop_back();
                    sx += cx + 0.5, sy += cy + 0.5, ++count;
                    for (int dy = -1; dy <= 1; ++dy)
                        for (int dx = -1; dx <= 1; ++dx) {
                            const int nx = cx + dx, ny = cy + dy;
                            if (nx < 0 || ny < 0 || nx >= blocksX || ny >= blocksY) continue;
                            const std::size_t q = at(nx, ny, blocksX);
                            if (index[q] == wanted && !seen[q]) {
                                seen[q] = 1;
                                stack.emplace_back(nx, ny);
                            }
                        }
                }
                points.push_back({wanted > 0 ? SingularKind::Core : SingularKind::Delta, sx / count, sy / count, count});
            }
    return points;
}

}  // namespace linescope
