#include "sourcereport.h"

#include "gate.h"
#include "jsonnumber.h"

#include <QJsonArray>

#include <cmath>

namespace tty {

namespace {

constexpr int kTemplateColumn = 72; // template characters shown in text tables

QJsonValue num(const std::optional<double> &v)
{
    return jsonNumber(v);
}

QString fixed(const std::optional<double> &v, int decimals)
{
    return v ? QString::number(*v, 'f', decimals) : QStringLiteral("n/a");
}

QString percent(const std::optional<double> &v)
{
    return v ? QStringLiteral("%1 %").arg(*v * 100, 0, 'f', 1) : QStringLiteral("n/a");
}

// A source as a table shows it: its key, marked when its lines have no kernel timestamp.
QString label(const QString &key, bool kernel, SourceGrouping by, bool markdown)
{
    QString k = key;
    if (k.isEmpty()) {
        k = by == SourceGrouping::Caller ? QStringLiteral("(no caller id)")
                                         : QStringLiteral("(no prefix)");
    }
    if (markdown) {
        k = markdownCell(k).replace(QLatin1Char('`'), u'\'');
        k = QLatin1Char('`') + k + QLatin1Char('`');
    } else if (k.size() > kTemplateColumn) {
        k = k.left(kTemplateColumn - 1) + u'…';
    }
    return kernel ? k : QStringLiteral("[no timestamp] ") + k;
}

// Rows of cells as aligned text (numbers right, the last column left) or a Markdown table.
QString table(const QStringList &header, const std::vector<QStringList> &rows, bool markdown)
{
    QString out;
    if (markdown) {
        out += QStringLiteral("| ") + header.join(QStringLiteral(" | ")) + QStringLiteral(" |\n|");
        for (qsizetype c = 0; c < header.size(); ++c) {
            out += c + 1 < header.size() ? QStringLiteral("---:|") : QStringLiteral("---|");
        }
        out += u'\n';
        for (const QStringList &r : rows) {
            out += QStringLiteral("| ") + r.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
        }
        return out;
    }
    std::vector<qsizetype> width(std::size_t(header.size()), 0);
    auto measure = [&](const QStringList &r) {
        for (qsizetype c = 0; c + 1 < r.size(); ++c) {
            width[std::size_t(c)] = std::max(width[std::size_t(c)], r[c].size());
        }
    };
    measure(header);
    for (const QStringList &r : rows) {
        measure(r);
    }
    auto line = [&](const QStringList &r) {
        QString l = QStringLiteral("  ");
        for (qsizetype c = 0; c < r.size(); ++c) {
            l += c + 1 < r.size()
                     ? r[c].rightJustified(width[std::size_t(c)]) + QStringLiteral("  ")
                     : r[c];
        }
        return l + u'\n';
    };
    out += line(header);
    for (const QStringList &r : rows) {
        out += line(r);
    }
    return out;
}

bool listedInJson(const SourceStat &s, const SourceTable &t)
{
    const double share = s.wireShare.value_or(t.bytes > 0 ? double(s.bytes) / double(t.bytes) : 0);
    return share >= SourceOptions::kMinJsonShare;
}

} // namespace

SourceReport::SourceReport(const Report &report, const SourceOptions &options,
                           const SourceReport *reuse)
    : m_report(report), m_options(options)
{
    if (reuse) {
        m_indexes = reuse->m_indexes;
    }
    for (const ReportColumn &c : report.columns()) {
        std::vector<SourceTable> tables;
        for (std::size_t i = 0; i < c.metrics.size(); ++i) {
            const Run *run = c.runs[i];
            auto it = m_indexes.find(run);
            if (it == m_indexes.end()) {
                it =
                    m_indexes
                        .emplace(run, std::make_shared<const SourceIndex>(SourceIndex::build(*run)))
                        .first;
            }
            tables.push_back(computeSources(*run, *it->second, c.metrics[i], options.by));
        }
        m_tables.push_back(std::move(tables));
    }
    if (m_tables.size() == 2) {
        std::vector<const SourceTable *> a, b;
        for (const SourceTable &t : m_tables[0]) {
            a.push_back(&t);
        }
        for (const SourceTable &t : m_tables[1]) {
            b.push_back(&t);
        }
        m_comparison = compareSources(a, b);
    }
}

const SourceIndex *SourceReport::index(const Run *run) const
{
    const auto it = m_indexes.find(run);
    return it == m_indexes.end() ? nullptr : it->second.get();
}

QString SourceReport::text() const
{
    return render(false);
}

QString SourceReport::markdown() const
{
    return render(true);
}

namespace {
// ", 22.529 s on the wire", or nothing where that time is not known (the notes say why).
QString onTheWire(std::optional<double> seconds)
{
    return seconds ? QStringLiteral(", %1 s on the wire").arg(*seconds, 0, 'f', 3) : QString();
}
} // namespace

QString SourceReport::render(bool md) const
{
    const int top = m_options.top.value_or(SourceOptions::kDefaultTop);
    const QString by = sourceGroupingName(m_options.by);
    QString out;
    for (std::size_t c = 0; c < m_tables.size(); ++c) {
        const ReportColumn &col = m_report.columns()[c];
        for (std::size_t i = 0; i < m_tables[c].size(); ++i) {
            const SourceTable &t = m_tables[c][i];
            const Metrics &m = col.metrics[i];
            const QString title = QStringLiteral("Sources of %1, by %2: %3 sources, %4 lines%5")
                                      .arg(trialName(col, i), by, QString::number(t.sources.size()),
                                           QString::number(t.lines), onTheWire(t.wireSeconds));
            out += md ? QStringLiteral("\n### ") + title + QStringLiteral("\n\n")
                      : QStringLiteral("\n") + title + u'\n';
            std::vector<QStringList> rows;
            std::int64_t restLines = 0, restBytes = 0;
            for (std::size_t k = 0; k < t.sources.size(); ++k) {
                const SourceStat &s = t.sources[k];
                if (int(k) >= top) {
                    restLines += s.lines;
                    restBytes += s.bytes;
                    continue;
                }
                QStringList row{fixed(s.wireSeconds, 3),
                                percent(s.wireShare),
                                percent(s.bootShare),
                                QString::number(s.lines),
                                QString::number(s.bytes),
                                QString::number(double(s.bytes) / double(s.lines), 'f', 1),
                                fixed(s.rate, 1),
                                fixed(s.firstS, 3),
                                fixed(s.lastS, 3),
                                t.dropNote.isEmpty() ? QString::number(s.dropped)
                                                     : QStringLiteral("n/a")};
                if (!m.intervals.empty()) {
                    const std::int64_t cycles = m.intervals.front().matches;
                    row << (cycles > 0 ? QString::number(double(s.lines) / double(cycles), 'f', 2)
                                       : QStringLiteral("n/a"));
                }
                row << label(s.key, s.kernel, m_options.by, md);
                rows.push_back(row);
            }
            QStringList header{QStringLiteral("wire s"),     QStringLiteral("share"),
                               QStringLiteral("boot share"), QStringLiteral("lines"),
                               QStringLiteral("bytes"),      QStringLiteral("bytes/line"),
                               QStringLiteral("lines/s"),    QStringLiteral("first s"),
                               QStringLiteral("last s"),     QStringLiteral("dropped")};
            if (!m.intervals.empty()) {
                header << QStringLiteral("lines/cycle");
            }
            header << by;
            out += table(header, rows, md);
            QStringList notes;
            if (restLines > 0) {
                // The rest's share of the whole's wire time (none when that is not known).
                const QString wire =
                    t.wireSeconds && t.bytes > 0
                        ? onTheWire(*t.wireSeconds * double(restBytes) / double(t.bytes))
                        : QString();
                notes << QStringLiteral("%1 more sources: %2 lines%3")
                             .arg(t.sources.size() - std::size_t(top))
                             .arg(restLines)
                             .arg(wire);
            }
            if (t.dropNote.isEmpty()) {
                notes << QStringLiteral("dropped messages%3: %1 attributed, %2 not attributed "
                                        "(the lines around the drop are of different sources)")
                             .arg(t.droppedAttributed)
                             .arg(t.droppedUnattributed)
                             .arg(t.dropsAtLeast.isEmpty()
                                      ? QString()
                                      : QStringLiteral(" (at least: %1)").arg(t.dropsAtLeast));
            } else {
                notes << QStringLiteral("dropped messages n/a: ") + t.dropNote;
            }
            if (!t.wireNote.isEmpty()) {
                notes << QStringLiteral("wire time n/a: ") + t.wireNote;
            }
            if (!t.bootNote.isEmpty()) {
                notes << QStringLiteral("boot share n/a: ") + t.bootNote;
            }
            if (!m.intervals.empty()) {
                notes << QStringLiteral("a cycle: from one line matching the --interval '%1' to "
                                        "the next (%2 matches)")
                             .arg(m.intervals.front().pattern,
                                  QString::number(m.intervals.front().matches));
            }
            if (!t.clockNote.isEmpty()) {
                notes << QStringLiteral("first/last/rate: ") + t.clockNote;
            }
            if (!t.timeNote.isEmpty()) {
                notes << QStringLiteral("first/last/rate n/a: ") + t.timeNote;
            }
            for (const QString &n : notes) {
                out += (md ? QStringLiteral("\n") : QStringLiteral("  ")) + n + u'\n';
            }
        }
    }
    if (!m_comparison) {
        return out;
    }
    const SourceComparison &cmp = *m_comparison;
    const QString a = m_report.columns()[0].label, b = m_report.columns()[1].label;
    const QString title = QStringLiteral("Sources, %1 → %2, by %3 (mean per trial)").arg(a, b, by);
    out += md ? QStringLiteral("\n### ") + title + QStringLiteral("\n\n")
              : QStringLiteral("\n") + title + u'\n';
    std::vector<QStringList> rows;
    for (std::size_t k = 0; k < cmp.sources.size() && int(k) < top; ++k) {
        const SourceDiff &d = cmp.sources[k];
        const std::optional<double> delta =
            d.wireA && d.wireB ? std::optional<double>(*d.wireB - *d.wireA) : std::nullopt;
        rows.push_back(
            {fixed(d.wireA, 3), fixed(d.wireB, 3), fixed(delta, 3),
             d.ratio ? QStringLiteral("×%1").arg(*d.ratio, 0, 'f', 2) : QStringLiteral("n/a"),
             QString::number(d.linesA, 'f', d.linesA == std::floor(d.linesA) ? 0 : 1),
             QString::number(d.linesB, 'f', d.linesB == std::floor(d.linesB) ? 0 : 1), d.markText(),
             label(d.key, d.kernel, cmp.by, md)});
    }
    out += (md ? QString() : QStringLiteral("  ")) + QStringLiteral("A: %1, B: %2\n").arg(a, b) +
           (md ? QStringLiteral("\n") : QString());
    out += table({QStringLiteral("A wire s"), QStringLiteral("B wire s"), QStringLiteral("B − A s"),
                  QStringLiteral("×"), QStringLiteral("A lines"), QStringLiteral("B lines"),
                  QStringLiteral("mark"), by},
                 rows, md);
    QString added = QStringLiteral("sources only in B: %1 (only in A: %2)")
                        .arg(cmp.newSources)
                        .arg(cmp.goneSources);
    if (cmp.newBootWireSeconds && cmp.extraBootSeconds) {
        added += QStringLiteral("; up to boot-done they took %1 s on the wire, of the %2 s B "
                                "took longer to boot (%3)")
                     .arg(fixed(cmp.newBootWireSeconds, 3), fixed(cmp.extraBootSeconds, 3),
                          percent(cmp.newShareOfExtraBoot));
    } else if (!cmp.note.isEmpty()) {
        added += QStringLiteral("; their share of the extra boot time n/a: ") + cmp.note;
    }
    out += (md ? QStringLiteral("\n") : QStringLiteral("  ")) + added + u'\n';
    return out;
}

QJsonObject SourceReport::sourceJson(const SourceStat &s, SourceGrouping by,
                                     const IntervalStats *cycle, bool dropsKnown)
{
    QJsonObject o{
        {QStringLiteral("template"), s.templ},
        {QStringLiteral("prefix"), s.prefix.isEmpty() ? QJsonValue() : s.prefix},
        {QStringLiteral("kernel"), s.kernel},
        {QStringLiteral("lines"), double(s.lines)},
        {QStringLiteral("bytes"), double(s.bytes)},
        {QStringLiteral("wire_s"), num(s.wireSeconds)},
        {QStringLiteral("wire_share"), num(s.wireShare)},
        {QStringLiteral("boot_wire_s"), num(s.bootWireSeconds)},
        {QStringLiteral("boot_share"), num(s.bootShare)},
        {QStringLiteral("rate"), num(s.rate)},
        {QStringLiteral("first_s"), num(s.firstS)},
        {QStringLiteral("last_s"), num(s.lastS)},
        {QStringLiteral("first_line"), double(lineNumber(s.firstLine))},
        {QStringLiteral("last_line"), double(lineNumber(s.lastLine))},
        {QStringLiteral("dropped"), dropsKnown ? QJsonValue(double(s.dropped)) : QJsonValue()},
        {QStringLiteral("example"), s.example}};
    if (by == SourceGrouping::Caller) {
        o[QStringLiteral("caller")] = s.caller.isEmpty() ? QJsonValue() : s.caller;
    }
    // The cost of one message: per line, and per cycle of the first --interval pattern.
    const double n = double(std::max<std::int64_t>(s.lines, 1));
    o[QStringLiteral("bytes_per_line")] = double(s.bytes) / n;
    o[QStringLiteral("wire_s_per_line")] =
        s.wireSeconds ? QJsonValue(*s.wireSeconds / n) : QJsonValue();
    if (cycle) {
        const bool any = cycle->matches > 0;
        const double c = double(cycle->matches);
        o[QStringLiteral("per_cycle")] = QJsonObject{
            {QStringLiteral("pattern"), cycle->pattern},
            {QStringLiteral("cycles"), c},
            {QStringLiteral("lines"), any ? QJsonValue(double(s.lines) / c) : QJsonValue()},
            {QStringLiteral("bytes"), any ? QJsonValue(double(s.bytes) / c) : QJsonValue()},
            {QStringLiteral("wire_s"),
             any && s.wireSeconds ? QJsonValue(*s.wireSeconds / c) : QJsonValue()}};
    }
    return o;
}

void SourceReport::addToJson(QJsonObject *j) const
{
    QJsonArray runs = (*j)[QStringLiteral("runs")].toArray();
    qsizetype k = 0;
    for (const std::vector<SourceTable> &column : m_tables) {
        const std::size_t c = std::size_t(&column - m_tables.data());
        for (const SourceTable &t : column) {
            if (k >= runs.size()) {
                break;
            }
            const Metrics &m = m_report.columns()[c].metrics[std::size_t(&t - column.data())];
            const IntervalStats *cycle = m.intervals.empty() ? nullptr : &m.intervals.front();
            QJsonArray list;
            int listed = 0;
            for (const SourceStat &s : t.sources) {
                const bool keep = m_options.top ? listed < *m_options.top : listedInJson(s, t);
                if (keep) {
                    list.append(sourceJson(s, t.by, cycle, t.dropNote.isEmpty()));
                    ++listed;
                }
            }
            const auto drops = [&t](std::int64_t n) {
                return t.dropNote.isEmpty() ? QJsonValue(double(n)) : QJsonValue();
            };
            QJsonObject notes;
            auto note = [&](const char *key, const QString &v) {
                notes[QLatin1String(key)] = v.isEmpty() ? QJsonValue() : QJsonValue(v);
            };
            note("wire", t.wireNote);
            note("boot_share", t.bootNote);
            note("time", t.timeNote);
            note("clock", t.clockNote);
            note("dropped", t.dropNote);
            note("dropped_at_least", t.dropsAtLeast);
            QJsonObject summary{
                {QStringLiteral("by"), sourceGroupingName(t.by)},
                {QStringLiteral("count"), double(t.sources.size())},
                {QStringLiteral("listed"), listed},
                {QStringLiteral("listed_by"), m_options.top
                                                  ? QStringLiteral("top %1").arg(*m_options.top)
                                                  : QStringLiteral("wire share >= 0.1 %")},
                {QStringLiteral("lines"), double(t.lines)},
                {QStringLiteral("bytes"), double(t.bytes)},
                {QStringLiteral("wire_s"), num(t.wireSeconds)},
                {QStringLiteral("dropped_attributed"), drops(t.droppedAttributed)},
                {QStringLiteral("dropped_unattributed"), drops(t.droppedUnattributed)},
                {QStringLiteral("notes"), notes}};
            QJsonObject run = runs[k].toObject();
            run[QStringLiteral("sources")] = list;
            run[QStringLiteral("sources_summary")] = summary;
            runs[k++] = run;
        }
    }
    (*j)[QStringLiteral("runs")] = runs;
    if (!m_comparison) {
        return;
    }
    const SourceComparison &cmp = *m_comparison;
    double totalA = 0, totalB = 0;
    for (const SourceDiff &d : cmp.sources) {
        totalA += d.bytesA;
        totalB += d.bytesB;
    }
    QJsonArray list;
    int listed = 0;
    for (const SourceDiff &d : cmp.sources) {
        const bool keep =
            m_options.top ? listed < *m_options.top
                          : (d.bytesA >= SourceOptions::kMinJsonShare * totalA && d.bytesA > 0) ||
                                (d.bytesB >= SourceOptions::kMinJsonShare * totalB && d.bytesB > 0);
        if (!keep) {
            continue;
        }
        ++listed;
        auto side = [](double lines, double bytes, const std::optional<double> &w,
                       const std::optional<double> &bw) {
            return QJsonObject{{QStringLiteral("lines"), lines},
                               {QStringLiteral("bytes"), bytes},
                               {QStringLiteral("wire_s"), num(w)},
                               {QStringLiteral("boot_wire_s"), num(bw)}};
        };
        std::optional<double> dw;
        if (d.wireA && d.wireB) {
            dw = *d.wireB - *d.wireA;
        }
        const QString mark = d.markText();
        list.append(
            QJsonObject{{QStringLiteral("template"), d.templ},
                        {QStringLiteral("key"), d.key},
                        {QStringLiteral("prefix"), d.prefix.isEmpty() ? QJsonValue() : d.prefix},
                        {QStringLiteral("kernel"), d.kernel},
                        {QStringLiteral("a"), side(d.linesA, d.bytesA, d.wireA, d.bootWireA)},
                        {QStringLiteral("b"), side(d.linesB, d.bytesB, d.wireB, d.bootWireB)},
                        {QStringLiteral("b_minus_a"),
                         QJsonObject{{QStringLiteral("lines"), d.linesB - d.linesA},
                                     {QStringLiteral("bytes"), d.bytesB - d.bytesA},
                                     {QStringLiteral("wire_s"), num(dw)}}},
                        {QStringLiteral("ratio"), num(d.ratio)},
                        {QStringLiteral("mark"), mark.isEmpty() ? QJsonValue() : mark}});
    }
    (*j)[QStringLiteral("sources_diff")] =
        QJsonObject{{QStringLiteral("by"), sourceGroupingName(cmp.by)},
                    {QStringLiteral("count"), double(cmp.sources.size())},
                    {QStringLiteral("listed"), listed},
                    {QStringLiteral("new"), cmp.newSources},
                    {QStringLiteral("gone"), cmp.goneSources},
                    {QStringLiteral("new_boot_wire_s"), num(cmp.newBootWireSeconds)},
                    {QStringLiteral("extra_boot_s"), num(cmp.extraBootSeconds)},
                    {QStringLiteral("new_share_of_extra_boot"), num(cmp.newShareOfExtraBoot)},
                    {QStringLiteral("note"), cmp.note.isEmpty() ? QJsonValue() : cmp.note},
                    {QStringLiteral("list"), list}};
}

} // namespace tty
