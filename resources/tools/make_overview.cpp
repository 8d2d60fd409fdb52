// Composes images side by side, each scaled to one height and captioned below, into one
// PNG: the README's picture (docs/images/overview.png).
//
//   make_overview OUT.png IMAGE CAPTION [IMAGE CAPTION ...] [--height N]
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
  std::vector<std::string> args(argv + 1, argv + argc);
  int height = 360;
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--height") {
      height = std::atoi(args[i + 1].c_str());
      args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i) + 2);
      break;
    }
  if (args.size() < 3 || args.size() % 2 != 1 || height < 16) {
    std::fprintf(stderr, "usage: %s OUT.png IMAGE CAPTION [IMAGE CAPTION ...] [--height N]\n", argv[0]);
    return 2;
  }

  const int gap = 10, captionH = 34, font = cv::FONT_HERSHEY_SIMPLEX;
  const double fontScale = 0.6;
  std::vector<cv::Mat> tiles;
  for (size_t i = 1; i < args.size(); i += 2) {
    const cv::Mat img = cv::imread(args[i], cv::IMREAD_COLOR);
    if (img.empty()) {
      std::fprintf(stderr, "cannot read %s\n", args[i].c_str());
      return 1;
    }
    const int w = cvRound(img.cols * static_cast<double>(height) / img.rows);
    int base = 0;
    const cv::Size ts = cv::getTextSize(args[i + 1], font, fontScale, 1, &base);
    const int tileW = std::max(w, ts.width + 8);  // a long caption widens its tile
    cv::Mat tile(height + captionH, tileW, CV_8UC3, cv::Scalar(255, 255, 255));
    cv::resize(img, tile(cv::Rect((tileW - w) / 2, 0, w, height)), cv::Size(w, height), 0, 0, cv::INTER_AREA);
    cv::putText(tile, args[i + 1], cv::Point((tileW - ts.width) / 2, height + 23), font, fontScale,
                cv::Scalar(30, 30, 30), 1, cv::LINE_AA);
    tiles.push_back(tile);
  }

  int total = gap;
  for (const auto& t : tiles) total += t.cols + gap;
  cv::Mat out(height + captionH + 2 * gap, total, CV_8UC3, cv::Scalar(255, 255, 255));
  int x = gap;
  for (const auto& t : tiles) {
    t.copyTo(out(cv::Rect(x, gap, t.cols, t.rows)));
    x += t.cols + gap;
  }
  if (!cv::imwrite(args[0], out, {cv::IMWRITE_PNG_COMPRESSION, 9})) {
    std::fprintf(stderr, "cannot write %s\n", args[0].c_str());
    return 1;
  }
  std::printf("wrote %s (%dx%d)\n", args[0].c_str(), out.cols, out.rows);
  return 0;
}
