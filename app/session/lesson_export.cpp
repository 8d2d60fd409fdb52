#include "app/session/lesson_export.h"

#include "app/io/json_writer.h"
#include "compute/line_morph.h"

#include <algorithm>

namespace linescope::session {

namespace {

using io::jsonNumber;
using io::jsonString;

const char* secondName(MorphOp op) { return op == MorphOp::Close ? "closing" : "opening"; }

std::string numbers(const std::vector<double>& values) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + jsonNumber(values[i]);
    return out + "]";
}

std::string windowJson(const LessonWindow& w) {
    std::string out = std::string("{\"stage\": ") + (w.minimum ? "\"erosion\"" : "\"dilation\"") +
                      ", \"rule\": " + (w.minimum ? "\"min\"" : "\"max\"") + ", \"output\": " + jsonNumber(w.output) +
                      ", \"extreme\": " + jsonNumber(std::int64_t{w.extreme}) + ", \"pixels\": [";
    for (std::size_t i = 0; i < w.pixels.size(); ++i) {
        const LessonWindowPixel& p = w.pixels[i];
        out += std::string(i ? ", " : "") + "{\"x\": " + std::to_string(p.x) + ", \"y\": " + std::to_string(p.y) +
               ", \"k\": " + std::to_string(p.k) + ", \"value\": " + jsonNumber(p.value) + "}";
    }
    return out + "]}";
}

const LessonPin& pinOf(const LessonOutput& lesson) {
    if (!lesson.stages || !lesson.pin) throw Error("the lesson has no pinned pixel");
    return *lesson.pin;
}

// The CSVs' comment lines: what the numbers are of.
std::string header(const LessonOutput& lesson, const std::string& source) {
    const LessonPin& pin = pinOf(lesson);
    const LineParams& line = lesson.stages->line;
    std::string out;
    if (!source.empty()) out += "# source=" + source + "\n";
    out += std::string("# operator=") + morphOpName(lesson.stages->op) + "\n# angle=" + jsonNumber(line.angle) +
           "\n# length=" + std::to_string(line.length) + "\n# line=" + lineKindName(line.kind) +
           "\n# pin=" + std::to_string(pin.pixel.x) + "," + std::to_string(pin.pixel.y) + "\n";
    return out;
}

}  // namespace

std::string lessonJson(const LessonOutput& lesson, const std::string& source, int width, int height) {
    if (!lesson.stages) throw Error("the lesson has not been computed yet");
    const LessonStages& s = *lesson.stages;
    std::string out = "{\"source\": " + jsonString(source) + ", \"operator\": " + jsonString(morphOpName(s.op)) +
                      ", \"angle\": " + jsonNumber(s.line.angle) + ", \"length\": " + std::to_string(s.line.length) +
                      ", \"line\": " + jsonString(lineKindName(s.line.kind)) + ", \"width\": " + std::to_string(width) +
                      ", \"height\": " + std::to_string(height) + ", \"pin\": ";
    if (!lesson.pin) return out + "null}\n";
    const LessonPin& p = *lesson.pin;
    out += "{\"x\": " + std::to_string(p.pixel.x) + ", \"y\": " + std::to_string(p.pixel.y) +
           ", \"first\": " + windowJson(p.first) + ", \"second\": " + windowJson(p.second);
    const LessonProfile& pr = p.profile;
    std::vector<double> xs, ys;
    for (const PixelAt& q : pr.path) {
        xs.push_back(q.x);
        ys.push_back(q.y);
    }
    out += ", \"profile\": {\"pin_index\": " + std::to_string(pr.index) + ", \"x\": " + numbers(xs) +
           ", \"y\": " + numbers(ys) + ", \"f\": " + numbers(pr.f) + ", \"erosion\": " + numbers(pr.erosion) +
           ", \"dilation\": " + numbers(pr.dilation) + ", \"" + secondName(s.op) + "\": " + numbers(pr.second) + "}";
    const LessonResponse& r = p.response;
    std::vector<double> angles;
    for (int k = 0; k < r.angles.count; ++k) angles.push_back(r.angles.angle(k));
    out += ", \"response\": {\"angles\": " + numbers(angles) + ", \"values\": " + numbers(r.values) +
           ", \"best_index\": " + jsonNumber(std::int64_t{r.best}) +
           ", \"best_angle\": " + (r.best >= 0 ? jsonNumber(r.angles.angle(r.best)) : std::string("null")) + "}";
    return out + "}}\n";
}

std::string lessonProfileCsv(const LessonOutput& lesson, const std::string& source) {
    std::string out = header(lesson, source);
    const LessonPin& p = pinOf(lesson);
    const LessonProfile& pr = p.profile;
    out += std::string("position,x,y,f,erosion,dilation,") + secondName(lesson.stages->op) + ",in_first_window\n";
    for (std::size_t i = 0; i < pr.path.size(); ++i) {
        const PixelAt q = pr.path[i];
        const bool inWindow = std::any_of(p.first.pixels.begin(), p.first.pixels.end(),
                                          [&](const LessonWindowPixel& w) { return w.x == q.x && w.y == q.y; });
        out += std::to_string(static_cast<long long>(i) - pr.index) + "," + std::to_string(q.x) + "," +
               std::to_string(q.y) + "," + jsonNumber(pr.f[i]) + "," + jsonNumber(pr.erosion[i]) + "," +
               jsonNumber(pr.dilation[i]) + "," + jsonNumber(pr.second[i]) + "," + (inWindow ? "1" : "0") + "\n";
    }
    return out;
}

std::string lessonResponseCsv(const LessonOutput& lesson, const std::string& source) {
    std::string out = header(lesson, source);
    const LessonResponse& r = pinOf(lesson).response;
    out += std::string("angle,") + secondName(lesson.stages->op) + ",best\n";
    for (int k = 0; k < r.angles.count && k < static_cast<int>(r.values.size()); ++k)
        out += jsonNumber(r.angles.angle(k)) + "," + jsonNumber(r.values[static_cast<std::size_t>(k)]) + "," +
               (k == r.best ? "1" : "0") + "\n";
    return out;
}

}  // namespace linescope::session
