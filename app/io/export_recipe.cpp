#include "app/io/export_recipe.h"

#include "app/io/image_io.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#ifndef LINESCOPE_VERSION
#define LINESCOPE_VERSION "unknown"
#endif

namespace linescope::io {

namespace {

// Byte order of the file being patched: PNG is always big-endian, TIFF says which.
struct ByteOrder {
    bool little = false;
    std::uint32_t get(std::string_view b, std::size_t at, int size) const {
        if (at + static_cast<std::size_t>(size) > b.size()) throw IoError("the encoded image is truncated");
        std::uint32_t v = 0;
        for (int i = 0; i < size; ++i) {
            const auto byte = static_cast<std::uint8_t>(b[at + static_cast<std::size_t>(little ? size - 1 - i : i)]);
            v = (v << 8) | byte;
        }
        return v;
    }
    void put(std::string& b, std::size_t at, std::uint32_t v, int size) const {
        for (int i = 0; i < size; ++i) {
            const int shift = 8 * (little ? i : size - 1 - i);
            b[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> shift) & 0xff);
        }
    }
    void append(std::string& b, std::uint32_t v, int size) const {
        b.resize(b.size() + static_cast<std::size_t>(size));
        put(b, b.size() - static_cast<std::size_t>(size), v, size);
    }
};

std::string angleText(double a) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", a);
    return buf;
}

}  // namespace

std::string angleSetText(const AngleSet& a) {
    return angleText(a.start) + ":" + angleText(a.start + a.step * a.count) + ":" + angleText(a.step);
}

std::string exportBaseName(const std::string& stem, const ExportRecipe& r) {
    if (r.op.empty()) return stem + "-" + (r.view.empty() ? std::string("original") : r.view);
    const std::string length = "-L" + std::to_string(r.length);
    if (r.angle) {
        char angle[48];
        std::snprintf(angle, sizeof angle, "-%.1fdeg", *r.angle);
        // A single operator's view is its result; the lesson's canvas says it is one.
        std::string name = stem;
        if (!r.view.empty() && r.view != "result") name.append("-").append(r.view);
        return name.append("-").append(r.op).append(angle).append(length);
    }
    const std::string view = r.view.empty() ? std::string() : "-" + r.view;
    const std::string count = r.angles.empty() ? std::string() : "-" + std::to_string(AngleSet::parse(r.angles).count) + "angles";
    return stem + view + "-" + r.op + length + count;
}

std::string linescopeVersion() { return LINESCOPE_VERSION; }

std::string recipeText(const ExportRecipe& r) {
    std::string text;
    const auto line = [&](const char* key, const std::string& value) {
        if (!value.empty()) text += std::string(key) + "=" + value + "\n";
    };
    line("op", r.op);
    if (r.angle) line("angle", angleText(*r.angle));
    if (r.length > 0) line("length", std::to_string(r.length));
    line("angles", r.angles);
    line("lines", r.lines);
    line("view", r.view);
    line("source", r.source);
    line("software", "LineScope " + (r.version.empty() ? linescopeVersion() : r.version));
    return text;
}

ExportRecipe parseRecipeText(std::string_view text) {
    ExportRecipe r;
    r.lines.clear();
    while (!text.empty()) {
        const std::size_t end = std::min(text.find('\n'), text.size());
        const std::string_view line = text.substr(0, end);
        text.remove_prefix(std::min(end + 1, text.size()));
        const std::size_t eq = line.find('=');
        if (eq == std::string_view::npos) continue;
        const std::string key(line.substr(0, eq)), value(line.substr(eq + 1));
        if (key == "op") r.op = value;
        else if (key == "angle") r.angle = std::stod(value);
        else if (key == "length") r.length = std::stoi(value);
        else if (key == "angles") r.angles = value;
        else if (key == "lines") r.lines = value;
        else if (key == "view") r.view = value;
        else if (key == "source") r.source = value;
        else if (key == "software" && value.rfind("LineScope ", 0) == 0) r.version = value.substr(10);
    }
    return r;
}

