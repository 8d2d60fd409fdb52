#include "app/session/planes.h"

#include "app/session/device_planes.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <limits>

namespace linescope::session {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

#if defined(LINESCOPE_HAVE_CUDA)
void downloadOnce(const DevicePlanes& d) {
    std::call_once(d.hostOnce, [&] {
        if (d.result) {
            d.hostResult = visitPixelType(d.result->type(), [&](auto tag) {
                return std::make_shared<const AnyImage>(cuda::downloadResident<decltype(tag)>(*d.result));
            });
        }
        if (d.sweep) {
            const cuda::ResidentSweep& s = *d.sweep;
            d.hostSweep = visitPixelType(s.sup->type(), [&](auto tag) {
                return std::make_shared<const AnySweep>(cuda::downloadSweep<decltype(tag)>(s));
            });
        }
    });
}

#endif

}  // namespace

std::shared_ptr<const SweepSpectrum> spectrumOf(const AnySweep& sweep) {
    return std::visit([](const auto& r) {
        using T = std::remove_cvref_t<decltype(*r.sup.data())>;
        auto s = std::make_shared<SweepSpectrum>();
        s->angles = r.angles;
        s->op = r.op;
        s->pixels = static_cast<long long>(r.sup.width()) * r.sup.height();
        s->exact = r.spectrumExact;
        s->values = r.spectrum;
        for (const T v : r.strength.pixels()) s->maxStrength = std::max(s->maxStrength, static_cast<double>(v));
        return std::shared_ptr<const SweepSpectrum>(std::move(s));
    }, sweep);
}

bool onDevice(const Snapshot& snapshot) { return snapshot.device != nullptr; }

std::shared_ptr<const AnyImage> hostResult(const Snapshot& snapshot) {
    if (snapshot.result || !snapshot.device) return snapshot.result;
#if defined(LINESCOPE_HAVE_CUDA)
    downloadOnce(*snapshot.device);
    return snapshot.device->hostResult;
#else
    return nullptr;
#endif
}

std::shared_ptr<const AnySweep> hostSweep(const Snapshot& snapshot) {
    if (snapshot.sweep || !snapshot.device) return snapshot.sweep;
#if defined(LINESCOPE_HAVE_CUDA)
    downloadOnce(*snapshot.device);
    return snapshot.device->hostSweep;
#else
    return nullptr;
#endif
}

std::optional<HostPlane> planeOf(const Snapshot& snapshot, Plane plane) {
    switch (plane) {
    case Plane::Original:
    case Plane::Orientation: return std::nullopt;
    case Plane::Result: {
        const auto r = hostResult(snapshot);
        if (!r) return std::nullopt;
        return std::visit([&](const auto& img) { return HostPlane{img.cview(), r}; }, *r);
    }
    case Plane::Supremum:
    case Plane::Infimum:
    case Plane::Strength: break;
    }
    const auto sw = hostSweep(snapshot);
    if (!sw) return std::nullopt;
    return std::visit([&](const auto& s) {
        const auto& p = plane == Plane::Supremum ? s.sup : plane == Plane::Infimum ? s.inf : s.strength;
        return HostPlane{p.cview(), sw};
    }, *sw);
}

double pixelOf(const Snapshot& snapshot, Plane plane, int x, int y) {
#if defined(LINESCOPE_HAVE_CUDA)
    if (snapshot.device) {
        const cuda::ResidentImage* p = snapshot.device->plane(plane);
        return p ? cuda::residentPixel(*p, x, y) : kNaN;
    }
#endif
    const auto p = planeOf(snapshot, plane);  // host planes: not copied
    if (!p) return kNaN;
    return std::visit([&](const auto& v) {
        return x < 0 || y < 0 || x >= v.width || y >= v.height ? kNaN : static_cast<double>(v.row(y)[x]);
    }, p->view);
}

bool rangeOf(const Snapshot& snapshot, Plane plane, double* min, double* max) {
#if defined(LINESCOPE_HAVE_CUDA)
    if (snapshot.device) {
        const cuda::ResidentImage* p = snapshot.device->plane(plane);
        if (!p) return false;
        cuda::residentMinMax(*p, min, max);
        return true;
    }
#endif
    const auto p = planeOf(snapshot, plane);
    if (!p) return false;
    return std::visit([&](const auto& v) {
        if (v.width <= 0 || v.height <= 0) return false;
        auto lo = v.row(0)[0], hi = lo;
        for (int y = 0; y < v.height; ++y)
            for (const auto px : std::span(v.row(y), static_cast<std::size_t>(v.width))) {
                lo = std::min(lo, px);
                hi = std::max(hi, px);
            }
        *min = static_cast<double>(lo);
        *max = static_cast<double>(hi);
        return true;
    }, p->view);
}

bool cellSamples(const Snapshot& snapshot, int step, std::vector<double>* angles, std::vector<double>* strengths) {
    if (!snapshot.spectrum || step < 1) return false;
#if defined(LINESCOPE_HAVE_CUDA)
    if (snapshot.device && snapshot.device->sweep) {
        const AngleSet& set = snapshot.spectrum->angles;
        *angles = cuda::residentGrid(*snapshot.device->sweep->argIndex, step);
        for (double& a : *angles) a = set.angle(static_cast<int>(a));
        *strengths = cuda::residentGrid(*snapshot.device->sweep->strength, step);
        return true;
    }
#endif
    if (!snapshot.sweep) return false;
    angles->clear();
    strengths->clear();
    std::visit([&](const auto& s) {
        for (int cy = step / 2; cy < s.strength.height(); cy += step)
            for (int cx = step / 2; cx < s.strength.width(); cx += step) {
                angles->push_back(s.orientation(cx, cy));
                strengths->push_back(static_cast<double>(s.strength.at(cx, cy)));
            }
    }, *snapshot.sweep);
    return true;
}

double orientationOf(const Snapshot& snapshot, int x, int y) {
    if (!snapshot.spectrum) return kNaN;
    double k = kNaN;
#if defined(LINESCOPE_HAVE_CUDA)
    if (snapshot.device && snapshot.device->sweep) k = cuda::residentPixel(*snapshot.device->sweep->argIndex, x, y);
#endif
    if (snapshot.sweep)
        k = std::visit([&](const auto& s) {
            const auto& a = s.argIndex;
            return x < 0 || y < 0 || x >= a.width() || y >= a.height() ? kNaN : static_cast<double>(a.at(x, y));
        }, *snapshot.sweep);
    return std::isnan(k) ? kNaN : snapshot.spectrum->angles.angle(static_cast<int>(k));
}

}  // namespace linescope::session
