#include "app/gui/opengl_check.h"

#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QSurfaceFormat>

namespace linescope::gui {

QString openGlProblem() {
    const QString platform = QGuiApplication::platformName();
    QOpenGLContext context;
    context.setFormat(QSurfaceFormat::defaultFormat());
    if (!context.create())
        return QStringLiteral("the window system (Qt platform \"%1\") gives no OpenGL context").arg(platform);
    QOffscreenSurface surface;
    surface.setFormat(context.format());
    surface.create();
    if (!surface.isValid() || !context.makeCurrent(&surface))
        return QStringLiteral("an OpenGL context could not be made current (Qt platform \"%1\")").arg(platform);
    const QSurfaceFormat got = context.format();
    context.doneCurrent();
    if (got.version() < qMakePair(3, 3))
        return QStringLiteral("the OpenGL driver offers version %1.%2; the viewport needs 3.3")
            .arg(got.majorVersion())
            .arg(got.minorVersion());
    return {};
}

}  // namespace linescope::gui
