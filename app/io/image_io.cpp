#include "app/io/image_io.h"

#include "app/io/atomic_file.h"
#include "app/io/codec_stderr.h"
#include "app/io/export_recipe.h"
#include "app/io/image_header.h"
#include "app/io/memory_budget.h"

#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <new>
#include <system_error>
#include <sys/stat.h>
#include <vector>
#include <unistd.h>

namespace linescope::io {

namespace {

void quietOpenCvLogs() {
    static const bool once = [] {
        cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
        return true;
    }();
    (void)once;
}

// What a non-regular file is, for the refusal: reading a FIFO or a device would block.
const char* kindOfSpecialFile(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return "not a regular file";
    if (S_ISFIFO(st.st_mode)) return "a FIFO (named pipe)";
    if (S_ISSOCK(st.st_mode)) return "a socket";
    if (S_ISCHR(st.st_mode)) return "a character device";
    if (S_ISBLK(st.st_mode)) return "a block device";
    return "not a regular file";
}

std::string describe(const ImageHeader& h) {
    std::string bits = std::to_string(h.bitsPerSample) + "-bit";
    if (h.sample == SampleKind::Float) bits += " float";
    if (h.sample == SampleKind::Signed) bits += " signed";
    return std::to_string(h.width) + "×" + std::to_string(h.height) + " with " + std::to_string(h.channels) +
           (h.channels == 1 ? " channel" : " channels") + " of " + bits + " samples";
}

// Refuses, from the header alone, what would exhaust the memory budget or what the
// decoder cannot turn into a supported image, and says why in the terms of the file.
void checkHeader(const std::string& path, const ImageHeader& h, const NoticeFn& notice) {
    if (h.width <= 0 || h.height <= 0) throw IoError("'" + path + "' declares an empty image");
    // Decoding, then (for colour or float64) the one-channel copy the engine works on.
    const double converted = (h.channels != 1 || h.bitsPerSample > 32)
                                 ? static_cast<double>(h.width) * static_cast<double>(h.height) * 4
                                 : 0;
    const double need = h.decodedBytes() + converted;
    const auto budget = static_cast<double>(imageMemoryBudget());
    if (need > budget)
        throw IoError("cannot read '" + path + "': it is " + describe(h) + ", which needs " + byteSizeText(need) +
                      " of memory to decode, more than the budget of " + byteSizeText(budget) +
                      " (raise it with --max-image-memory or LINESCOPE_MAX_IMAGE_MEMORY)");
    if (h.format == "TIFF") {
        const bool ok = (h.sample == SampleKind::Unsigned && (h.bitsPerSample == 1 || h.bitsPerSample == 8 || h.bitsPerSample == 16)) ||
                        (h.sample == SampleKind::Float && (h.bitsPerSample == 32 || h.bitsPerSample == 64));
        if (!ok)
            throw IoError("cannot read '" + path + "': its samples are " +
                          (h.sample == SampleKind::Float ? "float" : h.sample == SampleKind::Signed ? "int" : "uint") +
                          std::to_string(h.bitsPerSample) +
                          ", which LineScope does not read (use uint8, uint16 or float32)");
        if (h.channels < 1 || h.channels > 4)
            throw IoError("cannot read '" + path + "': it has " + std::to_string(h.channels) +
                          " samples per pixel (LineScope reads TIFFs with 1 to 4)");
        if (h.pages > 1) {
            std::string line = "'";
            line += std::filesystem::path(path).filename().string();
            line += "' has " + std::to_string(h.pages) + " pages: using the first";
            notice(line);
        }
    }
}

std::string withCodecMessage(std::string message, const std::string& codec) {
    if (!codec.empty()) message += " (" + codec + ")";
    return message;
}

}  // namespace

const char* depthName(int depth) {
    switch (depth) {
    case CV_8U: return "uint8";
    case CV_8S: return "int8";
    case CV_16U: return "uint16";
    case CV_16S: return "int16";
    case CV_32S: return "int32";
    case CV_32F: return "float32";
    case CV_64F: return "float64";
    case CV_16F: return "float16";
    default: return "unknown";
    }
}

std::string extensionOf(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    if (!ext.empty() && ext[0] == '.') ext.erase(0, 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

const char* defaultExtensionFor(int depth) { return depth == CV_32F ? "tiff" : "png"; }

cv::Mat readImage(const std::string& path, const NoticeFn& notice) {
    quietOpenCvLogs();
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) throw IoError("cannot open '" + path + "': no such file");
    if (std::filesystem::is_directory(status)) throw IoError("cannot read '" + path + "': it is a directory");
    if (!std::filesystem::is_regular_file(status))
        throw IoError("cannot read '" + path + "': it is " + kindOfSpecialFile(path) + ", not an image file");
    if (std::filesystem::file_size(path, ec) == 0 && !ec) throw IoError("cannot read '" + path + "': the file is empty");
    if (::access(path.c_str(), R_OK) != 0)
        throw IoError("cannot read '" + path + "': " + std::generic_category().message(errno));
    const std::optional<std::string> format = imageFormatOf(path);
    if (!format)
        throw IoError("cannot read '" + path +
                      "': not an image in a format LineScope reads (PNG, TIFF, JPEG, PGM/PPM, PFM, BMP, WebP, "
                      "JPEG 2000, OpenEXR, Radiance HDR, Sun raster)");
    const auto header = readImageHeader(path);
    if (header) checkHeader(path, *header, notice);

    cv::Mat m;
    std::string codec;
    bool outOfMemory = false;
    const std::string line = quietCodecCall([&] {
        m = cv::Mat();
        codec.clear();
        outOfMemory = false;
        try {
            m = cv::imread(path, cv::IMREAD_UNCHANGED);
        } catch (const cv::Exception& e) {
            codec = e.err;
            outOfMemory = e.code == cv::Error::StsNoMem;
        } catch (const std::bad_alloc&) {
            outOfMemory = true;
        }
    }, [&] { return m.empty() || *format == "JPEG"; });  // libjpeg's warning is how a damaged JPEG shows
    if (codec.empty()) codec = line;
    if (outOfMemory)
        throw IoError("cannot read '" + path + "': out of memory while decoding it" +
                      (header ? " (" + describe(*header) + ")" : std::string()));
    if (m.empty() && codec.find("validateInputImageSize") != std::string::npos)
        throw IoError("cannot read '" + path + "': its header declares more pixels than the memory budget of " +
                      byteSizeText(static_cast<double>(imageMemoryBudget())) +
                      " allows (raise it with --max-image-memory or LINESCOPE_MAX_IMAGE_MEMORY)");
    if (m.empty())
        throw IoError(withCodecMessage("cannot read '" + path +
                                           "': not an image OpenCV can decode, or the file is truncated",
                                       codec));
    if (m.cols <= 0 || m.rows <= 0) throw IoError("the image '" + path + "' is empty");
    // libjpeg decodes what it can of a truncated or damaged file, fills the rest with grey
    // and only warns: taken as it is, that would be silent garbage.
    for (const char* damaged : {"Premature end of JPEG file", "Corrupt JPEG data"})
        if (codec.find(damaged) != std::string::npos)
            throw IoError("cannot read '" + path + "': the JPEG file is truncated or damaged (" + codec + ")");

    const auto name = std::filesystem::path(path).filename().string();
    switch (m.depth()) {
    case CV_8U:
    case CV_16U:
    case CV_32F: break;
    case CV_64F:
    case CV_16F: {
        const char* from = depthName(m.depth());
        cv::Mat f;
        m.convertTo(f, CV_MAKETYPE(CV_32F, m.channels()));
        m = f;
        notice(std::string("'") + name + "' is " + from + ": converted to float32");
        break;
    }
    default:
        throw IoError("'" + path + "' has " + depthName(m.depth()) +
                      " pixels, which LineScope does not support (use uint8, uint16 or float32)");
    }

    switch (m.channels()) {
    case 1: break;
    case 2: {  // gray + alpha
        cv::Mat g;
        cv::extractChannel(m, g, 0);
        m = g;
        notice("'" + name + "' has gray and alpha channels: using the gray channel");
        break;
    }
    case 3:
    case 4: {
        cv::Mat g;
        cv::cvtColor(m, g, m.channels() == 3 ? cv::COLOR_BGR2GRAY : cv::COLOR_BGRA2GRAY);
        m = g;
        notice("'" + name + "' is a colour image: converted to grayscale");
        break;
    }
    default:
        throw IoError("'" + path + "' has " + std::to_string(m.channels()) + " channels (expected 1, 3 or 4)");
    }
    return m;
}

void requireWritable(const std::string& path, int depth, int channels) {
    const std::string ext = extensionOf(path);
    const bool png = ext == "png";
    const bool tiff = ext == "tif" || ext == "tiff";
    const bool pnm = ext == "pgm" || ext == "ppm" || ext == "pnm";
    const bool pfm = ext == "pfm";
    const bool jpeg = ext == "jpg" || ext == "jpeg";
    const bool bmp = ext == "bmp";
    if (!(png || tiff || pnm || pfm || jpeg || bmp))
        throw IoError("cannot write '" + path + "': unknown image format '" + ext +
                      "' (use .png, .tiff, .pgm, .pfm or .jpg)");
    if (depth == CV_32F && !(tiff || pfm))
        throw IoError("cannot write float32 pixels to '" + path + "': " + (ext.empty() ? "this" : ext) +
                      " holds only integers; use .tiff or .pfm");
    if (depth == CV_16U && !(png || tiff || pnm))
        throw IoError("cannot write uint16 pixels to '" + path + "': " + ext +
                      " holds only 8 bits; use .png, .tiff or .pgm");
    if (depth == CV_8U && pfm)
        throw IoError("cannot write uint8 pixels to '" + path + "': pfm holds only float32; use .png or .tiff");
    if (channels == 3 && ext == "pgm")
        throw IoError("cannot write a colour image to '" + path + "': use .png, .ppm or .tiff");
    if (channels == 1 && ext == "ppm")  // OpenCV's PPM writer takes only BGR
        throw IoError("cannot write a gray image to '" + path + "': ppm holds colour images; use .pgm, .png or .tiff");
}

void writeImage(const std::string& path, const cv::Mat& image) { writeImage(path, image, nullptr); }

void writeImage(const std::string& path, const cv::Mat& image, const ExportRecipe& recipe) {
    writeImage(path, image, &recipe);
}

void writeImage(const std::string& path, const cv::Mat& image, const ExportRecipe* recipe) {
    quietOpenCvLogs();
    requireWritable(path, image.depth(), image.channels());
    // Encoded in memory, then written atomically: a failing or killed run never leaves a
    // truncated image where the previous one was.
    std::vector<uchar> bytes;
    bool ok = false;
    std::string codec;
    const std::string line = quietCodecCall([&] {
        bytes.clear();
        codec.clear();
        ok = false;
        try {
            ok = cv::imencode("." + extensionOf(path), image, bytes);
        } catch (const cv::Exception& e) {
            codec = e.err;
        }
    }, [&] { return !ok; });
    if (codec.empty()) codec = line;
    if (!ok) throw IoError(withCodecMessage("cannot encode '" + path + "'", codec));
    const std::string_view encoded(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (!recipe) writeFileAtomically(path, encoded);
    else writeFileAtomically(path, withRecipe(encoded, extensionOf(path), *recipe));
}

}  // namespace linescope::io
