#include "ui/line_kind_text.h"

#include "app/session/kind_difference.h"

#include <QCoreApplication>
#include <QLocale>

namespace linescope::ui {

namespace {
QString tr(const char* text) { return QCoreApplication::translate("LineKind", text); }
}  // namespace

QString lineKindLabel(LineKind kind) {
    switch (kind) {
    case LineKind::Paths: return tr("Line paths");
    case LineKind::Segment: return tr("Segment (OpenCV kernel)");
    case LineKind::Periodic: return tr("Periodic");
    }
    return {};
}

QString lineKindToolTip(LineKind kind) {
    switch (kind) {
    case LineKind::Paths:
        return tr("Line paths (the default): every pixel lies on one digital line of the angle's family, and the "
                  "operator runs along that line. Fast on the CPU and the GPU. Not the same pixels at every place, "
                  "so away from 0°, 45°, 90° and 135° it differs slightly from OpenCV's 2-D kernel.");
    case LineKind::Segment:
        return tr("The digital segment of λ pixels as one 2-D kernel, the same at every pixel: this is what "
                  "OpenCV's morphologyEx, erode and dilate compute with the kernel of linescope-cli se. "
                  "Computed on the CPU.");
    case LineKind::Periodic:
        return tr("Soille and Talbot's periodic line: λ points spaced by the small integer step nearest the "
                  "angle (128 directions over 180°), not a connected segment. Computed on the CPU.");
    }
    return {};
}

QString kindDifferenceCount(const session::KindDifference& d) {
    const QLocale locale;
    // A few differing pixels of a large image still read as more than 0.00 %.
    const int decimals = d.differing > 0 && d.share() < 0.0001 ? 4 : 2;
    return tr("%1 of %2 pixels differ (%3 %)")
        .arg(locale.toString(d.differing), locale.toString(d.pixels), locale.toString(100.0 * d.share(), 'f', decimals));
}

QString kindDifferenceText(const session::KindDifference& d) {
    return tr("%1 − %2: %3").arg(lineKindLabel(d.a), lineKindLabel(d.b), kindDifferenceCount(d));
}

QString kindDifferenceLegend(const session::KindDifference& d) {
    return tr("orange: %1 above, blue: below").arg(lineKindLabel(d.a).toLower());
}

}  // namespace linescope::ui
