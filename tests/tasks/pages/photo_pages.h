// "Pages with photos" for the skew set (issue 20): a clean text page with one or two photo-like
// blocks pasted over its content, as a figure would sit in a report. Deterministic in the seed;
// plain functions on 8-bit grey cv::Mat, any thread.
#pragma once

#include <opencv2/core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace linescope::tasks {

// A photo-like block (CV_8UC1, `size`): a sky-to-ground gradient split by a horizon tilted by up
// to ±30° (a straight edge that is not the page's skew), blobs at two scales, a few shapes with
// straight edges at random angles, and film grain. Deterministic in `seed`.
cv::Mat makePhoto(cv::Size size, std::uint64_t seed);

// `page` with `count` photos (1 or 2) pasted inside its margins: each 40–65 % of the page's
// width and 14–22 % of its height, stacked in separate bands of the page so they never overlap.
cv::Mat withPhotos(const cv::Mat& page, int count, std::uint64_t seed);

// The photo pages the set derives from its clean text pages: photo-NAME.png from text-NAME.png.
struct PhotoPageSpec {
    const char* text;  // the clean text page, e.g. "text-prose.png"
    int photos;        // 1 or 2
};
inline constexpr PhotoPageSpec kPhotoPages[] = {
    {"text-prose.png", 1}, {"text-twocol.png", 2}, {"text-letter.png", 1}, {"text-table-harbour.png", 1}};
// "photo-NAME.png" for "text-NAME.png".
std::string photoPageName(const std::string& textPage);

}  // namespace linescope::tasks
