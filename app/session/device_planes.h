// The device-resident payload of a GPU-mode snapshot (CUDA builds): the engine thread computed
// these planes once, and every consumer reads them where they are. Host copies are made on
// the first demand only (an export, the orientation needles) and kept with the snapshot.
#pragma once

#if defined(LINESCOPE_HAVE_CUDA)

#include "app/session/snapshot.h"
#include "compute/cuda/resident.h"

#include <mutex>
#include <optional>

namespace linescope::session {

struct DevicePlanes {
    cuda::ResidentPtr result;                 // Result snapshots
    std::optional<cuda::ResidentSweep> sweep; // Sweep snapshots

    // A grey plane (Result; Supremum, Infimum, Strength), or nullptr when not held here.
    const cuda::ResidentImage* plane(ContourSource which) const {
        switch (which) {
        case ContourSource::Original: return nullptr;
        case ContourSource::Result: return result.get();
        case ContourSource::Supremum: return sweep ? sweep->sup.get() : nullptr;
        case ContourSource::Infimum: return sweep ? sweep->inf.get() : nullptr;
        case ContourSource::Strength: return sweep ? sweep->strength.get() : nullptr;
        }
        return nullptr;
    }

    // The host copies (planes.cpp), made once.
    mutable std::once_flag hostOnce;
    mutable std::shared_ptr<const AnyImage> hostResult;
    mutable std::shared_ptr<const AnySweep> hostSweep;
};

}  // namespace linescope::session

#endif  // LINESCOPE_HAVE_CUDA
