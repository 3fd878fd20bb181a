// Crash tables of a report: each crash title with its count per trial in each column, and
// for two columns whether a crash is only in A, only in B or in both.
#pragma once

#include "crashes.h"
#include "report.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace tty {

// The crashes of the lines a Metrics covers, as the JSON `crashes` array of a run.
QJsonArray crashesToJson(const Run &run, const Metrics &m);

// "title", "kind", per column the counts per trial, and for two columns "in": A, B, both.
QJsonArray crashComparison(const std::vector<ReportColumn> &columns);
// The same as a text (aligned) or Markdown table; empty when no trial crashed.
QString crashTableText(const std::vector<ReportColumn> &columns, bool markdown);

} // namespace tty
