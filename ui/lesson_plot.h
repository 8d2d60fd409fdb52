// What the lesson's two plots share (issue 21): a QChartView with large type for a projector,
// dark on light, and named line series that tests read back; and the docks' panel around one,
// a caption over the plot, following the session's lesson snapshots. UI thread.
#pragma once

#include "app/session/session.h"

#include <QChartView>
#include <QColor>
#include <QString>
#include <QWidget>

class QLabel;
class QLineSeries;
class QValueAxis;

namespace linescope::ui {

class LessonPlot : public QChartView {
    Q_OBJECT
public:
    explicit LessonPlot(const QString& xTitle, const QString& yTitle, QWidget* parent = nullptr);
    // A line series named `name` (its legend text), attached to both axes.
    QLineSeries* addLine(const QString& name, const QColor& colour, double width, Qt::PenStyle style = Qt::SolidLine);
    // The series called `name`, or nullptr (tests).
    QLineSeries* line(const QString& name) const;
    QValueAxis* xAxis() const { return x_; }
    QValueAxis* yAxis() const { return y_; }
    // The axes' type in points (the window's lesson mode enlarges it).
    void setPointSize(double points);

private:
    QValueAxis* x_ = nullptr;
    QValueAxis* y_ = nullptr;
};

// A lesson dock's contents: a caption (the placeholder until a pin is plotted) over a plot.
class LessonPlotPanel : public QWidget {
    Q_OBJECT
public:
    LessonPlotPanel(const QString& placeholder, const QString& xTitle, const QString& yTitle, QWidget* parent);
    // Plots the session's lesson snapshots of its current image as they come. Once.
    void follow(const session::Session& session);
    LessonPlot* plot() const { return plot_; }
    QLabel* caption() const { return caption_; }

protected:
    virtual void showLesson(const session::LessonOutput& lesson, const session::LessonParams& params) = 0;
    // The placeholder back in the caption.
    void showPlaceholder();

    LessonPlot* plot_ = nullptr;
    QLabel* caption_ = nullptr;

private:
    QString placeholder_;
};

}  // namespace linescope::ui
