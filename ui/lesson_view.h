// LessonView: the lesson mode's canvas (issue 21), a thin QWidget over LessonViewState
// (zoom, pan, panes, pin) and paintLesson (lesson_painter.h). It follows the session's lesson
// snapshots, sends a click or drag's pixel to Session::setLessonPin (the engine coalesces a
// drag), zooms with the wheel about the cursor, pans with the right or middle button, and
// fits on a double click. Keys: ← / → step back and forth through the stages, D toggles the
// difference from f (1 … 6 stay the window's view keys).
//
// Thread: UI thread; it never waits for the engine.
#pragma once

#include "app/session/session.h"
#include "ui/lesson_painter.h"
#include "ui/lesson_view_state.h"

#include <QWidget>

namespace linescope::ui {

class LessonView : public QWidget {
    Q_OBJECT
public:
    explicit LessonView(QWidget* parent = nullptr);

    // Shows the session's image and lesson snapshots as they come, and pins through it. Once.
    void follow(session::Session& session);

    LessonViewState& state() { return state_; }
    const LessonViewState& state() const { return state_; }
    const LessonScene& scene() const { return scene_; }
    // The id of the lesson snapshot the canvas shows (0: none).
    std::uint64_t shownLessonId() const { return shownId_; }

    void setStep(LessonStep step);
    void setDifference(bool on);
    // `zoom` screen pixels per image pixel centred on the pin (or the image's centre); before
    // an image is shown, once it is.
    void zoomOnPin(double zoom);
    void zoomToFit();
    // The captions' point size (the projector's large type).
    void setCaptionPointSize(double points);

    // The canvas as painted now, at its logical size (tests, exports).
    QImage render() const;

signals:
    void stepChanged(linescope::ui::LessonStep step);
    void differenceChanged(bool on);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;

private:
    void showSnapshot(const session::SnapshotPtr& s);
    void rebuildPanes();
    double captionHeight() const;

    session::Session* session_ = nullptr;
    LessonViewState state_;
    LessonScene scene_;
    std::shared_ptr<const session::LessonStages> panesFor_;  // the stages the pane pictures show
    std::uint64_t shownId_ = 0;
    double captionPoints_ = 16;
    std::optional<double> pendingZoom_;  // zoomOnPin before the image came
};

}  // namespace linescope::ui
