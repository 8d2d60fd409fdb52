#include "ui/view_controls.h"

#include "ui/line_kind_combo.h"
#include "ui/orientation_legend.h"
#include "ui/widget_lifetime.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>

#include <algorithm>
#include <cmath>

namespace linescope::ui {

namespace {

// The count of angles from..to inclusive in steps (a range that does not end on a step
// stops at the last step below `to`).
int rangeCount(double from, double to, double step) {
    if (!(step > 0) || to < from) return 1;
    return static_cast<int>(std::floor((to - from) / step + 1e-9)) + 1;
}

}  // namespace

ViewControls::ViewControls(QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);

    view_ = new QComboBox(this);
    for (int k = 0; k < kPlaneCount; ++k) view_->addItem(tr(planeName(static_cast<Plane>(k))), k);
    view_->setCurrentIndex(static_cast<int>(Plane::Result));
    view_->setToolTip(tr("Original image, the operator's result, or a plane of the sweep over the angle set"));
    form->addRow(tr("View"), view_);

    compare_ = new QComboBox(this);
    compare_->addItem(tr("Alone"), static_cast<int>(CompareMode::Single));
    compare_->addItem(tr("Side by side with the original"), static_cast<int>(CompareMode::SideBySide));
    compare_->addItem(tr("Split with the original"), static_cast<int>(CompareMode::Split));
    compare_->addItem(tr("Result beside another line kind"), static_cast<int>(CompareMode::KindsSideBySide));
    compare_->addItem(tr("Difference from another line kind"), static_cast<int>(CompareMode::KindsDifference));
    compare_->setToolTip(tr("The view alone, beside the original, or the result by this line kind beside (or minus) "
                            "the result by another: pixels where the two disagree are orange where this kind's "
                            "result is above, blue where below"));
    form->addRow(tr("Compare"), compare_);
    otherKind_ = new LineKindCombo(this);
    otherKind_->setKind(LineKind::Segment);
    form->addRow(tr("with"), otherKind_);
    otherKind_->setEnabled(false);

    snap_ = new QCheckBox(tr("Snap to distinct segments"), this);
    snap_->setToolTip(tr("For a given λ only so many digital segments exist: the angle slider's ticks mark where "
                         "the pixel set changes, and with this on every step of the angle moves to the next one"));
    resolution_ = new QLabel(this);
    resolution_->setObjectName("angleResolution");
    resolution_->setWordWrap(true);
    auto* angleColumn = new QVBoxLayout;
    angleColumn->addWidget(snap_);
    angleColumn->addWidget(resolution_);
    form->addRow(tr("Angle"), angleColumn);

    angleMode_ = new QComboBox(this);
    angleMode_->addItem(tr("Over 180°"));
    angleMode_->addItem(tr("Range"));
    form->addRow(tr("Sweep angles"), angleMode_);
    angleStack_ = new QStackedWidget(this);
    count_ = new QSpinBox;
    count_->setRange(1, kMaxSweepAngles);
    count_->setValue(180);
    count_->setSuffix(tr(" angles"));
    angleStack_->addWidget(count_);
    auto* range = new QWidget;
    auto* rangeRow = new QHBoxLayout(range);
    rangeRow->setContentsMargins(0, 0, 0, 0);
    auto makeAngleSpin = [&](double lo, double hi, double value, double stepSize, int decimals) {
        auto* s = new QDoubleSpinBox;
        s->setRange(lo, hi);
        s->setDecimals(decimals);
        s->setSingleStep(stepSize);
        s->setValue(value);
        s->setSuffix(QStringLiteral("°"));
        rangeRow->addWidget(s);
        return s;
    };
    from_ = makeAngleSpin(-180, 180, -10, 1, 2);
    to_ = makeAngleSpin(-180, 360, 10, 1, 2);
    step_ = makeAngleSpin(0.01, 90, 0.25, 0.05, 2);
    from_->setToolTip(tr("First angle"));
    to_->setToolTip(tr("Last angle (included)"));
    step_->setToolTip(tr("Step"));
    angleStack_->addWidget(range);
    form->addRow(angleStack_);

