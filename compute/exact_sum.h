// An exact sum of float32 values times whole counts, rounded once to double at the end.
//
// Why: a granulometry of a float image is a sum of millions of pixel values, and a double
// accumulator's result depends on the order of the additions (threads, lines, algorithms).
// Summed exactly, S(λ) is one number whatever computes it — the one-pass walk, the sum of
// openings, the GPU — and tests can compare them bit for bit.
//
// Representation: a signed fixed-point integer of 6×64 bits (two's complement) whose unit
// is 2^-149, the smallest float32 denormal, so every finite float is a whole number of units;
// |value| < 2^128 times a count < 2^63 needs at most 149 + 128 + 63 + 1 = 341 bits.
#pragma once

#include "compute/host_device.h"

#include <bit>
#include <cstdint>

namespace linescope {

// GCC and Clang's 128-bit integer (nvcc has it too); __extension__ keeps -Wpedantic quiet.
__extension__ typedef unsigned __int128 ExactSumWide;

class ExactSum {
public:
    static constexpr int kLimbs = 6;

    // += value × count (value finite; count may be negative).
    LINESCOPE_HD void add(float value, std::int64_t count) {
        if (count == 0 || value == 0.0f) return;
#ifdef __CUDA_ARCH__
        const std::uint32_t bits = __float_as_uint(value);
#else
        const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
#endif
        const std::uint32_t biased = (bits >> 23) & 0xFFu;
        std::uint64_t mantissa = bits & 0x7FFFFFu;
        // value = mantissa × 2^(exponent − 149): denormals have exponent field 0 and no hidden bit.
        int shift = 0;
        if (biased != 0) {
            mantissa |= 0x800000u;
            shift = static_cast<int>(biased) - 1;
        }
        const bool negative = ((bits >> 31) != 0) != (count < 0);
        const std::uint64_t magnitude = count < 0 ? 0 - static_cast<std::uint64_t>(count) : static_cast<std::uint64_t>(count);
        const ExactSumWide product = static_cast<ExactSumWide>(mantissa) * magnitude;  // < 2^87
        addShifted(product, shift, negative);
    }
    // += value × count for a whole value (the integer images' sums, through the same type).
    LINESCOPE_HD void addInteger(std::int64_t value) {
        if (value == 0) return;
        const bool negative = value < 0;
        const std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
        addShifted(magnitude, 149, negative);
    }
    LINESCOPE_HD ExactSum& operator+=(const ExactSum& o) {
        unsigned carry = 0;
        for (int i = 0; i < kLimbs; ++i) {
            const std::uint64_t s = limb_[i] + o.limb_[i];
            const unsigned c1 = s < limb_[i];
            limb_[i] = s + carry;
            carry = c1 | (limb_[i] < s);
        }
        return *this;
    }
    LINESCOPE_HD ExactSum& operator-=(const ExactSum& o) {
        ExactSum negated = o;
        negated.negate();
        return *this += negated;
    }
    friend ExactSum operator-(ExactSum a, const ExactSum& b) { return a -= b; }
    bool operator==(const ExactSum&) const = default;
    bool isZero() const {
        for (std::uint64_t l : limb_)
            if (l) return false;
        return true;
    }
    bool negative() const { return (limb_[kLimbs - 1] >> 63) != 0; }

    // The sum rounded to the nearest double (ties to even): the one rounding of the whole sum.
    double toDouble() const;

private:
    LINESCOPE_HD void negate() {
        unsigned carry = 1;
        for (int i = 0; i < kLimbs; ++i) {
            const std::uint64_t v = ~limb_[i] + carry;
            carry = carry && v == 0;
            limb_[i] = v;
        }
    }
    // += or −= value × 2^shift units, value < 2^128, shift ≤ 253.
    LINESCOPE_HD void addShifted(ExactSumWide value, int shift, bool subtract) {
        std::uint64_t part[kLimbs] = {};
        const int word = shift / 64, bit = shift % 64;
        const auto lo = static_cast<std::uint64_t>(value), hi = static_cast<std::uint64_t>(value >> 64);
        part[word] = lo << bit;
        if (word + 1 < kLimbs) part[word + 1] = (hi << bit) | (bit ? lo >> (64 - bit) : 0);
        if (word + 2 < kLimbs && bit) part[word + 2] = hi >> (64 - bit);
        if (subtract) {
            unsigned borrow = 0;
            for (int i = 0; i < kLimbs; ++i) {
                const std::uint64_t d = limb_[i] - part[i];
                const unsigned b1 = limb_[i] < part[i];
                limb_[i] = d - borrow;
                borrow = b1 | (d < static_cast<std::uint64_t>(borrow));
            }
        } else {
            unsigned carry = 0;
            for (int i = 0; i < kLimbs; ++i) {
                const std::uint64_t s = limb_[i] + part[i];
                const unsigned c1 = s < part[i];
                limb_[i] = s + carry;
                carry = c1 | (limb_[i] < s);
            }
        }
    }

    std::uint64_t limb_[kLimbs] = {};
};

}  // namespace linescope
