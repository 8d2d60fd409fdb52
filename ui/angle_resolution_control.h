// The angle control's knowledge of distinct segments (compute/line_resolution.h) for the
// session's kind and λ: computed on a worker thread when either changes (a few milliseconds at
// λ = 501, so never on the UI thread, and a λ drag keeps only the newest), then used for the
// slider's ticks, for snapping and for the sentence that says which angles give the same
// segment. Qt Core only: tests drive it without a window.
//
// Angles here are the window's units: tenths of a degree, 0 … 1800 (1800 is 0°).
//
// Thread: UI thread (the resolution itself is built on Qt's global pool).
#pragma once

#include "compute/line_resolution.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace linescope::ui {

class AngleResolutionControl : public QObject {
    Q_OBJECT
public:
    explicit AngleResolutionControl(QObject* parent = nullptr);
    ~AngleResolutionControl() override;

    // The kind and λ the angle control serves; a change starts building their resolution and
    // returns at once (ready() is false until it is in).
    void setLine(LineKind kind, int length);
    // Whether the resolution of the current kind and λ is in.
    bool ready() const;
    const AngleResolution* resolution() const { return ready() ? resolution_.get() : nullptr; }

    // Snapping to distinct segments (off by default).
    void setSnapping(bool on) { snapping_ = on; }
    bool snapping() const { return snapping_; }
    // Where a move of the angle from `current` to `target` lands: `target` unless snapping is
    // on and the resolution is in. A drag (`dragging`) lands on the first angle of the segment
    // under the pointer; a step (keys, wheel, a typed value) on the first angle of the next
    // segment in its direction when it stays within the current one (AngleResolution::snap).
    int snap(int currentUnits, int targetUnits, bool dragging) const;

    // The angles (units) where the pixel set changes: the ticks; empty until ready.
    std::vector<int> tickUnits() const;
    // "30.0°–31.4° give the same 11-pixel segment (52 distinct segments over 180°)", or the
    // same for a periodic line; "" until ready.
    QString describe(int units) const;

signals:
    // The resolution of the current kind and λ is in.
    void changed();

private:
    LineKind kind_ = LineKind::Paths;
    int length_ = 0;
    std::shared_ptr<const AngleResolution> resolution_;  // the newest that came in
    quint64 generation_ = 0;
    bool snapping_ = false;
};

}  // namespace linescope::ui
