#include "app/gui/launch_options.h"

#include "compute/image.h"
#include "ui/contour_panel.h"
#include "ui/field_workbench_panel.h"
#include "ui/granulometry_panel.h"
#include "ui/lesson_panel.h"
#include "ui/main_window.h"
#include "ui/view_controls.h"

#include <QComboBox>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QRegularExpression>
#include <QSlider>

#include <array>
#include <cmath>
#include <tuple>
#include <utility>

namespace linescope::gui {
namespace {

constexpr std::array<std::pair<const char*, ui::Plane>, ui::kPlaneCount> kViews{{
    {"original", ui::Plane::Original},
    {"result", ui::Plane::Result},
    {"supremum", ui::Plane::Supremum},
    {"infimum", ui::Plane::Infimum},
    {"orientation", ui::Plane::Orientation},
    {"strength", ui::Plane::Strength},
}};
constexpr std::array<std::pair<const char*, ui::CompareMode>, 5> kCompareModes{{
    {"single", ui::CompareMode::Single},
    {"side-by-side", ui::CompareMode::SideBySide},
    {"split", ui::CompareMode::Split},
    {"kinds-side-by-side", ui::CompareMode::KindsSideBySide},
    {"kinds-difference", ui::CompareMode::KindsDifference},
}};

// A line kind by linescope-cli's names (paths, segment, periodic), or an error naming the option.
std::optional<LineKind> lineKindFrom(const QString& text, const char* name, QString* error) {
    try {
        return parseLineKind(text.toStdString());
    } catch (const std::exception& e) {
        *error = QStringLiteral("--%1: %2").arg(QLatin1String(name), QString::fromStdString(e.what()));
        return std::nullopt;
    }
}

template <class Table>
auto lookup(const Table& table, const QString& name, const char* what, QString* error)
    -> std::optional<typename Table::value_type::second_type> {
    QStringList names;
    for (const auto& [key, value] : table) {
        if (name == QLatin1String(key)) return value;
        names << QLatin1String(key);
    }
    *error = QStringLiteral("unknown %1 \"%2\" (one of %3)").arg(QLatin1String(what), name, names.join(", "));
    return std::nullopt;
}

// A finite number in [lo, hi] from option `name`, or an error naming it.
std::optional<double> numberIn(const QString& text, const char* name, double lo, double hi, QString* error) {
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < lo || v > hi) {
        *error = QStringLiteral("--%1 needs a number from %2 to %3, not \"%4\"")
                     .arg(QLatin1String(name)).arg(lo).arg(hi).arg(text);
        return std::nullopt;
    }
    return v;
}

std::optional<int> integerIn(const QString& text, const char* name, int lo, int hi, QString* error) {
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v < lo || v > hi) {
        *error = QStringLiteral("--%1 needs a whole number from %2 to %3, not \"%4\"")
                     .arg(QLatin1String(name)).arg(lo).arg(hi).arg(text);
        return std::nullopt;
    }
    return v;
}

// "N" (N angles over 180°) or "start:stop:step": AngleSet::parse, as linescope-cli's --angles.
std::optional<AngleSet> angleSetFrom(const QString& text, QString* error) {
    try {
        return AngleSet::parse(text.toStdString());
    } catch (const std::exception& e) {
        *error = QStringLiteral("--angles \"%1\": %2").arg(text, QString::fromStdString(e.what()));
        return std::nullopt;
    }
}

}  // namespace

