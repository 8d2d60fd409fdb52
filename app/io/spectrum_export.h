// The angular spectrum σ(α_k) as CSV ("index,angle,sum"), written by linescope-cli sweep and by
// the desktop app's File > Export: one format, one writer. Plain functions, any thread.
#pragma once

#include "app/io/text_file.h"

#include "compute/sweep.h"

#include <cstdint>
#include <string>
#include <vector>

namespace linescope::io {

// "index,angle,sum" then one row per angle k: k, α_k and σ(k). Angles and double sums are the
// shortest text that reads back as the same double; int64 sums (integer images) are exact
// integers. Throws IoError when `sums` does not hold one value per angle.
std::string spectrumCsv(const AngleSet& angles, const std::vector<std::int64_t>& sums);
std::string spectrumCsv(const AngleSet& angles, const std::vector<double>& sums);


// spectrumCsv(angles, sums) written to `path`. Throws IoError.
template <class Sum>
void writeSpectrumCsv(const std::string& path, const AngleSet& angles, const std::vector<Sum>& sums) {
    writeTextFile(path, spectrumCsv(angles, sums));
}

}  // namespace linescope::io
