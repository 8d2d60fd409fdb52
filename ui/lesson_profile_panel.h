// LessonProfilePanel: the lesson's profile dock (issue 21): the grey values along the line
// path through the pinned pixel (f, ε(f), δ(f) and the second stage, from the lesson
// snapshot's images), around the pin, with the window of λ samples that the first stage read
// as a bracket that slides with the pin: the 1-D tables of the definitions page on real data.
// The x axis counts samples along the path from the pin. UI thread.
#pragma once

#include "app/session/session.h"
#include "ui/lesson_plot.h"

class QLineSeries;

namespace linescope::ui {

class LessonProfilePanel : public LessonPlotPanel {
    Q_OBJECT
public:
    explicit LessonProfilePanel(QWidget* parent = nullptr);

    // Plots the lesson's profile around the pin (± max(2λ, 12) samples), or says to pin one.
    void setLesson(const session::LessonOutput& lesson, MorphOp op, int length);
    // The series names: "f", "ε(f)", "δ(f)", "γ(f)" or "φ(f)", "window", "pin".
    static QString secondName(MorphOp op) { return op == MorphOp::Close ? QStringLiteral("φ(f)") : QStringLiteral("γ(f)"); }

protected:
    void showLesson(const session::LessonOutput& lesson, const session::LessonParams& p) override {
        setLesson(lesson, p.op, p.line.length);
    }

private:
    QLineSeries* second_ = nullptr;
};

}  // namespace linescope::ui
