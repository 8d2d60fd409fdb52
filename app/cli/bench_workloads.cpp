#include "app/cli/bench_workloads.h"
#include "app/cli/args.h"

#include "app/io/image_io.h"
#include "app/io/kernel_export.h"
#include "compute/contours/contours.h"
#include "compute/granulometry.h"
#include "compute/line_geometry.h"
#include "compute/line_kernel.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace linescope::cli::bench {

cv::Mat makeStructuredImage(int width, int height, std::uint64_t seed) {
    cv::RNG rng(seed);
    cv::Mat img(height, width, CV_8UC1);
    rng.fill(img, cv::RNG::UNIFORM, 0, 64);
    const int lines = std::max(8, width * height / 20000);
    for (int i = 0; i < lines; ++i) {
        const cv::Point a(rng.uniform(0, width), rng.uniform(0, height));
        const double angle = rng.uniform(0.0, CV_PI);
        const double len = rng.uniform(10.0, 0.5 * std::max(width, height));
        const cv::Point b(a.x + static_cast<int>(len * std::cos(angle)), a.y - static_cast<int>(len * std::sin(angle)));
        cv::line(img, a, b, cv::Scalar(rng.uniform(96, 256)), rng.uniform(1, 4), cv::LINE_8);
    }
    for (int i = 0; i < lines / 8; ++i) {
        const cv::Point a(rng.uniform(0, width), rng.uniform(0, height));
        const cv::Size s(rng.uniform(4, 64), rng.uniform(4, 64));
        cv::rectangle(img, cv::Rect(a, s), cv::Scalar(rng.uniform(64, 200)), cv::FILLED);
    }
    return img;
}

cv::Mat segmentKernel(double angleDegrees, int length) {
    const LineFamily fam = lineFamily(angleDegrees, 1, 1);
    const Segment seg = segmentOf(length);
    std::vector<cv::Point> pts;
    int reach = 0;
    for (int k = -seg.a; k <= seg.b; ++k) {
        const int o = static_cast<int>(fam.off(k));
        pts.push_back(fam.yMajor ? cv::Point(o, k) : cv::Point(k, o));
        reach = std::max({reach, std::abs(o), std::abs(k)});
    }
    // A centred square kernel so that its anchor (the default, the centre) is the pixel k = 0.
    const int side = 2 * reach + 1;
    cv::Mat kernel = cv::Mat::zeros(side, side, CV_8UC1);
    for (const auto& p : pts) kernel.at<std::uint8_t>(p.y + reach, p.x + reach) = 1;
    return kernel;
}

