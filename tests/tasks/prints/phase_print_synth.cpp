// The phase model: potential φ of the class, warp, minutiae as spiral phase singularities,
// then pressure, scars and creases. Every derivative is analytic except the warp's Jacobian
// (central differences of a field that is smooth over ~60 px: exact to well under 0.1°).
#include "tests/tasks/prints/phase_print_synth.h"

#include "tests/tasks/prints/synth_noise.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace linescope::tasks {

namespace {

constexpr double kPi = std::numbers::pi;

struct Potential {
    double value = 0, gx = 0, gy = 0;  // φ in pixels (ridge count × period) and its gradient
};

// Distance to the segment a–b (a point when a = b): nested stadiums, two cores at a and b,
// or rings. Its gradient is the unit vector from the nearest point of the segment.
Potential segmentDistance(double x, double y, cv::Point2d a, cv::Point2d b) {
    const cv::Point2d ab = b - a, ap(x - a.x, y - a.y);
    const double len2 = ab.dot(ab);
    const double t = len2 > 0 ? std::clamp(ap.dot(ab) / len2, 0.0, 1.0) : 0.0;
    const double dx = x - (a.x + t * ab.x), dy = y - (a.y + t * ab.y), r = std::hypot(dx, dy);
    if (r < 1e-9) return {0, 0, 1};
    return {r, dx / r, dy / r};
}

// Distance to the ray from `core` along the unit vector `u`: nested hairpins around the ray,
// one core (index ½) at its tip: a loop.
Potential rayDistance(double x, double y, cv::Point2d core, cv::Point2d u) {
    const cv::Point2d p(x - core.x, y - core.y);
    const double along = p.dot(u);
    if (along <= 0) return segmentDistance(x, y, core, core);
    const cv::Point2d n(-u.y, u.x);
    const double across = p.dot(n);
    return {std::abs(across), across >= 0 ? n.x : -n.x, across >= 0 ? n.y : -n.y};
}

// An arch: horizontal ridges lifted by a bump of height `h` in the middle, fading with the
// distance from the row `hillY`.
Potential archPotential(double x, double y, double cx, double hillY, double h, double spread, double fade) {
    const double dx = x - cx, dy = (y - hillY) / fade;
    const double g = std::exp(-dx * dx / (2 * spread * spread)), t = std::exp(-dy * dy);
    return {y + h * g * t, -h * g * t * dx / (spread * spread), 1 - 2 * h * g * t * dy / fade};
}

struct PhaseSingularity {
    cv::Point2d at;
    double charge = 1;  // ψ winds by 2π·charge around it: ±1 a minutia, ±1…2 the centre of a spiral
};

}  // namespace

const char* printGeneratorName(PrintGenerator g) { return g == PrintGenerator::Gabor ? "gabor" : "phase"; }

