#include "ui/spectrum_panel.h"

#include "app/io/atomic_file.h"
#include "ui/widget_lifetime.h"
#include "app/io/spectrum_export.h"

#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QImageWriter>
#include <QLabel>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPolarChart>
#include <QPushButton>
#include <QStackedWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>
#include <variant>

namespace linescope::ui {

namespace {
constexpr int kPlaceholderPage = 0;  // the stack's pages; a chart's page is 1 + its form
constexpr const char* kNoSpectrum =
    "No spectrum yet.\nOpen an image: the angular spectrum σ(α) of the sweep appears here.";

int formIndex(SpectrumPanel::Form form) { return form == SpectrumPanel::Form::Polar ? 1 : 0; }

// The smallest round angle step at least `raw`: multiples of 15° and 45° read as angles.
double angleTickStep(double raw) {
    for (double step : {0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 2.5, 5.0, 10.0, 15.0, 30.0, 45.0, 90.0})
        if (step >= raw * (1 - 1e-9)) return step;
    return 180;
}

// printf format of the value labels (Qt Charts passes it through Latin-1, so ASCII only):
// whole numbers for the large sums of integer images, rather than 1.022e+06.
QString valueLabelFormat(double maxAbs) { return maxAbs >= 1e4 ? QStringLiteral("%.0f") : QStringLiteral("%.4g"); }

// [lo, hi] padded so that the curve does not touch the frame, and never empty.
std::pair<double, double> padded(double lo, double hi, double below, double above) {
    const double span = hi - lo;
    if (!(span > 0)) {
        const double d = std::max(1.0, std::abs(hi) * 1e-3);
        return {lo - d, hi + d};
    }
    return {lo - below * span, hi + above * span};
}
}  // namespace

SpectrumPanel::SpectrumPanel(QWidget* parent) : QWidget(parent) {
    formCombo_ = new QComboBox(this);
    formCombo_->addItem(tr("Cartesian"));
    formCombo_->addItem(tr("Polar"));
    formCombo_->setToolTip(tr("Cartesian: σ against the angle. Polar: the angle around the circle "
                              "(a 180° set fills the whole circle, its ends meeting at the top)."));

    placeholder_ = new QLabel(tr(kNoSpectrum), this);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);

    stack_ = new QStackedWidget(this);
    stack_->addWidget(placeholder_);
    plots_[0] = buildPlot(Form::Cartesian);
    plots_[1] = buildPlot(Form::Polar);
    for (const Plot& p : plots_) stack_->addWidget(p.view);
    stack_->setCurrentIndex(kPlaceholderPage);

    skewLabel_ = new QLabel(this);
    skewLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    skewDetails_ = new QLabel(this);
    skewDetails_->setWordWrap(true);
    skewDetails_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    deskewButton_ = new QPushButton(tr("Deskew"), this);
    deskewButton_->setToolTip(tr("Rotate the image by the opposite of the skew angle, about its centre"));
    connect(deskewButton_, &QPushButton::clicked, this, [this] {
        if (skew_) emit deskewRequested(skew_->angle);
    });
    setSkew(std::nullopt);

    auto* formRow = new QHBoxLayout;
    formRow->addWidget(new QLabel(tr("Plot:"), this));
    formRow->addWidget(formCombo_);
    formRow->addStretch(1);
    auto* skewRow = new QHBoxLayout;
    skewRow->addWidget(skewLabel_, 1);
    skewRow->addWidget(deskewButton_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(formRow);
    layout->addWidget(stack_, 1);
    layout->addLayout(skewRow);
    layout->addWidget(skewDetails_);

    connect(formCombo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (hasSpectrum()) stack_->setCurrentIndex(1 + index);
    });
}

SpectrumPanel::~SpectrumPanel() { disconnectFromDescendants(this); }

SpectrumPanel::Plot SpectrumPanel::buildPlot(Form form) {
    Plot p;
    const bool polar = form == Form::Polar;
    p.chart = polar ? new QPolarChart : new QChart;
    p.chart->legend()->hide();
    p.spectrum = new QLineSeries;
    p.spectrum->setName(tr("σ(α)"));
    QPen line = p.spectrum->pen();
    line.setWidthF(2);
    p.spectrum->setPen(line);
    p.marker = new QLineSeries;
    p.marker->setName(tr("current angle"));
    p.marker->setPen(QPen(QColor(220, 40, 40), 2));
    p.chart->addSeries(p.spectrum);
    p.chart->addSeries(p.marker);

    p.angleAxis = new QValueAxis;
    p.angleAxis->setLabelFormat(QStringLiteral("%g"));  // degrees; "°" would not survive Latin-1
    p.angleAxis->setTickType(QValueAxis::TicksDynamic);
    p.valueAxis = new QValueAxis;
    if (polar) {
        auto* pc = static_cast<QPolarChart*>(p.chart);
        pc->addAxis(p.angleAxis, QPolarChart::PolarOrientationAngular);
        pc->addAxis(p.valueAxis, QPolarChart::PolarOrientationRadial);
        p.valueAxis->setTickCount(4);  // few rings: their labels sit on the plot
    } else {
        p.angleAxis->setTitleText(tr("angle (°)"));
        p.valueAxis->setTitleText(tr("σ"));
        p.chart->addAxis(p.angleAxis, Qt::AlignBottom);
        p.chart->addAxis(p.valueAxis, Qt::AlignLeft);
    }
    for (QLineSeries* s : {p.spectrum, p.marker}) {
        s->attachAxis(p.angleAxis);
        s->attachAxis(p.valueAxis);
    }

    p.view = new QChartView(p.chart, this);
    p.view->setObjectName(polar ? QStringLiteral("polarSpectrumView") : QStringLiteral("cartesianSpectrumView"));
    p.view->setRenderHint(QPainter::Antialiasing);
    p.view->setMinimumSize(240, 180);
    p.view->setToolTip(tr("Click or drag to choose the angle"));
    p.view->viewport()->installEventFilter(this);
    return p;
}

