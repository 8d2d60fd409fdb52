// An estimate of the time a sweep still needs, from its progress so far: the rate of its
// exact angles since the first progress report (the coarse preview and the queue before it
// are not angles, so they count only until a second report comes). Times in seconds from
// any origin, passed in, so that tests need no clock.
#pragma once

#include <optional>

namespace linescope::session {

class RemainingTime {
public:
    // The request was submitted at `t`.
    void start(double t);
    // `done` of `total` angles were finished at `t`.
    void progress(double t, int done, int total);
    // Seconds left, or nullopt before the first progress report.
    std::optional<double> secondsLeft() const;
    int done() const { return done_; }
    int total() const { return total_; }

private:
    double start_ = 0;
    double firstT_ = 0, lastT_ = 0;
    int firstDone_ = 0, done_ = 0, total_ = 0;
    bool reported_ = false;
};

}  // namespace linescope::session