void addLaunchOptions(QCommandLineParser& parser) {
    parser.setApplicationDescription(
        "LineScope: linear morphology live. Openings, closings, erosions, dilations and top-hats by a line\n"
        "segment of any angle and length; the supremum of openings over all angles, orientation maps,\n"
        "angular spectra, skew and contours.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("image", "An image to open (PNG, TIFF, JPEG, BMP, PGM/PPM/PBM/PNM, PFM, EXR, WebP, JPEG 2000).", "[image]");
    parser.addOptions({
        {"op", "The operator: open, close, erode, dilate or tophat.", "op"},
        {"angle", "The segment's angle in degrees, counter-clockwise from East (0…180).", "degrees"},
        {"length", "The segment's length λ in pixels (1…501).", "pixels"},
        {"view", "The view: original, result, supremum, infimum, orientation or strength.", "view"},
        {"compare", "How the view is shown: single, side-by-side or split (with the original), or the result "
                    "kinds-side-by-side or kinds-difference (with the --other-line kind).", "mode"},
        {"line", "The digital line: paths (the default), segment (OpenCV's kernel) or periodic.", "kind"},
        {"other-line", "The line kind the kinds-… compare modes compare with (default: segment).", "kind"},
        {"angles", "The sweep's angles: N (N angles over 180°) or start:stop:step, stop excluded.", "set"},
        {"blend", "Draw the orientation map over the image, this opaque (0…1).", "amount"},
        {"needles", "Draw orientation needles every N pixels (0: none).", "N"},
        {"threshold", "Trace and show the contours of the image thresholded at this value.", "value"},
        {"no-contours", "Neither trace nor draw contours."},
        {"backend", "The engine: auto (CUDA when an NVIDIA GPU can run it, else the CPU), cpu or cuda.", "backend"},
        {"window-size", "The window's size in pixels, e.g. 1600x1000.", "WxH"},
        {"granulometry", "Show the Granulometry dock (S(λ) and the pattern spectrum at the angle)."},
        {"granulometry-region", "The granulometry's region of pixels, e.g. 40,30,200,120 (shows the dock).", "X,Y,W,H"},
        {"lesson", "Start in lesson mode: the opening (or closing) step by step for a projector."},
        {"pin", "The lesson's pinned pixel, e.g. 120,45 (default: the image's centre).", "X,Y"},
        {"lesson-zoom", "The lesson's zoom in screen pixels per image pixel, centred on the pin (1…256).", "zoom"},
        {"lesson-step", "How far the lesson shows: 1 (f), 2 (the first stage) or 3 (both stages).", "N"},
        {"lesson-difference", "Show the lesson's stages as their difference from f."},
        {"field-workbench", "Start in the orientation-field workbench (the fingerprint inspector)."},
        {"field-block", "The workbench's block size in pixels (6…48).", "N"},
        {"field-length", "The workbench's λ (3…61).", "N"},
        {"field-left", "The workbench's left pane: needles, coherence or mask.", "view"},
        {"field-right", "The workbench's right pane: tensor, difference, coherence, mask or needles.", "view"},
        {"screenshot", "Once every view is computed and drawn, save the window as a PNG image and quit "
                       "(exit status 0 when saved, 1 otherwise).", "file"},
    });
}

std::optional<LaunchOptions> readLaunchOptions(const QCommandLineParser& parser, QString* error) {
    LaunchOptions o;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        *error = QStringLiteral("one image at a time (got %1)").arg(positional.size());
        return std::nullopt;
    }
    if (!positional.isEmpty()) o.image = positional.first();
    if (parser.isSet("op")) {
        try {
            o.op = parseMorphOp(parser.value("op").toStdString());
        } catch (const std::exception& e) {
            *error = QStringLiteral("--op: %1").arg(QString::fromStdString(e.what()));
            return std::nullopt;
        }
    }
    if (parser.isSet("angle") && !(o.angle = numberIn(parser.value("angle"), "angle", 0, 180, error))) return std::nullopt;
    if (parser.isSet("length") &&
        !(o.length = integerIn(parser.value("length"), "length", 1, ui::MainWindow::kMaxLength, error)))
        return std::nullopt;
    if (parser.isSet("view") && !(o.view = lookup(kViews, parser.value("view"), "view", error))) return std::nullopt;
    if (parser.isSet("compare") && !(o.compare = lookup(kCompareModes, parser.value("compare"), "compare mode", error)))
        return std::nullopt;
    if (parser.isSet("line") && !(o.line = lineKindFrom(parser.value("line"), "line", error))) return std::nullopt;
    if (parser.isSet("other-line") && !(o.otherLine = lineKindFrom(parser.value("other-line"), "other-line", error)))
        return std::nullopt;
    if (parser.isSet("angles") && !(o.angles = angleSetFrom(parser.value("angles"), error))) return std::nullopt;
    if (parser.isSet("blend") && !(o.blend = numberIn(parser.value("blend"), "blend", 0, 1, error))) return std::nullopt;
    if (parser.isSet("needles") && !(o.needles = integerIn(parser.value("needles"), "needles", 0, 256, error)))
        return std::nullopt;
    if (parser.isSet("threshold") &&
        !(o.threshold = numberIn(parser.value("threshold"), "threshold", -1e30, 1e30, error)))
        return std::nullopt;
    o.noContours = parser.isSet("no-contours");
    if (o.noContours && o.threshold) {
        *error = QStringLiteral("--threshold shows contours and --no-contours hides them: give one");
        return std::nullopt;
    }
    if (parser.isSet("backend")) {
        try {
            o.backend = parseBackend(parser.value("backend").toStdString());
        } catch (const std::exception& e) {
            *error = QStringLiteral("--backend: %1").arg(QString::fromStdString(e.what()));
            return std::nullopt;
        }
    }
    if (parser.isSet("window-size")) {
        const auto m = QRegularExpression("^(\\d{3,5})x(\\d{3,5})$").match(parser.value("window-size"));
        if (!m.hasMatch()) {
            *error = QStringLiteral("--window-size needs WIDTHxHEIGHT such as 1600x1000, not \"%1\"")
                         .arg(parser.value("window-size"));
            return std::nullopt;
        }
        o.windowSize = QSize(m.captured(1).toInt(), m.captured(2).toInt());
    }
    o.granulometry = parser.isSet("granulometry") || parser.isSet("granulometry-region");
    if (parser.isSet("granulometry-region")) {
        const auto m = QRegularExpression("^(\\d{1,6}),(\\d{1,6}),(\\d{1,6}),(\\d{1,6})$").match(parser.value("granulometry-region"));
        if (!m.hasMatch() || m.captured(3).toInt() < 1 || m.captured(4).toInt() < 1) {
            *error = QStringLiteral("--granulometry-region needs X,Y,W,H with W and H at least 1, such as 40,30,200,120, not \"%1\"")
                         .arg(parser.value("granulometry-region"));
            return std::nullopt;
        }
        o.granulometryRegion = PixelRect{m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).toInt(), m.captured(4).toInt()};
    }
    o.lesson = parser.isSet("lesson");
    if (parser.isSet("pin")) {
        const auto m = QRegularExpression("^(\\d{1,6}),(\\d{1,6})$").match(parser.value("pin"));
        if (!m.hasMatch()) {
            *error = QStringLiteral("--pin needs X,Y such as 120,45, not \"%1\"").arg(parser.value("pin"));
            return std::nullopt;
        }
        o.pin = PixelAt{m.captured(1).toInt(), m.captured(2).toInt()};
    }
    if (parser.isSet("lesson-zoom") &&
        !(o.lessonZoom = numberIn(parser.value("lesson-zoom"), "lesson-zoom", 1, 256, error)))
        return std::nullopt;
    if (parser.isSet("lesson-step") && !(o.lessonStep = integerIn(parser.value("lesson-step"), "lesson-step", 1, 3, error)))
        return std::nullopt;
    o.lessonDifference = parser.isSet("lesson-difference");
    o.fieldWorkbench = parser.isSet("field-workbench");
    if (parser.isSet("field-block") && !(o.fieldBlock = integerIn(parser.value("field-block"), "field-block", 6, 48, error)))
        return std::nullopt;
    if (parser.isSet("field-length") &&
        !(o.fieldLength = integerIn(parser.value("field-length"), "field-length", 3, 61, error)))
        return std::nullopt;
    const QStringList fieldViews{"needles", "coherence", "mask", "tensor", "difference"};  // ui::FieldView's order
    for (const auto& [name, slot, allowed] : {std::tuple{"field-left", &o.fieldLeft, 3}, std::tuple{"field-right", &o.fieldRight, 5}}) {
        if (!parser.isSet(name)) continue;
        const int i = static_cast<int>(fieldViews.indexOf(parser.value(name)));
        if (i < 0 || i >= allowed) {
            *error = QStringLiteral("--%1 needs one of %2, not \"%3\"")
                         .arg(QString::fromLatin1(name), fieldViews.mid(0, allowed).join(", "), parser.value(name));
            return std::nullopt;
        }
        *slot = i;
    }
    o.screenshot = parser.value("screenshot");
    if (parser.isSet("screenshot") && o.image.isEmpty()) {
        *error = QStringLiteral("--screenshot needs an image to open");
        return std::nullopt;
    }
    return o;
}

