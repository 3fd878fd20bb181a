// tio's log file with --timestamp (tio 2.x, src/tty.c and src/timestamp.c): each line
// starts with "[HH:MM:SS.mmm] " or, with --timestamp-format iso8601,
// "[YYYY-MM-DDTHH:MM:SS.mmm] ". tio stamps a line when the first byte other than CR or LF
// arrives: a line of CRs alone has no stamp, and CRs in front of a line's text come
// before its stamp. The HH:MM:SS formats are the local time of day (24hour), the time
// since tio started (24hour-start; both wrap at 24 h) or the time since the stamp before
// (24hour-delta). None of them tells its date, so their clock is elapsed time; iso8601 is
// the host's local wall clock.
#include "digits.h"
#include "formats.h"
#include "lineframer.h"
#include "run.h"
#include "stampedblocks.h"
#include "untimedlines.h"

#include <QDateTime>
#include <QStringList>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tty {

namespace {

constexpr std::int64_t kHourNs = 3'600'000'000'000;
constexpr std::int64_t kDayNs = 24 * kHourNs;

// Two digits at s[p] as a number below `limit`; -1 otherwise.
int twoDigits(std::string_view s, std::size_t p, int limit)
{
    if (p + 2 > s.size() || !isDigit(s[p]) || !isDigit(s[p + 1])) {
        return -1;
    }
    const int v = (s[p] - '0') * 10 + (s[p + 1] - '0');
    return v < limit ? v : -1;
}

struct TioStamp
{
    enum class Kind { None, Clock, Iso } kind = Kind::None;
    std::int64_t ns = 0;   // into the day (Clock: or the delta)
    std::size_t text = 0;  // where the line's text starts (after the stamp and its space)
    std::string_view date; // Iso: "YYYY-MM-DD"
};

// "HH:MM:SS.mmm" at s[p], as nanoseconds; -1 if it is not one.
std::int64_t clockAt(std::string_view s, std::size_t p)
{
    const int h = twoDigits(s, p, 24), m = twoDigits(s, p + 3, 60), sec = twoDigits(s, p + 6, 61);
    if (h < 0 || m < 0 || sec < 0 || s.size() < p + 12 || s[p + 2] != ':' || s[p + 5] != ':' ||
        s[p + 8] != '.' || !isDigit(s[p + 9]) || !isDigit(s[p + 10]) || !isDigit(s[p + 11])) {
        return -1;
    }
    const int ms = (s[p + 9] - '0') * 100 + (s[p + 10] - '0') * 10 + (s[p + 11] - '0');
    return ((std::int64_t(h) * 60 + m) * 60 + sec) * 1'000'000'000 + std::int64_t(ms) * 1'000'000;
}

TioStamp parseStamp(std::string_view s)
{
    TioStamp st;
    std::size_t p = 0;
    while (p < s.size() && s[p] == '\r') {
        ++p;
    }
    if (p >= s.size() || s[p] != '[') {
        return st;
    }
    ++p;
    std::size_t close = 0;
    if (s.size() > p + 10 && s[p + 4] == '-' && s[p + 7] == '-' && s[p + 10] == 'T') {
        for (std::size_t i : {p, p + 1, p + 2, p + 3}) {
            if (!isDigit(s[i])) {
                return st;
            }
        }
        if (twoDigits(s, p + 5, 13) < 1 || twoDigits(s, p + 8, 32) < 1) {
            return st;
        }
        st.date = s.substr(p, 10);
        st.ns = clockAt(s, p + 11);
        st.kind = TioStamp::Kind::Iso;
        close = p + 23;
    } else {
        st.ns = clockAt(s, p);
        st.kind = TioStamp::Kind::Clock;
        close = p + 12;
    }
    if (st.ns < 0 || close >= s.size() || s[close] != ']') {
        return TioStamp{};
    }
    st.text = close + 1 < s.size() && s[close + 1] == ' ' ? close + 2 : close + 1;
    return st;
}

// tio's lines in file order into console lines and their arrival times: the stamps'
// clock (time of day, since the start, deltas, or the wall clock), midnight and what could
// not be read. A line goes out through `out` once its stamp's meaning is known.
class TioLines
{
public:
    using Emit = std::function<void(std::string_view body, std::optional<HostNs> arrival,
                                    std::uint16_t flags)>;
    explicit TioLines(Emit out) : m_emit(std::move(out)) {}

