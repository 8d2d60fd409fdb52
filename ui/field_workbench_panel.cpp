#include "ui/field_workbench_panel.h"

#include "ui/orientation_legend.h"
#include "ui/wheel_guard.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include <cmath>

namespace linescope::ui {

namespace {

constexpr int kCaptionHeight = 22;

// A ramp of `colour` over 0 … maxArg with its end labels, for the legend.
QPixmap ramp(QRgb (*colour)(double), double maxArg, const QString& lo, const QString& hi, const QColor& text) {
    QPixmap pm(190, 30);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    for (int x = 0; x < 190; ++x) {
        p.setPen(QColor::fromRgb(colour(maxArg * x / 189.0)));
        p.drawLine(x, 0, x, 11);
    }
    p.setPen(text);
    p.drawText(QRect(0, 13, 190, 17), Qt::AlignLeft | Qt::AlignVCenter, lo);
    p.drawText(QRect(0, 13, 190, 17), Qt::AlignRight | Qt::AlignVCenter, hi);
    return pm;
}

QComboBox* viewBox(std::initializer_list<FieldView> views, QWidget* parent) {
    auto* box = new QComboBox(parent);
    for (const FieldView v : views) box->addItem(fieldViewTitle(v), static_cast<int>(v));
    guardWheel(box);
    return box;
}

QSlider* slider(int lo, int hi, int step, QWidget* parent) {
    auto* s = new QSlider(Qt::Horizontal, parent);
    s->setRange(lo, hi);
    s->setSingleStep(step);
    s->setPageStep(step * 4);
    guardWheel(s);
    return s;
}

QDoubleSpinBox* spin(double lo, double hi, double step, const QString& suffix, QWidget* parent) {
    auto* b = new QDoubleSpinBox(parent);
    b->setRange(lo, hi);
    b->setSingleStep(step);
    b->setDecimals(1);
    b->setSuffix(suffix);
    guardWheel(b);
    return b;
}

}  // namespace

FieldPane::FieldPane(FieldWorkbench& workbench, bool left, QWidget* parent)
    : QWidget(parent), workbench_(workbench), left_(left) {
    setObjectName(left ? "fieldLeftPane" : "fieldRightPane");
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    connect(&workbench, &FieldWorkbench::changed, this, qOverload<>(&QWidget::update));
}

FieldView FieldPane::view() const { return left_ ? workbench_.leftView() : workbench_.rightView(); }

double FieldPane::scale() const {
    const auto s = workbench_.shown();
    if (!s) return 0;
    const int w = session::widthOf(*s->request.image), h = session::heightOf(*s->request.image);
    return std::max(0.05, std::min(double(width() - 8) / w, double(height() - kCaptionHeight - 8) / h));
}

QRectF FieldPane::imageRect() const {
    const auto s = workbench_.shown();
    if (!s) return {};
    const double k = scale();
    const double w = std::ceil(session::widthOf(*s->request.image) * k), h = std::ceil(session::heightOf(*s->request.image) * k);
    return QRectF((width() - w) / 2, kCaptionHeight + (height() - kCaptionHeight - h) / 2, w, h);
}

void FieldPane::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(32, 32, 32));
    p.setPen(QColor(235, 235, 235));
    p.drawText(QRect(6, 0, width() - 12, kCaptionHeight), Qt::AlignLeft | Qt::AlignVCenter, fieldViewTitle(view()));
    const auto s = workbench_.shown();
    const session::FieldOutput* out = workbench_.output();
    if (!s || !out) {
        p.drawText(rect(), Qt::AlignCenter,
                   workbench_.hasImage() ? tr("Computing the orientation field…")
                                         : tr("Open a fingerprint: File ▸ Open (Ctrl+O) or Samples"));
        return;
    }
    if ((view() == FieldView::Tensor || view() == FieldView::Difference) && !out->tensor) {
        p.drawText(rect(), Qt::AlignCenter, tr("The structure tensor is not computed"));
        shownId_ = s->id;
        return;
    }
    const QRectF target = imageRect();
    if (cacheId_ != s->id || cacheView_ != view() || cacheSize_ != target.size().toSize()) {
        cache_ = renderFieldView(view(), *out, *s->request.image, scale());
        cacheId_ = s->id, cacheView_ = view(), cacheSize_ = target.size().toSize();
    }
    p.drawImage(target.topLeft(), cache_);
    shownId_ = s->id;
}

