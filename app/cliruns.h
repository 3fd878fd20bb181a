// Command-line plumbing shared by `report` and `export`: metric options, loading the
// files named on the command line into the sides of a Session (model/).
#pragma once

#include "metrics.h"
#include "report.h"
#include "rules.h"
#include "run.h"
#include "session.h"

#include <QCommandLineParser>

#include <map>

namespace tty {

void addMetricOptions(QCommandLineParser &p);
// False with a message when an option is malformed (bad regex, bad number).
bool readMetricOptions(const QCommandLineParser &p, MetricOptions *o, QString *error);

void addLoadOptions(QCommandLineParser &p);
bool readRuleSet(const QCommandLineParser &p, RuleSet *rules, QString *error);

// The comparison the files named on the command line make. Each positional argument is one
// side; commas join files into a group of trials ("a1.log,a2.log,a3.log b1.log,b2.log");
// --boots and --boots-as-trials make boots of a capture its trials.
struct LoadedSession
{
    Session session;
    std::map<const Run *, QString> files; // the file each run was read from
    // The worst outcome of the loads (the exit status: exitStatus(worst)).
    LoadOutcome worst = LoadOutcome::Complete;
    int badOptions = 0; // a per-column option was malformed (the columns are incomplete)
};

// Prints the regexes that were given up for running past PCRE2's match limit
// (regexlimit.h), as errors of `command`; true if there were any (exit status 2).
bool printRegexesOverLimit(const char *command);

// The --baud values: each a whole number of bits per second (a typo must not fall back to
// 115200 in silence). One applies to every column, several one per column.
bool readBauds(const QCommandLineParser &p, QList<int> *bauds, QString *error);
// The rate given for a column, 0 when none (then the recording's, else 115200, checked).
int baudOfColumn(const QList<int> &bauds, int column);

// What is wrong when the per-column options (--label, more than one --boots) do not
// match the columns (FILE arguments): each names the column of its place, so a
// `--label A a1 a2 a3 --label B b1 b2 b3` would name a1 "A" and a2 "B". Empty when they
// match; one line per option otherwise.
QStringList perColumnMismatch(const QCommandLineParser &p, int columns);

// Loads the files, printing on stderr what could not be read or was read in part.
LoadedSession loadSession(const QCommandLineParser &p, const QStringList &args,
                          const RuleSet &rules, const MetricOptions &metrics);
// Prints the warnings of the metrics (a pattern that matched nothing, ...) once per file.
void printMetricWarnings(const LoadedSession &loaded, const Report &report);

} // namespace tty
