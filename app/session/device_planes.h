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
    const cuda::ResidentImage* plane(Plane which) const {
        switch (which) {
        case Plane::Original:
        case Plane::Orientation: return nullptr;  // the source is the engine's; orientation is not grey
        case Plane::Result: return result.get();
        case Plane::Supremum: return sweep ? sweep->sup.get() : nullptr;
        case Plane::Infimum: return sweep ? sweep->inf.get() : nullptr;
        case Plane::Strength: return sweep ? sweep->strength.get() : nullptr;
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
