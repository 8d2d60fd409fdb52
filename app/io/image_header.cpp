#include "app/io/image_header.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <initializer_list>
#include <fstream>
#include <set>
#include <vector>

namespace linescope::io {

double ImageHeader::decodedBytes() const {
    const int bytes = bitsPerSample <= 8 ? 1 : (bitsPerSample + 7) / 8;
    return static_cast<double>(width) * static_cast<double>(height) * channels * bytes;
}

namespace {

// Random access to the first bytes of a file, reading nothing twice.
class Bytes {
public:
    explicit Bytes(const std::string& path) : in_(path, std::ios::binary) {}
    bool ok() const { return static_cast<bool>(in_); }

    // n bytes at `offset`, or an empty vector when the file is shorter.
    std::vector<unsigned char> at(std::uint64_t offset, std::size_t n) {
        std::vector<unsigned char> b(n);
        in_.clear();
        in_.seekg(static_cast<std::streamoff>(offset));
        in_.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(n));
        if (in_.gcount() != static_cast<std::streamsize>(n)) b.clear();
        return b;
    }

    // Up to n bytes at `offset` (fewer at the end of the file).
    std::vector<unsigned char> upTo(std::uint64_t offset, std::size_t n) {
        std::vector<unsigned char> b(n);
        in_.clear();
        in_.seekg(static_cast<std::streamoff>(offset));
        in_.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(n));
        b.resize(static_cast<std::size_t>(std::max<std::streamsize>(in_.gcount(), 0)));
        return b;
    }

private:
    std::ifstream in_;
};

