// linescope-cli: morphology by digital line segments at any angle, from the command line.
// Every error is one line on stderr, "linescope-cli: error: …", with exit status 2 for
// usage mistakes and 1 for everything else.
#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "app/cli/failure.h"
#include "compute/faults/fault_injection.h"
#include "app/cli/common.h"
#include "app/io/image_io.h"

#include "compute/backend.h"
#include "compute/image.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#ifndef LINESCOPE_VERSION
#define LINESCOPE_VERSION "unknown"
#endif

namespace {

constexpr const char* kHelp =
    "usage: linescope-cli COMMAND [options] [files]\n"
    "\n"
    "Morphology by digital line segments at any angle (LineScope " LINESCOPE_VERSION ").\n"
    "\n"
    "commands:\n"
    "  open, close, erode, dilate, tophat\n"
    "                 one operator by a segment: linescope-cli open --angle 30.5 --length 41 in.png out.png\n"
    "  sweep          supremum, infimum, orientation, strength and angular spectrum over many\n"
    "                 angles: linescope-cli sweep --length 41 --angles 0:180:1 in.png --out-dir DIR\n"
    "  skew           the skew of a page as JSON: linescope-cli skew page.png [--deskew out.png]\n"
    "  orientation    a block orientation field as JSON (fingerprints): linescope-cli orientation print.png\n"
    "  spectrum       the angular spectrum and its peaks as JSON (textures): linescope-cli spectrum tex.png\n"
    "  se             a line's structuring element as a mask and JSON, for OpenCV or DIPlib:\n"
    "                 linescope-cli se --angle 30 --length 41 --line segment -o se.png\n"
    "  granulometry   the size distribution along lines, S(λ) for λ = 1 … L+1, and its pattern\n"
    "                 spectrum as CSV or JSON: linescope-cli granulometry --angle 0 --max-length 64 in.png\n"
    "  contours       borders of a thresholded image: linescope-cli contours --threshold 128 in.png --json out.json\n"
    "  bench          the engine against OpenCV: linescope-cli bench [--quick]\n"
    "  batch          any of the above but bench over many files, resumable, with progress:\n"
    "                 linescope-cli batch --inputs scans --out-dir OUT skew --deskew .deskewed.png\n"
    "\n"
    "  linescope-cli COMMAND --help   the options of a command\n"
    "  linescope-cli --version        the version\n"
    "\n"
    "Images: PNG, TIFF, PGM/PPM, PFM, JPEG, BMP read through OpenCV; uint8, uint16 and float32\n"
    "pixels. Colour images become grayscale and float64/float16 become float32 (each with a\n"
    "note on stderr); signed integer images are an error. float32 results need .tiff or .pfm,\n"
    "uint16 results .png, .tiff or .pgm.\n"
    "\n"
    "Exit status: 0 success, 1 failure (files, images, the engine), 2 usage mistakes; errors\n"
    "are one line on stderr starting with \"linescope-cli: error: \".\n";

constexpr const char* kCommands[] = {"open",     "close",       "erode",    "dilate",   "tophat", "sweep",
                                     "skew",     "orientation", "spectrum", "contours", "bench", "batch", "se",
                                     "granulometry"};

// Levenshtein distance: insertions, deletions and substitutions of one character each.
std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

// " (did you mean 'open'?)" for the nearest command at most 2 edits away, else "".
std::string didYouMean(const std::string& word) {
    const char* best = nullptr;
    std::size_t bestDistance = 3;
    for (const char* c : kCommands)
        if (const std::size_t d = editDistance(word, c); d < bestDistance) best = c, bestDistance = d;
    return best ? std::string(" (did you mean '") + best + "'?)" : std::string();
}

int fail(const linescope::cli::Failure& failure) {
    std::cerr << "linescope-cli: error: " << failure.message << std::endl;
    return failure.status;
}

int dispatch(const std::vector<std::string>& all) {
    using namespace linescope;
    using namespace linescope::cli;
    if (all.empty()) throw UsageError("missing command (see linescope-cli --help)");
    const std::string& cmd = all[0];
    const ArgList rest(all.begin() + 1, all.end());
    if (cmd == "--help" || cmd == "-h" || cmd == "help") return printHelp(kHelp);
    if (cmd == "--version") {
        std::printf("linescope-cli %s (OpenCV %s)\n", LINESCOPE_VERSION, CV_VERSION);
        // Which engine --backend auto picks here, and why: "is my GPU used?" in one command.
        std::string why;
        if (backendAvailable(Backend::Cuda, &why))
            std::printf("backend auto: cuda, %s\n", cudaDeviceDescription().c_str());
        else
            std::printf("backend auto: cpu; cuda is unavailable: %s\n", why.c_str());
        return 0;
    }
    if (cmd == "open" || cmd == "close" || cmd == "erode" || cmd == "dilate" || cmd == "tophat")
        return runMorph(parseMorphOp(cmd), rest);
    if (cmd == "sweep") return runSweep(rest);
    if (cmd == "skew") return runSkew(rest);
    if (cmd == "spectrum") return runSpectrum(rest);
    if (cmd == "orientation") return runOrientation(rest);
    if (cmd == "contours") return runContours(rest);
    if (cmd == "se") return runSe(rest);
    if (cmd == "granulometry") return runGranulometry(rest);
    if (cmd == "bench") return runBench(rest);
    if (cmd == "batch") return runBatch(rest);
    if (!cmd.empty() && cmd[0] == '-') throw UsageError("unknown option '" + cmd + "' (see linescope-cli --help)");
    const std::string hint = didYouMean(cmd);
    throw UsageError("unknown command '" + cmd + "'" + (hint.empty() ? " (see linescope-cli --help)" : hint));
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    try {
        linescope::faults::armFaultsFromEnvironment();  // the tests' seam; off unless set
        const int status = dispatch(args);
        linescope::cli::flushNotices();
        return status;
    } catch (...) {
        return fail(linescope::cli::describeFailure(std::current_exception()));
    }
}
