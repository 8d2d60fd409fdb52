#include "ui/main_window.h"

#include "ui/angle_dial.h"
#include "ui/contour_panel.h"
#include "ui/spectrum_panel.h"
#include "ui/view_controls.h"
#include "ui/angle_resolution_control.h"
#include "ui/line_kind_combo.h"
#include "ui/line_kind_text.h"
#include "app/session/kind_difference.h"
#include "ui/viewport_widget.h"
#include "ui/wheel_guard.h"
#include "ui/widget_lifetime.h"

#include "app/io/export_recipe.h"
#include "app/io/image_io.h"
#include "app/session/any_image_mat.h"
#include "app/session/planes.h"
#include "app/session/shown_state.h"

#include <opencv2/imgproc.hpp>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QCloseEvent>
#include <QThread>
#include <QSettings>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace linescope::ui {

namespace {

constexpr int kMaxRecent = 8;
constexpr int kLayoutVersion = 1;  // saveState's: 1 since the parameters toolbar

struct OpEntry {
    MorphOp op;
    const char* label;
};
constexpr OpEntry kOps[] = {
    {MorphOp::Erode, "Erosion"},   {MorphOp::Dilate, "Dilation"}, {MorphOp::Open, "Opening"},
    {MorphOp::Close, "Closing"},   {MorphOp::TopHat, "Top-hat"},
};

int angleUnits(double degrees) {
    return std::clamp(static_cast<int>(std::lround(degrees * 10)), 0, MainWindow::kAngleSteps);
}

// How the view `v` was made, for Export View's name and the file's text: the result's
// parameters from its snapshot, a sweep view's from the sweep's, none for the original.
io::ExportRecipe recipeOfView(Plane v, const session::Snapshot* result, const session::Snapshot* sweep,
                              const QString& file) {
    io::ExportRecipe r;
    r.source = QFileInfo(file).fileName().toStdString();
    r.view = QString::fromLatin1(planeName(v)).toLower().toStdString();
    if (v == Plane::Result && result) {
        const auto& p = std::get<session::ResultParams>(result->request.params);
        r.op = morphOpName(p.op);
        r.angle = p.line.angle;
        r.length = p.line.length;
        r.lines = lineKindName(p.line.kind);
    } else if (session::isSweepPlane(v) && sweep) {
        const auto& p = std::get<session::SweepParams>(sweep->request.params).sweep;
        r.op = morphOpName(p.op);
        r.length = p.length;
        r.angles = io::angleSetText(p.angles);
        r.lines = lineKindName(p.kind);
    }
    return r;
}

}  // namespace

