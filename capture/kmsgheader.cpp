#include "kmsgheader.h"

#include "digits.h"

namespace tty {

namespace {

// The fields before ';' and a release in front: a header is short (the longest the kernel
// writes is "caller=C123456,ncfrag=10000/65535"), and text is not searched far for ';'.
constexpr std::size_t kFieldsWithin = 128;
constexpr std::size_t kReleaseWithin = 64;

// A decimal number of at most 18 digits (what int64 holds) at p, followed by ','.
bool numberThenComma(std::string_view s, std::size_t *p, std::uint64_t *out)
{
    std::size_t q = *p;
    std::uint64_t v = 0;
    while (q < s.size() && isDigit(s[q])) {
        if (q - *p == 18) {
            return false;
        }
        v = v * 10 + std::uint64_t(s[q++] - '0');
    }
    if (q == *p || q >= s.size() || s[q] != ',') {
        return false;
    }
    *out = v;
    *p = q + 1;
    return true;
}

// "caller=T123" / "caller=C1" at the start of `field`.
std::optional<Caller> callerField(std::string_view field)
{
    constexpr std::string_view kKey = "caller=";
    if (field.substr(0, kKey.size()) != kKey || field.size() < kKey.size() + 2) {
        return std::nullopt;
    }
    const char kind = field[kKey.size()];
    if (kind != 'T' && kind != 'C') {
        return std::nullopt;
    }
    int id = 0;
    std::size_t digits = 0;
    for (std::size_t q = kKey.size() + 1; q < field.size(); ++q, ++digits) {
        if (!isDigit(field[q]) || digits == 9) {
            return std::nullopt;
        }
        id = id * 10 + (field[q] - '0');
    }
    return Caller{kind, id};
}

std::optional<KmsgHeader> headerAt(std::string_view s, std::size_t p)
{
    std::uint64_t prefix = 0, sequence = 0, us = 0;
    if (!numberThenComma(s, &p, &prefix) || !numberThenComma(s, &p, &sequence) ||
        !numberThenComma(s, &p, &us) || p >= s.size()) {
        return std::nullopt;
    }
    const char flag = s[p++];
    if ((flag != '-' && flag != 'c' && flag != '+') || p >= s.size() ||
        (s[p] != ';' && s[p] != ',')) {
        return std::nullopt;
    }
    KmsgHeader h;
    h.level = int(prefix & 7);
    h.sequence = sequence;
    h.time = KernelUs(std::int64_t(us));
    const std::size_t limit = std::min(s.size(), p + kFieldsWithin);
    while (s[p] == ',') {
        const std::size_t start = ++p;
        while (p < limit && s[p] != ',' && s[p] != ';' && s[p] != ' ') {
            ++p;
        }
        if (p >= limit || s[p] == ' ') {
            return std::nullopt;
        }
        const std::string_view field = s.substr(start, p - start);
        if (const std::optional<Caller> c = callerField(field)) {
            h.caller = c;
        } else if (field.substr(0, 7) == "ncfrag=") {
            h.fragment = true;
        }
    }
    h.message = p + 1;
    return h;
}

} // namespace

bool isRecordDictionaryLine(std::string_view s)
{
    // Keys are the kernel's (upper case) or a userdata directory's name (53 bytes at most).
    constexpr std::size_t kLongestKey = 64;
    if (s.size() < 3 || s[0] != ' ') {
        return false;
    }
    for (std::size_t q = 1; q < s.size() && q <= kLongestKey + 1; ++q) {
        const char c = s[q];
        if (c == '=') {
            return q > 1;
        }
        if (!isDigit(c) && !(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z') && c != '_' &&
            c != '-' && c != '.') {
            return false;
        }
    }
    return false;
}

std::optional<KmsgHeader> parseKmsgHeader(std::string_view s)
{
    if (s.empty() || !isDigit(s[0])) {
        return std::nullopt;
    }
    if (std::optional<KmsgHeader> h = headerAt(s, 0)) {
        return h;
    }
    // netconsole's `release` option puts the kernel's release first ("6.12.0-rt-amd64,"): a
    // word that starts with a digit and holds a dot.
    const std::size_t limit = std::min(s.size(), kReleaseWithin);
    bool dot = false;
    for (std::size_t q = 1; q < limit; ++q) {
        const char c = s[q];
        if (c == ',') {
            std::optional<KmsgHeader> h = dot ? headerAt(s, q + 1) : std::nullopt;
            if (h) {
                h->release = true;
            }
            return h;
        }
        dot = dot || c == '.';
        if (c == ' ' || c == ';' || c == '[' || c == ']' || std::uint8_t(c) < 0x21 ||
            std::uint8_t(c) > 0x7e) {
            return std::nullopt;
        }
    }
    return std::nullopt;
}

} // namespace tty
