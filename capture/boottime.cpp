// The boot time: from the boot's first byte (or --boot-start) to --boot-pattern, and
// from the kernel's start.
#include "metricparts.h"

#include "bootstart.h"
#include "kernelprefix.h"
#include "linematcher.h"
#include "textreader.h"

#include <algorithm>
#include <cmath>

namespace tty::metricpass {

namespace {
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
} // namespace

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
        m->bootTimeKernel = done->count() - toSeconds(*b.kernelZero - run.origin);
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

} // namespace tty::metricpass
