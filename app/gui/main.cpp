// linescope: the desktop application. Opens the files named on the command line (the first).
#include "ui/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QSurfaceFormat>

namespace {

// The Samples menu's folder: $LINESCOPE_SAMPLES_DIR, <prefix>/share/linescope/samples beside
// an installed binary, else the source tree's resources/samples.
QString samplesDir() {
    const QString env = qEnvironmentVariable("LINESCOPE_SAMPLES_DIR");
    if (!env.isEmpty()) return env;
    const QString installed = QDir(QCoreApplication::applicationDirPath()).absoluteFilePath("../share/linescope/samples");
    if (QFileInfo(installed).isDir()) return QDir::cleanPath(installed);
    return QStringLiteral(LINESCOPE_SOURCE_SAMPLES_DIR);
}

}  // namespace

int main(int argc, char** argv) {
    // The viewport needs OpenGL 3.3 core; set it as the default before any context exists.
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    QSurfaceFormat::setDefaultFormat(format);

    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("LineScope");
    QCoreApplication::setApplicationName("LineScope");
    QCoreApplication::setApplicationVersion(LINESCOPE_VERSION);

    QCommandLineParser parser;
    parser.setApplicationDescription("Linear morphology: erosion, dilation, opening, closing and top-hat by line segments.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("image", "An image to open.", "[image]");
    parser.process(app);

    linescope::ui::MainWindow::Options options;
    options.samplesDir = samplesDir();
    linescope::ui::MainWindow window(options);
    window.show();
    if (!parser.positionalArguments().isEmpty()) window.openFile(parser.positionalArguments().first());
    return app.exec();
}
