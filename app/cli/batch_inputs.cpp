#include "app/cli/batch_inputs.h"

#include "app/io/image_header.h"
#include "app/io/image_io.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>

#include <glob.h>

namespace linescope::cli {

namespace fs = std::filesystem;

namespace {

bool hasImageExtension(const fs::path& path) {
    static const std::set<std::string> extensions = {"png", "tif",  "tiff", "jpg", "jpeg", "jpe", "pgm", "ppm",
                                                     "pnm", "pbm",  "pfm",  "bmp", "dib",  "webp", "jp2", "exr",
                                                     "hdr", "pic",  "ras",  "sr"};
    return extensions.count(io::extensionOf(path.string())) > 0;
}

bool isHidden(const fs::path& path) {
    const std::string name = path.filename().string();
    return !name.empty() && name[0] == '.';
}

// Whether `path` is `folder` or lies below it, once both are resolved.
bool isWithin(const fs::path& path, const fs::path& folder) {
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    const fs::path f = fs::weakly_canonical(fs::absolute(folder, ec), ec);
    const auto [fi, pi] = std::mismatch(f.begin(), f.end(), p.begin(), p.end());
    return fi == f.end() || (fi->empty() && std::next(fi) == f.end());  // "out/" ends in an empty element
}

// The mirror of a path given alone: as written, unless absolute or climbing out with "..".
fs::path mirrorOf(const fs::path& given) {
    const fs::path p = given.lexically_normal();
    if (p.is_relative() && !p.empty() && *p.begin() != "..") return p;
    std::error_code ec;
    return fs::absolute(p, ec).lexically_normal().relative_path();
}

class Collector {
public:
    explicit Collector(std::string outputFolder) : outputFolder_(std::move(outputFolder)) {}

    void addSource(const std::string& source) {
        if (!source.empty() && source[0] == '@') return addList(source.substr(1));
        if (source.find_first_of("*?[") != std::string::npos && !fs::exists(source)) return addGlob(source);
        std::error_code ec;
        if (fs::is_directory(source, ec)) return addFolder(source, "");
        if (!fs::exists(source, ec)) throw io::IoError("--inputs '" + source + "': no such file or folder");
        addFile(source, mirrorOf(source));
    }

    std::vector<BatchInput> take() {
        std::sort(inputs_.begin(), inputs_.end(), [](const BatchInput& a, const BatchInput& b) {
            return a.relative != b.relative ? a.relative < b.relative : a.path < b.path;
        });
        return std::move(inputs_);
    }

private:
    void addFile(const fs::path& path, const fs::path& relative) {
        if (isWithin(path, outputFolder_)) return;
        std::error_code ec;
        const std::string identity = fs::weakly_canonical(fs::absolute(path, ec), ec).string();
        if (!seen_.insert(identity).second) return;
        inputs_.push_back({path.lexically_normal().string(), relative.lexically_normal().string()});
    }

    // `mirror` is the folder's own mirror: "" for a folder given alone, its path for one in a list.
    void addFolder(const fs::path& folder, const fs::path& mirror) {
        if (isWithin(folder, outputFolder_)) return;
        std::error_code ec;
        auto it = fs::recursive_directory_iterator(folder, fs::directory_options::skip_permission_denied, ec);
        if (ec) throw io::IoError("cannot read the input folder '" + folder.string() + "': " + ec.message());
        for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (ec) throw io::IoError("cannot read the input folder '" + folder.string() + "': " + ec.message());
            const fs::path& path = it->path();
            if (isHidden(path)) {
                if (it->is_directory(ec)) it.disable_recursion_pending();
                continue;
            }
            if (it->is_directory(ec)) {
                if (isWithin(path, outputFolder_)) it.disable_recursion_pending();
                continue;
            }
            // A file with an image's extension is taken whatever it holds, so that a damaged
            // one fails with its reason rather than vanishing; other files by their signature.
            const bool image = hasImageExtension(path) || (it->is_regular_file(ec) && io::imageFormatOf(path.string()));
            if (image) addFile(path, mirror / path.lexically_relative(folder));
        }
    }

    void addGlob(const std::string& pattern) {
        glob_t matches{};
        const int status = ::glob(pattern.c_str(), 0, nullptr, &matches);
        std::vector<std::string> paths(matches.gl_pathv, matches.gl_pathv + matches.gl_pathc);
        ::globfree(&matches);
        if (status == GLOB_NOMATCH || paths.empty())
            throw io::IoError("--inputs '" + pattern + "' matches no file");
        if (status != 0) throw io::IoError("cannot search for '" + pattern + "'");
        // The leading folders without wildcards: what the matches are mirrored relative to.
        fs::path base;
        for (const fs::path& part : fs::path(pattern).parent_path()) {
            if (part.string().find_first_of("*?[") != std::string::npos) break;
            base /= part;
        }
        for (const std::string& match : paths) {
            const fs::path relative = base.empty() ? mirrorOf(match) : fs::path(match).lexically_relative(base);
            std::error_code ec;
            if (fs::is_directory(match, ec)) addFolder(match, relative);
            else addFile(match, relative);
        }
    }

    void addList(const std::string& listPath) {
        std::error_code ec;
        if (fs::is_directory(listPath, ec)) throw io::IoError("cannot read the list '" + listPath + "': it is a folder");
        std::ifstream list(listPath);
        if (!list) throw io::IoError("cannot read the list '" + listPath + "': " + std::generic_category().message(errno));
        std::string line;
        while (std::getline(list, line)) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.empty() || line[0] == '#') continue;
            if (fs::is_directory(line, ec)) addFolder(line, mirrorOf(line));
            else addFile(line, mirrorOf(line));
        }
        if (list.bad()) throw io::IoError("cannot read the list '" + listPath + "'");
    }

    std::string outputFolder_;
    std::vector<BatchInput> inputs_;
    std::set<std::string> seen_;
};

}  // namespace

std::vector<BatchInput> collectBatchInputs(const std::vector<std::string>& sources, const std::string& outputFolder) {
    Collector collector(outputFolder);
    for (const std::string& source : sources) collector.addSource(source);
    return collector.take();
}

}  // namespace linescope::cli
