// Renders metrics of runs, or groups of trials, as aligned text and Markdown tables (the
// JSON is in reportjson.cpp).
#include "report.h"

#include "crashreport.h"
#include "run.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace tty {

namespace {

QString fmt(double v, int decimals, bool integer)
{
    if (!std::isfinite(v)) {
        return QStringLiteral("–");
    }
    return integer ? QString::number(qint64(std::llround(v))) : QString::number(v, 'f', decimals);
}

QString signedFmt(double v, int decimals, bool integer)
{
    const QString s = fmt(v, decimals, integer);
    return v > 0 ? QLatin1Char('+') + s : s;
}

// A header's list, cut in the middle when long, with its count: the header of 10^5 boots
// as trials is one line, not a megabyte.
QString cutList(QStringList items, std::size_t count, const QString &unit)
{
    constexpr qsizetype kShown = 12;
    if (items.size() <= kShown) {
        return items.join(QStringLiteral(", "));
    }
    const QString last = items.back();
    items = items.mid(0, kShown - 2);
    items << QStringLiteral("…") << last;
    return QStringLiteral("%1: %2 %3")
        .arg(items.join(QStringLiteral(", ")), QString::number(count), unit);
}

// Boot numbers (1-based, increasing) as "1–3, 7".
QString bootNumbers(const std::vector<int> &numbers)
{
    QStringList items;
    for (std::size_t k = 0; k < numbers.size();) {
        std::size_t j = k;
        while (j + 1 < numbers.size() && numbers[j + 1] == numbers[j] + 1) {
            ++j;
        }
        if (j >= k + 2) {
            items << QStringLiteral("%1–%2").arg(numbers[k]).arg(numbers[j]);
        } else {
            for (std::size_t i = k; i <= j; ++i) {
                items << QString::number(numbers[i]);
            }
        }
        k = j + 1;
    }
    return cutList(std::move(items), numbers.size(), QStringLiteral("boots"));
}
} // namespace

QString markdownCell(QString text)
{
    return text.replace(QLatin1Char('|'), QLatin1String("\\|"));
}

bool isShownValue(const std::optional<double> &v)
{
    return v && std::isfinite(*v);
}

QString trialSourceName(const QString &file, std::optional<int> boot)
{
    // One arg() for both: a file named "a%2.log" must stay as it is.
    return boot && *boot >= 0 ? QStringLiteral("%1 (boot %2)").arg(file, QString::number(*boot + 1))
                              : file;
}

QString ReportColumn::source(std::size_t trial) const
{
    return trialSourceName(files.value(qsizetype(trial)),
                           trial < boots.size() ? boots[trial] : std::nullopt);
}

QString ReportColumn::sourcesSummary() const
{
    const std::size_t n = std::size_t(files.size());
    auto bootOf = [&](std::size_t k) {
        return k < boots.size() && boots[k] && *boots[k] >= 0 ? boots[k] : std::nullopt;
    };
    auto runOf = [&](std::size_t k) { return k < runs.size() ? runs[k] : nullptr; };
    QStringList items;
    for (std::size_t k = 0; k < n;) {
        const std::optional<int> boot = bootOf(k);
        if (!boot) {
            items << files[qsizetype(k)];
            ++k;
            continue;
        }
        // The boots of one run, in increasing order, make one item.
        std::vector<int> numbers{*boot + 1};
        std::size_t j = k + 1;
        for (; j < n && bootOf(j) && runOf(j) == runOf(k) &&
               files[qsizetype(j)] == files[qsizetype(k)] && *bootOf(j) + 1 > numbers.back();
             ++j) {
            numbers.push_back(*bootOf(j) + 1);
        }
        items << (numbers.size() == 1 ? source(k)
                                      : QStringLiteral("%1 (boots %2)")
                                            .arg(files[qsizetype(k)], bootNumbers(numbers)));
        k = j;
    }
    return cutList(std::move(items), n, QStringLiteral("trials"));
}

