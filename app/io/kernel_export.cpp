#include "app/io/kernel_export.h"

#include "app/io/json_writer.h"

#include <algorithm>

namespace linescope::io {

KernelMask kernelMask(const std::vector<Offset>& offsets) {
    const OffsetBox box = boundingBox(offsets);
    KernelMask k;
    k.mask = cv::Mat::zeros(box.height(), box.width(), CV_8U);
    for (const Offset& o : offsets) k.mask.at<std::uint8_t>(o.dy - box.minY, o.dx - box.minX) = 1;
    k.anchor = cv::Point(-box.minX, -box.minY);
    return k;
}

KernelMask reflectedKernelMask(const std::vector<Offset>& offsets) {
    std::vector<Offset> reflected;
    reflected.reserve(offsets.size());
    for (const Offset& o : offsets) reflected.push_back({-o.dx, -o.dy});
    return kernelMask(reflected);
}

bool centrallySymmetric(const std::vector<Offset>& offsets) {
    const KernelMask a = kernelMask(offsets), b = reflectedKernelMask(offsets);
    return a.anchor == b.anchor && a.mask.size() == b.mask.size() && cv::countNonZero(a.mask != b.mask) == 0;
}

namespace {
// "[x, y]", appended (GCC 12 warns falsely about "[" + std::to_string(…)).
void appendPair(std::string& s, int x, int y) {
    s += '[';
    s += std::to_string(x);
    s += ", ";
    s += std::to_string(y);
    s += ']';
}
std::string offsetList(const std::vector<Offset>& offsets) {
    std::string s = "[";
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        if (i) s += ", ";
        appendPair(s, offsets[i].dx, offsets[i].dy);
    }
    return s + "]";
}
std::string anchorOf(const KernelMask& k) {
    std::string s;
    appendPair(s, k.anchor.x, k.anchor.y);
    return s;
}
}  // namespace

std::string kernelJson(const LineKernel& kernel, const std::string& maskFile) {
    const std::vector<Offset> offsets = kernel.offsets();
    const KernelMask k = kernelMask(offsets);
    const bool symmetric = centrallySymmetric(offsets);
    std::string json = "{\"kind\": " + jsonString(lineKindName(kernel.kind)) + ", \"angle\": " + jsonNumber(kernel.angle) +
                       ", \"length\": " + std::to_string(kernel.length) +
                       ", \"translation_invariant\": " + (kernel.translationInvariant() ? "true" : "false") +
                       ", \"symmetric\": " + (symmetric ? "true" : "false") + ", \"mask\": " + jsonString(maskFile) +
                       ", \"width\": " + std::to_string(k.mask.cols) + ", \"height\": " + std::to_string(k.mask.rows) +
                       ", \"anchor\": " + anchorOf(k) + ", \"offsets\": " + offsetList(offsets);
    if (!symmetric) {
        std::vector<Offset> reflected;
        for (const Offset& o : offsets) reflected.push_back({-o.dx, -o.dy});
        const KernelMask r = kernelMask(reflected);
        json += ", \"dilate\": {\"width\": " + std::to_string(r.mask.cols) + ", \"height\": " + std::to_string(r.mask.rows) +
                ", \"anchor\": " + anchorOf(r) + ", \"offsets\": " + offsetList(reflected) + "}";
    }
    return json + "}\n";
}

std::string kernelPbm(const cv::Mat& mask) {
    std::string s = "P1\n" + std::to_string(mask.cols) + " " + std::to_string(mask.rows) + "\n";
    for (int y = 0; y < mask.rows; ++y) {
        // Plain PBM lines stay under 70 characters.
        for (int x = 0; x < mask.cols; ++x) {
            s += mask.at<std::uint8_t>(y, x) ? '1' : '0';
            if ((x + 1) % 64 == 0 && x + 1 < mask.cols) s += '\n';
        }
        s += '\n';
    }
    return s;
}

}  // namespace linescope::io
