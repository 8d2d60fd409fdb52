// linescope: the desktop application. `linescope [options] [image]`: launch_options.h lists
// what the command line sets; --screenshot saves the drawn window and quits (scripts, docs,
// the package check).
#include "app/gui/launch_options.h"
#include "app/gui/opengl_check.h"
#include "app/gui/window_screenshot.h"
#include "app/io/memory_budget.h"
#include "ui/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QMessageBox>
#include <QSurfaceFormat>

#include <cstdio>

namespace {

constexpr const char* kAppId = "io.github.linescope.LineScope";  // the .desktop file's and icon's name

// The Samples menu's folder: $LINESCOPE_SAMPLES_DIR, <prefix>/share/linescope/samples beside
// an installed binary, else the source tree's resources/samples.
QString samplesDir() {
    const QString env = qEnvironmentVariable("LINESCOPE_SAMPLES_DIR");
    if (!env.isEmpty()) return env;
    const QString installed = QDir(QCoreApplication::applicationDirPath()).absoluteFilePath("../share/linescope/samples");
    if (QFileInfo(installed).isDir()) return QDir::cleanPath(installed);
    return QStringLiteral(LINESCOPE_SOURCE_SAMPLES_DIR);
}

// Help > User guide: the installed <prefix>/share/doc/linescope/user-guide.md, else the
// source tree's docs/user-guide.md.
QString userGuide() {
    const QString installed =
        QDir(QCoreApplication::applicationDirPath()).absoluteFilePath("../share/doc/linescope/user-guide.md");
    if (QFileInfo::exists(installed)) return QDir::cleanPath(installed);
    return QStringLiteral(LINESCOPE_SOURCE_USER_GUIDE);
}

void setApplicationNames() {
    QCoreApplication::setOrganizationName("LineScope");
    QCoreApplication::setApplicationName("LineScope");
    QCoreApplication::setApplicationVersion(LINESCOPE_VERSION);
}

bool haveDisplay() {
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
           !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

int fail(int status, const QString& message) {
    std::fprintf(stderr, "linescope: error: %s\n", qPrintable(message));
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    // Before any thread exists: it sets an environment variable (images are decoded on workers).
    linescope::io::limitDecoderPixelsToBudget();
    // The command line is read before any window system is touched, so that --help, --version
    // and mistakes answer on a machine without a display.
    linescope::gui::LaunchOptions launch;
    {
        QCoreApplication probe(argc, argv);
        setApplicationNames();
        QCommandLineParser parser;
        linescope::gui::addLaunchOptions(parser);
        if (!parser.parse(probe.arguments())) return fail(2, parser.errorText() + " (see linescope --help)");
        if (parser.isSet("help")) {
            std::fputs(qPrintable(parser.helpText()), stdout);
            return 0;
        }
        if (parser.isSet("version")) {
            std::printf("LineScope %s\n", LINESCOPE_VERSION);
            return 0;
        }
        QString error;
        const auto options = linescope::gui::readLaunchOptions(parser, &error);
        if (!options) return fail(2, error + " (see linescope --help)");
        launch = *options;
    }
    if (!haveDisplay())
        return fail(1, "no display (DISPLAY and WAYLAND_DISPLAY are unset): run it on a desktop, under xvfb-run, "
                       "or use linescope-cli");

    // The viewport needs OpenGL 3.3 core; set it as the default before any context exists.
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    QSurfaceFormat::setDefaultFormat(format);

    QApplication app(argc, argv);
    setApplicationNames();
    QGuiApplication::setDesktopFileName(kAppId);
    QApplication::setWindowIcon(QIcon::fromTheme(kAppId, QIcon(":/icons/io.github.linescope.LineScope.png")));
    if (const QString problem = linescope::gui::openGlProblem(); !problem.isEmpty()) {
        const QString text = QStringLiteral("LineScope's viewport needs OpenGL 3.3 in a window, but %1. Run it in a "
                                            "desktop session (X11 or Wayland) with a graphics driver or Mesa's "
                                            "(libgl1-mesa-dri), or use linescope-cli.")
                                 .arg(problem);
        if (launch.screenshot.isEmpty()) QMessageBox::critical(nullptr, QStringLiteral("LineScope"), text);
        return fail(1, text);
    }

    const bool screenshot = !launch.screenshot.isEmpty();
    linescope::ui::MainWindow::Options options;
    options.samplesDir = samplesDir();
    options.userGuide = userGuide();
    options.engine.engine.backend = launch.backend;
    options.preferGpu = launch.backend != linescope::Backend::Cpu;
    options.useSettings = !screenshot;  // a scripted run neither reads nor changes the user's settings
    linescope::ui::MainWindow window(options);
    const QString notice = window.session().queue().lastBackendNotice();
    if (!notice.isEmpty()) std::fprintf(stderr, "linescope: %s\n", qPrintable(notice));
    linescope::gui::applyLaunchOptions(window, launch);
    window.show();
    // Read in the background: a file that cannot be opened shows a dialog, or with
    // --screenshot ends the run with its reason.
    if (screenshot) new linescope::gui::WindowScreenshot(window, launch.screenshot);
    if (!launch.image.isEmpty()) window.openFile(launch.image);
    return app.exec();
}
