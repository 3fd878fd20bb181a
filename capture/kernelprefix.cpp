#include "kernelprefix.h"

#include "digits.h"
#include "kmsgheader.h"

#include <cstring>

namespace tty {

namespace {

constexpr std::size_t kSearchWindow = 256;

// Parses "[ seconds.micro]" at p; returns the position after ']' or npos. Strict: exactly
// six fraction digits as printk writes them (used away from the line start).
std::size_t parseTime(std::string_view s, std::size_t p, std::int64_t *outUs, bool strict = false,
                      bool *damaged = nullptr)
{
    const char *const b = s.data();
    const char *const e = b + s.size();
    const char *c = b + p;
    if (c >= e || *c != '[') {
        return std::string_view::npos;
    }
    ++c;
    while (c < e && *c == ' ') {
        ++c;
    }
    const char *const intStart = c;
    std::int64_t sec = 0;
    while (c < e && isDigit(*c)) {
        sec = sec * 10 + (*c++ - '0');
        if (c - intStart > 12) {
            return std::string_view::npos;
        }
    }
    // Bounded like host seconds (kMaxSecondsInNs): the boot offsets scale kernel time to
    // nanoseconds, and no kernel has been up for 292 years.
    // No seconds digit ("[   .000000]": lost) is damaged too, away from the start never.
    const bool noSeconds = c == intStart;
    if ((noSeconds && strict) || c >= e || *c != '.' || sec > kMaxSecondsInNs) {
        return std::string_view::npos;
    }
    const char *const fracStart = ++c;
    std::int64_t frac = 0;
    while (c < e && isDigit(*c)) {
        if (c - fracStart < 6) {
            frac = frac * 10 + (*c - '0');
        }
        ++c;
    }
    const std::ptrdiff_t fd = c - fracStart;
    if (c < e && *c == '@') {
        // Amlogic's vendor kernels (4.9, 4.19) print the CPU: "[    0.000000@0]".
        const char *const cpu = ++c;
        while (c < e && isDigit(*c) && c - cpu < 4) {
            ++c;
        }
        if (c == cpu) {
            return std::string_view::npos;
        }
    }
    if (fd == 0 || (strict && fd != 6) || c >= e || *c != ']') {
        return std::string_view::npos;
    }
    // printk writes six fraction digits; fewer or more are characters a UART lost or
    // garbage: the prefix ends there, but its time is not a time (outUs left alone).
    const bool whole = fd == 6 && !noSeconds;
    if (whole) {
        *outUs = sec * 1000000 + frac;
    }
    if (damaged) {
        *damaged = !whole;
    }
    return std::size_t(c + 1 - b);
}

// Parses "[ T123]" / "[C1]" at p; returns the position after ']' or npos.
std::size_t parseCaller(std::string_view s, std::size_t p, std::optional<Caller> *caller)
{
    if (p >= s.size() || s[p] != '[') {
        return std::string_view::npos;
    }
    ++p;
    while (p < s.size() && s[p] == ' ') {
        ++p;
    }
    if (p >= s.size() || (s[p] != 'T' && s[p] != 'C')) {
        return std::string_view::npos;
    }
    const char k = s[p++];
    int v = 0, digits = 0;
    while (p < s.size() && isDigit(s[p])) {
        if (++digits > 9) {
            return std::string_view::npos;
        }
        v = v * 10 + (s[p++] - '0');
    }
    if (digits == 0 || p >= s.size() || s[p] != ']') {
        return std::string_view::npos;
    }
    *caller = Caller{k, v};
    return p + 1;
}

} // namespace

KernelPrefix parseKernelPrefix(std::string_view s)
{
    KernelPrefix r;
    if (!s.empty() && isDigit(s[0])) {
        // A record of netconsole's extended form; a line whose text merely starts with a
        // digit ("8250: ttyS0 at ...", without printk.time) has not the header's shape.
        if (const std::optional<KmsgHeader> h = parseKmsgHeader(s)) {
            // Bounded as a bracketed time is (parseTime): a time past any uptime, with the
            // host times of a capture beside it, is garbage, not a time to lay out.
            if (h->time.count() / 1000000 <= kMaxSecondsInNs) {
                r.time = h->time;
            } else {
                r.timeDamaged = true;
            }
            r.level = h->level;
            r.caller = h->caller;
            r.sequence = h->sequence;
            r.fragment = h->fragment;
            r.message = h->message;
            return r;
        }
    }
    std::size_t p = 0;
    if (s.size() >= 3 && s[0] == '<' && isDigit(s[1])) {
        std::size_t q = 1;
        int v = 0;
        while (q < s.size() && q < 5 && isDigit(s[q])) {
            v = v * 10 + (s[q++] - '0');
        }
        if (q < s.size() && s[q] == '>') {
            r.level = v & 7;
            p = q + 1;
        }
    }
    std::int64_t us = 0;
    bool damaged = false;
    std::size_t after = parseTime(s, p, &us, false, &damaged);
    if (after == std::string_view::npos && p == 0) {
        // Not at the start: look for a timestamp behind escape codes or a prompt.
        const std::size_t limit = s.size() < kSearchWindow ? s.size() : kSearchWindow;
        std::size_t q = 1;
        while (q < limit) {
            const void *hit = std::memchr(s.data() + q, '[', limit - q);
            if (!hit) {
                break;
            }
            q = std::size_t(static_cast<const char *>(hit) - s.data());
            after = parseTime(s, q, &us, true);
            if (after != std::string_view::npos) {
                r.timeAt = q;
                break;
            }
            ++q;
        }
    }
    if (after != std::string_view::npos) {
        p = after;
        if (damaged) {
            r.timeDamaged = true;
        } else {
            r.time = KernelUs(us);
        }
    }
    const std::size_t c = parseCaller(s, p, &r.caller);
    if (c != std::string_view::npos) {
        p = c;
    }
    if (p > 0 && p < s.size() && s[p] == ' ') {
        ++p;
    }
    r.message = p;
    return r;
}

bool promptBeforeTimestamp(std::string_view line, const KernelPrefix &p)
{
    return p.time && p.timeAt > 0 && p.timeAt <= line.size() &&
           line.substr(0, p.timeAt).find(kLoginPrompt) != std::string_view::npos;
}

} // namespace tty
