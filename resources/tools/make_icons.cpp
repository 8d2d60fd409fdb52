// Renders LineScope's application icon (the design of resources/icons/linescope.svg) to the
// PNG sizes of the freedesktop hicolor theme:
//   make_icons OUTDIR   ->  OUTDIR/hicolor/<N>x<N>/apps/io.github.linescope.LineScope.png
// The design: a dark rounded square holding six line segments through one centre, at 0°, 30°,
// …, 150° in design.md's convention (counter-clockwise from East, y down), each coloured as the
// orientation map colours that angle (hue = 2α, full saturation and value); their lengths
// trace an angular spectrum peaking at 30°, the orientation of a bright elongated structure
// lying under them. Drawn with anti-aliasing on a canvas several times larger than the icon
// and reduced with INTER_AREA, so small sizes stay smooth; strokes are widened at small
// sizes so that no segment falls below about one output pixel. Keep the numbers in step with
// the SVG.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>

namespace {

// Everything in the SVG's 256-unit viewBox.
constexpr double kView = 256.0;
constexpr double kCentre = 128.0;
constexpr double kSquareInset = 8.0, kSquareRadius = 48.0;
const cv::Scalar kSquareBgr(48, 34, 28);     // #1c2230
const cv::Scalar kRimBgr(82, 64, 54);        // #364052, a rim that keeps the square visible on dark panels
constexpr double kRimWidth = 6.0;
const cv::Scalar kStructureBgr(112, 98, 88); // #586270, a bright ridge seen against the square
constexpr double kStructureAngle = 30.0, kStructureHalfLength = 96.0, kStructureWidth = 44.0;
constexpr double kSegmentWidth = 14.0, kHubRadius = 13.0;

struct Segment {
  double angleDeg;
  double halfLength;
  bool keptWhenSmall;  // at kSmallSize pixels and below, six segments blur into one blot: keep four
};
// An angular spectrum sampled every 30°: strongest along the structure, weakest across it.
constexpr std::array<Segment, 6> kSegments{
    {{0, 74, true}, {30, 104, true}, {60, 74, false}, {90, 54, true}, {120, 46, false}, {150, 54, true}}};
constexpr int kSmallSize = 24;

// The orientation map's colour of an angle: hue 360·α/180, saturation 1, value 1.
cv::Scalar orientationBgr(double angleDeg)
{
  const cv::Mat hsv(1, 1, CV_32FC3, cv::Scalar(2.0 * angleDeg, 1.0, 1.0));
  cv::Mat bgr;
  cv::cvtColor(hsv, bgr, cv::COLOR_HSV2BGR);
  const auto c = bgr.at<cv::Vec3f>(0, 0);
  return cv::Scalar(255.0 * c[0], 255.0 * c[1], 255.0 * c[2]);
}

// Maps viewBox units to canvas pixels with `shift` fractional bits, as cv drawing wants.
struct Canvas {
  double scale;  // pixels per unit
  static constexpr int shift = 4;
  cv::Point at(double x, double y) const
  {
    return {cvRound(x * scale * (1 << shift)), cvRound(y * scale * (1 << shift))};
  }
  int px(double units) const { return std::max(1, cvRound(units * scale)); }
};

// A segment through the centre at `angleDeg` (direction (cos α, −sin α)), round caps.
void drawSegment(cv::Mat& img, const Canvas& cv, double angleDeg, double halfLength, double width,
                 const cv::Scalar& colour)
{
  const double a = angleDeg * std::numbers::pi / 180.0;
  const double dx = std::cos(a) * halfLength, dy = -std::sin(a) * halfLength;
  cv::line(img, cv.at(kCentre - dx, kCentre - dy), cv.at(kCentre + dx, kCentre + dy), colour, cv.px(width),
           cv::LINE_AA, Canvas::shift);
}

// A filled rounded square `inset` units inside the viewBox: two crossing rectangles and four
// corner discs.
void fillRoundedSquare(cv::Mat& img, const Canvas& cv, double inset, double radius, const cv::Scalar& colour)
{
  const double lo = inset, hi = kView - inset, r = radius;
  auto rect = [&](double x0, double y0, double x1, double y1) {
    cv::fillConvexPoly(img, std::vector<cv::Point>{cv.at(x0, y0), cv.at(x1, y0), cv.at(x1, y1), cv.at(x0, y1)},
                       colour, cv::LINE_AA, Canvas::shift);
  };
  rect(lo + r, lo, hi - r, hi);
  rect(lo, lo + r, hi, hi - r);
  for (const double x : {lo + r, hi - r})
    for (const double y : {lo + r, hi - r})
      cv::circle(img, cv.at(x, y), cvRound(r * cv.scale * (1 << Canvas::shift)), colour, cv::FILLED, cv::LINE_AA,
                 Canvas::shift);
}

// The icon at `size`×`size` pixels, BGRA with straight alpha.
cv::Mat renderIcon(int size)
{
  const int factor = std::max(4, 2048 / size);  // supersampling
  const int side = size * factor;
  const Canvas canvas{side / kView};
  // Below 1 output pixel a stroke turns into a faint smear: widen it to about 1.3 pixels.
  const double minWidth = 1.3 * kView / size;
  const double segmentWidth = std::max(kSegmentWidth, minWidth);

  // Colour everywhere (the square's colour outside it too), so that reducing never mixes in
  // the colour of transparent pixels; the mask gives the alpha.
  cv::Mat colour(side, side, CV_8UC3, kRimBgr);
  fillRoundedSquare(colour, canvas, kSquareInset + kRimWidth, kSquareRadius - kRimWidth, kSquareBgr);
  drawSegment(colour, canvas, kStructureAngle, kStructureHalfLength, kStructureWidth, kStructureBgr);
  for (const auto& s : kSegments)
    if (size > kSmallSize || s.keptWhenSmall)
      drawSegment(colour, canvas, s.angleDeg, s.halfLength, segmentWidth, orientationBgr(s.angleDeg));
  cv::circle(colour, canvas.at(kCentre, kCentre), cvRound(kHubRadius * canvas.scale * (1 << Canvas::shift)),
             cv::Scalar(255, 255, 255), cv::FILLED, cv::LINE_AA, Canvas::shift);

  cv::Mat bgra;
  cv::Mat alpha(side, side, CV_8UC1, cv::Scalar(0));
  fillRoundedSquare(alpha, canvas, kSquareInset, kSquareRadius, cv::Scalar(255));
  cv::merge(std::vector<cv::Mat>{colour, alpha}, bgra);  // 3 + 1 channels
  cv::Mat out;
  cv::resize(bgra, out, cv::Size(size, size), 0, 0, cv::INTER_AREA);
  return out;
}

}  // namespace

int main(int argc, char** argv)
{
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTDIR   (writes OUTDIR/hicolor/<N>x<N>/apps/*.png)\n", argv[0]);
    return 2;
  }
  for (const int size : {16, 22, 24, 32, 48, 64, 128, 256, 512}) {
    const auto dir = std::filesystem::path(argv[1]) / "hicolor" /
                     (std::to_string(size) + "x" + std::to_string(size)) / "apps";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const auto path = (dir / "io.github.linescope.LineScope.png").string();
    if (ec || !cv::imwrite(path, renderIcon(size), {cv::IMWRITE_PNG_COMPRESSION, 9})) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      return 1;
    }
    std::printf("%s\n", path.c_str());
  }
  return 0;
}
