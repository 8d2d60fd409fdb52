#include "app/io/spectrum_export.h"

#include "app/io/image_io.h"
#include "app/io/json_writer.h"

#include <fstream>

namespace linescope::io {

namespace {
template <class Sum>
std::string csvOf(const AngleSet& angles, const std::vector<Sum>& sums) {
    if (angles.count < 0 || sums.size() != static_cast<std::size_t>(angles.count))
        throw IoError("the spectrum has " + std::to_string(sums.size()) + " sums for " +
                      std::to_string(angles.count) + " angles");
    std::string csv = "index,angle,sum\n";
    for (int k = 0; k < angles.count; ++k)
        csv += std::to_string(k) + "," + jsonNumber(angles.angle(k)) + "," +
               jsonNumber(sums[static_cast<std::size_t>(k)]) + "\n";
    return csv;
}
}  // namespace

std::string spectrumCsv(const AngleSet& angles, const std::vector<std::int64_t>& sums) { return csvOf(angles, sums); }
std::string spectrumCsv(const AngleSet& angles, const std::vector<double>& sums) { return csvOf(angles, sums); }

}  // namespace linescope::io
