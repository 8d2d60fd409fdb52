// Scanner-like versions of a clean page for the skew task (issue 6): rotation by a known
// angle, then a degradation profile drawn deterministically from a seed. Plain functions on
// 8-bit grey cv::Mat, any thread (each call owns its cv::RNG).
#pragma once

#include <opencv2/core.hpp>

#include <cstdint>
#include <string>

namespace linescope::tasks {

enum class DegradeProfile {
    Clean,  // rotation only
    Scan,   // mild: grey paper and ink, slight blur, noise, gentle lighting gradient, JPEG q 75
    Hard,   // strong blur and noise, strong lighting gradient, dark scanner-bed margins on one or
            // two sides, borders cropped into the content, JPEG q 40
};
inline constexpr DegradeProfile kAllProfiles[] = {DegradeProfile::Clean, DegradeProfile::Scan,
                                                  DegradeProfile::Hard};

const char* profileName(DegradeProfile p);                  // "clean", "scan", "hard"
DegradeProfile parseProfile(const std::string& name);       // throws std::invalid_argument
int jpegQualityOf(DegradeProfile p);                        // 0 = stored losslessly (PNG)

// `page` (CV_8UC1) rotated by `degrees` counter-clockwise on screen (design.md §1: lines at 0°
// end up at +degrees, the skew the engine should report) about its centre, bicubic, with
// paper white (255) brought in at the corners. The size stays the page's own: like a sheet
// turned on the scanner bed, corners of the content may leave the frame at large angles.
cv::Mat rotatePage(const cv::Mat& page, double degrees);

// The profile's degradations of an already rotated page, all but the JPEG compression (the
// data set writes that as the .jpg file itself; jpegRoundTrip does it in memory). Hard
// crops the borders, so its result is smaller than `rotated`. Deterministic in `seed`.
cv::Mat degradeBeforeJpeg(const cv::Mat& rotated, DegradeProfile p, std::uint64_t seed);

// Encodes to JPEG at `quality` and decodes again (quality 0: returns `img` unchanged).
cv::Mat jpegRoundTrip(const cv::Mat& img, int quality);

// rotatePage, degradeBeforeJpeg and jpegRoundTrip: the page exactly as the data set stores it.
cv::Mat makeSkewedPage(const cv::Mat& page, double degrees, DegradeProfile p, std::uint64_t seed);

}  // namespace linescope::tasks
