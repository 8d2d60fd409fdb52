// linescope-cli's subcommands on arbitrary argument lists: the input is the command's
// arguments separated by NUL bytes, after one byte that picks the command. Run in an empty
// temporary folder with no '/' in any argument, so that every file named is missing and no
// command gets past its input file: what runs is the option parsing (Args, parseInteger,
// parseReal, each command's own checks). A command may return 0 (--help) or throw UsageError,
// io::IoError or linescope::Error; anything else escaping is a finding. The strict number
// parsers are also called on each argument and their results checked against their ranges.
#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/image_io.h"

#include "compute/image.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

using namespace linescope;
using namespace linescope::cli;

int runCommand(unsigned char pick, const ArgList& args) {
    switch (pick % 10) {
    case 0: return runMorph(MorphOp::Open, args);
    case 1: return runMorph(MorphOp::Close, args);
    case 2: return runMorph(MorphOp::Erode, args);
    case 3: return runMorph(MorphOp::Dilate, args);
    case 4: return runMorph(MorphOp::TopHat, args);
    case 5: return runSweep(args);
    case 6: return runSkew(args);
    case 7: return runSpectrum(args);
    case 8: return runOrientation(args);
    default: return runContours(args);
    }
}

void checkNumberParsers(const std::string& word) {
    try {
        const long long v = parseInteger(word, "--n", -1000, 1'000'000);
        if (v < -1000 || v > 1'000'000) std::abort();
    } catch (const UsageError&) {
    }
    try {
        if (!std::isfinite(parseReal(word, "--x"))) std::abort();
    } catch (const UsageError&) {
    }
}

}  // namespace

// The working folder during a run: empty, so that every file an argument names is missing.
// Changed per run, not once, so that libFuzzer reads its corpus folders where it was started.
class InEmptyFolder {
public:
    InEmptyFolder() : previous_(std::filesystem::current_path()) { std::filesystem::current_path(folder()); }
    ~InEmptyFolder() { std::filesystem::current_path(previous_); }

private:
    static const std::filesystem::path& folder() {
        static const auto dir = [] {
            auto d = std::filesystem::temp_directory_path() / ("linescope-fuzz-cli-" + std::to_string(::getpid()));
            std::filesystem::create_directories(d);
            return d;
        }();
        return dir;
    }
    std::filesystem::path previous_;
};

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (text.find('/') != std::string::npos) return 0;  // only missing files, never /dev/… or outputs
    ArgList args;
    std::string word;
    std::istringstream split(text);
    while (std::getline(split, word, '\0')) args.push_back(word);
    for (const auto& a : args) checkNumberParsers(a);

    const InEmptyFolder emptyFolder;
    static std::ostringstream sink;  // the notices and --help texts, kept off the fuzzer's output
    std::streambuf* cerr = std::cerr.rdbuf(sink.rdbuf());
    try {
        if (runCommand(data[0], args) != 0) std::abort();  // only --help returns, with 0
    } catch (const UsageError& e) {
        if (std::string(e.what()).empty()) std::abort();
    } catch (const io::IoError&) {
    } catch (const Error&) {  // e.g. --backend cuda in a build without CUDA
    }
    flushNotices();
    std::cerr.rdbuf(cerr);
    sink.str({});
    return 0;
}
