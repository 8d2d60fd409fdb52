#include "app/cli/batch_pipeline.h"

#include "app/cli/batch_item.h"
#include "app/cli/bounded_queue.h"

#include <atomic>
#include <exception>
#include <memory>
#include <thread>
#include <utility>

namespace linescope::cli {

namespace {

// One input on its way through the pipeline; one thread holds it at a time.
struct Item {
    std::size_t index = 0;
    BatchItem work;
};
using ItemPtr = std::unique_ptr<Item>;

class Pipeline {
public:
    Pipeline(const BatchPlan& plan, const std::vector<std::string>& protectedFiles, BatchManifest& manifest,
             BatchProgress& progress)
        : plan_(plan), protected_(fileIdsOf(protectedFiles)), manifest_(manifest), progress_(progress),
          decoded_(static_cast<std::size_t>(plan.ioThreads)), computed_(static_cast<std::size_t>(plan.ioThreads)) {}

    void run() {
        const int n = std::max(1, plan_.ioThreads);
        activeDecoders_ = n;
        std::vector<std::thread> threads;
        for (int i = 0; i < n; ++i) threads.emplace_back([this] { decodeLoop(); });
        threads.emplace_back([this] { engineLoop(); });
        for (int i = 0; i < n; ++i) threads.emplace_back([this] { writeLoop(); });
        for (std::thread& t : threads) t.join();
        if (manifestError_) std::rethrow_exception(manifestError_);
    }

private:
    // A phase of an item; a failure ends the item there. True on success.
    template <class Phase>
    bool step(Item& item, Phase&& phase) {
        if (runBatchPhase(item.work, std::forward<Phase>(phase))) return true;
        finish(item);
        return false;
    }

    void decodeLoop() {
        for (std::size_t i = next_++; i < plan_.tasks.size(); i = next_++) {
            auto item = std::make_unique<Item>();
            item->index = i;
            if (step(*item, [&] { decodeBatchItem(*plan_.job, plan_.tasks[i], protected_, item->work); }))
                decoded_.push(std::move(item));
        }
        if (--activeDecoders_ == 0) decoded_.close();
    }

    void engineLoop() {
        while (ItemPtr item = decoded_.pop().value_or(nullptr))
            if (step(*item, [&] { computeBatchItem(*plan_.job, plan_.tasks[item->index], item->work); }))
                computed_.push(std::move(item));
        computed_.close();
    }

    void writeLoop() {
        while (ItemPtr item = computed_.pop().value_or(nullptr))
            if (step(*item, [&] { writeBatchItem(item->work); })) finish(*item);
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
    std::atomic<std::size_t> next_{0};
    std::atomic<int> activeDecoders_{0};
    std::mutex errorMutex_;
    std::exception_ptr manifestError_;
};

}  // namespace

void runBatchPipeline(const BatchPlan& plan, const std::vector<std::string>& protectedFiles, BatchManifest& manifest,
                      BatchProgress& progress) {
    Pipeline(plan, protectedFiles, manifest, progress).run();
}

}  // namespace linescope::cli