Report::Report(std::vector<ReportColumn> columns, const MetricOptions &options)
    : m_columns(std::move(columns)), m_options(options)
{
    buildRows();
}

QString Report::cell(const ReportRow &row, std::size_t column, bool withN) const
{
    if (!row.notes[qsizetype(column)].isEmpty()) {
        return row.notes[qsizetype(column)];
    }
    const std::vector<std::optional<double>> &v = row.values[column];
    if (row.boolean) {
        int yes = 0, n = 0;
        for (const std::optional<double> &x : v) {
            if (isShownValue(x)) {
                ++n;
                yes += *x > 0.5 ? 1 : 0;
            }
        }
        if (n == 0) {
            return QStringLiteral("n/a");
        }
        if (v.size() == 1) {
            return yes ? QStringLiteral("yes") : QStringLiteral("no");
        }
        // Trials whose log did not show all of the run left without the figure (no panic in
        // what was read, or seen before the console's queue) are said, not silently left out
        // of the count.
        const std::vector<Metrics> &ms = m_columns[column].metrics;
        int cut = 0, behind = 0;
        for (std::size_t k = 0; k < v.size() && k < ms.size(); ++k) {
            if (!isShownValue(v[k])) {
                cut += ms[k].cutShort ? 1 : 0;
                behind += !ms[k].cutShort && ms[k].behindAtEnd ? 1 : 0;
            }
        }
        QStringList unseen;
        if (cut > 0) {
            unseen << QStringLiteral("%1 read in part").arg(cut);
        }
        if (behind > 0) {
            unseen << QStringLiteral("%1 ended with the console behind").arg(behind);
        }
        return QStringLiteral("%1/%2%3").arg(yes).arg(n).arg(
            unseen.isEmpty() ? QString()
                             : QStringLiteral(" (%1)").arg(unseen.join(QStringLiteral(", "))));
    }
    const QString approx =
        (row.atLeast.size() > column && row.atLeast[column] ? QStringLiteral("≥") : QString()) +
        (row.approximate.size() > column && row.approximate[column] ? QStringLiteral("≈")
                                                                    : QString());
    if (v.size() == 1) {
        return isShownValue(v.front()) ? approx + fmt(*v.front(), row.decimals, row.integer)
                                       : QStringLiteral("n/a");
    }
    const Summary s = summarizePresent(v);
    if (s.n == 0) {
        return QStringLiteral("n/a");
    }
    const int d = row.integer ? 1 : row.decimals;
    // One value has no spread: an sd of it would be a number the trials cannot give.
    const QString ms = s.n == 1 ? approx + fmt(s.mean, row.decimals, row.integer)
                                : approx + QStringLiteral("%1 ± %2").arg(fmt(s.mean, d, false),
                                                                         fmt(s.sd, d, false));
    return withN || s.n != int(v.size()) ? ms + QStringLiteral(" (n=%1)").arg(s.n) : ms;
}

Difference Report::difference(const ReportRow &row) const
{
    if (!hasDiff() || row.boolean) {
        return {};
    }
    return welch(summarizePresent(row.values[0]), summarizePresent(row.values[1]));
}

Report::DiffTally Report::diffTally() const
{
    DiffTally t;
    for (const ReportRow &r : m_rows) {
        // A figure equal in every trial of both sides has no noise to test against.
        const Difference d = difference(r);
        if (d.valid && d.ciHigh > d.ciLow) {
            ++t.tested;
            t.significant += d.significant() ? 1 : 0;
        }
    }
    return t;
}

int Report::better(const ReportRow &row) const
{
    // A lower bound against a count may differ only by what the log did not see.
    if (row.better == ReportRow::Better::None ||
        std::find(row.atLeast.begin(), row.atLeast.end(), true) != row.atLeast.end()) {
        return 0;
    }
    // Only a difference that stands out of the trials' noise has a winner; a single
    // trial on either side gives no measure of that noise, so no winner either.
    const Difference d = difference(row);
    if (!d.significant() || d.diff == 0) {
        return 0;
    }
    return (row.better == ReportRow::Better::Lower) == (d.diff < 0) ? 1 : -1;
}

