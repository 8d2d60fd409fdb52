// Reading a published snapshot's planes wherever they live: in host memory (the CPU path) or
// in device memory (GPU mode, device_planes.h). Every consumer that needs pixels goes through
// these, so that none of them copies a whole device plane to the host unless it must.
// Any thread.
#pragma once

#include "app/session/plane.h"
#include "app/session/snapshot.h"

#include <memory>
#include <optional>
#include <variant>
#include <vector>

namespace linescope::session {

// The host summary of a sweep (its spectrum and strength maximum) that every sweep snapshot carries.
std::shared_ptr<const SweepSpectrum> spectrumOf(const AnySweep& sweep);

// Whether a Result or Sweep snapshot's planes are in device memory.
bool onDevice(const Snapshot& snapshot);

// The whole result (a Result snapshot) or sweep (a Sweep snapshot) in host memory: the
// snapshot's own in CPU mode, downloaded once and kept in GPU mode. nullptr for other kinds
// and for error snapshots.
std::shared_ptr<const AnyImage> hostResult(const Snapshot& snapshot);
std::shared_ptr<const AnySweep> hostSweep(const Snapshot& snapshot);

// A grey plane's pixels in host memory, kept alive by `owner`.
struct HostPlane {
    std::variant<ImageView<const std::uint8_t>, ImageView<const std::uint16_t>, ImageView<const float>> view;
    std::shared_ptr<const void> owner;
};
// The host pixels of a grey plane of a Result snapshot (Result) or a Sweep snapshot
// (Supremum, Infimum, Strength), not copied in CPU mode, downloaded once in GPU mode (an
// export, Otsu, contours of a host plane). nullopt when the snapshot does not hold the plane
// (Original and Orientation never are in one).
std::optional<HostPlane> planeOf(const Snapshot& snapshot, Plane plane);

// The value of `plane` at (x, y): Result from a Result snapshot; Supremum, Infimum and
// Strength from a Sweep snapshot. NaN outside the image or when the snapshot lacks the plane.
// On the device, one pixel is read (the probe), not the plane.
double pixelOf(const Snapshot& snapshot, Plane plane, int x, int y);
// The smallest and largest value of `plane` (a threshold control's range): false when the
// snapshot lacks the plane. On the device, reduced there: two numbers come back.
bool rangeOf(const Snapshot& snapshot, Plane plane, double* min, double* max);
// The orientation (degrees, the sweep's argmax angle) and the strength of a Sweep snapshot
// at the centres of `step`×`step` cells, (step/2 + i·step, step/2 + j·step) row by row (the
// orientation needles): gathered on the device in GPU mode, one number a cell coming back.
// False when the snapshot holds no sweep.
bool cellSamples(const Snapshot& snapshot, int step, std::vector<double>* angles, std::vector<double>* strengths);
// The orientation (degrees, the sweep's argmax angle) at (x, y) of a Sweep snapshot, or NaN.
double orientationOf(const Snapshot& snapshot, int x, int y);

}  // namespace linescope::session
