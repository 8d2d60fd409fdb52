#include "compute/line_resolution.h"

#include "compute/image.h"
#include "compute/line_kernel.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace linescope {

namespace {

// The pixel set in a canonical order: lineKernel lists it along the line, and the same set
// can come in either direction (the diagonal at 45° is x-major, just past it y-major).
std::vector<Offset> sortedOffsets(LineKind kind, double angle, int length) {
    std::vector<Offset> offsets = lineKernel(kind, angle, length).offsets();
    std::sort(offsets.begin(), offsets.end(),
              [](const Offset& a, const Offset& b) { return a.dy != b.dy ? a.dy < b.dy : a.dx < b.dx; });
    return offsets;
}

}  // namespace

AngleResolution::AngleResolution(LineKind kind, int length, int stepsPerDegree)
    : kind_(kind), length_(length), stepsPerDegree_(stepsPerDegree) {
    if (length < 1) throw Error("the segment's length must be at least 1, got " + std::to_string(length));
    if (stepsPerDegree < 1 || stepsPerDegree > 1000)
        throw Error("the angle grid needs 1 to 1000 steps a degree, got " + std::to_string(stepsPerDegree));
    gridSize_ = 180 * stepsPerDegree;
    runOf_.assign(static_cast<std::size_t>(gridSize_), 0);
    std::vector<Offset> previous, first;
    for (int i = 0; i < gridSize_; ++i) {
        std::vector<Offset> offsets = sortedOffsets(kind, angleOf(i), length);
        if (i == 0 || offsets != previous) runs_.push_back({i, 0, static_cast<int>(offsets.size())});
        ++runs_.back().count;
        runOf_[static_cast<std::size_t>(i)] = static_cast<int>(runs_.size()) - 1;
        if (i == 0) first = offsets;
        previous = std::move(offsets);
    }
    // 180° is 0°: the last run continues the first when their sets agree.
    if (runs_.size() > 1 && previous == first) {
        const SegmentRun last = runs_.back();
        runs_.pop_back();
        runs_.front().first = last.first;
        runs_.front().count += last.count;
        for (int i = last.first; i < gridSize_; ++i) runOf_[static_cast<std::size_t>(i)] = 0;
    }
}

int AngleResolution::indexOf(double degrees) const {
    return wrap(static_cast<int>(std::lround(std::fmod(degrees, 180.0) * stepsPerDegree_)));
}

int AngleResolution::runAt(int index) const { return runOf_[static_cast<std::size_t>(wrap(index))]; }

std::vector<int> AngleResolution::changes() const {
    std::vector<int> out;
    if (runs_.size() < 2) return out;
    // The first run may start near 180° (it holds 0°): listed last, in increasing order.
    for (std::size_t r = 1; r < runs_.size(); ++r) out.push_back(runs_[r].first);
    if (runs_.front().first > 0) out.push_back(runs_.front().first);
    else out.insert(out.begin(), 0);
    return out;
}

int AngleResolution::snap(int current, int target) const {
    const int n = static_cast<int>(runs_.size());
    if (n < 2) return wrap(target);
    const int from = runAt(current), to = runAt(target);
    if (to != from) return runs_[static_cast<std::size_t>(to)].first;
    if (wrap(target) == wrap(current)) return wrap(current);
    const bool forward = wrap(target - current) <= gridSize_ / 2;
    return runs_[static_cast<std::size_t>((from + (forward ? 1 : n - 1)) % n)].first;
}

}  // namespace linescope
