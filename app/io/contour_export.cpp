#include "app/io/contour_export.h"

#include "app/io/image_io.h"
#include "app/io/json_writer.h"
#include "app/io/threshold.h"

#include <opencv2/imgcodecs.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace linescope::io {

namespace {

// A timing in JSON: null where it is not a number ("nan" and "inf" are not JSON).
std::string millisJson(double ms) { return std::isfinite(ms) ? formatMillis(ms) : "null"; }

std::string timingsJson(const ContourTimings& t, bool phases) {
    std::string s = "{";
    if (phases)
        s += "\"preprocess\": " + millisJson(t.preprocess) + ", \"track\": " + millisJson(t.track) +
             ", \"connect\": " + millisJson(t.connect) + ", \"hierarchy\": " + millisJson(t.hierarchy) +
             ", \"download\": " + millisJson(t.download) + ", ";
    return s + "\"total\": " + millisJson(t.total) + "}";
}

std::string base64(const std::vector<uchar>& bytes) {
    static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const unsigned b0 = bytes[i];
        const unsigned b1 = i + 1 < bytes.size() ? bytes[i + 1] : 0u;
        const unsigned b2 = i + 2 < bytes.size() ? bytes[i + 2] : 0u;
        const unsigned v = (b0 << 16) | (b1 << 8) | b2;
        out += abc[(v >> 18) & 63];
        out += abc[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? abc[(v >> 6) & 63] : '=';
        out += i + 2 < bytes.size() ? abc[v & 63] : '=';
    }
    return out;
}

}  // namespace

std::string contoursToJson(const Contours& c, const ContourJsonInfo& info) {
    std::string s = "{\"contours\": [";
    for (std::size_t i = 0; i < c.size(); ++i) {
        s += i ? ",\n  " : "\n  ";
        s += "{\"points\": [";
        for (std::size_t j = 0; j < c.length(i); ++j) {
            if (j) s += ", ";
            s += '[';
            s += std::to_string(c.begin(i)[j].x);
            s += ", ";
            s += std::to_string(c.begin(i)[j].y);
            s += ']';
        }
        s += "], \"parent\": ";
        s += std::to_string(c.parent[i]);
        s += ", \"hole\": ";
        s += c.hole[i] ? "true}" : "false}";
    }
    s += c.size() == 0 ? "]" : "\n]";
    s += ", \"mode\": " + jsonString(contourModeName(info.mode)) +
         ", \"approx\": " + jsonString(contourApproxName(info.approx)) +
         ", \"width\": " + std::to_string(info.width) + ", \"height\": " + std::to_string(info.height) +
         ", \"threshold\": " + jsonNumber(info.threshold) + ", \"algorithm\": " + jsonString(info.algorithm) +
         ", \"timings_ms\": " + timingsJson(info.timings, info.algorithm == "engine") + "}\n";
    return s;
}

std::string contoursToSvg(const Contours& c, int width, int height, const cv::Mat& background) {
    const std::string w = std::to_string(width), h = std::to_string(height);
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + w + "\" height=\"" + h +
                    "\" viewBox=\"0 0 " + w + " " + h + "\">\n";
    if (!background.empty()) {
        if (background.cols != width || background.rows != height)
            throw std::invalid_argument("the SVG background is " + std::to_string(background.cols) + "x" +
                                        std::to_string(background.rows) + ", the contours' image " + w + "x" + h);
        std::vector<uchar> png;
        cv::imencode(".png", toEightBit(background), png);
        s += "<image width=\"" + w + "\" height=\"" + h +
             "\" style=\"image-rendering:pixelated\" href=\"data:image/png;base64," + base64(png) + "\"/>\n";
    }
    for (std::size_t i = 0; i < c.size(); ++i) {
        s += "<polygon fill=\"none\" stroke-width=\"0.25\" stroke=\"";
        s += c.hole[i] ? "#0050ff" : "#ff2020";
        s += "\" points=\"";
        for (const ContourPoint* p = c.begin(i); p != c.begin(i) + c.length(i); ++p)
            s += std::to_string(p->x) + ".5," + std::to_string(p->y) + ".5 ";
        s += "\"/>\n";
    }
    return s + "</svg>\n";
}

std::string formatMillis(double ms) {
    char buf[320];  // the largest double has 309 digits before the point
    std::snprintf(buf, sizeof buf, "%.3f", ms);
    return buf;
}

}  // namespace linescope::io
