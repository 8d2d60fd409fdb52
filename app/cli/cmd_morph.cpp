// linescope-cli open|close|erode|dilate|tophat --angle A --length L in out
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/export_recipe.h"
#include "app/io/image_io.h"

#include <cstdio>
#include <filesystem>
#include <string>

namespace linescope::cli {

namespace {
constexpr const char* kHelp =
    "usage: linescope-cli OP --length L [--angle A] [options] IN OUT\n"
    "\n"
    "OP is open, close, erode, dilate or tophat (IN minus its opening): the operator by a\n"
    "digital line segment of L pixels at A degrees (counter-clockwise from East), applied\n"
    "along digital line paths (definitions.md §5, in /usr/share/doc/linescope). OUT keeps\n"
    "IN's pixel type (uint8, uint16, float32): float32 needs a .tiff or .pfm output,\n"
    "uint16 a .png, .tiff or .pgm.\n"
    "\n"
    "options:\n"
    "  --length L         the segment's length in pixels, 1 … 1000000 (longer than the\n"
    "                     image is allowed)\n"
    "  --angle A          degrees, any real number (taken modulo 180; default 0)\n";
}  // namespace

int runMorph(MorphOp op, const ArgList& argList) {
    auto specs = engineOptionSpecs();
    specs.push_back({"--length", true});
    specs.push_back({"--angle", true});
    specs.push_back(forceOptionSpec());
    Args args(argList, specs, morphOpName(op));
    if (args.helpRequested()) return printHelp(args, std::string(kHelp) + kForceHelp + kEngineOptionsHelp);
    args.requirePositionals({"IN", "OUT"});
    LineParams p;
    p.length = lengthFrom(args);
    p.angle = parseReal(args.valueOr("--angle", "0"), "--angle");
    const EngineOptions opt = engineOptionsFrom(args);
    const std::string& in = args.positionals()[0];
    const std::string& out = args.positionals()[1];
    checkOutputs({in}, {out}, args.has("--force"));

    const cv::Mat src = io::readImage(in, notice);
    io::requireWritable(out, src.depth());
    cv::Mat dst(src.size(), src.type());
    io::visitPixelType(src, [&]<class T>(std::type_identity<T>) {
        lineMorph<T>(op, io::viewOf<T>(src), io::mutableViewOf<T>(dst), p, opt);
    });
    io::ExportRecipe recipe;
    recipe.op = morphOpName(op);
    recipe.angle = p.angle;
    recipe.length = p.length;
    recipe.view = "result";
    recipe.source = std::filesystem::path(in).filename().string();
    io::writeImage(out, dst, recipe);
    return 0;
}

}  // namespace linescope::cli
