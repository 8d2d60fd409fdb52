#include "app/cli/batch_pipeline.h"

#include "app/cli/bounded_queue.h"
#include "app/cli/failure.h"
#include "app/io/json_writer.h"
#include "app/io/text_file.h"

#include <atomic>
#include <chrono>
#include <exception>
#include <filesystem>
#include <memory>
#include <set>
#include <thread>
#include <utility>

#include <sys/stat.h>

namespace linescope::cli {

namespace fs = std::filesystem;

namespace {

// One input on its way through the pipeline; one thread holds it at a time.
struct Item {
    std::size_t index = 0;
    cv::Mat image;
    OutputPaths outputs;
    std::unique_ptr<JobResult> result;
    std::vector<std::string> notes;
    std::string results;  // the image's size and type, then the command's key results
    double ms = 0;
};
using ItemPtr = std::unique_ptr<Item>;

using FileId = std::pair<dev_t, ino_t>;

std::set<FileId> fileIdsOf(const std::vector<std::string>& paths) {
    std::set<FileId> ids;
    for (const std::string& p : paths) {
        struct stat st {};
        if (::stat(p.c_str(), &st) == 0) ids.insert({st.st_dev, st.st_ino});
    }
    return ids;
}

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
    // Runs one phase of an item, timing it; a failure ends the item there. True on success.
    template <class Phase>
    bool step(Item& item, Phase&& phase) {
        const auto start = std::chrono::steady_clock::now();
        try {
            phase();
            item.ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            return true;
        } catch (...) {
            item.ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            finish(item, describeFailure(std::current_exception()).message, {});
            return false;
        }
    }

    void decodeLoop() {
        for (std::size_t i = next_++; i < plan_.inputs.size(); i = next_++) {
            auto item = std::make_unique<Item>();
            item->index = i;
            if (step(*item, [&] { decode(*item); })) decoded_.push(std::move(item));
        }
        if (--activeDecoders_ == 0) decoded_.close();
    }

    void decode(Item& item) {
        const std::string& path = plan_.inputs[item.index].path;
        const auto note = [&item](const std::string& line) { item.notes.push_back(line); };
        item.image = io::readImage(path, note);
        item.outputs = plan_.job->batchOutputs(plan_.stems[item.index], path, item.image);
        for (const auto& [role, output] : item.outputs) {
            std::error_code ec;
            const fs::path parent = fs::path(output).parent_path();
            fs::create_directories(parent, ec);
            if (ec) throw io::IoError("cannot create the folder '" + parent.string() + "': " + ec.message());
        }
        std::vector<std::string> files = plan_.job->prepare(path, item.image, item.outputs);
        if (const auto printed = item.outputs.find("printed"); printed != item.outputs.end())
            files.push_back(printed->second);
        refuseToReplaceInputs(files);
        item.results = "\"width\": " + std::to_string(item.image.cols) + ", \"height\": " +
                       std::to_string(item.image.rows) + ", \"pixel_type\": " +
                       io::jsonString(io::depthName(item.image.depth()));
    }

    void refuseToReplaceInputs(const std::vector<std::string>& files) const {
        for (const std::string& file : files) {
            struct stat st {};
            if (::stat(file.c_str(), &st) == 0 && protected_.count({st.st_dev, st.st_ino}))
                throw io::IoError("its output '" + file + "' is an input of the batch: refusing to replace it");
        }
    }

    void engineLoop() {
        while (ItemPtr item = decoded_.pop().value_or(nullptr)) {
            const std::string& path = plan_.inputs[item->index].path;
            const auto note = [&item](const std::string& line) { item->notes.push_back(line); };
            if (step(*item, [&] { item->result = plan_.job->compute(path, item->image, note); }))
                computed_.push(std::move(item));
        }
        computed_.close();
    }

    void writeLoop() {
        while (ItemPtr item = computed_.pop().value_or(nullptr)) {
            JobReport report;
            const bool written = step(*item, [&] {
                item->image.release();  // the result holds what it still needs
                report = item->result->write(item->outputs);
                if (const auto printed = item->outputs.find("printed"); printed != item->outputs.end()) {
                    io::writeTextFile(printed->second, report.printed);
                    report.files.push_back(printed->second);
                }
            });
            if (!written) continue;
            if (!report.results.empty()) item->results += ", " + report.results;
            finish(*item, "", report.files);
        }
    }

    // The one end of every item: its manifest record, then its progress report.
    void finish(Item& item, const std::string& error, const std::vector<std::string>& files) {
        const BatchInput& input = plan_.inputs[item.index];
        ManifestRecord r;
        r.input = input.path;
        r.status = error.empty() ? "ok" : "failed";
        for (const std::string& f : files) r.outputs.push_back(fs::path(f).lexically_relative(plan_.outputFolder).string());
        r.error = error;
        r.timeMs = item.ms;
        r.results = "{" + item.results + "}";
        r.notes = "[";
        for (const std::string& n : item.notes) r.notes += (r.notes.size() > 1 ? ", " : "") + io::jsonString(n);
        r.notes += "]";
        r.command = plan_.command;
        r.options = plan_.options;
        r.stamp = plan_.stamps[item.index];
        try {
            manifest_.append(r);
        } catch (...) {
            std::lock_guard lock(errorMutex_);
            if (!manifestError_) manifestError_ = std::current_exception();
        }
        if (error.empty()) progress_.succeeded(input.path, item.ms);
        else progress_.failed(input.path, error);
    }

    const BatchPlan& plan_;
    const std::set<FileId> protected_;
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
