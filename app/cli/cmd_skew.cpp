// linescope-cli skew [--length L] [--angles a:b:s] [--bright-lines] [--deskew OUT] PAGE
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/deskew.h"
#include "app/io/image_io.h"
#include "app/io/json_writer.h"

#include "compute/skew.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

namespace linescope::cli {

namespace {
constexpr const char* kHelp =
    "usage: linescope-cli skew [options] PAGE\n"
    "\n"
    "Estimates the skew of a page or music sheet from the angular spectrum of closings\n"
    "(dark lines on light paper) or openings (--bright-lines) by a long segment, and prints\n"
    "one JSON object on stdout:\n"
    "  {\"angle\": A, \"confidence\": C, \"peak_index\": K, \"length\": L, \"lines\": \"dark\"}\n"
    "A is the angle of the lines in degrees, counter-clockwise positive; C is in 0 … 1.\n"
    "\n"
    "options:\n"
    "  --length L         the segment's length (default: four fifths of the page width,\n"
    "                     at most 251)\n"
    "  --angles A:B:S     the angles searched, stop excluded (default -10:10.25:0.25)\n"
    "  --bright-lines     bright lines on a dark background: openings instead of closings\n"
    "  --deskew OUT       also write PAGE rotated by -A about its centre (same size and\n"
    "                     pixel type, bilinear)\n"
    "  --border B         the border of the deskewed page: replicate (default) or white\n"
    "                     (the type's maximum; for float32 the page's maximum)\n";

}  // namespace

int runSkew(const ArgList& argList) {
    auto specs = engineOptionSpecs();
    specs.push_back({"--length", true});
    specs.push_back({"--angles", true});
    specs.push_back({"--bright-lines", false});
    specs.push_back({"--deskew", true});
    specs.push_back({"--border", true});
    Args args(argList, specs, "skew");
    if (args.helpRequested()) {
        printHelp(kHelp);
        return printHelp(kEngineOptionsHelp);
    }
    args.requirePositionals({"PAGE"});
    SkewParams p;
    p.length = lengthFrom(args, 0);
    p.angles = anglesFrom(args, "-10:10.25:0.25");
    if (p.angles.count > kMaxSweepAngles)
        throw UsageError("--angles gives " + std::to_string(p.angles.count) + " angles; at most " +
                         std::to_string(kMaxSweepAngles) + " are allowed");
    p.darkLines = !args.has("--bright-lines");
    const std::string border = args.valueOr("--border", "replicate");
    if (border != "replicate" && border != "white")
        throw UsageError("--border must be replicate or white, got '" + border + "'");
    const auto deskewOut = args.value("--deskew");
    const EngineOptions opt = engineOptionsFrom(args);

    const cv::Mat page = io::readImage(args.positionals()[0], notice);
    if (deskewOut) io::requireWritable(*deskewOut, page.depth());
    const SkewResult r = io::visitPixelType(page, [&]<class T>(std::type_identity<T>) {
        return estimateSkew<T>(io::viewOf<T>(page), p, opt);
    });
    if (deskewOut) {
        const auto fill = border == "white" ? io::RotationBorder::White : io::RotationBorder::Replicate;
        io::writeImage(*deskewOut, io::deskew(page, r.angle, fill));
    }

    std::string json = "{\"angle\": " + io::jsonNumber(r.angle) + ", \"confidence\": " + io::jsonNumber(r.confidence) +
                       ", \"peak_index\": " + std::to_string(r.peakIndex) + ", \"length\": " +
                       std::to_string(p.length > 0 ? p.length : defaultSkewLength(page.cols, page.rows)) + ", \"lines\": " + io::jsonString(p.darkLines ? "dark" : "bright");
    if (deskewOut) json += ", \"deskewed\": " + io::jsonString(*deskewOut);
    json += "}\n";
    std::fputs(json.c_str(), stdout);
    return 0;
}

}  // namespace linescope::cli
