#include "app/gui/window_screenshot.h"

#include "ui/field_workbench_panel.h"

#include "ui/lesson_panel.h"
#include "ui/main_window.h"
#include "ui/view_controls.h"
#include "ui/viewport_widget.h"

#include <QCoreApplication>
#include <QPixmap>
#include <QSaveFile>

#include <cstdio>

namespace linescope::gui {

namespace {
constexpr int kPollMs = 150;
// The docks and the overlay update on the snapshot after the one that ends the work, so the
// engine must stay idle for a few polls before the window is taken.
constexpr int kQuietPollsNeeded = 4;
}  // namespace

WindowScreenshot::WindowScreenshot(ui::MainWindow& window, QString path, int timeoutMs)
    : QObject(&window), window_(window), path_(std::move(path)), timeoutMs_(timeoutMs) {
    clock_.start();
    connect(&window.session(), &session::Session::openFailed, this,
            [this](const QString&, const QString& error) { finish(1, QStringLiteral("%1 (no screenshot)").arg(error)); });
    connect(&timer_, &QTimer::timeout, this, &WindowScreenshot::poll);
    timer_.start(kPollMs);
}

bool WindowScreenshot::settled() const {
    auto& session = window_.session();
    if (!session.image() || session.queue().busy()) return false;
    // The lesson mode shows its own snapshot (the viewport is put away).
    if (window_.lessonMode()) {
        const auto lesson = session.latest(session::RequestKind::Lesson);
        return lesson && lesson->ok() && lesson->request.image == session.image() &&
               window_.lessonPanel()->view()->shownLessonId() == lesson->id;
    }
    // The orientation-field workbench paints its own snapshot in both panes.
    if (window_.fieldWorkbenchMode()) {
        const auto field = session.latest(session::RequestKind::Field);
        const ui::FieldWorkbenchPanel& panel = *window_.fieldWorkbenchPanel();
        return field && field->ok() && field->request.image == session.image() &&
               panel.leftPane()->shownId() == field->id && panel.rightPane()->shownId() == field->id;
    }
    // The shown view's newest snapshot must be the one the viewport has drawn (on either
    // path: the GPU path draws the session's device planes).
    const ui::ViewportWidget& viewport = *window_.viewport();
    switch (session.viewOptions().view) {
    case ui::Plane::Original: return true;
    case ui::Plane::Result: {
        const auto result = session.latest(session::RequestKind::Result);
        return result && viewport.shownResultId() == result->id;
    }
    case ui::Plane::Supremum:
    case ui::Plane::Infimum:
    case ui::Plane::Orientation:
    case ui::Plane::Strength: {
        const auto sweep = session.latest(session::RequestKind::Sweep);
        return sweep && viewport.shownSweepId() == sweep->id;
    }
    }
    return false;
}

// Why the engine could not compute the shown view, once it has nothing left to do ("" : no
// failure): such a view is never drawn, so the run ends at once instead of at the time limit.
QString WindowScreenshot::shownViewError() const {
    auto& session = window_.session();
    const ui::Plane view = session.viewOptions().view;
    if (!session.image() || session.queue().busy() || view == ui::Plane::Original)
        return {};
    const auto snap = session.latest(view == ui::Plane::Result ? session::RequestKind::Result : session::RequestKind::Sweep);
    if (!snap || snap->ok() || snap->request.image != session.image()) return {};
    return QStringLiteral("the %1 view could not be computed: %2 (no screenshot)")
        .arg(QString::fromLatin1(ui::planeName(view)).toLower(), QString::fromStdString(snap->error));
}

void WindowScreenshot::poll() {
    if (const QString error = shownViewError(); !error.isEmpty()) return finish(1, error);
    quietPolls_ = settled() ? quietPolls_ + 1 : 0;
    if (quietPolls_ >= kQuietPollsNeeded) {
        const QPixmap shot = window_.grab();
        // QSaveFile: a temporary file renamed over path_ when complete, so a failed run never
        // leaves a truncated screenshot where the previous one was.
        QSaveFile file(path_);
        if (shot.isNull() || !file.open(QIODevice::WriteOnly) || !shot.save(&file, "PNG") || !file.commit())
            finish(1, QStringLiteral("could not write the screenshot %1%2")
                          .arg(path_, file.error() == QFileDevice::NoError ? QString() : ": " + file.errorString()));
        else
            finish(0, QStringLiteral("screenshot %1 (%2x%3)").arg(path_).arg(shot.width()).arg(shot.height()));
    } else if (clock_.elapsed() > timeoutMs_) {
        finish(1, QStringLiteral("the views were not all computed within %1 s: no screenshot").arg(timeoutMs_ / 1000));
    }
}

void WindowScreenshot::finish(int exitCode, const QString& message) {
    timer_.stop();
    std::fprintf(exitCode == 0 ? stdout : stderr, "%s%s\n", exitCode == 0 ? "" : "linescope: error: ",
                 qPrintable(message));
    std::fflush(nullptr);
    QCoreApplication::exit(exitCode);
}

}  // namespace linescope::gui
