// Generates the sample images in resources/samples/ (8-bit grey PNG, fixed seeds, so the
// same OpenCV version writes the same files):
//   fingerprint.png     400x450  ridges along an orientation field with one core and one delta
//   music_sheet.png    1000x700  five staves of notes, rotated by +1.5 degrees
//   oriented_texture.png 512x512 bright strokes at about 30 and 120 degrees
//   text_page.png       800x1000 lines of word-like text, rotated by -2.0 degrees
//
//   make_samples OUTDIR
//
// Angles follow LineScope's convention (design.md section 1): degrees counter-clockwise as
// seen on screen, 0 pointing East, so a page "rotated by +1.5" has its lines rising to the
// right and LineScope's skew estimate for it is +1.5. The angles are recorded in
// resources/samples/README.md; change both together.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMusicSkewDeg = 1.5;
constexpr double kTextSkewDeg = -2.0;
constexpr double kTextureAnglesDeg[2] = {30.0, 120.0};

// Rotates the whole canvas about its centre; cv::getRotationMatrix2D turns counter-clockwise
// on screen for positive angles, which is LineScope's sense too.
cv::Mat rotateCanvas(const cv::Mat& img, double angleDeg, double border)
{
  const cv::Point2f centre(static_cast<float>(img.cols) / 2.0f, static_cast<float>(img.rows) / 2.0f);
  const cv::Mat m = cv::getRotationMatrix2D(centre, angleDeg, 1.0);
  cv::Mat out;
  cv::warpAffine(img, out, m, img.size(), cv::INTER_CUBIC, cv::BORDER_CONSTANT, cv::Scalar(border));
  return out;
}

// Adds Gaussian noise of the given sigma (grey levels) to an 8-bit image.
void addNoise(cv::Mat& img, cv::RNG& rng, double sigma)
{
  cv::Mat noise(img.size(), CV_32F);
  rng.fill(noise, cv::RNG::NORMAL, 0.0, sigma);
  cv::Mat f;
  img.convertTo(f, CV_32F);
  f += noise;
  f.convertTo(img, CV_8U);  // saturating
}

// Smooth random field in [-1, 1] with features about `scale` pixels wide: paper texture,
// uneven pressure.
cv::Mat smoothField(cv::Size size, cv::RNG& rng, double scale)
{
  cv::Mat f(size, CV_32F);
  rng.fill(f, cv::RNG::NORMAL, 0.0, 1.0);
  cv::GaussianBlur(f, f, cv::Size(), scale);
  double lo = 0, hi = 0;
  cv::minMaxLoc(f, &lo, &hi);
  const double m = std::max(std::abs(lo), std::abs(hi));
  return f / m;
}

// Paper: a faint, smooth unevenness (smooth so that the PNG stays small).
void addPaper(cv::Mat& page, cv::RNG& rng)
{
  cv::Mat f;
  page.convertTo(f, CV_32F);
  f += smoothField(page.size(), rng, 25) * 6.0;
  f.convertTo(page, CV_8U);
}

