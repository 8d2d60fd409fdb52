// linescope-make-bad-inputs DIR: writes the bad-input corpus that run_bad_inputs.sh feeds to
// linescope-cli and linescope (and the seeds of the loader's fuzz target), so that no binary
// file lives in git. Deterministic: the same bytes on every run.
//
// Valid images come from OpenCV's encoders; broken ones are those bytes cut or overwritten;
// what OpenCV cannot write (PNG bombs, TIFF types it has no writer for) is forged byte by
// byte: PNG chunks with their CRC from zlib, TIFFs as one little-endian IFD per page.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<unsigned char>;

fs::path outDir;

void save(const std::string& name, const Bytes& bytes) {
    std::ofstream f(outDir / name, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!f) throw std::runtime_error("cannot write " + (outDir / name).string());
}

Bytes encode(const std::string& ext, const cv::Mat& image) {
    Bytes bytes;
    if (!cv::imencode(ext, image, bytes)) throw std::runtime_error("cannot encode " + ext);
    return bytes;
}

// A textured image, so that every format has payload after its header worth cutting.
cv::Mat noise(int width, int height, int type) {
    cv::Mat m(height, width, type);
    cv::RNG rng(22);
    rng.fill(m, cv::RNG::UNIFORM, 0, CV_MAT_DEPTH(type) == CV_32F ? 1 : 200);
    return m;
}

Bytes firstHalf(Bytes bytes) {
    bytes.resize(bytes.size() / 2);
    return bytes;
}

// The format's magic number kept, everything from `from` to the end garbage: each decoder
// fails on its header, not somewhere in the pixels.
Bytes garbageAfter(Bytes bytes, std::size_t from) {
    cv::RNG rng(22);
    for (std::size_t i = from; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(rng.uniform(0, 256));
    return bytes;
}

void put32be(Bytes& b, std::uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<unsigned char>(v >> s));
}

void pngChunk(Bytes& png, const char* type, const Bytes& data) {
    put32be(png, static_cast<std::uint32_t>(data.size()));
    Bytes body(type, type + 4);
    body.insert(body.end(), data.begin(), data.end());
    png.insert(png.end(), body.begin(), body.end());
    put32be(png, static_cast<std::uint32_t>(crc32(0, body.data(), static_cast<uInt>(body.size()))));
}

// A PNG with a valid IHDR (bit depth, colour type: 0 grey, 6 RGBA) and the given IDAT.
Bytes png(std::uint32_t width, std::uint32_t height, int bitDepth, int colourType, const Bytes& idat) {
    Bytes out{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    Bytes ihdr;
    put32be(ihdr, width);
    put32be(ihdr, height);
    ihdr.insert(ihdr.end(), {static_cast<unsigned char>(bitDepth), static_cast<unsigned char>(colourType), 0, 0, 0});
    pngChunk(out, "IHDR", ihdr);
    pngChunk(out, "IDAT", idat);
    pngChunk(out, "IEND", {});
    return out;
}

// The zlib stream of `total` zero bytes, built without holding them: one deflated block of
// zeros ended by a full flush (byte-aligned, no back-references across it) repeated, then an
// empty final block and the Adler-32 of zeros (a = 1, b = total mod 65521).
Bytes zlibOfZeros(std::uint64_t total) {
    const std::uint64_t block = 64u << 20;
    const Bytes zeros(block, 0);
    auto deflated = [&](std::uint64_t n, int flush) {
        z_stream z{};
        deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY);  // raw deflate
        Bytes out(deflateBound(&z, n) + 64);
        z.next_in = const_cast<Bytef*>(zeros.data());
        z.avail_in = static_cast<uInt>(n);
        z.next_out = out.data();
        z.avail_out = static_cast<uInt>(out.size());
        deflate(&z, flush);
        out.resize(out.size() - z.avail_out);
        deflateEnd(&z);
        return out;
    };
    Bytes out{0x78, 0xda};
    const Bytes full = deflated(block, Z_FULL_FLUSH);
    for (std::uint64_t i = 0; i < total / block; ++i) out.insert(out.end(), full.begin(), full.end());
    const Bytes last = deflated(total % block, Z_FINISH);  // ends with the final block
    out.insert(out.end(), last.begin(), last.end());
    put32be(out, static_cast<std::uint32_t>(((total % 65521) << 16) | 1));
    return out;
}

