#include "app/session/planes.h"

#include "app/session/device_planes.h"

#include <algorithm>
#include <cmath>
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
                using T = decltype(tag);
                SweepResult<T> r;
                r.sup = cuda::downloadResident<T>(*s.sup);
                r.inf = cuda::downloadResident<T>(*s.inf);
                r.strength = cuda::downloadResident<T>(*s.strength);
                r.argIndex = cuda::downloadResident<std::uint16_t>(*s.argIndex);
                r.spectrum = s.spectrum;
                r.spectrumExact = s.spectrumExact;
                r.angles = s.angles;
                r.op = s.op;
                return std::make_shared<const AnySweep>(std::move(r));
            });
        }
    });
}

#endif

template <class T>
double at(const Image<T>& img, int x, int y) {
    if (x < 0 || y < 0 || x >= img.width() || y >= img.height()) return kNaN;
    return static_cast<double>(img.at(x, y));
}

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

double pixelOf(const Snapshot& snapshot, ContourSource plane, int x, int y) {
#if defined(LINESCOPE_HAVE_CUDA)
    if (snapshot.device) {
        const cuda::ResidentImage* p = snapshot.device->plane(plane);
        return p ? cuda::residentPixel(*p, x, y) : kNaN;
    }
#endif
    switch (plane) {
    case ContourSource::Original: return kNaN;
    case ContourSource::Result:
        return snapshot.result ? std::visit([&](const auto& img) { return at(img, x, y); }, *snapshot.result) : kNaN;
    case ContourSource::Supremum:
    case ContourSource::Infimum:
    case ContourSource::Strength: break;
    }
    if (!snapshot.sweep) return kNaN;
    return std::visit([&](const auto& s) {
        return at(plane == ContourSource::Supremum ? s.sup : plane == ContourSource::Infimum ? s.inf : s.strength, x, y);
    }, *snapshot.sweep);
}

bool rangeOf(const Snapshot& snapshot, ContourSource plane, double* min, double* max) {
#if defined(LINESCOPE_HAVE_CUDA)
    if (snapshot.device) {
        const cuda::ResidentImage* p = snapshot.device->plane(plane);
        if (!p) return false;
        cuda::residentMinMax(*p, min, max);
        return true;
    }
#endif
    auto extremes = [&](const auto& img) {
        const auto px = img.pixels();
        if (px.empty()) return false;
        const auto [lo, hi] = std::minmax_element(px.begin(), px.end());
        *min = static_cast<double>(*lo);
        *max = static_cast<double>(*hi);
        return true;
    };
    if (plane == ContourSource::Result)
        return snapshot.result && std::visit(extremes, *snapshot.result);
    if (plane == ContourSource::Original || !snapshot.sweep) return false;
    return std::visit([&](const auto& s) {
        return extremes(plane == ContourSource::Supremum ? s.sup : plane == ContourSource::Infimum ? s.inf : s.strength);
    }, *snapshot.sweep);
}

double orientationOf(const Snapshot& snapshot, int x, int y) {
    if (!snapshot.spectrum) return kNaN;
    double k = kNaN;
#if defined(LINESCOPE_HAVE_CUDA)
    if (snapshot.device && snapshot.device->sweep) k = cuda::residentPixel(*snapshot.device->sweep->argIndex, x, y);
#endif
    if (snapshot.sweep)
        k = std::visit([&](const auto& s) { return at(s.argIndex, x, y); }, *snapshot.sweep);
    return std::isnan(k) ? kNaN : snapshot.spectrum->angles.angle(static_cast<int>(k));
}

}  // namespace linescope::session
