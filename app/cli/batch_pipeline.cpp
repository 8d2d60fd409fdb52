#include "app/cli/batch_pipeline.h"

#include "app/cli/batch_item.h"
#include "app/cli/bounded_queue.h"
#include "app/cli/byte_gate.h"
#include "app/io/memory_budget.h"
#include "compute/backend.h"
#include "compute/cuda_devices.h"
#include "compute/image.h"
#include "compute/thread_pool.h"

#include <opencv2/core/mat.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

namespace linescope::cli {

namespace {

using Stage = BatchStageTimes::Stage;

// Several threads' stage as one: their files and busy time summed.
Stage sumStages(const std::vector<Stage>& stages) {
    Stage total;
    total.threads = static_cast<int>(stages.size());
    for (const Stage& s : stages) {
        total.files += s.files;
        total.seconds += s.seconds;
    }
    return total;
}

// One input on its way through the pipeline; one thread holds it at a time. The pin goes
// first (members end in reverse order), and holds the decoded pixels until it has.
struct Item {
    std::size_t index = 0;
    BatchItem work;
    cv::Mat pinnedPixels;
    std::optional<HostMemoryPin> pin;
};
using ItemPtr = std::unique_ptr<Item>;

class Pipeline {
public:
    Pipeline(const BatchPlan& plan, const std::vector<std::string>& protectedFiles, BatchManifest& manifest,
             BatchProgress& progress)
        : plan_(plan), protected_(fileIdsOf(protectedFiles)), manifest_(manifest), progress_(progress),
          decoded_(static_cast<std::size_t>(plan.ioThreads)), computed_(static_cast<std::size_t>(plan.ioThreads)),
          cpuImages_(io::imageMemoryBudget()) {}

    BatchStageTimes run() {
        const int n = std::max(1, plan_.ioThreads);
        const int engines = plan_.devices.empty() ? std::max(1, plan_.cpuEngines) : static_cast<int>(plan_.devices.size());
        activeDecoders_ = n;
        activeEngines_ = engines;
        decodeTimes_.assign(static_cast<std::size_t>(n), {});
        writeTimes_.assign(static_cast<std::size_t>(n), {});
        engineTimes_.assign(static_cast<std::size_t>(engines), {});
        std::vector<std::thread> threads;
        for (int i = 0; i < n; ++i) threads.emplace_back([this, i] { decodeLoop(decodeTimes_[i]); });
        for (int e = 0; e < engines; ++e) threads.emplace_back([this, e] { engineLoop(e); });
        for (int i = 0; i < n; ++i) threads.emplace_back([this, i] { writeLoop(writeTimes_[i]); });
        for (std::thread& t : threads) t.join();
        if (manifestError_) std::rethrow_exception(manifestError_);
        BatchStageTimes t;
        t.decoding = sumStages(decodeTimes_);
        t.writing = sumStages(writeTimes_);
        t.engines = engineTimes_;
        t.devices = plan_.devices;
        return t;
    }

private:
    // A phase of an item; a failure ends the item there. True on success.
    template <class Phase>
    bool step(Item& item, Phase&& phase) {
        if (runBatchPhase(item.work, std::forward<Phase>(phase))) return true;
        finish(item);
        return false;
    }

    // Each thread counts its own stage's time; run() adds them up after the joins.
    template <class Phase>
    static bool timed(BatchStageTimes::Stage& stage, Phase&& phase) {
        const auto start = std::chrono::steady_clock::now();
        const bool ok = phase();
        stage.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ++stage.files;
        return ok;
    }

    void decodeLoop(BatchStageTimes::Stage& times) {
        for (std::size_t i = next_++; i < plan_.tasks.size(); i = next_++) {
            auto item = std::make_unique<Item>();
            item->index = i;
            if (timed(times, [&] {
                    return step(*item, [&] {
                        decodeBatchItem(*plan_.job, plan_.tasks[i], protected_, item->work);
                        // The decoders, not the engine's thread, pay for the GPU's copy.
                        const cv::Mat& m = item->work.image;
                        if (plan_.pinDecoded && !m.empty()) {
                            item->pinnedPixels = m;
                            item->pin.emplace(m.datastart, static_cast<std::size_t>(m.dataend - m.datastart));
                        }
                    });
                }))
                decoded_.push(std::move(item));
        }
        if (--activeDecoders_ == 0) decoded_.close();
    }