// An uncompressed little-endian TIFF of `pages` identical pages, one strip each, of any
// sample layout libtiff knows: bits per sample, samples per pixel, SampleFormat (1 unsigned
// integer, 2 signed, 3 IEEE float). Pixel bytes are a ramp.
Bytes tiff(int width, int height, int bits, int samples, int sampleFormat, int pages = 1) {
    const std::uint32_t stripBytes = static_cast<std::uint32_t>(width * height * samples * bits / 8);
    Bytes out{'I', 'I', 42, 0};
    auto put16 = [&](std::uint32_t v) { out.push_back(v & 0xff); out.push_back((v >> 8) & 0xff); };
    auto put32 = [&](std::uint32_t v) { put16(v & 0xffff); put16(v >> 16); };
    put32(8);
    struct Entry { std::uint16_t tag, type; std::uint32_t value; };
    for (int page = 0; page < pages; ++page) {
        const std::uint32_t ifdStart = static_cast<std::uint32_t>(out.size());
        const std::vector<Entry> entries = {
            {256, 4, static_cast<std::uint32_t>(width)}, {257, 4, static_cast<std::uint32_t>(height)},
            {258, 3, static_cast<std::uint32_t>(bits)},  // one value, though libtiff accepts it for all samples
            {259, 3, 1}, {262, 3, samples >= 3 ? 2u : 1u}, {273, 4, 0 /* patched */},
            {277, 3, static_cast<std::uint32_t>(samples)}, {278, 4, static_cast<std::uint32_t>(height)},
            {279, 4, stripBytes}, {284, 3, 1}, {339, 3, static_cast<std::uint32_t>(sampleFormat)}};
        const std::uint32_t dataStart = ifdStart + 2 + 12 * static_cast<std::uint32_t>(entries.size()) + 4;
        put16(static_cast<std::uint32_t>(entries.size()));
        for (const Entry& e : entries) {
            put16(e.tag);
            put16(e.type);
            put32(1);
            const std::uint32_t v = e.tag == 273 ? dataStart : e.value;
            if (e.type == 3) { put16(v); put16(0); } else { put32(v); }
        }
        const bool lastPage = page + 1 == pages;
        put32(lastPage ? 0 : dataStart + stripBytes);  // the next IFD follows this page's strip
        for (std::uint32_t i = 0; i < stripBytes; ++i) out.push_back(static_cast<unsigned char>(i * 7));
    }
    return out;
}

void writeCorpus() {
    const cv::Mat good = noise(64, 48, CV_8U);
    const Bytes goodPng = encode(".png", good);
    save("good.png", goodPng);
    save("with space.png", goodPng);
    save("-dash.png", goodPng);
    save("bad-name-\xff\xfe.png", goodPng);  // not UTF-8
    save("one-by-one.png", encode(".png", noise(1, 1, CV_8U)));
    save("one-row.png", encode(".png", noise(17, 1, CV_8U)));
    save("one-column.png", encode(".png", noise(1, 17, CV_8U)));
    save("good-float.tiff", encode(".tiff", noise(32, 24, CV_32F)));

    cv::Mat nanInf = noise(32, 24, CV_32F);
    nanInf.at<float>(3, 4) = std::numeric_limits<float>::quiet_NaN();
    nanInf.at<float>(5, 6) = std::numeric_limits<float>::infinity();
    save("nan-inf.tiff", encode(".tiff", nanInf));

    // Each format cut in the middle of its pixels, and with garbage right after its magic number.
    const struct { const char* ext; int type; std::size_t magic; } formats[] = {
        {"png", CV_8U, 8}, {"tiff", CV_16U, 4}, {"jpg", CV_8U, 2}, {"pgm", CV_8U, 3}, {"pfm", CV_32F, 3}};
    for (const auto& f : formats) {
        const Bytes bytes = encode(std::string(".") + f.ext, noise(64, 48, f.type));
        save(std::string("truncated.") + f.ext, firstHalf(bytes));
        save(std::string("corrupt.") + f.ext, garbageAfter(bytes, f.magic));
    }
    save("empty.png", {});
    // A DICOM preamble and magic with nothing after them: OpenCV hands it to GDCM, whose
    // assertion aborted linescope-cli (found by fuzz_image_loader).
    Bytes dicom(128, 0);
    dicom.insert(dicom.end(), {'D', 'I', 'C', 'M'});
    save("dicom-header-only.png", dicom);

    // A header claiming 100000 x 100000 pixels over a few bytes of data.
    save("header-bomb.png", png(100000, 100000, 8, 0, zlibOfZeros(1000)));
    // 8 MB that decode to 32768 x 32767 RGBA16 (8.6 GB), within OpenCV's 2^30-pixel limit:
    // every row is its filter byte 0 and zeros.
    const std::uint32_t bombWidth = 32768, bombHeight = 32767;
    save("decompression-bomb.png",
         png(bombWidth, bombHeight, 16, 6, zlibOfZeros(std::uint64_t{bombHeight} * (1 + bombWidth * 8ull))));

    // TIFF sample types LineScope does not take, and one it does in a multi-page file.
    save("tiff-uint32.tiff", tiff(16, 12, 32, 1, 1));
    save("tiff-2-channels.tiff", tiff(16, 12, 8, 2, 1));
    save("tiff-5-channels.tiff", tiff(16, 12, 8, 5, 1));
    save("tiff-float16.tiff", tiff(16, 12, 16, 1, 3));
    save("tiff-multipage.tiff", tiff(16, 12, 8, 1, 1, 3));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    try {
        outDir = argv[1];
        fs::create_directories(outDir);
        writeCorpus();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "linescope-make-bad-inputs: %s\n", e.what());
        return 1;
    }
    return 0;
}