void SpectrumPanel::setSpectrum(const AngleSet& angles, std::vector<double> values, const QString& caption) {
    if (angles.count < 1 || values.size() != static_cast<std::size_t>(angles.count)) {
        clearSpectrum(tr("The spectrum has %1 values for %2 angles.").arg(values.size()).arg(angles.count));
        return;
    }
    angles_ = angles;
    values_ = std::move(values);
    exact_.clear();
    showSpectrum(caption);
}

void SpectrumPanel::setSpectrum(const AngleSet& angles, const std::vector<std::int64_t>& sums, const QString& caption) {
    setSpectrum(angles, std::vector<double>(sums.begin(), sums.end()), caption);
    if (hasSpectrum()) exact_ = sums;
}

void SpectrumPanel::setSweep(const session::AnySweep& sweep, const QString& caption) {
    std::visit(
        [&](const auto& r) {
            if (!r.spectrumExact.empty()) setSpectrum(r.angles, r.spectrumExact, caption);
            else setSpectrum(r.angles, r.spectrum, caption);
        },
        sweep);
}

void SpectrumPanel::clearSpectrum(const QString& message) {
    angles_ = {};
    values_.clear();
    exact_.clear();
    for (const Plot& p : plots_) {
        p.spectrum->clear();
        p.marker->clear();
    }
    placeholder_->setText(message.isEmpty() ? tr(kNoSpectrum) : message);
    stack_->setCurrentIndex(kPlaceholderPage);
}

bool SpectrumPanel::periodic() const {
    return std::abs(angles_.count * angles_.step - 180.0) < 1e-6;
}

double SpectrumPanel::angleLow() const {
    return angles_.count == 1 ? angles_.start - angles_.step / 2 : angles_.start;
}

double SpectrumPanel::angleHigh(Form form) const {
    if (periodic()) return angles_.start + 180;
    if (angles_.count == 1) return angles_.start + angles_.step / 2;
    const double last = angles_.angle(angles_.count - 1);
    // Polar: one step beyond the last angle, so that the two ends of a partial set do not meet.
    return form == Form::Polar ? last + angles_.step : last;
}

double SpectrumPanel::angleInRange(double degrees) const {
    if (!periodic()) return degrees;
    const double lo = angles_.start;
    const double t = std::fmod(degrees - lo, 180.0);
    return lo + (t < 0 ? t + 180.0 : t);
}

void SpectrumPanel::showSpectrum(const QString& caption) {
    QList<QPointF> points;
    points.reserve(angles_.count + 1);
    for (int k = 0; k < angles_.count; ++k) points.append({angles_.angle(k), values_[static_cast<std::size_t>(k)]});
    const auto [minIt, maxIt] = std::minmax_element(values_.begin(), values_.end());
    const double lo = angleLow();

    Plot& cart = plots_[formIndex(Form::Cartesian)];
    cart.spectrum->replace(points);
    cart.angleAxis->setRange(lo, angleHigh(Form::Cartesian));
    cart.angleAxis->setTickAnchor(0);
    cart.angleAxis->setTickInterval(angleTickStep((angleHigh(Form::Cartesian) - lo) / 6));
    const auto [yLo, yHi] = padded(*minIt, *maxIt, 0.05, 0.05);
    cart.valueAxis->setRange(yLo, yHi);

    Plot& pol = plots_[formIndex(Form::Polar)];
    if (periodic()) points.append({angles_.start + 180, values_.front()});  // close the loop: 180° ≡ 0°
    pol.spectrum->replace(points);
    pol.angleAxis->setRange(lo, angleHigh(Form::Polar));
    // Polar charts place fixed ticks only: every 30° of a 180° set, else 4 intervals.
    pol.angleAxis->setTickType(QValueAxis::TicksFixed);
    pol.angleAxis->setTickCount(periodic() ? 7 : 5);
    // The radius starts a little below the minimum, not at 0: spectra often vary by a few
    // percent, which a radius from 0 would flatten into a circle.
    const auto [rLo, rHi] = padded(*minIt, *maxIt, 0.15, 0.05);
    pol.valueAxis->setRange(rLo, rHi);

    const QString format = valueLabelFormat(std::max(std::abs(*minIt), std::abs(*maxIt)));
    for (const Plot& p : plots_) {
        p.chart->setTitle(caption);
        p.valueAxis->setLabelFormat(format);
    }
    stack_->setCurrentIndex(1 + formCombo_->currentIndex());
    updateMarker();
}

