#include "digits.h"

namespace tty {

// Runs once per line of every timed format: kept to one pass over the digits.
std::size_t parseSeconds(std::string_view s, std::size_t p, std::int64_t *ns, int minIntDigits)
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
    if (c - intStart < minIntDigits) {
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
