#include "ui/lesson_profile_panel.h"

#include "app/session/lesson.h"
#include "compute/line_geometry.h"

#include <QLabel>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace linescope::ui {

LessonProfilePanel::LessonProfilePanel(QWidget* parent)
    : LessonPlotPanel(tr("Pin a pixel in the lesson to see the profile along its line."),
                      tr("samples along the line from the pin"), tr("value"), parent) {
    setObjectName("lessonProfilePanel");
    plot_->addLine(QStringLiteral("f"), QColor(90, 90, 90), 3);
    plot_->addLine(QStringLiteral("ε(f)"), QColor(30, 110, 230), 2.5);
    plot_->addLine(QStringLiteral("δ(f)"), QColor(220, 60, 40), 2.5);
    second_ = plot_->addLine(secondName(MorphOp::Open), QColor(20, 160, 60), 4);
    plot_->addLine(QStringLiteral("window"), QColor(230, 170, 0), 4);
    plot_->addLine(QStringLiteral("pin"), QColor(0, 0, 0), 1.5, Qt::DashLine);
}

void LessonProfilePanel::setLesson(const session::LessonOutput& lesson, MorphOp op, int length) {
    second_->setName(secondName(op));  // the one green curve, named after the lesson's operator
    for (QAbstractSeries* s : plot_->chart()->series()) static_cast<QLineSeries*>(s)->clear();
    if (!lesson.pin) {
        showPlaceholder();
        return;
    }
    const session::LessonProfile& pr = lesson.pin->profile;
    const int n = static_cast<int>(pr.path.size());
    const int reach = std::max(2 * length, 12);
    const int from = std::max(0, pr.index - reach), to = std::min(n - 1, pr.index + reach);
    double lo = pr.f[static_cast<std::size_t>(pr.index)], hi = lo;
    const std::pair<QString, const std::vector<double>*> curves[] = {
        {QStringLiteral("f"), &pr.f}, {QStringLiteral("ε(f)"), &pr.erosion}, {QStringLiteral("δ(f)"), &pr.dilation},
        {secondName(op), &pr.second}};
    for (const auto& [name, values] : curves) {
        QList<QPointF> points;
        for (int i = from; i <= to; ++i) {
            const double v = (*values)[static_cast<std::size_t>(i)];
            points.append(QPointF(i - pr.index, v));
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        plot_->line(name)->replace(points);
    }
    const double pad = std::max(1.0, (hi - lo) * 0.08);
    // The first stage's window as a bracket over the curves: offsets k of the erosion (t + k)
    // or the dilation (t − k) of a closing.
    const Segment seg = segmentOf(length);
    const bool erosionFirst = op != MorphOp::Close;
    const double left = (erosionFirst ? -seg.a : -seg.b) - 0.5, right = (erosionFirst ? seg.b : seg.a) + 0.5;
    const double top = hi + pad * 0.6, foot = hi + pad * 0.2;
    plot_->line(QStringLiteral("window"))->replace({{left, foot}, {left, top}, {right, top}, {right, foot}});
    plot_->line(QStringLiteral("pin"))->replace({{0, lo - pad}, {0, hi + pad}});
    plot_->xAxis()->setRange(from - pr.index - 0.5, to - pr.index + 0.5);
    plot_->yAxis()->setRange(lo - pad, hi + pad);
    caption_->setText(tr("Along the line through (%1, %2): %3 samples shown of %4; the bracket is the window of λ = %5")
                          .arg(lesson.pin->pixel.x)
                          .arg(lesson.pin->pixel.y)
                          .arg(to - from + 1)
                          .arg(n)
                          .arg(length));
}

}  // namespace linescope::ui
