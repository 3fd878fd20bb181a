#include "crashreport.h"

#include "bootstart.h"
#include "jsonnumber.h"

#include "metrics.h"

#include <map>

namespace tty {

namespace {
struct Row
{
    QString kind;
    std::vector<std::vector<int>> counts; // per column, per trial
};

// Title -> counts, titles in order of first appearance.
std::vector<std::pair<QString, Row>> tally(const std::vector<ReportColumn> &columns)
{
    std::vector<std::pair<QString, Row>> rows;
    std::map<QString, std::size_t> index;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        const ReportColumn &col = columns[c];
        for (std::size_t t = 0; t < col.metrics.size(); ++t) {
            const std::shared_ptr<const std::vector<Crash>> crashes =
                crashesOf(*col.runs[t], col.metrics[t]);
            for (const Crash &cr : *crashes) {
                auto it = index.find(cr.title);
                if (it == index.end()) {
                    Row r;
                    r.kind = QLatin1String(eventKindName(cr.kind));
                    for (const ReportColumn &cc : columns) {
                        r.counts.emplace_back(cc.metrics.size(), 0);
                    }
                    it = index.emplace(cr.title, rows.size()).first;
                    rows.emplace_back(cr.title, std::move(r));
                }
                ++rows[it->second].second.counts[c][t];
            }
        }
    }
    return rows;
}

QString where(const Row &r)
{
    int a = 0, b = 0;
    for (int n : r.counts[0]) {
        a += n;
    }
    for (int n : r.counts[1]) {
        b += n;
    }
    return a && b ? QStringLiteral("both")
           : a    ? QStringLiteral("only-in-A")
                  : QStringLiteral("only-in-B");
}

QString countCell(const std::vector<int> &v)
{
    QStringList s;
    for (int n : v) {
        s << QString::number(n);
    }
    return s.join(QLatin1Char('/'));
}
} // namespace

QJsonArray crashesToJson(const Run &run, const Metrics &m)
{
    QJsonArray out;
    const std::shared_ptr<const std::vector<Crash>> crashes = crashesOf(run, m);
    for (const Crash &c : *crashes) {
        // A headline behind other text (a shell's prompt) came after its line's first byte.
        const std::optional<HostNs> a = kernelTextArrival(run, c.line);
        const std::optional<KernelUs> k = run.lines.kernelTime(c.line);
        out.append(QJsonObject{
            {QStringLiteral("title"), c.title},
            {QStringLiteral("kind"), QLatin1String(eventKindName(c.kind))},
            {QStringLiteral("line"), double(lineNumber(c.line))},
            {QStringLiteral("arrival"),
             run.hasArrival && a ? QJsonValue(jsonSeconds(*a)) : QJsonValue()},
            {QStringLiteral("kernel_time"), k ? QJsonValue(jsonSeconds(*k)) : QJsonValue()},
            {QStringLiteral("end_line"), double(lineNumber(c.endLine))},
            {QStringLiteral("trace_complete"), c.traceComplete},
            {QStringLiteral("frames"), QJsonArray::fromStringList(c.frames)}});
    }
    return out;
}

QJsonArray crashComparison(const std::vector<ReportColumn> &columns)
{
    QJsonArray out;
    for (const auto &[title, r] : tally(columns)) {
        QJsonObject o{{QStringLiteral("title"), title}, {QStringLiteral("kind"), r.kind}};
        QJsonArray cols;
        for (const std::vector<int> &v : r.counts) {
            QJsonArray a;
            for (int n : v) {
                a.append(n);
            }
            cols.append(a);
        }
        o[QStringLiteral("counts")] = cols;
        if (columns.size() == 2) {
            o[QStringLiteral("in")] = where(r);
        }
        out.append(o);
    }
    return out;
}

QString crashTableText(const std::vector<ReportColumn> &columns, bool markdown)
{
    const auto rows = tally(columns);
    if (rows.empty()) {
        return {};
    }
    QStringList header{QStringLiteral("crash"), QStringLiteral("kind")};
    for (const ReportColumn &c : columns) {
        header << (c.metrics.size() > 1 ? c.label + QStringLiteral(" (per trial)") : c.label);
    }
    if (columns.size() == 2) {
        header << QStringLiteral("in");
    }
    std::vector<QStringList> table{header};
    for (const auto &[title, r] : rows) {
        QStringList l{title, r.kind};
        for (const std::vector<int> &v : r.counts) {
            l << countCell(v);
        }
        if (columns.size() == 2) {
            l << where(r);
        }
        table.push_back(l);
    }
    QString out;
    if (markdown) {
        for (std::size_t i = 0; i < table.size(); ++i) {
            QStringList cells = table[i];
            for (QString &c : cells) {
                c = markdownCell(c);
            }
            out +=
                QStringLiteral("| ") + cells.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
            if (i == 0) {
                out += QStringLiteral("|---|---|") +
                       QString(QStringLiteral("---:|")).repeated(header.size() - 2) +
                       QLatin1Char('\n');
            }
        }
        return out;
    }
    std::vector<qsizetype> width(std::size_t(header.size()), 0);
    for (const QStringList &l : table) {
        for (qsizetype i = 0; i < l.size(); ++i) {
            width[std::size_t(i)] = std::max(width[std::size_t(i)], l[i].size());
        }
    }
    for (const QStringList &l : table) {
        QString line;
        for (qsizetype i = 0; i < l.size(); ++i) {
            line +=
                (i ? QStringLiteral("  ") : QString()) + l[i].leftJustified(width[std::size_t(i)]);
        }
        out += line.trimmed() + QLatin1Char('\n');
    }
    return out;
}

} // namespace tty