// Fingerprint: SFinGe-style growth. Start from sparse noise and filter it again and again
// with a Gabor filter that follows the ridge orientation at each pixel (one filter per
// orientation bin), clipping after each pass, until ridges of one period fill the image.
// The orientation field is the zero-pole model of Sherlock and Monro with one core and one
// delta: theta = theta0 + (arg(z - core) - arg(z - delta)) / 2.
cv::Mat makeFingerprint()
{
  const int w = 400, h = 450;
  cv::RNG rng(20261101);
  const cv::Point2d core(205, 185), delta(120, 355);
  const double period = 9.0;

  cv::Mat ridgeAngle(h, w, CV_32F);  // ridge direction in pixel coordinates (y down), radians
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double ac = std::atan2(y - core.y, x - core.x);
      const double ad = std::atan2(y - delta.y, x - delta.x);
      ridgeAngle.at<float>(y, x) = static_cast<float>(0.5 * (ac - ad));
    }

  const int bins = 24;
  std::vector<cv::Mat> kernels;
  for (int b = 0; b < bins; ++b) {
    const double ridge = kPi * b / bins;
    // getGaborKernel's theta is the normal of the stripes: perpendicular to the ridge.
    cv::Mat k = cv::getGaborKernel(cv::Size(21, 21), 3.5, ridge + kPi / 2, period, 1.0, 0.0, CV_32F);
    k -= cv::mean(k)[0];  // no DC: the pattern grows from the noise, not from the mean
    kernels.push_back(k / cv::norm(k, cv::NORM_L1));
  }
  cv::Mat binOf(h, w, CV_8U);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double a = ridgeAngle.at<float>(y, x);
      a = std::fmod(a, kPi);
      if (a < 0) a += kPi;
      binOf.at<uchar>(y, x) = static_cast<uchar>(static_cast<int>(std::lround(a / kPi * bins)) % bins);
    }

  cv::Mat field(h, w, CV_32F, cv::Scalar(0));
  for (int i = 0; i < 60; ++i) {  // sparse seeds
    const int x = rng.uniform(0, w), y = rng.uniform(0, h);
    field.at<float>(y, x) = rng.uniform(0, 2) ? 1.0f : -1.0f;
  }
  std::vector<cv::Mat> filtered(bins);
  for (int iter = 0; iter < 30; ++iter) {
    for (int b = 0; b < bins; ++b)
      cv::filter2D(field, filtered[b], CV_32F, kernels[b], cv::Point(-1, -1), 0, cv::BORDER_REFLECT);
    cv::Mat next(h, w, CV_32F);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) next.at<float>(y, x) = filtered[binOf.at<uchar>(y, x)].at<float>(y, x);
    cv::Scalar mean, sd;
    cv::meanStdDev(next, mean, sd);
    next = next * (2.5 / std::max(sd[0], 1e-9));
    cv::max(cv::min(next, 1.0), -1.0, field);
  }

  // Finger shape: an ellipse with a soft edge; uneven pressure; dark ridges on light paper.
  cv::Mat mask(h, w, CV_32F, cv::Scalar(0));
  cv::ellipse(mask, cv::Point(200, 250), cv::Size(165, 215), 0, 0, 360, cv::Scalar(1), cv::FILLED, cv::LINE_AA);
  cv::GaussianBlur(mask, mask, cv::Size(), 9);
  const cv::Mat pressure = smoothField(mask.size(), rng, 30) * 0.35 + 0.75;
  cv::Mat ink = (field + 1.0) * 0.5;  // 1 on ridges
  cv::Mat img32 = 245.0 - ink.mul(mask).mul(pressure) * 200.0;
  cv::Mat img;
  img32.convertTo(img, CV_8U);
  cv::GaussianBlur(img, img, cv::Size(3, 3), 0.7);
  addNoise(img, rng, 5.0);
  return img;
}