MainWindow::MainWindow(const Options& options, QWidget* parent)
    : QMainWindow(parent), options_(options),
      session_(std::make_unique<session::Session>(options.engine)) {
    setWindowTitle(QStringLiteral("LineScope"));
    setAcceptDrops(true);
    // Views nobody looks at are not computed, so a slider drag never waits behind them: the
    // session decides from the view options (pushViewOptions) which views are live.
    session_->setViewOptions(session::ViewOptions{});

    viewport_ = new ViewportWidget(this);
    viewport_->follow(*session_);
    // The viewport, or the lesson's panes in lesson mode (main_window_lesson.cpp).
    centre_ = new QStackedWidget(this);
    centre_->addWidget(viewport_);
    setCentralWidget(centre_);
    // Until an image is loaded the viewport says how to open one.
    emptyHint_ = new QLabel(tr("Open an image: File ▸ Open (Ctrl+O), drag and drop, or Samples"), viewport_);
    emptyHint_->setObjectName("emptyHint");
    emptyHint_->setAttribute(Qt::WA_TransparentForMouseEvents);
    emptyHint_->setAlignment(Qt::AlignCenter);
    emptyHint_->setWordWrap(true);
    emptyHint_->setStyleSheet(QStringLiteral("QLabel { color: #e8e8e8; background: rgba(0, 0, 0, 150); "
                                             "padding: 14px; border-radius: 6px; font-size: 15px; }"));
    auto* hintLayout = new QVBoxLayout(viewport_);
    hintLayout->addWidget(emptyHint_, 0, Qt::AlignCenter);
    connect(viewport_, &ViewportWidget::glFailed, this,
            [this](const QString& m) { statusBar()->showMessage(tr("OpenGL: %1").arg(m)); });
    // The viewport cannot draw the device's planes after all (not NVIDIA's OpenGL, a failing
    // interop write): the session goes back to host planes, and the check box says why.
    connect(viewport_, &ViewportWidget::gpuPathLost, this, [this](const QString& why) {
        session_->setDeviceResident(false);
        viewControls_->setGpuAvailable(false, why);
        updateOverlayInfo();
    });

    if (options_.useSettings) recent_ = QSettings().value("recentFiles").toStringList();
    recompute_ = new QAction(tr("&Recompute the Sweep"), this);
    recompute_->setShortcut(QKeySequence(Qt::Key_F5));
    recompute_->setToolTip(tr("Compute the cancelled sweep with the current parameters"));
    recompute_->setEnabled(false);
    connect(recompute_, &QAction::triggered, this, [this] {
        session_->recompute(session::RequestKind::Sweep);
        updateSweepMark();
    });
    buildControls();
    buildDocks();
    buildLesson();
    buildFieldWorkbench();
    buildMenus();

    progress_ = new QProgressBar(this);
    // Wide enough for its longest text ("Sweep 180/180 · about 99 s left"), on one line.
    progress_->setFixedWidth(progress_->fontMetrics().horizontalAdvance(tr("Sweep 720/720 · about 999 s left")) + 16);
    progress_->setVisible(false);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setVisible(false);
    cancel_->setToolTip(tr("Stop the sweep (it starts again when a parameter changes)"));
    // After Cancel the sweep views keep the previous sweep: the status bar says so until a
    // parameter change or Recompute submits a new one.
    sweepStale_ = new QLabel(this);
    sweepStale_->setObjectName("sweepStaleLabel");
    sweepStale_->setVisible(false);
    recomputeButton_ = new QToolButton(this);
    recomputeButton_->setDefaultAction(recompute_);
    recomputeButton_->setVisible(false);
    polarity_ = new QLabel(this);
    polarity_->setObjectName("polarityWarning");
    polarity_->setVisible(false);
    statusBar()->addPermanentWidget(polarity_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    statusBar()->addPermanentWidget(sweepStale_);
    statusBar()->addPermanentWidget(recomputeButton_);
    connect(cancel_, &QPushButton::clicked, this, [this] {
        session_->cancel(session::RequestKind::Sweep);  // also drops its queued progress
        progress_->setVisible(false);
        cancel_->setVisible(false);
        updateSweepMark();
    });
    connect(session_.get(), &session::Session::progress, this, [this](session::RequestKind kind, int, int) {
        if (kind != session::RequestKind::Sweep) return;
        updateSweepMark();
        updateSweepProgress();
    });
    // The status bar's line follows the controls at once ("…: computing"), and the result's
    // timing once it is in.
    connect(session_.get(), &session::Session::parametersChanged, this, [this] {
        updateResultStatus();
        updateSweepProgress();  // a new sweep starts: the bar shows at once
    });

    connect(session_.get(), &session::Session::snapshotReady, this, &MainWindow::onSnapshot);
    connect(session_.get(), &session::Session::imageChanged, this,
            [this] {
                emptyHint_->setVisible(!session_->image());
                updateSweepMark();
            });
    connect(session_.get(), &session::Session::notice, this,
            [this](const QString& line) { statusBar()->showMessage(line, 10000); });
    connect(session_.get(), &session::Session::imageOpened, this, &MainWindow::onImageOpened);
    connect(session_.get(), &session::Session::openFailed, this, [this](const QString& path, const QString& error) {
        pendingTask_.reset();
        showError(tr("Cannot open image"), tr("%1 could not be opened:\n%2").arg(QDir::toNativeSeparators(path), error));
    });
    statusBar()->showMessage(session_->queue().lastBackendNotice().isEmpty()
                                 ? tr("Open an image (File > Open, drag and drop, or Samples)")
                                 : session_->queue().lastBackendNotice());
    if (const QScreen* sc = screen()) {
        const QRect avail = sc->availableGeometry();
        QRect frame(QPoint(), defaultSize(avail));
        frame.moveCenter(avail.center());
        setGeometry(frame);
    } else {
        resize(defaultSize(QRect(0, 0, 1600, 1000)));
    }

    // The GPU path when CUDA can run here; otherwise the check box says why not.
    QString why;
    const bool gpu = options_.preferGpu && viewport_->setGpuPath(true, &why);
    viewport_->setGpuPath(false);
    viewControls_->setGpuAvailable(gpu || (options_.preferGpu && why.isEmpty()), why);
    if (options_.useSettings) loadSettings();
    viewControls_->setGpuChecked(gpu && (!options_.useSettings || QSettings().value("gpu", true).toBool()));
    session_->setDeviceResident(viewport_->gpuPath());
    pushViewOptions();
    viewport_->setGlyph(session_->parameters().angle, session_->parameters().length, session_->parameters().kind);
    updateOverlayInfo();
}

MainWindow::~MainWindow() {
    // The docks, the controls and the session must not call back into this window while
    // ~QWidget hides and deletes them, after session_ is gone (widget_lifetime.h).
    disconnectFromDescendants(this);
    session_->disconnect(this);
}

void MainWindow::buildControls() {
    // The most used parameters (operator, angle, λ) sit in a toolbar across the window, so
    // that the angle slider gets the window's width and the dock below keeps the view options
    // only (issue 20: the dock no longer fits at 1280×800 with them).
    auto* bar = new QToolBar(tr("Parameters"), this);
    bar->setObjectName("parametersToolBar");
    bar->setMovable(false);
    auto* params = new QWidget(bar);
    params->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    auto* row = new QHBoxLayout(params);
    row->setContentsMargins(4, 0, 4, 0);

    opCombo_ = new QComboBox(params);
    for (const auto& e : kOps) opCombo_->addItem(tr(e.label), static_cast<int>(e.op));
    opCombo_->setCurrentIndex(opCombo_->findData(static_cast<int>(session_->parameters().op)));
    opCombo_->setToolTip(tr("The morphological operator applied along the segment"));
    row->addWidget(opCombo_);
    row->addSpacing(12);

    angleSlider_ = new TickedSlider(params);
    angleSlider_->setRange(0, kAngleSteps);
    angleSlider_->setSingleStep(1);   // arrow keys: 0.1°
    angleSlider_->setPageStep(50);    // page keys: 5°
    angleSlider_->setMinimumWidth(kAngleSliderWidth);
    angleDial_ = new AngleDial(params);
    angleDial_->setRange(0, kAngleSteps);
    angleDial_->setSingleStep(10);  // wheel and arrow keys: 1°
    angleDial_->setPageStep(100);
    angleDial_->setFixedSize(48, 48);
    angleSpin_ = new QDoubleSpinBox(params);
    angleSpin_->setRange(0, 180);
    angleSpin_->setDecimals(1);
    angleSpin_->setSingleStep(0.1);
    angleSpin_->setSuffix(QStringLiteral("°"));
    row->addWidget(new QLabel(tr("Angle"), params));
    row->addWidget(angleSlider_, 3);
    row->addWidget(angleDial_);
    row->addWidget(angleSpin_);
    row->addSpacing(12);

    lengthSlider_ = new QSlider(Qt::Horizontal, params);
    lengthSlider_->setRange(1, kMaxLength);
    lengthSlider_->setPageStep(10);
    lengthSlider_->setMinimumWidth(160);
    lengthSpin_ = new QSpinBox(params);
    lengthSpin_->setRange(1, kMaxLength);
    lengthSpin_->setPrefix(QStringLiteral("λ = "));
    row->addWidget(new QLabel(tr("Length"), params));
    row->addWidget(lengthSlider_, 1);
    row->addWidget(lengthSpin_);
    // Which digital line: beside λ, as both decide the pixel set.
    kindCombo_ = new LineKindCombo(params);
    kindCombo_->setKind(session_->parameters().kind);
    row->addSpacing(8);
    row->addWidget(kindCombo_);
    bar->addWidget(params);
    addToolBar(Qt::TopToolBarArea, bar);
    guardWheel(opCombo_);  // the sliders, dial and spin boxes up there keep the wheel
    guardWheel(kindCombo_);

    auto* dock = controlsDock_ = new QDockWidget(tr("Controls"), this);
    dock->setObjectName("controlsDock");
    auto* panel = new QWidget(dock);
    auto* column = new QVBoxLayout(panel);
    viewControls_ = new ViewControls(panel);
    column->addWidget(viewControls_);
    imageLabel_ = new QLabel(tr("No image"), panel);
    imageLabel_->setWordWrap(true);
    column->addWidget(imageLabel_);
    column->addStretch(1);

    // Scrolled, so that the window fits screens shorter than the docks (not needed at 1280×800).
    auto* scroll = new QScrollArea(dock);
    scroll->setObjectName("controlsScroll");
    scroll->setWidget(panel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As wide as the controls ask (the scroll area would clip them, not widen the dock).
    scroll->setMinimumWidth(panel->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width());
    dock->setWidget(scroll);
    guardWheel(panel);
    addDockWidget(Qt::RightDockWidgetArea, dock);

    resolution_ = new AngleResolutionControl(this);
    connect(resolution_, &AngleResolutionControl::changed, this, &MainWindow::updateAngleResolution);
    setAngle(session_->parameters().angle);
    setLength(session_->parameters().length);

    connect(angleSlider_, &QSlider::valueChanged, this,
            [this](int v) { moveAngle(v / 10.0, angleSlider_->isSliderDown()); });
    connect(angleDial_, &AngleDial::valueChanged, this, [this](int v) { moveAngle(v / 10.0, angleDial_->isSliderDown()); });
    connect(angleSpin_, &QDoubleSpinBox::valueChanged, this, [this](double v) { moveAngle(v, false); });
    connect(kindCombo_, &LineKindCombo::kindChanged, this, &MainWindow::setLineKind);
    connect(lengthSlider_, &QSlider::valueChanged, this, [this](int v) { setLength(v); });
    // While λ is dragged, a big sweep shows its first preview and goes no further; released,
    // it is finished (Session::setDragging).
    connect(lengthSlider_, &QSlider::sliderPressed, this, [this] { session_->setDragging(true); });
    connect(lengthSlider_, &QSlider::sliderReleased, this, [this] { session_->setDragging(false); });
    connect(lengthSpin_, &QSpinBox::valueChanged, this, [this](int v) { setLength(v); });
    connect(opCombo_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0) setOperator(static_cast<MorphOp>(opCombo_->itemData(i).toInt()));
    });

    // The view options go to the session, which the viewport follows.
    connect(viewControls_, &ViewControls::viewChanged, this, &MainWindow::pushViewOptions);
    connect(viewControls_, &ViewControls::compareModeChanged, this, &MainWindow::pushViewOptions);
    connect(viewControls_, &ViewControls::otherKindChanged, this, &MainWindow::pushViewOptions);
    connect(viewControls_, &ViewControls::snapAngleChanged, this, [this](bool on) { resolution_->setSnapping(on); });
    connect(viewControls_, &ViewControls::angleSetChanged, this, [this](const AngleSet& a) {
        session_->setAngleSet(a);
        updateSweepMark();
    });
    connect(viewControls_, &ViewControls::orientationChanged, this, &MainWindow::pushViewOptions);
    connect(viewControls_, &ViewControls::glyphVisibleChanged, this, &MainWindow::pushViewOptions);
    connect(viewControls_, &ViewControls::gpuToggled, this, [this](bool on) {
        QString why;
        if (viewport_->setGpuPath(on, &why) != on && on) {
            viewControls_->setGpuAvailable(false, why);
            statusBar()->showMessage(tr("GPU drawing is not available: %1").arg(why), 10000);
        }
        // One pipeline: with the GPU path the session's engine keeps its planes on the device.
        session_->setDeviceResident(viewport_->gpuPath());
        updateOverlayInfo();
    });
    session_->setAngleSet(viewControls_->angleSet());

    connect(viewport_, &ViewportWidget::overlayToggled, this, [this](bool contours, bool glyph, bool blend, bool needles) {
        contourPanel_->setContoursVisible(contours);
        if (contours && !contourDock_->isVisible()) contourDock_->show();
        viewControls_->setGlyphVisible(glyph);
        viewControls_->setBlend(blend, viewControls_->blendAmount());
        viewControls_->setNeedleStep(needles ? 16 : 0);
    });
}

