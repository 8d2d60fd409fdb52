#include "app/io/image_io.h"

#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <unistd.h>

namespace linescope::io {

namespace {

// Codec libraries (libpng, libtiff) print their own complaints on stderr. While one call
// runs, fd 2 goes to a temporary file, so that a failure is reported as our one line
// (with the codec's first line in it) and successes stay quiet.
class StderrCapture {
public:
    StderrCapture() {
        std::fflush(stderr);
        tmp_ = std::tmpfile();
        saved_ = ::dup(2);
        if (tmp_ && saved_ >= 0) ::dup2(::fileno(tmp_), 2);
    }
    ~StderrCapture() { restore(); if (tmp_) std::fclose(tmp_); }
    StderrCapture(const StderrCapture&) = delete;
    StderrCapture& operator=(const StderrCapture&) = delete;

    // Restores stderr and returns the first non-empty line written meanwhile.
    std::string firstLine() {
        restore();
        if (!tmp_) return {};
        std::rewind(tmp_);
        char buf[512];
        while (std::fgets(buf, sizeof buf, tmp_)) {
            std::string line(buf);
            while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' '))
                line.pop_back();
            if (!line.empty()) return line;
        }
        return {};
    }

private:
    void restore() {
        if (saved_ >= 0) {
            std::fflush(stderr);
            ::dup2(saved_, 2);
            ::close(saved_);
            saved_ = -1;
        }
    }
    std::FILE* tmp_ = nullptr;
    int saved_ = -1;
};

void quietOpenCvLogs() {
    static const bool once = [] {
        cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
        return true;
    }();
    (void)once;
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
    if (std::filesystem::is_regular_file(status) && std::filesystem::file_size(path, ec) == 0 && !ec)
        throw IoError("cannot read '" + path + "': the file is empty");

    cv::Mat m;
    std::string codec;
    {
        StderrCapture capture;
        try {
            m = cv::imread(path, cv::IMREAD_UNCHANGED);
        } catch (const cv::Exception& e) {
            codec = e.err;
        }
        const std::string line = capture.firstLine();
        if (codec.empty()) codec = line;
    }
    if (m.empty())
        throw IoError(withCodecMessage("cannot read '" + path +
                                           "': not an image OpenCV can decode, or the file is truncated",
                                       codec));
    if (m.cols <= 0 || m.rows <= 0) throw IoError("the image '" + path + "' is empty");

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

void writeImage(const std::string& path, const cv::Mat& image) {
    quietOpenCvLogs();
    requireWritable(path, image.depth(), image.channels());
    bool ok = false;
    std::string codec;
    {
        StderrCapture capture;
        try {
            ok = cv::imwrite(path, image);
        } catch (const cv::Exception& e) {
            codec = e.err;
        }
        const std::string line = capture.firstLine();
        if (codec.empty()) codec = line;
    }
    if (!ok) {
        const auto dir = std::filesystem::path(path).parent_path();
        std::error_code ec;
        if (!dir.empty() && !std::filesystem::is_directory(dir, ec))
            throw IoError("cannot write '" + path + "': the folder '" + dir.string() + "' does not exist");
        throw IoError(withCodecMessage("cannot write '" + path + "'", codec));
    }
}

}  // namespace linescope::io
