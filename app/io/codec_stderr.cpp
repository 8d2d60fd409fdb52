#include "app/io/codec_stderr.h"

#include <condition_variable>
#include <cstdio>
#include <mutex>

#include <sys/stat.h>
#include <unistd.h>

namespace linescope::io {

namespace {

// Who holds fd 2: any number of shared calls, or one call alone. A call waiting to run alone
// stops new shared ones, so that a stream of decoders cannot keep it waiting.
class StderrGate {
public:
    static StderrGate& instance() {
        static StderrGate gate;
        return gate;
    }

    // A shared call begins: the redirection is made by the first. Returns the file's size then.
    long enterShared() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return !alone_ && waitingAlone_ == 0; });
        if (shared_++ == 0) redirect();
        return size();
    }

    // A shared call ends; true when anything was written since `start`. The last one restores fd 2.
    bool leaveShared(long start) {
        std::unique_lock lock(mutex_);
        const bool written = size() != start;
        if (--shared_ == 0) {
            restore();
            changed_.notify_all();
        }
        return written;
    }

    void enterAlone() {
        std::unique_lock lock(mutex_);
        ++waitingAlone_;
        changed_.wait(lock, [&] { return !alone_ && shared_ == 0; });
        --waitingAlone_;
        alone_ = true;
        redirect();
    }

    // The call alone ends: fd 2 restored, and the first non-empty line it wrote.
    std::string leaveAlone() {
        std::unique_lock lock(mutex_);
        std::string line;
        if (file_) {
            std::fflush(stderr);
            std::rewind(file_);
            char buf[512];
            while (line.empty() && std::fgets(buf, sizeof buf, file_)) {
                line = buf;
                while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' '))
                    line.pop_back();
            }
        }
        restore();
        alone_ = false;
        changed_.notify_all();
        return line;
    }

private:
    void redirect() {
        std::fflush(stderr);
        file_ = std::tmpfile();
        saved_ = ::dup(2);
        if (file_ && saved_ >= 0) ::dup2(::fileno(file_), 2);
    }

    void restore() {
        if (saved_ >= 0) {
            std::fflush(stderr);
            ::dup2(saved_, 2);
            ::close(saved_);
            saved_ = -1;
        }
        if (file_) std::fclose(file_);
        file_ = nullptr;
    }

    // stderr is unbuffered: what a codec printed is in the file when its call returns.
    long size() const {
        struct stat st {};
        return file_ && ::fstat(::fileno(file_), &st) == 0 ? static_cast<long>(st.st_size) : 0;
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    int shared_ = 0, waitingAlone_ = 0;
    bool alone_ = false;
    std::FILE* file_ = nullptr;
    int saved_ = -1;
};

}  // namespace

std::string quietCodecCall(const std::function<void()>& call, const std::function<bool()>& wantsLine) {
    StderrGate& gate = StderrGate::instance();
    const long start = gate.enterShared();
    bool written = false;
    try {
        call();
    } catch (...) {
        gate.leaveShared(start);
        throw;
    }
    written = gate.leaveShared(start);
    if (!written || (wantsLine && !wantsLine())) return {};
    gate.enterAlone();
    try {
        call();
    } catch (...) {
        gate.leaveAlone();
        throw;
    }
    return gate.leaveAlone();
}

}  // namespace linescope::io