    // Engine thread `e`: on plan.devices[e] when devices are named, in the device's next
    // context when it is named again (0,0: two contexts, each its own stream, so that one
    // thread's copies and host work overlap the other's kernels). A device that cannot be
    // used fails each item it takes with the reason (the others' threads go on). On the CPU,
    // its engine calls take plan.cpuThreadsEach threads where their options say "one per core".
    void engineLoop(int e) {
        BatchStageTimes::Stage& times = engineTimes_[static_cast<std::size_t>(e)];
        times.threads = 1;
        std::optional<CudaDeviceScope> device;
        std::optional<DefaultThreadsScope> cpuThreads;
        std::string deviceError;
        if (plan_.devices.empty()) {
            cpuThreads.emplace(plan_.cpuThreadsEach);
        } else {
            try {
                const auto begin = plan_.devices.begin(), mine = begin + e;
                device.emplace(*mine, static_cast<int>(std::count(begin, mine, *mine)));
            } catch (...) {
                deviceError = describeCurrentFailure();
            }
        }
        while (ItemPtr item = decoded_.pop().value_or(nullptr)) {
            bool ok = false;
            {
                // Several CPU engine threads: wait (untimed) for room for this image's bytes.
                std::optional<ByteGate::Hold> hold;
                if (plan_.devices.empty() && plan_.cpuEngines > 1)
                    hold.emplace(cpuImages_, static_cast<std::uint64_t>(item->work.image.total() *
                                                                        item->work.image.elemSize()));
                ok = timed(times, [&] {
                    return step(*item, [&] {
                        if (!deviceError.empty()) throw Error(deviceError);
                        computeBatchItem(*plan_.job, plan_.tasks[item->index], item->work);
                    });
                });
            }
            if (ok) computed_.push(std::move(item));
        }
        if (--activeEngines_ == 0) computed_.close();
    }

    void writeLoop(BatchStageTimes::Stage& times) {
        while (ItemPtr item = computed_.pop().value_or(nullptr))
            if (timed(times, [&] { return step(*item, [&] { writeBatchItem(item->work); }); })) finish(*item);
    }

    // The one end of every item: its manifest record, then its progress report.
    void finish(Item& item) {
        const BatchTask& task = plan_.tasks[item.index];
        const ManifestRecord r = batchRecord(item.work, task, plan_.outputFolder, plan_.command, plan_.options);
        try {
            manifest_.append(r);
        } catch (...) {
            std::lock_guard lock(errorMutex_);
            if (!manifestError_) manifestError_ = std::current_exception();
        }
        if (r.error.empty()) progress_.succeeded(task.input, item.work.ms);
        else progress_.failed(task.input, r.error);
    }

    const BatchPlan& plan_;
    const FileIds protected_;
    BatchManifest& manifest_;
    BatchProgress& progress_;
    BoundedQueue<ItemPtr> decoded_, computed_;
    ByteGate cpuImages_;  // CPU engine threads: their images together within one image's budget
    std::atomic<std::size_t> next_{0};
    std::atomic<int> activeDecoders_{0}, activeEngines_{0};
    std::vector<BatchStageTimes::Stage> decodeTimes_, engineTimes_, writeTimes_;
    std::mutex errorMutex_;
    std::exception_ptr manifestError_;
};

}  // namespace

BatchStageTimes runBatchPipeline(const BatchPlan& plan, const std::vector<std::string>& protectedFiles,
                                 BatchManifest& manifest, BatchProgress& progress) {
    return Pipeline(plan, protectedFiles, manifest, progress).run();
}

namespace {

// "16 threads, 41.2 ms a file (at most 388 files/s)"
std::string describeStage(const Stage& s) {
    char text[160];
    if (s.files == 0 || s.seconds <= 0) {
        std::snprintf(text, sizeof text, "%d thread%s, no files", s.threads, s.threads == 1 ? "" : "s");
        return text;
    }
    const double perFile = s.seconds / static_cast<double>(s.files);
    std::snprintf(text, sizeof text, "%d thread%s, %.1f ms a file (at most %.1f files/s)", s.threads,
                  s.threads == 1 ? "" : "s", 1000 * perFile, s.threads / perFile);
    return text;
}

}  // namespace

std::string describeStages(const BatchStageTimes& t, double wallSeconds) {
    std::string out = "stages: decoding " + describeStage(t.decoding) + "; engine";
    if (t.devices.empty()) {  // the CPU: its threads' sum
        const Stage all = sumStages(t.engines);
        char text[200];
        std::snprintf(text, sizeof text, " on the CPU, %zu files: %s, busy %.0f %% of the time", all.files,
                      describeStage(all).c_str(),
                      wallSeconds > 0 && all.threads > 0 ? 100 * all.seconds / (wallSeconds * all.threads) : 0.0);
        return out + text + "; writing " + describeStage(t.writing);
    }
    for (std::size_t e = 0; e < t.engines.size(); ++e) {
        const BatchStageTimes::Stage& s = t.engines[e];
        out += e == 0 ? " " : ", ";
        if (!t.devices.empty()) out += "on GPU " + std::to_string(t.devices[e]) + " ";
        char text[160];
        std::snprintf(text, sizeof text, "%zu files, %.1f ms a file, busy %.0f %% of the time", s.files,
                      s.files ? 1000 * s.seconds / static_cast<double>(s.files) : 0.0,
                      wallSeconds > 0 ? 100 * s.seconds / wallSeconds : 0.0);
        out += text;
    }
    out += "; writing " + describeStage(t.writing);
    return out;
}

}  // namespace linescope::cli
