// The main window's lesson mode (issue 21): its panel in the centre, its docks, the View menu's
// and the toolbar's toggle, and what the mode changes and gives back.
#include "ui/main_window.h"

#include "app/io/atomic_file.h"
#include "app/io/image_io.h"
#include "app/session/lesson_export.h"
#include "ui/granulometry_panel.h"
#include "ui/lesson_panel.h"
#include "ui/lesson_profile_panel.h"
#include "ui/lesson_response_panel.h"
#include "ui/viewport_widget.h"

#include <opencv2/imgproc.hpp>

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>
#include <QIcon>
#include <QPainter>
#include <QPixmap>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTimer>
#include <QMenuBar>
#include <QToolButton>

#include <algorithm>

namespace linescope::ui {

namespace {

// The image's centre, where a lesson starts pinned.
std::optional<PixelAt> centreOf(const session::Session& s) {
    if (!s.image()) return std::nullopt;
    return PixelAt{session::widthOf(*s.image()) / 2, session::heightOf(*s.image()) / 2};
}

bool pinInside(const session::Session& s) {
    const auto pin = s.lessonPin();
    return pin && s.image() && pin->x < session::widthOf(*s.image()) && pin->y < session::heightOf(*s.image());
}

// f → ε(f) → γ(f): three panes, the last two darker.
QIcon threePanesIcon() {
    QPixmap pixmap(24, 24);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    const QColor fills[] = {QColor(230, 230, 230), QColor(150, 150, 150), QColor(80, 80, 80)};
    for (int i = 0; i < 3; ++i) {
        p.setPen(QPen(Qt::black, 1));
        p.setBrush(fills[i]);
        p.drawRect(1 + i * 7, 5, 6, 13);
    }
    return QIcon(pixmap);
}

}  // namespace

void MainWindow::buildLesson() {
    lesson_ = new LessonPanel(centre_);
    lesson_->follow(*session_);
    centre_->addWidget(lesson_);

    // The two plots, at the bottom side by side, fed by the session's lesson snapshots.
    const auto addPlotDock = [this](LessonPlotPanel* panel, const QString& title, const char* name) {
        panel->follow(*session_);
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setWidget(panel);
        addDockWidget(Qt::BottomDockWidgetArea, dock);
        return dock;
    };
    lessonProfile_ = new LessonProfilePanel(this);
    lessonProfileDock_ = addPlotDock(lessonProfile_, tr("Lesson: profile along the line"), "lessonProfileDock");
    lessonResponse_ = new LessonResponsePanel(this);
    lessonResponseDock_ = addPlotDock(lessonResponse_, tr("Lesson: response to the angle"), "lessonResponseDock");
    splitDockWidget(lessonProfileDock_, lessonResponseDock_, Qt::Horizontal);
    lessonProfileDock_->hide();
    lessonResponseDock_->hide();

    lessonAction_ = new QAction(tr("&Lesson Mode"), this);
    lessonAction_->setObjectName("lessonAction");
    lessonAction_->setCheckable(true);
    lessonAction_->setIcon(threePanesIcon());
    lessonAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    lessonAction_->setToolTip(tr("Teach an opening step by step: f, ε(f), γ(f) side by side, a pinned segment, "
                                 "the profile along its line and the response to the angle (Ctrl+L)"));
    connect(lessonAction_, &QAction::toggled, this, &MainWindow::setLessonMode);
    // The toggle at the menu bar's right end, where there is room: in the parameters toolbar
    // it would make the window too wide for a 1280×800 screen's default size.
    auto* toggle = new QToolButton(menuBar());
    toggle->setObjectName("lessonToggle");
    toggle->setDefaultAction(lessonAction_);
    toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toggle->setAutoRaise(true);
    menuBar()->setCornerWidget(toggle, Qt::TopRightCorner);

    // A new image keeps the pin where it is, or pins its centre.
    connect(session_.get(), &session::Session::imageChanged, this, [this] {
        if (lessonMode_ && session_->image() && !pinInside(*session_)) session_->setLessonPin(centreOf(*session_));
    });
}

void MainWindow::setLessonMode(bool on) {
    if (on == lessonMode_) return;
    if (on && fieldMode_) setFieldWorkbenchMode(false);
    lessonMode_ = on;
    {
        const QSignalBlocker block(lessonAction_);
        lessonAction_->setChecked(on);
    }
    QFont f;  // the application's
    // A region is drawn in the viewport, which the lesson's panes replace.
    granulometry_->drawRegionButton()->setChecked(false);
    granulometry_->drawRegionButton()->setEnabled(!on);
    if (on) {
        beforeLesson_ = {controlsDock_->isVisible(), spectrumDock_->isVisible(), contourDock_->isVisible(),
                         granulometryDock_->isVisible(), overlayAction_->isChecked()};
        f.setPointSizeF(f.pointSizeF() * kLessonFontScale);
        setFont(f);
        overlayAction_->setChecked(false);  // the developer overlay is not for the class
        // The parameters toolbar in large type must still fit a 1280-pixel projector.
        angleSlider_->setMinimumWidth(kLessonAngleSliderWidth);
        for (QDockWidget* d : {controlsDock_, spectrumDock_, contourDock_}) d->hide();
        lessonProfileDock_->show();
        lessonResponseDock_->show();
        // The granulometry belongs to the lesson: a tab beside the response.
        tabifyDockWidget(lessonResponseDock_, granulometryDock_);
        granulometryDock_->show();
        lessonResponseDock_->raise();
        // The plots need room for their large type: about 40 % of the height, once the window
        // is laid out (lesson mode may be asked for before it shows).
        QTimer::singleShot(0, this, [this] {
            if (lessonMode_) resizeDocks({lessonProfileDock_}, {std::max(240, height() * 40 / 100)}, Qt::Vertical);
        });
        centre_->setCurrentWidget(lesson_);
        lesson_->view()->setCaptionPointSize(f.pointSizeF() * 1.15);
        lessonProfile_->plot()->setPointSize(f.pointSizeF() * 0.85);
        lessonResponse_->plot()->setPointSize(f.pointSizeF() * 0.85);
        if (session_->image() && !pinInside(*session_)) session_->setLessonPin(centreOf(*session_));
        lesson_->view()->setFocus();
    } else {
        setFont(QFont());
        angleSlider_->setMinimumWidth(kAngleSliderWidth);
        centre_->setCurrentWidget(viewport_);
        lessonProfileDock_->hide();
        lessonResponseDock_->hide();
        controlsDock_->setVisible(beforeLesson_.controls);
        spectrumDock_->setVisible(beforeLesson_.spectrum);
        contourDock_->setVisible(beforeLesson_.contours);
        // Back to the spectrum's tab.
        tabifyDockWidget(spectrumDock_, granulometryDock_);
        granulometryDock_->setVisible(beforeLesson_.granulometry);
        overlayAction_->setChecked(beforeLesson_.overlay);
    }
    pushViewOptions();  // the session computes the lesson only in this mode
}

io::ExportRecipe MainWindow::lessonRecipe() const {
    io::ExportRecipe r;
    r.source = QFileInfo(currentFile_).fileName().toStdString();
    r.view = "lesson";
    if (const auto& lesson = lesson_->view()->scene().lesson; lesson && lesson->stages) {
        r.op = morphOpName(lesson->stages->op);
        r.angle = lesson->stages->line.angle;
        r.length = lesson->stages->line.length;
        r.lines = lineKindName(lesson->stages->line.kind);
    }
    return r;
}

cv::Mat MainWindow::lessonCanvasMat() const {
    const auto& lesson = lesson_->view()->scene().lesson;
    if (!lesson || !lesson->stages) throw io::IoError("there is no lesson on screen yet: open an image");
    const QImage canvas = lesson_->view()->render().convertToFormat(QImage::Format_RGB888);
    cv::Mat bgr;
    cv::cvtColor(cv::Mat(canvas.height(), canvas.width(), CV_8UC3, const_cast<uchar*>(canvas.constBits()),
                         static_cast<std::size_t>(canvas.bytesPerLine())),
                 bgr, cv::COLOR_RGB2BGR);  // imwrite wants BGR; cvtColor copies out of the QImage
    return bgr;
}

bool MainWindow::writeLessonData(const QString& path, LessonData what, QString* error) const {
    try {
        const auto& lesson = lesson_->view()->scene().lesson;
        if (!lessonMode_ || !lesson || !lesson->stages)
            throw io::IoError("there is no lesson on screen: turn on Lesson Mode (Ctrl+L) with an image open");
        const std::string source = QFileInfo(currentFile_).fileName().toStdString();
        std::string text;
        switch (what) {
        case LessonData::Json: {
            const auto& image = lesson_->view()->scene().original;
            text = session::lessonJson(*lesson, source, image ? session::widthOf(*image) : 0,
                                       image ? session::heightOf(*image) : 0);
            break;
        }
        case LessonData::ProfileCsv: text = session::lessonProfileCsv(*lesson, source); break;
        case LessonData::ResponseCsv: text = session::lessonResponseCsv(*lesson, source); break;
        }
        io::writeFileAtomically(path.toStdString(), text);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

void MainWindow::exportLessonData(LessonData what) {
    const io::ExportRecipe recipe = lessonRecipe();
    const std::string suffix = what == LessonData::Json ? "" : what == LessonData::ProfileCsv ? "-profile" : "-response";
    const QString suggested =
        QString::fromStdString(io::exportBaseName(QFileInfo(currentFile_).completeBaseName().toStdString(), recipe) +
                               suffix + (what == LessonData::Json ? ".json" : ".csv"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the lesson"), suggested,
                                                      what == LessonData::Json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!writeLessonData(path, what, &error)) showError(tr("Cannot export the lesson"), error);
    else statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)), 5000);
}

}  // namespace linescope::ui