// One staff system of the music sheet: five lines, a clef-like sign, a time signature,
// notes with stems and some beams, bar lines, and a double bar at the end.
void drawStaff(cv::Mat& page, cv::RNG& rng, int top, int left, int right)
{
  const int gap = 12;  // distance between staff lines
  const cv::Scalar ink(20);
  for (int i = 0; i < 5; ++i)
    cv::line(page, cv::Point(left, top + i * gap), cv::Point(right, top + i * gap), ink, 2, cv::LINE_AA);
  const int bottom = top + 4 * gap;
  cv::line(page, cv::Point(left, top), cv::Point(left, bottom), ink, 2, cv::LINE_AA);
  // Clef: a spiral of arcs on a long stroke.
  const int cx = left + 22;
  cv::line(page, cv::Point(cx + 4, top - 14), cv::Point(cx - 2, bottom + 14), ink, 3, cv::LINE_AA);
  cv::ellipse(page, cv::Point(cx, top + 3 * gap), cv::Size(11, 12), 0, 200, 520, ink, 3, cv::LINE_AA);
  cv::ellipse(page, cv::Point(cx + 4, top + gap), cv::Size(6, 14), -15, 160, 380, ink, 3, cv::LINE_AA);
  cv::circle(page, cv::Point(cx - 6, bottom + 14), 4, ink, cv::FILLED, cv::LINE_AA);
  // Time signature 4/4.
  cv::putText(page, "4", cv::Point(left + 48, top + 2 * gap - 1), cv::FONT_HERSHEY_DUPLEX, 0.85, ink, 2, cv::LINE_AA);
  cv::putText(page, "4", cv::Point(left + 48, bottom - 1), cv::FONT_HERSHEY_DUPLEX, 0.85, ink, 2, cv::LINE_AA);

  // Notes: pitch step s = 0 on the bottom line, each step half a gap higher.
  const int start = left + 85, bars = 4, notesPerBar = 4;
  const int barWidth = (right - 6 - start) / bars;
  int x0 = start;
  for (int bar = 0; bar < bars; ++bar) {
    const bool beamed = rng.uniform(0, 3) == 0;
    std::vector<cv::Point> stemEnds;
    for (int n = 0; n < notesPerBar; ++n) {
      const int x = x0 + 20 + n * (barWidth - 20) / notesPerBar;
      const int s = beamed ? rng.uniform(1, 5) : rng.uniform(-3, 12);
      const int y = bottom - s * gap / 2;
      for (int l = -2; l >= s; l -= 2)  // ledger lines below the staff
        cv::line(page, cv::Point(x - 11, bottom - l * gap / 2), cv::Point(x + 11, bottom - l * gap / 2), ink, 2, cv::LINE_AA);
      for (int l = 10; l <= s; l += 2)  // and above
        cv::line(page, cv::Point(x - 11, bottom - l * gap / 2), cv::Point(x + 11, bottom - l * gap / 2), ink, 2, cv::LINE_AA);
      const bool half = !beamed && rng.uniform(0, 5) == 0;
      cv::ellipse(page, cv::Point(x, y), cv::Size(7, 5), -20, 0, 360, ink, half ? 2 : cv::FILLED, cv::LINE_AA);
      const bool up = beamed || s < 4;
      const cv::Point a = up ? cv::Point(x + 6, y - 1) : cv::Point(x - 6, y + 1);
      const cv::Point b = up ? cv::Point(x + 6, y - 36) : cv::Point(x - 6, y + 36);
      cv::line(page, a, b, ink, 2, cv::LINE_AA);
      stemEnds.push_back(b);
    }
    if (beamed) {
      const int yb = std::min({stemEnds[0].y, stemEnds[1].y, stemEnds[2].y, stemEnds[3].y});
      for (auto& e : stemEnds) cv::line(page, e, cv::Point(e.x, yb), ink, 2, cv::LINE_AA);
      cv::line(page, cv::Point(stemEnds.front().x, yb), cv::Point(stemEnds.back().x, yb), ink, 5, cv::LINE_AA);
    }
    x0 += barWidth;
    if (bar + 1 < bars) cv::line(page, cv::Point(x0, top), cv::Point(x0, bottom), ink, 2, cv::LINE_AA);
  }
  // Final double bar: a thin line and a thick one at the staff's end.
  cv::line(page, cv::Point(right - 9, top), cv::Point(right - 9, bottom), ink, 2, cv::LINE_AA);
  cv::line(page, cv::Point(right - 2, top), cv::Point(right - 2, bottom), ink, 5, cv::LINE_AA);
}

cv::Mat makeMusicSheet()
{
  const int w = 1000, h = 700;
  cv::RNG rng(20261102);
  cv::Mat page(h, w, CV_8U, cv::Scalar(250));
  cv::putText(page, "Etude No. 3", cv::Point(395, 58), cv::FONT_HERSHEY_TRIPLEX, 1.1, cv::Scalar(20), 2, cv::LINE_AA);
  cv::putText(page, "LineScope sample", cv::Point(790, 88), cv::FONT_HERSHEY_SIMPLEX, 0.5, cv::Scalar(20), 1, cv::LINE_AA);
  for (int s = 0; s < 5; ++s) drawStaff(page, rng, 130 + s * 108, 70, 930);
  page = rotateCanvas(page, kMusicSkewDeg, 250);
  addPaper(page, rng);
  return page;
}