void applyLaunchOptions(ui::MainWindow& window, const LaunchOptions& o) {
    if (o.op) window.setOperator(*o.op);
    if (o.angle) window.setAngle(*o.angle);
    if (o.length) window.setLength(*o.length);
    if (o.line) window.setLineKind(*o.line);
    ui::ViewControls& controls = *window.viewControls();
    if (o.angles) controls.setAngleSet(*o.angles);
    if (o.view) controls.setView(*o.view);
    if (o.otherLine) controls.setOtherKind(*o.otherLine);
    if (o.compare) controls.setCompareMode(*o.compare);
    if (o.blend) controls.setBlend(*o.blend > 0, *o.blend);
    if (o.needles) controls.setNeedleStep(*o.needles);
    if (o.threshold) {
        window.contourPanel()->setThreshold(*o.threshold);
        window.contourPanel()->setContoursVisible(true);
        window.contourDock()->show();
    }
    if (o.noContours) window.contourPanel()->setContoursVisible(false);
    if (o.windowSize) window.resize(*o.windowSize);
    if (o.granulometry) {
        window.granulometryDock()->show();
        window.granulometryDock()->raise();
    }
    if (o.granulometryRegion) window.granulometryPanel()->setRegion(*o.granulometryRegion);
    if (o.pin) window.session().setLessonPin(*o.pin);
    if (o.lesson) window.setLessonMode(true);
    ui::LessonView& lesson = *window.lessonPanel()->view();
    if (o.lessonStep) lesson.setStep(static_cast<ui::LessonStep>(*o.lessonStep - 1));
    if (o.lessonDifference) lesson.setDifference(true);
    if (o.lessonZoom) lesson.zoomOnPin(*o.lessonZoom);
    if (o.fieldWorkbench) window.setFieldWorkbenchMode(true);
    ui::FieldWorkbenchPanel& field = *window.fieldWorkbenchPanel();
    if (o.fieldBlock) field.blockSlider()->setValue(*o.fieldBlock);
    if (o.fieldLength) field.lengthSlider()->setValue(*o.fieldLength);
    const auto pick = [](QComboBox* box, int view) { box->setCurrentIndex(box->findData(view)); };
    if (o.fieldLeft) pick(field.leftViewBox(), *o.fieldLeft);
    if (o.fieldRight) pick(field.rightViewBox(), *o.fieldRight);
}

}  // namespace linescope::gui