void MainWindow::updateOverlayInfo() {
    const bool gpu = viewport_->gpuPath();
    const Backend engine = session_->queue().backend();
    QString device;
    if (gpu || engine == Backend::Cuda) device = QString::fromStdString(cudaDeviceDescription());
    else device = tr("CPU, %1 threads").arg(QThread::idealThreadCount());
    viewport_->setOverlayInfo(gpu ? tr("CUDA → OpenGL") : engine == Backend::Cuda ? tr("CUDA (uploaded)") : tr("CPU"),
                              device);
}

void MainWindow::pushViewOptions() {
    if (!spectrumDock_ || !contourDock_) return;  // still building
    session::ViewOptions o;
    o.view = viewControls_->view();
    o.compare = viewControls_->compareMode();
    o.otherKind = viewControls_->otherKind();
    o.blend = viewControls_->blend();
    o.blendAmount = viewControls_->blendAmount();
    o.needleStep = viewControls_->needleStep();
    o.glyphVisible = viewControls_->glyphVisible();
    o.contoursVisible = contourPanel_->contoursVisible();
    o.spectrumShown = spectrumDock_->isVisible();
    o.contoursShown = contourDock_->isVisible();
    o.granulometryShown = granulometryDock_ && granulometryDock_->isVisible();
    o.lesson = lessonMode_;
    o.fieldWorkbench = fieldMode_;
    session_->setViewOptions(o);
    updateSweepMark();  // a sweep view turned live again submits the cancelled sweep
}