// Oriented texture: bright strokes on a dark ground, most at about 30 degrees on the left
// and about 120 degrees on the right, mixed in between.
cv::Mat makeOrientedTexture()
{
  const int n = 512;
  cv::RNG rng(20261103);
  cv::Mat img(n, n, CV_8U, cv::Scalar(30));
  for (int i = 0; i < 1500; ++i) {
    const double x = rng.uniform(-20.0, n + 20.0), y = rng.uniform(-20.0, n + 20.0);
    const double pFirst = 0.85 - 0.7 * std::clamp(x / n, 0.0, 1.0);
    const double base = rng.uniform(0.0, 1.0) < pFirst ? kTextureAnglesDeg[0] : kTextureAnglesDeg[1];
    const double a = (base + rng.gaussian(3.0)) * kPi / 180.0;
    const double half = rng.uniform(8.0, 35.0);
    const cv::Point2d d(std::cos(a), -std::sin(a));  // LineScope: counter-clockwise, y down
    const cv::Point p(cvRound(x - half * d.x), cvRound(y - half * d.y));
    const cv::Point q(cvRound(x + half * d.x), cvRound(y + half * d.y));
    cv::line(img, p, q, cv::Scalar(rng.uniform(110, 240)), rng.uniform(1, 3), cv::LINE_AA);
  }
  cv::GaussianBlur(img, img, cv::Size(3, 3), 0.8);
  addNoise(img, rng, 4.0);
  return img;
}

// A page of text: a title, paragraphs of random lower-case words, rotated.
cv::Mat makeTextPage()
{
  const int w = 800, h = 1000;
  cv::RNG rng(20261104);
  cv::Mat page(h, w, CV_8U, cv::Scalar(248));
  const cv::Scalar ink(25);
  cv::putText(page, "On Lines and Their Angles", cv::Point(170, 110), cv::FONT_HERSHEY_COMPLEX, 1.0, ink, 2, cv::LINE_AA);
  const int left = 90, right = 710, lineGap = 24;
  int y = 170;
  bool newParagraph = true;
  int lineInParagraph = 0;
  while (y < h - 100) {
    int x = left + (newParagraph ? 30 : 0);
    const bool lastOfParagraph = ++lineInParagraph >= 3 && rng.uniform(0, 6) == 0;
    const int end = lastOfParagraph ? rng.uniform(left + 150, right - 100) : right;
    bool firstWord = newParagraph;
    for (;;) {
      std::string word;
      const int len = rng.uniform(1, 10);
      for (int i = 0; i < len; ++i) word += static_cast<char>('a' + rng.uniform(0, 26));
      if (firstWord) word[0] = static_cast<char>(word[0] - 'a' + 'A');
      if (rng.uniform(0, 9) == 0) word += rng.uniform(0, 2) ? "," : ".";
      int base = 0;
      const cv::Size sz = cv::getTextSize(word, cv::FONT_HERSHEY_SIMPLEX, 0.6, 1, &base);
      if (x + sz.width > end) break;
      cv::putText(page, word, cv::Point(x, y), cv::FONT_HERSHEY_SIMPLEX, 0.6, ink, 1, cv::LINE_AA);
      x += sz.width + 9;
      firstWord = false;
    }
    y += lineGap;
    newParagraph = lastOfParagraph;
    if (newParagraph) {
      y += lineGap / 2;
      lineInParagraph = 0;
    }
  }
  cv::putText(page, "- 7 -", cv::Point(w / 2 - 20, h - 50), cv::FONT_HERSHEY_SIMPLEX, 0.6, ink, 1, cv::LINE_AA);
  page = rotateCanvas(page, kTextSkewDeg, 248);
  addPaper(page, rng);
  return page;
}

bool write(const std::string& dir, const char* name, const cv::Mat& img)
{
  const std::string path = dir + "/" + name;
  const bool ok = cv::imwrite(path, img, {cv::IMWRITE_PNG_COMPRESSION, 9});
  std::printf("%s %s (%dx%d)\n", ok ? "wrote" : "FAILED to write", path.c_str(), img.cols, img.rows);
  return ok;
}

}  // namespace

int main(int argc, char** argv)
{
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  cv::setNumThreads(1);  // same result whatever the machine
  const std::string dir = argv[1];
  bool ok = write(dir, "fingerprint.png", makeFingerprint());
  ok = write(dir, "music_sheet.png", makeMusicSheet()) && ok;
  ok = write(dir, "oriented_texture.png", makeOrientedTexture()) && ok;
  ok = write(dir, "text_page.png", makeTextPage()) && ok;
  return ok ? 0 : 1;
}
