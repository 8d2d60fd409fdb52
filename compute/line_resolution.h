// The angular resolution of a digital line: for a given λ only finitely many pixel sets
// exist, so many neighbouring angles give the same segment. Over the grid of angles a control
// offers (k / stepsPerDegree degrees, k = 0 … 180·stepsPerDegree − 1), this groups the angles
// into runs that give the same pixel set (line_kernel.h's lineKernel: one definition of each
// kind's set) and answers what an angle control needs: where the set changes (ticks), the run
// an angle is in, and the next or previous angle with a different set (snapping).
#pragma once

#include "compute/line_kind.h"

#include <vector>

namespace linescope {

// Grid angles first … first + count − 1 (indices, taken modulo the grid's size: the run that
// holds 0° may start near 180°) give one pixel set of `pixels` pixels.
struct SegmentRun {
    int first = 0;
    int count = 1;
    int pixels = 1;
};

class AngleResolution {
public:
    AngleResolution() = default;
    // Every angle of the grid through lineKernel(kind, angle, length); throws Error for
    // length < 1 or stepsPerDegree < 1. About 1800 kernels at the default step: a few
    // milliseconds at λ = 501.
    AngleResolution(LineKind kind, int length, int stepsPerDegree = 10);

    LineKind kind() const { return kind_; }
    int length() const { return length_; }
    int stepsPerDegree() const { return stepsPerDegree_; }
    int gridSize() const { return gridSize_; }  // 180 · stepsPerDegree
    double angleOf(int index) const { return static_cast<double>(wrap(index)) / stepsPerDegree_; }
    // The grid index nearest to an angle in degrees (any value, taken modulo 180).
    int indexOf(double degrees) const;

    // The distinct pixel sets in order of angle, the first one holding index 0.
    const std::vector<SegmentRun>& runs() const { return runs_; }
    // The index of the run that holds grid index i.
    int runAt(int index) const;
    // The grid indices where the pixel set differs from the one before (modulo the grid):
    // the runs' first angles, in increasing order; empty when every angle gives one set.
    std::vector<int> changes() const;
    // Where a control moving from `current` towards `target` lands when it snaps to distinct
    // segments: the first angle of the run holding `target`, unless that is `current`'s own
    // run (a small step, such as an arrow key), in which case the first angle of the next
    // run in the direction of travel (the shorter way round the half-turn). So every move
    // that changes the angle changes the pixel set, while more than one run exists.
    int snap(int current, int target) const;

private:
    int wrap(int index) const { return ((index % gridSize_) + gridSize_) % gridSize_; }

    LineKind kind_ = LineKind::Paths;
    int length_ = 1;
    int stepsPerDegree_ = 10;
    int gridSize_ = 1800;
    std::vector<SegmentRun> runs_;
    std::vector<int> runOf_;  // grid index → run
};

}  // namespace linescope
