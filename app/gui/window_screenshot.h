// Saves the main window as a PNG once the engine has nothing left to compute and the viewport
// has drawn the newest result, then quits the application with 0 (saved) or 1 (not saved, the
// image could not be opened, the engine could not compute the shown view, or nothing settled
// within the time limit), the reason on stderr. It polls on a timer: the UI thread never waits.
//
// Thread: UI thread.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

namespace linescope::ui {
class MainWindow;
}

namespace linescope::gui {

class WindowScreenshot : public QObject {
    Q_OBJECT
public:
    WindowScreenshot(ui::MainWindow& window, QString path, int timeoutMs = 180000);

private:
    void poll();
    bool settled() const;
    QString shownViewError() const;
    void finish(int exitCode, const QString& message);

    ui::MainWindow& window_;
    QString path_;
    int timeoutMs_;
    int quietPolls_ = 0;  // consecutive polls with nothing to compute
    QTimer timer_;
    QElapsedTimer clock_;
};

}  // namespace linescope::gui
