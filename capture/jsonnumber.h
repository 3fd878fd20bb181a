// Numbers as the JSON outputs print them. QJsonDocument writes a double in the shortest
// form that reads back the same double, so a time must be the double nearest its exact
// decimal: 1796014801.36475 and 9.199955, not 1796014801.3647501 and 9.199955000000001 as
// the arithmetic leaves them (a nanosecond count times 1e-9). Users paste these figures
// into review threads.
#pragma once

#include "types.h"

#include <QJsonValue>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace tty {

// A host time as seconds: whole seconds and the fraction apart, since a Unix time in
// nanoseconds is past what a double holds exactly.
inline double jsonSeconds(HostNs t)
{
    const std::int64_t ns = t.count();
    return double(ns / 1'000'000'000) + double(ns % 1'000'000'000) / 1e9;
}

// A kernel time in microseconds as seconds.
inline double jsonSeconds(KernelUs t)
{
    const std::int64_t us = t.count();
    return double(us / 1'000'000) + double(us % 1'000'000) / 1e6;
}

// A computed figure (seconds, a mean, a ratio) to 15 significant digits, which a double
// always holds: what is below is the arithmetic's noise. Not finite: null.
inline QJsonValue jsonNumber(double v)
{
    if (!std::isfinite(v)) {
        return QJsonValue(QJsonValue::Null);
    }
    char digits[32];
    std::snprintf(digits, sizeof digits, "%.15g", v);
    return QJsonValue(std::strtod(digits, nullptr));
}

inline QJsonValue jsonNumber(const std::optional<double> &v)
{
    return v ? jsonNumber(*v) : QJsonValue(QJsonValue::Null);
}

} // namespace tty