void SpectrumPanel::setCurrentAngle(double degrees) {
    currentAngle_ = degrees;
    updateMarker();
}

void SpectrumPanel::updateMarker() {
    for (int f = 0; f < 2; ++f) {
        const Form form = f == 0 ? Form::Cartesian : Form::Polar;
        const Plot& p = plots_[f];
        const double a = angleInRange(currentAngle_);
        const bool visible = hasSpectrum() && a >= angleLow() - 1e-9 && a <= angleHigh(form) + 1e-9;
        if (!visible) {
            p.marker->clear();
            continue;
        }
        p.marker->replace(QList<QPointF>{{a, p.valueAxis->min()}, {a, p.valueAxis->max()}});
    }
}

void SpectrumPanel::setForm(Form form) { formCombo_->setCurrentIndex(formIndex(form)); }

SpectrumPanel::Form SpectrumPanel::form() const {
    return formCombo_->currentIndex() == 1 ? Form::Polar : Form::Cartesian;
}

void SpectrumPanel::setSkew(const std::optional<SkewResult>& skew, const QString& details) {
    skew_ = skew;
    if (skew)
        skewLabel_->setText(QString::asprintf("Skew %+.2f° (confidence %.2f)", skew->angle, skew->confidence));
    else
        skewLabel_->setText(tr("Skew: no estimate"));
    skewDetails_->setText(details);
    skewDetails_->setVisible(!details.isEmpty());
    deskewButton_->setEnabled(skew.has_value());
}

bool SpectrumPanel::exportCsv(const QString& path, QString* error) const {
    if (!hasSpectrum()) {
        if (error) *error = tr("There is no spectrum to export yet.");
        return false;
    }
    try {
        if (!exact_.empty()) io::writeSpectrumCsv(path.toStdString(), angles_, exact_);
        else io::writeSpectrumCsv(path.toStdString(), angles_, values_);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

bool SpectrumPanel::exportPng(const QString& path, QString* error) const {
    if (!hasSpectrum()) {
        if (error) *error = tr("There is no spectrum to export yet.");
        return false;
    }
    const QImage image = plot(form()).view->grab().toImage();
    // Encoded in memory, then written atomically like every export (no truncated old file).
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    if (!writer.write(image)) {
        if (error) *error = tr("cannot encode '%1': %2").arg(path, writer.errorString());
        return false;
    }
    try {
        io::writeFileAtomically(path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

QChartView* SpectrumPanel::chartView(Form form) const { return plot(form).view; }
QLineSeries* SpectrumPanel::spectrumSeries(Form form) const { return plot(form).spectrum; }
QLineSeries* SpectrumPanel::markerSeries(Form form) const { return plot(form).marker; }

std::optional<double> SpectrumPanel::angleAt(Form form, QPointF viewPos) const {
    if (!hasSpectrum()) return std::nullopt;
    const Plot& p = plot(form);
    const QPointF inChart = p.chart->mapFromScene(p.view->mapToScene(viewPos.toPoint()));
    const QRectF area = p.chart->plotArea();
    if (form == Form::Cartesian) {
        if (!area.contains(inChart)) return std::nullopt;
    } else {
        const QPointF d = inChart - area.center();
        const double radius = std::min(area.width(), area.height()) / 2;
        if (std::hypot(d.x(), d.y()) > radius) return std::nullopt;
    }
    const double a = p.chart->mapToValue(inChart, p.spectrum).x();
    if (periodic()) return angleInRange(a);  // the top of the polar circle is both ends
    return std::clamp(a, angles_.start, angles_.angle(angles_.count - 1));
}

bool SpectrumPanel::eventFilter(QObject* watched, QEvent* event) {
    const bool press = event->type() == QEvent::MouseButtonPress;
    const bool drag = event->type() == QEvent::MouseMove;
    if (!press && !drag) return QWidget::eventFilter(watched, event);
    const auto* mouse = static_cast<QMouseEvent*>(event);
    if (press ? mouse->button() != Qt::LeftButton : !(mouse->buttons() & Qt::LeftButton))
        return QWidget::eventFilter(watched, event);
    for (int f = 0; f < 2; ++f) {
        if (watched != plots_[f].view->viewport()) continue;
        if (const auto a = angleAt(f == 0 ? Form::Cartesian : Form::Polar, mouse->position())) emit angleClicked(*a);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace linescope::ui
