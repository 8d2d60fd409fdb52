// Whether the window system gives the OpenGL the viewport needs (3.3 core), asked before the
// main window exists: without it Qt's QOpenGLWidget can crash (Qt 6.4 on platforms without
// OpenGL, such as "offscreen"), and the user would see nothing useful.
//
// Thread: UI thread, after the QGuiApplication exists.
#pragma once

#include <QString>

namespace linescope::gui {

// "" when an OpenGL 3.3 core context can be created and made current; otherwise one line
// saying what is missing.
QString openGlProblem();

}  // namespace linescope::gui