QString Report::diffTooltip(const ReportRow &row) const
{
    const Difference w = difference(row);
    if (!w.valid) {
        return hasDiff() && !row.boolean
                   ? QStringLiteral("One trial on a side: no measure of the noise, so no "
                                    "side is called better.")
                   : QString();
    }
    const int dec = row.integer ? 1 : row.decimals;
    if (w.noSpread) {
        return QStringLiteral("B − A = %1 in every pair of trials: each side gave the same "
                              "value in every trial, so there is no noise to test it against")
            .arg(signedFmt(w.diff, dec, false));
    }
    return QStringLiteral("B − A = %1, 95 % confidence interval [%2, %3]\n"
                          "Welch's t test: p = %4 (df %5): %6")
        .arg(signedFmt(w.diff, dec, false), signedFmt(w.ciLow, dec, false),
             signedFmt(w.ciHigh, dec, false), QString::number(w.p, 'g', 3),
             QString::number(w.df, 'f', 1),
             w.significant() ? QStringLiteral("significant at 95 %")
                             : QStringLiteral("not significant at 95 %"));
}

QString Report::diffCell(const ReportRow &row, bool withInterval) const
{
    if (!hasDiff()) {
        return {};
    }
    const Summary a = summarizePresent(row.values[0]), b = summarizePresent(row.values[1]);
    if (a.n == 0 || b.n == 0) {
        return QStringLiteral("n/a");
    }
    if (row.boolean) {
        return a.mean == b.mean ? QStringLiteral("same") : QStringLiteral("differs");
    }
    const double d = b.mean - a.mean;
    const bool groups = row.values[0].size() > 1 || row.values[1].size() > 1;
    const int dec = row.integer && !groups ? 0 : (row.integer ? 1 : row.decimals);
    QString s = signedFmt(d, dec, row.integer && !groups);
    if (a.mean != 0) {
        s += QStringLiteral(" (%1%)").arg(signedFmt(100.0 * d / std::fabs(a.mean), 1, false));
    }
    const Difference w = difference(row);
    if (w.valid) {
        if (withInterval) {
            s += QStringLiteral(" [%1, %2]")
                     .arg(signedFmt(w.ciLow, dec, false), signedFmt(w.ciHigh, dec, false));
        }
        const int b = better(row);
        if (b != 0) {
            s += b > 0 ? QStringLiteral("  B better") : QStringLiteral("  A better");
        } else if (!w.significant() && w.diff != 0) {
            s += QStringLiteral("  n.s.");
        }
    }
    return s;
}

