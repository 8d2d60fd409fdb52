// The skew data set (issue 6): clean pages rotated by known angles and degraded by each
// profile, written as image files with truth.csv; and reading it back. Used by
// linescope-task-eval make-skew-set / skew (main thread).
#pragma once

#include "tests/tasks/pages/page_degrade.h"
#include "tests/tasks/task_eval.h"

#include <cstdint>
#include <string>
#include <vector>

namespace linescope::tasks {

// One page of the set: `file` relative to the set's folder.
struct SkewItem {
    std::string file;
    std::string source;   // the clean page's file name
    std::string group;    // "score", "text", "table" or "photo" (groupOfSource)
    DegradeProfile profile = DegradeProfile::Clean;
    double angle = 0;     // degrees, counter-clockwise: the skew the estimate should report
};

// The angles every page gets: 0, ±0.05, ±0.07, ±0.3, then `spread` angles drawn uniformly from
// −range … range (degrees) with a fixed seed per page (`pageSeed`), rounded to 0.001°.
inline constexpr double kSkewSetRange = 15.0;
std::vector<double> skewAnglesForPage(int spread, std::uint64_t pageSeed, double range = kSkewSetRange);

// "score" for score-*.png, "table" for text-table-*.png, "text" for other text-*.png, "photo"
// for photo-*.png (text pages with photos, photo_pages.h), else "other".
std::string groupOfSource(const std::string& cleanName);
inline constexpr const char* kSkewGroups[] = {"score", "text", "table", "photo"};

// The seed of one (page, angle, profile): a hash of the three, so the set is reproducible.
std::uint64_t itemSeed(const std::string& source, int angleIndex, DegradeProfile p);

// Reads DIR/truth.csv (file,source,group,profile,angle_deg). Throws std::runtime_error.
std::vector<SkewItem> readSkewTruth(const std::string& dir);

// runMakeSkewSet (linescope-task-eval make-skew-set CLEAN_DIR OUT_DIR [--angles-per-page N]
// [--profiles a,b]) is declared in task_eval.h.

}  // namespace linescope::tasks
