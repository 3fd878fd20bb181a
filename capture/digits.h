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

// "<seconds>[.<fraction>]" at s[p] with at least minIntDigits integer digits, as
// nanoseconds in *ns; returns the position after it, or npos.
std::size_t parseSeconds(std::string_view s, std::size_t p, std::int64_t *ns, int minIntDigits);

} // namespace tty
