#include "app/io/granulometry_export.h"

#include "app/io/json_writer.h"

namespace linescope::io {

namespace {

// S(λ) or PS(λ) as text: exact for integer images.
std::string number(const std::vector<std::int64_t>& exact, const std::vector<double>& values, std::size_t i) {
    return exact.empty() ? jsonNumber(values[i]) : jsonNumber(exact[i]);
}

std::string angleSetText(const AngleSet& a) {
    return jsonNumber(a.start) + ":" + jsonNumber(a.start + a.step * a.count) + ":" + jsonNumber(a.step);
}

}  // namespace

std::optional<double> normalizedSum(const Granulometry& g, int length) {
    if (!(g.sums.front() > 0)) return std::nullopt;
    return g.sum(length) / g.sums.front();
}

std::string granulometryCsv(const Granulometry& g, const GranulometryInfo& info) {
    const GranulometryRequest& r = info.request;
    std::string out = std::string("# line=") + lineKindName(r.kind) + "\n";
    if (r.angles) out += "# angles=" + angleSetText(*r.angles) + "\n# supremum\n";
    else out += "# angle=" + jsonNumber(r.angle) + "\n";
    if (r.rect)
        out += "# region=" + std::to_string(r.rect->x) + "," + std::to_string(r.rect->y) + "," +
               std::to_string(r.rect->width) + "," + std::to_string(r.rect->height) + "\n";
    else
        out += "# region=whole\n";
    out += "# pixels=" + std::to_string(g.pixels) + "\nlength,sum,normalized,pattern_spectrum\n";
    for (std::size_t i = 0; i < g.sums.size(); ++i) {
        const auto n = normalizedSum(g, static_cast<int>(i + 1));
        out += std::to_string(i + 1) + "," + number(g.sumsExact, g.sums, i) + "," + (n ? jsonNumber(*n) : "") + "," +
               (i < g.spectrum.size() ? number(g.spectrumExact, g.spectrum, i) : "") + "\n";
    }
    return out;
}

std::string granulometryJson(const Granulometry& g, const GranulometryInfo& info) {
    const GranulometryRequest& r = info.request;
    std::string out = std::string("{\"line\": ") + jsonString(lineKindName(r.kind));
    if (r.angles) {
        out += ", \"angles\": [";
        for (int k = 0; k < r.angles->count; ++k) out += (k ? ", " : "") + jsonNumber(r.angles->angle(k));
        out += "], \"supremum\": true";
    } else {
        out += ", \"angle\": " + jsonNumber(r.angle) + ", \"supremum\": false";
    }
    out += ", \"max_length\": " + std::to_string(g.maxLength) + ", \"region\": ";
    out += r.rect ? "[" + std::to_string(r.rect->x) + ", " + std::to_string(r.rect->y) + ", " +
                        std::to_string(r.rect->width) + ", " + std::to_string(r.rect->height) + "]"
                  : std::string("null");
    out += ", \"pixels\": " + std::to_string(g.pixels);
    std::string lengths, sums, normalized, spectrum;
    for (std::size_t i = 0; i < g.sums.size(); ++i) {
        const char* sep = i ? ", " : "";
        const auto n = normalizedSum(g, static_cast<int>(i + 1));
        lengths += sep + std::to_string(i + 1);
        sums += sep + number(g.sumsExact, g.sums, i);
        normalized += sep + (n ? jsonNumber(*n) : std::string("null"));
        if (i < g.spectrum.size()) spectrum += sep + number(g.spectrumExact, g.spectrum, i);
    }
    out += ", \"lengths\": [" + lengths + "], \"sums\": [" + sums + "], \"normalized\": [" + normalized +
           "], \"pattern_spectrum\": [" + spectrum + "], \"residual\": " +
           number(g.sumsExact, g.sums, g.sums.size() - 1);
    if (info.timeMs >= 0) out += ", \"time_ms\": " + jsonNumber(info.timeMs);
    return out + "}\n";
}

}  // namespace linescope::io
