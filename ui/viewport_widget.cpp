#include "ui/viewport_widget.h"

#include "ui/freshness_badge.h"
#include "ui/line_kind_text.h"

#include "app/session/kind_difference.h"
#include "app/session/session.h"

#include <QLabel>
#include <QMouseEvent>
#include <QRubberBand>
#include <QOpenGLContext>
#include <QSurfaceFormat>
#include <QWheelEvent>

#include <cmath>

namespace linescope::ui {

namespace {

void* loadGl(const char* name) {
    QOpenGLContext* ctx = QOpenGLContext::currentContext();
    return ctx ? reinterpret_cast<void*>(ctx->getProcAddress(name)) : nullptr;
}

}  // namespace

ViewportWidget::ViewportWidget(QWidget* parent)
    : QOpenGLWidget(parent),
      controller_(ViewportHooks{
          [this] { update(); },
          [this](const QString& message) { emit glFailed(message); },
          [this](const ProbeValues& probe) { emit probeChanged(probe); },
          [this](bool contours, bool glyph, bool blend, bool needles) {
              emit overlayToggled(contours, glyph, blend, needles);
          },
          [this](const QString& why) { emit gpuPathLost(why); },
          [this](const PixelRect& region) {
              unsetCursor();
              emit regionDrawn(region);
          },
      }) {
    QSurfaceFormat f = format();
    f.setRenderableType(QSurfaceFormat::OpenGL);
    f.setVersion(3, 3);
    f.setProfile(QSurfaceFormat::CoreProfile);
    setFormat(f);
    setMinimumSize(200, 150);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);  // the glyph and the probe follow the cursor
    // Which side is which in the compare modes: child labels, composited over the OpenGL
    // frame by Qt, at the bottom (the overlay holds the top left).
    for (QLabel** l : {&leftLabel_, &rightLabel_}) {
        *l = new QLabel(this);
        (*l)->setStyleSheet(QStringLiteral("QLabel { background: rgba(0, 0, 0, 170); color: white; padding: 2px 6px; }"));
        (*l)->setAttribute(Qt::WA_TransparentForMouseEvents);
        (*l)->hide();
    }
    // The granulometry's region: a rubber band composited over the frame like the labels.
    regionBand_ = new QRubberBand(QRubberBand::Rectangle, this);
    regionBand_->setAttribute(Qt::WA_TransparentForMouseEvents);
    regionBand_->hide();
    badge_ = new FreshnessBadge(this);
    connect(badge_, &FreshnessBadge::changed, this, &ViewportWidget::placeLabels);
#if defined(LINESCOPE_HAVE_IMGUI)
    // The overlay sees input first: a click on its panel never pans the image.
    installEventFilter(&overlayInput_);
#endif
}

ViewportWidget::~ViewportWidget() {
    // The controller touches no OpenGL in its destructor: release while the context lives.
    if (context()) {
        // ~QOpenGLWidget destroys the context after this destructor: its aboutToBeDestroyed
        // must not reach contextAboutToBeDestroyed() on what is by then a QOpenGLWidget.
        disconnect(context(), nullptr, this, nullptr);
        makeCurrent();
        controller_.release();
        doneCurrent();
    }
}

void ViewportWidget::contextAboutToBeDestroyed() {
    makeCurrent();
    controller_.release();
    doneCurrent();
}

void ViewportWidget::initializeGL() {
    // Qt may recreate the context (e.g. the widget moves to another window): release the
    // old objects with the old context current, then start over in the new one.
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &ViewportWidget::contextAboutToBeDestroyed,
            Qt::UniqueConnection);
    controller_.initialize(&loadGl);
}

void ViewportWidget::syncSize() { controller_.resize(width(), height(), devicePixelRatioF()); }