std::uint32_t be(const unsigned char* p, int n) {
    std::uint32_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
    return v;
}
std::uint32_t le(const unsigned char* p, int n) {
    std::uint32_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

std::optional<ImageHeader> png(Bytes& f) {
    const auto b = f.at(0, 26);  // signature, IHDR length and type, width, height, depth, colour type
    if (b.empty() || be(&b[12], 4) != 0x49484452u) return std::nullopt;  // "IHDR"
    ImageHeader h{"PNG", be(&b[16], 4), be(&b[20], 4)};
    h.bitsPerSample = b[24];
    switch (b[25]) {
    case 0: h.channels = 1; break;
    case 2: h.channels = 3; break;
    case 3: h.channels = 4; h.bitsPerSample = 8; break;  // palette: BGR or BGRA
    case 4: h.channels = 2; break;
    case 6: h.channels = 4; break;
    default: return std::nullopt;
    }
    return h;
}

std::optional<ImageHeader> tiff(Bytes& f) {
    const auto head = f.at(0, 8);
    if (head.empty()) return std::nullopt;
    const bool little = head[0] == 'I';
    const auto u = [&](const unsigned char* p, int n) { return little ? le(p, n) : be(p, n); };
    if (u(&head[2], 2) != 42) return std::nullopt;  // 43 is BigTIFF: left to the decoder
    ImageHeader h{"TIFF"};
    std::uint64_t ifd = u(&head[4], 4);
    std::set<std::uint64_t> seen;
    h.pages = 0;
    while (ifd != 0 && seen.insert(ifd).second && h.pages < 100000) {
        const auto countBytes = f.at(ifd, 2);
        if (countBytes.empty()) break;
        const std::uint32_t count = u(countBytes.data(), 2);
        const auto entries = f.at(ifd + 2, 12u * count + 4);
        if (entries.empty()) break;
        if (h.pages == 0) {
            for (std::uint32_t i = 0; i < count; ++i) {
                const unsigned char* e = &entries[12u * i];
                const std::uint32_t tag = u(e, 2), type = u(e + 2, 2), n = u(e + 4, 4);
                // A SHORT's value sits in the first two bytes of the value field; a LONG
                // fills it. BitsPerSample with more than two samples points elsewhere: all
                // samples share a size in the files LineScope reads, so take the first.
                std::uint32_t value = type == 3 ? u(e + 8, 2) : u(e + 8, 4);
                if (tag == 258 && type == 3 && n > 2) {
                    const auto v = f.at(u(e + 8, 4), 2);
                    value = v.empty() ? 0 : u(v.data(), 2);
                }
                switch (tag) {
                case 256: h.width = value; break;
                case 257: h.height = value; break;
                case 258: h.bitsPerSample = static_cast<int>(value); break;
                case 277: h.channels = static_cast<int>(value); break;
                case 339: h.sample = value == 2 ? SampleKind::Signed : value == 3 ? SampleKind::Float : SampleKind::Unsigned; break;
                default: break;
                }
            }
        }
        ++h.pages;
        ifd = u(&entries[12u * count], 4);
    }
    if (h.pages == 0 || h.width <= 0 || h.height <= 0) return std::nullopt;
    return h;
}

std::optional<ImageHeader> jpeg(Bytes& f) {
    std::uint64_t pos = 2;
    for (int markers = 0; markers < 1000; ++markers) {
        const auto m = f.at(pos, 4);
        if (m.empty() || m[0] != 0xFF) return std::nullopt;
        const int type = m[1];
        const std::uint32_t length = be(&m[2], 2);
        const bool sof = (type >= 0xC0 && type <= 0xCF) && type != 0xC4 && type != 0xC8 && type != 0xCC;
        if (sof) {
            const auto s = f.at(pos + 4, 6);
            if (s.empty()) return std::nullopt;
            ImageHeader h{"JPEG", be(&s[3], 2), be(&s[1], 2)};
            h.bitsPerSample = s[0];
            h.channels = s[5] == 1 ? 1 : 3;
            return h;
        }
        if (length < 2) return std::nullopt;
        pos += 2 + length;
    }
    return std::nullopt;
}

// "P5 640 480 255": tokens separated by white space, '#' comments to the end of the line.
std::optional<ImageHeader> pnm(Bytes& f) {
    std::vector<unsigned char> text = f.at(0, 512);
    if (text.empty()) {
        for (std::size_t n = 511; n >= 16 && text.empty(); n /= 2) text = f.at(0, n);  // short files
        if (text.empty()) return std::nullopt;
    }
    std::vector<std::string> tokens;
    std::string tok;
    for (std::size_t i = 0; i < text.size() && tokens.size() < 4; ++i) {
        const char c = static_cast<char>(text[i]);
        if (c == '#') {
            while (i < text.size() && text[i] != '\n') ++i;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            if (!tok.empty()) tokens.push_back(tok), tok.clear();
        } else {
            tok += c;
        }
    }
    if (tokens.size() < 3) return std::nullopt;
    const char kind = tokens[0].size() == 2 ? tokens[0][1] : 0;
    ImageHeader h{"PNM"};
    try {
        h.width = std::stoll(tokens[1]);
        h.height = std::stoll(tokens[2]);
        if (kind == 'F' || kind == 'f') {
            h.format = "PFM";
            h.channels = kind == 'F' ? 3 : 1;
            h.bitsPerSample = 32;
            h.sample = SampleKind::Float;
        } else if (kind >= '1' && kind <= '6') {
            h.channels = (kind == '3' || kind == '6') ? 3 : 1;
            const bool bitmap = kind == '1' || kind == '4';
            h.bitsPerSample = !bitmap && tokens.size() > 3 && std::stoll(tokens[3]) > 255 ? 16 : 8;
        } else {
            return std::nullopt;
        }
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if (h.width <= 0 || h.height <= 0) return std::nullopt;
    return h;
}

std::optional<ImageHeader> bmp(Bytes& f) {
    const auto b = f.at(0, 30);
    if (b.empty() || le(&b[14], 4) < 12) return std::nullopt;
    const auto width = static_cast<std::int32_t>(le(&b[18], 4));
    const auto height = static_cast<std::int32_t>(le(&b[22], 4));
    ImageHeader h{"BMP", width, height < 0 ? -static_cast<std::int64_t>(height) : height};
    h.channels = le(&b[28], 2) == 32 ? 4 : 3;  // 8-bit palettes decode as gray or BGR: 3 bounds both
    return h;
}

}  // namespace

std::optional<std::string> imageFormatOf(const std::string& path) {
    Bytes f(path);
    if (!f.ok()) return std::nullopt;
    auto m = f.upTo(0, 12);
    if (m.size() < 3) return std::nullopt;
    const auto starts = [&](std::initializer_list<int> bytes) {
        std::size_t i = 0;
        for (int b : bytes)
            if (i >= m.size() || m[i++] != static_cast<unsigned char>(b)) return false;
        return true;
    };
    const bool space2 = std::isspace(m[2]) != 0;
    m.resize(12, 0);  // the WebP test reads bytes 8 to 11
    if (starts({0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'})) return "PNG";
    if (starts({'I', 'I', 42, 0}) || starts({'M', 'M', 0, 42}) || starts({'I', 'I', 43, 0}) || starts({'M', 'M', 0, 43}))
        return "TIFF";
    if (starts({0xFF, 0xD8, 0xFF})) return "JPEG";
    if (m[0] == 'P' && m[1] >= '1' && m[1] <= '7' && space2) return "PNM";
    if (m[0] == 'P' && (m[1] == 'F' || m[1] == 'f') && space2) return "PFM";
    if (starts({'B', 'M'})) return "BMP";
    if (starts({'R', 'I', 'F', 'F'}) && m[8] == 'W' && m[9] == 'E' && m[10] == 'B' && m[11] == 'P') return "WebP";
    if (starts({0, 0, 0, 0x0C, 'j', 'P', ' ', ' '}) || starts({0xFF, 0x4F, 0xFF, 0x51})) return "JPEG 2000";
    if (starts({0x76, 0x2F, 0x31, 0x01})) return "OpenEXR";
    if (starts({'#', '?'})) return "Radiance HDR";
    if (starts({0x59, 0xA6, 0x6A, 0x95})) return "Sun raster";
    return std::nullopt;
}

std::optional<ImageHeader> readImageHeader(const std::string& path) {
    Bytes f(path);
    if (!f.ok()) return std::nullopt;
    const auto magic = f.at(0, 4);
    if (magic.size() < 4) return std::nullopt;
    if (magic[0] == 0x89 && magic[1] == 'P' && magic[2] == 'N' && magic[3] == 'G') return png(f);
    if ((magic[0] == 'I' && magic[1] == 'I') || (magic[0] == 'M' && magic[1] == 'M')) return tiff(f);
    if (magic[0] == 0xFF && magic[1] == 0xD8) return jpeg(f);
    if (magic[0] == 'P' && std::isalnum(magic[1])) return pnm(f);
    if (magic[0] == 'B' && magic[1] == 'M') return bmp(f);
    return std::nullopt;
}

}  // namespace linescope::io