    void line(const LineFramer::Line &l)
    {
        const TioStamp st = parseStamp(l.text);
        const std::uint16_t flags = l.newline ? 0 : (l.split ? Split : NoNewline);
        if (m_decided) {
            add(l.text, flags, st);
            return;
        }
        if (st.kind == TioStamp::Kind::Clock) {
            if (m_lastClock >= 0 && st.ns < m_lastClock && m_lastClock - st.ns < kWrapAtLeast) {
                m_delta = ++m_stepsBack >= 2;
            }
            m_lastClock = st.ns;
        }
        Pending p{std::string(l.text), flags, st, 0};
        if (st.kind == TioStamp::Kind::Iso) {
            p.dateAt = std::size_t(st.date.data() - l.text.data());
        }
        m_pendingBytes += p.text.size();
        m_pending.push_back(std::move(p));
        // Held back no further than kDecideAfter lines or 16 MiB (a forced --format tio
        // on a file without stamps, or of endless lines): then they are a clock.
        if (m_delta || st.kind == TioStamp::Kind::Iso || m_pending.size() >= kDecideAfter ||
            m_pendingBytes >= kHeldBytes) {
            decide();
        }
    }

    // At the end of the input: the lines still held back go out.
    void finish() { decide(); }

    // The stamps are the host's local wall clock (iso8601), not elapsed time.
    bool wallClock() const { return m_kind == TioStamp::Kind::Iso; }

    QStringList warnings() const
    {
        QStringList w;
        if (m_delta) {
            w << QStringLiteral("tio 24hour-delta stamps: arrival times are the sum of the "
                                "deltas from tio's start");
        }
        w << m_untimed.warnings(QStringLiteral("line(s) with text"), QStringLiteral("tio"));
        if (m_overflow > 0) {
            w << QStringLiteral("%1 line(s) had a tio timestamp past what the clock can hold "
                                "(more than 292 years of stamps added up); kept with the time "
                                "of the line before")
                     .arg(m_overflow);
        }
        if (m_mixed > 0) {
            w << QStringLiteral("%1 line(s) had a tio timestamp of another format than the "
                                "first (the stamp format was switched during the session); "
                                "kept with the time of the line before")
                     .arg(m_mixed);
        }
        return w;
    }

private:
    struct Pending
    {
        std::string text;
        std::uint16_t flags;
        TioStamp stamp;
        std::size_t dateAt; // Iso: the date's offset in `text`
    };

    // Whether HH:MM:SS stamps are deltas: the first stamps are held back until that is
    // known. A clock (of the day or since the start) goes back by less than half a day
    // only when the host's clock is set back (NTP, the end of summer time), rarely; deltas
    // go up and down from the start (at 115200 baud a line of 60 bytes takes 5 ms, so
    // even a flood's deltas vary): two such steps make them deltas.
    static constexpr std::size_t kDecideAfter = 4096;
    static constexpr std::int64_t kWrapAtLeast = kDayNs / 2;
    static constexpr std::size_t kHeldBytes = std::size_t(16) << 20;

    void decide()
    {
        if (m_decided) {
            return;
        }
        m_decided = true;
        m_lastClock = -1;
        for (Pending &p : m_pending) {
            if (p.stamp.kind == TioStamp::Kind::Iso) {
                p.stamp.date = std::string_view(p.text).substr(p.dateAt, 10);
            }
            add(p.text, p.flags, p.stamp);
        }
        m_pending.clear();
        m_pending.shrink_to_fit();
    }

