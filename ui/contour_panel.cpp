#include "ui/contour_panel.h"

#include "app/session/session.h"

#include "ui/contour_table_model.h"
#include "ui/widget_lifetime.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <string>

namespace linescope::ui {

namespace {

constexpr int kFloatTicks = 1000;     // slider steps over a float image's range
constexpr int kMaxIntegerTicks = 1 << 20;  // beyond this an integer range gets kFloatTicks steps too

template <class E>
void addItems(QComboBox* combo, std::initializer_list<std::pair<const char*, E>> items) {
    for (const auto& [text, value] : items) combo->addItem(QString::fromUtf8(text), static_cast<int>(value));
}

template <class E>
void selectData(QComboBox* combo, E value) {
    combo->setCurrentIndex(combo->findData(static_cast<int>(value)));
}

bool writeFile(const QString& path, const std::function<std::string()>& text, QString* error) {
    try {
        io::writeTextFile(QFile::encodeName(path).toStdString(), text());
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

}  // namespace

ContourPanel::ContourPanel(QWidget* parent) : QWidget(parent) {
    sourceCombo_ = new QComboBox(this);
    for (const auto s : session::kContourSources) sourceCombo_->addItem(tr(session::planeName(s)), static_cast<int>(s));
    sourceCombo_->setToolTip(tr("The view whose pixels are thresholded and traced"));

    buildThresholdRow();

    modeCombo_ = new QComboBox(this);
    addItems<ContourMode>(modeCombo_, {{"external", ContourMode::External},
                                       {"list", ContourMode::List},
                                       {"ccomp", ContourMode::CComp},
                                       {"tree", ContourMode::Tree}});
    modeCombo_->setToolTip(tr("Which borders and hierarchy (OpenCV's RETR_EXTERNAL, _LIST, _CCOMP, _TREE)"));
    selectData(modeCombo_, ContourMode::List);
    approxCombo_ = new QComboBox(this);
    addItems<ContourApprox>(approxCombo_, {{"none", ContourApprox::None}, {"simple", ContourApprox::Simple}});
    approxCombo_->setToolTip(tr("Every border pixel (none) or only the corners (simple)"));
    selectData(approxCombo_, ContourApprox::Simple);

    visibleCheck_ = new QCheckBox(tr("Show contours"), this);
    visibleCheck_->setChecked(false);
    visibleCheck_->setToolTip(tr("Trace the contours and draw them over the view (key C)"));
    legend_ = new QLabel(tr("<span style=\"color:%1\">━━</span> outer border &nbsp; "
                            "<span style=\"color:%2\">━━</span> hole border")
                             .arg(outerColour().name(), holeColour().name()),
                         this);

    countLabel_ = new QLabel(tr("No contours"), this);
    countLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    model_ = new ContourTableModel(this);
    table_ = new QTableView(this);
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setWordWrap(false);
    // Fixed row heights and no per-row header: the view then asks only for visible rows.
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table_->horizontalHeader()->setStretchLastSection(true);
    const int digit = fontMetrics().horizontalAdvance(QLatin1Char('0'));
    table_->setColumnWidth(ContourTableModel::IndexColumn, 8 * digit);
    table_->setColumnWidth(ContourTableModel::KindColumn, 7 * digit);
    table_->setColumnWidth(ContourTableModel::PointsColumn, 8 * digit);
    table_->setColumnWidth(ContourTableModel::BoundsColumn, 20 * digit);
    table_->setColumnWidth(ContourTableModel::AreaColumn, 11 * digit);

    auto* form = new QFormLayout;
    form->addRow(tr("Source"), sourceCombo_);
    auto* thresholdRow = new QHBoxLayout;
    thresholdRow->addWidget(slider_, 1);
    thresholdRow->addWidget(spin_);
    thresholdRow->addWidget(otsuButton_);
    form->addRow(tr("Threshold"), thresholdRow);
    form->addRow(tr("Mode"), modeCombo_);
    form->addRow(tr("Approximation"), approxCombo_);
    form->addRow(visibleCheck_, legend_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(countLabel_);
    layout->addWidget(table_, 1);

    connect(sourceCombo_, &QComboBox::currentIndexChanged, this, [this] {
        source_ = static_cast<session::Plane>(sourceCombo_->currentData().toInt());
        emit sourceChanged(source_);
    });
    connect(modeCombo_, &QComboBox::currentIndexChanged, this, [this] { emit modeChanged(mode()); });
    connect(approxCombo_, &QComboBox::currentIndexChanged, this, [this] { emit approxChanged(approx()); });
    connect(visibleCheck_, &QCheckBox::toggled, this, &ContourPanel::visibleChanged);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ContourPanel::onSelectionChanged);
}

ContourPanel::~ContourPanel() { disconnectFromDescendants(this); }

void ContourPanel::buildThresholdRow() {
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setToolTip(tr("Pixels greater than the threshold are foreground"));
    spin_ = new QDoubleSpinBox(this);
    spin_->setKeyboardTracking(false);  // typing "200" is one change, not 2, 20, 200
    otsuButton_ = new QPushButton(tr("Otsu"), this);
    otsuButton_->setToolTip(tr("Otsu's threshold of the source image"));
    setRange(0, 255, true);
    {
        const QSignalBlocker blockSlider(slider_), blockSpin(spin_);
        slider_->setValue(thresholdToSlider(threshold_));
        spin_->setValue(threshold_);
    }
    connect(slider_, &QSlider::valueChanged, this,
            [this](int tick) { changeThreshold(sliderToThreshold(tick), true, false); });
    connect(spin_, &QDoubleSpinBox::valueChanged, this, [this](double v) { changeThreshold(v, false, true); });
    connect(otsuButton_, &QPushButton::clicked, this, &ContourPanel::otsuRequested);
}

ContourMode ContourPanel::mode() const { return static_cast<ContourMode>(modeCombo_->currentData().toInt()); }
ContourApprox ContourPanel::approx() const { return static_cast<ContourApprox>(approxCombo_->currentData().toInt()); }
bool ContourPanel::contoursVisible() const { return visibleCheck_->isChecked(); }

void ContourPanel::setRange(double lo, double hi, bool isInteger) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) return;
    if (hi < lo) std::swap(lo, hi);
    lo_ = lo;
    hi_ = hi;
    integer_ = isInteger;
    const double span = hi - lo;
    ticks_ = isInteger && span <= kMaxIntegerTicks ? static_cast<int>(span) : (span > 0 ? kFloatTicks : 0);
    int decimals = 0;
    if (!isInteger) {
        // Enough decimals to show one slider step.
        const double step = span > 0 ? span / kFloatTicks : 1e-3;
        decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step))), 0, 10);
    }
    {
        const QSignalBlocker blockSlider(slider_), blockSpin(spin_);
        slider_->setRange(0, ticks_);
        slider_->setPageStep(std::max(1, ticks_ / 16));
        spin_->setDecimals(decimals);
        spin_->setRange(lo, hi);
        spin_->setSingleStep(isInteger ? 1.0 : (span > 0 ? span / kFloatTicks : 1e-3));
    }
    changeThreshold(threshold_, false, false);
}

