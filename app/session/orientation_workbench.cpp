#include "app/session/orientation_workbench.h"

#include "app/session/any_image_mat.h"

#include <chrono>
#include <cmath>

namespace linescope::session {

std::vector<float> periodicDifference(const std::vector<float>& a, const std::vector<float>& b) {
    std::vector<float> d(std::min(a.size(), b.size()));
    for (std::size_t i = 0; i < d.size(); ++i) {
        const double m = std::fmod(std::abs(static_cast<double>(a[i]) - static_cast<double>(b[i])), 180.0);
        d[i] = static_cast<float>(std::min(m, 180.0 - m));
    }
    return d;
}

FieldOutput computeField(const Request& request, const EngineOptions& options) {
    const auto& p = std::get<FieldParams>(request.params);
    FieldOutput out;
    const auto t0 = std::chrono::steady_clock::now();
    out.field = std::visit([&](const auto& img) { return estimateOrientationField(img.cview(), p.field, options); },
                           *request.image);
    out.fieldMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const OrientationField& f = out.field;
    out.singular = singularPoints(f.angle, f.foreground, f.blocksX, f.blocksY, p.singular);
    if (p.tensor) {
        analysis::StructureTensorParams tp = *p.tensor;
        tp.blockSize = f.blockSize;  // the same blocks as the engine's field
        out.tensor = analysis::structureTensorField(matOf(*request.image), tp);
        out.difference = periodicDifference(f.angle, out.tensor->degrees);
        double sum = 0;
        int n = 0;
        for (std::size_t b = 0; b < out.difference.size(); ++b)
            if (f.foreground[b]) sum += out.difference[b], ++n;
        out.meanDifference = n ? sum / n : 0;
    }
    return out;
}

}  // namespace linescope::session
