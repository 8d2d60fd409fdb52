// Comparing a shown snapshot with the current request: what differs is what the mark names.
#include "app/session/shown_state.h"

#include "app/io/export_recipe.h"

#include <cstdio>
#include <variant>

namespace linescope::session {

namespace {

std::string degrees(double a) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f°", a);
    return buf;
}

bool sameAngles(const AngleSet& a, const AngleSet& b) {
    return a.start == b.start && a.step == b.step && a.count == b.count;
}

// What the shown parameters are, where they differ from the wanted ones ("" when they don't).
std::string difference(const RequestParams& shown, const RequestParams& wanted) {
    if (shown.index() != wanted.index()) return "other parameters";
    std::string d;
    auto add = [&](const std::string& part) { d += (d.empty() ? "" : ", ") + part; };
    if (const auto* r = std::get_if<ResultParams>(&shown)) {
        const auto& w = std::get<ResultParams>(wanted);
        if (r->op != w.op) add(morphOpName(r->op));
        if (r->line.angle != w.line.angle) add(degrees(r->line.angle));
        if (r->line.length != w.line.length) add("λ = " + std::to_string(r->line.length));
        if (r->line.kind != w.line.kind) add(std::string(lineKindName(r->line.kind)) + " lines");
        if (r->against != w.against)
            add(r->against ? std::string("the comparison with ") + lineKindName(*r->against) : "no comparison");
    } else if (const auto* sw = std::get_if<SweepParams>(&shown)) {
        const auto& w = std::get<SweepParams>(wanted);
        if (sw->sweep.op != w.sweep.op) add(morphOpName(sw->sweep.op));
        if (sw->sweep.length != w.sweep.length) add("λ = " + std::to_string(sw->sweep.length));
        if (sw->sweep.kind != w.sweep.kind) add(std::string(lineKindName(sw->sweep.kind)) + " lines");
        if (!sameAngles(sw->sweep.angles, w.sweep.angles)) add("angles " + io::angleSetText(sw->sweep.angles));  // the CLI's and the controls' spelling
    } else if (const auto* c = std::get_if<ContourParams>(&shown)) {
        const auto& w = std::get<ContourParams>(wanted);
        if (c->threshold != w.threshold || c->mode != w.mode || c->approx != w.approx) add("other contour settings");
    } else if (const auto* k = std::get_if<SkewRequestParams>(&shown)) {
        const auto& w = std::get<SkewRequestParams>(wanted);
        if (k->skew.angles.start != w.skew.angles.start || k->skew.angles.step != w.skew.angles.step ||
            k->skew.angles.count != w.skew.angles.count || k->skew.darkLines != w.skew.darkLines ||
            k->skew.kind != w.skew.kind)
            add("other search settings");
    }
    return d;
}

}  // namespace

bool answers(const Snapshot& shown, const Request& wanted) {
    return shown.request.image == wanted.image && difference(shown.request.params, wanted.params).empty() &&
           shown.request.contourSource == wanted.contourSource;
}

ShownState shownStateOf(const Snapshot* shown, const std::optional<Request>& wanted) {
    if (!shown || !wanted) return {};
    if (shown->request.image != wanted->image) return {Freshness::Stale, "stale: shows the previous image"};
    const std::string d = difference(shown->request.params, wanted->params);
    if (!d.empty()) return {Freshness::Stale, "stale: shows " + d};
    if (shown->preview) return {Freshness::Preview, previewText(*shown->preview)};
    return {};
}

}  // namespace linescope::session
