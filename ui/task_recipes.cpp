#include "ui/task_recipes.h"

#include "app/io/image_io.h"
#include "app/io/image_polarity.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

namespace linescope::ui {
namespace {

int clampedLength(double length, int lo, int hi) {
    return std::clamp(static_cast<int>(std::lround(length)), lo, hi);
}

QString tr(const char* text) { return QCoreApplication::translate("linescope::ui::TaskRecipes", text); }

}  // namespace

QString taskTitle(Task task) {
    switch (task) {
        case Task::FingerprintOrientation: return tr("Fingerprint orientation");
        case Task::PageSkew: return tr("Page or score skew");
        case Task::TextureDirections: return tr("Texture directions");
        case Task::TeachOpening: return tr("Teach: opening by a line");
    }
    return {};
}

TaskRecipe recipeFor(Task task, int width, int height, bool meanLevelIsLight) {
    const int shorter = std::max(0, std::min(width, height));
    TaskRecipe r;
    r.op = lineOperatorFor(meanLevelIsLight);
    switch (task) {
        case Task::FingerprintOrientation:
            // About two ridge periods: 15 px at 500 dpi on a ~450 px print.
            r.length = clampedLength(shorter / 30.0, 9, 41);
            r.angles = AngleSet::overHalfTurn(60);
            r.view = Plane::Orientation;
            r.blend = true;
            r.needleStep = 16;
            r.showSpectrumDock = true;
            break;
        case Task::PageSkew:
            // Long segments along the text lines or staves; a page is rarely more than 10° off.
            r.length = clampedLength(std::max(0, width) / 8.0, 9, 501);
            r.angles = AngleSet{-10, 0.25, 81};
            r.view = Plane::Result;
            r.showSpectrumDock = true;  // its skew readout
            break;
        case Task::TextureDirections:
            r.length = clampedLength(shorter / 10.0, 9, 201);
            r.angles = AngleSet::overHalfTurn(90);
            r.view = Plane::Orientation;
            r.blend = true;
            r.showSpectrumDock = true;
            break;
        case Task::TeachOpening:
            // The lesson is the opening itself, whatever the image's polarity.
            r.op = MorphOp::Open;
            r.length = 21;
            r.angle = 30;
            r.angles = AngleSet::overHalfTurn(180);
            r.view = Plane::Result;
            r.compare = CompareMode::SideBySide;
            r.glyph = true;
            break;
    }
    return r;
}

std::optional<Task> taskForSample(const QString& baseName) {
    if (baseName.contains(QLatin1String("fingerprint"))) return Task::FingerprintOrientation;
    if (baseName.contains(QLatin1String("music")) || baseName.contains(QLatin1String("text_page")) ||
        baseName.contains(QLatin1String("score")))
        return Task::PageSkew;
    if (baseName.contains(QLatin1String("texture"))) return Task::TextureDirections;
    return std::nullopt;
}

bool meanLevelIsLight(const session::AnyImage& image) {
    return std::visit(
        [](const auto& img) {
            using T = std::remove_cvref_t<decltype(*img.data())>;
            // A header over the packed pixels, not a copy: this runs on the UI thread at open.
            const cv::Mat view(img.height(), img.width(), CV_MAKETYPE(io::cvDepthOf<T>(), 1), const_cast<T*>(img.data()));
            return io::meanLevelIsLight(view).value_or(false);
        },
        image);
}

MorphOp lineOperatorFor(bool meanLevelIsLight) { return meanLevelIsLight ? MorphOp::Close : MorphOp::Open; }

QString polarityWarning(MorphOp op, bool meanLevelIsLight) {
    if (op == MorphOp::Open && meanLevelIsLight)
        return tr("Light image with dark lines: an opening removes them; a closing keeps them");
    if (op == MorphOp::Close && !meanLevelIsLight)
        return tr("Dark image with light lines: a closing removes them; an opening keeps them");
    return {};
}

}  // namespace linescope::ui
