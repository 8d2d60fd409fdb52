#include "app/session/lesson.h"

#include "compute/line_morph_at.h"

#include <type_traits>

namespace linescope::session {

namespace {

template <class T>
double valueAt(const AnyImage& img, int x, int y) {
    return static_cast<double>(std::get<Image<T>>(img).at(x, y));
}

std::shared_ptr<const LessonStages> computeStages(const AnyImage& image, const LessonParams& p,
                                                  const EngineOptions& options) {
    return std::visit(
        [&](const auto& img) {
            using T = std::remove_cvref_t<decltype(*img.data())>;
            Image<T> eroded = lineMorph<T>(MorphOp::Erode, img.cview(), p.line, options);
            Image<T> dilated = lineMorph<T>(MorphOp::Dilate, img.cview(), p.line, options);
            // The second stage from the first, as the lesson shows it: δ(ε(f)) is the opening
            // (and ε(δ(f)) the closing) bit for bit, since both stages run along the same lines.
            const Image<T>& first = p.op == MorphOp::Close ? dilated : eroded;
            Image<T> second = lineMorph<T>(p.op == MorphOp::Close ? MorphOp::Erode : MorphOp::Dilate, first.cview(),
                                           p.line, options);
            return lessonStagesOf<T>(p.op, p.line, std::move(eroded), std::move(dilated), std::move(second));
        },
        image);
}

// What the stage of `minimum` read at the pin from `input`, and the pixel that won.
LessonWindow windowAt(const AnyImage& input, bool minimum, const LineParams& line, PixelAt pin) {
    LessonWindow w;
    w.minimum = minimum;
    const int width = widthOf(input), height = heightOf(input);
    for (const WindowPixel& p : stageWindow(minimum, line.kind, line.angle, line.length, width, height, pin.x, pin.y)) {
        const double v = std::visit([&](const auto& img) { return static_cast<double>(img.at(p.x, p.y)); }, input);
        w.pixels.push_back({p.x, p.y, p.k, v});
    }
    for (int i = 0; i < static_cast<int>(w.pixels.size()); ++i) {
        const double v = w.pixels[static_cast<std::size_t>(i)].value;
        if (w.extreme < 0 || (minimum ? v < w.output : v > w.output)) {
            w.extreme = i;
            w.output = v;
        }
    }
    return w;
}

LessonProfile profileAt(const AnyImage& image, const LessonStages& stages, PixelAt pin) {
    LessonProfile pr;
    const LinePathThrough path = linePathThrough(stages.line.angle, widthOf(image), heightOf(image), pin.x, pin.y);
    pr.path = path.pixels;
    pr.index = path.index;
    std::visit(
        [&](const auto& img) {
            using T = std::remove_cvref_t<decltype(*img.data())>;
            for (const PixelAt& p : pr.path) {
                pr.f.push_back(static_cast<double>(img.at(p.x, p.y)));
                pr.erosion.push_back(valueAt<T>(*stages.erosion, p.x, p.y));
                pr.dilation.push_back(valueAt<T>(*stages.dilation, p.x, p.y));
                pr.second.push_back(valueAt<T>(*stages.second, p.x, p.y));
            }
        },
        image);
    return pr;
}

LessonResponse responseAt(const AnyImage& image, const LessonParams& p, PixelAt pin) {
    LessonResponse r;
    r.angles = p.angles;
    std::visit(
        [&](const auto& img) {
            using T = std::remove_cvref_t<decltype(*img.data())>;
            const std::vector<T> values =
                angleResponse<T>(p.op, img.cview(), pin.x, pin.y, p.angles, p.line.length, p.line.kind);
            r.values.assign(values.begin(), values.end());
            r.best = bestAngleIndex(values, p.op);
        },
        image);
    return r;
}

bool sameLine(const LineParams& a, const LineParams& b) {
    return a.angle == b.angle && a.length == b.length && a.kind == b.kind;
}

bool sameAngles(const AngleSet& a, const AngleSet& b) {
    return a.start == b.start && a.step == b.step && a.count == b.count;
}

}  // namespace

LessonOutput computeLesson(const Request& request, const EngineOptions& options, const Snapshot* previous,
                           const LessonStagesFn& stages) {
    const LessonParams& p = std::get<LessonParams>(request.params);
    if (p.op != MorphOp::Open && p.op != MorphOp::Close) throw Error("a lesson shows an opening or a closing");
    const AnyImage& image = *request.image;
    const LessonOutput* before = previous && previous->ok() && previous->lesson && previous->request.image == request.image
                                     ? previous->lesson.get()
                                     : nullptr;
    const LessonParams* beforeParams = before ? std::get_if<LessonParams>(&previous->request.params) : nullptr;
    LessonOutput out;
    if (beforeParams && beforeParams->op == p.op && sameLine(beforeParams->line, p.line)) out.stages = before->stages;
    else out.stages = stages ? stages(request) : computeStages(image, p, options);
    if (!p.pin) return out;
    const PixelAt pin = *p.pin;
    if (pin.x < 0 || pin.y < 0 || pin.x >= widthOf(image) || pin.y >= heightOf(image))
        throw Error("the pinned pixel is outside the image");
    LessonPin lp;
    lp.pixel = pin;
    const bool opening = p.op == MorphOp::Open;
    lp.first = windowAt(image, opening, p.line, pin);
    lp.second = windowAt(*out.stages->first(), !opening, p.line, pin);
    lp.profile = profileAt(image, *out.stages, pin);
    // The response reads only the pixels around the pin, but 180 angles of a long kernel are
    // still worth keeping while only the current angle moves.
    if (beforeParams && before->pin && beforeParams->pin == p.pin && beforeParams->op == p.op &&
        beforeParams->line.length == p.line.length && beforeParams->line.kind == p.line.kind &&
        sameAngles(beforeParams->angles, p.angles))
        lp.response = before->pin->response;
    else
        lp.response = responseAt(image, p, pin);
    out.pin = std::move(lp);
    return out;
}

}  // namespace linescope::session