std::string withPngText(std::string_view png, const std::string& keyword, const std::string& text) {
    static constexpr std::string_view kSignature("\x89PNG\r\n\x1a\n", 8);
    if (png.substr(0, 8) != kSignature) throw IoError("the encoded image is not a PNG");
    const ByteOrder be;
    std::size_t at = 8;  // walk the chunks to IEND's start
    while (png.substr(at + 4, 4) != "IEND") {
        at += 12 + be.get(png, at, 4);
        if (at + 8 > png.size()) throw IoError("the encoded PNG has no IEND chunk");
    }
    // iTXt: keyword, NUL, uncompressed (0, 0), empty language tag and translated keyword, UTF-8 text.
    std::string chunk = "iTXt" + keyword + std::string("\0\0\0\0\0", 5) + text;
    std::string out(png.substr(0, at));
    be.append(out, static_cast<std::uint32_t>(chunk.size() - 4), 4);
    out += chunk;
    be.append(out, static_cast<std::uint32_t>(::crc32(0, reinterpret_cast<const Bytef*>(chunk.data()),
                                                       static_cast<uInt>(chunk.size()))), 4);
    out += png.substr(at);
    return out;
}

std::string withTiffDescription(std::string_view tiff, const std::string& text) {
    ByteOrder bo;
    if (tiff.substr(0, 4) == std::string_view("II*\0", 4)) bo.little = true;
    else if (tiff.substr(0, 4) != std::string_view("MM\0*", 4)) throw IoError("the encoded image is not a classic TIFF");
    constexpr std::uint32_t kImageDescription = 270, kAscii = 2;
    const std::uint32_t ifd = bo.get(tiff, 4, 4);
    const std::uint32_t count = bo.get(tiff, ifd, 2);
    struct Entry { std::uint32_t tag; std::string bytes; };
    std::vector<Entry> entries;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::size_t e = ifd + 2 + 12 * static_cast<std::size_t>(i);
        if (e + 12 > tiff.size()) throw IoError("the encoded TIFF is truncated");
        const std::uint32_t tag = bo.get(tiff, e, 2);
        if (tag != kImageDescription) entries.push_back({tag, std::string(tiff.substr(e, 12))});
    }
    const std::uint32_t next = bo.get(tiff, ifd + 2 + 12 * static_cast<std::size_t>(count), 4);

    // Appended: the text (NUL-terminated), then the new directory, each at an even offset.
    // Every offset the old entries hold points before the end, so they stay valid.
    std::string out(tiff);
    if (out.size() % 2) out += '\0';
    const auto textAt = static_cast<std::uint32_t>(out.size());
    out += text;
    out += '\0';
    if (out.size() % 2) out += '\0';
    std::string desc;
    bo.append(desc, kImageDescription, 2);
    bo.append(desc, kAscii, 2);
    bo.append(desc, static_cast<std::uint32_t>(text.size() + 1), 4);
    bo.append(desc, textAt, 4);
    entries.push_back({kImageDescription, desc});
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.tag < b.tag; });
    const auto newIfd = static_cast<std::uint32_t>(out.size());
    bo.append(out, static_cast<std::uint32_t>(entries.size()), 2);
    for (const Entry& e : entries) out += e.bytes;
    bo.append(out, next, 4);
    bo.put(out, 4, newIfd, 4);
    return out;
}

std::string withRecipe(std::string_view bytes, const std::string& extension, const ExportRecipe& recipe) {
    if (extension == "png") {
        std::string out = withPngText(bytes, "Software", "LineScope " + (recipe.version.empty() ? linescopeVersion() : recipe.version));
        if (!recipe.source.empty()) out = withPngText(out, "Source", recipe.source);
        return withPngText(out, "Description", recipeText(recipe));
    }
    if (extension == "tif" || extension == "tiff") return withTiffDescription(bytes, recipeText(recipe));
    return std::string(bytes);
}

}  // namespace linescope::io
