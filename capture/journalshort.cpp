// journalctl's text outputs (systemd's logs-show.c), "STAMP [HOST ]IDENT[PID]: MESSAGE":
//  - `-o short-monotonic`: "[    1.234567]": for a kernel entry the kernel's own stamp
//    (journalctl shows _SOURCE_MONOTONIC_TIMESTAMP where the entry has one); for other
//    entries journald's monotonic clock at receipt, which is not the kernel's: only lines
//    whose identifier is `kernel` get it as kernel time;
//  - `-o short-iso-precise`: "2026-12-01T20:10:49.123456+00:00" (older systemd: "+0000"),
//    `-o short-precise`: "Dec 01 20:10:49.123456": when journald processed the entry it
//    read from the kernel's log, not when a console printed it: no arrival time, and not
//    used (journaldTimesWarning); these lines have no time.
// Continuation lines of a multi-line message are indented; "-- Boot ... --" and the like
// are journalctl's own. journalctl shows a message that is not printable text as
// "[N blob data]" and strips escape sequences: -o json or -o export keep them.
#include "formats.h"

#include "civiltime.h"
#include "journalentry.h"
#include "jsonrecord.h"
#include "lineframer.h"
#include "run.h"
#include "runbuilder.h"

namespace tty {

namespace {

enum class ShortStamp { Monotonic, Iso, Precise };

struct ShortLine
{
    ShortStamp stamp{};
    std::int64_t value = 0; // Monotonic: µs; Iso: ns since the epoch; Precise: see below
    unsigned month = 0, day = 0, hour = 0, minute = 0, second = 0, micro = 0; // Precise
    std::size_t headStart = 0; // after the stamp and its space
    std::size_t message = 0;   // after ": "
    std::string_view ident;    // without "[pid]"
};

// "[  1.234567]" or short-delta's "[  1.234567 <  0.000100 >]".
std::size_t monotonicStamp(std::string_view s, std::int64_t *us)
{
    if (s.empty() || s[0] != '[') {
        return std::string_view::npos;
    }
    const std::size_t end = s.find(']');
    if (end == std::string_view::npos) {
        return std::string_view::npos;
    }
    std::string_view in = s.substr(1, end - 1);
    in = in.substr(0, in.find(" <"));
    const std::optional<KernelUs> k = parseKernelSeconds(in);
    if (!k || in.size() < 8 || in[in.size() - 7] != '.') {
        return std::string_view::npos;
    }
    *us = k->count();
    return end + 1;
}

// "YYYY-MM-DDTHH:MM:SS.uuuuuu" and a UTC offset "+HH:MM" / "+HHMM".
std::size_t isoStamp(std::string_view s, std::int64_t *ns)
{
    if (s.size() < 31 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
        s[16] != ':' || s[19] != '.') {
        return std::string_view::npos;
    }
    const auto y = fixedDigits(s, 0, 4), mo = fixedDigits(s, 5, 2), d = fixedDigits(s, 8, 2),
               h = fixedDigits(s, 11, 2), mi = fixedDigits(s, 14, 2), sec = fixedDigits(s, 17, 2),
               us = fixedDigits(s, 20, 6);
    if (!y || !mo || !d || !h || !mi || !sec || !us || (s[26] != '+' && s[26] != '-')) {
        return std::string_view::npos;
    }
    const auto oh = fixedDigits(s, 27, 2);
    const bool colon = s.size() > 29 && s[29] == ':';
    const auto om = fixedDigits(s, colon ? 30 : 29, 2);
    const std::optional<std::int64_t> t = civilSeconds(*y, *mo, *d, *h, *mi, *sec);
    if (!oh || !om || !t || *oh > 23 || *om > 59) {
        return std::string_view::npos;
    }
    const std::int64_t offset = (std::int64_t(*oh) * 3600 + *om * 60) * (s[26] == '-' ? -1 : 1);
    // Years 0000-9999 are within int64 ns of... not all: bound them like other formats.
    const std::int64_t utc = *t - offset;
    if (utc < -kMaxSecondsInNs || utc > kMaxSecondsInNs) {
        return std::string_view::npos;
    }
    *ns = utc * 1000000000 + std::int64_t(*us) * 1000;
    return colon ? 32 : 31;
}

// "Mmm dd HH:MM:SS.uuuuuu".
std::size_t preciseStamp(std::string_view s, ShortLine *out)
{
    if (s.size() < 22 || s[3] != ' ' || s[6] != ' ' || s[9] != ':' || s[12] != ':' ||
        s[15] != '.') {
        return std::string_view::npos;
    }
    const auto mo = monthFromAbbrev(s.substr(0, 3));
    const auto d = fixedDigits(s, 4, 2), h = fixedDigits(s, 7, 2), mi = fixedDigits(s, 10, 2),
               sec = fixedDigits(s, 13, 2), us = fixedDigits(s, 16, 6);
    if (!mo || !d || !h || !mi || !sec || !us || !civilSeconds(2000, *mo, *d, *h, *mi, *sec)) {
        return std::string_view::npos;
    }
    out->month = *mo;
    out->day = *d;
    out->hour = *h;
    out->minute = *mi;
    out->second = *sec;
    out->micro = *us;
    return 22;
}

bool parseShort(std::string_view s, ShortLine *out)
{
    std::size_t p = monotonicStamp(s, &out->value);
    out->stamp = ShortStamp::Monotonic;
    if (p == std::string_view::npos) {
        p = isoStamp(s, &out->value);
        out->stamp = ShortStamp::Iso;
    }
    if (p == std::string_view::npos) {
        p = preciseStamp(s, out);
        out->stamp = ShortStamp::Precise;
    }
    if (p == std::string_view::npos || p >= s.size() || s[p] != ' ') {
        return false;
    }
    out->headStart = p + 1;
    // "[HOST ]IDENT[PID]: ": neither host nor identifier holds ": ".
    const std::size_t colon = s.find(": ", out->headStart);
    const std::size_t colonEnd = colon == std::string_view::npos && s.back() == ':'
                                     ? s.size() - 1 // an empty message: "host kernel:"
                                     : colon;
    if (colonEnd == std::string_view::npos || colonEnd == out->headStart) {
        return false;
    }
    const std::string_view head = s.substr(out->headStart, colonEnd - out->headStart);
    std::string_view ident =
        head.substr(head.rfind(' ') == std::string_view::npos ? 0 : head.rfind(' ') + 1);
    if (!ident.empty() && ident.back() == ']') {
        ident = ident.substr(0, ident.rfind('['));
    }
    out->ident = ident;
    out->message = std::min(s.size(), colonEnd + 2);
    return !ident.empty();
}

class JournalShortParser : public FormatParser
{
public:
    JournalShortParser(Run &run, RunBuilder &b) : m_run(run), m_b(b) {}
    bool feed(const char *p, std::size_t n) override
    {
        m_framer.feed(p, n, std::nullopt, [this](const LineFramer::Line &l) { line(l); });
        return true;
    }
    void finish() override
    {
        m_framer.finish([this](const LineFramer::Line &l) { line(l); });
        if (m_journaldStamps > 0) {
            m_run.warnings << journaldTimesWarning(m_journaldStamps);
        }
        if (m_bad > 0) {
            m_run.warnings << QStringLiteral("%1 line(s) were not journalctl lines; kept as "
                                             "console lines without a time")
                                  .arg(m_bad);
        }
        if (m_notKernel > 0 && m_sawMonotonic) {
            m_run.warnings << QStringLiteral(
                                  "%1 line(s) were not the kernel's (identifier other than "
                                  "'kernel'): in -o short-monotonic their stamp may be "
                                  "journald's clock, not the kernel's, so they have no time "
                                  "(journalctl -o json keeps every entry's own stamps)")
                                  .arg(m_notKernel);
        }
        if (m_blobs > 0) {
            m_run.warnings << QStringLiteral("%1 message(s) were shown by journalctl as '[... "
                                             "blob data]' (not printable text): their text is "
                                             "lost (journalctl -o json or -o export keeps it)")
                                  .arg(m_blobs);
        }
    }

private:
    void add(std::string_view text, std::uint16_t flags)
    {
        m_b.addBytes(std::int64_t(text.size()) + 2);
        m_b.addRecordLine(text, std::nullopt, flags, m_kernel, std::nullopt, 0);
    }
    void line(const LineFramer::Line &l)
    {
        const std::uint16_t flags = l.newline ? 0 : (l.split ? Split : NoNewline);
        const std::string_view s = l.text;
        if (s.empty()) {
            return;
        }
        if (s.size() >= 6 && s.substr(0, 3) == "-- " && s.substr(s.size() - 3) == " --") {
            ++m_run.metaLines; // "-- Boot ... --", "-- No entries --": journalctl's own
            return;
        }
        ShortLine sl;
        if (!parseShort(s, &sl)) {
            if (m_indent > 0 && s.size() > m_indent && s.find_first_not_of(' ') >= m_indent) {
                add(s.substr(m_indent), flags); // a further line of the message before
                return;
            }
            ++m_bad;
            m_kernel.reset();
            add(s, flags);
            return;
        }
        const bool kernelName = sl.ident == "kernel";
        m_kernel.reset();
        if (sl.stamp == ShortStamp::Monotonic) {
            m_sawMonotonic = true;
            if (kernelName) {
                m_kernel = KernelUs(sl.value);
            } else {
                ++m_notKernel;
            }
        } else {
            ++m_journaldStamps;
        }
        m_indent = sl.message;
        // The kernel's own lines as it printed them; other lines behind their identifier.
        const std::string_view text =
            kernelName ? s.substr(sl.message)
                       : s.substr(s.find_first_not_of(' ', s.rfind(' ', sl.message - 2) + 1));
        const std::string_view msg = s.substr(sl.message);
        if (msg.size() > 12 && msg.front() == '[' && msg.substr(msg.size() - 11) == " blob data]") {
            ++m_blobs;
        }
        add(kernelName ? msg : text, flags);
    }
    Run &m_run;
    RunBuilder &m_b;
    LineFramer m_framer;
    bool m_sawMonotonic = false;
    std::optional<KernelUs> m_kernel;
    std::size_t m_indent = 0;
    std::int64_t m_bad = 0, m_notKernel = 0, m_blobs = 0, m_journaldStamps = 0;
};

} // namespace

bool looksJournalShort(std::string_view l)
{
    ShortLine sl;
    if (!parseShort(l, &sl)) {
        return false;
    }
    // A console line "[ 1.2] usb 1-1: new ..." has a monotonic-looking stamp too: only
    // journalctl writes "kernel:" after it.
    return sl.stamp != ShortStamp::Monotonic || sl.ident == "kernel";
}

std::unique_ptr<FormatParser> makeJournalShortParser(Run &run, RunBuilder &builder)
{
    return std::make_unique<JournalShortParser>(run, builder);
}

} // namespace tty
