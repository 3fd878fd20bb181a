// `ttyscope report --output jsonl`: a batch of independent single-file reports. Each file is
// loaded, measured, checked against --fail-on and written as one JSON line on its own (what
// `ttyscope report -o json FILE` prints for it alone, plus its name, place and status);
// files are never columns of one another, never grouped, never compared. Files run on
// every core; only the files in flight are in memory, and a line is written as soon as it
// and every file before it are done, so the lines come in the order the files were named.
#pragma once

#include "gate.h"
#include "metrics.h"
#include "report.h"
#include "rules.h"
#include "trials.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace tty {

struct BatchOptions
{
    QString format; // --format
    int baud = 0;
    const RuleSet *rules = nullptr;
    MetricOptions metrics;
    EventOutput events;
    std::vector<GateCondition> gate;
    BootChoice boots; // --boots-as-trials, or the one --boots selector, for every file
    int jobs = 0;     // files at once; 0: one per core
};

// Reports `files` and returns the exit status: 4 when a --fail-on condition holds on any
// file, else the worst load status (1 unreadable, 3 read in part, 0).
int runBatchReport(const QStringList &files, const BatchOptions &options);

} // namespace tty
