// batch's report on stderr as inputs finish. On a terminal: one line updated in place
// (done/total, files/s, ETA), with failures printed above it as they happen. Elsewhere (a
// log, a pipe): one plain line per input, "batch: [3/50] ok scans/p3.png (412 ms)".
//
// It writes to its own duplicate of fd 2, taken before any image is decoded: app/io points
// fd 2 at a temporary file while a codec runs (to catch the codec's complaints), and a
// progress line written there meanwhile would be lost, or taken for the codec's error.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

namespace linescope::cli {

class BatchProgress {
public:
    // `total`: every input, the complete ones that skipped() reports included.
    explicit BatchProgress(std::size_t total);
    ~BatchProgress();
    BatchProgress(const BatchProgress&) = delete;
    BatchProgress& operator=(const BatchProgress&) = delete;

    void skipped(const std::string& input);
    void succeeded(const std::string& input, double ms);
    void failed(const std::string& input, const std::string& reason);
    // Ends the line in place on a terminal; call once, after the last input.
    void finish();

    std::size_t failures() const { return failed_; }
    std::size_t successes() const { return succeeded_; }
    std::size_t skips() const { return skipped_; }
    double elapsedSeconds() const;

private:
    void report(const std::string& line, bool always);  // with mutex_ held
    std::string bar() const;
    void put(const std::string& text);

    std::mutex mutex_;
    int fd_ = -1;
    bool terminal_ = false;
    std::size_t total_ = 0, done_ = 0, succeeded_ = 0, failed_ = 0, skipped_ = 0;
    std::chrono::steady_clock::time_point start_, lastDrawn_;
};

}  // namespace linescope::cli