void MainWindow::setAngle(double degrees) {
    const int units = angleUnits(degrees);
    {
        const QSignalBlocker a(angleSlider_), b(angleDial_), c(angleSpin_);
        angleSlider_->setValue(units);
        angleDial_->setValue(units);
        angleSpin_->setValue(units / 10.0);
    }
    session_->setAngle(units / 10.0);
    if (spectrum_) spectrum_->setCurrentAngle(units / 10.0);
    viewport_->setGlyph(units / 10.0, session_->parameters().length, session_->parameters().kind);
    updateAngleResolution();
    updateSweepMark();
}

void MainWindow::moveAngle(double degrees, bool dragging) {
    const int snapped = resolution_->snap(angleUnits(session_->parameters().angle), angleUnits(degrees), dragging);
    setAngle(snapped / 10.0);
}

void MainWindow::setLineKind(LineKind kind) {
    {
        const QSignalBlocker b(kindCombo_);
        kindCombo_->setKind(kind);
    }
    session_->setLineKind(kind);
    const auto& p = session_->parameters();
    viewport_->setGlyph(p.angle, p.length, kind);
    resolution_->setLine(kind, p.length);
    updateAngleResolution();
    updateSweepMark();
}

void MainWindow::updateAngleResolution() {
    const auto& p = session_->parameters();
    angleSlider_->setTicks(resolution_->tickUnits());
    const QString text = resolution_->describe(angleUnits(p.angle));
    viewControls_->setResolutionText(text);
    angleSlider_->setToolTip(text);
}

