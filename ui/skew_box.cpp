#include "ui/skew_box.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <cmath>

namespace linescope::ui {

namespace {
QDoubleSpinBox* angleBox(QWidget* parent, double lo, double hi, double step, const QString& tip) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(lo, hi);
    box->setDecimals(2);
    box->setSingleStep(step);
    box->setSuffix(QStringLiteral("°"));
    box->setKeyboardTracking(false);  // a typed number applies once, not digit by digit
    box->setToolTip(tip);
    return box;
}
}  // namespace

SkewBox::SkewBox(QWidget* parent) : QWidget(parent) {
    label_ = new QLabel(this);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label_->setWordWrap(true);
    details_ = new QLabel(this);
    details_->setWordWrap(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    deskew_ = new QPushButton(tr("Deskew"), this);
    deskew_->setToolTip(tr("Rotate the image by the opposite of the skew angle, about its centre"));
    undo_ = new QPushButton(tr("Undo deskew"), this);
    undo_->setToolTip(tr("Back to the image before the last deskew"));
    undo_->setEnabled(false);
    connect(deskew_, &QPushButton::clicked, this, [this] {
        if (!skew_) return;
        emit deskewRequested(skew_->angle);
        setUndoAvailable(true);
    });
    connect(undo_, &QPushButton::clicked, this, [this] {
        emit undoDeskewRequested();
        setUndoAvailable(false);
    });

    start_ = angleBox(this, -89, 89, 1, tr("The first angle of the skew search"));
    stop_ = angleBox(this, -89, 89, 1, tr("The last angle of the skew search"));
    step_ = angleBox(this, 0.05, 5, 0.05, tr("The coarse search's step"));
    polarity_ = new QComboBox(this);
    polarity_->addItem(tr("dark lines"));
    polarity_->addItem(tr("bright lines"));
    polarity_->setToolTip(tr("Dark lines on light paper (closings), or bright lines on a dark ground (openings)"));
    setSkewParams(SkewParams{});
    for (QDoubleSpinBox* b : {start_, stop_, step_})
        connect(b, &QDoubleSpinBox::valueChanged, this, &SkewBox::controlsChanged);
    connect(polarity_, &QComboBox::currentIndexChanged, this, &SkewBox::controlsChanged);

    // A narrow column beside the plot (spectrum_panel.cpp): the readout, its buttons, the
    // search's range on one row and its step and polarity on the next.
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(deskew_);
    buttons->addWidget(undo_);
    buttons->addStretch(1);
    auto* search = new QGridLayout;
    search->addWidget(new QLabel(tr("Search"), this), 0, 0);
    search->addWidget(start_, 0, 1);
    search->addWidget(new QLabel(tr("to"), this), 0, 2);
    search->addWidget(stop_, 0, 3);
    search->addWidget(new QLabel(tr("step"), this), 1, 0);
    search->addWidget(step_, 1, 1);
    search->addWidget(polarity_, 1, 2, 1, 2);
    search->setColumnStretch(4, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label_);
    layout->addLayout(buttons);
    layout->addLayout(search);
    layout->addWidget(details_);
    setSkew(std::nullopt);
}

void SkewBox::setSkew(const std::optional<SkewResult>& skew, const QString& details) {
    skew_ = skew;
    const bool confident = skew && !skew->atRangeEdge && skew->confidence >= kSkewConfidentThreshold;
    if (!skew)
        label_->setText(tr("Skew: no estimate"));
    else if (skew->atRangeEdge)
        label_->setText(tr("No dominant line direction in the range: the extreme lies at its end (%1°); "
                           "widen the search range")
                            .arg(QString::asprintf("%+.2f", skew->angle)));
    else if (confident)
        label_->setText(QString::asprintf("Skew %+.2f° (confidence %.2f)", skew->angle, skew->confidence));
    else
        label_->setText(tr("No dominant line direction (confidence %1, below %2)")
                            .arg(skew->confidence, 0, 'f', 2)
                            .arg(kSkewConfidentThreshold, 0, 'f', 2));
    details_->setText(details);
    details_->setVisible(!details.isEmpty());
    deskew_->setEnabled(confident);
    deskew_->setToolTip(confident ? tr("Rotate the image by the opposite of the skew angle, about its centre")
                                  : tr("No confident skew estimate: nothing to deskew"));
}

void SkewBox::setSkewParams(const SkewParams& p) {
    params_ = p;
    const QSignalBlocker b1(start_), b2(stop_), b3(step_), b4(polarity_);
    const double first = p.angles.angle(0), last = p.angles.angle(std::max(p.angles.count, 1) - 1);
    start_->setValue(std::min(first, last));
    stop_->setValue(std::max(first, last));
    step_->setValue(std::abs(p.angles.step));
    polarity_->setCurrentIndex(p.darkLines ? 0 : 1);
}

void SkewBox::setUndoAvailable(bool available) { undo_->setEnabled(available); }

void SkewBox::controlsChanged() {
    // The range runs from start to stop inclusive; a stop before the start swaps them, and a
    // range shorter than two steps becomes two steps.
    const double lo = std::min(start_->value(), stop_->value()), hi = std::max(start_->value(), stop_->value());
    const double step = step_->value();
    const int count = std::max(2, static_cast<int>(std::floor((hi - lo) / step + 1e-9)) + 1);
    params_.angles = AngleSet{lo, step, count};
    params_.darkLines = polarity_->currentIndex() == 0;
    emit skewParamsChanged(params_);
}

}  // namespace linescope::ui