void ViewportWidget::paintGL() {
    syncSize();  // a new device pixel ratio (another screen) comes without a resize
    const int w = static_cast<int>(std::lround(width() * devicePixelRatioF()));
    const int h = static_cast<int>(std::lround(height() * devicePixelRatioF()));
    if (controller_.render(defaultFramebufferObject(), w, h)) emit frameDrawn();
    placeRegion();  // after the frame's pan and zoom (a fit follows the window's size)
}

void ViewportWidget::setRegionDrawing(bool armed) {
    controller_.setRegionDrawing(armed);
    if (armed) setCursor(Qt::CrossCursor);
    else unsetCursor();
}

void ViewportWidget::setRegion(std::optional<PixelRect> region) {
    controller_.setRegion(region);
    placeRegion();
}

QWidget* ViewportWidget::regionOutline() const { return regionBand_; }

void ViewportWidget::placeRegion() {
    const auto r = controller_.regionOnScreen();
    if (!r) {
        regionBand_->hide();
        return;
    }
    // At least 2×2 logical pixels, so that a one-pixel region at a small zoom stays visible.
    QRect g = r->toAlignedRect();
    g.setSize(g.size().expandedTo(QSize(2, 2)));
    regionBand_->setGeometry(g);
    regionBand_->show();
}

void ViewportWidget::resizeEvent(QResizeEvent* e) {
    syncSize();  // before QOpenGLWidget's resizeGL, which comes only once initialized
    QOpenGLWidget::resizeEvent(e);
}

void ViewportWidget::resizeGL(int, int) { placeLabels(); }

// --- what to show -----------------------------------------------------------------------

void ViewportWidget::setView(Plane view) {
    controller_.setView(view);
    placeLabels();
}

void ViewportWidget::setCompareMode(CompareMode mode) {
    controller_.setCompareMode(mode);
    placeLabels();
}

void ViewportWidget::setSplitPosition(double fraction) {
    controller_.setSplitPosition(fraction);
    placeLabels();
}

void ViewportWidget::setOtherKind(LineKind kind) {
    controller_.setOtherKind(kind);
    placeLabels();
}

void ViewportWidget::placeLabels() {
    // The overlay holds the top left corner, the side labels the bottom: the mark goes top right.
    badge_->move(width() - badge_->width() - 10, 10);
    const CompareMode compare = controller_.compareMode();
    const bool kinds = controller_.comparingKinds();
    // The kinds' difference: one label, the count and the colours; side by side: the kinds.
    const session::SnapshotPtr shown = snapshot();
    const session::KindDifference* difference = kinds && shown ? shown->difference.get() : nullptr;
    const bool on = compare != CompareMode::Single && (!comparesKinds(compare) || kinds);
    leftLabel_->setVisible(on);
    rightLabel_->setVisible(on && (compare != CompareMode::KindsDifference));
    if (!on) return;
    if (compare == CompareMode::KindsDifference) {
        leftLabel_->setText(difference ? kindDifferenceText(*difference) + QStringLiteral("\n") +
                                             kindDifferenceLegend(*difference)
                                       : tr("Comparing %1 with %2…")
                                             .arg(lineKindLabel(controller_.glyphKind()), lineKindLabel(controller_.otherKind())));
    } else if (kinds) {
        leftLabel_->setText(lineKindLabel(controller_.otherKind()));
        rightLabel_->setText(difference ? lineKindLabel(difference->a) + QStringLiteral(" · ") + kindDifferenceCount(*difference)
                                        : lineKindLabel(controller_.glyphKind()));
    } else {
        leftLabel_->setText(tr("Original"));
        rightLabel_->setText(tr(planeName(controller_.view())));
    }
    for (QLabel* l : {leftLabel_, rightLabel_}) l->adjustSize();
    const int rightX = compare == CompareMode::Split
                           ? static_cast<int>(controller_.splitPosition() * width())
                           : static_cast<int>(controller_.primaryArea().x / devicePixelRatioF());
    const int y = height() - leftLabel_->height() - 8;
    leftLabel_->move(8, y);
    rightLabel_->move(rightX + 8, y);
}

