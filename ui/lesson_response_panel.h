// LessonResponsePanel: the lesson's angle-response dock (issue 21): the opening (closing) at
// the pinned pixel for each of the sweep's angles, γ_α(x), with its argmax (closings: argmin)
// marked as the sweep's orientation rule picks it, and the current angle: the per-pixel story
// behind the orientation map. UI thread.
#pragma once

#include "app/session/session.h"
#include "ui/lesson_plot.h"

class QLineSeries;
class QScatterSeries;

namespace linescope::ui {

class LessonResponsePanel : public LessonPlotPanel {
    Q_OBJECT
public:
    explicit LessonResponsePanel(QWidget* parent = nullptr);

    // Plots the lesson's response (nothing without a pin) and marks `currentAngle`.
    void setLesson(const session::LessonOutput& lesson, MorphOp op, double currentAngle);
    QLineSeries* responseSeries() const { return response_; }
    // The marked point: (the best angle, its value); nullopt when nothing is plotted.
    std::optional<QPointF> bestPoint() const;

protected:
    void showLesson(const session::LessonOutput& lesson, const session::LessonParams& p) override {
        setLesson(lesson, p.op, p.line.angle);
    }

private:
    QLineSeries* response_ = nullptr;
    QScatterSeries* best_ = nullptr;
};

}  // namespace linescope::ui
