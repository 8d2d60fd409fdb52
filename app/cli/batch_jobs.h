// The commands a batch runs, made from their names and options: shared by `linescope-cli
// batch` and linescope.dask's batches, so that both accept the same options and write the
// same files.
#pragma once

#include "app/cli/command_job.h"

#include <memory>
#include <string>
#include <vector>

namespace linescope::cli {

// COMMAND's job in batch mode, its options checked by COMMAND's own parser (UsageError),
// and its outputs checked to be distinct files. Null when the options ask for --help.
std::unique_ptr<CommandJob> makeBatchJob(const std::string& command, const std::vector<std::string>& options);

// The options as the manifest records them: a JSON array of strings.
std::string optionsJson(const std::vector<std::string>& options);

}  // namespace linescope::cli
