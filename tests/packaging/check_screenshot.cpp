// linescope-check-screenshot: whether a screenshot of the window shows what it should, for the
// package check (packaging/test-package.sh) and the GUI's screenshot test. A window that did
// not draw its viewport (no OpenGL, a crash in the renderer, an empty image) is grey widgets
// only; the orientation view paints a large share of strongly coloured pixels.
//
//   linescope-check-screenshot FILE [--size WxH] [--min-orientation-colour FRACTION]
// Prints the measures; exit 0 when every check holds, 1 when one fails, 2 on usage mistakes.
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: linescope-check-screenshot FILE [--size WxH] [--min-orientation-colour F]\n");
        return 2;
    }
    int wantW = 0, wantH = 0;
    double minColour = -1;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string opt = argv[i];
        if (opt == "--size" && std::sscanf(argv[i + 1], "%dx%d", &wantW, &wantH) == 2) continue;
        if (opt == "--min-orientation-colour") {
            minColour = std::atof(argv[i + 1]);
            continue;
        }
        std::fprintf(stderr, "linescope-check-screenshot: bad option %s\n", opt.c_str());
        return 2;
    }
    const cv::Mat bgr = cv::imread(argv[1], cv::IMREAD_COLOR);
    if (bgr.empty()) {
        std::fprintf(stderr, "linescope-check-screenshot: cannot read %s as an image\n", argv[1]);
        return 1;
    }
    cv::Mat hsv;
    cv::cvtColor(bgr, hsv, cv::COLOR_BGR2HSV_FULL);
    // Strongly coloured: saturation and value both above 40 % (the widgets are greys).
    cv::Mat coloured;
    cv::inRange(hsv, cv::Scalar(0, 102, 102), cv::Scalar(255, 255, 255), coloured);
    const double colourFraction = cv::countNonZero(coloured) / static_cast<double>(bgr.total());
    // Hues spread over the circle: orientations, not one accent colour.
    cv::Mat hueHistogram;
    const int channel = 0, bins = 8;
    const float hueRange[] = {0, 256};
    const float* ranges[] = {hueRange};
    cv::calcHist(&hsv, 1, &channel, coloured, hueHistogram, 1, &bins, ranges);
    const int hueBins = cv::countNonZero(hueHistogram > 0.002 * static_cast<double>(bgr.total()));
    std::printf("%s: %dx%d, strongly coloured %.1f %% of the pixels, in %d of 8 hue bins\n", argv[1], bgr.cols,
                bgr.rows, 100 * colourFraction, hueBins);

    bool ok = true;
    if (wantW > 0 && (bgr.cols != wantW || bgr.rows != wantH)) {
        std::printf("FAIL: the size is %dx%d, not %dx%d\n", bgr.cols, bgr.rows, wantW, wantH);
        ok = false;
    }
    if (minColour >= 0 && (colourFraction < minColour || hueBins < 4)) {
        std::printf("FAIL: the orientation view should colour at least %.1f %% of the window in 4 or more hues\n",
                    100 * minColour);
        ok = false;
    }
    return ok ? 0 : 1;
}
