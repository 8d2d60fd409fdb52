#include "ui/granulometry_panel.h"

#include "ui/widget_lifetime.h"

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMouseEvent>
#include <QSpinBox>
#include <QStackedWidget>
#include <QValueAxis>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <variant>

namespace linescope::ui {

namespace {
constexpr int kMaxLengthLimit = 501;  // the window's λ range
constexpr const char* kNoGranulometry =
    "No granulometry yet.\nOpen an image: S(λ) and the pattern spectrum of the openings at the current angle appear here.";

// Whether the snapshot answers the request the session would make now.
bool answers(const session::Snapshot& s, const std::optional<session::Request>& want) {
    if (!want || s.request.image != want->image) return false;
    const auto* a = std::get_if<session::GranulometryParams>(&s.request.params);
    const auto* b = std::get_if<session::GranulometryParams>(&want->params);
    if (!a || !b) return false;
    const bool sameAngles = a->angles.has_value() == b->angles.has_value() &&
                            (!a->angles || (a->angles->start == b->angles->start && a->angles->step == b->angles->step &&
                                            a->angles->count == b->angles->count));
    return sameAngles && (a->angles || a->angle == b->angle) && a->maxLength == b->maxLength && a->kind == b->kind &&
           a->rect == b->rect;
}

QString captionOf(const session::Snapshot& s) {
    const auto& p = std::get<session::GranulometryParams>(s.request.params);
    const QString where = p.angles ? QObject::tr("sup over %1 angles").arg(p.angles->count)
                                   : QObject::tr("%1°").arg(p.angle);
    const QString region = p.rect ? QObject::tr("region %1,%2 %3×%4").arg(p.rect->x).arg(p.rect->y).arg(p.rect->width).arg(p.rect->height)
                                  : QObject::tr("whole image");
    const QString lines = p.kind == LineKind::Paths     ? QObject::tr("line paths")
                          : p.kind == LineKind::Segment ? QObject::tr("segments")
                                                        : QObject::tr("periodic lines");
    return QObject::tr("Openings by %1 at %2, %3 (%4 pixels). Line: S(λ)/S(1); bars: PS(λ)/S(1).")
        .arg(lines, where, region)
        .arg(s.granulometry->pixels);
}
}  // namespace

std::optional<std::optional<PixelRect>> parseRegionText(const QString& text) {
    const QString t = text.trimmed();
    if (t.isEmpty()) return std::optional<PixelRect>{};
    const QStringList parts = t.split(QLatin1Char(','));
    if (parts.size() != 4) return std::nullopt;
    int v[4];
    for (int i = 0; i < 4; ++i) {
        bool ok = false;
        v[i] = parts[i].trimmed().toInt(&ok);
        if (!ok || (i >= 2 && v[i] < 1)) return std::nullopt;
    }
    return std::optional<PixelRect>(PixelRect{v[0], v[1], v[2], v[3]});
}

GranulometryPanel::GranulometryPanel(QWidget* parent) : QWidget(parent) {
    placeholder_ = new QLabel(tr(kNoGranulometry), this);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    buildChart();
    caption_ = new QLabel(this);
    caption_->setWordWrap(true);
    auto* plot = new QWidget(this);
    auto* plotLayout = new QVBoxLayout(plot);
    plotLayout->setContentsMargins(0, 0, 0, 0);
    plotLayout->addWidget(caption_);
    plotLayout->addWidget(view_, 1);
    stack_ = new QStackedWidget(this);
    stack_->addWidget(placeholder_);
    stack_->addWidget(plot);

    maxLength_ = new QSpinBox(this);
    maxLength_->setRange(1, kMaxLengthLimit);
    maxLength_->setValue(settings_.maxLength);
    maxLength_->setToolTip(tr("The longest length Λ: S(λ) for λ = 1 … Λ+1"));
    supremum_ = new QCheckBox(tr("Over the sweep's angles"), this);
    supremum_->setToolTip(tr("The supremum of the openings over the sweep's angle set (one sweep per length: "
                             "slower) instead of the opening at the current angle"));
    region_ = new QLineEdit(this);
    region_->setPlaceholderText(tr("whole image"));
    region_->setToolTip(tr("Sum over a rectangle of pixels: X,Y,W,H (the openings are still those of the "
                           "whole image). Empty: the whole image."));
    drawRegion_ = new QToolButton(this);
    drawRegion_->setText(tr("Draw"));
    drawRegion_->setCheckable(true);
    drawRegion_->setToolTip(tr("Drag over the image to choose the region (instead of panning, once)"));
    wholeImage_ = new QToolButton(this);
    wholeImage_->setText(tr("Whole"));
    wholeImage_->setToolTip(tr("Sum over the whole image"));
    status_ = new QLabel(this);
    connect(drawRegion_, &QToolButton::toggled, this, &GranulometryPanel::drawRegionToggled);
    connect(wholeImage_, &QToolButton::clicked, this, [this] { setRegion(std::nullopt); });
    connect(maxLength_, &QSpinBox::valueChanged, this, [this](int v) {
        settings_.maxLength = v;
        emitSettings();
    });
    connect(supremum_, &QCheckBox::toggled, this, [this](bool on) {
        settings_.supremum = on;
        emitSettings();
    });
    connect(region_, &QLineEdit::editingFinished, this, &GranulometryPanel::applyRegionText);

    auto* side = new QVBoxLayout;
    auto* lengthRow = new QHBoxLayout;
    lengthRow->addWidget(new QLabel(tr("Up to λ:"), this));
    lengthRow->addWidget(maxLength_);
    side->addLayout(lengthRow);
    side->addWidget(supremum_);
    auto* regionRow = new QHBoxLayout;
    regionRow->addWidget(new QLabel(tr("Region:"), this));
    regionRow->addWidget(region_);
    regionRow->addWidget(drawRegion_);
    regionRow->addWidget(wholeImage_);
    side->addLayout(regionRow);
    side->addWidget(status_);
    side->addStretch(1);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(stack_, 1);
    layout->addLayout(side);
}

GranulometryPanel::~GranulometryPanel() { disconnectFromDescendants(this); }

void GranulometryPanel::buildChart() {
    // The dock is low: no title or legend inside the chart (the caption above says what is
    // drawn), thin margins, small labels.
    chart_ = new QChart;
    chart_->legend()->hide();
    chart_->setMargins(QMargins(2, 2, 2, 2));
    chart_->setBackgroundRoundness(0);
    sums_ = new QLineSeries;
    sums_->setColor(QColor(40, 140, 40));
    sums_->setName(tr("S(λ)/S(1)"));
    bars_ = new QBarSet(tr("PS(λ)/S(1)"));
    bars_->setColor(QColor(32, 159, 223));
    bars_->setBorderColor(QColor(32, 159, 223));
    barSeries_ = new QBarSeries;
    barSeries_->append(bars_);
    barSeries_->setBarWidth(0.8);
    marker_ = new QLineSeries;
    marker_->setName(tr("λ"));
    QPen pen(Qt::red);
    pen.setWidth(2);
    marker_->setPen(pen);
    chart_->addSeries(barSeries_);
    chart_->addSeries(sums_);
    chart_->addSeries(marker_);
    lengthAxis_ = new QValueAxis;
    lengthAxis_->setLabelFormat(QStringLiteral("%d"));
    lengthAxis_->setTickType(QValueAxis::TicksDynamic);
    lengthAxis_->setTickAnchor(0);
    sumAxis_ = new QValueAxis;
    sumAxis_->setRange(0, 1.05);
    sumAxis_->setLabelFormat(QStringLiteral("%.2g"));
    sumAxis_->setTickCount(3);
    spectrumAxis_ = new QValueAxis;
    spectrumAxis_->setLabelFormat(QStringLiteral("%.2g"));
    spectrumAxis_->setTickCount(3);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    for (QValueAxis* a : {lengthAxis_, sumAxis_, spectrumAxis_}) a->setLabelsFont(small);
    spectrumAxis_->setLabelsColor(QColor(32, 159, 223));  // the bars' colour: which axis is whose
    chart_->addAxis(lengthAxis_, Qt::AlignBottom);
    chart_->addAxis(sumAxis_, Qt::AlignLeft);
    chart_->addAxis(spectrumAxis_, Qt::AlignRight);
    // Bar k stands at x = k on a value axis: bar λ is PS(λ).
    barSeries_->attachAxis(lengthAxis_);
    barSeries_->attachAxis(spectrumAxis_);
    for (QLineSeries* s : {sums_, marker_}) {
        s->attachAxis(lengthAxis_);
        s->attachAxis(sumAxis_);
    }
    view_ = new QChartView(chart_, this);
    view_->setToolTip(tr("Click to set λ"));
    view_->setRenderHint(QPainter::Antialiasing);
    view_->setMinimumHeight(120);
    view_->viewport()->installEventFilter(this);
}

void GranulometryPanel::follow(const session::Session& session) {
    const auto updateStatus = [this, &session] {
        const session::SnapshotPtr s = session.latest(session::RequestKind::Granulometry);
        if (!session.isLive(session::RequestKind::Granulometry) || !session.image()) status_->clear();
        else if (s && answers(*s, session.requestFor(session::RequestKind::Granulometry)))
            status_->setText(s->ok() ? tr("%1 ms").arg(s->timings.compute, 0, 'f', 1) : QString());
        else status_->setText(tr("computing…"));
    };
    connect(&session, &session::Session::snapshotReady, this,
            [this, updateStatus](session::RequestKind kind, const session::SnapshotPtr& s) {
                if (kind != session::RequestKind::Granulometry) return;
                if (s->ok()) setGranulometry(*s->granulometry, captionOf(*s));
                else clear(tr("No granulometry: %1").arg(QString::fromStdString(s->error)));
                updateStatus();
            });
    connect(&session, &session::Session::parametersChanged, this, [this, &session, updateStatus] {
        setCurrentLength(session.parameters().length);
        setSettings(session.parameters().granulometry);
        updateStatus();
    });
    connect(&session, &session::Session::viewOptionsChanged, this, updateStatus);
    connect(&session, &session::Session::imageChanged, this, updateStatus);
    setCurrentLength(session.parameters().length);
    setSettings(session.parameters().granulometry);
}

void GranulometryPanel::setGranulometry(const Granulometry& g, const QString& caption) {
    shown_ = g;
    scale_ = g.sums.front() > 0 ? g.sums.front() : 1.0;
    QList<QPointF> points;
    double lo = 0, hi = 0;
    for (std::size_t i = 0; i < g.sums.size(); ++i) {
        const double v = g.sums[i] / scale_;
        points.append(QPointF(static_cast<double>(i + 1), v));
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    sums_->replace(points);
    QList<qreal> bars{0.0};  // bar 0 stands for λ = 0: empty
    double top = 0;
    for (double ps : g.spectrum) {
        bars.append(ps / scale_);
        top = std::max(top, ps / scale_);
    }
    bars_->remove(0, bars_->count());
    bars_->append(bars);
    lengthAxis_->setRange(0.5, g.maxLength + 1.5);
    // Ticks at round lengths: about eight over the range.
    double step = 1;
    for (double s : {1.0, 2.0, 5.0, 10.0, 20.0, 25.0, 50.0, 100.0})
        if (s * 8 >= g.maxLength + 1) {
            step = s;
            break;
        }
    lengthAxis_->setTickInterval(g.maxLength >= 800 ? 100 : step);
    sumAxis_->setRange(std::min(0.0, lo), hi > 0 ? hi * 1.05 : 1.0);
    spectrumAxis_->setRange(0, top > 0 ? top * 1.1 : 1.0);
    caption_->setText(caption);
    stack_->setCurrentIndex(1);
    updateMarker();
}

void GranulometryPanel::clear(const QString& message) {
    shown_.reset();
    sums_->clear();
    bars_->remove(0, bars_->count());
    marker_->clear();
    placeholder_->setText(message);
    stack_->setCurrentWidget(placeholder_);
}

void GranulometryPanel::setCurrentLength(int length) {
    currentLength_ = length;
    updateMarker();
}

void GranulometryPanel::updateMarker() {
    marker_->clear();
    if (!shown_ || currentLength_ < 1 || currentLength_ > shown_->maxLength + 1) return;
    marker_->append(currentLength_, sumAxis_->min());
    marker_->append(currentLength_, sumAxis_->max());
}

void GranulometryPanel::setSettings(const session::GranulometrySettings& s) {
    settings_ = s;
    const QSignalBlocker a(maxLength_), b(supremum_), c(region_);
    maxLength_->setValue(s.maxLength);
    supremum_->setChecked(s.supremum);
    if (parseRegionText(region_->text()) != std::optional<std::optional<PixelRect>>(s.region))
        region_->setText(s.region ? QStringLiteral("%1,%2,%3,%4").arg(s.region->x).arg(s.region->y).arg(s.region->width).arg(s.region->height)
                                  : QString());
}

void GranulometryPanel::setRegion(std::optional<PixelRect> region) {
    {
        const QSignalBlocker block(drawRegion_);
        drawRegion_->setChecked(false);
    }
    if (region == settings_.region) return;
    session::GranulometrySettings s = settings_;
    s.region = region;
    setSettings(s);
    emitSettings();
}

void GranulometryPanel::applyRegionText() {
    const auto region = parseRegionText(region_->text());
    if (!region) {
        status_->setText(tr("Region: X,Y,W,H in pixels, W and H at least 1"));
        return;
    }
    settings_.region = *region;
    emitSettings();
}

void GranulometryPanel::emitSettings() { emit settingsChanged(settings_); }

std::optional<int> GranulometryPanel::lengthAt(QPointF viewPos) const {
    if (!shown_) return std::nullopt;
    const QPointF value = chart_->mapToValue(view_->mapToScene(viewPos.toPoint()), sums_);
    const double l = std::round(value.x());
    return static_cast<int>(std::clamp(l, 1.0, static_cast<double>(shown_->maxLength + 1)));
}

QPointF GranulometryPanel::pointOfLength(int length) const {
    const QPointF scene = chart_->mapToPosition(QPointF(length, (sumAxis_->min() + sumAxis_->max()) / 2), sums_);
    return view_->mapFromScene(scene);
}

bool GranulometryPanel::eventFilter(QObject* watched, QEvent* event) {
    const bool press = event->type() == QEvent::MouseButtonPress;
    const bool drag = event->type() == QEvent::MouseMove;
    if (watched != view_->viewport() || (!press && !drag)) return QWidget::eventFilter(watched, event);
    const auto* mouse = static_cast<QMouseEvent*>(event);
    if (press ? mouse->button() != Qt::LeftButton : !(mouse->buttons() & Qt::LeftButton))
        return QWidget::eventFilter(watched, event);
    if (const auto l = lengthAt(mouse->position())) emit lengthClicked(*l);
    return true;
}

}  // namespace linescope::ui
