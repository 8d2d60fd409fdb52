// Holds the engine thread at a checkpoint until the test releases it, so that tests can see
// what the UI does while a request runs (never a timing: the engine waits on the gate).
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace linescope::test {

class EngineGate {
public:
    explicit EngineGate(int timeoutMs = 120000) : timeoutMs_(timeoutMs) {}
    ~EngineGate() { release(); }
    EngineGate(const EngineGate&) = delete;
    EngineGate& operator=(const EngineGate&) = delete;

    // [engine thread] Blocks until release().
    void hold() {
        std::unique_lock lock(m_);
        ++held_;
        cv_.notify_all();
        cv_.wait(lock, [&] { return open_; });
    }
    // [test thread] Waits until the engine thread is held (true) or the timeout passes.
    bool waitHeld() {
        std::unique_lock lock(m_);
        return cv_.wait_for(lock, std::chrono::milliseconds(timeoutMs_), [&] { return held_ > 0; });
    }
    bool isHeld() {
        std::lock_guard lock(m_);
        return held_ > 0 && !open_;
    }
    void release() {
        std::lock_guard lock(m_);
        open_ = true;
        cv_.notify_all();
    }

private:
    int timeoutMs_;
    std::mutex m_;
    std::condition_variable cv_;
    int held_ = 0;
    bool open_ = false;
};

}  // namespace linescope::test
