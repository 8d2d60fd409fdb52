// The Task menu and the Samples menu's recipes: MainWindow applies a task_recipes.h recipe
// through the same setters as the launch options, and warns in the status bar while the
// operator does not fit the image's polarity.
#include "ui/contour_panel.h"
#include "ui/main_window.h"
#include "ui/view_controls.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>

namespace linescope::ui {

void MainWindow::buildTaskMenu() {
    taskMenu_ = menuBar()->addMenu(tr("&Task"));
    for (const Task task : kTasks) taskMenu_->addAction(taskTitle(task), this, [this, task] { applyTask(task); });
}

void MainWindow::openSample(const QString& path) {
    pendingTask_ = taskForSample(QFileInfo(path).completeBaseName());
    pendingTaskPath_ = path;
    openFile(path);
}

void MainWindow::applyTask(Task task) {
    const auto img = session_->image();
    const TaskRecipe r = recipeFor(task, img ? session::widthOf(*img) : 0, img ? session::heightOf(*img) : 0,
                                   imageIsLight_);
    setOperator(r.op);
    setLength(r.length);
    if (r.angle) setAngle(*r.angle);
    ViewControls& controls = *viewControls_;
    controls.setAngleSet(r.angles);
    controls.setView(r.view);
    controls.setCompareMode(r.compare);
    controls.setBlend(r.blend, r.blendAmount);
    controls.setNeedleStep(r.needleStep);
    controls.setGlyphVisible(r.glyph);
    contourPanel_->setContoursVisible(r.contours);
    spectrumDock_->setVisible(r.showSpectrumDock);
    contourDock_->setVisible(r.showContourDock);
    // A fingerprint's orientation is inspected in the workbench; the other tasks use the viewport.
    setFieldWorkbenchMode(task == Task::FingerprintOrientation);
}

void MainWindow::updatePolarityWarning() {
    // The workbench's field reads openings and closings alike: no operator to warn about.
    const QString line =
        session_->image() && !fieldMode_ ? polarityWarning(session_->parameters().op, imageIsLight_) : QString();
    polarity_->setText(line);
    polarity_->setVisible(!line.isEmpty());
}

}  // namespace linescope::ui