// --- input ------------------------------------------------------------------------------

void ViewportWidget::wheelEvent(QWheelEvent* e) {
    controller_.zoomAbout(e->position(), e->angleDelta().y());
    e->accept();
}

void ViewportWidget::mousePressEvent(QMouseEvent* e) {
    switch (controller_.press(e->position(), e->button())) {
    case PointerGrab::Split:
    case PointerGrab::Region: e->accept(); return;
    case PointerGrab::Pan:
        setCursor(Qt::ClosedHandCursor);
        e->accept();
        return;
    case PointerGrab::None: break;
    }
    QOpenGLWidget::mousePressEvent(e);
}

void ViewportWidget::mouseMoveEvent(QMouseEvent* e) {
    controller_.move(e->position());
    if (controller_.regionDrawing()) placeRegion();
    if (controller_.draggingSplit()) placeLabels();
}

void ViewportWidget::mouseReleaseEvent(QMouseEvent* e) {
    if (controller_.releaseButton()) {
        unsetCursor();
        return;
    }
    QOpenGLWidget::mouseReleaseEvent(e);
}

void ViewportWidget::mouseDoubleClickEvent(QMouseEvent*) { zoomToFit(); }

void ViewportWidget::leaveEvent(QEvent* e) {
    controller_.leave();
    QOpenGLWidget::leaveEvent(e);
}

void ViewportWidget::follow(const session::Session& session) {
    connect(&session, &session::Session::imageChanged, this, [this, &session] { setOriginal(session.image()); });
    connect(&session, &session::Session::viewOptionsChanged, this, [this](const session::ViewOptions& o) {
        setView(o.view);
        setOtherKind(o.otherKind);
        setCompareMode(o.compare);
        setOrientationBlend(o.blend, o.blendAmount);
        setNeedles(o.needleStep);
        setGlyphVisible(o.glyphVisible);
        // Contours are drawn while their dock is on screen (it lists them).
        setContoursVisible(o.contoursVisible && o.contoursShown);
    });
    connect(&session, &session::Session::snapshotReady, this,
            [this, &session](session::RequestKind kind, const session::SnapshotPtr& snapshot) {
                if (!snapshot->ok()) return;
                switch (kind) {
                case session::RequestKind::Result:
                    showSnapshot(snapshot);
                    setComputeMs(snapshot->timings.compute);
                    placeLabels();  // the kinds' difference count
                    break;
                case session::RequestKind::Sweep: showSnapshot(snapshot); break;
                case session::RequestKind::Contours: setContours(snapshot->contours); return;
                case session::RequestKind::Skew:
                case session::RequestKind::Granulometry:
                case session::RequestKind::Lesson:
                case session::RequestKind::Field: return;
                }
                updateMark(session);
            });
    // What the shown data is compared with: the parameters, the view, the image.
    connect(&session, &session::Session::parametersChanged, this, [this, &session] { updateMark(session); });
    connect(&session, &session::Session::viewOptionsChanged, this, [this, &session] { updateMark(session); });
    connect(&session, &session::Session::imageChanged, this, [this, &session] { updateMark(session); });
    connect(&session, &session::Session::cancelledChanged, this, [this, &session] { updateMark(session); });
}

void ViewportWidget::updateMark(const session::Session& session) {
    const Plane v = controller_.view();
    if (v == Plane::Original) {
        badge_->setState({});
        return;
    }
    const bool result = v == Plane::Result;
    const session::SnapshotPtr shown = result ? snapshot() : sweepSnapshot();
    session::ShownState state =
        session::shownStateOf(shown.get(), session.requestFor(result ? session::RequestKind::Result : session::RequestKind::Sweep));
    // A preview whose refinement the user cancelled stays a preview: say that nothing follows.
    if (!result && state.freshness == session::Freshness::Preview && session.isCancelled(session::RequestKind::Sweep))
        state.text += " (refining cancelled)";
    badge_->setState(state);
}

}  // namespace linescope::ui
