// What the desktop application's command line can set before the window shows: the image,
// the operator, angle and λ, the view and its compare mode, the sweep's angle set, the
// orientation map's blend and needles, the backend, the window size, and a screenshot to
// write once everything is drawn (for scripts, the documentation and the package check).
//
// Thread: UI thread (parsing needs the QCoreApplication).
#pragma once

#include "compute/backend.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"
#include "ui/viewport_widget.h"

#include <QSize>
#include <QString>

#include <optional>

class QCommandLineParser;

namespace linescope::ui {
class MainWindow;
}

namespace linescope::gui {

struct LaunchOptions {
    QString image;                          // "" : none
    std::optional<MorphOp> op;
    std::optional<double> angle;            // degrees, 0…180
    std::optional<int> length;              // λ, 1…MainWindow::kMaxLength
    std::optional<ui::Plane> view;
    std::optional<ui::CompareMode> compare;
    std::optional<LineKind> line;           // the session's line kind
    std::optional<LineKind> otherLine;      // the kind the kinds' compare modes compare with
    std::optional<AngleSet> angles;         // the sweep's
    std::optional<double> blend;            // orientation over the image, 0…1
    std::optional<int> needles;             // orientation needles every N pixels, 0: none
    std::optional<double> threshold;        // contours of the image thresholded here, shown
    bool noContours = false;                // neither traced nor drawn
    Backend backend = Backend::Auto;
    std::optional<QSize> windowSize;
    QString screenshot;                     // "" : run interactively
    bool lesson = false;                    // the lesson mode (issue 21)
    std::optional<PixelAt> pin;             // the lesson's pinned pixel
    std::optional<double> lessonZoom;       // screen pixels per image pixel, centred on the pin
    std::optional<int> lessonStep;          // 1 (f), 2 (the first stage) or 3 (the second)
    bool lessonDifference = false;          // the stages shown as their difference from f
    bool granulometry = false;              // the Granulometry dock shown (issue 18)
    std::optional<PixelRect> granulometryRegion;  // its region (the dock shown too)
    bool fieldWorkbench = false;            // the orientation-field workbench (issue 21)
    std::optional<int> fieldBlock;          // its block size
    std::optional<int> fieldLength;         // its λ
    std::optional<int> fieldLeft, fieldRight;  // ui::FieldView of its panes
};

// Declares the options on `parser` (with --help and --version).
void addLaunchOptions(QCommandLineParser& parser);
// Reads them after parser.process(); nullopt with `error` set (one line) on a bad value.
std::optional<LaunchOptions> readLaunchOptions(const QCommandLineParser& parser, QString* error);
// Moves the window's controls to the options' values (the image is opened separately).
void applyLaunchOptions(ui::MainWindow& window, const LaunchOptions& options);

}  // namespace linescope::gui
