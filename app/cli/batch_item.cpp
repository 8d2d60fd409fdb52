#include "app/cli/batch_item.h"

#include "app/cli/failure.h"
#include "app/io/json_writer.h"
#include "app/io/text_file.h"

#include <filesystem>

#include <sys/stat.h>

namespace linescope::cli {

namespace fs = std::filesystem;

FileIds fileIdsOf(const std::vector<std::string>& paths) {
    FileIds ids;
    for (const std::string& p : paths) {
        struct stat st {};
        if (::stat(p.c_str(), &st) == 0) ids.insert({st.st_dev, st.st_ino});
    }
    return ids;
}

std::string describeCurrentFailure() { return describeFailure(std::current_exception()).message; }

void decodeBatchItem(const CommandJob& job, const BatchTask& task, const FileIds& protectedFiles, BatchItem& item) {
    const auto note = [&item](const std::string& line) { item.notes.push_back(line); };
    item.image = io::readImage(task.input, note);
    item.outputs = job.batchOutputs(task.stem, task.input, item.image);
    for (const auto& [role, output] : item.outputs) {
        std::error_code ec;
        const fs::path parent = fs::path(output).parent_path();
        fs::create_directories(parent, ec);
        if (ec) throw io::IoError("cannot create the folder '" + parent.string() + "': " + ec.message());
    }
    std::vector<std::string> files = job.prepare(task.input, item.image, item.outputs);
    if (const auto printed = item.outputs.find("printed"); printed != item.outputs.end())
        files.push_back(printed->second);
    for (const std::string& file : files) {
        struct stat st {};
        if (::stat(file.c_str(), &st) == 0 && protectedFiles.count({st.st_dev, st.st_ino}))
            throw io::IoError("its output '" + file + "' is an input of the batch: refusing to replace it");
    }
    item.results = "\"width\": " + std::to_string(item.image.cols) + ", \"height\": " +
                   std::to_string(item.image.rows) + ", \"pixel_type\": " +
                   io::jsonString(io::depthName(item.image.depth()));
}

void computeBatchItem(const CommandJob& job, const BatchTask& task, BatchItem& item) {
    const auto note = [&item](const std::string& line) { item.notes.push_back(line); };
    item.result = job.compute(task.input, item.image, note);
}

void writeBatchItem(BatchItem& item) {
    item.image.release();  // the result holds what it still needs
    JobReport report = item.result->write(item.outputs);
    if (const auto printed = item.outputs.find("printed"); printed != item.outputs.end()) {
        io::writeTextFile(printed->second, report.printed);
        report.files.push_back(printed->second);
    }
    if (!report.results.empty()) item.results += ", " + report.results;
    item.files = std::move(report.files);
}

ManifestRecord batchRecord(const BatchItem& item, const BatchTask& task, const std::string& outputFolder,
                           const std::string& command, const std::string& options) {
    ManifestRecord r;
    r.input = task.input;
    r.status = item.error.empty() ? "ok" : "failed";
    for (const std::string& f : item.files) r.outputs.push_back(fs::path(f).lexically_relative(outputFolder).string());
    r.error = item.error;
    r.timeMs = item.ms;
    r.results = "{" + item.results + "}";
    r.notes = "[";
    for (const std::string& n : item.notes) r.notes += (r.notes.size() > 1 ? ", " : "") + io::jsonString(n);
    r.notes += "]";
    r.command = command;
    r.options = options;
    r.stamp = task.stamp;
    return r;
}

ManifestRecord runBatchItem(const CommandJob& job, const BatchTask& task, const FileIds& protectedFiles,
                            const std::string& outputFolder, const std::string& command, const std::string& options) {
    BatchItem item;
    (void)(runBatchPhase(item, [&] { decodeBatchItem(job, task, protectedFiles, item); }) &&
           runBatchPhase(item, [&] { computeBatchItem(job, task, item); }) &&
           runBatchPhase(item, [&] { writeBatchItem(item); }));
    return batchRecord(item, task, outputFolder, command, options);
}

}  // namespace linescope::cli
