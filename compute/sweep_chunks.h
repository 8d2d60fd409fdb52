// The order in which a long sweep takes its angles, so that it can be stopped between chunks
// and shown before it ends: chunk c holds every m-th angle of the set from a residue r_c, and
// the residues come in the order that keeps the angles done so far evenly spread (for
// m = 4: 0, 2, 1, 3). After the first chunk the sweep covers every m-th angle, after the
// second (m even) every (m/2)-th, and so on; folding the chunks with sweep()'s tie rule (the
// smallest angle index) gives sweep()'s result bit for bit, in any order.
#pragma once

#include "compute/sweep.h"

#include <optional>
#include <vector>

namespace linescope {

struct SweepChunk {
    int first = 0;   // the set's index of the chunk's first angle
    int stride = 1;  // its angles are first, first + stride, …: index j of `angles` is first + stride·j
    AngleSet angles;
};

// The chunks of at most about `chunkAngles` angles (< 1: one chunk) that cover `all`. Each
// chunk's angles are the set's own to the bit (angles.angle(j) == all.angle(first + stride·j));
// where the doubles of a strided set would differ, the chunks are consecutive runs instead
// (stride 1), still a partition of the set.
std::vector<SweepChunk> sweepChunks(const AngleSet& all, int chunkAngles);

// The angles that the first `done` chunks cover, when they are every d-th angle of `all`
// from the first (d > 1) and an AngleSet says so exactly; otherwise none.
std::optional<AngleSet> coveredAfter(const AngleSet& all, const std::vector<SweepChunk>& chunks, int done);

}  // namespace linescope