    blend_ = new QCheckBox(tr("Over the image"), this);
    blendAmount_ = new QSlider(Qt::Horizontal, this);
    blendAmount_->setRange(0, 100);
    blendAmount_->setValue(70);
    blendAmount_->setEnabled(false);
    auto* blendRow = new QHBoxLayout;
    blendRow->addWidget(blend_);
    blendRow->addWidget(blendAmount_, 1);

    needles_ = new QCheckBox(tr("Needles every"), this);
    needleStep_ = new QSpinBox(this);
    needleStep_->setRange(4, 256);
    needleStep_->setValue(16);
    needleStep_->setSuffix(tr(" px"));
    needleStep_->setEnabled(false);
    auto* needleRow = new QHBoxLayout;
    needleRow->addWidget(needles_);
    needleRow->addWidget(needleStep_, 1);
    // The colour wheel stands beside the two rows it explains, not below them: the dock fits
    // a 1280×800 window unscrolled.
    auto* options = new QVBoxLayout;
    options->addLayout(blendRow);
    options->addLayout(needleRow);
    options->addStretch(1);
    legend_ = new OrientationLegend(this);
    legend_->setFixedSize(100, 88);  // room for the "0°" at the right
    QSizePolicy keepPlace = legend_->sizePolicy();
    keepPlace.setRetainSizeWhenHidden(true);  // the dock's width does not jump with the view
    legend_->setSizePolicy(keepPlace);
    legend_->setVisible(false);
    auto* orientationRow = new QHBoxLayout;
    orientationRow->addLayout(options, 1);
    orientationRow->addWidget(legend_);
    form->addRow(tr("Orientation"), orientationRow);

    glyph_ = new QCheckBox(tr("Segment at the cursor"), this);
    glyph_->setChecked(true);
    form->addRow(tr("Glyph"), glyph_);

    gpu_ = new QCheckBox(tr("Compute and draw on the GPU"), this);
    form->addRow(tr("GPU"), gpu_);

    connect(view_, &QComboBox::currentIndexChanged, this, [this] {
        legend_->setVisible(view() == Plane::Orientation);
        // Another view does not compare kinds: leave that compare mode rather than show the
        // view alone under its name.
        if (view() != Plane::Result && comparesKinds(compareMode())) {
            const QSignalBlocker b(compare_);
            compare_->setCurrentIndex(compare_->findData(static_cast<int>(CompareMode::Single)));
            otherKind_->setEnabled(false);
            emit viewChanged(view());
            emit compareModeChanged(compareMode());
            return;
        }
        emit viewChanged(view());
    });
    connect(compare_, &QComboBox::currentIndexChanged, this, [this] {
        const bool kinds = comparesKinds(compareMode());
        otherKind_->setEnabled(kinds);
        // Two kinds are compared in the Result view: the view goes there first, so that the
        // session computes the comparison once.
        if (kinds && view() != Plane::Result) setView(Plane::Result);
        emit compareModeChanged(compareMode());
    });
    connect(otherKind_, &LineKindCombo::kindChanged, this, &ViewControls::otherKindChanged);
    connect(snap_, &QCheckBox::toggled, this, &ViewControls::snapAngleChanged);
    connect(angleMode_, &QComboBox::currentIndexChanged, this, [this](int i) {
        angleStack_->setCurrentIndex(i);
        emitAngleSet();
    });
    connect(count_, &QSpinBox::valueChanged, this, &ViewControls::emitAngleSet);
    for (QDoubleSpinBox* s : {from_, to_, step_}) connect(s, &QDoubleSpinBox::valueChanged, this, &ViewControls::emitAngleSet);
    connect(blend_, &QCheckBox::toggled, this, [this](bool on) {
        blendAmount_->setEnabled(on);
        emitOrientation();
    });
    connect(blendAmount_, &QSlider::valueChanged, this, &ViewControls::emitOrientation);
    connect(needles_, &QCheckBox::toggled, this, [this](bool on) {
        needleStep_->setEnabled(on);
        emitOrientation();
    });
    connect(needleStep_, &QSpinBox::valueChanged, this, &ViewControls::emitOrientation);
    connect(glyph_, &QCheckBox::toggled, this, &ViewControls::glyphVisibleChanged);
    connect(gpu_, &QCheckBox::toggled, this, &ViewControls::gpuToggled);
}

