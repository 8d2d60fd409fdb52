// A limit on the bytes that threads hold at once: a Hold waits while others hold so much
// that the sum would pass the limit, and one that comes alone always goes through (one item
// may take the whole limit). Holds go through in the order they came, so that a large one
// is not passed over for good by smaller ones that keep fitting. A CPU batch runs one image
// a core; this keeps the images in the engine at once within what one image may take
// (io::imageMemoryBudget), since each brings planes of its own size.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace linescope::cli {

class ByteGate {
public:
    explicit ByteGate(std::uint64_t limit) : limit_(limit) {}

    class Hold {
    public:
        Hold(ByteGate& gate, std::uint64_t bytes) : gate_(&gate), bytes_(bytes) {
            std::unique_lock lock(gate.mutex_);
            const std::uint64_t ticket = gate.nextTicket_++;
            gate.released_.wait(lock, [&] {
                return ticket == gate.nowServing_ && (gate.held_ == 0 || gate.held_ + bytes <= gate.limit_);
            });
            gate.held_ += bytes;
            ++gate.nowServing_;
            gate.released_.notify_all();  // the next in line may fit too
        }
        ~Hold() {
            {
                std::lock_guard lock(gate_->mutex_);
                gate_->held_ -= bytes_;
            }
            gate_->released_.notify_all();
        }
        Hold(const Hold&) = delete;
        Hold& operator=(const Hold&) = delete;

    private:
        ByteGate* gate_;
        std::uint64_t bytes_;
    };

    std::uint64_t held() const {
        std::lock_guard lock(mutex_);
        return held_;
    }
    // Holds still waiting.
    std::uint64_t waiting() const {
        std::lock_guard lock(mutex_);
        return nextTicket_ - nowServing_;
    }

private:
    const std::uint64_t limit_;
    mutable std::mutex mutex_;
    std::condition_variable released_;
    std::uint64_t held_ = 0;
    std::uint64_t nextTicket_ = 0, nowServing_ = 0;
};

}  // namespace linescope::cli