SyntheticPrint makePhasePrint(std::uint64_t seed, PrintQuality quality) {
    cv::RNG rng(seed * 0xD1B54A32D192ED03ull + 0x8CB92BA72F3D8DD7ull);
    const bool degraded = quality == PrintQuality::Degraded;
    SyntheticPrint out;
    out.quality = quality;
    static constexpr PrintClass kClasses[] = {PrintClass::Arch, PrintClass::LeftLoop, PrintClass::RightLoop,
                                              PrintClass::Whorl, PrintClass::Whorl};
    const int kind = rng.uniform(0, 5);  // 3: double-core whorl, 4: spiral whorl
    out.printClass = kClasses[kind];

    const int w = rng.uniform(320, 461);
    const int h = std::clamp(static_cast<int>(std::lround(w * rng.uniform(1.1, 1.28))), 360, 560);
    const cv::Size size(w, h);

    // Finger: one superellipse (exponent 2.4), tilted by up to ±10°, a wavy edge.
    const double a = w * rng.uniform(0.38, 0.46), b = h * rng.uniform(0.4, 0.48);
    const double tilt = rng.uniform(-10.0, 10.0) * kPi / 180;
    cv::Point2d centre(w * (0.5 + rng.uniform(-0.04, 0.04)), h * (0.5 + rng.uniform(-0.03, 0.03)));
    if (degraded && rng.uniform(0, 3) == 0) {
        out.partial = true;
        if (rng.uniform(0, 2)) centre.x += (rng.uniform(0, 2) ? 1 : -1) * rng.uniform(0.2, 0.32) * w;
        else centre.y += (rng.uniform(0, 2) ? 1 : -1) * rng.uniform(0.2, 0.3) * h;
    }
    const cv::Mat edgeWobble = smoothField(size, rng, 35);
    cv::Mat soft(size, CV_32F);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double dx = x - centre.x, dy = y - centre.y;
            const double u = std::abs(std::cos(tilt) * dx + std::sin(tilt) * dy) / a;
            const double v = std::abs(-std::sin(tilt) * dx + std::cos(tilt) * dy) / b;
            const double r = std::pow(std::pow(u, 2.4) + std::pow(v, 2.4), 1 / 2.4) + 0.035 * edgeWobble.at<float>(y, x);
            soft.at<float>(y, x) = static_cast<float>(std::clamp((1 - r) * std::min(a, b) / 6 + 0.5, 0.0, 1.0));
        }
    out.mask = soft > 0.5f;

    // The class's potential, in warped coordinates q = p + D(p).
    const double period = rng.uniform(8.0, 10.5);
    const cv::Point2d core(centre.x + rng.uniform(-0.1, 0.1) * a, centre.y + rng.uniform(-0.2, 0.0) * b);
    const double rayTilt = rng.uniform(15.0, 40.0) * kPi / 180 * (out.printClass == PrintClass::LeftLoop ? 1 : -1);
    const cv::Point2d rayDir(std::sin(rayTilt), std::cos(rayTilt));  // downward, leaning to the loop's side
    const double segAngle = rng.uniform(0.0, kPi), segLen = rng.uniform(8.0, 50.0);
    const cv::Point2d segA = core - 0.5 * segLen * cv::Point2d(std::cos(segAngle), std::sin(segAngle));
    const cv::Point2d segB = core + 0.5 * segLen * cv::Point2d(std::cos(segAngle), std::sin(segAngle));
    const double hill = rng.uniform(0.12, 0.3) * b, spread = rng.uniform(0.3, 0.45) * a;
    const double hillY = centre.y + rng.uniform(0.0, 0.25) * b, fade = rng.uniform(0.5, 0.8) * b;
    auto potential = [&](double x, double y) -> Potential {
        switch (kind) {
        case 0: return archPotential(x, y, centre.x, hillY, hill, spread, fade);
        case 1:
        case 2: return rayDistance(x, y, core, rayDir);
        case 3: return segmentDistance(x, y, segA, segB);
        default: return segmentDistance(x, y, core, core);
        }
    };

    const double warpAmp = rng.uniform(6.0, 14.0);
    const cv::Mat warpX = smoothField(size, rng, 60) * warpAmp, warpY = smoothField(size, rng, 60) * warpAmp;

    std::vector<PhaseSingularity> singular;
    if (kind == 4) singular.push_back({core, static_cast<double>(rng.uniform(0, 2) ? 1 : -1) * rng.uniform(1, 3)});
    const std::size_t spiralCentres = singular.size();  // the minutiae follow
    const int minutiae = rng.uniform(6, 17);
    for (int i = 0, tries = 0; i < minutiae && tries < 1000; ++tries) {
        const cv::Point2d m(rng.uniform(0.0, static_cast<double>(w)), rng.uniform(0.0, static_cast<double>(h)));
        if (soft.at<float>(static_cast<int>(m.y), static_cast<int>(m.x)) < 0.9f) continue;
        singular.push_back({m, rng.uniform(0, 2) ? 1.0 : -1.0});
        ++i;
    }

    cv::Mat psi(size, CV_64F);
    out.orientation.create(size, CV_32F);
    out.period.create(size, CV_32F);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            // The warp's Jacobian J = I + ∇D by central differences (one-sided at the border).
            const int x0 = std::max(0, x - 1), x1 = std::min(w - 1, x + 1), y0 = std::max(0, y - 1), y1 = std::min(h - 1, y + 1);
            const double dXx = (warpX.at<float>(y, x1) - warpX.at<float>(y, x0)) / static_cast<double>(x1 - x0);
            const double dXy = (warpX.at<float>(y1, x) - warpX.at<float>(y0, x)) / static_cast<double>(y1 - y0);
            const double dYx = (warpY.at<float>(y, x1) - warpY.at<float>(y, x0)) / static_cast<double>(x1 - x0);
            const double dYy = (warpY.at<float>(y1, x) - warpY.at<float>(y0, x)) / static_cast<double>(y1 - y0);
            const Potential f = potential(static_cast<double>(x) + warpX.at<float>(y, x), static_cast<double>(y) + warpY.at<float>(y, x));
            double gx = 2 * kPi / period * (f.gx * (1 + dXx) + f.gy * dYx);
            double gy = 2 * kPi / period * (f.gx * dXy + f.gy * (1 + dYy));
            double value = 2 * kPi / period * f.value;
            // The truth is the orientation of the continuous phase (the class's pattern and, for
            // a spiral, its centre), without the minutiae's local twist: the field the ridges
            // follow, as FVC-onGoing's hand-marked truth and the Gabor set's truth are.
            double tx = gx, ty = gy;
            for (std::size_t i = 0; i < singular.size(); ++i) {
                const PhaseSingularity& s = singular[i];
                const double dx = x - s.at.x, dy = y - s.at.y, r2 = std::max(dx * dx + dy * dy, 1e-6);
                value += s.charge * std::atan2(dy, dx);
                gx += s.charge * -dy / r2;
                gy += s.charge * dx / r2;
                if (i < spiralCentres) {
                    tx += s.charge * -dy / r2;
                    ty += s.charge * dx / r2;
                }
            }
            psi.at<double>(y, x) = value;
            // Ridges run perpendicular to ∇ψ: direction (−ψy, ψx) in pixels, on screen atan2(−ψx, −ψy).
            double deg = std::fmod(std::atan2(-tx, -ty) * 180 / kPi, 180.0);
            if (deg < 0) deg += 180;
            out.orientation.at<float>(y, x) = static_cast<float>(deg >= 180 ? 0.0 : deg);
            out.period.at<float>(y, x) = static_cast<float>(2 * kPi / std::max(std::hypot(gx, gy), 1e-6));
        }

    // Ridge profile 1 at the ridge centre, 0 in the valleys; the pressure threshold makes dry
    // (thin, broken) and wet (thick, merged) ridges.
    cv::Mat profile(size, CV_32F);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            profile.at<float>(y, x) = static_cast<float>(0.5 + 0.5 * std::cos(psi.at<double>(y, x)));
    const cv::Mat pressure = degraded ? smoothField(size, rng, 50) * 0.55 + rng.uniform(-0.15, 0.2)
                                      : smoothField(size, rng, 50) * 0.15;
    cv::Mat ink(size, CV_32F);
    const cv::Mat pores = smoothField(size, rng, 2.5);  // breaks along the ridges of dry areas
    cv::Mat wetProfile;
    cv::GaussianBlur(profile, wetProfile, cv::Size(), 1.8);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double p = pressure.at<float>(y, x);  // > 0 dry, < 0 wet
            const double wet = std::clamp(-p * 2.0, 0.0, 0.8);
            const double v = (1 - wet) * profile.at<float>(y, x) + wet * (wetProfile.at<float>(y, x) + 0.25);
            const double thr = 0.5 + 0.3 * p;
            double k = std::clamp((v - thr) * 4 + 0.5, 0.0, 1.0);
            if (p > 0.15 && pores.at<float>(y, x) < -0.15 - 0.4 * (0.5 - std::min(p, 0.5))) k *= 0.15;
            ink.at<float>(y, x) = static_cast<float>(k);
        }

    // Scars (ink-free curved bands) and flexion creases (thin, near-horizontal, in groups).
    if (degraded) {
        const int scars = rng.uniform(1, 4);
        for (int i = 0; i < scars; ++i) {
            std::vector<cv::Point> curve;
            const cv::Point2d p0(rng.uniform(0.0, 1.0 * w), rng.uniform(0.0, 1.0 * h));
            const cv::Point2d p2(rng.uniform(0.0, 1.0 * w), rng.uniform(0.0, 1.0 * h));
            const cv::Point2d p1 = 0.5 * (p0 + p2) + cv::Point2d(rng.uniform(-80.0, 80.0), rng.uniform(-80.0, 80.0));
            for (int s = 0; s <= 40; ++s) {
                const double t = s / 40.0;
                const cv::Point2d q = (1 - t) * (1 - t) * p0 + 2 * (1 - t) * t * p1 + t * t * p2;
                curve.emplace_back(cvRound(q.x), cvRound(q.y));
            }
            cv::polylines(ink, curve, false, cv::Scalar(0), rng.uniform(3, 10), cv::LINE_AA);
        }
        const int groups = rng.uniform(1, 3);
        for (int g = 0; g < groups; ++g) {
            const double ang = rng.uniform(-0.35, 0.35);
            const cv::Point2d d(std::cos(ang) * w, std::sin(ang) * w);
            cv::Point2d p(rng.uniform(0.2, 0.8) * w, rng.uniform(0.3, 0.8) * h);
            const int lines = rng.uniform(2, 6);
            for (int i = 0; i < lines; ++i) {
                cv::line(ink, p - d, p + d, cv::Scalar(0), rng.uniform(1, 4), cv::LINE_AA);
                p += cv::Point2d(-std::sin(ang), std::cos(ang)) * rng.uniform(6.0, 20.0);
            }
        }
    }

    const cv::Mat contrast = soft.mul(degraded ? smoothField(size, rng, 70) * 0.35 + 0.65
                                               : smoothField(size, rng, 70) * 0.1 + 0.9);
    const double paper = rng.uniform(200.0, 245.0), depth = degraded ? rng.uniform(90.0, 160.0) : rng.uniform(130.0, 180.0);
    cv::Mat img = smoothField(size, rng, 90) * 10.0 + paper - ink.mul(contrast) * depth;
    cv::GaussianBlur(img, img, cv::Size(), degraded ? rng.uniform(0.9, 1.6) : rng.uniform(0.5, 0.8));
    if (degraded) {  // speckle: multiplicative grain, then sensor noise
        cv::Mat grain(size, CV_32F);
        rng.fill(grain, cv::RNG::NORMAL, 1.0, rng.uniform(0.04, 0.1));
        img = img.mul(grain);
    }
    addGaussianNoise(img, rng, degraded ? rng.uniform(10.0, 22.0) : rng.uniform(2.0, 5.0));
    img.convertTo(out.image, CV_8U);
    return out;
}

SyntheticPrint makePrint(PrintGenerator g, std::uint64_t seed, PrintQuality quality) {
    return g == PrintGenerator::Gabor ? makeSyntheticPrint(seed, quality) : makePhasePrint(seed, quality);
}

}  // namespace linescope::tasks