namespace {

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string compareImages(const cv::Mat& engine, const cv::Mat& opencv) {
    const double differing = static_cast<double>(cv::countNonZero(engine != opencv));
    if (differing == 0) return "identical results";
    return "results differ at " + fmt("%.2f", 100.0 * differing / static_cast<double>(engine.total())) +
           "% of pixels (expected away from 0°/45°/90°/135° or for even λ: line paths shift their "
           "pattern along the line, and OpenCV does not reflect the kernel for the dilation)";
}

Workload makeOpening(const std::string& name, double angle, int length, LineKind kind, bool quick) {
    const int side = quick ? 512 : 2048;
    struct State {
        cv::Mat src, engineOut, cvOut, mid, kernel, reflected;
        cv::Point anchor{-1, -1}, reflectedAnchor{-1, -1};
        bool symmetric = true;
    };
    auto st = std::make_shared<State>();
    st->src = makeStructuredImage(side, side, 20261101);
    st->engineOut.create(side, side, CV_8UC1);
    st->cvOut.create(side, side, CV_8UC1);
    if (kind == LineKind::Paths) {
        st->kernel = segmentKernel(angle, length);
    } else {  // the kernel of `linescope-cli se`: OpenCV computes the engine's pixels
        const std::vector<Offset> offsets = lineKernel(kind, angle, length).offsets();
        const io::KernelMask k = io::kernelMask(offsets), r = io::reflectedKernelMask(offsets);
        st->kernel = k.mask;
        st->anchor = k.anchor;
        st->reflected = r.mask;
        st->reflectedAnchor = r.anchor;
        st->symmetric = io::centrallySymmetric(offsets);
    }
    Workload w;
    w.name = name;
    w.label = "opening " + std::to_string(side) + "×" + std::to_string(side) + " u8, " + fmt("%g", angle) +
              "°, λ=" + std::to_string(length) + (kind == LineKind::Paths ? "" : std::string(", ") + lineKindName(kind));
    w.engine = [st, angle, length, kind](int threads) {
        EngineOptions opt;
        opt.backend = Backend::Cpu;
        opt.threads = threads;
        lineMorph<std::uint8_t>(MorphOp::Open, io::viewOf<std::uint8_t>(st->src),
                                io::mutableViewOf<std::uint8_t>(st->engineOut), {angle, length, kind}, opt);
    };
    w.opencv = [st] {
        if (st->symmetric) {
            cv::morphologyEx(st->src, st->cvOut, cv::MORPH_OPEN, st->kernel, st->anchor);
        } else {  // even λ: erode by the kernel, dilate by its reflection (line_kernel.h)
            cv::erode(st->src, st->mid, st->kernel, st->anchor);
            cv::dilate(st->mid, st->cvOut, st->reflected, st->reflectedAnchor);
        }
    };
    w.check = [st] { return compareImages(st->engineOut, st->cvOut); };
    return w;
}

// The granulometry of a 2048×2048 image at one angle, λ = 1 … L+1 (the target: the
// engine's one pass a line). OpenCV: one erosion and one dilation by the segment kernel of
// `linescope-cli se` (reflected for the dilation) per length, summed by cv::sum; at 0°, 45°,
// 90° and 135° it holds the line paths' pixels, so the sums are identical there.
Workload makeGranulometry(const std::string& name, double angle, int maxLength, LineKind kind, bool quick) {
    const int side = quick ? 512 : 2048;
    if (quick) maxLength = std::min(maxLength, 32);
    struct State {
        cv::Mat src, mid, out;
        std::vector<cv::Mat> kernels, reflected;
        std::vector<cv::Point> anchors, reflectedAnchors;
        std::vector<double> cvSums;
        Granulometry result;
    };
    auto st = std::make_shared<State>();
    st->src = makeStructuredImage(side, side, 20261118);
    for (int length = 1; length <= maxLength + 1; ++length) {
        const std::vector<Offset> offsets = lineKernel(LineKind::Segment, angle, length).offsets();
        const io::KernelMask k = io::kernelMask(offsets), r = io::reflectedKernelMask(offsets);
        st->kernels.push_back(k.mask);
        st->anchors.push_back(k.anchor);
        st->reflected.push_back(r.mask);
        st->reflectedAnchors.push_back(r.anchor);
    }
    st->cvSums.assign(st->kernels.size(), 0.0);
    Workload w;
    w.name = name;
    w.label = "granulometry " + std::to_string(side) + "×" + std::to_string(side) + " u8, " + fmt("%g", angle) +
              "°, λ=1…" + std::to_string(maxLength + 1) +
              (kind == LineKind::Paths ? "" : std::string(", ") + lineKindName(kind));
    w.engine = [st, angle, maxLength, kind](int threads) {
        EngineOptions opt;
        opt.backend = Backend::Cpu;
        opt.threads = threads;
        GranulometryRequest req;
        req.angle = angle;
        req.maxLength = maxLength;
        req.kind = kind;
        st->result = *granulometry<std::uint8_t>(io::viewOf<std::uint8_t>(st->src), req, opt);
    };
    w.opencv = [st] {
        for (std::size_t i = 0; i < st->kernels.size(); ++i) {
            cv::erode(st->src, st->mid, st->kernels[i], st->anchors[i]);
            cv::dilate(st->mid, st->out, st->reflected[i], st->reflectedAnchors[i]);
            st->cvSums[i] = cv::sum(st->out)[0];
        }
    };
    w.check = [st] {
        std::size_t differ = 0;
        for (std::size_t i = 0; i < st->cvSums.size(); ++i) differ += st->cvSums[i] != st->result.sums[i];
        if (differ == 0) return std::string("identical sums S(λ) at every length");
        return "sums differ at " + std::to_string(differ) + " of " + std::to_string(st->cvSums.size()) +
               " lengths (expected away from 0°/45°/90°/135°: line paths shift their pattern along the line)";
    };
    return w;
}

Workload makeSweep(const std::string& name, int length, bool quick) {
    const int side = quick ? 160 : 640;
    const AngleSet angles{0, quick ? 5.0 : 1.0, quick ? 36 : 180};
    struct State {
        cv::Mat src, tmp, sup, arg, mask;
        std::vector<cv::Mat> kernels;
        std::vector<double> spectrum;
        SweepResult<std::uint8_t> result;
    };
    auto st = std::make_shared<State>();
    st->src = makeStructuredImage(side, side, 20261102);
    for (int k = 0; k < angles.count; ++k) st->kernels.push_back(segmentKernel(angles.angle(k), length));
    st->spectrum.assign(static_cast<std::size_t>(angles.count), 0.0);
    st->sup.create(side, side, CV_8UC1);
    st->arg.create(side, side, CV_16UC1);
    Workload w;
    w.name = name;
    w.label = "sweep " + std::to_string(side) + "×" + std::to_string(side) + " u8, " + std::to_string(angles.count) +
              " angles, λ=" + std::to_string(length) + ": sup + arg + spectrum";
    w.engine = [st, angles, length](int threads) {
        EngineOptions opt;
        opt.backend = Backend::Cpu;
        opt.threads = threads;
        st->result = sweep<std::uint8_t>(io::viewOf<std::uint8_t>(st->src), {MorphOp::Open, length, angles}, opt);
    };
    w.opencv = [st] {
        for (std::size_t k = 0; k < st->kernels.size(); ++k) {
            cv::morphologyEx(st->src, st->tmp, cv::MORPH_OPEN, st->kernels[k]);
            if (k == 0) {
                st->tmp.copyTo(st->sup);
                st->arg.setTo(0);
            } else {
                cv::compare(st->tmp, st->sup, st->mask, cv::CMP_GT);
                st->arg.setTo(static_cast<double>(k), st->mask);
                cv::max(st->sup, st->tmp, st->sup);
            }
            st->spectrum[k] = cv::sum(st->tmp)[0];
        }
    };
    w.check = [st] { return "supremum: " + compareImages(io::matOf(st->result.sup), st->sup); };
    return w;
}

// Discs (a third with a hole, some with an island in it) on the paper's 4× image size.
cv::Mat makeBlobImage(int width, int height, int discs, std::uint64_t seed) {
    cv::RNG rng(seed);
    cv::Mat img = cv::Mat::zeros(height, width, CV_8UC1);
    const int scale = std::max(1, width / 1232);
    for (int i = 0; i < discs; ++i) {
        const cv::Point c(rng.uniform(0, width), rng.uniform(0, height));
        const int r = scale * rng.uniform(3, 18);
        cv::circle(img, c, r, cv::Scalar(255), cv::FILLED);
        if (i % 3 == 0) cv::circle(img, c, r / 3, cv::Scalar(0), cv::FILLED);
        if (i % 9 == 0) cv::circle(img, c, r / 6, cv::Scalar(255), cv::FILLED);
    }
    return img;
}

Workload makeContours(const std::string& name, bool quick) {
    struct State {
        cv::Mat src;
        ContourFinder one{{Backend::Cpu, LineAlgorithm::Auto, 1}}, all{{Backend::Cpu, LineAlgorithm::Auto, 0}};
        Contours engineOut;
        std::vector<std::vector<cv::Point>> cvOut;
        std::vector<cv::Vec4i> cvHierarchy;
    };
    auto st = std::make_shared<State>();
    st->src = quick ? makeBlobImage(1232, 1028, 330, 20261103) : makeBlobImage(4928, 4112, 330, 20261103);
    Workload w;
    w.name = name;
    w.label = "findContours " + std::to_string(st->src.cols) + "×" + std::to_string(st->src.rows) +
              " u8, tree, none (engine: a reused ContourFinder)";
    w.engine = [st](int threads) {
        (threads == 1 ? st->one : st->all)
            .find(io::viewOf<std::uint8_t>(st->src), ContourMode::Tree, ContourApprox::None, st->engineOut);
    };
    w.opencv = [st] { cv::findContours(st->src, st->cvOut, st->cvHierarchy, cv::RETR_TREE, cv::CHAIN_APPROX_NONE); };
    w.check = [st] {
        const Contours& e = st->engineOut;
        bool same = e.size() == st->cvOut.size();
        for (std::size_t i = 0; same && i < e.size(); ++i) {
            same = e.length(i) == st->cvOut[i].size() && e.parent[i] == st->cvHierarchy[i][3] &&
                   e.next[i] == st->cvHierarchy[i][0] && e.firstChild[i] == st->cvHierarchy[i][2];
            for (std::size_t j = 0; same && j < e.length(i); ++j)
                same = e.begin(i)[j].x == st->cvOut[i][j].x && e.begin(i)[j].y == st->cvOut[i][j].y;
        }
        return std::to_string(st->cvOut.size()) + " contours, " +
               (same ? std::string("identical results") : std::string("results differ"));
    };
    return w;
}

}  // namespace

