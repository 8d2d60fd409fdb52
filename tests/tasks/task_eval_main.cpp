// linescope-task-eval: measures the engine on the users' tasks against known truth and peers.
#include "tests/tasks/task_eval.h"

#include <cstdio>
#include <exception>
#include <string>

namespace {
constexpr const char* kUsage =
    "usage: linescope-task-eval COMMAND [options]\n"
    "  skew DATASET_DIR [...]   skew of rotated, degraded pages: LineScope, Leptonica, Hough, radial projection\n"
    "  make-skew-set CLEAN_DIR OUT_DIR [...]  the skew data set from clean pages\n"
    "  orientation [...]        fingerprint orientation fields: LineScope vs structure tensor\n"
    "  texture [...]            dominant orientations of textures from the spectrum's peaks\n"
    "Each command takes --help.\n";
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    const std::string cmd = argv[1];
    const linescope::tasks::ArgList args(argv + 2, argv + argc);
    try {
#ifdef LINESCOPE_TASKS_PAGES
        if (cmd == "skew") return linescope::tasks::runSkewEval(args);
        if (cmd == "make-skew-set") return linescope::tasks::runMakeSkewSet(args);
#endif
#ifdef LINESCOPE_TASKS_PRINTS
        if (cmd == "orientation") return linescope::tasks::runOrientationEval(args);
        if (cmd == "texture") return linescope::tasks::runTextureEval(args);
#endif
        if (cmd == "--help" || cmd == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        std::fprintf(stderr, "linescope-task-eval: unknown command '%s'\n%s", cmd.c_str(), kUsage);
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "linescope-task-eval %s: %s\n", cmd.c_str(), e.what());
        return 1;
    }
}
