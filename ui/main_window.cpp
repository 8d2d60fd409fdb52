#include "ui/main_window.h"

#include "ui/viewport_widget.h"

#include <QAction>
#include <QComboBox>
#include <QDial>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace linescope::ui {

namespace {

constexpr int kMaxRecent = 8;

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

}  // namespace

MainWindow::MainWindow(const Options& options, QWidget* parent)
    : QMainWindow(parent), options_(options),
      session_(std::make_unique<session::Session>(options.engine)) {
    setWindowTitle(QStringLiteral("LineScope"));
    setAcceptDrops(true);
    // Only the Result view is shown so far: the other views are not computed, so a slider
    // drag never waits behind a sweep.
    session_->setLive(session::RequestKind::Sweep, false);
    session_->setLive(session::RequestKind::Contours, false);
    session_->setLive(session::RequestKind::Skew, false);

    viewport_ = new ViewportWidget(this);
    setCentralWidget(viewport_);
    connect(viewport_, &ViewportWidget::glFailed, this,
            [this](const QString& m) { statusBar()->showMessage(tr("OpenGL: %1").arg(m)); });

    if (options_.useSettings) recent_ = QSettings().value("recentFiles").toStringList();
    buildControls();
    buildMenus();

    connect(session_.get(), &session::Session::snapshotReady, this, &MainWindow::onSnapshot);
    connect(session_.get(), &session::Session::notice, this,
            [this](const QString& line) { statusBar()->showMessage(line, 10000); });
    statusBar()->showMessage(session_->queue().lastBackendNotice().isEmpty()
                                 ? tr("Open an image (File > Open, drag and drop, or Samples)")
                                 : session_->queue().lastBackendNotice());
    resize(1100, 800);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildControls() {
    auto* dock = new QDockWidget(tr("Controls"), this);
    dock->setObjectName("controlsDock");
    auto* panel = new QWidget(dock);
    auto* form = new QFormLayout(panel);

    opCombo_ = new QComboBox(panel);
    for (const auto& e : kOps) opCombo_->addItem(tr(e.label), static_cast<int>(e.op));
    opCombo_->setCurrentIndex(opCombo_->findData(static_cast<int>(session_->parameters().op)));
    form->addRow(tr("Operator"), opCombo_);

    angleSlider_ = new QSlider(Qt::Horizontal, panel);
    angleSlider_->setRange(0, kAngleSteps);
    angleSlider_->setSingleStep(1);   // arrow keys: 0.1°
    angleSlider_->setPageStep(50);    // page keys: 5°
    angleDial_ = new QDial(panel);
    angleDial_->setRange(0, kAngleSteps);
    angleDial_->setWrapping(true);
    angleDial_->setNotchesVisible(true);
    angleDial_->setNotchTarget(15);
    angleDial_->setFixedSize(72, 72);
    angleSpin_ = new QDoubleSpinBox(panel);
    angleSpin_->setRange(0, 180);
    angleSpin_->setDecimals(1);
    angleSpin_->setSingleStep(0.1);
    angleSpin_->setSuffix(QStringLiteral("°"));
    auto* angleRow = new QHBoxLayout;
    angleRow->addWidget(angleSlider_, 1);
    angleRow->addWidget(angleDial_);
    angleRow->addWidget(angleSpin_);
    form->addRow(tr("Angle"), angleRow);

    lengthSlider_ = new QSlider(Qt::Horizontal, panel);
    lengthSlider_->setRange(1, kMaxLength);
    lengthSlider_->setPageStep(10);
    lengthSpin_ = new QSpinBox(panel);
    lengthSpin_->setRange(1, kMaxLength);
    lengthSpin_->setPrefix(QStringLiteral("λ = "));
    auto* lengthRow = new QHBoxLayout;
    lengthRow->addWidget(lengthSlider_, 1);
    lengthRow->addWidget(lengthSpin_);
    form->addRow(tr("Length"), lengthRow);

    imageLabel_ = new QLabel(tr("No image"), panel);
    imageLabel_->setWordWrap(true);
    form->addRow(imageLabel_);

    dock->setWidget(panel);
    addDockWidget(Qt::RightDockWidgetArea, dock);

    setAngle(session_->parameters().angle);
    setLength(session_->parameters().length);

    connect(angleSlider_, &QSlider::valueChanged, this, [this](int v) { setAngle(v / 10.0); });
    connect(angleDial_, &QDial::valueChanged, this, [this](int v) { setAngle(v / 10.0); });
    connect(angleSpin_, &QDoubleSpinBox::valueChanged, this, [this](double v) { setAngle(v); });
    connect(lengthSlider_, &QSlider::valueChanged, this, [this](int v) { setLength(v); });
    connect(lengthSpin_, &QSpinBox::valueChanged, this, [this](int v) { setLength(v); });
    connect(opCombo_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0) setOperator(static_cast<MorphOp>(opCombo_->itemData(i).toInt()));
    });
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
}

