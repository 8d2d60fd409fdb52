// linescope-cli se --angle A --length L [--line KIND] -o OUT: a line kind's structuring
// element as a mask (PNG or PBM) and a JSON sidecar (app/io/kernel_export.h).
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/atomic_file.h"
#include "app/io/image_io.h"
#include "app/io/kernel_export.h"

#include "compute/line_kernel.h"

#include <filesystem>
#include <iostream>
#include <string>

namespace linescope::cli {

namespace {
constexpr const char* kHelp =
    "usage: linescope-cli se --length L [--angle A] [--line KIND] -o OUT\n"
    "\n"
    "Writes the structuring element of the digital line of L pixels at A degrees as a mask\n"
    "image and a JSON sidecar, so that OpenCV or DIPlib can be given the same pixels:\n"
    "  OUT (.png)   8-bit, 255 in the set and 0 elsewhere, the set's bounding box\n"
    "  OUT (.pbm)   plain PBM, 1 (black) in the set\n"
    "  OUT.json     OUT with its extension replaced by .json: {\"kind\", \"angle\", \"length\",\n"
    "               \"translation_invariant\", \"symmetric\", \"mask\", \"width\", \"height\",\n"
    "               \"anchor\": [x, y], \"offsets\": [[dx, dy], ...]} and, when the set is not\n"
    "               centrally symmetric (even L), \"dilate\": {\"width\", \"height\", \"anchor\",\n"
    "               \"offsets\"}, the reflected kernel\n"
    "The anchor is the origin's column and row in the mask. cv::erode(src, dst, mask, anchor)\n"
    "equals 'linescope-cli erode --line segment' (and periodic); for odd L\n"
    "cv::morphologyEx equals every operator; for even L cv::dilate needs the \"dilate\"\n"
    "kernel and anchor (LineScope's dilation is max f(p − k), definitions.md). Each file is\n"
    "written whole or not at all.\n"
    "\n"
    "options:\n"
    "  --length L         the line's length in pixels, 1 … 100000\n"
    "  --angle A          degrees, any real number (taken modulo 180; default 0)\n"
    "  --out OUT, -o OUT  the mask's file: .png or .pbm (required)\n";

constexpr long long kMaxSeLength = 100'000;

}  // namespace

int runSe(const ArgList& argList) {
    std::vector<OptionSpec> specs{{"--length", true}, {"--angle", true}, {"--out", true}, lineOptionSpec(),
                                  forceOptionSpec(), quietOptionSpec()};
    Args args(withLongOut(argList), specs, "se");
    if (args.helpRequested()) return printHelp(args, std::string(kHelp) + kLineHelp + kForceHelp + kQuietHelp);
    quietFrom(args);
    args.requirePositionals({});
    const auto lengthText = args.value("--length");
    if (!lengthText) throw UsageError("'se' needs --length (the line's length in pixels, λ ≥ 1)");
    const int length = static_cast<int>(parseInteger(*lengthText, "--length", 1, kMaxSeLength));
    const double angle = parseReal(args.valueOr("--angle", "0"), "--angle");
    const LineKind kind = lineKindFrom(args);
    const auto out = args.value("--out");
    if (!out || out->empty()) throw UsageError("'se' needs -o OUT (a .png or .pbm file)");
    const std::string ext = io::extensionOf(*out);
    if (ext != "png" && ext != "pbm")
        throw UsageError("the mask '" + *out + "' must end in .png or .pbm, got '" + (ext.empty() ? "" : "." + ext) + "'");
    const std::string sidecar = std::filesystem::path(*out).replace_extension(".json").string();
    // No inputs; the sidecar and the mask must still be two files.
    checkOutputs({}, {*out, sidecar}, args.has("--force"));

    const LineKernel kernel = lineKernel(kind, angle, length);
    const io::KernelMask k = io::kernelMask(kernel.offsets());
    if (ext == "png") {
        cv::Mat visible;
        k.mask.convertTo(visible, CV_8U, 255);
        io::writeImage(*out, visible);
    } else {
        io::writeFileAtomically(*out, io::kernelPbm(k.mask));
    }
    io::writeFileAtomically(sidecar, io::kernelJson(kernel, std::filesystem::path(*out).filename().string()));
    if (!kernel.translationInvariant())
        notice("line paths are not translation invariant: the mask is the window of the path through the origin "
               "(use --line segment for a kernel that OpenCV applies everywhere)");
    std::cout << "se: " << lineKindName(kind) << ", length " << length << ", angle " << shortNumber(kernel.angle) << ", "
              << k.mask.cols << "x" << k.mask.rows << " anchor (" << k.anchor.x << ", " << k.anchor.y << ") -> " << *out
              << ", " << sidecar << "\n";
    return 0;
}

}  // namespace linescope::cli
