// The tile sweep: the GPU's sweep for segments short enough that a square of the image and
// its margin (the operator's reach) fit in shared memory. Each block folds a group of
// angles over its square without touching device memory between angles; see
// tile_sweep_lines.h for the per-line work and line_tile_sweep.cu for the schedule.
#pragma once

#include "compute/cuda/cuda_context.h"
#include "compute/cuda/cuda_line_api.h"
#include "compute/cuda/device_image.h"
#include "compute/cuda/float_ranks.h"
#include "compute/sweep.h"

namespace linescope::cuda {

// The square side and block size a tile sweep would use, or side 0 when the segment is too
// long for the tile sweep to pay (the band kernel then runs the sweep).
struct TileShape {
    int side = 0;
    int threads = 0;
    std::size_t sharedBytes = 0;
};
template <class T>
TileShape tileShapeFor(const SweepRequest& req, int width, int height, const CudaContext& ctx);

// The device memory tileSweep reserves for such a sweep (the source is the caller's).
template <class T>
std::size_t tileSweepBytes(const SweepRequest& req, int width, int height, const TileShape& shape,
                           const CudaContext& ctx);

// The sweep of `req` over src with the tile kernel; `shape` from tileShapeFor (side > 0). A
// zone (zones.h) passes its frame: its lines are the whole image's, and only its kept rows
// count in the spectrum.
template <class T>
DeviceSweepResult<T> tileSweep(DeviceImageView<const T> src, const SweepRequest& req, const TileShape& shape,
                               CudaContext& ctx, const ZoneFrame& frame = {});

// The float sweep of an image given as its ranks (float_ranks.h), by the 16-bit kernel: the
// results and the spectrum are the float image's; `shape` from tileShapeFor<std::uint16_t>.
DeviceSweepResult<float> rankedTileSweep(const FloatRanks& ranks, const SweepRequest& req, const TileShape& shape,
                                         CudaContext& ctx, const ZoneFrame& frame = {});
// Its device memory, the ranking's included (the float source is the caller's).
std::size_t rankedTileSweepBytes(const SweepRequest& req, int width, int height, const TileShape& shape,
                                 const CudaContext& ctx);

}  // namespace linescope::cuda
