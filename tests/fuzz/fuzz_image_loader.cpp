// io::readImage on arbitrary bytes: the loader that linescope-cli and the app share. The
// bytes go to one temporary file per process (readImage takes a path, as its callers do), so
// the header checks run exactly as for a user's file. A clean refusal is an IoError; anything
// else escaping (cv::Exception, bad_alloc), a crash, a sanitizer report, a leak or an
// allocation beyond libFuzzer's -malloc_limit_mb is a finding. A decoded image must be what
// the engine takes: one channel of uint8, uint16 or float32, not empty.
#include "app/io/image_io.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace {

std::string inputPath() {
    std::string path = (std::filesystem::temp_directory_path() / "linescope-fuzz-image-XXXXXX").string();
    const int fd = ::mkstemp(path.data());
    if (fd < 0) std::abort();
    ::close(fd);
    return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path = inputPath();
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0) std::abort();
    try {
        const cv::Mat m = linescope::io::readImage(path, [](const std::string& notice) {
            if (notice.empty() || notice.find('\n') != std::string::npos) std::abort();  // one line each
        });
        const int depth = m.depth();
        if (m.empty() || m.channels() != 1 || (depth != CV_8U && depth != CV_16U && depth != CV_32F)) std::abort();
    } catch (const linescope::io::IoError& e) {
        if (std::string(e.what()).empty()) std::abort();
    }
    return 0;
}