void MainWindow::setLength(int length) {
    length = std::clamp(length, 1, kMaxLength);
    {
        const QSignalBlocker a(lengthSlider_), b(lengthSpin_);
        lengthSlider_->setValue(length);
        lengthSpin_->setValue(length);
    }
    session_->setLength(length);
    viewport_->setGlyph(session_->parameters().angle, length, session_->parameters().kind);
    resolution_->setLine(session_->parameters().kind, length);
    updateAngleResolution();
    updateSweepMark();
}

void MainWindow::setOperator(MorphOp op) {
    {
        const QSignalBlocker a(opCombo_);
        opCombo_->setCurrentIndex(opCombo_->findData(static_cast<int>(op)));
    }
    session_->setOp(op);
    updateSweepMark();
    updatePolarityWarning();
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction* exportAction = file->addAction(tr("&Export View…"), this, &MainWindow::exportView);
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    buildExportMenu(file);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    undoDeskew_ = edit->addAction(tr("&Undo Deskew"), this, &MainWindow::undoDeskew);
    undoDeskew_->setShortcut(QKeySequence::Undo);
    undoDeskew_->setEnabled(false);
    buildCopyAsActions(edit);

    samplesMenu_ = menuBar()->addMenu(tr("&Samples"));
    fillSamplesMenu();
    buildTaskMenu();

    QMenu* parameters = menuBar()->addMenu(tr("&Parameters"));
    QMenu* view = viewMenu_ = menuBar()->addMenu(tr("&View"));
    QAction* fit = view->addAction(tr("Zoom to &Fit"), viewport_, &ViewportWidget::zoomToFit);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction* one = view->addAction(tr("Zoom &1:1"), viewport_, &ViewportWidget::zoomOneToOne);
    one->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    view->addSeparator();
    view->addAction(lessonAction_);
    view->addAction(fieldAction_);
    QAction* overlay = overlayAction_ = view->addAction(tr("&Overlay (timings, probe)"));
    overlay->setCheckable(true);
    overlay->setChecked(true);
    overlay->setShortcut(QKeySequence(Qt::Key_F2));
    connect(overlay, &QAction::toggled, viewport_, &ViewportWidget::setOverlayVisible);
    view->addAction(recompute_);
    // Every dock, so that a closed one comes back from here.
    view->addSeparator();
    for (QDockWidget* dock : {controlsDock_, spectrumDock_, granulometryDock_, contourDock_, lessonProfileDock_,
                              lessonResponseDock_})
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    buildKeys(parameters, view);
    buildHelpMenu();
}

void MainWindow::fillSamplesMenu() {
    samplesMenu_->clear();
    const QDir dir(options_.samplesDir);
    const QStringList names =
        options_.samplesDir.isEmpty() ? QStringList{} : dir.entryList({"*.png"}, QDir::Files, QDir::Name);
    for (const QString& name : names) {
        const QString path = dir.absoluteFilePath(name);
        samplesMenu_->addAction(QFileInfo(name).completeBaseName(), this, [this, path] { openSample(path); });
    }
    if (names.isEmpty()) samplesMenu_->addAction(tr("(no samples found)"))->setEnabled(false);
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    for (const QString& path : recent_)
        recentMenu_->addAction(QDir::toNativeSeparators(path), this, [this, path] { openFile(path); });
    recentMenu_->setEnabled(!recent_.isEmpty());
}

