// The main window's orientation-field workbench (issue 21): its panel in the centre, the View
// menu's toggle, and what the mode puts away and gives back.
#include "ui/main_window.h"

#include "ui/field_workbench_panel.h"
#include "ui/viewport_widget.h"

#include <QAction>
#include <QDockWidget>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>

namespace linescope::ui {

void MainWindow::buildFieldWorkbench() {
    field_ = new FieldWorkbenchPanel(centre_);
    field_->follow(*session_);
    centre_->addWidget(field_);

    fieldAction_ = new QAction(tr("Orientation-Field &Workbench"), this);
    fieldAction_->setObjectName("fieldWorkbenchAction");
    fieldAction_->setCheckable(true);
    fieldAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W));
    fieldAction_->setToolTip(tr("Inspect a fingerprint's orientation field: needles, coherence, mask, cores and "
                                "deltas, beside the structure tensor (Ctrl+Shift+W)"));
    connect(fieldAction_, &QAction::toggled, this, &MainWindow::setFieldWorkbenchMode);
    connect(field_->workbench(), &FieldWorkbench::changed, this, [this] {
        if (fieldMode_) updateFieldStatus();
    });
}

void MainWindow::updateFieldStatus() {
    const auto s = field_->workbench()->shown();
    if (!s || !s->field) {
        statusBar()->showMessage(session_->image() ? tr("Orientation field: computing…") : QString());
        return;
    }
    const OrientationField& f = s->field->field;
    statusBar()->showMessage(tr("Orientation field: %1×%1-pixel blocks, λ = %2: %3 ms on the %4 (with the tensor %5 ms)")
                                 .arg(f.blockSize)
                                 .arg(f.length)
                                 .arg(s->field->fieldMs, 0, 'f', 0)
                                 .arg(s->backend == Backend::Cuda ? QStringLiteral("GPU") : QStringLiteral("CPU"))
                                 .arg(s->timings.compute, 0, 'f', 0));
}

void MainWindow::setFieldWorkbenchMode(bool on) {
    if (on == fieldMode_) return;
    if (on && lessonMode_) setLessonMode(false);
    fieldMode_ = on;
    {
        const QSignalBlocker block(fieldAction_);
        fieldAction_->setChecked(on);
    }
    if (on) {
        beforeField_ = {controlsDock_->isVisible(), spectrumDock_->isVisible(), contourDock_->isVisible(),
                        granulometryDock_->isVisible()};
        // The workbench has its own controls; the docks would take the panes' room.
        for (QDockWidget* d : {controlsDock_, spectrumDock_, contourDock_, granulometryDock_}) d->hide();
        // The operator, angle and λ of the viewport's views do not act on the field.
        if (auto* bar = findChild<QToolBar*>("parametersToolBar")) bar->hide();
        centre_->setCurrentWidget(field_);
    } else {
        centre_->setCurrentWidget(viewport_);
        if (auto* bar = findChild<QToolBar*>("parametersToolBar")) bar->show();
        controlsDock_->setVisible(beforeField_.controls);
        spectrumDock_->setVisible(beforeField_.spectrum);
        contourDock_->setVisible(beforeField_.contours);
        granulometryDock_->setVisible(beforeField_.granulometry);
    }
    updatePolarityWarning();
    pushViewOptions();  // the session computes the field only in this mode
    updateResultStatus();
}

}  // namespace linescope::ui
