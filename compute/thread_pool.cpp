#include "compute/thread_pool.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace linescope {
namespace {

thread_local bool tInsidePool = false;
thread_local int tDefaultThreads = 0;  // DefaultThreadsScope's; 0: one per core

// Workers that sleep on a condition variable between jobs; one job at a time (callers
// serialize on jobMutex), so a parallel loop costs two wake-ups, not thread creations.
class Pool {
public:
    static Pool& instance() {
        static Pool pool;
        return pool;
    }

    // Runs task(0 … workers−1), task(0) on the caller, and returns once every worker has
    // finished its call, whether or not any call threw. task must not throw: parallelFor's
    // wrapper catches the body's exceptions.
    void run(int workers, const std::function<void(int)>& task) {
        std::lock_guard job(jobMutex_);
        ensureThreads(workers - 1);
        {
            std::lock_guard lk(m_);
            task_ = &task;
            active_ = workers - 1;
            pending_ = workers - 1;
            ++generation_;
        }
        cv_.notify_all();
        tInsidePool = true;
        task(0);  // the caller is worker 0
        tInsidePool = false;
        std::unique_lock lk(m_);
        done_.wait(lk, [&] { return pending_ == 0; });
        task_ = nullptr;
    }

    ~Pool() {
        {
            std::lock_guard lk(m_);
            quit_ = true;
        }
        cv_.notify_all();
        for (auto& t : threads_) t.join();
    }

private:
    void ensureThreads(int n) {
        while (static_cast<int>(threads_.size()) < n) {
            const int id = static_cast<int>(threads_.size()) + 1;
            threads_.emplace_back([this, id] { loop(id); });
        }
    }

    void loop(int id) {
        tInsidePool = true;
        unsigned long seen = 0;
        for (;;) {
            const std::function<void(int)>* task = nullptr;
            {
                std::unique_lock lk(m_);
                cv_.wait(lk, [&] { return quit_ || generation_ != seen; });
                if (quit_) return;
                seen = generation_;
                if (id > active_) continue;
                task = task_;
            }
            (*task)(id);
            {
                std::lock_guard lk(m_);
                if (--pending_ == 0) done_.notify_one();
            }
        }
    }

    std::mutex jobMutex_;
    std::mutex m_;
    std::condition_variable cv_;
    std::condition_variable done_;
    std::vector<std::thread> threads_;
    const std::function<void(int)>* task_ = nullptr;
    unsigned long generation_ = 0;
    int active_ = 0;
    int pending_ = 0;
    bool quit_ = false;
};

}  // namespace

int resolveThreads(int threads) {
    if (threads > 0) return threads;
    if (tDefaultThreads > 0) return tDefaultThreads;
    return std::max(1u, std::thread::hardware_concurrency());
}

DefaultThreadsScope::DefaultThreadsScope(int threads) : previous_(tDefaultThreads) {
    tDefaultThreads = std::max(0, threads);
}

DefaultThreadsScope::~DefaultThreadsScope() { tDefaultThreads = previous_; }

void parallelFor(std::size_t count, int threads, const std::function<void(std::size_t, std::size_t)>& body) {
    if (count == 0) return;
    const int workers = static_cast<int>(std::min<std::size_t>(count, static_cast<std::size_t>(resolveThreads(threads))));
    // A loop inside a worker (a nested call) runs on that worker alone.
    if (workers <= 1 || tInsidePool) {
        body(0, count);
        return;
    }
    // One slot per worker, so no lock is needed. Every chunk runs even after another failed
    // (each worker has one chunk, started at once), so the exception that comes out does not
    // depend on timing.
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(workers));
    Pool::instance().run(workers, [&](int id) {
        const std::size_t w = static_cast<std::size_t>(workers);
        const std::size_t i = static_cast<std::size_t>(id);
        const std::size_t begin = count * i / w;
        const std::size_t end = count * (i + 1) / w;
        if (begin >= end) return;
        try {
            body(begin, end);
        } catch (...) {
            errors[i] = std::current_exception();
        }
    });
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace linescope
