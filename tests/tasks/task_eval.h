// The evaluation commands of linescope-task-eval; each takes the arguments after its name,
// prints a Markdown table (and writes per-item CSV when asked) and returns the exit status.
#pragma once

#include <string>
#include <vector>

namespace linescope::tasks {

using ArgList = std::vector<std::string>;

int runSkewEval(const ArgList& args);         // tests/tasks/pages/eval_skew.cpp
int runMakeSkewSet(const ArgList& args);      // tests/tasks/pages/skew_dataset.cpp
int runOrientationEval(const ArgList& args);  // tests/tasks/prints/eval_orientation.cpp
int runTextureEval(const ArgList& args);      // tests/tasks/prints/eval_texture.cpp

}  // namespace linescope::tasks
