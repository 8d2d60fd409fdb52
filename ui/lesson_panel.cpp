#include "ui/lesson_panel.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace linescope::ui {

namespace {

QString number(double v, bool integer) {
    return integer ? QString::number(static_cast<long long>(v)) : QString::number(v, 'g', 6);
}

QString signedK(int k) { return k > 0 ? QStringLiteral("+%1").arg(k) : k < 0 ? QStringLiteral("−%1").arg(-k) : QStringLiteral("0"); }

QString stageSentence(const session::LessonWindow& w, const QString& output, const QString& input, bool integer) {
    if (w.extreme < 0) return {};
    return QObject::tr("%1 = %2 of %3 pixels of %4 = %5, from k = %6")
        .arg(output, w.minimum ? QObject::tr("min") : QObject::tr("max"))
        .arg(w.pixels.size())
        .arg(input, number(w.output, integer), signedK(w.pixels[static_cast<std::size_t>(w.extreme)].k));
}

}  // namespace

QString lessonStory(const session::LessonOutput& lesson, MorphOp op, bool integerImage) {
    if (!lesson.pin) return {};
    const auto& pin = *lesson.pin;
    const bool opening = op != MorphOp::Close;
    return QObject::tr("At (%1, %2):  ").arg(pin.pixel.x).arg(pin.pixel.y) +
           stageSentence(pin.first, opening ? QStringLiteral("ε(f)") : QStringLiteral("δ(f)"), QStringLiteral("f"),
                         integerImage) +
           QStringLiteral("  ·  ") +
           stageSentence(pin.second, opening ? QStringLiteral("γ(f)") : QStringLiteral("φ(f)"),
                         opening ? QStringLiteral("ε(f)") : QStringLiteral("δ(f)"), integerImage);
}

LessonPanel::LessonPanel(QWidget* parent) : QWidget(parent) {
    setObjectName("lessonPanel");
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(6, 6, 6, 6);
    auto* row = new QHBoxLayout;
    steps_ = new QButtonGroup(this);
    steps_->setExclusive(true);
    const char* names[] = {"lessonStepOriginal", "lessonStepFirst", "lessonStepSecond"};
    for (int i = 0; i < LessonViewState::kPanes; ++i) {
        auto* b = new QToolButton(this);
        b->setObjectName(names[i]);
        b->setCheckable(true);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        steps_->addButton(b, i);
        row->addWidget(b);
    }
    steps_->button(2)->setChecked(true);
    difference_ = new QCheckBox(tr("Difference from f"), this);
    difference_->setObjectName("lessonDifference");
    difference_->setToolTip(tr("Show each stage minus f (D): blue where it is darker than f, orange where brighter"));
    row->addSpacing(16);
    row->addWidget(difference_);
    row->addStretch(1);
    auto* fit = new QToolButton(this);
    fit->setText(tr("Fit"));
    fit->setToolTip(tr("The whole image in each pane (double click)"));
    auto* pixels = new QToolButton(this);
    pixels->setText(tr("Pixels"));
    pixels->setObjectName("lessonPixels");
    pixels->setToolTip(tr("Zoom on the pinned pixel until pixels are numbered and their values printed"));
    row->addWidget(fit);
    row->addWidget(pixels);
    column->addLayout(row);

    view_ = new LessonView(this);
    column->addWidget(view_, 1);
    story_ = new QLabel(tr("Click a pixel to pin the segment there; drag to move it."), this);
    story_->setObjectName("lessonStory");
    story_->setWordWrap(true);
    story_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(story_);

    connect(steps_, &QButtonGroup::idClicked, this, [this](int id) { view_->setStep(static_cast<LessonStep>(id)); });
    connect(view_, &LessonView::stepChanged, this, [this](LessonStep s) { steps_->button(static_cast<int>(s))->setChecked(true); });
    connect(difference_, &QCheckBox::toggled, view_, &LessonView::setDifference);
    connect(view_, &LessonView::differenceChanged, this, [this](bool on) {
        difference_->setChecked(on);
        updateCaptions();
    });
    connect(fit, &QToolButton::clicked, view_, &LessonView::zoomToFit);
    connect(pixels, &QToolButton::clicked, this, [this] { view_->zoomOnPin(kPixelsZoom); });
    updateCaptions();
}

QToolButton* LessonPanel::stepButton(LessonStep step) const {
    return static_cast<QToolButton*>(steps_->button(static_cast<int>(step)));
}

void LessonPanel::follow(session::Session& session) {
    session_ = &session;
    view_->follow(session);
    connect(&session, &session::Session::snapshotReady, this, [this](session::RequestKind kind, const session::SnapshotPtr&) {
        if (kind == session::RequestKind::Lesson) updateStory();
    });
    connect(&session, &session::Session::parametersChanged, this, &LessonPanel::updateCaptions);
}

void LessonPanel::updateCaptions() {
    const MorphOp op = session_ ? session::lessonOpOf(session_->parameters().op) : MorphOp::Open;
    const bool diff = difference_->isChecked();
    for (int i = 0; i < LessonViewState::kPanes; ++i)
        steps_->button(i)->setText(QStringLiteral("%1  ").arg(i + 1) + lessonCaption(op, i, diff).section(QStringLiteral("   "), 0, 0));
}

void LessonPanel::updateStory() {
    const auto& scene = view_->scene();
    if (!scene.lesson || !scene.original) return;
    const bool integer = !std::holds_alternative<Image<float>>(*scene.original);
    const QString story = lessonStory(*scene.lesson, scene.op, integer);
    story_->setText(story.isEmpty() ? tr("Click a pixel to pin the segment there; drag to move it.") : story);
}

}  // namespace linescope::ui
