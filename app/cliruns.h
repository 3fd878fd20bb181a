// Command-line plumbing shared by `report` and `export`: metric options, loading the
// files named on the command line into columns (single runs or groups of trials).
#pragma once

#include "metrics.h"
#include "report.h"
#include "rules.h"
#include "run.h"

#include <QCommandLineParser>

#include <memory>
#include <vector>

namespace tty {

void addMetricOptions(QCommandLineParser &p);
// False with a message when an option is malformed (bad regex, bad number).
bool readMetricOptions(const QCommandLineParser &p, MetricOptions *o, QString *error);

void addLoadOptions(QCommandLineParser &p);
bool readRuleSet(const QCommandLineParser &p, RuleSet *rules, QString *error);

// The runs behind the report columns. Each positional argument is one column; commas
// join files into a group of trials ("a1.log,a2.log,a3.log b1.log,b2.log").
struct LoadedColumns
{
    std::vector<std::shared_ptr<Run>> runs; // owns every run
    std::vector<ReportColumn> columns;
    int unreadable = 0; // files that could not be read at all
    int damaged = 0;    // files read only in part
    int badOptions = 0; // a per-column option was malformed (the columns are incomplete)
};

// Prints the regexes that were given up for running past PCRE2's match limit
// (regexlimit.h), as errors of `command`; true if there were any (exit status 2).
bool printRegexesOverLimit(const char *command);

LoadedColumns loadColumns(const QCommandLineParser &p, const QStringList &args,
                          const RuleSet &rules, const MetricOptions &metrics);

} // namespace tty
