#include "ui/angle_resolution_control.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace linescope::ui {

namespace {
// The window's angle units: tenths of a degree (MainWindow::kAngleSteps = 1800 over 180°).
constexpr int kStepsPerDegree = 10;

QString degrees(double a) { return QString::number(a, 'f', 1) + QStringLiteral("°"); }
}  // namespace

AngleResolutionControl::AngleResolutionControl(QObject* parent) : QObject(parent) {}
AngleResolutionControl::~AngleResolutionControl() = default;

void AngleResolutionControl::setLine(LineKind kind, int length) {
    if (kind == kind_ && length == length_) return;
    kind_ = kind;
    length_ = length;
    const quint64 id = ++generation_;
    // A child of this object: destroyed with it, so a late result reaches nothing.
    auto* watcher = new QFutureWatcher<std::shared_ptr<const AngleResolution>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, id] {
        watcher->deleteLater();
        if (id != generation_) return;  // a newer kind or λ came meanwhile
        resolution_ = watcher->result();
        emit changed();
    });
    watcher->setFuture(QtConcurrent::run([kind, length]() -> std::shared_ptr<const AngleResolution> {
        return std::make_shared<const AngleResolution>(kind, length, kStepsPerDegree);
    }));
}

bool AngleResolutionControl::ready() const {
    return resolution_ && resolution_->kind() == kind_ && resolution_->length() == length_;
}

int AngleResolutionControl::snap(int currentUnits, int targetUnits, bool dragging) const {
    const AngleResolution* r = resolution();
    if (!snapping_ || !r || r->runs().size() < 2) return targetUnits;
    const int target = r->indexOf(targetUnits / double(kStepsPerDegree));
    const int landed = dragging ? r->runs()[static_cast<std::size_t>(r->runAt(target))].first
                                : r->snap(r->indexOf(currentUnits / double(kStepsPerDegree)), target);
    return landed;
}

std::vector<int> AngleResolutionControl::tickUnits() const {
    const AngleResolution* r = resolution();
    return r ? r->changes() : std::vector<int>{};
}

QString AngleResolutionControl::describe(int units) const {
    const AngleResolution* r = resolution();
    if (!r) return {};
    const auto& runs = r->runs();
    const SegmentRun& run = runs[static_cast<std::size_t>(r->runAt(r->indexOf(units / double(kStepsPerDegree))))];
    const QString what = kind_ == LineKind::Periodic ? tr("periodic line") : tr("segment");
    if (runs.size() < 2) return tr("Every angle gives the same %1-pixel %2").arg(run.pixels).arg(what);
    const QString range = run.count == 1 ? tr("Only %1 gives this %2-pixel %3").arg(degrees(r->angleOf(run.first)))
                                                .arg(run.pixels)
                                                .arg(what)
                                         : tr("%1–%2 give the same %3-pixel %4")
                                               .arg(degrees(r->angleOf(run.first)),
                                                    degrees(r->angleOf(run.first + run.count - 1)))
                                               .arg(run.pixels)
                                               .arg(what);
    return tr("%1 (%2 distinct over 180°)").arg(range).arg(runs.size());
}

}  // namespace linescope::ui
