// The main window's keys, its Parameters and Help menus, and the cancelled sweep's mark.
// The keys are window-level actions (Qt::WindowShortcut), so they work wherever the focus is
// in the window; a spin box being typed into keeps its digits and "-" (QLineEdit claims
// printable keys through ShortcutOverride). Every key is an action in a menu, so the menus
// and the Keyboard Shortcuts dialog, built from those actions, always list what works.
#include "ui/contour_panel.h"
#include "ui/main_window.h"
#include "ui/view_controls.h"
#include "ui/viewport_widget.h"

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>
#include <initializer_list>

namespace linescope::ui {

namespace {

QAction* addKeyAction(QMenu* menu, const QString& text, std::initializer_list<QKeySequence> keys) {
    QAction* a = menu->addAction(text);
    a->setShortcuts(QList<QKeySequence>(keys));
    a->setShortcutContext(Qt::WindowShortcut);
    return a;
}

// Every action with a shortcut under `menu`, as table rows "menu ▸ item | keys".
void listShortcuts(const QMenu* menu, const QString& path, QString& rows) {
    for (QAction* a : menu->actions()) {
        const QString name = path + QStringLiteral(" ▸ ") + a->text().remove(QLatin1Char('&'));
        if (a->menu()) {
            listShortcuts(a->menu(), name, rows);
            continue;
        }
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText).toHtmlEscaped();
        if (keys.isEmpty()) continue;
        rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(keys.join(QStringLiteral(", ")),
                                                                             name.toHtmlEscaped());
    }
}

}  // namespace

void MainWindow::buildKeys(QMenu* parameters, QMenu* view) {
    // Angle: [ and ] by 1°, with Shift by 10° (Shift+] is "}" on most layouts: both are bound).
    const struct { const char* text; double step; std::initializer_list<QKeySequence> keys; } angleKeys[] = {
        {"Angle −1°", -1, {QKeySequence(Qt::Key_BracketLeft)}},
        {"Angle +1°", 1, {QKeySequence(Qt::Key_BracketRight)}},
        {"Angle −10°", -10, {QKeySequence(Qt::SHIFT | Qt::Key_BracketLeft), QKeySequence(Qt::Key_BraceLeft)}},
        {"Angle +10°", 10, {QKeySequence(Qt::SHIFT | Qt::Key_BracketRight), QKeySequence(Qt::Key_BraceRight)}},
    };
    for (const auto& k : angleKeys)
        connect(addKeyAction(parameters, tr(k.text), k.keys), &QAction::triggered, this,
                [this, step = k.step] { stepAngle(step); });
    parameters->addSeparator();
    // λ: - and + (or =, the unshifted +) by 1; with Shift and the up/down arrows by 10.
    const struct { const char* text; int step; std::initializer_list<QKeySequence> keys; } lengthKeys[] = {
        {"λ −1", -1, {QKeySequence(Qt::Key_Minus)}},
        {"λ +1", 1, {QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)}},
        {"λ −10", -10, {QKeySequence(Qt::SHIFT | Qt::Key_Down)}},
        {"λ +10", 10, {QKeySequence(Qt::SHIFT | Qt::Key_Up)}},
    };
    for (const auto& k : lengthKeys)
        connect(addKeyAction(parameters, tr(k.text), k.keys), &QAction::triggered, this,
                [this, step = k.step] { setLength(session_->parameters().length + step); });
    parameters->addSeparator();
    connect(addKeyAction(parameters, tr("Next &Operator"), {QKeySequence(Qt::Key_O)}), &QAction::triggered, this,
            &MainWindow::cycleOperator);

    // Views 1…6 in the order of the View combo.
    QMenu* views = view->addMenu(tr("&Show View"));
    for (int k = 0; k < kPlaneCount; ++k) {
        const auto v = static_cast<Plane>(k);
        connect(addKeyAction(views, tr(planeName(v)), {QKeySequence(Qt::Key_1 + k)}), &QAction::triggered, this,
                [this, v] { viewControls_->setView(v); });
    }
    connect(addKeyAction(view, tr("Next &Compare Mode"), {QKeySequence(Qt::Key_M)}), &QAction::triggered, this, [this] {
        viewControls_->setCompareMode(static_cast<CompareMode>((static_cast<int>(viewControls_->compareMode()) + 1) % session::kCompareModeCount));
    });
    QAction* contours = addKeyAction(view, tr("Show &Contours"), {QKeySequence(Qt::Key_C)});
    contours->setCheckable(true);
    contours->setChecked(contourPanel_->contoursVisible());
    connect(contours, &QAction::toggled, this, [this](bool on) {
        contourPanel_->setContoursVisible(on);
        if (on) contourDock_->show();  // its threshold and list
    });
    connect(contourPanel_, &ContourPanel::visibleChanged, contours, &QAction::setChecked);
}