QString Report::footnotes(bool intervalInCell) const
{
    QStringList notes;
    bool approx = false, groups = false;
    for (const ReportRow &r : m_rows) {
        // Only where a value is shown with its "≈" (an n/a cell has none).
        for (std::size_t c = 0; c < r.approximate.size(); ++c) {
            approx = approx || (r.approximate[c] &&
                                std::any_of(r.values[c].begin(), r.values[c].end(), isShownValue));
        }
    }
    for (const ReportColumn &c : m_columns) {
        groups = groups || c.metrics.size() > 1;
    }
    notes << lowerBoundNotes();
    if (approx) {
        notes << QStringLiteral("≈: the format keeps lines without their line ends; each is "
                                "counted as \\r\\n.");
    }
    if (hasDiff() && groups) {
        notes << QStringLiteral(
                     "B − A: difference of the means, %1 by Welch's t test; a side is called "
                     "better only where the difference is significant at 95 % (n.s.: it is "
                     "not) and the metric has a direction.")
                     .arg(intervalInCell
                              ? QStringLiteral("[95 % confidence interval]")
                              : QStringLiteral("with its 95 % confidence interval in the "
                                               "cell's tooltip"));
        // The difference cells of a single trial against a group show neither, which reads
        // like a significant difference unless said.
        QStringList single;
        for (std::size_t c = 0; c < m_columns.size() && c < 2; ++c) {
            if (m_columns[c].metrics.size() < 2) {
                single << (c == 0 ? QStringLiteral("A") : QStringLiteral("B"));
            }
        }
        if (!single.isEmpty()) {
            notes << QStringLiteral("%1 has one trial: no measure of its noise, so B − A has no "
                                    "interval and no side is called better (run two trials or "
                                    "more on each side).")
                         .arg(single.join(QStringLiteral(" and ")));
        }
        // Many figures tested at once: some differ at 95 % by chance alone.
        const DiffTally t = diffTally();
        if (t.tested > 1) {
            notes << QStringLiteral("%1 of the %2 differences tested are significant at 95 %; "
                                    "between two identical kernels about one in twenty would "
                                    "be by chance (%3 here), so one alone is weak evidence.")
                         .arg(t.significant)
                         .arg(t.tested)
                         .arg(t.tested * 0.05, 0, 'f', 1);
        }
    }
    // The rates of the wire figures, per column, said where the reader could not tell: the
    // columns are at different rates (one board at 1500000 baud against one at 115200: the
    // reader of B - A must know), or a rate came from the kernel's command line, or is the
    // default in a log with no arrival times that would have shown it wrong (a raw log).
    bool stated = false;
    std::set<int> rates;
    std::vector<std::set<std::pair<int, QString>>> perColumn; // (rate, what is said of it)
    for (const ReportColumn &c : m_columns) {
        std::set<std::pair<int, QString>> own;
        for (std::size_t k = 0; k < c.metrics.size(); ++k) {
            const int baud = c.metrics[k].baud;
            rates.insert(baud);
            const Run *run = k < c.runs.size() ? c.runs[k] : nullptr;
            QString source;
            if (run && baud > 0 && c.metrics[k].wireSeconds) {
                if (run->meta.baudSource == RunMeta::BaudSource::KernelCommandLine) {
                    source = QStringLiteral(" (%1 on the kernel command line)")
                                 .arg(run->meta.baudStatement);
                } else if (run->meta.baudSource == RunMeta::BaudSource::Default &&
                           !run->hasArrival) {
                    source = QStringLiteral(" (ttyscope's default: the log states no rate and has "
                                            "no arrival times to check one by; give --baud)");
                }
            }
            stated = stated || !source.isEmpty();
            own.insert({baud, source});
        }
        perColumn.push_back(std::move(own));
    }
    auto named = [](int rate, const QString &source) {
        return rate > 0 ? QStringLiteral("%1 baud%2").arg(rate).arg(source)
                        : QStringLiteral("no rate (n/a)");
    };
    auto columns = [&](bool withSources) {
        QStringList out;
        for (std::size_t c = 0; c < m_columns.size(); ++c) {
            QStringList names;
            for (const auto &[rate, source] : perColumn[c]) {
                const QString n = named(rate, withSources ? source : QString());
                if (!names.contains(n)) {
                    names << n;
                }
            }
            out << QStringLiteral("%1: %2").arg(m_columns[c].label,
                                                names.join(QStringLiteral(", ")));
        }
        return out.join(QStringLiteral("; "));
    };
    if (stated) {
        // One rate from one source for all columns: said once, without their names.
        std::set<std::pair<int, QString>> every;
        for (const auto &own : perColumn) {
            every.insert(own.begin(), own.end());
        }
        notes << QStringLiteral("The wire figures' rate: %1.")
                     .arg(every.size() == 1 ? named(every.begin()->first, every.begin()->second)
                                            : columns(true));
    } else if (rates.size() > 1) {
        notes << QStringLiteral("The wire figures are at different rates: %1.").arg(columns(false));
    }
    return notes.join(QLatin1Char('\n'));
}

