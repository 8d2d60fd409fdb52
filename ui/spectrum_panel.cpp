#include "ui/spectrum_panel.h"

#include "ui/freshness_badge.h"

#include "app/session/session.h"

#include "app/io/atomic_file.h"
#include "app/io/spectrum_export.h"
#include "compute/spectrum_peaks.h"
#include "ui/skew_box.h"
#include "ui/widget_lifetime.h"

#include <QBuffer>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QImageWriter>
#include <QLabel>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPolarChart>
#include <QPushButton>
#include <QScatterSeries>
#include <QStackedWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>
#include <variant>

namespace linescope::ui {

double roseValue(double degrees) {
    const double d = degrees - 180.0 * std::ceil((degrees - 90.0) / 180.0);  // (−90, 90]
    return d == 0 ? 0.0 : -d;  // no −0: the axis label and the tests read 0
}

double directionOfRoseValue(double value) { return -roseValue(-value); }

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
    formCombo_->setToolTip(tr("Cartesian: σ against the angle. Polar: a rose in the screen's angles "
                              "(0° East, counter-clockwise), σ at α and at α + 180°, radius from zero."));
    zeroBaseline_ = new QCheckBox(tr("Zero baseline"), this);
    zeroBaseline_->setToolTip(tr("Start the cartesian plot's value axis at zero, so that heights compare"));
    connect(zeroBaseline_, &QCheckBox::toggled, this, [this] {
        if (hasSpectrum()) showSpectrum(caption_);
    });

    placeholder_ = new QLabel(tr(kNoSpectrum), this);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);

    stack_ = new QStackedWidget(this);
    stack_->addWidget(placeholder_);
    plots_[0] = buildPlot(Form::Cartesian);
    plots_[1] = buildPlot(Form::Polar);
    for (const Plot& p : plots_) stack_->addWidget(p.view);
    stack_->setCurrentIndex(kPlaceholderPage);
    badge_ = new FreshnessBadge(stack_);  // over the plot, not in a layout: nothing moves when it comes
    connect(badge_, &FreshnessBadge::changed, this, &SpectrumPanel::placeBadge);
    stack_->installEventFilter(this);

    skewBox_ = new SkewBox(this);
    connect(skewBox_, &SkewBox::deskewRequested, this, &SpectrumPanel::deskewRequested);
    connect(skewBox_, &SkewBox::undoDeskewRequested, this, &SpectrumPanel::undoDeskewRequested);
    connect(skewBox_, &SkewBox::skewParamsChanged, this, &SpectrumPanel::skewParamsChanged);

    auto* formRow = new QHBoxLayout;
    formRow->addWidget(new QLabel(tr("Plot:"), this));
    formRow->addWidget(formCombo_);
    formRow->addWidget(zeroBaseline_);
    formRow->addStretch(1);
    // The plot takes the dock's width; the plot form and the skew box stand in a column at its
    // right, so that the dock stays low (about a quarter of a 1280×800 window).
    skewBox_->setFixedWidth(skewBox_->fontMetrics().averageCharWidth() * 52);
    auto* side = new QVBoxLayout;
    side->addLayout(formRow);
    side->addWidget(skewBox_);
    side->addStretch(1);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(stack_, 1);
    layout->addLayout(side);

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
    if (polar) {
        p.mirror = new QLineSeries;
        p.mirror->setName(tr("σ(α + 180°)"));
        p.mirror->setPen(line);
        p.mirror->setColor(p.spectrum->color());
        p.chart->addSeries(p.mirror);
        for (QLineSeries*& w : p.wrapped) {
            w = new QLineSeries;
            w->setPen(line);
            w->setColor(p.spectrum->color());
            p.chart->addSeries(w);
        }
    } else {
        p.peaks = new QScatterSeries;
        p.peaks->setName(tr("peaks"));
        p.peaks->setMarkerSize(8);
        p.peaks->setPointLabelsVisible(true);
        p.peaks->setPointLabelsFormat(QStringLiteral("@xPoint°"));
        p.peaks->setPointLabelsClipping(false);
        p.chart->addSeries(p.peaks);
    }

    p.valueAxis = new QValueAxis;
    if (polar) {
        // Labelled in screen degrees (0° East, counter-clockwise) at every 30°: the label of
        // the angular value v is the screen angle −v.
        auto* screen = new QCategoryAxis;
        screen->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        for (int v = -90; v < 270; v += 30) screen->append(QString::number(((-v) % 360 + 360) % 360), v);
        screen->setRange(-90, 270);
        p.angleAxis = screen;
        auto* pc = static_cast<QPolarChart*>(p.chart);
        pc->addAxis(p.angleAxis, QPolarChart::PolarOrientationAngular);
        pc->addAxis(p.valueAxis, QPolarChart::PolarOrientationRadial);
        p.valueAxis->setTickCount(3);  // few rings: their labels sit on the plot
        p.chart->setMargins(QMargins(2, 2, 2, 2));
    } else {
        p.angleAxis = new QValueAxis;
        p.angleAxis->setLabelFormat(QStringLiteral("%g"));  // degrees; "°" would not survive Latin-1
        p.angleAxis->setTickType(QValueAxis::TicksDynamic);
        p.angleAxis->setTitleText(tr("angle (°)"));
        p.valueAxis->setTitleText(tr("σ"));
        p.chart->addAxis(p.angleAxis, Qt::AlignBottom);
        p.chart->addAxis(p.valueAxis, Qt::AlignLeft);
    }
    for (QLineSeries* s : {p.spectrum, p.marker, p.mirror, p.wrapped[0], p.wrapped[1]}) {
        if (!s) continue;
        s->attachAxis(p.angleAxis);
        s->attachAxis(p.valueAxis);
    }
    if (p.peaks) {
        p.peaks->attachAxis(p.angleAxis);
        p.peaks->attachAxis(p.valueAxis);
    }

    p.view = new QChartView(p.chart, this);
    p.view->setObjectName(polar ? QStringLiteral("polarSpectrumView") : QStringLiteral("cartesianSpectrumView"));
    p.view->setRenderHint(QPainter::Antialiasing);
    p.view->setMinimumSize(240, 150);
    p.view->setToolTip(tr("Click or drag to choose the angle"));
    p.view->viewport()->installEventFilter(this);
    return p;
}

