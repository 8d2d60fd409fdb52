#include "ui/lesson_response_panel.h"

#include "app/session/lesson.h"

#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>

namespace linescope::ui {

LessonResponsePanel::LessonResponsePanel(QWidget* parent)
    : LessonPlotPanel(tr("Pin a pixel in the lesson to see its response to the angle."), tr("angle α (degrees)"),
                      tr("value at the pin"), parent) {
    setObjectName("lessonResponsePanel");
    response_ = plot_->addLine(QStringLiteral("γ_α(x)"), QColor(20, 160, 60), 3);
    plot_->addLine(QStringLiteral("angle"), QColor(0, 0, 0), 1.5, Qt::DashLine);
    best_ = new QScatterSeries(plot_->chart());
    best_->setName(tr("best"));
    best_->setMarkerSize(16);
    best_->setColor(QColor(255, 60, 220));
    best_->setBorderColor(Qt::black);
    plot_->chart()->addSeries(best_);
    best_->attachAxis(plot_->xAxis());
    best_->attachAxis(plot_->yAxis());
    plot_->xAxis()->setRange(0, 180);
}

std::optional<QPointF> LessonResponsePanel::bestPoint() const {
    if (best_->count() == 0) return std::nullopt;
    return best_->at(0);
}

void LessonResponsePanel::setLesson(const session::LessonOutput& lesson, MorphOp op, double currentAngle) {
    best_->clear();
    response_->clear();
    plot_->line(QStringLiteral("angle"))->clear();
    if (!lesson.pin || lesson.pin->response.values.empty()) {
        showPlaceholder();
        return;
    }
    const session::LessonResponse& r = lesson.pin->response;
    QList<QPointF> points;
    double lo = r.values[0], hi = lo;
    for (int k = 0; k < static_cast<int>(r.values.size()); ++k) {
        const double v = r.values[static_cast<std::size_t>(k)];
        points.append(QPointF(r.angles.angle(k), v));
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    const double pad = std::max(1.0, (hi - lo) * 0.1);
    const bool closing = op == MorphOp::Close;
    response_->setName(closing ? QStringLiteral("φ_α(x)") : QStringLiteral("γ_α(x)"));
    response_->replace(points);
    const QPointF best(r.angles.angle(r.best), r.values[static_cast<std::size_t>(r.best)]);
    best_->append(best);
    plot_->line(QStringLiteral("angle"))->replace({{currentAngle, lo - pad}, {currentAngle, hi + pad}});
    plot_->xAxis()->setRange(std::min(0.0, r.angles.angle(0)), std::max(180.0, r.angles.angle(r.angles.count - 1)));
    plot_->yAxis()->setRange(lo - pad, hi + pad);
    caption_->setText(tr("At (%1, %2): %3 over %4 angles, %5 at %6° (the orientation map's angle there)")
                          .arg(lesson.pin->pixel.x)
                          .arg(lesson.pin->pixel.y)
                          .arg(closing ? tr("the closing") : tr("the opening"))
                          .arg(r.values.size())
                          .arg(closing ? tr("lowest") : tr("highest"))
                          .arg(best.x(), 0, 'g', 6));
}

}  // namespace linescope::ui