double ContourPanel::sliderToThreshold(int tick) const {
    if (ticks_ <= 0) return lo_;
    if (integer_ && ticks_ == static_cast<int>(hi_ - lo_)) return lo_ + tick;
    return lo_ + (hi_ - lo_) * tick / ticks_;
}

int ContourPanel::thresholdToSlider(double threshold) const {
    if (ticks_ <= 0 || hi_ <= lo_) return 0;
    return static_cast<int>(std::lround((threshold - lo_) / (hi_ - lo_) * ticks_));
}

// The one place the threshold changes: clamps (and for integer images floors) it, moves the
// widgets that did not cause the change, and emits when the value changed.
void ContourPanel::changeThreshold(double threshold, bool fromSlider, bool fromSpin) {
    if (std::isnan(threshold)) return;
    threshold = std::clamp(threshold, lo_, hi_);
    if (integer_) threshold = std::floor(threshold);
    const QSignalBlocker blockSlider(slider_), blockSpin(spin_);
    if (!fromSlider) slider_->setValue(thresholdToSlider(threshold));
    if (!fromSpin || spin_->value() != threshold) spin_->setValue(threshold);
    if (threshold == threshold_) return;
    threshold_ = threshold;
    emit thresholdChanged(threshold_);
}

void ContourPanel::setThreshold(double threshold) { changeThreshold(threshold, false, false); }
void ContourPanel::setSource(session::Plane source) { selectData(sourceCombo_, source); }
void ContourPanel::setApprox(ContourApprox approx) { selectData(approxCombo_, approx); }
void ContourPanel::setContoursVisible(bool visible) { visibleCheck_->setChecked(visible); }

void ContourPanel::follow(const session::Session& session) {
    connect(&session, &session::Session::snapshotReady, this,
            [this](session::RequestKind kind, const session::SnapshotPtr& snapshot) {
                if (kind == session::RequestKind::Contours && snapshot->ok())
                    setContours(snapshot->contours, snapshot->timings.contours);
            });
}

void ContourPanel::setContours(std::shared_ptr<const Contours> contours, const ContourTimings& timings) {
    if (contours) {
        const auto holes = static_cast<std::size_t>(std::count_if(
            contours->hole.begin(), contours->hole.end(), [](std::uint8_t h) { return h != 0; }));
        countLabel_->setText(tr("%1 contours: %2 outer, %3 holes, in %4 ms")
                                 .arg(contours->size())
                                 .arg(contours->size() - holes)
                                 .arg(holes)
                                 .arg(QString::fromStdString(io::formatMillis(timings.total))));
    } else {
        countLabel_->setText(tr("No contours"));
    }
    model_->setContours(std::move(contours));
    if (selected_ != -1) {
        selected_ = -1;
        emit contourSelected(-1);
    }
}

void ContourPanel::setError(const QString& message) {
    setContours(nullptr);
    countLabel_->setText(message);
}

const std::shared_ptr<const Contours>& ContourPanel::contours() const { return model_->contours(); }

void ContourPanel::selectContour(int index) {
    if (index < 0 || index >= model_->rowCount()) {
        table_->clearSelection();
        return;
    }
    const QModelIndex cell = model_->index(index, 0);
    table_->selectionModel()->setCurrentIndex(cell, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    table_->scrollTo(cell);
}

void ContourPanel::onSelectionChanged() {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    const int row = rows.isEmpty() ? -1 : rows.first().row();
    if (row == selected_) return;
    selected_ = row;
    emit contourSelected(row);
}

bool ContourPanel::exportJson(const QString& path, const io::ContourJsonInfo& info, QString* error) const {
    const auto& c = contours();
    if (!c) {
        if (error) *error = tr("There are no contours to export.");
        return false;
    }
    return writeFile(path, [&] { return io::contoursToJson(*c, info); }, error);
}

bool ContourPanel::exportSvg(const QString& path, int width, int height, const cv::Mat& background,
                             QString* error) const {
    const auto& c = contours();
    if (!c) {
        if (error) *error = tr("There are no contours to export.");
        return false;
    }
    return writeFile(path, [&] { return io::contoursToSvg(*c, width, height, background); }, error);
}

}  // namespace linescope::ui