void MainWindow::buildHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    shortcutsAction_ = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    shortcutsAction_->setShortcut(QKeySequence(Qt::Key_F1));
    QAction* guide = help->addAction(tr("&User Guide"), this,
                                     [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(options_.userGuide)); });
    guide->setEnabled(!options_.userGuide.isEmpty() && QFileInfo::exists(options_.userGuide));
    help->addAction(tr("&About LineScope"), this, [this] {
        auto* box = new QMessageBox(QMessageBox::Information, tr("About LineScope"),
                                    tr("<b>LineScope %1</b><br>Line morphology: erosions, dilations, openings, "
                                       "closings and top-hats by line segments, their angular sweeps, spectra, "
                                       "skew and contours.")
                                        .arg(QCoreApplication::applicationVersion()),
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();  // not exec(): the UI thread never blocks
    });
}

void MainWindow::showShortcuts() {
    QString rows;
    for (QAction* a : menuBar()->actions())
        if (a->menu()) listShortcuts(a->menu(), a->text().remove(QLatin1Char('&')), rows);
    auto* dialog = new QDialog(this);
    dialog->setObjectName("shortcutsDialog");
    dialog->setWindowTitle(tr("Keyboard Shortcuts"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto* layout = new QVBoxLayout(dialog);
    auto* table = new QLabel(QStringLiteral("<table cellspacing=\"4\">%1</table>").arg(rows), dialog);
    table->setObjectName("shortcutsTable");
    table->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(table);
    layout->addWidget(new QLabel(tr("The keys work anywhere in the window, except digits and − while typing "
                                    "into a box."),
                                 dialog));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    dialog->show();
}

void MainWindow::stepAngle(double degrees) {
    // The half-turn wraps: 179° + 1° is 0°, 0° − 1° is 179°.
    double a = std::fmod(session_->parameters().angle + degrees, 180.0);
    if (a < 0) a += 180.0;
    moveAngle(a, false);  // snapped to the next distinct segment when that is on
}

void MainWindow::cycleOperator() { opCombo_->setCurrentIndex((opCombo_->currentIndex() + 1) % opCombo_->count()); }

void MainWindow::updateSweepMark() {
    if (!sweepStale_) return;  // still building
    const bool stale = session_->isCancelled(session::RequestKind::Sweep);
    recompute_->setEnabled(stale);
    if (stale) {
        const auto snap = viewport_->sweepSnapshot();
        // What the sweep views keep showing: a sweep of other parameters, or a preview.
        const QString preview =
            snap && snap->preview ? QStringLiteral(" (%1)").arg(QString::fromStdString(session::previewText(*snap->preview)))
                                  : QString();
        sweepStale_->setText(
            snap ? tr("Sweep cancelled: showing λ = %1%2 —")
                       .arg(std::get<session::SweepParams>(snap->request.params).sweep.length)
                       .arg(preview)
                 : tr("Sweep cancelled: nothing computed —"));
    }
    sweepStale_->setVisible(stale);
    recomputeButton_->setVisible(stale);
}

}  // namespace linescope::ui
