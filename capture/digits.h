// Digit parsing for the per-line timestamp parsers: eight ASCII digits at a time.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace tty {

inline bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// The eight bytes at p as a decimal number (the first byte most significant); false when
// any of them is not a digit. The caller guarantees that eight bytes are readable.
inline bool parseEightDigits(const char *p, std::uint64_t *value)
{
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    constexpr std::uint64_t kHigh = 0xF0F0F0F0F0F0F0F0ull, kZeros = 0x3030303030303030ull;
    // Every byte 0x30..0x39: high nibble 3, and adding 6 does not carry out of the nibble.
    if ((v & kHigh) != kZeros || ((v + 0x0606060606060606ull) & kHigh) != kZeros) {
        return false;
    }
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v); // put the first byte lowest
#endif
    v -= kZeros;
    v = (v * 10 + (v >> 8)) & 0x00FF00FF00FF00FFull;
    v = (v * 100 + (v >> 16)) & 0x0000FFFF0000FFFFull;
    v = (v * 10000 + (v >> 32)) & 0xFFFFFFFFull;
    *value = v;
    return true;
}

// The most whole seconds a time in int64 nanoseconds can hold (year 2262 as Unix time):
// a number above it is not a timestamp, and scaling it would overflow.
constexpr std::int64_t kMaxSecondsInNs = INT64_MAX / 1000000000 - 1;

// "<seconds>[.<fraction>]" at s[p] with at least minIntDigits integer digits, as
// nanoseconds in *ns; returns the position after it, or npos (also for more seconds than
// nanoseconds in int64 can hold). Inline: it runs once per line of every timed format.
inline std::size_t parseSeconds(std::string_view s, std::size_t p, std::int64_t *ns,
                                int minIntDigits)
{
    static constexpr std::int64_t kScale[10] = {1000000000, 100000000, 10000000, 1000000, 100000,
                                                10000,      1000,      100,      10,      1};
    const char *const b = s.data();
    const char *const e = b + s.size();
    const char *c = b + p;
    const char *const intStart = c;
    std::int64_t sec = 0;
    std::uint64_t eight = 0;
    if (e - c >= 8 && parseEightDigits(c, &eight)) { // Unix seconds have ten digits
        sec = std::int64_t(eight);
        c += 8;
    }
    while (c < e && isDigit(*c)) {
        sec = sec * 10 + (*c++ - '0');
        if (c - intStart > 12) {
            return std::string_view::npos;
        }
    }
    if (c - intStart < minIntDigits || sec > kMaxSecondsInNs) {
        return std::string_view::npos;
    }
    std::int64_t frac = 0;
    if (c < e && *c == '.') {
        const char *const fracStart = ++c;
        const char *const fracEnd = e - c > 9 ? c + 9 : e;
        while (c < fracEnd && isDigit(*c)) {
            frac = frac * 10 + (*c++ - '0');
        }
        frac *= kScale[c - fracStart];
        while (c < e && isDigit(*c)) {
            ++c; // digits beyond nanoseconds
        }
    }
    *ns = sec * 1000000000 + frac;
    return std::size_t(c - b);
}

} // namespace tty
