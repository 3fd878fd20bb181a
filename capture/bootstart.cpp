#include "bootstart.h"

#include "kernelprefix.h"
#include "lineanalysis.h"
#include "linematcher.h"

#include <algorithm>

namespace tty {

std::size_t promptBeforeBoot(const Run &run, LineIndex line)
{
    if (line >= run.lines.endIndex() || run.boots.empty()) {
        return 0;
    }
    const std::uint16_t flags = run.lines.flags(line);
    const bool timed = run.lines.kernelTime(line).has_value();
    // Cheap tests first: almost every line has its timestamp at its start.
    if (timed && !(flags & KernelTimeNotAtStart)) {
        return 0;
    }
    const Boot &b = run.boots[std::size_t(run.bootOf(line))];
    if (b.first != line) {
        return 0;
    }
    if (timed) {
        // The new kernel's first line: "corpusvm login: [    0.000000] Linux version".
        if (b.firstKernelLine != line) {
            return 0;
        }
        const LineText text = run.lines.text(line);
        const KernelPrefix p = parseKernelPrefix(text.view());
        return promptBeforeTimestamp(text.view(), p) ? p.timeAt : 0;
    }
    // Firmware output that starts the boot: "corpusvm login: ESC c ... SeaBIOS" (the
    // rules found it after the prompt, lineanalysis.h).
    bool firmware = false;
    for (std::size_t e = run.eventsBefore(line);
         e < run.events.size() && run.events[e].line == line && !firmware; ++e) {
        firmware = run.events[e].kind == EventKind::Firmware && !run.events[e].note;
    }
    if (!firmware) {
        return 0;
    }
    const LineText text = run.lines.text(line);
    return promptEnd(text.view());
}

LineIndex arrivalStandIn(const Run &run, LineIndex line, LineIndex end)
{
    // Stamped at line ends: the line's stamp is the text behind the prompt's.
    if (run.arrivalIsLineEnd || line + 1_lines >= std::min(end, run.lines.endIndex()) ||
        promptBeforeBoot(run, line) == 0) {
        return line;
    }
    // promptBeforeBoot found the line first in its boot; the next must be in it too.
    const Boot &b = run.boots[std::size_t(run.bootOf(line))];
    return line + 1_lines < b.end ? line + 1_lines : line;
}

std::optional<HostNs> frontAnswered(const Run &run, LineIndex line)
{
    const std::optional<HostNs> end = run.lines.arrival(line);
    const std::optional<HostNs> before =
        line > LineIndex(0) ? run.lines.arrival(line - 1_lines) : std::nullopt;
    for (std::size_t e = run.eventsBefore(line);
         e < run.events.size() && run.events[e].line == line; ++e) {
        const Event &ev = run.events[e];
        if (ev.sentToConsole && ev.arrival && (!end || *ev.arrival <= *end) &&
            (!before || *ev.arrival >= *before)) {
            return ev.arrival;
        }
    }
    return std::nullopt;
}

bool onlyEndKnown(const Run &run, LineIndex line)
{
    return run.arrivalIsLineEnd && line < run.lines.endIndex() &&
           (run.lines.flags(line) & NoNewline);
}

std::optional<HostNs> kernelTextArrival(const Run &run, LineIndex line)
{
    const LineTable &lines = run.lines;
    if (line >= lines.endIndex() || onlyEndKnown(run, line)) {
        return std::nullopt;
    }
    if (run.arrivalIsLineEnd) {
        return lines.arrival(line);
    }
    const std::optional<KernelUs> kt = lines.kernelTime(line);
    if (!kt || !(lines.flags(line) & KernelTimeNotAtStart)) {
        return lines.arrival(arrivalStandIn(run, line, lines.endIndex()));
    }
    const std::optional<HostNs> own = lines.arrival(line);
    if (!own) {
        return std::nullopt;
    }
    HostNs earliest = *own;
    if (const std::optional<RunSeconds> p = run.producedAt(line)) {
        earliest = std::max(earliest, run.hostTimeAt(*p));
    }
    const LineIndex next = line + 1_lines;
    const std::optional<HostNs> latest =
        next < lines.endIndex() ? lines.arrival(next) : std::nullopt;
    if (!latest || *latest < *own) {
        return earliest; // the last line, or a host clock that stepped back
    }
    HostNs estimate = *latest;
    const std::optional<KernelUs> nextKt = lines.kernelTime(next);
    if (nextKt && *nextKt >= *kt && run.bootOf(next) == run.bootOf(line)) {
        // Compared in microseconds first: kernel times from a damaged log may be far
        // apart, beyond what nanoseconds hold.
        const Microseconds between = *nextKt - *kt;
        const Nanoseconds room = *latest - earliest;
        estimate =
            between.count() > room.count() / 1000 ? earliest : *latest - Nanoseconds(between);
    }
    return std::min(std::max(estimate, earliest), *latest);
}

bool matchInFront(const Run &run, LineIndex line, const QString &pattern)
{
    if (line >= run.lines.endIndex()) {
        return false;
    }
    const bool timed = run.lines.kernelTime(line).has_value();
    const bool timedBehind = timed && (run.lines.flags(line) & KernelTimeNotAtStart);
    std::size_t prompt = timedBehind ? 0 : promptBeforeBoot(run, line);
    if (run.arrivalIsLineEnd && !timed && prompt == 0) {
        // Stamped at line ends: what follows a login prompt on its line (the answer typed
        // to it, later output) came later, by as long as the prompt waited.
        const LineText held = run.lines.text(line);
        prompt = promptEnd(held.view());
    }
    if (!timedBehind && prompt == 0) {
        return false; // the usual line: nothing in front of its own text
    }
    const LineText text = run.lines.text(line);
    const std::size_t lead = timedBehind ? parseKernelPrefix(text.view()).timeAt : prompt;
    return LineMatcher(pattern).matches(text.view().substr(0, lead));
}

std::optional<HostNs> matchArrival(const Run &run, LineIndex line, const QString &pattern,
                                   LineIndex end)
{
    if (line >= run.lines.endIndex()) {
        return std::nullopt;
    }
    if (onlyEndKnown(run, line)) {
        return std::nullopt;
    }
    if (matchInFront(run, line, pattern)) {
        // The line's first byte; stamped at its end, when it was answered, if it was.
        return run.arrivalIsLineEnd ? frontAnswered(run, line) : run.lines.arrival(line);
    }
    return run.lines.kernelTime(line) ? kernelTextArrival(run, line)
                                      : run.lines.arrival(arrivalStandIn(run, line, end));
}

} // namespace tty
