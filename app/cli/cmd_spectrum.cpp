// linescope-cli spectrum [--op OP] [--length L] [--angles SET] [--peaks N] IMAGE: the angular
// spectrum and its dominant orientations as JSON (texture analysis).
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/image_io.h"
#include "app/io/image_polarity.h"
#include "app/io/json_writer.h"

#include "compute/spectrum_peaks.h"
#include "compute/sweep.h"

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

namespace linescope::cli {

namespace {
constexpr const char* kHelp =
    "usage: linescope-cli spectrum [options] IMAGE\n"
    "\n"
    "The angular spectrum σ(k) = Σ_x OP_k(x) of IMAGE (definitions.md §6) and its dominant\n"
    "orientations: the spectrum's peaks (its maxima for open and erode, its minima for close\n"
    "and dilate), refined by a parabola, strongest first. Prints one JSON object:\n"
    "  {\"op\", \"length\", \"angles\": [...], \"spectrum\": [...],\n"
    "   \"peaks\": [{\"angle\", \"prominence\", \"index\"}, ...], \"time_ms\"}\n"
    "A prominence is the peak's height over the higher of its two valleys, divided by the\n"
    "spectrum's range (0 … 1). Bright strokes on a dark ground: open (default); dark strokes\n"
    "on a light ground: close.\n"
    "\n"
    "options:\n"
    "  --op OP            open (default), close, erode or dilate\n"
    "  --length L         the segment's length (default: a quarter of the image's smaller side)\n"
    "  --angles SET       N angles over 180°, or start:stop:step, stop excluded (default\n"
    "                     0:180:1; a set spanning 180° wraps around, so a peak may sit\n"
    "                     at its seam)\n"
    "  --peaks N          at most N peaks (default 4)\n"
    "  --min-prominence P peaks below P are left out (default 0.1)\n";
// A note when OP does not suit the image's polarity: openings and erosions measure bright
// lines, closings and dilations dark ones (io::meanLevelIsLight tells the background).
void notePolarity(const cv::Mat& image, MorphOp op) {
    const std::optional<bool> lightGround = io::meanLevelIsLight(image);
    if (!lightGround) return;  // a flat image has no lines either way
    const bool light = *lightGround;
    const bool bright = op == MorphOp::Open || op == MorphOp::Erode;
    if (light && bright)
        notice(std::string("the lines look dark on a light background: --op close suits them (--op ") +
               morphOpName(op) + " measures bright lines)");
    else if (!light && !bright)
        notice(std::string("the lines look bright on a dark background: --op open suits them (--op ") +
               morphOpName(op) + " measures dark lines)");
}
}  // namespace

int runSpectrum(const ArgList& argList) {
    auto specs = engineOptionSpecs();
    specs.push_back({"--op", true});
    specs.push_back({"--length", true});
    specs.push_back({"--angles", true});
    specs.push_back({"--peaks", true});
    specs.push_back({"--min-prominence", true});
    Args args(argList, specs, "spectrum");
    if (args.helpRequested()) return printHelp(args, std::string(kHelp) + kEngineOptionsHelp);
    args.requirePositionals({"IMAGE"});
    SweepRequest req;
    req.op = sweepOpFrom(args);
    req.angles = anglesFrom(args, "0:180:1");
    const int maxPeaks = integerFrom(args, "--peaks", 4, 1, 100);
    const double minProminence = numberFrom(args, "--min-prominence", 0.1, 0, 1);
    const EngineOptions opt = engineOptionsFrom(args);
    const cv::Mat image = io::readImage(args.positionals()[0], notice);
    req.length = lengthFrom(args, std::max(1, std::min(image.cols, image.rows) / 4));
    notePolarity(image, req.op);

    const auto start = std::chrono::steady_clock::now();
    const std::vector<double> spectrum = io::visitPixelType(image, [&]<class T>(std::type_identity<T>) {
        return sweep<T>(io::viewOf<T>(image), req, opt).spectrum;
    });
    const bool minimum = req.op == MorphOp::Close || req.op == MorphOp::Dilate;
    const auto peaks = spectrumPeaks(spectrum, req.angles, minimum, maxPeaks, minProminence);
    const double ms = millisecondsSince(start);

    std::string angles, values, peakList;
    for (int k = 0; k < req.angles.count; ++k) {
        angles += (k ? ", " : "") + io::jsonNumber(req.angles.angle(k));
        values += (k ? ", " : "") + io::jsonNumber(spectrum[static_cast<std::size_t>(k)]);
    }
    for (std::size_t i = 0; i < peaks.size(); ++i)
        peakList += std::string(i ? ", " : "") + "{\"angle\": " + io::jsonNumber(peaks[i].angle) +
                    ", \"prominence\": " + io::jsonNumber(peaks[i].prominence) +
                    ", \"index\": " + std::to_string(peaks[i].index) + "}";
    const std::string json = "{\"op\": " + io::jsonString(morphOpName(req.op)) + ", \"length\": " + std::to_string(req.length) +
                             ", \"angles\": [" + angles + "], \"spectrum\": [" + values + "], \"peaks\": [" +
                             peakList + "], \"time_ms\": " + io::jsonNumber(ms) + "}\n";
    std::fputs(json.c_str(), stdout);
    return 0;
}

}  // namespace linescope::cli
