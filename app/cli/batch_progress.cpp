#include "app/cli/batch_progress.h"

#include <cstdio>

#include <fcntl.h>
#include <unistd.h>

namespace linescope::cli {

namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

std::string clockText(double seconds) {
    const long s = static_cast<long>(seconds + 0.5);
    char buf[32];
    if (s >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

}  // namespace

BatchProgress::BatchProgress(std::size_t total)
    : fd_(::fcntl(2, F_DUPFD_CLOEXEC, 3)), terminal_(fd_ >= 0 && ::isatty(fd_)), total_(total),
      start_(std::chrono::steady_clock::now()) {}

BatchProgress::~BatchProgress() {
    if (fd_ >= 0) ::close(fd_);
}

double BatchProgress::elapsedSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void BatchProgress::put(const std::string& text) {
    std::size_t written = 0;
    while (fd_ >= 0 && written < text.size()) {
        const ssize_t n = ::write(fd_, text.data() + written, text.size() - written);
        if (n <= 0) return;  // a closed stderr loses the report, not the batch
        written += static_cast<std::size_t>(n);
    }
}

std::string BatchProgress::bar() const {
    constexpr int kWidth = 24;
    const double fraction = total_ ? static_cast<double>(done_) / static_cast<double>(total_) : 1.0;
    const int filled = static_cast<int>(fraction * kWidth);
    std::string line = "\r\x1b[K[" + std::string(static_cast<std::size_t>(filled), '#') +
                       std::string(static_cast<std::size_t>(kWidth - filled), ' ') + "] ";
    char buf[160];
    std::snprintf(buf, sizeof buf, "%zu/%zu %3.0f%%", done_, total_, 100 * fraction);
    line += buf;
    // The rate of the inputs processed in this run: skipped ones cost nothing and would flatter it.
    const double seconds = elapsedSeconds();
    const std::size_t processed = succeeded_ + failed_;
    if (processed > 0 && seconds > 0) {
        const double rate = static_cast<double>(processed) / seconds;
        std::snprintf(buf, sizeof buf, "  %.2f files/s  ETA %s", rate,
                      clockText(static_cast<double>(total_ - done_) / rate).c_str());
        line += buf;
    }
    if (failed_) line += "  " + std::to_string(failed_) + " failed";
    return line;
}

void BatchProgress::report(const std::string& line, bool always) {
    if (!terminal_) return put("batch: [" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + line + "\n");
    const auto now = std::chrono::steady_clock::now();
    if (!always && done_ < total_ && now - lastDrawn_ < kRedrawInterval) return;
    lastDrawn_ = now;
    put(bar());
}

void BatchProgress::skipped(const std::string& input) {
    std::lock_guard lock(mutex_);
    ++done_, ++skipped_;
    report("skipped " + input + " (complete)", false);
}

void BatchProgress::succeeded(const std::string& input, double ms) {
    std::lock_guard lock(mutex_);
    ++done_, ++succeeded_;
    char buf[64];
    std::snprintf(buf, sizeof buf, " (%.0f ms)", ms);
    report("ok " + input + buf, false);
}

void BatchProgress::failed(const std::string& input, const std::string& reason) {
    std::lock_guard lock(mutex_);
    ++done_, ++failed_;
    if (terminal_) put("\r\x1b[Klinescope-cli: failed: " + input + ": " + reason + "\n");
    report("failed " + input + ": " + reason, true);
}

void BatchProgress::finish() {
    std::lock_guard lock(mutex_);
    if (!terminal_) return;
    put(bar() + "\n");
}

}  // namespace linescope::cli
