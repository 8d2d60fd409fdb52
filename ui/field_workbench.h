// The orientation-field workbench's controller (issue 21): widget-free, so tests drive it. It
// follows the session's Field snapshots (one result feeding every pane), says what each pane
// shows, turns the engine's block field into needles (colour: the angle in the app's
// orientation colours; length: the coherence), paints the panes into QImages (needles, the
// coherence map, the foreground mask, the structure tensor's needles, the difference map; the
// singular points marked on the field's panes) and exports the field as the CLI writes it.
// Thread: UI thread (QImage and QPainter need no window).
#pragma once

#include "app/session/orientation_workbench.h"
#include "app/session/session.h"

#include <QColor>
#include <QImage>
#include <QObject>
#include <QString>

#include <vector>

namespace linescope::ui {

enum class FieldView { Needles, Coherence, Mask, Tensor, Difference };
inline constexpr FieldView kFieldViews[] = {FieldView::Needles, FieldView::Coherence, FieldView::Mask,
                                            FieldView::Tensor, FieldView::Difference};
QString fieldViewTitle(FieldView v);  // "Needles (LineScope)", "Coherence", …

// One needle a foreground block, in image coordinates (pixels; the block's centre at
// ((bx + ½)·b, (by + ½)·b)), along d = (cos α, −sin α) (design.md §1).
struct FieldNeedle {
    int bx = 0, by = 0;
    double angle = 0;      // degrees, the field's
    double coherence = 0;  // 0 … 1, the field's (1 for the structure tensor's needles)
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    QColor colour;         // orientationColour(angle, 1)
};

// The needle's length in pixels for a block of b pixels and a coherence c: b·(0.2 + 0.7·c),
// so that even a weak block shows its direction and a coherent one nearly fills its block.
double needleLength(int blockSize, double coherence);

// The engine field's needles, one per foreground block, row-major.
std::vector<FieldNeedle> fieldNeedles(const OrientationField& f);
// The structure tensor's needles on the same foreground blocks, all of full coherence.
std::vector<FieldNeedle> tensorNeedles(const analysis::BlockField& t, const std::vector<unsigned char>& foreground);

// The difference map's colour for a difference of d degrees (0 … 90): black at 0 through red
// (10°) and yellow (20°) to white at 30° and above (most blocks of a print differ by less).
QRgb differenceColour(double degrees);
// The coherence map's colour for c in [0, 1] (dark blue → teal → yellow).
QRgb coherenceColour(double c);

// A pane of `view` at `scale` screen pixels an image pixel, of size ⌈W·scale⌉ × ⌈H·scale⌉:
// the image in grey under the view's data; singular points marked on Needles, Coherence and
// Mask. A Tensor or Difference pane without the tensor in `out` is the grey image alone.
QImage renderFieldView(FieldView view, const session::FieldOutput& out, const session::AnyImage& image, double scale);

class FieldWorkbench : public QObject {
    Q_OBJECT
public:
    explicit FieldWorkbench(QObject* parent = nullptr);
    void follow(session::Session& session);

    // The newest Field snapshot of the current image that succeeded (nullptr before one).
    session::SnapshotPtr shown() const { return shown_; }
    const session::FieldOutput* output() const;
    // Whether the session has an image (the panes say what to do when not).
    bool hasImage() const { return session_ && session_->image(); }

    FieldView leftView() const { return left_; }
    FieldView rightView() const { return right_; }
    void setLeftView(FieldView v);
    void setRightView(FieldView v);

    // "2 cores, 1 delta · 412 of 690 blocks on the print · tensor differs by 6.2° on average".
    QString summary() const;

    // [UI thread] The shown field written as `linescope-cli orientation` writes it with the same
    // parameters (io/orientation_export.h; time_ms is the window's own computation), or the
    // left pane's needles over the image at 1:1 (PNG, or any format Qt writes by the suffix).
    // Each goes to a temporary file renamed into place; false with `error` set on failure.
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    bool exportJson(const QString& path, QString* error = nullptr) const;
    bool exportNeedleImage(const QString& path, QString* error = nullptr) const;

signals:
    // A new field is shown, or a pane's view changed.
    void changed();

private:
    session::Session* session_ = nullptr;
    session::SnapshotPtr shown_;
    FieldView left_ = FieldView::Needles;
    FieldView right_ = FieldView::Tensor;
};

}  // namespace linescope::ui