FieldWorkbenchPanel::FieldWorkbenchPanel(QWidget* parent) : QWidget(parent) {
    setObjectName("fieldWorkbench");
    workbench_ = new FieldWorkbench(this);

    // The column scrolls rather than raise the window's least height: the centre's pages share
    // one QStackedWidget, whose least size is the largest of theirs.
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName("fieldControlsScroll");
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidgetResizable(true);
    auto* controls = new QWidget(scroll);
    controls->setObjectName("fieldControls");
    controls->setFixedWidth(250);
    auto* column = new QVBoxLayout(controls);
    column->setContentsMargins(6, 6, 6, 6);

    auto* field = new QGroupBox(tr("Orientation field"), controls);
    auto* form = new QFormLayout(field);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // A slider with its value beside it, on one row of the form.
    const auto sliderRow = [&](const QString& label, const char* name, int lo, int hi, const QString& tip, QLabel*& value) {
        QSlider* s = slider(lo, hi, 2, field);
        s->setObjectName(name);
        s->setToolTip(tip);
        value = new QLabel(field);
        auto* row = new QHBoxLayout;
        row->addWidget(s);
        row->addWidget(value);
        form->addRow(label, row);
        return s;
    };
    block_ = sliderRow(tr("Block"), "fieldBlockSlider", 6, 48,
                       tr("Block size in pixels: one orientation a block (about 1.5–2 ridge periods)"), blockValue_);
    length_ = sliderRow(tr("λ"), "fieldLengthSlider", 3, 61,
                        tr("λ: the segment's length of the openings and closings (about 1.5–2 ridge periods)"), lengthValue_);
    smoothing_ = spin(0, 6, 0.5, tr(" blocks"), field);
    smoothing_->setToolTip(tr("σ of the Gaussian over blocks applied to the doubled angles (0: none)"));
    form->addRow(tr("Smoothing σ"), smoothing_);
    singularSmoothing_ = spin(0, 6, 0.5, tr(" blocks"), field);
    singularSmoothing_->setToolTip(tr("More smoothing before the Poincaré index: fewer false cores and deltas on noisy prints"));
    form->addRow(tr("Cores/deltas σ"), singularSmoothing_);
    tensorWindow_ = spin(1, 40, 1, tr(" px"), field);
    tensorWindow_->setToolTip(tr("The structure tensor's integration scale: σ of its Gaussian window"));
    form->addRow(tr("Tensor window σ"), tensorWindow_);
    column->addWidget(field);

    auto* panes = new QGroupBox(tr("Panes"), controls);
    auto* paneForm = new QFormLayout(panes);
    leftView_ = viewBox({FieldView::Needles, FieldView::Coherence, FieldView::Mask}, panes);
    leftView_->setObjectName("fieldLeftView");
    rightView_ = viewBox({FieldView::Tensor, FieldView::Difference, FieldView::Coherence, FieldView::Mask, FieldView::Needles}, panes);
    rightView_->setObjectName("fieldRightView");
    paneForm->addRow(tr("Left"), leftView_);
    paneForm->addRow(tr("Right"), rightView_);
    column->addWidget(panes);

    auto* legend = new QGroupBox(tr("Legend"), controls);
    auto* legendLayout = new QVBoxLayout(legend);
    auto* wheel = new QLabel(legend);
    wheel->setPixmap(QPixmap::fromImage(OrientationLegend::wheel(64)));
    auto* wheelText = new QLabel(tr("Needle colour: the angle; length: the coherence.\n○ core   △ delta"), legend);
    wheelText->setWordWrap(true);
    auto* wheelRow = new QHBoxLayout;
    wheelRow->addWidget(wheel);
    wheelRow->addWidget(wheelText, 1);
    legendLayout->addLayout(wheelRow);
    const QColor text = palette().color(QPalette::WindowText);
    auto* coherence = new QLabel(legend);
    coherence->setPixmap(ramp(&coherenceColour, 1.0, tr("coherence 0"), tr("1"), text));
    legendLayout->addWidget(coherence);
    auto* difference = new QLabel(legend);
    difference->setPixmap(ramp(&differenceColour, 33.0, tr("difference 0°"), tr("≥ 30°"), text));
    legendLayout->addWidget(difference);
    column->addWidget(legend);

    summary_ = new QLabel(controls);
    summary_->setObjectName("fieldSummary");
    summary_->setWordWrap(true);
    column->addWidget(summary_);

    auto* exports = new QGroupBox(tr("Export"), controls);
    auto* exportRow = new QHBoxLayout(exports);
    exportCsv_ = new QPushButton(tr("CSV…"), exports);
    exportJson_ = new QPushButton(tr("JSON…"), exports);
    exportImage_ = new QPushButton(tr("Image…"), exports);
    exportCsv_->setToolTip(tr("The field a block, as linescope-cli orientation --csv writes it"));
    exportJson_->setToolTip(tr("The field as linescope-cli orientation prints it"));
    exportImage_->setToolTip(tr("The left pane over the image at 1:1"));
    for (QPushButton* b : {exportCsv_, exportJson_, exportImage_}) exportRow->addWidget(b);
    connect(exportCsv_, &QPushButton::clicked, this, &FieldWorkbenchPanel::exportCsv);
    connect(exportJson_, &QPushButton::clicked, this, &FieldWorkbenchPanel::exportJson);
    connect(exportImage_, &QPushButton::clicked, this, &FieldWorkbenchPanel::exportNeedleImage);
    column->addWidget(exports);
    column->addStretch(1);
    scroll->setWidget(controls);
    scroll->setFixedWidth(250 + scroll->verticalScrollBar()->sizeHint().width());

    left_ = new FieldPane(*workbench_, true, this);
    right_ = new FieldPane(*workbench_, false, this);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(scroll);
    layout->addWidget(left_, 1);
    layout->addWidget(right_, 1);

    connect(leftView_, &QComboBox::currentIndexChanged, this,
            [this] { workbench_->setLeftView(static_cast<FieldView>(leftView_->currentData().toInt())); });
    connect(rightView_, &QComboBox::currentIndexChanged, this,
            [this] { workbench_->setRightView(static_cast<FieldView>(rightView_->currentData().toInt())); });
    connect(workbench_, &FieldWorkbench::changed, this, [this] {
        summary_->setText(workbench_->summary());
        for (QPushButton* b : {exportCsv_, exportJson_, exportImage_}) b->setEnabled(workbench_->output() != nullptr);
    });
    summary_->setText(workbench_->summary());
    for (QPushButton* b : {exportCsv_, exportJson_, exportImage_}) b->setEnabled(false);
}