QString Report::text() const
{
    QStringList header{QStringLiteral("metric")};
    for (const ReportColumn &c : m_columns) {
        header << (c.metrics.size() > 1
                       ? QStringLiteral("%1 (n=%2)").arg(c.label, QString::number(c.metrics.size()))
                       : c.label);
    }
    if (hasDiff()) {
        header << QStringLiteral("B − A");
    }
    std::vector<QStringList> table{header};
    for (const ReportRow &r : m_rows) {
        QStringList line{r.title};
        for (std::size_t c = 0; c < m_columns.size(); ++c) {
            line << cell(r, c, false);
        }
        if (hasDiff()) {
            line << diffCell(r);
        }
        table.push_back(line);
    }
    std::vector<int> width(std::size_t(header.size()), 0);
    for (const QStringList &l : table) {
        for (int i = 0; i < l.size(); ++i) {
            width[std::size_t(i)] = std::max(width[std::size_t(i)], int(l[i].size()));
        }
    }
    QString out;
    for (std::size_t c = 0; c < m_columns.size(); ++c) {
        out += QStringLiteral("%1: %2\n").arg(m_columns[c].label, m_columns[c].sourcesSummary());
    }
    out += QLatin1Char('\n');
    for (std::size_t r = 0; r < table.size(); ++r) {
        const QStringList &l = table[r];
        QString line;
        for (int i = 0; i < l.size(); ++i) {
            line += i == 0 ? l[i].leftJustified(width[0])
                           : QStringLiteral("  ") + l[i].leftJustified(width[std::size_t(i)]);
        }
        out += line.trimmed() + QLatin1Char('\n');
        if (r == 0) {
            int total = 0;
            for (int w : width) {
                total += w + 2;
            }
            out += QString(total - 2, QLatin1Char('-')) + QLatin1Char('\n');
        }
    }
    const QString crashes = crashTableText(m_columns, false);
    if (!crashes.isEmpty()) {
        out += QLatin1Char('\n') + crashes;
    }
    const QString notes = footnotes();
    return notes.isEmpty() ? out : out + QLatin1Char('\n') + notes + QLatin1Char('\n');
}

QString Report::markdown() const
{
    QString out = QStringLiteral("| metric |");
    for (const ReportColumn &c : m_columns) {
        const QString label = markdownCell(c.label);
        out += c.metrics.size() > 1
                   ? QStringLiteral(" %1 (n=%2) |").arg(label, QString::number(c.metrics.size()))
                   : QStringLiteral(" %1 |").arg(label);
    }
    if (hasDiff()) {
        out += QStringLiteral(" B − A |");
    }
    out += QStringLiteral("\n|---|");
    for (std::size_t c = 0; c < m_columns.size() + (hasDiff() ? 1 : 0); ++c) {
        out += QStringLiteral("---:|");
    }
    out += QLatin1Char('\n');
    for (const ReportRow &r : m_rows) {
        out += QStringLiteral("| %1 |").arg(markdownCell(r.title));
        const int w = better(r);
        for (std::size_t c = 0; c < m_columns.size(); ++c) {
            const bool best = (w < 0 && c == 0) || (w > 0 && c == 1);
            const QString text = markdownCell(cell(r, c, false));
            out += best ? QStringLiteral(" **%1** |").arg(text) : QStringLiteral(" %1 |").arg(text);
        }
        if (hasDiff()) {
            out += QStringLiteral(" %1 |").arg(diffCell(r));
        }
        out += QLatin1Char('\n');
    }
    out += QLatin1Char('\n');
    for (const ReportColumn &c : m_columns) {
        out += QStringLiteral("- %1: %2\n").arg(c.label, c.sourcesSummary());
    }
    const QString crashes = crashTableText(m_columns, true);
    if (!crashes.isEmpty()) {
        out += QLatin1Char('\n') + crashes;
    }
    // A paragraph each: lines that follow one another are one paragraph in Markdown.
    const QString notes = footnotes().replace(QLatin1Char('\n'), QLatin1String("\n\n"));
    return notes.isEmpty() ? out : out + QLatin1Char('\n') + notes + QLatin1Char('\n');
}

} // namespace tty
