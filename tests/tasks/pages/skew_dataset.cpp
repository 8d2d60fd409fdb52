// Writing and reading the skew data set (see skew_dataset.h).
#include "tests/tasks/pages/skew_dataset.h"

#include "tests/tasks/pages/photo_pages.h"

#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace linescope::tasks {

std::vector<double> skewAnglesForPage(int spread, std::uint64_t pageSeed, double range) {
    // Rotations below 0.1° must be read as such, not as 0: ±0.05 and ±0.07 test that.
    std::vector<double> a{0.0, 0.05, -0.05, 0.07, -0.07, 0.3, -0.3};
    cv::RNG rng(pageSeed);
    for (int i = 0; i < spread; ++i) a.push_back(std::round(rng.uniform(-range, range) * 1000.0) / 1000.0);
    return a;
}

std::string groupOfSource(const std::string& cleanName) {
    if (cleanName.rfind("score-", 0) == 0) return "score";
    if (cleanName.rfind("text-table-", 0) == 0) return "table";
    if (cleanName.rfind("text-", 0) == 0) return "text";
    if (cleanName.rfind("photo-", 0) == 0) return "photo";
    return "other";
}

namespace {
std::uint64_t fnv1a(const std::string& s, std::uint64_t h = 1469598103934665603ULL) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
    return h;
}
}  // namespace

std::uint64_t itemSeed(const std::string& source, int angleIndex, DegradeProfile p) {
    return fnv1a(source + "#" + std::to_string(angleIndex) + "#" + profileName(p));
}

std::vector<SkewItem> readSkewTruth(const std::string& dir) {
    const fs::path path = fs::path(dir) / "truth.csv";
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path.string() + " (make it with make-skew-set)");
    std::vector<SkewItem> items;
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        std::stringstream ss(line);
        SkewItem it;
        std::string profile, angle;
        if (!std::getline(ss, it.file, ',') || !std::getline(ss, it.source, ',') || !std::getline(ss, it.group, ',') ||
            !std::getline(ss, profile, ',') || !std::getline(ss, angle))
            throw std::runtime_error("malformed line in " + path.string() + ": " + line);
        it.profile = parseProfile(profile);
        it.angle = std::stod(angle);
        items.push_back(std::move(it));
    }
    return items;
}

namespace {

// A page the set rotates: a clean PNG, or a photo page made from one (photo_pages.h).
struct SourcePage {
    std::string name;
    fs::path file;
    int photos = 0;  // > 0: paste this many photos into `file` and call it `name`
};

std::vector<SourcePage> sourcePages(const std::string& cleanDir) {
    std::vector<SourcePage> pages;
    for (const auto& e : fs::directory_iterator(cleanDir))
        if (e.path().extension() == ".png") pages.push_back({e.path().filename().string(), e.path(), 0});
    if (pages.empty()) throw std::runtime_error("no .png pages in " + cleanDir);
    for (const PhotoPageSpec& s : kPhotoPages)
        if (fs::exists(fs::path(cleanDir) / s.text))
            pages.push_back({photoPageName(s.text), fs::path(cleanDir) / s.text, s.photos});
    std::sort(pages.begin(), pages.end(), [](const SourcePage& a, const SourcePage& b) { return a.name < b.name; });
    return pages;
}

constexpr const char* kMakeUsage =
    "usage: linescope-task-eval make-skew-set CLEAN_DIR OUT_DIR [--angles-per-page N] [--range DEG] [--profiles clean,scan,hard]\n"
    "Rotates every CLEAN_DIR/*.png, and the photo pages made from its text pages, by 0, ±0.05, ±0.07, ±0.3\n"
    "and N angles from −DEG…DEG (defaults 15 and 15), degrades each by every profile and writes\n"
    "OUT_DIR/<page>_a<k>_<profile>.png|jpg and truth.csv.\n";

}  // namespace