void SpectrumPanel::setSpectrum(const AngleSet& angles, std::vector<double> values, const QString& caption,
                                Scale scale) {
    if (angles.count < 1 || values.size() != static_cast<std::size_t>(angles.count)) {
        clearSpectrum(tr("The spectrum has %1 values for %2 angles.").arg(values.size()).arg(angles.count));
        return;
    }
    angles_ = angles;
    values_ = std::move(values);
    exact_.clear();
    scale_ = scale;
    shown_ = values_;
    if (scale.pixels > 0)
        for (double& v : shown_) v /= static_cast<double>(scale.pixels);
    showSpectrum(caption);
}

void SpectrumPanel::setSpectrum(const AngleSet& angles, const std::vector<std::int64_t>& sums, const QString& caption,
                                Scale scale) {
    setSpectrum(angles, std::vector<double>(sums.begin(), sums.end()), caption, scale);
    if (hasSpectrum()) exact_ = sums;
}

void SpectrumPanel::setSweep(const session::SweepSpectrum& sweep, const QString& caption) {
    const Scale scale{sweep.pixels, sweep.op == MorphOp::Close || sweep.op == MorphOp::Dilate};
    if (!sweep.exact.empty()) setSpectrum(sweep.angles, sweep.exact, caption, scale);
    else setSpectrum(sweep.angles, sweep.values, caption, scale);
}

