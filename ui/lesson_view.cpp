#include "ui/lesson_view.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <utility>

namespace linescope::ui {

LessonView::LessonView(QWidget* parent) : QWidget(parent) {
    setObjectName("lessonView");
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(false);
    setMinimumSize(320, 200);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void LessonView::follow(session::Session& session) {
    session_ = &session;
    state_.pinMoved = [this](PixelAt p) {
        if (session_) session_->setLessonPin(p);
        update();
    };
    connect(&session, &session::Session::imageChanged, this, [this] {
        scene_.original = session_->image();
        scene_.lesson.reset();
        panesFor_.reset();
        if (scene_.original) state_.setImageSize(session::widthOf(*scene_.original), session::heightOf(*scene_.original));
        if (scene_.original && pendingZoom_) {
            state_.setPin(session_->lessonPin());
            zoomOnPin(*std::exchange(pendingZoom_, std::nullopt));
        }
        rebuildPanes();
        update();
    });
    connect(&session, &session::Session::snapshotReady, this,
            [this](session::RequestKind kind, const session::SnapshotPtr& s) {
                if (kind == session::RequestKind::Lesson) showSnapshot(s);
            });
    connect(&session, &session::Session::parametersChanged, this, [this] {
        state_.setPin(session_->lessonPin());
        update();
    });
}

void LessonView::showSnapshot(const session::SnapshotPtr& s) {
    // Only the current image's lessons; an error keeps the last good one on screen.
    if (!s->ok() || s->request.image != scene_.original) return;
    scene_.lesson = s->lesson;
    scene_.op = std::get<session::LessonParams>(s->request.params).op;
    shownId_ = s->id;
    // The pictures change with the stages only, not with the pin.
    if (s->lesson->stages != panesFor_) rebuildPanes();
    update();
}

void LessonView::rebuildPanes() {
    panesFor_ = scene_.lesson ? scene_.lesson->stages : nullptr;
    buildLessonPanes(scene_, state_.difference());
}

void LessonView::setStep(LessonStep step) {
    if (step == state_.step()) return;
    state_.setStep(step);
    update();
    emit stepChanged(step);
}

void LessonView::setDifference(bool on) {
    if (on == state_.difference()) return;
    state_.setDifference(on);
    rebuildPanes();
    update();
    emit differenceChanged(on);
}

void LessonView::zoomOnPin(double zoom) {
    if (state_.imageWidth() == 0) {
        pendingZoom_ = zoom;
        return;
    }
    const auto pin = state_.pin();
    const QPointF centre = pin ? QPointF(pin->x + 0.5, pin->y + 0.5)
                               : QPointF(state_.imageWidth() / 2.0, state_.imageHeight() / 2.0);
    state_.zoomTo(zoom, centre);
    update();
}

void LessonView::zoomToFit() {
    state_.zoomToFit();
    update();
}

void LessonView::setCaptionPointSize(double points) {
    captionPoints_ = points;
    state_.resize(width(), height(), captionHeight());
    update();
}

double LessonView::captionHeight() const {
    QFont f = font();
    f.setPointSizeF(captionPoints_);
    f.setBold(true);
    return QFontMetricsF(f).height() * 1.6;
}

QImage LessonView::render() const {
    QImage img(size(), QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::black);
    QPainter p(&img);
    p.setFont(font());
    paintLesson(p, state_, scene_, captionPoints_);
    return img;
}

void LessonView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), Qt::black);
    paintLesson(p, state_, scene_, captionPoints_);
}

void LessonView::resizeEvent(QResizeEvent*) { state_.resize(width(), height(), captionHeight()); }

void LessonView::mousePressEvent(QMouseEvent* e) {
    if (state_.press(e->position(), e->button())) {
        update();
        e->accept();
    } else {
        QWidget::mousePressEvent(e);
    }
}

void LessonView::mouseMoveEvent(QMouseEvent* e) {
    state_.move(e->position());
    update();
}

void LessonView::mouseReleaseEvent(QMouseEvent* e) {
    if (!state_.release()) QWidget::mouseReleaseEvent(e);
}

void LessonView::mouseDoubleClickEvent(QMouseEvent*) { zoomToFit(); }

void LessonView::wheelEvent(QWheelEvent* e) {
    state_.zoomAbout(e->position(), e->angleDelta().y());
    update();
    e->accept();
}

void LessonView::keyPressEvent(QKeyEvent* e) {
    const int step = static_cast<int>(state_.step());
    switch (e->key()) {
    case Qt::Key_Right: setStep(static_cast<LessonStep>(std::min(step + 1, 2))); break;
    case Qt::Key_Left: setStep(static_cast<LessonStep>(std::max(step - 1, 0))); break;
    case Qt::Key_D: setDifference(!state_.difference()); break;
    default: QWidget::keyPressEvent(e); return;
    }
    e->accept();
}

}  // namespace linescope::ui
