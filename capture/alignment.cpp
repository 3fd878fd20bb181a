#include "alignment.h"

#include "linematcher.h"
#include "textreader.h"

#include <QRegularExpression>

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

std::optional<RunSeconds> alignmentTime(const Run &run, const Alignment &a, LineIndex first,
                                        std::optional<LineIndex> last)
{
    const LineIndex end = std::min(last.value_or(run.lines.endIndex()), run.lines.endIndex());
    std::optional<LineIndex> hit;
    switch (a.kind) {
    case Alignment::Kind::Start:
        if (first < end) {
            hit = first;
        }
        break;
    case Alignment::Kind::FirstKernelLine:
        for (LineIndex i = first; i < end && !hit; ++i) {
            if (run.lines.kernelTime(i)) {
                hit = i;
            }
        }
        break;
    case Alignment::Kind::FirstEvent:
        for (std::size_t i = run.eventsBefore(first); i < run.events.size(); ++i) {
            const Event &e = run.events[i];
            if (e.line >= end) {
                break;
            }
            if (e.kind == a.event) {
                if (const std::optional<RunSeconds> t = run.eventTime(e)) {
                    return t;
                }
            }
        }
        return std::nullopt;
    case Alignment::Kind::Regex: {
        const LineMatcher m(a.regex);
        TextReader reader(run.lines);
        for (LineIndex i = first; i < end && !hit; ++i) {
            if (m.matches(reader.text(i))) {
                hit = i;
            }
        }
        break;
    }
    }
    if (!hit) {
        return std::nullopt;
    }
    return run.timeOf(*hit); // none: the line has no arrival time to align on
}

} // namespace tty