void MainWindow::addRecent(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    recent_.removeAll(abs);
    recent_.prepend(abs);
    while (recent_.size() > kMaxRecent) recent_.removeLast();
    if (options_.useSettings) QSettings().setValue("recentFiles", recent_);
    rebuildRecentMenu();
}

void MainWindow::openDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open image"), currentFile_.isEmpty() ? QString() : QFileInfo(currentFile_).absolutePath(),
        tr("Images (*.png *.tif *.tiff *.jpg *.jpeg *.bmp *.pgm *.ppm *.pbm *.pnm *.pfm *.exr *.webp *.jp2);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
}

void MainWindow::openFile(const QString& path) {
    statusBar()->showMessage(tr("Opening %1…").arg(QDir::toNativeSeparators(path)));
    session_->openImage(path);
}

void MainWindow::onImageOpened(const QString& path) {
    currentFile_ = path;
    viewport_->zoomToFit();  // a new image starts whole, not at the previous one's zoom
    addRecent(path);
    const auto img = session_->image();
    imageLabel_->setText(tr("%1\n%2 × %3")
                             .arg(QFileInfo(path).fileName())
                             .arg(session::widthOf(*img))
                             .arg(session::heightOf(*img)));
    setWindowTitle(tr("%1[*] — LineScope").arg(QFileInfo(path).fileName()));  // [*]: '*' once deskewed
    imageIsLight_ = meanLevelIsLight(*img);
    updatePolarityWarning();
    if (pendingTask_ && QFileInfo(path) == QFileInfo(pendingTaskPath_)) applyTask(*pendingTask_);
    pendingTask_.reset();
}

void MainWindow::showError(const QString& title, const QString& text) {
    if (errorBox_) errorBox_->close();
    // Window-modal and opened asynchronously: the UI thread does not wait in exec().
    errorBox_ = new QMessageBox(QMessageBox::Critical, title, text, QMessageBox::Ok, this);
    errorBox_->setAttribute(Qt::WA_DeleteOnClose);
    errorBox_->setObjectName("errorDialog");
    errorBox_->open();
    statusBar()->showMessage(title);
}

QMessageBox* MainWindow::errorDialog() const { return errorBox_.data(); }

void MainWindow::onSnapshot(session::RequestKind kind, const session::SnapshotPtr& snapshot) {
    if (!snapshot) return;
    if (!snapshot->ok()) {
        statusBar()->showMessage(tr("Engine (%1): %2")
                                     .arg(QString::fromLatin1(session::requestKindName(kind)),
                                          QString::fromStdString(snapshot->error)));
        return;
    }
    // The viewport and the docks follow the session themselves (follow()); the window keeps
    // what spans them: the contour threshold's range, the status bar, the sweep's progress.
    onDockSnapshot(kind, snapshot);
    if (kind == session::RequestKind::Sweep) {
        updateSweepProgress();  // a preview keeps the bar (refining); the exact one ends it
        updateSweepMark();
        return;
    }
    if (kind == session::RequestKind::Result) updateResultStatus();
}

void MainWindow::updateResultStatus() {
    if (fieldMode_) {  // the workbench's field, not the viewport's result, is on screen
        updateFieldStatus();
        return;
    }
    const auto& p = session_->parameters();
    const int i = opCombo_->findData(static_cast<int>(p.op));
    // The controls' words: the combo's operator, the spin box's angle and λ.
    QString line = tr("%1 at %2°, λ = %3")
                       .arg(i >= 0 ? opCombo_->itemText(i) : QString::fromLatin1(morphOpName(p.op)))
                       .arg(p.angle, 0, 'f', 1)
                       .arg(p.length);
    if (p.kind != LineKind::Paths) line += QStringLiteral(", ") + lineKindLabel(p.kind).toLower();
    if (!session_->image()) return;
    const auto snapshot = session_->latest(session::RequestKind::Result);
    const auto wanted = session_->requestFor(session::RequestKind::Result);
    if (snapshot && snapshot->ok() && wanted && session::answers(*snapshot, *wanted)) {
        line += tr(": %1 ms on the %2")
                    .arg(snapshot->timings.compute, 0, 'f', 1)
                    .arg(snapshot->backend == Backend::Cuda ? QStringLiteral("GPU") : QStringLiteral("CPU"));
        if (!snapshot->notice.empty()) line += QStringLiteral(" — ") + QString::fromStdString(snapshot->notice);
        if (snapshot->difference) line += QStringLiteral(" · ") + kindDifferenceText(*snapshot->difference);
    } else {
        line += tr(": computing…");
    }
    statusBar()->showMessage(line);
}

