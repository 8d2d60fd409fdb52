// How an exported image was made, carried inside the file: a PNG's iTXt chunks ("Software",
// "Source", "Description") and a TIFF's ImageDescription tag (270). OpenCV's encoders write
// no text, so the text goes into the encoded bytes here. Plain functions, any thread.
#pragma once

#include "compute/sweep.h"

#include <optional>
#include <string>
#include <string_view>

namespace linescope::io {

struct ExportRecipe {
    std::string op;                // "open", "close", …; for a sweep, the sweep's operator
    std::optional<double> angle;   // a single operator's angle in degrees; none for a sweep
    int length = 0;                // λ in pixels
    std::string angles;            // a sweep's angle set, "0:180:1"; empty for a single angle
    std::string lines = "paths";   // the line definition (docs/definitions.md)
    std::string source;            // the input image's file name
    std::string view;              // what the image shows ("result", "supremum", …); may be empty
    std::string version;           // LineScope's version; linescopeVersion() when empty
};

// An angle set as "start:stop:step" (stop excluded), the spelling --angles and the window take.
std::string angleSetText(const AngleSet& angles);

// The name an export proposes, without extension, from the image's name without its
// extension (`stem`) and the recipe: "IMAGE-open-30.0deg-L41" for one operator (angle to one
// decimal; "IMAGE-lesson-open-30.0deg-L41" for the lesson's canvas), "IMAGE-orientation-open-
// L41-180angles" for a sweep's view, "IMAGE-original" for the image itself (no operator).
std::string exportBaseName(const std::string& stem, const ExportRecipe& recipe);

// The version this build carries ("unknown" when the build did not say).
std::string linescopeVersion();

// The recipe as "key=value" lines (op, angle, length, angles, lines, view, source, software),
// leaving out what is empty. parseRecipeText reads them back.
std::string recipeText(const ExportRecipe& recipe);
ExportRecipe parseRecipeText(std::string_view text);

// `png` with an iTXt chunk KEYWORD/TEXT (UTF-8) added before IEND. Throws IoError when the
// bytes are not a PNG with an IEND chunk.
std::string withPngText(std::string_view png, const std::string& keyword, const std::string& text);

// `tiff` whose first image directory carries `text` as ImageDescription (tag 270): a copy of
// the directory with the tag, appended, and the header pointed at it. Throws IoError when
// the bytes are not a classic TIFF.
std::string withTiffDescription(std::string_view tiff, const std::string& text);

// The encoded image `bytes` (PNG or TIFF, from `extension`) with the recipe inside; other
// formats are returned unchanged (they carry no text).
std::string withRecipe(std::string_view bytes, const std::string& extension, const ExportRecipe& recipe);

}  // namespace linescope::io
