#include "compute/exact_sum.h"

#include <cmath>

namespace linescope {

double ExactSum::toDouble() const {
    // Magnitude and sign, then the top 53 bits with round-to-nearest-even on the rest.
    ExactSum m = *this;
    const bool neg = negative();
    if (neg) m.negate();
    int top = -1;  // the highest set bit
    for (int i = kLimbs - 1; i >= 0 && top < 0; --i)
        if (m.limb_[i]) top = i * 64 + 63 - std::countl_zero(m.limb_[i]);
    if (top < 0) return 0.0;
    const auto bitAt = [&](int b) -> std::uint64_t { return b < 0 ? 0 : (m.limb_[b / 64] >> (b % 64)) & 1u; };
    const int low = top - 52;  // the lowest bit the double keeps
    std::uint64_t mantissa = 0;
    for (int b = top; b >= low && b >= 0; --b) mantissa = (mantissa << 1) | bitAt(b);
    int exponent = low;  // mantissa × 2^exponent units
    if (low > 0) {
        const bool roundBit = bitAt(low - 1) != 0;
        bool sticky = false;
        for (int b = low - 2; b >= 0 && !sticky; --b) sticky = bitAt(b) != 0;
        if (roundBit && (sticky || (mantissa & 1u))) ++mantissa;  // 2^53 is still exact
    } else {
        exponent = 0;
    }
    const double magnitude = std::ldexp(static_cast<double>(mantissa), exponent - 149);
    return neg ? -magnitude : magnitude;
}

}  // namespace linescope
