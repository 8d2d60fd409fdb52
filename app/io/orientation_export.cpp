#include "app/io/orientation_export.h"

#include "app/io/json_writer.h"
#include "compute/line_kind.h"

namespace linescope::io {

const char* orientationMethodName(OrientationMethod m) {
    return m == OrientationMethod::PixelArg ? "pixel" : "block";
}

std::string orientationFieldCsv(const OrientationField& f) {
    std::string rows = "bx,by,angle,coherence,weight,foreground\n";
    for (std::size_t b = 0; b < f.angle.size(); ++b) {
        const int bx = static_cast<int>(b % static_cast<std::size_t>(f.blocksX)), by = static_cast<int>(b / static_cast<std::size_t>(f.blocksX));
        rows += std::to_string(bx) + "," + std::to_string(by) + "," + jsonNumber(f.angle[b]) + "," +
                jsonNumber(f.coherence[b]) + "," + jsonNumber(f.weight[b]) + "," + std::to_string(int(f.foreground[b])) + "\n";
    }
    return rows;
}

std::string orientationFieldJson(const OrientationField& f, const OrientationFieldParams& p, double timeMs) {
    std::string angles, coherence, foreground;
    for (std::size_t b = 0; b < f.angle.size(); ++b) {
        const char* sep = b ? ", " : "";
        angles += sep + jsonNumber(f.angle[b]);
        coherence += sep + jsonNumber(f.coherence[b]);
        foreground += sep + std::to_string(int(f.foreground[b]));
    }
    return "{\"blocks_x\": " + std::to_string(f.blocksX) + ", \"blocks_y\": " + std::to_string(f.blocksY) +
           ", \"block_size\": " + std::to_string(f.blockSize) + ", \"length\": " + std::to_string(f.length) +
           ", \"angle_count\": " + std::to_string(p.angleCount) + ", \"smoothing\": " + jsonNumber(p.smoothing) +
           ", \"line\": " + jsonString(lineKindName(p.kind)) + ", \"method\": " + jsonString(orientationMethodName(p.method)) +
           ", \"angles\": [" + angles + "], \"coherence\": [" + coherence + "], \"foreground\": [" + foreground +
           "], \"time_ms\": " + jsonNumber(timeMs) + "}\n";
}

}  // namespace linescope::io
