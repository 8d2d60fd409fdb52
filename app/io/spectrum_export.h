// The angular spectrum σ(α_k) as CSV ("index,angle,sum"), written by linescope-cli sweep and by
// the desktop app's File > Export: one format, one writer. Plain functions, any thread.
#pragma once

#include "app/io/export_recipe.h"
#include "app/io/text_file.h"

#include "compute/sweep.h"

#include <cstdint>
#include <string>
#include <vector>

namespace linescope::io {

// With a recipe, first its parameters as comment lines, one "# key=value" each ("# op=open",
// "# length=41", "# angles=0:180:1", "# source=…": recipeText's lines), which CSV readers skip
// (pandas' comment='#', numpy.loadtxt). Then "index,angle,sum" and one row per angle k: k, α_k
// and σ(k). Angles and double sums are the shortest text that reads back as the same double;
// int64 sums (integer images) are exact integers. Throws IoError when `sums` does not hold
// one value per angle.
std::string spectrumCsv(const AngleSet& angles, const std::vector<std::int64_t>& sums,
                        const ExportRecipe* recipe = nullptr);
std::string spectrumCsv(const AngleSet& angles, const std::vector<double>& sums, const ExportRecipe* recipe = nullptr);

// spectrumCsv(angles, sums, recipe) written to `path`. Throws IoError.
template <class Sum>
void writeSpectrumCsv(const std::string& path, const AngleSet& angles, const std::vector<Sum>& sums,
                      const ExportRecipe* recipe = nullptr) {
    writeTextFile(path, spectrumCsv(angles, sums, recipe));
}

}  // namespace linescope::io
