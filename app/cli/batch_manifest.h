// batch's record of its work: OUT/batch-manifest.jsonl, one JSON object a line, one line
// per input and run, appended as each input finishes. A line is written with one write(2)
// and flushed to disk before the next, so a crash loses at most the lines of the inputs in
// flight; a line cut short is not a record (it is ignored when read back, and the next line
// starts on a line of its own). Read back, the latest record of each input says whether
// a re-run may skip it (isComplete).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace linescope::cli {

inline constexpr const char* kBatchManifestName = "batch-manifest.jsonl";

// What identifies an input's content for a re-run: a file changed since is redone.
struct InputStamp {
    std::int64_t bytes = -1;
    std::int64_t modifiedNs = -1;
    bool operator==(const InputStamp&) const = default;
};
// The stamp of the file at `path` (-1s when it cannot be read).
InputStamp stampOf(const std::string& path);

struct ManifestRecord {
    std::string input;                 // the input's path as the batch found it
    std::string status;                // "ok", "failed" or "skipped" (complete from an earlier run)
    std::vector<std::string> outputs;  // the files written, relative to the output folder
    std::string error;                 // the one-line reason, for "failed"
    double timeMs = 0;                 // decoding, computing and writing this input
    std::string results = "{}";        // a JSON object: the command's key results and the image's size
    std::string notes = "[]";          // a JSON array of strings: the notes the input gave rise to
    std::string command;               // the subcommand, e.g. "skew"
    std::string options = "[]";        // a JSON array of strings: its options as given
    InputStamp stamp;
};

// The record as one line of JSON, with its newline.
std::string manifestLine(const ManifestRecord& record);

class BatchManifest {
public:
    // Reads the records of `folder`'s manifest when there is one and opens it for appending
    // (creating it). Throws io::IoError when it cannot be opened.
    explicit BatchManifest(const std::string& folder);
    ~BatchManifest();
    BatchManifest(const BatchManifest&) = delete;
    BatchManifest& operator=(const BatchManifest&) = delete;

    const std::string& path() const { return path_; }
    // The latest record of `input` from earlier runs, if any.
    const ManifestRecord* previous(const std::string& input) const;
    // Appends the record; safe from several threads. Throws io::IoError when it cannot.
    void append(const ManifestRecord& record);
    // Appends a line that manifestLine made elsewhere (a Dask worker's record).
    void appendLine(const std::string& line);

private:
    std::string path_;
    int fd_ = -1;
    std::mutex mutex_;
    std::map<std::string, ManifestRecord> previous_;
};

// Whether a re-run may skip `input`: its latest record is ok (or skipped) for the same
// command and options and the same input content, and every output it lists is still a
// file in `folder`. Atomic writes mean that an output that exists is whole.
bool isComplete(const ManifestRecord* latest, const std::string& command, const std::string& options,
                const InputStamp& stamp, const std::string& folder);

}  // namespace linescope::cli