int runMakeSkewSet(const ArgList& args) {
    std::vector<std::string> pos;
    int spread = 15;
    double range = kSkewSetRange;
    std::vector<DegradeProfile> profiles(std::begin(kAllProfiles), std::end(kAllProfiles));
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--help") {
            std::fputs(kMakeUsage, stdout);
            return 0;
        }
        if (args[i] == "--angles-per-page" && i + 1 < args.size()) spread = std::stoi(args[++i]);
        else if (args[i] == "--range" && i + 1 < args.size()) range = std::stod(args[++i]);
        else if (args[i] == "--profiles" && i + 1 < args.size()) {
            profiles.clear();
            std::stringstream ss(args[++i]);
            for (std::string p; std::getline(ss, p, ',');) profiles.push_back(parseProfile(p));
        } else pos.push_back(args[i]);
    }
    if (pos.size() != 2 || spread < 0 || !(range > 0)) {
        std::fputs(kMakeUsage, stderr);
        return 2;
    }
    fs::create_directories(pos[1]);
    std::ofstream truth(fs::path(pos[1]) / "truth.csv");
    truth << "file,source,group,profile,angle_deg\n";
    // Each source page on a thread of its own (every item is seeded by its own name, so the
    // set is the same bit for bit), its truth rows kept in the sources' order.
    const std::vector<SourcePage> sources = sourcePages(pos[0]);
    std::vector<std::string> rows(sources.size());
    std::vector<int> counts(sources.size(), 0);
    std::vector<std::exception_ptr> errors(sources.size());
    std::vector<std::thread> threads;
    for (std::size_t s = 0; s < sources.size(); ++s)
        threads.emplace_back([&, s] {
            try {
                const SourcePage& src = sources[s];
                const std::string& name = src.name;
                cv::Mat page = cv::imread(src.file.string(), cv::IMREAD_GRAYSCALE);
                if (page.empty()) throw std::runtime_error("cannot read " + src.file.string());
                if (src.photos > 0) page = withPhotos(page, src.photos, fnv1a(name));
                const std::vector<double> angles = skewAnglesForPage(spread, fnv1a(name), range);
                std::ostringstream lines;
                for (std::size_t k = 0; k < angles.size(); ++k) {
                    const cv::Mat rotated = rotatePage(page, angles[k]);
                    for (DegradeProfile p : profiles) {
                        const int q = jpegQualityOf(p);
                        char file[512];
                        std::snprintf(file, sizeof file, "%s_a%02zu_%s.%s", fs::path(name).stem().string().c_str(), k,
                                      profileName(p), q > 0 ? "jpg" : "png");
                        const cv::Mat img = degradeBeforeJpeg(rotated, p, itemSeed(name, static_cast<int>(k), p));
                        const std::vector<int> opts = q > 0 ? std::vector<int>{cv::IMWRITE_JPEG_QUALITY, q}
                                                            : std::vector<int>{cv::IMWRITE_PNG_COMPRESSION, 6};
                        if (!cv::imwrite((fs::path(pos[1]) / file).string(), img, opts))
                            throw std::runtime_error(std::string("cannot write ") + file);
                        char angle[32];
                        std::snprintf(angle, sizeof angle, "%.3f", angles[k]);
                        lines << file << ',' << name << ',' << groupOfSource(name) << ',' << profileName(p) << ','
                              << angle << '\n';
                        ++counts[s];
                    }
                }
                rows[s] = lines.str();
                std::fprintf(stderr, "%s: %zu angles\n", name.c_str(), angles.size());
            } catch (...) {
                errors[s] = std::current_exception();
            }
        });
    for (std::thread& t : threads) t.join();
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
    int written = 0;
    for (std::size_t s = 0; s < sources.size(); ++s) {
        truth << rows[s];
        written += counts[s];
    }
    std::printf("wrote %d pages and truth.csv to %s\n", written, pos[1].c_str());
    return 0;
}

}  // namespace linescope::tasks