void SpectrumPanel::clearSpectrum(const QString& message) {
    angles_ = {};
    values_.clear();
    shown_.clear();
    exact_.clear();
    for (const Plot& p : plots_) {
        p.spectrum->clear();
        p.marker->clear();
        for (QLineSeries* s : {p.mirror, p.wrapped[0], p.wrapped[1]})
            if (s) s->clear();
        if (p.peaks) p.peaks->clear();
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
    caption_ = caption;
    showCartesian();
    showRose();
    const auto [minIt, maxIt] = std::minmax_element(shown_.begin(), shown_.end());
    const QString format = valueLabelFormat(std::max(std::abs(*minIt), std::abs(*maxIt)));
    const QString unit = scale_.pixels > 0 ? tr("σ: mean grey level per pixel") : tr("σ: sum over the image");
    for (const Plot& p : plots_) {
        p.chart->setTitle(caption.isEmpty() ? unit : caption + QStringLiteral("  (") + unit + QStringLiteral(")"));
        p.valueAxis->setLabelFormat(format);
    }
    stack_->setCurrentIndex(1 + formCombo_->currentIndex());
    updateMarker();
}

void SpectrumPanel::showCartesian() {
    Plot& cart = plots_[formIndex(Form::Cartesian)];
    QList<QPointF> points;
    points.reserve(angles_.count);
    for (int k = 0; k < angles_.count; ++k) points.append({angles_.angle(k), shown_[static_cast<std::size_t>(k)]});
    cart.spectrum->replace(points);
    const double lo = angleLow();
    cart.angleAxis->setRange(lo, angleHigh(Form::Cartesian));
    cart.angleAxis->setTickAnchor(0);
    cart.angleAxis->setTickInterval(angleTickStep((angleHigh(Form::Cartesian) - lo) / 6));
    const auto [minIt, maxIt] = std::minmax_element(shown_.begin(), shown_.end());
    const bool zero = zeroBaseline_->isChecked();
    const auto [yLo, yHi] = padded(zero ? std::min(0.0, *minIt) : *minIt, zero ? std::max(0.0, *maxIt) : *maxIt,
                                   zero ? 0.0 : 0.05, 0.12);  // room above for the peaks' labels
    cart.valueAxis->setRange(yLo, yHi);
    // Short: the axis is as tall as the dock is; the title says the unit in full.
    cart.valueAxis->setTitleText(scale_.pixels > 0 ? tr("σ / px") : tr("σ (sum)"));

    // The refined peaks (the CLI's spectrum command finds the same), labelled with their angle
    // to 0.01° (the label prints the point's x, which Qt Charts formats to 6 digits).
    QList<QPointF> peaks;
    if (angles_.count >= 3)
        for (const SpectrumPeak& pk : spectrumPeaks(shown_, angles_, scale_.minima))
            peaks.append({std::round(pk.angle * 100) / 100, shown_[static_cast<std::size_t>(pk.index)]});
    cart.peaks->replace(peaks);
}

namespace {

// A partial set's arc of the rose: `raw` angular values (−α, or −α − 180 for the mirror) in
// order, shifted by whole turns to start in [−90, 270); the part past 270 (the top, where the
// axis ends) goes to `beyond` a turn lower, both pieces meeting at the top.
void fillArc(QLineSeries* main, QLineSeries* beyond, QList<QPointF> raw) {
    std::sort(raw.begin(), raw.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    const double shift = 360.0 * std::floor((raw.front().x() + 90.0) / 360.0);
    QList<QPointF> in, out;
    for (int i = 0; i < raw.size(); ++i) {
        const QPointF p(raw[i].x() - shift, raw[i].y());
        if (p.x() < 270) {
            in.append(p);
            continue;
        }
        if (out.isEmpty() && !in.isEmpty()) {  // the seam between in.last() and p
            const QPointF a = in.last();
            const double t = (270 - a.x()) / (p.x() - a.x());
            const double r = a.y() + t * (p.y() - a.y());
            in.append({270, r});
            out.append({-90, r});
        }
        out.append({p.x() - 360, p.y()});
    }
    main->replace(in);
    beyond->replace(out);
}

}  // namespace

void SpectrumPanel::showRose() {
    Plot& pol = plots_[formIndex(Form::Polar)];
    const auto [minIt, maxIt] = std::minmax_element(shown_.begin(), shown_.end());
    pol.valueAxis->setRange(std::min(0.0, *minIt), *maxIt > 0 ? *maxIt * 1.05 : 1.0);  // the radius from zero
    if (!periodic()) {
        // Two arcs, the set's angles and their opposites, each drawn where its angles lie.
        QList<QPointF> arc, opposite;
        for (int k = 0; k < angles_.count; ++k) {
            const double y = shown_[static_cast<std::size_t>(k)], v = -angles_.angle(k);
            arc.append({v, y});
            opposite.append({v - 180, y});
        }
        fillArc(pol.spectrum, pol.wrapped[0], arc);
        fillArc(pol.mirror, pol.wrapped[1], opposite);
        return;
    }
    // A 180° set: each direction's point in the right half (roseValue) and its mirror, 180° on.
    // The right half runs from the top (v = −90) round to the bottom; the value at the top
    // (α = 90°) is interpolated when no sample falls there.
    std::vector<QPointF> half;
    half.reserve(static_cast<std::size_t>(angles_.count) + 2);
    for (int k = 0; k < angles_.count; ++k)
        half.push_back({roseValue(angles_.angle(k)), shown_[static_cast<std::size_t>(k)]});
    std::sort(half.begin(), half.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    if (half.size() >= 2) {
        const QPointF first = half.front(), last = half.back();
        const double gap = first.x() + 180 - last.x();  // across the top, through v = 90 ≡ −90
        const double t = gap > 0 ? (90 - last.x()) / gap : 0;
        const double top = last.y() + t * (first.y() - last.y());
        if (first.x() > -90) half.insert(half.begin(), QPointF(-90, top));
        half.push_back({90, half.front().y()});
    }
    QList<QPointF> right, left;
    for (const QPointF& p : half) {
        right.append(p);
        left.append({p.x() + 180, p.y()});
    }
    pol.spectrum->replace(right);
    pol.mirror->replace(left);
    pol.wrapped[0]->clear();
    pol.wrapped[1]->clear();
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
        const double x = form == Form::Polar ? roseValue(a) : a;
        p.marker->replace(QList<QPointF>{{x, p.valueAxis->min()}, {x, p.valueAxis->max()}});
    }
}

void SpectrumPanel::setForm(Form form) { formCombo_->setCurrentIndex(formIndex(form)); }

SpectrumPanel::Form SpectrumPanel::form() const {
    return formCombo_->currentIndex() == 1 ? Form::Polar : Form::Cartesian;
}

void SpectrumPanel::follow(const session::Session& session) {
    connect(&session, &session::Session::snapshotReady, this,
            [this, &session](session::RequestKind kind, const session::SnapshotPtr& snapshot) {
                if (!snapshot->ok()) return;
                if (kind == session::RequestKind::Sweep) {
                    shownSweep_ = snapshot;
                    const auto& req = std::get<session::SweepParams>(snapshot->request.params).sweep;
                    // What is plotted: a preview's angles and resolution (its mark says it is one).
                    const bool reduced = snapshot->preview && snapshot->preview->reduction > 1;
                    setSweep(*snapshot->spectrum, tr("Σ of %1 by λ = %2 over %3 angles%4")
                                                      .arg(QString::fromLatin1(morphOpName(req.op)))
                                                      .arg(req.length)
                                                      .arg(snapshot->spectrum->angles.count)
                                                      .arg(reduced ? tr(" at 1/%1 resolution").arg(snapshot->preview->reduction)
                                                                   : QString()));
                    setCurrentAngle(session.parameters().angle);
                    updateMark(session);
                } else if (kind == session::RequestKind::Skew) {
                    const session::SkewOutput& out = *snapshot->skew;
                    const auto* asked = std::get_if<session::SkewRequestParams>(&snapshot->request.params);
                    const bool darkLines = !asked || asked->skew.darkLines;
                    setSkew(out.skew, tr("%8 by λ = %1 over %2…%3° in %4° steps on the page reduced %5×, "
                                         "refined by λ = %6 on the page reduced %7×")
                                          .arg(out.length)
                                          .arg(out.angles.start)
                                          .arg(out.angles.angle(out.angles.count - 1))
                                          .arg(out.angles.step)
                                          .arg(2 * out.skew.reduction)
                                          .arg(out.skew.length)
                                          .arg(out.skew.reduction)
                                          .arg(darkLines ? tr("closings (dark lines)") : tr("openings (bright lines)")));
                }
            });
    connect(&session, &session::Session::parametersChanged, this, [this, &session] { updateMark(session); });
    connect(&session, &session::Session::imageChanged, this, [this, &session] { updateMark(session); });
    connect(&session, &session::Session::cancelledChanged, this, [this, &session] { updateMark(session); });
}

void SpectrumPanel::setSkew(const std::optional<SkewResult>& skew, const QString& details) {
    skewBox_->setSkew(skew, details);
}

void SpectrumPanel::setSkewParams(const SkewParams& p) { skewBox_->setSkewParams(p); }
void SpectrumPanel::setUndoAvailable(bool available) { skewBox_->setUndoAvailable(available); }
QLabel* SpectrumPanel::skewLabel() const { return skewBox_->label(); }
QPushButton* SpectrumPanel::deskewButton() const { return skewBox_->deskewButton(); }
QPushButton* SpectrumPanel::undoDeskewButton() const { return skewBox_->undoButton(); }
QLineSeries* SpectrumPanel::mirrorSeries() const { return plots_[1].mirror; }
QScatterSeries* SpectrumPanel::peakSeries() const { return plots_[0].peaks; }

bool SpectrumPanel::exportCsv(const QString& path, QString* error, const io::ExportRecipe* recipe) const {
    if (!hasSpectrum()) {
        if (error) *error = tr("There is no spectrum to export yet.");
        return false;
    }
    try {
        if (!exact_.empty()) io::writeSpectrumCsv(path.toStdString(), angles_, exact_, recipe);
        else io::writeSpectrumCsv(path.toStdString(), angles_, values_, recipe);
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
    double a = p.chart->mapToValue(inChart, p.spectrum).x();
    if (form == Form::Polar) {
        // The direction of the click, as the angle of that direction nearest the set's middle.
        a = directionOfRoseValue(a);
        const double middle = 0.5 * (angles_.start + angles_.angle(angles_.count - 1));
        a += 180.0 * std::round((middle - a) / 180.0);
    }
    if (periodic()) return angleInRange(a);
    return std::clamp(a, angles_.start, angles_.angle(angles_.count - 1));
}

void SpectrumPanel::placeBadge() {
    badge_->move(stack_->width() - badge_->width() - 8, 6);
    badge_->raise();
}

void SpectrumPanel::updateMark(const session::Session& session) {
    session::ShownState state = session::shownStateOf(shownSweep_.get(), session.requestFor(session::RequestKind::Sweep));
    if (state.freshness == session::Freshness::Preview && session.isCancelled(session::RequestKind::Sweep))
        state.text += " (refining cancelled)";
    badge_->setState(state);
}

bool SpectrumPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == stack_ && event->type() == QEvent::Resize) placeBadge();
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
