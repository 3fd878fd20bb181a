#include "alignment.h"

#include "bootstart.h"
#include "linematcher.h"
#include "metrics.h"
#include "textreader.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace tty {

bool Alignment::parse(const QString &spec, Alignment *out, QString *error)
{
    Alignment a;
    if (spec.isEmpty() || spec == QLatin1String("start")) {
        a.kind = Kind::Start;
    } else if (spec == QLatin1String("boot") || spec == QLatin1String("kernel")) {
        a.kind = Kind::FirstKernelLine;
    } else if (spec == QLatin1String("panic") || spec == QLatin1String("drop")) {
        a.kind = Kind::FirstEvent;
        eventKindFromName(spec, &a.event);
    } else if (spec.startsWith(QLatin1String("event:"))) {
        a.kind = Kind::FirstEvent;
        if (!eventKindFromName(spec.mid(6), &a.event)) {
            *error = QStringLiteral("unknown event kind '%1'").arg(spec.mid(6));
            return false;
        }
    } else {
        a.kind = Kind::Regex;
        a.regex = spec.startsWith(QLatin1String("regex:")) ? spec.mid(6) : spec;
        const QRegularExpression re(a.regex);
        if (!re.isValid()) {
            *error = QStringLiteral("invalid regular expression '%1': %2")
                         .arg(a.regex, re.errorString());
            return false;
        }
    }
    *out = a;
    return true;
}

QString Alignment::spec() const
{
    switch (kind) {
    case Kind::Start:
        return QStringLiteral("start");
    case Kind::FirstKernelLine:
        return QStringLiteral("boot");
    case Kind::FirstEvent:
        return QStringLiteral("event:%1").arg(QLatin1String(eventKindName(event)));
    case Kind::Regex:
        return QStringLiteral("regex:%1").arg(regex);
    }
    return {};
}

QString Alignment::axisTitle() const
{
    switch (kind) {
    case Kind::Start:
        return QStringLiteral("seconds from the start of the capture");
    case Kind::FirstKernelLine:
        return QStringLiteral("seconds from the first kernel line");
    case Kind::FirstEvent:
        return QStringLiteral("seconds from the first %1 event")
            .arg(QLatin1String(eventKindName(event)));
    case Kind::Regex:
        return QStringLiteral("seconds from the first '%1'").arg(regex);
    }
    return {};
}

namespace {

// The anchor in lines [from, end): its line, or for an event its index.
struct Anchor
{
    std::optional<LineIndex> line;
    std::optional<std::size_t> event;
};

Anchor findAnchor(const Run &run, const Alignment &a, LineIndex from, LineIndex end)
{
    Anchor hit;
    switch (a.kind) {
    case Alignment::Kind::Start:
        if (from < end) {
            hit.line = from;
        }
        break;
    case Alignment::Kind::FirstKernelLine:
        for (LineIndex i = from; i < end && !hit.line; ++i) {
            if (run.lines.kernelTime(i)) {
                hit.line = i;
            }
        }
        break;
    case Alignment::Kind::FirstEvent:
        for (std::size_t i = run.eventsBefore(from); i < run.events.size(); ++i) {
            const Event &e = run.events[i];
            if (e.line >= end) {
                break;
            }
            if (e.kind == a.event && run.eventTime(e)) {
                hit.event = i;
                break;
            }
        }
        break;
    case Alignment::Kind::Regex: {
        // Only lines holding the regex's required literal are matched (findFirstWith).
        TextReader reader(run.lines);
        const LineMatcher matcher(a.regex);
        for (LineIndex i = from; i < end && !hit.line; ++i) {
            const std::optional<LineIndex> found = findFirstWith(reader, matcher, i, end);
            if (!found) {
                break;
            }
            // The system before's prompt in front of a boot's first line is not the
            // boot's: a match there alone ("login:") is not this boot's anchor.
            const std::size_t prompt = promptBeforeBoot(run, *found);
            if (prompt == 0 || matcher.matches(reader.text(*found).substr(prompt))) {
                hit.line = found;
            }
            i = *found;
        }
        // A range that ends where the next boot begins: its own prompt may be glued in
        // front of that boot's first line (then the line's arrival is the prompt's).
        if (!hit.line && from <= end && end < run.lines.endIndex()) {
            const std::size_t prompt = promptBeforeBoot(run, end);
            if (prompt > 0 && matcher.matches(reader.text(end).substr(0, prompt))) {
                hit.line = end;
            }
        }
        break;
    }
    }
    return hit;
}

std::optional<RunSeconds> timeOf(const Run &run, const Alignment &a, const Anchor &hit,
                                 LineIndex end)
{
    if (hit.event) {
        return run.eventTime(run.events[*hit.event]);
    }
    if (!hit.line) {
        return std::nullopt;
    }
    // None: the line has no arrival time to align on. A boot's first line that starts
    // with the system before's prompt arrived with the prompt (arrivalStandIn); a kernel
    // text behind other text on its line came after the line's first byte (bootstart.h).
    std::optional<HostNs> at;
    switch (a.kind) {
    case Alignment::Kind::Start:
        at = run.lines.arrival(arrivalStandIn(run, *hit.line, end));
        break;
    case Alignment::Kind::FirstKernelLine:
        at = kernelTextArrival(run, *hit.line);
        break;
    case Alignment::Kind::Regex:
        at = matchArrival(run, *hit.line, a.regex, end);
        break;
    case Alignment::Kind::FirstEvent:
        break;
    }
    return run.runTimeOf(at);
}

} // namespace

std::optional<RunSeconds> alignmentTime(const Run &run, const Alignment &a, LineIndex first,
                                        std::optional<LineIndex> last)
{
    const LineIndex end = std::min(last.value_or(run.lines.endIndex()), run.lines.endIndex());
    return timeOf(run, a, findAnchor(run, a, first, end), end);
}

std::optional<RunSeconds> alignmentTime(const Run &run, const Alignment &a, LineIndex first,
                                        std::optional<LineIndex> last, AnchorSearch *search)
{
    const LineIndex end = std::min(last.value_or(run.lines.endIndex()), run.lines.endIndex());
    if (search->spec != a.spec() || search->first != first) {
        *search = AnchorSearch{a.spec(), first, first, std::nullopt, std::nullopt};
    }
    if (search->line || search->event) {
        return timeOf(run, a, Anchor{search->line, search->event}, end);
    }
    const LineIndex from = std::clamp(search->from, first, std::max(first, end));
    const Anchor hit = findAnchor(run, a, from, end);
    // The last line may still grow (a live capture's line in progress, and the events
    // found on it): it is searched again next time, and a hit on it is not kept.
    const LineIndex growing = std::max(from, end - 1_lines);
    const std::optional<LineIndex> at = hit.event ? run.events[*hit.event].line : hit.line;
    if (at && *at < growing) {
        search->line = hit.line;
        search->event = hit.event;
    }
    search->from = growing;
    return timeOf(run, a, hit, end);
}

} // namespace tty
