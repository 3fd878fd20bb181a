// `report --sources` (issue 14): the sources of every trial of a report, as text,
// Markdown or JSON, and with two columns the comparison of their sources (docs/report.md).
#pragma once

#include "report.h"
#include "sourcestats.h"

#include <QJsonObject>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace tty {

struct SourceOptions
{
    SourceGrouping by = SourceGrouping::Template;
    // How many sources a run lists: none given, 10 in text and Markdown, and in JSON all
    // with at least minJsonShare of the wire time (all, without a baud rate: of the bytes).
    std::optional<int> top;
    static constexpr int kDefaultTop = 10;
    static constexpr double kMinJsonShare = 0.001;
};

// The sources of a report: per column, per trial (the report's own order).
class SourceReport
{
public:
    // Builds the index of every run once (a run in several trials, as its boots, shares it)
    // and the table of every trial; the indexes of `reuse` (sources of the same runs in
    // another grouping, may be null) are taken instead of built again.
    SourceReport(const Report &report, const SourceOptions &options,
                 const SourceReport *reuse = nullptr);

    const std::vector<std::vector<SourceTable>> &tables() const { return m_tables; }
    // With two columns.
    const std::optional<SourceComparison> &comparison() const { return m_comparison; }

    QString text() const;
    QString markdown() const;
    // Adds "sources" and "sources_summary" to each run of report.json(), and with two
    // columns "sources_diff" to the top.
    void addToJson(QJsonObject *reportJson) const;

    // One source; `cycle` (may be null): the first --interval pattern, for its per-cycle cost.
    // The template index of a run of the report (null for a run not in it).
    const SourceIndex *index(const Run *run) const;
    const Report &report() const { return m_report; }
    const SourceOptions &options() const { return m_options; }

    static QJsonObject sourceJson(const SourceStat &s, SourceGrouping by,
                                  const IntervalStats *cycle = nullptr, bool dropsKnown = true);

private:
    QString render(bool markdown) const;
    const Report &m_report;
    SourceOptions m_options;
    std::vector<std::vector<SourceTable>> m_tables;
    std::map<const Run *, std::shared_ptr<const SourceIndex>> m_indexes;
    std::optional<SourceComparison> m_comparison;
};

} // namespace tty
