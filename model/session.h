// What is compared: one side (a run or a group of trials) or two sides, the alignment
// between them and the metric settings. The GUI, `report` and `export` all build their
// comparison as a Session; colours are the widgets' business (by side index).
#pragma once

#include "alignment.h"
#include "metrics.h"
#include "report.h"
#include "timelinedata.h"

#include <QString>
#include <QVector>

#include <memory>
#include <optional>

namespace tty {

struct Trial
{
    std::shared_ptr<const Run> run;
    std::optional<int> boot; // a boot (0-based) of the run used as the trial; none: the whole run
    QString file;            // the file (or live port) the run came from

    // What the trial came from, as the window and the reports name it: "lab.log (boot 3)".
    QString source() const { return trialSourceName(file, boot); }

    // The boot this trial is, if it is one and the run has it.
    const Boot *bootOfRun() const
    {
        return boot && *boot >= 0 && std::size_t(*boot) < run->boots.size()
                   ? &run->boots[std::size_t(*boot)]
                   : nullptr;
    }
};

struct Side
{
    QString label;
    QVector<Trial> trials;
};

class Session
{
public:
    QVector<Side> sides;
    Alignment alignment;
    MetricOptions metrics;
    bool sample = false;  // the bundled sample, labelled as such
    QStringList patterns; // regexes with a lane of their own

    bool isEmpty() const { return sides.isEmpty(); }
    bool comparing() const { return sides.size() > 1; }
    // The runs for the timeline, shifted by the alignment. Warnings name runs whose anchor
    // was not found (they stay at their start).
    // With `previous` (the runs of the same session before), a loaded run's alignment is
    // taken from there: it cannot have changed, and finding a regex anchor scans the run
    // (a live capture's reference, again on each update).
    QVector<TimelineRun> timelineRuns(QStringList *warnings = nullptr,
                                      const QVector<TimelineRun> *previous = nullptr) const;
    // The metrics of every trial, computed here (once per call: keep the result).
    Report report() const;
    // Match times of each pattern in each timeline run, found with the bulk search of
    // linesearch.h (call off the GUI thread for big logs).
    QVector<PatternSeries> patternSeries() const;
    QString title() const;
};

} // namespace tty
