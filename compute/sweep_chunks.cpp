#include "compute/sweep_chunks.h"

#include <algorithm>
#include <cstring>

namespace linescope {

namespace {

// 0 … m−1 in the order of their bit-reversed values (van der Corput): every prefix whose
// length divides a power of two is evenly spread.
std::vector<int> spreadResidues(int m) {
    int bits = 0;
    while ((1 << bits) < m) ++bits;
    auto reversed = [bits](int r) {
        int out = 0;
        for (int b = 0; b < bits; ++b)
            if (r & (1 << b)) out |= 1 << (bits - 1 - b);
        return out;
    };
    std::vector<int> order(static_cast<std::size_t>(m));
    for (int r = 0; r < m; ++r) order[static_cast<std::size_t>(r)] = r;
    std::sort(order.begin(), order.end(), [&](int a, int b) { return reversed(a) < reversed(b); });
    return order;
}

bool sameDouble(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// AngleSet{all.angle(first), all.step · stride, count} when its angles are all's to the bit.
std::optional<AngleSet> exactSubset(const AngleSet& all, int first, int stride, int count) {
    const AngleSet sub{all.angle(first), all.step * stride, count};
    for (int j = 0; j < count; ++j)
        if (!sameDouble(sub.angle(j), all.angle(first + stride * j))) return std::nullopt;
    return sub;
}

}  // namespace

std::vector<SweepChunk> sweepChunks(const AngleSet& all, int chunkAngles) {
    const int total = all.count;
    if (total < 1) return {};
    const int m = chunkAngles < 1 ? 1 : (total + chunkAngles - 1) / chunkAngles;
    std::vector<SweepChunk> chunks;
    bool exact = true;
    for (int r : spreadResidues(m)) {
        const auto sub = exactSubset(all, r, m, (total - r + m - 1) / m);
        if (!sub) {
            exact = false;
            break;
        }
        chunks.push_back(SweepChunk{r, m, *sub});
    }
    if (exact) return chunks;
    chunks.clear();  // consecutive runs: angle(first + j) as first's angle plus j steps
    const int run = chunkAngles < 1 ? total : chunkAngles;
    for (int k0 = 0; k0 < total; k0 += run) {
        const int count = std::min(run, total - k0);
        const auto sub = exactSubset(all, k0, 1, count);
        if (!sub) return {SweepChunk{0, 1, all}};  // one chunk: the set itself
        chunks.push_back(SweepChunk{k0, 1, *sub});
    }
    return chunks;
}

std::optional<AngleSet> coveredAfter(const AngleSet& all, const std::vector<SweepChunk>& chunks, int done) {
    if (done < 1 || done >= static_cast<int>(chunks.size())) return std::nullopt;
    const int m = chunks.front().stride;
    if (m <= 1 || m % done != 0) return std::nullopt;
    const int d = m / done;  // the residues done must be 0, d, 2d, …
    std::vector<int> residues;
    for (int c = 0; c < done; ++c) residues.push_back(chunks[static_cast<std::size_t>(c)].first);
    std::sort(residues.begin(), residues.end());
    for (int c = 0; c < done; ++c)
        if (residues[static_cast<std::size_t>(c)] != c * d) return std::nullopt;
    return exactSubset(all, 0, d, (all.count + d - 1) / d);
}

}  // namespace linescope
