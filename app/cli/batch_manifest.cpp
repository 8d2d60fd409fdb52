#include "app/cli/batch_manifest.h"

#include "app/cli/json_reader.h"
#include "app/io/image_io.h"
#include "app/io/json_writer.h"

#include <cerrno>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace linescope::cli {

namespace fs = std::filesystem;

namespace {

std::string stringOf(const JsonValue* v) { return v && v->kind == JsonValue::Kind::String ? v->string : ""; }
// From the text: nanosecond times are beyond a double's 53 bits.
std::int64_t integerOf(const JsonValue* v) {
    std::int64_t n = -1;
    if (!v || v->kind != JsonValue::Kind::Number) return n;
    const auto [end, ec] = std::from_chars(v->text.data(), v->text.data() + v->text.size(), n);
    return ec == std::errc() && end == v->text.data() + v->text.size() ? n : -1;
}

std::optional<ManifestRecord> recordOf(const std::string& line) {
    const auto json = parseJson(line);
    if (!json || json->kind != JsonValue::Kind::Object) return std::nullopt;
    ManifestRecord r;
    r.input = stringOf(json->find("input"));
    r.status = stringOf(json->find("status"));
    r.command = stringOf(json->find("command"));
    if (r.input.empty() || r.status.empty()) return std::nullopt;
    if (const JsonValue* outputs = json->find("outputs"); outputs && outputs->kind == JsonValue::Kind::Array)
        for (const JsonValue& o : outputs->items) r.outputs.push_back(o.string);
    if (const JsonValue* v = json->find("results"); v && v->kind == JsonValue::Kind::Object) r.results = v->text;
    if (const JsonValue* v = json->find("options"); v && v->kind == JsonValue::Kind::Array) r.options = v->text;
    r.stamp = {integerOf(json->find("input_bytes")), integerOf(json->find("input_mtime_ns"))};
    return r;
}

void writeAll(int fd, const std::string& bytes, const std::string& path) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw io::IoError("cannot write '" + path + "': " + std::generic_category().message(errno));
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace

InputStamp stampOf(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {};
    return {static_cast<std::int64_t>(st.st_size),
            static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

std::string manifestLine(const ManifestRecord& r) {
    std::string outputs;
    for (const std::string& o : r.outputs) outputs += (outputs.empty() ? "" : ", ") + io::jsonString(o);
    return "{\"input\": " + io::jsonString(r.input) + ", \"status\": " + io::jsonString(r.status) +
           ", \"outputs\": [" + outputs + "], \"error\": " + (r.error.empty() ? "null" : io::jsonString(r.error)) +
           ", \"time_ms\": " + io::jsonNumber(r.timeMs) + ", \"results\": " + r.results + ", \"notes\": " + r.notes +
           ", \"command\": " + io::jsonString(r.command) + ", \"options\": " + r.options +
           ", \"input_bytes\": " + io::jsonNumber(r.stamp.bytes) + ", \"input_mtime_ns\": " +
           io::jsonNumber(r.stamp.modifiedNs) + "}\n";
}

BatchManifest::BatchManifest(const std::string& folder) : path_((fs::path(folder) / kBatchManifestName).string()) {
    bool endsInNewline = true;
    {
        std::ifstream in(path_, std::ios::binary);
        std::string line;
        while (std::getline(in, line)) {
            endsInNewline = !in.eof();
            if (auto record = recordOf(line)) previous_[record->input] = std::move(*record);
        }
    }
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd_ < 0) throw io::IoError("cannot write '" + path_ + "': " + std::generic_category().message(errno));
    // A line cut short by a crash stays a broken line of its own, not the start of the next record.
    if (!endsInNewline) writeAll(fd_, "\n", path_);
}

BatchManifest::~BatchManifest() {
    if (fd_ >= 0) ::close(fd_);
}

const ManifestRecord* BatchManifest::previous(const std::string& input) const {
    const auto it = previous_.find(input);
    return it == previous_.end() ? nullptr : &it->second;
}

void BatchManifest::append(const ManifestRecord& record) { appendLine(manifestLine(record)); }

void BatchManifest::appendLine(const std::string& line) {
    std::lock_guard lock(mutex_);
    writeAll(fd_, line, path_);
    ::fdatasync(fd_);
}

bool isComplete(const ManifestRecord* latest, const std::string& command, const std::string& options,
                const InputStamp& stamp, const std::string& folder) {
    if (!latest || (latest->status != "ok" && latest->status != "skipped")) return false;
    if (latest->command != command || latest->options != options || !(latest->stamp == stamp) || stamp.bytes < 0)
        return false;
    std::error_code ec;
    for (const std::string& output : latest->outputs)
        if (!fs::is_regular_file(fs::path(folder) / output, ec)) return false;
    return true;
}

}  // namespace linescope::cli
