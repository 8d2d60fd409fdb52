// The remaining-time estimate: a straight line through the progress reports.
#include "app/session/remaining_time.h"

#include <algorithm>

namespace linescope::session {

void RemainingTime::start(double t) {
    *this = RemainingTime{};
    start_ = t;
}

void RemainingTime::progress(double t, int done, int total) {
    if (!reported_) {
        firstT_ = t;
        firstDone_ = done;
        reported_ = true;
    }
    lastT_ = t;
    done_ = done;
    total_ = total;
}

std::optional<double> RemainingTime::secondsLeft() const {
    if (!reported_ || done_ <= 0) return std::nullopt;
    // The angles since the first report, at the rate they came; until a second one, the
    // first report's angles over the time since submission (an overestimate: it holds the
    // coarse preview too).
    const double rate = done_ > firstDone_ && lastT_ > firstT_ ? (done_ - firstDone_) / (lastT_ - firstT_)
                                                               : done_ / std::max(lastT_ - start_, 1e-3);
    return std::max(0.0, (total_ - done_) / rate);
}

}  // namespace linescope::session
