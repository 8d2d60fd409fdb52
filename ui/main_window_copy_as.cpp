// Edit > Copy as Python and Copy as Command Line: the window's state gathered for copy_as.h,
// whose text goes on the clipboard.
#include "ui/copy_as.h"
#include "ui/main_window.h"
#include "ui/view_controls.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>

#include <variant>

namespace linescope::ui {

namespace {

CopyAsState copyAsState(const session::Session& session, const QString& file, session::Plane view, bool contours) {
    CopyAsState state;
    state.file = file.toStdString();
    const auto image = session.image();
    state.floatPixels = image && std::holds_alternative<Image<float>>(*image);
    state.params = session.parameters();
    state.view = view;
    state.contours = contours;
    state.contourSource = session.contourSource();
    state.deskewed = session.modified();
    return state;
}

}  // namespace

void MainWindow::buildCopyAsActions(QMenu* edit) {
    edit->addSeparator();
    const auto copy = [this](std::string (*text)(const CopyAsState&)) {
        const CopyAsState state =
            copyAsState(*session_, currentFile_, viewControls_->view(), isLive(session::RequestKind::Contours));
        QGuiApplication::clipboard()->setText(QString::fromStdString(text(state)));
    };
    QAction* python = edit->addAction(tr("Copy as &Python"), this, [copy] { copy(copyAsPython); });
    QAction* command = edit->addAction(tr("Copy as &Command Line"), this, [copy] { copy(copyAsCommandLine); });
    python->setObjectName("copyAsPython");
    command->setObjectName("copyAsCommandLine");
    for (QAction* a : {python, command}) {
        a->setEnabled(false);
        connect(session_.get(), &session::Session::imageChanged, a, [a] { a->setEnabled(true); });
    }
}

}  // namespace linescope::ui
