// The live-window measurements: a change, then the event loop until every open view shows
// the new parameters (answers() against Session::requestFor, painted by the viewport).
#include "tests/bench/gui_live_latency.h"

#include "tests/bench/latency_support.h"

#include "app/session/shown_state.h"
#include "ui/main_window.h"
#include "ui/spectrum_panel.h"
#include "ui/view_controls.h"
#include "ui/viewport_widget.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QSlider>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace linescope::bench {

namespace {

using session::RequestKind;

bool answersNow(const ui::MainWindow& w, const session::SnapshotPtr& s, RequestKind kind) {
    const auto wanted = const_cast<ui::MainWindow&>(w).session().requestFor(kind);
    return s && wanted && session::answers(*s, *wanted);
}

// Every open view shows the current parameters: the viewport's plane painted, the spectrum.
bool complete(ui::MainWindow& w) {
    const ui::ViewportWidget* v = w.viewport();
    if (v->view() == ui::Plane::Result) {
        const auto s = v->snapshot();
        if (!answersNow(w, s, RequestKind::Result) || v->shownResultId() != s->id) return false;
    } else if (session::isSweepPlane(v->view())) {
        const auto s = v->sweepSnapshot();
        if (!answersNow(w, s, RequestKind::Sweep) || v->shownSweepId() != s->id) return false;
    }
    if (w.spectrumDock()->isVisible() && !answersNow(w, w.spectrumPanel()->shownSweep(), RequestKind::Sweep)) return false;
    return true;
}

bool exactIn(ui::MainWindow& w) {
    const auto s = w.session().latest(RequestKind::Sweep);
    return answersNow(w, s, RequestKind::Sweep) && !s->isPreview();
}

// Milliseconds from `change` until `done`, or -1 after a minute.
double timeUntil(const std::function<void()>& change, const std::function<bool()>& done) {
    QElapsedTimer t;
    t.start();
    change();
    // qWait sleeps between event batches: a loop around processEvents alone would keep one
    // of the two cores busy and slow the engine it measures.
    while (!done()) {
        QTest::qWait(2);
        if (t.elapsed() > 60000) return -1;
    }
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

void row(const std::string& what, const std::vector<double>& ms) {
    std::vector<double> ok;
    for (double m : ms)
        if (m >= 0) ok.push_back(m);
    if (ok.empty()) return;
    const std::size_t timedOut = ms.size() - ok.size();
    std::printf("| %s | %zu | %.0f | %.0f | %.0f |", what.c_str(), ok.size(), percentile(ok, 0.5), percentile(ok, 0.95),
                *std::max_element(ok.begin(), ok.end()));
    if (timedOut) std::printf(" %zu timed out", timedOut);
    std::printf("\n");
    std::fflush(stdout);
}

// Waits a while between changes, so that they land at every stage of the refinement (the
// coarse preview, a pass, a merge) as a user's pauses do.
void dwell(int i) {
    static const int kDwellMs[] = {0, 250, 700, 1500, 120, 3000, 400};
    QTest::qWait(kDwellMs[i % 7]);
}

}  // namespace

void measureLiveWindow(ui::MainWindow& w, int changes) {
    w.spectrumDock()->show();
    w.contourDock()->show();
    w.setAngle(30);
    w.setLength(21);
    w.setOperator(MorphOp::Open);
    std::printf("\n| change (whole window, %dx%d, CPU), first complete frame of every open view | changes | p50 ms | "
                "p95 ms | max ms |\n|---|---:|---:|---:|---:|\n",
                session::widthOf(*w.session().image()), session::heightOf(*w.session().image()));

    auto complete_ = [&] { return complete(w); };
    for (ui::Plane view : {ui::Plane::Orientation, ui::Plane::Result}) {
        w.viewControls()->setView(view);
        (void)timeUntil([] {}, complete_);
        const std::string in = view == ui::Plane::Result ? " (Result view + spectrum)" : " (Orientation view + spectrum)";
        std::vector<double> length, op, angles, angle;
        for (int i = 0; i < changes; ++i) {
            length.push_back(timeUntil([&] { w.lengthSlider()->setValue(w.lengthSlider()->value() == 41 ? 21 : 41 - i % 7); }, complete_));
            dwell(i);
        }
        for (int i = 0; i < changes; ++i) {
            op.push_back(timeUntil([&] { w.setOperator(i % 2 ? MorphOp::Open : MorphOp::Close); }, complete_));
            dwell(i + 3);
        }
        for (int i = 0; i < changes; ++i) {
            angles.push_back(timeUntil([&] { w.viewControls()->setAngleSet(AngleSet::overHalfTurn(i % 2 ? 180 : 90)); }, complete_));
            dwell(i + 5);
        }
        if (view == ui::Plane::Result)
            for (int i = 0; i < changes; ++i) {
                angle.push_back(timeUntil([&] { w.angleSlider()->setValue((300 + 37 * i) % 1800); }, complete_));
                dwell(i + 1);
            }
        row("λ slider" + in, length);
        row("operator" + in, op);
        row("angle set (90 ↔ 180)" + in, angles);
        if (!angle.empty()) row("angle slider" + in, angle);
    }
    // Until the exact sweep is in, from a λ change with the engine idle (180 angles).
    w.viewControls()->setView(ui::Plane::Orientation);
    w.viewControls()->setAngleSet(AngleSet::overHalfTurn(180));
    std::vector<double> first, exact;
    for (int i = 0; i < 3; ++i) {
        (void)timeUntil([] {}, [&] { return exactIn(w) && !w.session().queue().busy(); });
        QElapsedTimer t;
        t.start();
        first.push_back(timeUntil([&] { w.lengthSlider()->setValue(31 + 4 * i); }, complete_));
        (void)timeUntil([] {}, [&] { return exactIn(w); });
        exact.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    row("λ slider, engine idle: first complete frame", first);
    row("λ slider, engine idle: exact 180-angle sweep in", exact);
}

void shootProgressiveSweep(ui::MainWindow& window, int w, int h, const QString& outDir) {
    window.resize(w, h);
    window.spectrumDock()->show();
    window.viewControls()->setView(ui::Plane::Orientation);
    window.viewControls()->setAngleSet(AngleSet::overHalfTurn(180));
    (void)timeUntil([] {}, [&] { return exactIn(window) && !window.session().queue().busy(); });
    QTest::qWait(300);
    const QString size = QString::number(w) + "x" + QString::number(h);
    // The first preview on screen, with its mark.
    (void)timeUntil([&] { window.lengthSlider()->setValue(window.lengthSlider()->value() == 25 ? 27 : 25); }, [&] {
        const auto s = window.viewport()->sweepSnapshot();
        return complete(window) && s && s->isPreview();
    });
    QTest::qWait(50);
    window.grab().save(outDir + "/progressive-preview-" + size + ".png");
    (void)timeUntil([] {}, [&] { return exactIn(window) && complete(window); });
    QTest::qWait(400);
    window.grab().save(outDir + "/progressive-final-" + size + ".png");
    std::printf("screenshots progressive-preview-%s, progressive-final-%s\n", qPrintable(size), qPrintable(size));
}

}  // namespace linescope::bench
