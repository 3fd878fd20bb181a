#include "metrics.h"

#include "bootstart.h"
#include "crashes.h"
#include "kernelprefix.h"
#include "lagsummary.h"
#include "linematcher.h"
#include "parallel.h"
#include "textreader.h"

#include <algorithm>
#include <cmath>
#include <numeric>

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

namespace {
// This thread's matchers of the last patterns searched for. A report of 10^5 boot trials
// searches each boot for the same --boot-pattern (and --window-start, --span), and
// compiling the regex with its JIT for each search was a third of the time the window
// took to open. Per thread, since a regex object is not shared between threads; a matcher
// that gave up on a line (regexlimit.h) is made again, so that giving up on one run does
// not end the searches of the next in silence. A copy shares the compiled regex.
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
} // namespace

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
        hits[std::size_t(s)] = findFirstWith(reader, matcherOf(pattern), a, b);
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

namespace {

// The figures are plain seconds: a run time leaves the typed world here.
std::optional<double> secondsOf(std::optional<RunSeconds> t)
{
    return t ? std::optional<double>(t->count()) : std::nullopt;
}

// When a line was produced (kernel time on the host clock), or its arrival without one
// (the next line's for a boot's first line behind the prompt before it: bootstart.h).
std::optional<double> productionTime(const Run &run, LineIndex i)
{
    const std::optional<RunSeconds> p = run.producedAt(i);
    return secondsOf(p ? p : run.timeOf(arrivalStandIn(run, i, run.lines.endIndex())));
}

// Statistics of the time between consecutive matches; a match without the time breaks the
// chain (its neighbours are not consecutive by that clock).
void intervalStats(const std::vector<std::optional<double>> &times, std::optional<double> *mean,
                   std::optional<double> *p50, std::optional<double> *p99)
{
    std::vector<double> d;
    for (std::size_t i = 1; i < times.size(); ++i) {
        if (times[i] && times[i - 1]) {
            d.push_back(*times[i] - *times[i - 1]);
        }
    }
    if (d.empty()) {
        return;
    }
    *mean = std::accumulate(d.begin(), d.end(), 0.0) / double(d.size());
    *p50 = quantile(d, 0.5);
    *p99 = quantile(d, 0.99);
}

// Kernel time covered by [first, end): per boot, its last kernel time minus its first.
std::optional<double> kernelDuration(const Run &run, LineIndex first, LineIndex end)
{
    double total = 0;
    bool any = false;
    for (const Boot &b : run.bootsOverlapping(first, end)) {
        const LineIndex from = std::max(first, b.first), to = std::min(end, b.end);
        // lo > hi while no kernel time was seen (kernel times are never negative).
        KernelUs lo(std::numeric_limits<std::int64_t>::max()), hi(-1);
        for (LineIndex i = from; i < to; ++i) {
            if (const std::optional<KernelUs> k = run.lines.kernelTime(i)) {
                lo = std::min(lo, *k);
                hi = std::max(hi, *k);
            }
        }
        if (hi >= KernelUs(0)) {
            total += double((hi - lo).count()) * 1e-6;
            any = true;
        }
    }
    return any ? std::optional<double>(total) : std::nullopt;
}

// Console bytes of the lines [from, to) as metrics count them: the text and a line end
// (\r\n) where the line had one.
std::int64_t lineBytes(const Run &run, LineIndex from, LineIndex to)
{
    std::int64_t n = 0;
    for (LineIndex i = from; i < to; ++i) {
        const bool nl = !(run.lines.flags(i) & (NoNewline | Split));
        n += std::int64_t(run.lines.textSize(i)) + (nl ? 2 : 0);
    }
    return n;
}

// None without a baud rate.
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

void measureWindow(const Run &run, const MetricOptions &o, LineIndex first, LineIndex end,
                   Metrics *m)
{
    WindowResult &w = m->window;
    w.startLine = first < end ? std::optional<LineIndex>(first) : std::nullopt;
    if (!o.windowStart.isEmpty()) {
        w.startLine =
            findFirstReporting(run, o.windowStart, "--window-start", first, end, &m->warnings);
    }
    w.found = w.startLine && *w.startLine < end;
    if (!w.found) {
        return;
    }
    const LineIndex start = *w.startLine;
    const LineMatcher only = matcherOf(o.windowMatch);
    // A start found in kernel text behind other text came after its line's first byte.
    w.start = !run.hasArrival ? std::nullopt
              : o.windowStart.isEmpty()
                  ? secondsOf(run.timeOf(arrivalStandIn(run, start, end)))
                  : secondsOf(run.runTimeOf(matchArrival(run, start, o.windowStart, end)));
    // A start without an arrival (before a log's first stamp, or stamped only at its line's
    // end) has no window of arrivals: none arrived in it is not what is known.
    w.printedKnown = w.start.has_value();
    if (run.hasArrival && !w.start) {
        w.printedUnknownWhy =
            QStringLiteral("starts at line %1, which has no host time").arg(lineNumber(start));
    }
    // Without a production time of its own the start line's arrival stands in (as for a
    // user-space line that starts the window); without either there is no produced figure.
    // Nor is there one when no line has a kernel time: what was produced when is unknown,
    // not none.
    // A start found in the text in front of a timestamp (a prompt) has no production time
    // of its own either: the kernel text behind it came later.
    // Without host times a line has only its kernel time: the times the timeline gives the
    // others (the kernel time before them) are not when they came, so a window that starts
    // at one (a boot's firmware lines, a capture's partial first line) cannot be placed on
    // the kernel clock; from the kernel's first line it would count another span.
    const bool inFront = !o.windowStart.isEmpty() && matchInFront(run, start, o.windowStart);
    const std::optional<double> p0 =
        !run.hasArrival ? (inFront ? std::nullopt : secondsOf(run.producedAt(start)))
        : inFront       ? secondsOf(run.timeOf(start))
                        : productionTime(run, start);
    w.producedKnown = p0.has_value() && m->kernelLines > 0;
    if (m->kernelLines == 0) {
        w.producedUnknownWhy = QStringLiteral("no line has a kernel time");
    } else if (!p0) {
        w.producedUnknownWhy = QStringLiteral("starts at line %1, which has no kernel time%2")
                                   .arg(QString::number(lineNumber(start)),
                                        run.hasArrival ? QStringLiteral(" and no host time")
                                                       : QStringLiteral("; no host times"));
    }
    // Whether x is in the window that starts at `from`; not when either is unknown.
    const auto inWindow = [&](std::optional<double> x, std::optional<double> from) {
        return x && from && *x >= *from && *x <= *from + o.windowSeconds;
    };
    std::int64_t bytes = 0;
    TextReader reader(run.lines);
    for (LineIndex i = start; i < end; ++i) {
        const std::optional<double> t = !w.start     ? std::nullopt
                                        : i == start ? w.start
                                                     : secondsOf(run.timeOf(i));
        const bool inArrival = inWindow(t, w.start);
        const bool inProduced = inWindow(secondsOf(run.producedAt(i)), p0);
        if (!inArrival && !inProduced) {
            if (t && *t > *w.start + o.windowSeconds + 3600) {
                break;
            }
            continue;
        }
        if (inArrival) {
            bytes += lineBytes(run, i, i + 1_lines);
        }
        if (!only.isEmpty() && !only.matches(reader.text(i))) {
            continue;
        }
        w.lines += inArrival ? 1 : 0;
        w.produced += inProduced ? 1 : 0;
    }
    if (w.printedKnown) {
        w.wireSeconds = wireTime(bytes, m->bitsPerChar, m->baud);
    }
    if (!p0) {
        w.produced = 0;
        return;
    }
    const double p1 = *p0 + o.windowSeconds;
    // Dropped messages were produced as well, somewhere between their printed neighbours:
    // the part of that interval inside the window counts. Their text is lost, so with
    // --window-match they count only when the neighbours on both sides match.
    double dropped = 0;
    for (const DropSpan &d : run.drops) {
        const LineIndex at = run.events[d.event].line;
        if (at < first || at >= end || !d.from || !d.to) {
            continue;
        }
        if (!only.isEmpty() && (!d.before || !d.after || !only.matches(reader.text(*d.before)) ||
                                !only.matches(reader.text(*d.after)))) {
            continue;
        }
        if (d.count == kCountOutOfRange) {
            w.dropCountOutOfRange = w.dropCountOutOfRange.value_or(at);
            continue;
        }
        const double from = d.from->count(), to = d.to->count();
        double share = 0;
        if (to > from) {
            share = std::max(0.0, std::min(to, p1) - std::max(from, *p0)) / (to - from);
        } else {
            share = from >= *p0 && from <= p1 ? 1.0 : 0.0;
        }
        dropped += share * d.count;
    }
    w.producedDropped = std::llround(dropped);
    w.produced += w.producedDropped;
}

// The die() header (an oops event) before a panic in its boot: after one the kernel
// prints no stack for the panic ("Avoid nested stack-dumping": TAINT_DIE), the oops'
// report holds it.
std::optional<LineIndex> oopsBefore(const Run &run, LineIndex panic)
{
    const LineIndex bootFirst = run.boots[std::size_t(run.bootOf(panic))].first;
    for (std::size_t i = run.eventsBefore(panic); i-- > 0;) {
        const Event &e = run.events[i];
        if (e.line < bootFirst) {
            break;
        }
        if (e.kind == EventKind::Oops) {
            return e.line;
        }
    }
    return std::nullopt;
}

// Whether stack frames follow a panic banner before `to`: not every stack has a `Call
// Trace:` line (arm before 6.9 prints its frames right after `Hardware name:`).
bool stackAfter(const Run &run, LineIndex panic, LineIndex to)
{
    TextReader reader(run.lines);
    const LineIndex last = std::min(to, panic + 64_lines);
    for (LineIndex i = panic + 1_lines; i < last; ++i) {
        const std::string_view t = reader.text(i);
        const KernelPrefix k = parseKernelPrefix(t);
        if (!frameFunction(t.substr(std::min(k.message, t.size()))).isEmpty()) {
            return true;
        }
    }
    return false;
}

void measureSpans(const Run &run, const MetricOptions &o, LineIndex first, LineIndex end,
                  Metrics *m)
{
    // From the production of the first FROM to the arrival of the first TO after it; and
    // by kernel time alone where both ends carry one in the same boot.
    for (const auto &s : o.spans) {
        SpanResult r;
        r.from = s.first;
        r.to = s.second;
        r.fromLine = findFirstReporting(run, s.first, "--span", first, end, &m->warnings);
        if (!r.fromLine) {
            r.missing = QStringLiteral("no line matches '%1'").arg(s.first);
        } else {
            const LineIndex fromLine = *r.fromLine;
            r.toLine = findFirst(run, s.second, fromLine, end);
            if (!r.toLine) {
                r.missing =
                    QStringLiteral("no line matches '%1' after '%2'").arg(s.second, s.first);
                m->warnings << QStringLiteral("--span '%1' matched no line after '%2'")
                                   .arg(s.second, s.first);
            } else {
                // An end found in the text in front of a timestamp (a prompt) has no
                // kernel time: the one behind it is the kernel text's, printed later.
                const bool fromInFront = matchInFront(run, fromLine, s.first);
                const bool toInFront = matchInFront(run, *r.toLine, s.second);
                if (run.hasArrival) {
                    const std::optional<double> to =
                        secondsOf(run.runTimeOf(matchArrival(run, *r.toLine, s.second, end)));
                    const std::optional<double> from = fromInFront ? secondsOf(run.timeOf(fromLine))
                                                                   : productionTime(run, fromLine);
                    if (to && from) {
                        r.seconds = *to - *from;
                    }
                } else {
                    r.missing = QStringLiteral("no host arrival times");
                }
                const std::optional<KernelUs> k0 =
                    fromInFront ? std::nullopt : run.lines.kernelTime(fromLine);
                const std::optional<KernelUs> k1 =
                    toInFront ? std::nullopt : run.lines.kernelTime(*r.toLine);
                if (k0 && k1 && run.bootOf(fromLine) == run.bootOf(*r.toLine)) {
                    r.kernelSeconds = double((*k1 - *k0).count()) * 1e-6;
                } else {
                    r.kernelMissing = !k0 ? QStringLiteral("'%1' has no kernel time").arg(s.first)
                                      : !k1
                                          ? QStringLiteral("'%1' has no kernel time").arg(s.second)
                                          : QStringLiteral("the ends in different boots");
                }
            }
        }
        m->spans.push_back(r);
    }
}

// The kernel time of the boot's first kernel line when the boot's first byte (from
// `start` on) is not its start: neither firmware output nor the kernel's first lines
// (kernel time 0: a quiet boot prints none) came before it. A capture attached late, or
// a quiet boot with a silent firmware: the first byte is seconds into the kernel, and a
// boot time from it would leave those seconds out.
std::optional<KernelUs> bootStartMissed(const Run &run, const Boot &b, LineIndex start)
{
    constexpr Microseconds kStartedAt{100'000}; // the first lines of a boot are at 0.000000
    if (!b.firstKernelLine || start > *b.firstKernelLine) {
        return std::nullopt;
    }
    const std::optional<KernelUs> kt = run.lines.kernelTime(*b.firstKernelLine);
    if (!kt || kt->sinceOrigin() <= kStartedAt) {
        return std::nullopt;
    }
    for (std::size_t e = run.eventsBefore(start);
         e < run.events.size() && run.events[e].line < *b.firstKernelLine; ++e) {
        if (run.events[e].kind == EventKind::Firmware && !run.events[e].note) {
            return std::nullopt;
        }
    }
    return kt;
}

// The length of the old system's prompt glued in front of `line`, a boot's first line
// (bootstart.h), when the pattern matches there and not in the new system's text after it.
// The line's arrival is the prompt's first byte.
std::optional<std::size_t> promptGluedBefore(const Run &run, LineIndex line, const QString &pattern)
{
    const std::size_t prompt = promptBeforeBoot(run, line);
    if (prompt == 0) {
        return std::nullopt;
    }
    const LineText text = run.lines.text(line);
    const LineMatcher matcher = matcherOf(pattern);
    if (!matcher.matches(text.view().substr(0, prompt)) ||
        matcher.matches(text.view().substr(prompt))) {
        return std::nullopt;
    }
    return prompt;
}

void measureBootTime(const Run &run, const MetricOptions &o, LineIndex first, LineIndex end,
                     Metrics *m)
{
    if (o.bootPattern.isEmpty()) {
        return;
    }
    QStringList noMatch;
    std::optional<LineIndex> found =
        findFirstReporting(run, o.bootPattern, "--boot-pattern", first, end, &noMatch);
    // The boot whose time the match ends: the match's, but a match before its boot's
    // kernel started is not that boot's. It was left by the system before: a prompt past
    // where the boot split looks (then the first match after the kernel's first line
    // counts), or one glued in front of the boot's first line, its kernel's or its
    // firmware's (the boot before's, if the range holds it). No boot is done before its
    // kernel began.
    const Boot *owner = nullptr;
    std::int64_t glued = -1; // the bytes of a prompt glued to the next boot's line
    auto gluedAt = [&](LineIndex line) {
        const std::optional<std::size_t> g = promptGluedBefore(run, line, o.bootPattern);
        glued = g ? std::int64_t(*g) : -1;
        return g.has_value();
    };
    while (found) {
        const int k = run.bootOf(*found);
        const Boot &b = run.boots[std::size_t(k)];
        if (*found == b.first && gluedAt(*found)) {
            if (k > 0 && run.boots[std::size_t(k - 1)].end > first) {
                owner = &run.boots[std::size_t(k - 1)];
                break;
            }
            glued = -1;
            found = *found + 1_lines < end ? findFirst(run, o.bootPattern, *found + 1_lines, end)
                                           : std::nullopt;
        } else if (!b.firstKernelLine || *found >= *b.firstKernelLine) {
            owner = &b;
            break;
        } else {
            found = *b.firstKernelLine < end
                        ? findFirst(run, o.bootPattern, *b.firstKernelLine, end)
                        : std::nullopt;
        }
    }
    if (!found && first < end && end < run.lines.endIndex()) {
        // A range that ends where the next boot begins: its prompt may be glued there.
        const int k = run.bootOf(end);
        const Boot &next = run.boots[std::size_t(k)];
        if (k > 0 && next.first == end && gluedAt(end)) {
            found = end;
            owner = &run.boots[std::size_t(k - 1)];
        }
    }
    if (!found) {
        m->warnings << (o.bootPatternGiven ? noMatch : QStringList());
        return;
    }
    const LineIndex hit = *found;
    m->bootDoneLine = hit;
    const Boot &b = *owner;
    const LineIndex start = std::max(b.first, first);
    if (!run.hasArrival) {
        return; // the boot-done line's arrival is what every variant ends on
    }
    const std::optional<RunSeconds> begun = run.timeOf(start);
    const std::optional<RunSeconds> done =
        run.runTimeOf(matchArrival(run, hit, o.bootPattern, end));
    if (!done && run.arrivalIsLineEnd) {
        m->bootDoneNote = QStringLiteral("%1 stamped only the end of the line of '%2'")
                              .arg(run.meta.format == Format::Lava ? QStringLiteral("LAVA")
                                                                   : QStringLiteral("ts"),
                                   o.bootPattern);
    }
    if (promptBeforeBoot(run, start) > 0) {
        m->bootStartNote = QStringLiteral("the boot's first line starts with the prompt of the "
                                          "system before it: when its own first byte came is "
                                          "not known");
    } else if (const std::optional<KernelUs> missed = bootStartMissed(run, b, start)) {
        m->bootStartNote = QStringLiteral("the boot's first line is %1 s into its kernel, with "
                                          "no firmware output before it: its start was not "
                                          "captured")
                               .arg(double(missed->sinceOrigin().count()) * 1e-6, 0, 'f', 3);
    } else if (!begun) {
        m->bootStartUntimed = true;
        m->bootStartNote = QStringLiteral("the boot's first line (line %1) has no host time")
                               .arg(lineNumber(start));
    } else if (done) {
        m->bootTimeFirstByte = (*done - *begun).count();
    }
    if (done && b.kernelZero) {
        m->bootTimeKernel = done->count() - double((*b.kernelZero - run.origin).count()) * 1e-9;
    }
    // Of a glued prompt's line, the prompt's bytes only: the rest is the next kernel's.
    const std::int64_t bytes =
        glued >= 0 ? lineBytes(run, start, hit) + glued : lineBytes(run, start, hit + 1_lines);
    m->bootWireSeconds = wireTime(bytes, m->bitsPerChar, m->baud);
    if (o.bootStart == QLatin1String("kernel")) {
        m->bootTime = m->bootTimeKernel;
    } else if (o.bootStart.isEmpty() || o.bootStart == QLatin1String("first-byte")) {
        m->bootTime = m->bootTimeFirstByte;
    } else {
        const std::optional<LineIndex> from = findFirstReporting(
            run, o.bootStart, "--boot-start", start, hit + 1_lines, &m->warnings);
        const std::optional<double> p = from ? productionTime(run, *from) : std::nullopt;
        if (done && p) {
            m->bootTime = done->count() - *p;
        }
    }
}

} // namespace

QString dropCountOutOfRangeReason(LineIndex notice)
{
    return QStringLiteral("a drop notice's count is out of range (line %1)")
        .arg(lineNumber(notice));
}

bool bytesAreExact(const Run &run)
{
    return formatInfo(run.meta.format).bytesExact;
}

int bitsPerCharacter(const RunMeta &meta)
{
    const int data = meta.extra.value(QStringLiteral("data_bits")).toInt(8);
    const QString parity = meta.extra.value(QStringLiteral("parity")).toString();
    const int stop = meta.extra.value(QStringLiteral("stop_bits")).toInt(1);
    const bool hasParity = !parity.isEmpty() && parity != QLatin1String("none");
    return 1 + std::clamp(data, 5, 8) + (hasParity ? 1 : 0) + std::clamp(stop, 1, 2);
}

std::optional<double> quantile(std::vector<double> &v, double p)
{
    if (v.empty()) {
        return std::nullopt;
    }
    const std::size_t k = rankOf(v.size(), p);
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(k), v.end());
    return v[k];
}