void FieldWorkbenchPanel::follow(session::Session& session) {
    session_ = &session;
    workbench_->follow(session);
    showParameters();
    // Every control submits at once: a drag's values coalesce on the engine thread.
    for (QSlider* s : {block_, length_}) connect(s, &QSlider::valueChanged, this, &FieldWorkbenchPanel::pushParameters);
    for (QDoubleSpinBox* b : {smoothing_, singularSmoothing_, tensorWindow_})
        connect(b, &QDoubleSpinBox::valueChanged, this, &FieldWorkbenchPanel::pushParameters);
}

void FieldWorkbenchPanel::showParameters() {
    const session::FieldParams& p = session_->parameters().field;
    const QSignalBlocker b1(block_), b2(length_), b3(smoothing_), b4(singularSmoothing_), b5(tensorWindow_);
    block_->setValue(p.field.blockSize);
    length_->setValue(p.field.length > 0 ? p.field.length : kDefaultOrientationLength);
    smoothing_->setValue(p.field.smoothing);
    singularSmoothing_->setValue(p.singular.smoothing);
    tensorWindow_->setValue(p.tensor ? p.tensor->windowSigma : analysis::StructureTensorParams{}.windowSigma);
    blockValue_->setText(QString::number(block_->value()));
    lengthValue_->setText(QString::number(length_->value()));
}

void FieldWorkbenchPanel::pushParameters() {
    session::FieldParams p = session_->parameters().field;
    p.field.blockSize = block_->value();
    p.field.length = length_->value();
    p.field.smoothing = smoothing_->value();
    p.singular.smoothing = singularSmoothing_->value();
    analysis::StructureTensorParams t = p.tensor.value_or(analysis::StructureTensorParams{});
    t.windowSigma = tensorWindow_->value();
    p.tensor = t;
    blockValue_->setText(QString::number(block_->value()));
    lengthValue_->setText(QString::number(length_->value()));
    session_->setFieldParams(p);
}

namespace {
void exportWith(QWidget* parent, const QString& title, const QString& filter,
                const std::function<bool(const QString&, QString*)>& write) {
    const QString path = QFileDialog::getSaveFileName(parent, title, QString(), filter);
    if (path.isEmpty()) return;
    QString error;
    if (!write(path, &error)) QMessageBox::warning(parent, title, error);
}
}  // namespace

void FieldWorkbenchPanel::exportCsv() {
    exportWith(this, tr("Export the orientation field (CSV)"), tr("CSV (*.csv)"),
               [this](const QString& path, QString* e) { return workbench_->exportCsv(path, e); });
}

void FieldWorkbenchPanel::exportJson() {
    exportWith(this, tr("Export the orientation field (JSON)"), tr("JSON (*.json)"),
               [this](const QString& path, QString* e) { return workbench_->exportJson(path, e); });
}

void FieldWorkbenchPanel::exportNeedleImage() {
    exportWith(this, tr("Export the needle image"), tr("Images (*.png *.tif *.tiff)"),
               [this](const QString& path, QString* e) { return workbench_->exportNeedleImage(path, e); });
}

}  // namespace linescope::ui
