#include "ui/lesson_plot.h"

#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLabel>
#include <QValueAxis>
#include <QVBoxLayout>

namespace linescope::ui {

// The chart is given to the base: QChartView(parent) would make a chart of its own, which a
// later setChart() releases without deleting (LeakSanitizer found it).
LessonPlot::LessonPlot(const QString& xTitle, const QString& yTitle, QWidget* parent)
    : QChartView(new QChart, parent) {
    QChart* chart = this->chart();
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignRight);  // beside the plot: its height is the scarce one
    x_ = new QValueAxis(chart);
    y_ = new QValueAxis(chart);
    x_->setTitleText(xTitle);
    y_->setTitleText(yTitle);
    // Few, whole-number ticks: they must stay legible in the projector's large type.
    x_->setTickCount(5);
    y_->setTickCount(4);
    x_->setLabelFormat(QStringLiteral("%.0f"));
    y_->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x_, Qt::AlignBottom);
    chart->addAxis(y_, Qt::AlignLeft);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(200, 160);
}

QLineSeries* LessonPlot::addLine(const QString& name, const QColor& colour, double width, Qt::PenStyle style) {
    auto* s = new QLineSeries(chart());
    s->setName(name);
    QPen pen(colour, width, style);
    pen.setCapStyle(Qt::FlatCap);
    s->setPen(pen);
    chart()->addSeries(s);
    s->attachAxis(x_);
    s->attachAxis(y_);
    return s;
}

QLineSeries* LessonPlot::line(const QString& name) const {
    for (QAbstractSeries* s : chart()->series())
        if (s->name() == name) return qobject_cast<QLineSeries*>(s);
    return nullptr;
}

LessonPlotPanel::LessonPlotPanel(const QString& placeholder, const QString& xTitle, const QString& yTitle,
                                 QWidget* parent)
    : QWidget(parent), placeholder_(placeholder) {
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(4, 4, 4, 4);
    caption_ = new QLabel(placeholder, this);
    caption_->setWordWrap(true);
    column->addWidget(caption_);
    plot_ = new LessonPlot(xTitle, yTitle, this);
    column->addWidget(plot_, 1);
}

void LessonPlotPanel::follow(const session::Session& session) {
    connect(&session, &session::Session::snapshotReady, this,
            [this, &session](session::RequestKind kind, const session::SnapshotPtr& s) {
                if (kind != session::RequestKind::Lesson || !s->ok() || s->request.image != session.image()) return;
                showLesson(*s->lesson, std::get<session::LessonParams>(s->request.params));
            });
}

void LessonPlotPanel::showPlaceholder() { caption_->setText(placeholder_); }

void LessonPlot::setPointSize(double points) {
    QFont f = font();
    f.setPointSizeF(points);
    for (QValueAxis* a : {x_, y_}) {
        a->setLabelsFont(f);
        QFont t = f;
        t.setBold(true);
        a->setTitleFont(t);
    }
    chart()->legend()->setFont(f);
    QFont title = f;
    title.setBold(true);
    chart()->setTitleFont(title);
}

}  // namespace linescope::ui
