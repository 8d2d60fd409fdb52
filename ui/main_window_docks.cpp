// The main window's spectrum and contour docks: building them, feeding them the session's
// snapshots, and their exports. (The window's controls and file handling: main_window.cpp.)
#include "ui/contour_panel.h"
#include "ui/granulometry_panel.h"
#include "ui/main_window.h"

#include "app/session/planes.h"
#include "ui/spectrum_panel.h"
#include "ui/view_controls.h"
#include "ui/viewport_widget.h"
#include "ui/wheel_guard.h"

#include "app/io/contour_export.h"
#include "app/io/deskew.h"
#include "app/io/export_recipe.h"
#include "app/io/image_io.h"
#include "app/io/threshold.h"
#include "app/session/any_image_mat.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QStatusBar>

#include <cmath>

namespace linescope::ui {

namespace {
// A dock holding `panel` in `area`, named `objectName` so that the saved window state finds it.
QDockWidget* addPanelDock(QMainWindow* window, const QString& title, const char* objectName, QWidget* panel,
                          Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(objectName);
    dock->setWidget(panel);
    window->addDockWidget(area, dock);
    return dock;
}
}  // namespace

void MainWindow::buildDocks() {
    spectrum_ = new SpectrumPanel(this);
    spectrum_->follow(*session_);
    spectrumDock_ = addPanelDock(this, tr("Angular spectrum"), "spectrumDock", spectrum_, Qt::BottomDockWidgetArea);

    // The granulometry: a tab beside the spectrum, computed only while shown (View menu).
    granulometry_ = new GranulometryPanel(this);
    granulometry_->follow(*session_);
    granulometryDock_ = addPanelDock(this, tr("Granulometry"), "granulometryDock", granulometry_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(spectrumDock_, granulometryDock_);
    granulometryDock_->hide();
    guardWheel(granulometry_);
    connect(granulometryDock_, &QDockWidget::visibilityChanged, this, [this] { pushViewOptions(); });
    connect(granulometry_, &GranulometryPanel::lengthClicked, this, [this](int l) { setLength(l); });
    connect(granulometry_, &GranulometryPanel::settingsChanged, session_.get(),
            &session::Session::setGranulometrySettings);
    // Its region drawn in the viewport: Draw arms one drag; the region is outlined over the
    // image while the dock is shown; a new image it does not fit in drops it.
    connect(granulometry_, &GranulometryPanel::drawRegionToggled, this, [this](bool on) {
        viewport_->setRegionDrawing(on);
        if (on) statusBar()->showMessage(tr("Drag over the image to choose the granulometry's region"), 8000);
    });
    connect(viewport_, &ViewportWidget::regionDrawn, this,
            [this](const PixelRect& region) { granulometry_->setRegion(region); });
    const auto showRegion = [this] {
        viewport_->setRegion(granulometryDock_->isVisible() ? session_->parameters().granulometry.region : std::nullopt);
    };
    connect(granulometryDock_, &QDockWidget::visibilityChanged, this, showRegion);
    connect(session_.get(), &session::Session::parametersChanged, this, showRegion);
    connect(session_.get(), &session::Session::imageChanged, this, [this] {
        const auto& r = session_->parameters().granulometry.region;
        if (r && session_->image() &&
            (r->x + r->width > session::widthOf(*session_->image()) || r->y + r->height > session::heightOf(*session_->image())))
            granulometry_->setRegion(std::nullopt);
    });

    contourPanel_ = new ContourPanel(this);
    contourPanel_->follow(*session_);
    contourDock_ = addPanelDock(this, tr("Contours"), "contourDock", contourPanel_, Qt::RightDockWidgetArea);
    // The right-hand column runs the window's height (the spectrum dock spans the viewport
    // only), so that the controls and the contours stand one above the other unscrolled.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    guardWheel(spectrum_);
    guardWheel(contourPanel_);

    // A closed dock's views are not computed.
    connect(spectrumDock_, &QDockWidget::visibilityChanged, this, [this] { pushViewOptions(); });
    connect(contourDock_, &QDockWidget::visibilityChanged, this, [this] { pushViewOptions(); });

    connect(spectrum_, &SpectrumPanel::angleClicked, this, [this](double a) { setAngle(a); });
    connect(spectrum_, &SpectrumPanel::deskewRequested, this, &MainWindow::deskew);
    connect(spectrum_, &SpectrumPanel::undoDeskewRequested, this, &MainWindow::undoDeskew);
    connect(spectrum_, &SpectrumPanel::skewParamsChanged, session_.get(), &session::Session::setSkewParams);
    connect(session_.get(), &session::Session::modifiedChanged, this, [this](bool modified) {
        setWindowModified(modified);
        undoDeskew_->setEnabled(session_->canUndoDeskew());
        spectrum_->setUndoAvailable(session_->canUndoDeskew());
    });
    spectrum_->setSkewParams(session_->parameters().skew);

    connect(contourPanel_, &ContourPanel::thresholdChanged, this, [this](double t) { session_->setThreshold(t); });
    connect(contourPanel_, &ContourPanel::modeChanged, this, [this](ContourMode m) {
        session::ContourParams p = session_->parameters().contours;
        p.mode = m;
        session_->setContourParams(p);
    });
    connect(contourPanel_, &ContourPanel::approxChanged, this, [this](ContourApprox a) {
        session::ContourParams p = session_->parameters().contours;
        p.approx = a;
        session_->setContourParams(p);
    });
    connect(contourPanel_, &ContourPanel::sourceChanged, this, [this] {
        refreshContourSource();
        pushViewOptions();
    });
    connect(contourPanel_, &ContourPanel::visibleChanged, this, [this] { pushViewOptions(); });
    connect(contourPanel_, &ContourPanel::otsuRequested, this, [this] {
        const cv::Mat img = contourSourceMat();
        if (img.empty()) return;
        try {
            contourPanel_->setThreshold(io::otsuThreshold(img));
        } catch (const std::exception& e) {
            statusBar()->showMessage(tr("Otsu: %1").arg(QString::fromStdString(e.what())), 10000);
        }
    });
    connect(contourPanel_, &ContourPanel::contourSelected, viewport_, &ViewportWidget::setHighlightedContour);
    connect(session_.get(), &session::Session::imageChanged, this, [this] {
        // The list and the drawing belong to the previous image: new ones come if shown.
        contourPanel_->setContours(nullptr);
        viewport_->setContours(nullptr);
        refreshContourSource();
    });
}

void MainWindow::buildExportMenu(QMenu* file) {
    QMenu* ex = file->addMenu(tr("Export &Data"));
    ex->addAction(tr("Spectrum as &CSV…"), this, [this] { exportSpectrum(false); });
    ex->addAction(tr("Spectrum plot as &PNG…"), this, [this] { exportSpectrum(true); });
    ex->addSeparator();
    ex->addAction(tr("Contours as &JSON…"), this, [this] { exportContours(false); });
    ex->addAction(tr("Contours as &SVG…"), this, [this] { exportContours(true); });
    ex->addSeparator();
    ex->addAction(tr("Lesson as &JSON…"), this, [this] { exportLessonData(LessonData::Json); });
    ex->addAction(tr("Lesson profile as CS&V…"), this, [this] { exportLessonData(LessonData::ProfileCsv); });
    ex->addAction(tr("Lesson response as CSV…"), this, [this] { exportLessonData(LessonData::ResponseCsv); });
}

cv::Mat MainWindow::contourSourceMat() const {
    const session::Plane source = contourPanel_->source();
    if (source == session::Plane::Original) {
        const auto img = session_->image();
        return img ? session::matOf(*img) : cv::Mat();
    }
    const auto snap = session_->latest(source == session::Plane::Result ? session::RequestKind::Result
                                                                        : session::RequestKind::Sweep);
    if (!snap || !snap->ok() || snap->request.image != session_->image()) return {};
    // Otsu needs every pixel on the host (GPU mode downloads the plane once).
    const auto plane = session::planeOf(*snap, source);
    return plane ? std::visit([](const auto& v) { return io::matOf(v); }, plane->view) : cv::Mat();
}

void MainWindow::refreshContourRange() {
    using session::Plane;
    const Plane source = contourPanel_->source();
    try {
        if (source == Plane::Original) {
            const auto img = session_->image();
            if (!img) return;
            const io::ThresholdRange r = io::thresholdRange(session::matOf(*img));
            contourPanel_->setRange(r.min, r.max, r.integer);
            return;
        }
        const auto snap = session_->latest(source == Plane::Result ? session::RequestKind::Result
                                                                           : session::RequestKind::Sweep);
        if (!snap || !snap->ok() || snap->request.image != session_->image()) return;  // refreshed when it comes
        double lo = 0, hi = 0;
        if (!session::rangeOf(*snap, source, &lo, &hi)) return;
        const bool integer = std::visit([](const auto& img) { return !std::is_floating_point_v<std::remove_cvref_t<decltype(*img.data())>>; },
                                        *session_->image());
        contourPanel_->setRange(lo, hi, integer);
    } catch (const std::exception& e) {
        contourPanel_->setError(QString::fromStdString(e.what()));
    }
}

void MainWindow::refreshContourSource() {
    refreshContourRange();
    session_->setContourSource(contourPanel_->source());
}

void MainWindow::onDockSnapshot(session::RequestKind kind, const session::SnapshotPtr&) {
    // The docks show the snapshots themselves (follow()); the threshold's range spans the
    // contours dock and the plane it is traced from.
    const session::Plane source = contourPanel_->source();
    switch (kind) {
    case session::RequestKind::Result:
        if (source == session::Plane::Result && isLive(session::RequestKind::Contours)) refreshContourRange();
        return;
    case session::RequestKind::Sweep:
        if (session::isSweepPlane(source)) refreshContourRange();
        return;
    case session::RequestKind::Contours:
    case session::RequestKind::Skew:
    case session::RequestKind::Granulometry:
    case session::RequestKind::Lesson:
    case session::RequestKind::Field: return;
    }
}

bool MainWindow::isLive(session::RequestKind kind) const { return session_->isLive(kind); }

void MainWindow::deskew(double skewAngle) {
    QString error;
    if (!session_->deskew(skewAngle, &error)) {
        showError(tr("Cannot deskew"), error);
        return;
    }
    statusBar()->showMessage(tr("Rotated by %1° to undo the skew (Edit > Undo Deskew goes back; File > Export "
                                "View saves it)")
                                 .arg(-skewAngle, 0, 'f', 2),
                             10000);
}

void MainWindow::undoDeskew() {
    if (session_->undoDeskew()) statusBar()->showMessage(tr("Deskew undone"), 5000);
}

void MainWindow::exportSpectrum(bool png) {
    // A preview's spectrum only approximates the sweep's: a file must hold the exact one.
    if (const auto shown = spectrum_->shownSweep(); shown && shown->isPreview()) {
        showError(tr("Cannot export the spectrum"),
                  tr("The sweep is still being refined (%1): export it when it has finished.")
                      .arg(QString::fromStdString(session::previewText(*shown->preview))));
        return;
    }
    const QString base = QFileInfo(currentFile_).completeBaseName() + QStringLiteral("-spectrum");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the spectrum"),
                                                      base + (png ? QStringLiteral(".png") : QStringLiteral(".csv")),
                                                      png ? tr("PNG (*.png)") : tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    // The CSV carries how its spectrum was made, as the CLI's sweep spectrum.csv does: the
    // sweep whose spectrum the panel shows (the latest one) and the image it was taken of.
    io::ExportRecipe recipe;
    recipe.source = QFileInfo(currentFile_).fileName().toStdString();
    if (const auto snap = session_->latest(session::RequestKind::Sweep); snap && snap->ok()) {
        const auto& p = std::get<session::SweepParams>(snap->request.params).sweep;
        recipe.op = morphOpName(p.op);
        recipe.length = p.length;
        recipe.angles = io::angleSetText(p.angles);
        recipe.lines = lineKindName(p.kind);
    }
    QString error;
    const bool ok = png ? spectrum_->exportPng(path, &error) : spectrum_->exportCsv(path, &error, &recipe);
    if (!ok) showError(tr("Cannot export the spectrum"), error);
    else statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)), 5000);
}

