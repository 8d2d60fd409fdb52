// Draws the lesson canvas with QPainter (issue 21): the three panes (f, the first stage, the
// second stage; or their difference from f), captions in large type for a projector, the
// pinned segment outlined so that it stays visible over any grey or colour, its origin
// marked, its pixels numbered and the pixel that gave the min or max marked, and every
// pixel's value printed once a pixel is large enough on screen. Text is why this is QPainter
// and not the OpenGL viewport (which has no text but the developer overlay's).
//
// Thread: UI thread (QImage and QPainter need no window: tests paint into a QImage).
#pragma once

#include "app/session/lesson.h"
#include "ui/lesson_view_state.h"

#include <QImage>
#include <QString>

#include <array>
#include <memory>

class QPainter;

namespace linescope::ui {

// What the canvas shows: the image, the newest lesson, and the panes' pictures made from them.
struct LessonScene {
    std::shared_ptr<const session::AnyImage> original;
    std::shared_ptr<const session::LessonOutput> lesson;  // nullptr until the first one
    MorphOp op = MorphOp::Open;                            // the lesson's (Open or Close)
    std::array<QImage, LessonViewState::kPanes> panes;     // null where not available yet
    double lo = 0, hi = 255;                               // the grey range (the viewport's)
    double maxDifference = 0;                              // the largest |stage − f|, difference mode
    bool difference = false;                               // the panes hold differences
};

// The panes' pictures: f and the two stages in grey over [lo, hi] (the viewport's range of
// f: uint8 0…255, uint16 0…65535, float its min…max), or, with `difference`, stage − f in
// colours (0 dark grey, negative blue, positive orange, full at the largest |difference|).
// The first pane is f either way.
void buildLessonPanes(LessonScene& scene, bool difference);

// The value pane `pane` shows at a pixel (NaN where it has none): f, the first or second
// stage, or its difference from f.
double lessonPaneValue(const LessonScene& scene, int pane, int x, int y);

// The captions: "f", "ε(f)  erosion: the min over the segment", … after the scene's operator.
QString lessonCaption(MorphOp op, int pane, bool difference);

// Screen pixels per image pixel from which pixels are numbered and values printed.
inline constexpr double kLessonTextZoom = 28;

// Paints the canvas (its size is the state's) with `pointSize` as the captions' type size.
void paintLesson(QPainter& painter, const LessonViewState& state, const LessonScene& scene, double pointSize);

}  // namespace linescope::ui
