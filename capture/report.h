// Renders metrics of runs, or groups of trials, as a table: aligned text, Markdown or JSON.
// With two columns a difference column (B - A, and %) is added and the better value marked.
#pragma once

#include "metrics.h"
#include "run.h"
#include "statistics.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace tty {

// A table cell's text for Markdown: a '|' from a pattern, a file name or the kernel's own
// text (a panic reason) would end the cell, so it is escaped ("\|").
QString markdownCell(QString text);

// Whether a row value can be shown as a number (present and finite).
bool isShownValue(const std::optional<double> &v);

// What one trial came from, as the reports and the window name it: "lab.log (boot 3)" for
// the third boot (0-based 2) of lab.log, "lab.log" for a whole run.
QString trialSourceName(const QString &file, std::optional<int> boot);

struct ReportColumn
{
    QString label;
    // Per trial (a run, or one boot of a run when boots are trials): all the same length.
    std::vector<const Run *> runs;
    std::vector<std::optional<int>> boots; // the boot (0-based) a trial is; none: a whole run
    std::vector<Metrics> metrics;
    QStringList files; // the file (or live port) each trial came from, without its boot

    // What trial k came from: its file, and its boot if it is one ("lab.log (boot 3)").
    QString source(std::size_t trial) const;
    // What all the trials came from, for a header: the boots of one file that follow one
    // another as "lab.log (boots 1–3, 7)"; a long list is cut in the middle, with its count.
    QString sourcesSummary() const;
};

// One row of the table: a metric, how to read it from Metrics, and which way is better.
struct ReportRow
{
    QString key;   // JSON-ish name, e.g. "drops.messages"
    QString title; // shown in tables
    enum class Better { None, Lower, Higher } better = Better::None;
    bool integer = false;
    bool boolean = false;
    int decimals = 3;
    std::vector<std::vector<std::optional<double>>> values; // per column, per trial
    QStringList notes;             // per column: text shown instead of numbers
    std::vector<bool> approximate; // per column: an estimate, shown with ≈
    // Per column: a trial's log did not see all the figure counts (it ended inside the
    // window, or with the console behind, its kernel still running; the file was read only
    // in part): the value is a lower bound, shown with ≥, and no side is called better.
    std::vector<bool> atLeast;
    // Why a trial's value is such a lower bound ("the file was read only in part"), empty
    // when it is not (unset: never).
    std::function<QString(const Metrics &)> lowerBound;
    // Why a trial has no value ("no 'login:'"; empty when there is none to give), for the
    // notes of columns none of whose trials has one, and the gate's messages.
    std::function<QString(const Metrics &)> absentWhy;
};

// Which events `json()` lists per run (the counts are always complete).
struct EventOutput
{
    enum class Which { All, Crash, None } which = Which::All;
    std::optional<qint64> max; // at most this many per run; none: no limit
};
bool eventOutputFromName(const QString &name, EventOutput::Which *out);

class Report
{
public:
    Report(std::vector<ReportColumn> columns, const MetricOptions &options);

    QString text() const;
    QString markdown() const;
    QJsonObject json() const;
    const std::vector<ReportRow> &rows() const { return m_rows; }
    const std::vector<ReportColumn> &columns() const { return m_columns; }
    bool hasDiff() const { return m_columns.size() == 2; }
    // The metrics of one trial of one column, or null when there is no such trial (the
    // report was built for other runs than the caller's list).
    const Metrics *trialMetrics(int column, int trial) const
    {
        if (column < 0 || std::size_t(column) >= m_columns.size() || trial < 0 ||
            std::size_t(trial) >= m_columns[std::size_t(column)].metrics.size()) {
            return nullptr;
        }
        return &m_columns[std::size_t(column)].metrics[std::size_t(trial)];
    }

    // Cell text of a row for a column ("12 ± 3 (n=3)"), and of the difference column.
    // withN: append "(n=3)" to group cells (tables whose header gives n leave it out).
    QString cell(const ReportRow &row, std::size_t column, bool withN = true) const;
    // withInterval: the 95 % confidence interval in brackets (the GUI gives it in a
    // tooltip, diffTooltip, to keep the column narrow).
    QString diffCell(const ReportRow &row, bool withInterval = true) const;
    QString diffTooltip(const ReportRow &row) const;
    // B - A of a row by Welch's test (invalid unless both sides have two trials or more).
    Difference difference(const ReportRow &row) const;
    // How many rows have a B - A with an interval (noise measured on a side), and of them
    // how many differ at 95 %:
    // with some twenty figures, about one differs by chance between identical kernels.
    struct DiffTally
    {
        int tested = 0;
        int significant = 0;
    };
    DiffTally diffTally() const;
    // -1: A is better, 1: B is better, 0: neither, undefined, or not significant at 95 %.
    int better(const ReportRow &row) const;
    void setEventOutput(const EventOutput &e) { m_events = e; }
    // What the marks in the tables mean (≈, the interval, n.s.), for the rows shown, and
    // what to keep in mind reading them; one note a line. intervalInCell: the interval is
    // in the difference cells (text, Markdown), else in their tooltips (the window).
    QString footnotes(bool intervalInCell = true) const;

private:
    void buildRows();
    QStringList lowerBoundNotes() const;
    std::vector<ReportColumn> m_columns;
    MetricOptions m_options;
    EventOutput m_events;
    std::vector<ReportRow> m_rows;
};

QJsonObject runToJson(const Run &run, const Metrics &m, const MetricOptions &options,
                      const EventOutput &events = {});

} // namespace tty
