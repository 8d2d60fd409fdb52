#include "app/gui/opengl_check.h"

#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QStringList>
#include <QSurfaceFormat>

namespace linescope::gui {

QString openGlProblem() {
    const QString platform = QGuiApplication::platformName();
    // Qt's raster-only platforms may hand out an OpenGL context (offscreen does under X11) but
    // cannot compose an OpenGL widget into the window: Qt 6.4 then crashes in its flush.
    // Whether a platform can is private Qt API (RasterGLSurface), so they are named here.
    static const QStringList rasterOnly{"offscreen", "minimal", "linuxfb", "vnc"};
    if (rasterOnly.contains(platform))
        return QStringLiteral("the Qt platform \"%1\" cannot show OpenGL widgets (use xcb or wayland)").arg(platform);
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