std::vector<std::string> workloadNames() {
    return {"open-0-11",   "open-0-41", "open-0-251", "open-30-11", "open-30-41", "open-30-251", "sweep-41",
            "granulometry-0-256", "contours"};
}

Workload makeWorkload(const std::string& name, bool quick, LineKind kind) {
    if (name == "sweep-41") return makeSweep(name, 41, quick);
    if (name == "contours") return makeContours(name, quick);
    // open-ANGLE-LENGTH and granulometry-ANGLE-LENGTH, read as strictly as the options (the
    // angle may be negative: open--30-41).
    const bool granulometryName = name.rfind("granulometry-", 0) == 0;
    const std::string prefix = granulometryName ? "granulometry-" : "open-";
    const std::size_t dash = name.rfind('-');
    if (name.rfind(prefix, 0) == 0 && dash >= prefix.size()) {
        try {
            const double angle = parseReal(name.substr(prefix.size(), dash - prefix.size()), "the angle");
            const int length = static_cast<int>(parseInteger(name.substr(dash + 1), "the length", 1, 100000));
            if (granulometryName) return makeGranulometry(name, angle, length, kind, quick);
            return makeOpening(name, angle, length, kind, quick);
        } catch (const UsageError&) {
            // not a workload name: said below
        }
    }
    throw std::invalid_argument("unknown workload '" + name + "'");
}

}  // namespace linescope::cli::bench