std::shared_ptr<const std::vector<Crash>> crashesOf(const Run &run, const Metrics &m)
{
    return m.crashes ? m.crashes
                     : std::make_shared<const std::vector<Crash>>(findCrashes(run, m.first, m.end));
}

Metrics computeMetrics(const Run &run, const MetricOptions &o, LineIndex first,
                       std::optional<LineIndex> last)
{
    Metrics m;
    const LineIndex end = std::min(last.value_or(run.lines.endIndex()), run.lines.endIndex());
    first = std::clamp(first, LineIndex(0), end);
    m.first = first;
    m.end = end;
    m.lines = (end - first).count();
    const bool whole = first == LineIndex(0) && end == run.lines.endIndex();

    const LagSummary lags = summariseLags(run, first, end);
    m.kernelLines = lags.kernelLines;
    m.kernelLinesBehindText = lags.kernelLinesBehindText;
    m.bytes = whole ? run.bytes : lineBytes(run, first, end);
    m.hasArrival = run.hasArrival;
    if (!formatInfo(run.meta.format).consoleOutput) {
        m.notConsole = QStringLiteral("a kernel log, not console output");
    }
    m.dropsUnknown = formatInfo(run.meta.format).dropsKnown ? QString() : m.notConsole;
    m.bytesUnknown = !m.notConsole.isEmpty() ? m.notConsole
                     : run.unreadStamps      ? QStringLiteral("a terminal's stamps in the text")
                                             : QString();
    if (m.lines > 0 && run.hasArrival) {
        const std::optional<RunSeconds> last = run.timeOf(end - 1_lines),
                                        start = run.timeOf(arrivalStandIn(run, first, end));
        if (last && start) {
            m.duration = (*last - *start).count();
        } else if (!start) {
            m.startUntimed = QStringLiteral("line %1 has no host time")
                                 .arg(lineNumber(arrivalStandIn(run, first, end)));
        }
    }
    m.kernelDuration = kernelDuration(run, first, end);
    const Run::BootRange overlapping = run.bootsOverlapping(first, end);
    m.boots = int(overlapping.end() - overlapping.begin());
    if (run.hasArrival && lags.count > 0) {
        m.lagMax = lags.max;
        m.lagP50 = lags.p50;
        m.lagP99 = lags.p99;
    }

    // Events: those of lines in range, and notes placed before a line in range.
    std::optional<LineIndex> panicLine, endLine, traceLine;
    // Those of [first, end), and with the whole run the notes after its last line: a
    // binary search, not a pass over all events for each boot of a run of 10^4 boots.
    const std::size_t eventsFrom = run.eventsBefore(first);
    const std::size_t eventsTo =
        std::max(eventsFrom, whole ? run.events.size() : run.eventsBefore(end));
    const auto events = [&](auto &&visit) {
        for (std::size_t i = eventsFrom; i < eventsTo; ++i) {
            visit(run.events[i]);
        }
    };
    events([&](const Event &e) {
        ++m.eventCounts[std::size_t(e.kind)];
        if (e.kind == EventKind::Drop) {
            ++m.dropNotices;
            if (e.count == kCountOutOfRange) {
                m.dropCountOutOfRange = m.dropCountOutOfRange.value_or(e.line);
            } else {
                m.droppedMessages += e.count;
            }
        } else if (e.kind == EventKind::Panic && !panicLine) {
            panicLine = e.line;
        }
    });
    events([&](const Event &e) {
        if (e.line < end && e.kind == EventKind::PanicEnd && !endLine &&
            (!panicLine || e.line >= *panicLine)) {
            endLine = e.line;
        }
    });
    if (panicLine || endLine) {
        const LineIndex from = panicLine.value_or(first);
        const LineIndex to = endLine.value_or(end);
        for (std::size_t i = run.eventsBefore(from); i < run.events.size(); ++i) {
            const Event &e = run.events[i];
            if (e.line >= to) {
                break;
            }
            if (e.kind == EventKind::CallTrace && e.line > from) {
                traceLine = e.line;
                break;
            }
        }
        PanicResult &p = m.panic;
        p.detected = true;
        p.line = panicLine ? panicLine : endLine;
        if (!panicLine) {
            p.missing << QStringLiteral("banner");
        }
        p.stackInOops = panicLine ? oopsBefore(run, *panicLine) : std::nullopt;
        if (!traceLine && !p.stackInOops && !(panicLine && stackAfter(run, *panicLine, to))) {
            p.missing << QStringLiteral("call trace");
        }
        if (!endLine) {
            p.missing << QStringLiteral("end marker");
        }
        p.complete = p.missing.isEmpty();
        const LineText line = run.lines.text(*p.line);
        const std::string_view t = line.view();
        const std::string_view key = "not syncing: ";
        const auto at = t.find(key);
        if (at != std::string_view::npos) {
            std::string_view r = t.substr(at + key.size());
            if (r.size() >= 5 && r.substr(r.size() - 5) == " ]---") {
                r = r.substr(0, r.size() - 5);
            }
            p.reason = QString::fromUtf8(r.data(), qsizetype(r.size()));
        }
    }

    m.baud = run.meta.baud;
    m.bitsPerChar = bitsPerCharacter(run.meta);
    m.wireSeconds = wireTime(m.bytes, m.bitsPerChar, m.baud);
    measureWindow(run, o, first, end, &m);
    measureSpans(run, o, first, end, &m);
    measureBootTime(run, o, first, end, &m);

    for (const QString &pattern : o.intervals) {
        IntervalStats st;
        st.pattern = pattern;
        const LineMatcher matcher = matcherOf(pattern);
        std::vector<std::optional<double>> arrivals, kernel;
        TextReader reader(run.lines);
        std::optional<int> lastBoot;
        for (LineIndex i = first; i < end; ++i) {
            if (matcher.matches(reader.text(i))) {
                ++st.matches;
                if (run.hasArrival) {
                    arrivals.push_back(secondsOf(run.timeOf(i)));
                }
                // The kernel's clock starts again at each boot: no interval by it spans
                // two (without host times the boots are only laid end to end, 1 s apart).
                const int boot = run.bootOf(i);
                if (lastBoot && *lastBoot != boot) {
                    kernel.push_back(std::nullopt);
                }
                lastBoot = boot;
                kernel.push_back(secondsOf(run.producedAt(i)));
            }
        }
        if (st.matches == 0) {
            m.warnings << QStringLiteral("--interval '%1' matched no line").arg(pattern);
        }
        intervalStats(arrivals, &st.mean, &st.p50, &st.p99);
        intervalStats(kernel, &st.kernelMean, &st.kernelP50, &st.kernelP99);
        m.intervals.push_back(st);
    }
    m.crashes = std::make_shared<const std::vector<Crash>>(findCrashes(run, first, end));
    return m;
}

} // namespace tty
