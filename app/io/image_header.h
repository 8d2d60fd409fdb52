// What an image file says about itself before it is decoded: size, channels, sample type
// and page count, read from the header of the formats LineScope is most often given (PNG,
// TIFF, JPEG, the PNM family with PFM, BMP). The loader checks the memory budget and the
// supported types against it, so that a decompression bomb or an unsupported TIFF is
// refused with a plain sentence before OpenCV allocates anything.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace linescope::io {

enum class SampleKind { Unsigned, Signed, Float };

struct ImageHeader {
    std::string format;  // "PNG", "TIFF", …
    std::int64_t width = 0;
    std::int64_t height = 0;
    int channels = 1;        // as decoded with IMREAD_UNCHANGED (upper bound where it depends on the data)
    int bitsPerSample = 8;   // 1…64
    SampleKind sample = SampleKind::Unsigned;
    int pages = 1;           // TIFF: the number of images (IFDs) in the file

    // Bytes OpenCV allocates for the decoded image (samples below 8 bits take a byte).
    double decodedBytes() const;
};

// The format of the file at `path` from its first bytes: "PNG", "TIFF", "JPEG", "PNM", "PFM",
// "BMP", "WebP", "JPEG 2000", "OpenEXR", "Radiance HDR" or "Sun raster" (what the loader
// reads), or nothing. Anything else is refused before OpenCV sees it: some of its decoders
// (GDAL, GDCM) abort the process on a malformed file.
std::optional<std::string> imageFormatOf(const std::string& path);

// The header of the file at `path`, or nothing when its format is not one of the above or
// the header cannot be parsed (the decoder then has its say).
std::optional<ImageHeader> readImageHeader(const std::string& path);

}  // namespace linescope::io
