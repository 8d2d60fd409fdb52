#include "ui/copy_as.h"

#include <charconv>
#include <filesystem>

namespace linescope::ui {

namespace {

using session::isSweepPlane;
using session::Plane;

// The field of linescope.sweep's result, and the file of linescope-cli sweep's folder.
const char* sweepField(Plane p) {
    switch (p) {
    case Plane::Supremum: return "sup";
    case Plane::Infimum: return "inf";
    case Plane::Strength: return "strength";
    case Plane::Orientation: return "colours";
    case Plane::Original:
    case Plane::Result: break;
    }
    return "sup";
}
std::string sweepFile(Plane p, bool floatPixels) {
    const std::string ext = floatPixels ? ".tiff" : ".png";
    switch (p) {
    case Plane::Infimum: return "infimum" + ext;
    case Plane::Strength: return "strength" + ext;
    case Plane::Orientation: return "orientation.png";
    case Plane::Supremum:
    case Plane::Original:
    case Plane::Result: break;
    }
    return "supremum" + ext;
}

// The sweep's operator as the session runs it: a top-hat view sweeps openings.
const char* sweepOpName(MorphOp op) { return morphOpName(op == MorphOp::TopHat ? MorphOp::Open : op); }

std::string pythonString(const std::string& s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '\\' || c == '"') out += '\\';
        if (c == '\n') out += "\\n";
        else out += c;
    }
    return out + "\"";
}

// A word for a POSIX shell: as is when it holds only safe characters, else single-quoted.
std::string shellWord(const std::string& s) {
    const bool safe = !s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                        "0123456789_-+=.,:/@%") == std::string::npos;
    if (safe) return s;
    std::string out = "'";
    for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string stemOf(const std::string& file) {
    const std::string stem = std::filesystem::path(file).stem().string();
    return stem.empty() ? "image" : stem;
}

std::string resultName(const CopyAsState& s) {
    const auto& p = s.params;
    return stemOf(s.file) + "-" + morphOpName(p.op) + "-" + exactNumber(p.angle) + "deg-L" + std::to_string(p.length) +
           (s.floatPixels ? ".tiff" : ".png");
}
std::string sweepFolder(const CopyAsState& s) {
    return stemOf(s.file) + "-sweep-" + sweepOpName(s.params.op) + "-L" + std::to_string(s.params.length);
}

// The line kind's words, left out for the default (line paths) as the CLI and Python default to it.
std::string pythonLine(const session::Parameters& p) {
    return p.kind == LineKind::Paths ? "" : std::string(", line=") + pythonString(lineKindName(p.kind));
}
std::string cliLine(const session::Parameters& p) {
    return p.kind == LineKind::Paths ? "" : std::string(" --line ") + lineKindName(p.kind);
}

std::string pythonResultCall(const session::Parameters& p) {
    return std::string("linescope.") + morphOpName(p.op) + "(img, angle=" + exactNumber(p.angle) +
           ", length=" + std::to_string(p.length) + pythonLine(p) + ")";
}
std::string pythonSweepCall(const session::Parameters& p) {
    return "linescope.sweep(img, length=" + std::to_string(p.length) + ", angles=" +
           pythonString(angleSetWords(p.angles)) + ", op=" + pythonString(sweepOpName(p.op)) + pythonLine(p) + ")";
}

std::string cliResultCommand(const CopyAsState& s) {
    const auto& p = s.params;
    return std::string("linescope-cli ") + morphOpName(p.op) + " --angle " + exactNumber(p.angle) + " --length " +
           std::to_string(p.length) + cliLine(p) + " " + shellWord(s.file) + " " + shellWord(resultName(s));
}
std::string cliSweepCommand(const CopyAsState& s) {
    const auto& p = s.params;
    return "linescope-cli sweep --length " + std::to_string(p.length) + " --angles " + angleSetWords(p.angles) +
           " --op " + sweepOpName(p.op) + cliLine(p) + " " + shellWord(s.file) + " --out-dir " +
           shellWord(sweepFolder(s));
}

std::string contourWords(const session::ContourParams& c, bool python) {
    if (python)
        return std::string(", mode=\"") + contourModeName(c.mode) + "\", approx=\"" + contourApproxName(c.approx) +
               "\", threshold=" + exactNumber(c.threshold) + ")";
    return " --threshold " + exactNumber(c.threshold) + " --mode " + contourModeName(c.mode) + " --approx " +
           contourApproxName(c.approx);
}

// Python and the shell share the comment sign.
constexpr const char* kDeskewNote =
    "# The window's image was deskewed (Edit > Undo Deskew): this reads the file as saved.\n";

}  // namespace

std::string exactNumber(double v) {
    if (v == 0) return "0";  // not "-0"
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : "nan";
}

std::string angleSetWords(const AngleSet& a) {
    const AngleSet even = AngleSet::overHalfTurn(a.count);
    if (a.start == even.start && a.step == even.step) return std::to_string(a.count);
    return exactNumber(a.start) + ":" + exactNumber(a.start + a.step * a.count) + ":" + exactNumber(a.step);
}

std::string copyAsPython(const CopyAsState& s) {
    std::string text = s.deskewed ? kDeskewNote : "";
    text += "import linescope\nimg = linescope.imread(" + pythonString(s.file) + ")\n";
    const session::Parameters& p = s.params;
    if (s.contours) {
        std::string source = "img";
        if (s.contourSource == Plane::Result) {
            text += "result = " + pythonResultCall(p) + "\n";
            source = "result";
        } else if (isSweepPlane(s.contourSource)) {
            text += "sweep = " + pythonSweepCall(p) + "\n";
            source = std::string("sweep.") + sweepField(s.contourSource);
        }
        return text + "contours, hierarchy = linescope.contours(" + source + contourWords(p.contours, true) + "\n";
    }
    if (isSweepPlane(s.view))
        return text + "sweep = " + pythonSweepCall(p) + "\nplane = sweep." + sweepField(s.view) + "\n";
    return text + "result = " + pythonResultCall(p) + "\n";
}

std::string copyAsCommandLine(const CopyAsState& s) {
    std::string text = s.deskewed ? kDeskewNote : "";
    if (s.contours) {
        std::string source = shellWord(s.file);
        if (s.contourSource == Plane::Result) {
            text += cliResultCommand(s) + "\n";
            source = shellWord(resultName(s));
        } else if (isSweepPlane(s.contourSource)) {
            text += cliSweepCommand(s) + "\n";
            source = shellWord(sweepFolder(s) + "/" + sweepFile(s.contourSource, s.floatPixels));
        }
        return text + "linescope-cli contours" + contourWords(s.params.contours, false) + " " + source + " --json " +
               shellWord(stemOf(s.file) + "-contours.json") + "\n";
    }
    if (isSweepPlane(s.view))
        return text + cliSweepCommand(s) + "  # the view: " + sweepFolder(s) + "/" +
               sweepFile(s.view, s.floatPixels) + "\n";
    return text + cliResultCommand(s) + "\n";
}

}  // namespace linescope::ui
