// Searching the lines for the figures' patterns, and the small conversions every pass of
// the metrics shares.
#include "metricparts.h"

#include "bootstart.h"
#include "linematcher.h"
#include "parallel.h"
#include "textreader.h"

namespace tty {

std::optional<LineIndex> findFirstWith(TextReader &reader, const LineMatcher &m, LineIndex from,
                                       LineIndex end)
{
    if (!m.literal().empty() && m.isValid()) {
        // Only lines holding the required literal can match: find those in bulk.
        for (LineIndex i = from; i < end; ++i) {
            const std::optional<LineIndex> hit = reader.findContaining(m.literal(), i, end);
            if (!hit || m.literalOnly() || m.matches(reader.text(*hit))) {
                return hit;
            }
            i = *hit;
        }
        return std::nullopt;
    }
    for (LineIndex i = from; i < end; ++i) {
        if (m.matches(reader.text(i))) {
            return i;
        }
    }
    return std::nullopt;
}

// A pattern that is found late or not at all is searched for through the whole text: a
// big run is searched by slices on every core, each with a matcher of its own (a regex
// object must not be shared between threads). The slices are taken in order, and none is
// started after one before it found the pattern: a hit early in a big log ends the search
// there, and one late costs the slices before it only.
std::optional<LineIndex> findFirst(const Run &run, const QString &pattern, LineIndex from,
                                   LineIndex end)
{
    const int slices = sharedSliceCount(end - from);
    std::vector<std::optional<LineIndex>> hits(static_cast<std::size_t>(slices));
    std::atomic<int> firstHit{slices}; // the first slice known to hold a hit
    forEachSlice(from, end, slices, [&](int s, LineIndex a, LineIndex b) {
        if (s > firstHit.load(std::memory_order_relaxed)) {
            return;
        }
        TextReader reader(run.lines);
        hits[std::size_t(s)] = findFirstWith(reader, metricpass::matcherOf(pattern), a, b);
        if (hits[std::size_t(s)]) {
            int seen = firstHit.load(std::memory_order_relaxed);
            while (s < seen && !firstHit.compare_exchange_weak(seen, s)) {
            }
        }
    });
    for (const std::optional<LineIndex> h : hits) {
        if (h) {
            return h;
        }
    }
    return std::nullopt;
}

namespace metricpass {

LineMatcher matcherOf(const QString &pattern)
{
    constexpr std::size_t kKept = 8;
    thread_local std::vector<LineMatcher> kept;
    thread_local std::size_t next = 0; // the slot to replace: the oldest
    for (LineMatcher &m : kept) {
        if (m.pattern() == pattern) {
            if (m.gaveUp()) {
                m = LineMatcher(pattern);
            }
            return m;
        }
    }
    if (kept.size() < kKept) {
        kept.emplace_back(pattern);
        return kept.back();
    }
    LineMatcher &slot = kept[next];
    next = (next + 1) % kKept;
    slot = LineMatcher(pattern);
    return slot;
}

std::optional<double> secondsOf(std::optional<RunSeconds> t)
{
    return t ? std::optional<double>(t->count()) : std::nullopt;
}

std::optional<double> productionTime(const Run &run, LineIndex i)
{
    const std::optional<RunSeconds> p = run.producedAt(i);
    return secondsOf(p ? p : run.timeOf(arrivalStandIn(run, i, run.lines.endIndex())));
}

std::int64_t lineBytes(const Run &run, LineIndex from, LineIndex to)
{
    std::int64_t n = 0;
    for (LineIndex i = from; i < to; ++i) {
        const bool nl = !(run.lines.flags(i) & (NoNewline | Split));
        n += std::int64_t(run.lines.textSize(i)) + (nl ? 2 : 0);
    }
    return n;
}

std::optional<double> wireTime(std::int64_t bytes, int bitsPerChar, int baud)
{
    if (baud <= 0) {
        return std::nullopt;
    }
    return double(bytes) * bitsPerChar / baud;
}

std::optional<LineIndex> findFirstReporting(const Run &run, const QString &pattern,
                                            const char *option, LineIndex from, LineIndex end,
                                            QStringList *warnings)
{
    const std::optional<LineIndex> hit = findFirst(run, pattern, from, end);
    if (!hit) {
        *warnings << QStringLiteral("%1 '%2' matched no line").arg(QLatin1String(option), pattern);
    }
    return hit;
}

} // namespace metricpass
} // namespace tty
