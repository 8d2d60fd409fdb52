// LessonPanel: the lesson mode's centre (issue 21): the step control (f, the first stage, the
// second stage; "Difference from f"), Fit and Pixels (a zoom where pixels are numbered and
// their values printed, on the pin), the canvas (LessonView) and one sentence under it that
// tells what the stages did at the pinned pixel. UI thread.
#pragma once

#include "app/session/session.h"
#include "ui/lesson_view.h"

#include <QWidget>

class QButtonGroup;
class QCheckBox;
class QLabel;
class QToolButton;

namespace linescope::ui {

// "At (x, y): ε(f) = min of 7 pixels of f = 23, from k = −2 · γ(f) = max of 7 pixels of ε(f) =
// 87, from k = +1" for a lesson with a pin (integers as integers); "" without one.
QString lessonStory(const session::LessonOutput& lesson, MorphOp op, bool integerImage);

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(QWidget* parent = nullptr);
    void follow(session::Session& session);

    LessonView* view() const { return view_; }
    QToolButton* stepButton(LessonStep step) const;
    QCheckBox* differenceBox() const { return difference_; }
    QLabel* storyLabel() const { return story_; }
    // The zoom of the Pixels button: numbers and values readable on a projector.
    static constexpr double kPixelsZoom = 44;

private:
    void updateStory();
    void updateCaptions();

    session::Session* session_ = nullptr;
    LessonView* view_ = nullptr;
    QButtonGroup* steps_ = nullptr;
    QCheckBox* difference_ = nullptr;
    QLabel* story_ = nullptr;
};

}  // namespace linescope::ui