    // The stamp on the host clock; none when the line has no usable one.
    std::optional<HostNs> arrivalOf(const TioStamp &st)
    {
        if (st.kind == TioStamp::Kind::None) {
            return std::nullopt;
        }
        if (!m_kind) {
            m_kind = st.kind;
        }
        if (st.kind != *m_kind) {
            ++m_mixed;
            return std::nullopt;
        }
        if (st.kind == TioStamp::Kind::Iso) {
            // The local time of the hour's start, cached: one QDateTime an hour rather than
            // a line, and exact across a change of summer time (at an hour's start).
            const std::int64_t hour = st.ns / kHourNs;
            if (st.date != m_dateKey || hour != m_hourKey) {
                const QDateTime dt =
                    QDateTime::fromString(QStringLiteral("%1T%2:00:00")
                                              .arg(QString::fromLatin1(st.date.data(), 10))
                                              .arg(hour, 2, 10, QLatin1Char('0')),
                                          Qt::ISODate);
                std::int64_t hourStart = 0;
                if (!dt.isValid() || __builtin_mul_overflow(dt.toMSecsSinceEpoch(),
                                                            std::int64_t(1'000'000), &hourStart)) {
                    return std::nullopt;
                }
                m_dateKey = std::string(st.date);
                m_hourKey = hour;
                m_hourStart = hourStart;
            }
            return HostNs(m_hourStart + st.ns % kHourNs);
        }
        // Untrusted: a file of 23:59:59 deltas, or of stamps that wrap every line, runs
        // past int64 nanoseconds after some 10^5 lines; those lines get no time.
        std::int64_t at = 0;
        if (m_delta) {
            if (__builtin_add_overflow(m_elapsed, st.ns, &at)) {
                ++m_overflow;
                return std::nullopt;
            }
            m_elapsed = at;
            return HostNs(at);
        }
        // Back by half a day or more: midnight, or 24 h since tio started. Back by less:
        // the host's clock was set back, which the loader folds (and reports) as for
        // every format with host times.
        const bool wrapped = m_lastClock >= 0 && m_lastClock - st.ns >= kWrapAtLeast;
        const std::int64_t days = wrapped ? m_days + 1 : m_days;
        if (__builtin_mul_overflow(days, kDayNs, &at) || __builtin_add_overflow(at, st.ns, &at)) {
            ++m_overflow;
            return std::nullopt;
        }
        m_days = days;
        m_lastClock = st.ns;
        return HostNs(at);
    }

    void add(std::string_view text, std::uint16_t flags, const TioStamp &st)
    {
        const std::optional<HostNs> at = arrivalOf(st);
        std::string_view body = text;
        if (st.kind != TioStamp::Kind::None) {
            body = text.substr(st.text);
        } else {
            std::size_t p = 0;
            while (p < body.size() && body[p] == '\r') {
                ++p;
            }
            body = body.substr(p);
            if (!body.empty()) { // a line of CRs alone is never stamped
                m_untimed.count(m_last.has_value());
            }
        }
        if (at) {
            m_last = at;
        }
        // Lines before the first stamp have no time; later untimed ones arrived after
        // the line before, whose time they keep (as grabserial's).
        m_emit(body, m_last, flags);
    }

    Emit m_emit;
    std::vector<Pending> m_pending;
    std::size_t m_pendingBytes = 0;
    bool m_decided = false;
    bool m_delta = false;
    std::int64_t m_lastClock = -1;
    int m_stepsBack = 0; // small steps back among the held lines
    std::int64_t m_days = 0;
    std::int64_t m_elapsed = 0;
    std::optional<TioStamp::Kind> m_kind;
    std::optional<HostNs> m_last;
    std::string m_dateKey;
    std::int64_t m_hourKey = -1;
    std::int64_t m_hourStart = 0;
    UntimedLines m_untimed;
    std::int64_t m_mixed = 0;
    std::int64_t m_overflow = 0;
};

// The reader's side of a tio log: framed, stamped and gathered into blocks (stampedblocks.h).
class TioBlockMaker : public StampedBlockMaker
{
public:
    TioBlockMaker(std::size_t blockBytes, Deliver deliver, Spare spare)
        : m_out(blockBytes, std::move(deliver), std::move(spare)),
          m_lines([this](std::string_view body, std::optional<HostNs> at, std::uint16_t flags) {
              // As sent: with its CR LF.
              m_out.line(body, at, flags, std::int64_t(body.size()) + 2);
          })
    {
    }

    bool feed(const char *p, std::size_t n) override
    {
        m_framer.feed(p, n, std::nullopt, [this](const LineFramer::Line &l) { m_lines.line(l); });
        return true;
    }

    void finish() override
    {
        m_framer.finish([this](const LineFramer::Line &l) { m_lines.line(l); });
        m_lines.finish();
        m_out.finish();
    }

    void report(Run &run) const override
    {
        run.arrivalIsWallClock = m_lines.wallClock();
        run.warnings << m_lines.warnings();
    }

private:
    StampedBlockWriter m_out;
    LineFramer m_framer;
    TioLines m_lines;
};

} // namespace

bool looksTio(std::string_view line)
{
    return parseStamp(line).kind != TioStamp::Kind::None;
}

std::unique_ptr<StampedBlockMaker> makeTioBlockMaker(std::size_t blockBytes,
                                                     StampedBlockMaker::Deliver deliver,
                                                     StampedBlockMaker::Spare spare)
{
    return std::make_unique<TioBlockMaker>(blockBytes, std::move(deliver), std::move(spare));
}

} // namespace tty
