// The main window as the GUI suites build it: the CPU engine, the bundled samples, no
// settings read or written (unless asked), no GPU, a size that fits the test screen.
#pragma once

#include "ui/main_window.h"

#include <QString>

#include <functional>
#include <memory>

namespace linescope::test {

// `engine` adjusts the engine's options (e.g. progressive sweeps on a small image).
inline std::unique_ptr<ui::MainWindow> makeTestWindow(
    const QString& samplesDir, bool useSettings = false,
    const std::function<void(session::EngineQueue::Options&)>& engine = {}) {
    ui::MainWindow::Options options;
    options.engine.engine.backend = Backend::Cpu;
    if (engine) engine(options.engine);
    options.samplesDir = samplesDir;
    options.useSettings = useSettings;
    options.preferGpu = false;
    auto w = std::make_unique<ui::MainWindow>(options);
    w->resize(1200, 800);
    return w;
}

}  // namespace linescope::test