ViewControls::~ViewControls() { disconnectFromDescendants(this); }

Plane ViewControls::view() const { return static_cast<Plane>(view_->currentData().toInt()); }
CompareMode ViewControls::compareMode() const { return static_cast<CompareMode>(compare_->currentData().toInt()); }
LineKind ViewControls::otherKind() const { return otherKind_->kind(); }
bool ViewControls::snapAngle() const { return snap_->isChecked(); }
void ViewControls::setOtherKind(LineKind kind) { otherKind_->setKind(kind); }
void ViewControls::setSnapAngle(bool on) { snap_->setChecked(on); }
void ViewControls::setResolutionText(const QString& text) { resolution_->setText(text); }

AngleSet ViewControls::angleSet() const {
    if (angleMode_->currentIndex() == 0) {
        return AngleSet::overHalfTurn(count_->value());
    }
    const int n = std::clamp(rangeCount(from_->value(), to_->value(), step_->value()), 1, kMaxSweepAngles);
    return AngleSet{from_->value(), step_->value(), n};
}

bool ViewControls::blend() const { return blend_->isChecked(); }
double ViewControls::blendAmount() const { return blendAmount_->value() / 100.0; }
int ViewControls::needleStep() const { return needles_->isChecked() ? needleStep_->value() : 0; }
bool ViewControls::glyphVisible() const { return glyph_->isChecked(); }
bool ViewControls::gpuChecked() const { return gpu_->isChecked(); }

void ViewControls::setView(Plane v) { view_->setCurrentIndex(view_->findData(static_cast<int>(v))); }
void ViewControls::setCompareMode(CompareMode m) { compare_->setCurrentIndex(compare_->findData(static_cast<int>(m))); }

void ViewControls::setAngleSet(const AngleSet& a) {
    {
        const QSignalBlocker b0(angleMode_), b1(count_), b2(from_), b3(to_), b4(step_);
        const bool whole = a.start == 0 && a.count > 0 && std::abs(a.step * a.count - 180.0) < 1e-9;
        angleMode_->setCurrentIndex(whole ? 0 : 1);
        angleStack_->setCurrentIndex(whole ? 0 : 1);
        if (whole) {
            count_->setValue(a.count);
        } else {
            from_->setValue(a.start);
            step_->setValue(a.step);
            to_->setValue(a.angle(a.count - 1));
        }
    }
    emitAngleSet();
}

void ViewControls::setBlend(bool on, double amount) {
    const QSignalBlocker b0(blend_), b1(blendAmount_);
    blend_->setChecked(on);
    blendAmount_->setEnabled(on);
    blendAmount_->setValue(static_cast<int>(std::lround(std::clamp(amount, 0.0, 1.0) * 100)));
    emitOrientation();
}

void ViewControls::setNeedleStep(int step) {
    {
        const QSignalBlocker b0(needles_), b1(needleStep_);
        needles_->setChecked(step > 0);
        needleStep_->setEnabled(step > 0);
        if (step > 0) needleStep_->setValue(step);
    }
    emitOrientation();
}

void ViewControls::setGlyphVisible(bool on) { glyph_->setChecked(on); }

void ViewControls::setGpuAvailable(bool available, const QString& why) {
    gpu_->setEnabled(available);
    gpu_->setToolTip(available ? tr("The engine computes the shown view on the GPU and writes it straight into "
                                    "the viewport's textures (CUDA-OpenGL interop)")
                               : tr("Not available: %1").arg(why));
    if (!available) gpu_->setChecked(false);
}

void ViewControls::setGpuChecked(bool on) { gpu_->setChecked(on && gpu_->isEnabled()); }

void ViewControls::emitAngleSet() { emit angleSetChanged(angleSet()); }
void ViewControls::emitOrientation() { emit orientationChanged(blend(), blendAmount(), needleStep()); }

}  // namespace linescope::ui
