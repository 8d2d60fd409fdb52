#include "app/io/spectrum_export.h"

#include "app/io/image_io.h"
#include "app/io/json_writer.h"

#include <fstream>

namespace linescope::io {

namespace {
template <class Sum>
std::string csvOf(const AngleSet& angles, const std::vector<Sum>& sums, const ExportRecipe* recipe) {
    if (angles.count < 0 || sums.size() != static_cast<std::size_t>(angles.count))
        throw IoError("the spectrum has " + std::to_string(sums.size()) + " sums for " +
                      std::to_string(angles.count) + " angles");
    std::string csv;
    if (recipe) {
        const std::string text = recipeText(*recipe);
        for (std::size_t at = 0; at < text.size();) {
            const std::size_t end = text.find('\n', at);
            csv += "# " + text.substr(at, end - at) + "\n";
            at = end == std::string::npos ? text.size() : end + 1;
        }
    }
    csv += "index,angle,sum\n";
    for (int k = 0; k < angles.count; ++k)
        csv += std::to_string(k) + "," + jsonNumber(angles.angle(k)) + "," +
               jsonNumber(sums[static_cast<std::size_t>(k)]) + "\n";
    return csv;
}
}  // namespace

std::string spectrumCsv(const AngleSet& angles, const std::vector<std::int64_t>& sums, const ExportRecipe* recipe) {
    return csvOf(angles, sums, recipe);
}
std::string spectrumCsv(const AngleSet& angles, const std::vector<double>& sums, const ExportRecipe* recipe) {
    return csvOf(angles, sums, recipe);
}

}  // namespace linescope::io