void MainWindow::setLength(int length) {
    length = std::clamp(length, 1, kMaxLength);
    {
        const QSignalBlocker a(lengthSlider_), b(lengthSpin_);
        lengthSlider_->setValue(length);
        lengthSpin_->setValue(length);
    }
    session_->setLength(length);
}

void MainWindow::setOperator(MorphOp op) {
    {
        const QSignalBlocker a(opCombo_);
        opCombo_->setCurrentIndex(opCombo_->findData(static_cast<int>(op)));
    }
    session_->setOp(op);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    samplesMenu_ = menuBar()->addMenu(tr("&Samples"));
    fillSamplesMenu();

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* fit = view->addAction(tr("Zoom to &Fit"), viewport_, &ViewportWidget::zoomToFit);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction* one = view->addAction(tr("Zoom &1:1"), viewport_, &ViewportWidget::zoomOneToOne);
    one->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
}

void MainWindow::fillSamplesMenu() {
    samplesMenu_->clear();
    const QDir dir(options_.samplesDir);
    const QStringList names =
        options_.samplesDir.isEmpty() ? QStringList{} : dir.entryList({"*.png"}, QDir::Files, QDir::Name);
    for (const QString& name : names) {
        const QString path = dir.absoluteFilePath(name);
        samplesMenu_->addAction(QFileInfo(name).completeBaseName(), this, [this, path] { openFile(path); });
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
        tr("Images (*.png *.tif *.tiff *.jpg *.jpeg *.bmp *.pgm *.pnm *.exr);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
}

bool MainWindow::openFile(const QString& path) {
    QString error;
    if (!session_->openImage(path, &error)) {
        showError(tr("Cannot open image"),
                  tr("%1 could not be opened:\n%2").arg(QDir::toNativeSeparators(path), error));
        return false;
    }
    currentFile_ = path;
    addRecent(path);
    const auto img = session_->image();
    imageLabel_->setText(tr("%1\n%2 × %3")
                             .arg(QFileInfo(path).fileName())
                             .arg(session::widthOf(*img))
                             .arg(session::heightOf(*img)));
    setWindowTitle(tr("%1 — LineScope").arg(QFileInfo(path).fileName()));
    return true;
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
    if (kind != session::RequestKind::Result || !snapshot) return;
    if (!snapshot->ok()) {
        statusBar()->showMessage(tr("Engine: %1").arg(QString::fromStdString(snapshot->error)));
        return;
    }
    viewport_->showSnapshot(snapshot);
    const auto& p = std::get<session::ResultParams>(snapshot->request.params);
    QString line = tr("%1 at %2°, λ = %3: %4 ms on the %5")
                       .arg(QString::fromLatin1(morphOpName(p.op)))
                       .arg(p.line.angle, 0, 'f', 1)
                       .arg(p.line.length)
                       .arg(snapshot->timings.compute, 0, 'f', 1)
                       .arg(snapshot->backend == Backend::Cuda ? QStringLiteral("GPU") : QStringLiteral("CPU"));
    if (!snapshot->notice.empty()) line += QStringLiteral(" — ") + QString::fromStdString(snapshot->notice);
    statusBar()->showMessage(line);
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
