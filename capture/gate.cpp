#include "gate.h"

#include "crashes.h"

#include <QRegularExpression>

#include <cmath>

namespace tty {

namespace {

bool parseOp(const QString &s, GateCondition::Op *op)
{
    using Op = GateCondition::Op;
    static const std::pair<const char *, Op> ops[] = {
        {">=", Op::GreaterEqual}, {"<=", Op::LessEqual}, {"==", Op::Equal}, {"=", Op::Equal},
        {"!=", Op::NotEqual},     {">", Op::Greater},    {"<", Op::Less}};
    for (const auto &[text, o] : ops) {
        if (s == QLatin1String(text)) {
            *op = o;
            return true;
        }
    }
    return false;
}

bool parseOne(const QString &text, GateCondition *c, QString *error)
{
    c->text = text;
    static const QRegularExpression figure(
        QStringLiteral("^([A-Za-z0-9_.]+)\\s*(>=|<=|==|!=|=|>|<)\\s*(\\S+)$"));
    if (const QRegularExpressionMatch m = figure.match(text); m.hasMatch()) {
        c->kind = GateCondition::Kind::Figure;
        c->key = m.captured(1);
        parseOp(m.captured(2), &c->op);
        const QString value = m.captured(3);
        if (value == QLatin1String("null") || value == QLatin1String("n/a")) {
            if (c->op != GateCondition::Op::Equal && c->op != GateCondition::Op::NotEqual) {
                *error = QStringLiteral("'%1': only == and != compare with null").arg(text);
                return false;
            }
            c->threshold.reset();
            return true;
        }
        bool ok = false;
        const double v = value.toDouble(&ok);
        if (!ok || !std::isfinite(v)) {
            *error = QStringLiteral("'%1': '%2' is not a number (or null)").arg(text, value);
            return false;
        }
        c->threshold = v;
        return true;
    }
    if (text == QLatin1String("crash")) {
        c->kind = GateCondition::Kind::Crash;
        return true;
    }
    if (eventKindFromName(text, &c->event)) {
        c->kind = GateCondition::Kind::Event;
        return true;
    }
    *error = QStringLiteral("unknown condition '%1': give an event kind (panic, oops, bug, "
                            "warning, lockdep, kasan, drop, ...), crash, or a figure compared "
                            "with a number (drops.messages>0, lag.max_s>5, boot_time_s>30)")
                 .arg(text);
    return false;
}

bool compare(double v, GateCondition::Op op, double t)
{
    using Op = GateCondition::Op;
    switch (op) {
    case Op::Greater:
        return v > t;
    case Op::GreaterEqual:
        return v >= t;
    case Op::Less:
        return v < t;
    case Op::LessEqual:
        return v <= t;
    case Op::Equal:
        return v == t;
    case Op::NotEqual:
        return v != t;
    }
    return false;
}

// `events.<kind>` is read from the counts, which every run has, rather than from the
// report's rows, which list only the kinds some run printed.
std::optional<EventKind> eventKey(const QString &key)
{
    EventKind k;
    if (key.startsWith(QLatin1String("events.")) && eventKindFromName(key.mid(7), &k)) {
        return k;
    }
    return std::nullopt;
}

const ReportRow *rowOf(const Report &report, const QString &key)
{
    for (const ReportRow &r : report.rows()) {
        if (r.key == key) {
            return &r;
        }
    }
    return nullptr;
}

QString number(double v, const ReportRow *row)
{
    return row && !row->integer ? QString::number(v, 'f', row->decimals) : QString::number(v);
}

// The first event of a kind in the lines a Metrics covers.
std::optional<LineIndex> firstEvent(const Run &run, const Metrics &m, EventKind kind)
{
    for (std::size_t i = run.eventsBefore(m.first); i < run.events.size(); ++i) {
        const Event &e = run.events[i];
        if (e.line >= m.end) {
            break;
        }
        if (e.kind == kind) {
            return e.line;
        }
    }
    return std::nullopt;
}

// None found in a file read only in part, or in a log that ends with the console behind:
// there may be one past the cut, or in the messages still queued.
void noneInWhatWasSeen(const Metrics &m, GateCheck *c)
{
    if (c->holds) {
        return;
    }
    if (m.cutShort) {
        c->unchecked = true;
        c->detail += QStringLiteral(" in what was read; the file was read only in part");
    } else if (m.behindAtEnd) {
        c->unchecked = true;
        c->detail += QStringLiteral(" seen; %1, its queue unseen").arg(m.backlogUnseen());
    }
}

void checkEvent(const Run &run, const Metrics &m, EventKind kind, GateCheck *c)
{
    const std::int64_t n = m.eventCounts[std::size_t(kind)];
    c->holds = n > 0;
    c->detail =
        QStringLiteral("%1 %2 event%3")
            .arg(n)
            .arg(QLatin1String(eventKindName(kind)), n == 1 ? QString() : QStringLiteral("s"));
    if (const std::optional<LineIndex> at = firstEvent(run, m, kind)) {
        c->detail += QStringLiteral(", the first at line %1").arg(lineNumber(*at));
    }
    noneInWhatWasSeen(m, c);
}

void checkCrash(const Run &run, const Metrics &m, GateCheck *c)
{
    const std::shared_ptr<const std::vector<Crash>> held = crashesOf(run, m);
    const std::vector<Crash> &crashes = *held;
    c->holds = !crashes.empty();
    c->detail = QStringLiteral("%1 crash report%2")
                    .arg(crashes.size())
                    .arg(crashes.size() == 1 ? QString() : QStringLiteral("s"));
    if (!crashes.empty()) {
        c->detail += QStringLiteral(", the first at line %1: %2")
                         .arg(lineNumber(crashes.front().line))
                         .arg(crashes.front().title);
    }
    noneInWhatWasSeen(m, c);
}

void checkFigure(const GateCondition &g, std::optional<double> value, const QString &absentWhy,
                 const ReportRow *row, const Metrics &m, GateCheck *c)
{
    if (!value) {
        // Compared with null: holds when absent (==) or present (!=). Compared with a
        // number: not checked, never a number made up for it.
        if (!g.threshold) {
            c->holds = g.op == GateCondition::Op::Equal;
        } else {
            c->unchecked = true;
        }
        c->detail = QStringLiteral("%1 is %2").arg(g.key, absentWhy);
        return;
    }
    const QString boundWhy = row && row->lowerBound ? row->lowerBound(m) : QString();
    if (!boundWhy.isEmpty() && g.threshold) {
        // The figure is some x >= value: the condition is known only where it holds, or
        // fails, for every such x.
        using Op = GateCondition::Op;
        const double v = *value, t = *g.threshold;
        std::optional<bool> known;
        switch (g.op) {
        case Op::Greater:
        case Op::GreaterEqual:
            known = compare(v, g.op, t) ? std::optional<bool>(true) : std::nullopt;
            break;
        case Op::Less:
        case Op::LessEqual:
            known = compare(v, g.op, t) ? std::nullopt : std::optional<bool>(false);
            break;
        case Op::Equal:
        case Op::NotEqual:
            known = v > t ? std::optional<bool>(g.op == Op::NotEqual) : std::nullopt;
            break;
        }
        c->holds = known.value_or(false);
        c->unchecked = !known;
        c->detail = QStringLiteral("%1 ≥ %2 (%3)").arg(g.key, number(v, row), boundWhy);
        return;
    }
    c->holds =
        g.threshold ? compare(*value, g.op, *g.threshold) : g.op == GateCondition::Op::NotEqual;
    c->detail = QStringLiteral("%1 = %2").arg(g.key, number(*value, row));
}

// Why a trial's figure is absent: "n/a (no host times)", or a bare "n/a" when the row has
// no reason to give for it (then its column's note, if any, says why).
QString absentReason(const ReportRow &row, const Metrics &m)
{
    const QString why = row.absentWhy ? row.absentWhy(m) : QString();
    return why.isEmpty() ? QStringLiteral("n/a") : QStringLiteral("n/a (%1)").arg(why);
}

} // namespace

QString trialName(const ReportColumn &column, std::size_t trial)
{
    const QString source = column.source(trial);
    return column.metrics.size() < 2 || column.files.value(qsizetype(trial)).isEmpty()
               ? column.label
               : QStringLiteral("%1 [%2]").arg(column.label, source);
}

bool parseGateConditions(const QStringList &specs, std::vector<GateCondition> *out, QString *error)
{
    for (const QString &spec : specs) {
        for (const QString &part : spec.split(QLatin1Char(','))) {
            const QString text = part.trimmed();
            if (text.isEmpty()) {
                *error = QStringLiteral("empty condition in '%1'").arg(spec);
                return false;
            }
            GateCondition c;
            if (!parseOne(text, &c, error)) {
                return false;
            }
            out->push_back(c);
        }
    }
    return true;
}

bool checkGate(const Report &report, const std::vector<GateCondition> &conditions,
               std::vector<GateCheck> *out, QString *error)
{
    for (const GateCondition &g : conditions) {
        if (g.kind == GateCondition::Kind::Figure && !eventKey(g.key) && !rowOf(report, g.key)) {
            QStringList keys;
            for (const ReportRow &r : report.rows()) {
                keys << r.key;
            }
            *error = QStringLiteral("--fail-on '%1': the report has no figure '%2' (it has: %3, "
                                    "events.<kind>)")
                         .arg(g.text, g.key, keys.join(QLatin1String(", ")));
            return false;
        }
    }
    const std::vector<ReportColumn> &columns = report.columns();
    for (std::size_t ci = 0; ci < columns.size(); ++ci) {
        const ReportColumn &col = columns[ci];
        for (std::size_t t = 0; t < col.metrics.size(); ++t) {
            const Run &run = *col.runs[t];
            const Metrics &m = col.metrics[t];
            for (const GateCondition &g : conditions) {
                GateCheck c;
                c.condition = &g;
                c.column = ci;
                c.trial = t;
                if (g.kind == GateCondition::Kind::Event) {
                    checkEvent(run, m, g.event, &c);
                } else if (g.kind == GateCondition::Kind::Crash) {
                    checkCrash(run, m, &c);
                } else if (const std::optional<EventKind> k = eventKey(g.key)) {
                    checkFigure(g, double(m.eventCounts[std::size_t(*k)]), QString(), nullptr, m,
                                &c);
                } else {
                    const ReportRow *row = rowOf(report, g.key);
                    const QString note = row->notes.value(qsizetype(ci));
                    std::optional<double> v; // what the table shows: none under a note
                    if (note.isEmpty()) {
                        v = row->values[ci][t];
                    }
                    // The trial's own reason first: a column's note may join several.
                    const bool ownReason = row->absentWhy && !row->absentWhy(m).isEmpty();
                    checkFigure(g, v, ownReason || note.isEmpty() ? absentReason(*row, m) : note,
                                row, m, &c);
                }
                out->push_back(c);
            }
        }
    }
    return true;
}

} // namespace tty
