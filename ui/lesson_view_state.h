// The lesson canvas's logic without widgets (issue 21): three panes side by side, f → the
// first stage → the second stage, sharing one zoom and pan; which stages the step control has
// revealed and whether they show their difference from f; the pinned pixel, set by a click
// and moved by a drag on any pane. The widget (lesson_view.h) and the tests drive it alike.
//
// Positions are logical pixels of the canvas. Each pane maps image coordinates to its own
// rectangle with the same ViewTransform, relative to the pane's top-left corner.
//
// Thread: UI thread.
#pragma once

#include "compute/line_window.h"
#include "render/view_transform.h"

#include <QPointF>
#include <QRectF>
#include <QtCore/qnamespace.h>

#include <functional>
#include <optional>

namespace linescope::ui {

// How far the lesson has gone: f alone, then the first stage, then the second.
enum class LessonStep { Original = 0, FirstStage = 1, SecondStage = 2 };

class LessonViewState {
public:
    static constexpr int kPanes = 3;

    // The size of the canvas, and of the band above each pane that holds its caption.
    void resize(double width, double height, double captionHeight);
    void setImageSize(int width, int height);
    int imageWidth() const { return imageW_; }
    int imageHeight() const { return imageH_; }

    // A pane's image area and its caption band (logical pixels).
    QRectF paneRect(int pane) const;
    QRectF captionRect(int pane) const;
    // The pane under a position, or −1 (the gaps, the captions).
    int paneAt(QPointF position) const;

    // --- zoom and pan, shared by the panes ---------------------------------------------
    const render::ViewTransform& transform() const { return transform_; }
    void zoomToFit();  // and follow the size until the user zooms or pans
    // `zoom` screen pixels per image pixel, with image point `centre` at the panes' centres.
    void zoomTo(double zoom, QPointF centre);
    void zoomAbout(QPointF position, int angleDelta);  // a wheel's 120 a notch, about the cursor
    void panBy(QPointF delta);
    bool fitted() const { return follow_; }

    // Image coordinates ↔ canvas positions in a pane.
    QPointF toImage(int pane, QPointF position) const;
    QPointF toCanvas(int pane, QPointF imagePoint) const;
    // The image pixel under a position, if it is one of a pane's.
    std::optional<PixelAt> pixelAt(QPointF position) const;

    // --- the step control ---------------------------------------------------------------
    void setStep(LessonStep step) { step_ = step; }
    LessonStep step() const { return step_; }
    bool revealed(int pane) const { return pane <= static_cast<int>(step_); }
    void setDifference(bool on) { difference_ = on; }
    bool difference() const { return difference_; }

    // --- the pin and the pointer --------------------------------------------------------
    void setPin(std::optional<PixelAt> pin) { pin_ = pin; }
    std::optional<PixelAt> pin() const { return pin_; }
    // Left button on a pixel: pins it and drags the pin (pinMoved); right or middle button:
    // pans. False when the press is not taken.
    bool press(QPointF position, Qt::MouseButton button);
    // Drags what press took: the pin to the pixel under the cursor (clamped into the image),
    // or the pan.
    void move(QPointF position);
    bool release();
    bool draggingPin() const { return grab_ == Grab::Pin; }

    std::function<void(PixelAt)> pinMoved;  // the user pinned or dragged to a new pixel

private:
    enum class Grab { None, Pin, Pan };
    void refit();
    double paneWidth() const;

    double width_ = 0, height_ = 0, caption_ = 0;
    int imageW_ = 0, imageH_ = 0;
    render::ViewTransform transform_;
    bool follow_ = true;
    LessonStep step_ = LessonStep::SecondStage;
    bool difference_ = false;
    std::optional<PixelAt> pin_;
    Grab grab_ = Grab::None;
    QPointF last_;
    static constexpr double kGap = 8;  // logical pixels between panes
};

}  // namespace linescope::ui
