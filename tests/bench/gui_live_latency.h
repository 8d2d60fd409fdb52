// The whole window kept live on a big image (issue 20, item 10): after each change of λ, the
// operator, the angle set or the angle, the time until every open view has drawn a complete
// frame for the new value (a sweep preview counts: it is complete and marked as one), and the
// time until the exact sweep is in. Screenshots of a preview and of the final state.
#pragma once

#include <QString>

namespace linescope::ui {
class MainWindow;
}

namespace linescope::bench {

// Runs `changes` changes of each kind in the Orientation view and in the Result view (with
// the spectrum dock open), printing a Markdown table of p50/p95/max ms per kind.
void measureLiveWindow(ui::MainWindow& w, int changes);

// Saves OUTDIR/progressive-preview-WxH.png (the first preview after a λ change) and
// OUTDIR/progressive-final-WxH.png (the exact sweep) at the window size w × h.
void shootProgressiveSweep(ui::MainWindow& window, int w, int h, const QString& outDir);

}  // namespace linescope::bench