void MainWindow::exportContours(bool svg) {
    const auto snap = session_->latest(session::RequestKind::Contours);
    if (!snap || !snap->ok() || !snap->contours) {
        showError(tr("Cannot export the contours"), tr("There are no contours yet: open the Contours dock."));
        return;
    }
    const QString base = QFileInfo(currentFile_).completeBaseName() + QStringLiteral("-contours");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the contours"),
                                                      base + (svg ? QStringLiteral(".svg") : QStringLiteral(".json")),
                                                      svg ? tr("SVG (*.svg)") : tr("JSON (*.json)"));
    if (path.isEmpty()) return;
    const int w = session::widthOf(*snap->request.image), h = session::heightOf(*snap->request.image);
    const auto& p = std::get<session::ContourParams>(snap->request.params);
    QString error;
    bool ok = false;
    if (svg) {
        ok = contourPanel_->exportSvg(path, w, h, session::matOf(*snap->request.image), &error);
    } else {
        io::ContourJsonInfo info;
        info.mode = p.mode;
        info.approx = p.approx;
        info.width = w;
        info.height = h;
        info.threshold = p.threshold;
        info.timings = snap->timings.contours;
        ok = contourPanel_->exportJson(path, info, &error);
    }
    if (!ok) showError(tr("Cannot export the contours"), error);
    else statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)), 5000);
}

}  // namespace linescope::ui