void MainWindow::updateSweepProgress() {
    const auto latest = session_->latest(session::RequestKind::Sweep);
    const auto wanted = session_->requestFor(session::RequestKind::Sweep);
    const bool exactIn = latest && wanted && !latest->isPreview() && session::answers(*latest, *wanted);
    const bool running = isLive(session::RequestKind::Sweep) && !session_->isCancelled(session::RequestKind::Sweep) &&
                         wanted && !exactIn && session_->queue().busy();
    progress_->setVisible(running);
    cancel_->setVisible(running);
    if (!running) return;
    const session::RemainingTime& t = session_->sweepProgress();
    const int total = wanted ? std::get<session::SweepParams>(wanted->params).sweep.angles.count : 0;
    progress_->setRange(0, total);
    progress_->setValue(std::min(t.done(), total));
    const auto left = t.secondsLeft();
    // "Sweep 45/180 · about 8 s left"; before the first angles, the coarse preview's stage.
    progress_->setFormat(t.done() == 0 ? tr("Sweep: preview…")
                         : left       ? tr("Sweep %v/%m · about %1 s left").arg(std::max(1, static_cast<int>(std::lround(*left))))
                                      : tr("Sweep %v/%m"));
}

void MainWindow::exportView() {
    const io::ExportRecipe recipe = lessonMode_ ? lessonRecipe()
                                                : recipeOfView(session_->viewOptions().view, viewport_->snapshot().get(),
                                                               viewport_->sweepSnapshot().get(), currentFile_);
    const QString suggested = QString::fromStdString(
        io::exportBaseName(QFileInfo(currentFile_).completeBaseName().toStdString(), recipe));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export view"), suggested + QStringLiteral(".png"),
                                                      tr("PNG (*.png);;TIFF (*.tif *.tiff)"));
    if (path.isEmpty()) return;
    QString error;
    if (!writeView(path, &error)) showError(tr("Cannot export the view"), error);
    else statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)), 5000);
}

