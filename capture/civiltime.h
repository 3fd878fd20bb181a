// Calendar arithmetic for the text stamps of journalctl and dmesg, without QDateTime (too
// slow per line) and without the local time zone (the file says which, or nothing).
#pragma once

#include "digits.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace tty {

// Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (H. Hinnant's
// days_from_civil); m 1..12, d 1..31, any y.
constexpr std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2 ? 1 : 0;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + std::int64_t(doe) - 719468;
}

// "Jan".."Dec" (C locale, as journalctl and dmesg print in it) as 1..12.
inline std::optional<unsigned> monthFromAbbrev(std::string_view s)
{
    static constexpr std::string_view kMonths[12] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    for (unsigned i = 0; i < 12; ++i) {
        if (s == kMonths[i]) {
            return i + 1;
        }
    }
    return std::nullopt;
}

// n digits at s[p] as a number; none unless all are digits.
inline std::optional<unsigned> fixedDigits(std::string_view s, std::size_t p, std::size_t n)
{
    if (p + n > s.size()) {
        return std::nullopt;
    }
    unsigned v = 0;
    for (std::size_t i = p; i < p + n; ++i) {
        if (!isDigit(s[i])) {
            return std::nullopt;
        }
        v = v * 10 + unsigned(s[i] - '0');
    }
    return v;
}

// The seconds of a date and time of day since the epoch, when each field is in range.
inline std::optional<std::int64_t> civilSeconds(std::int64_t y, unsigned mo, unsigned d, unsigned h,
                                                unsigned mi, unsigned s)
{
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) {
        return std::nullopt;
    }
    return daysFromCivil(y, mo, d) * 86400 + std::int64_t(h) * 3600 + mi * 60 + s;
}

} // namespace tty
