// Task recipes: the settings a task needs, not only its pixels. Task ▸ Fingerprint
// orientation, Page or score skew, Texture directions and Teach: opening by a line each set
// the operator, λ from the image's size, the sweep's angle set, the view, compare mode,
// blend and needles, and which docks show; the Samples menu applies its sample's recipe.
// recipeFor is a pure function (no window) so that it is tested on its own.
//
// Polarity: an opening keeps light lines on a dark ground, a closing dark lines on light
// paper. A recipe picks the operator that fits the image, and the window warns while the
// chosen one does not.
#pragma once

#include "app/session/snapshot.h"
#include "compute/sweep.h"
#include "ui/viewport_widget.h"

#include <QString>

#include <optional>

namespace linescope::ui {

enum class Task { FingerprintOrientation, PageSkew, TextureDirections, TeachOpening };
inline constexpr Task kTasks[] = {Task::FingerprintOrientation, Task::PageSkew, Task::TextureDirections,
                                  Task::TeachOpening};
QString taskTitle(Task task);  // the menu's text, e.g. "Page or score skew"

struct TaskRecipe {
    MorphOp op = MorphOp::Open;
    int length = 21;
    std::optional<double> angle;  // the segment's angle; unset: left as it is
    AngleSet angles;
    Plane view = Plane::Result;
    CompareMode compare = CompareMode::Single;
    bool blend = false;
    double blendAmount = 0.5;
    int needleStep = 0;           // 0: no needles
    bool glyph = false;
    bool showSpectrumDock = false;
    bool showContourDock = false;
    bool contours = false;
};

// The recipe for `task` on an image of `width` × `height` whose mean level is light (dark
// lines on light paper) or not.
TaskRecipe recipeFor(Task task, int width, int height, bool meanLevelIsLight);

// The task a sample is for, from its base name ("music_sheet", "task_fingerprint_whorl" …).
std::optional<Task> taskForSample(const QString& baseName);

// Whether the image is light paper (io::meanLevelIsLight; false for a flat image).
bool meanLevelIsLight(const session::AnyImage& image);

// The operator that keeps the lines of an image of that polarity: closing for dark lines on
// light paper, opening for light lines on a dark ground.
MorphOp lineOperatorFor(bool meanLevelIsLight);

// One line for the status bar when `op` does not fit the image's polarity, "" otherwise.
QString polarityWarning(MorphOp op, bool meanLevelIsLight);

}  // namespace linescope::ui