bool MainWindow::writeView(const QString& path, QString* error) const {
    try {
        if (lessonMode_) {
            const cv::Mat canvas = lessonCanvasMat();
            io::requireWritable(path.toStdString(), canvas.depth(), canvas.channels());
            io::writeImage(path.toStdString(), canvas, lessonRecipe());
            return true;
        }
        const Plane v = session_->viewOptions().view;
        cv::Mat out;
        if (!session::isSweepPlane(v)) {
            const auto img = v == Plane::Original ? session_->image()
                                                     : (viewport_->snapshot() ? session::hostResult(*viewport_->snapshot()) : nullptr);
            if (!img) throw io::IoError("there is no " + std::string(v == Plane::Original ? "image" : "result") + " yet");
            out = session::matOf(*img);
        } else {
            // An export is the one consumer that needs a whole plane on the host (GPU mode
            // downloads it here, once).
            const auto snap = viewport_->sweepSnapshot();
            if (!snap) throw io::IoError("the sweep has not finished yet");
            // A preview only approximates the sweep: a file must hold the exact planes.
            if (snap->isPreview())
                throw io::IoError("the sweep is still being refined (" + session::previewText(*snap->preview) +
                                  "): export it when it has finished");
            if (v == Plane::Orientation) {
                const auto sweep = session::hostSweep(*snap);
                RgbImage rgb = std::visit([](const auto& s) { return orientationColours(s); }, *sweep);
                cv::cvtColor(cv::Mat(rgb.height, rgb.width, CV_8UC3, rgb.rgb.data()), out, cv::COLOR_RGB2BGR);  // imwrite wants BGR
            } else {
                const auto plane = session::planeOf(*snap, v);
                if (!plane) throw io::IoError("the sweep has not finished yet");
                out = std::visit([](const auto& view) { return io::matOf(view); }, plane->view);
            }
        }
        io::requireWritable(path.toStdString(), out.depth(), out.channels());
        io::writeImage(path.toStdString(), out,
                       recipeOfView(v, viewport_->snapshot().get(), viewport_->sweepSnapshot().get(), currentFile_));
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

void MainWindow::loadSettings() {
    QSettings s;
    restoreGeometry(s.value("window/geometry").toByteArray());
    // A layout saved before the parameters toolbar (version 0) is not restored.
    if (restoreState(s.value("window/state").toByteArray(), kLayoutVersion)) dockSizesPending_ = false;
    if (s.contains("params/angle")) setAngle(s.value("params/angle").toDouble());
    if (s.contains("params/length")) setLength(s.value("params/length").toInt());
    if (s.contains("params/op")) setOperator(static_cast<MorphOp>(s.value("params/op").toInt()));
    if (s.contains("params/line")) {
        try {
            setLineKind(parseLineKind(s.value("params/line").toString().toStdString()));
        } catch (const std::exception&) {  // a name this version does not know: the default stays
        }
    }
    if (s.contains("view/otherLine")) {
        try {
            viewControls_->setOtherKind(parseLineKind(s.value("view/otherLine").toString().toStdString()));
        } catch (const std::exception&) {
        }
    }
    viewControls_->setSnapAngle(s.value("angle/snap", false).toBool());
    if (s.contains("view/kind")) viewControls_->setView(static_cast<Plane>(s.value("view/kind").toInt()));
    if (s.contains("view/compare"))
        viewControls_->setCompareMode(static_cast<CompareMode>(s.value("view/compare").toInt()));
    if (s.contains("sweep/count"))
        viewControls_->setAngleSet(AngleSet{s.value("sweep/start").toDouble(), s.value("sweep/step").toDouble(),
                                            s.value("sweep/count").toInt()});
    viewControls_->setBlend(s.value("orientation/blend", false).toBool(), s.value("orientation/amount", 0.7).toDouble());
    viewControls_->setNeedleStep(s.value("orientation/needles", 0).toInt());
    viewControls_->setGlyphVisible(s.value("view/glyph", true).toBool());
    contourPanel_->setContoursVisible(s.value("contours/visible", false).toBool());
}

void MainWindow::saveSettings() const {
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState(kLayoutVersion));
    const auto& p = session_->parameters();
    s.setValue("params/angle", p.angle);
    s.setValue("params/length", p.length);
    s.setValue("params/op", static_cast<int>(p.op));
    s.setValue("params/line", QString::fromLatin1(lineKindName(p.kind)));
    s.setValue("view/otherLine", QString::fromLatin1(lineKindName(viewControls_->otherKind())));
    s.setValue("angle/snap", viewControls_->snapAngle());
    s.setValue("view/kind", static_cast<int>(viewControls_->view()));
    s.setValue("view/compare", static_cast<int>(viewControls_->compareMode()));
    const AngleSet a = viewControls_->angleSet();
    s.setValue("sweep/start", a.start);
    s.setValue("sweep/step", a.step);
    s.setValue("sweep/count", a.count);
    s.setValue("orientation/blend", viewControls_->blend());
    s.setValue("orientation/amount", viewControls_->blendAmount());
    s.setValue("orientation/needles", viewControls_->needleStep());
    s.setValue("view/glyph", viewControls_->glyphVisible());
    s.setValue("contours/visible", contourPanel_->contoursVisible());
    s.setValue("gpu", viewControls_->gpuChecked());
}

QSize MainWindow::defaultSize(const QRect& availableScreen) {
    return QSize(std::min(1440, availableScreen.width() * 9 / 10), std::min(900, availableScreen.height() * 9 / 10));
}

void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    if (dockSizesPending_) applyDefaultDockSizes();
}

void MainWindow::applyDefaultDockSizes() {
    dockSizesPending_ = false;
    // The spectrum gets 28 % of the height and the viewport the rest; the controls
    // get what they ask for, the contours the rest of the column.
    resizeDocks({spectrumDock_}, {height() * 28 / 100}, Qt::Vertical);
    const auto* scroll = static_cast<const QScrollArea*>(controlsDock_->widget());
    const int column = controlsDock_->height() + contourDock_->height();  // resizeDocks shares it in proportion
    const int title = controlsDock_->height() - scroll->height();
    // Two lines spare: the image's name and size replace "No image" once one is open.
    const int spare = 2 * fontMetrics().lineSpacing();
    const int controls = std::min(scroll->widget()->sizeHint().height() + title + spare, column * 3 / 4);
    resizeDocks({controlsDock_, contourDock_}, {controls, column - controls}, Qt::Vertical);
}

void MainWindow::closeEvent(QCloseEvent* e) {
    setLessonMode(false);  // the docks it put away are saved as they were before it
    if (options_.useSettings) saveSettings();
    QMainWindow::closeEvent(e);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const auto urls = e->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile()) return;
    e->acceptProposedAction();
    openFile(urls.first().toLocalFile());
}

}  // namespace linescope::ui
