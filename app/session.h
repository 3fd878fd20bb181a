// What is on screen: one side (a run or a group of trials) or two sides compared, the
// alignment between them and the metric settings. Shared by the GUI and `export`.
#pragma once

#include "alignment.h"
#include "metrics.h"
#include "report.h"
#include "timelineview.h"

#include <QColor>
#include <QString>
#include <QVector>

#include <memory>

namespace tty {

struct Trial
{
    std::shared_ptr<const Run> run;
    int boot = -1; // a boot of the run used as a trial, -1 = the whole run
    QString source;
};

struct Side
{
    QString label;
    QColor color;
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
    QVector<TimelineRun> timelineRuns(QStringList *warnings = nullptr) const;
    Report report() const;
    // Match times of each pattern in each timeline run (scans every line: call off the GUI
    // thread for big logs).
    QVector<PatternSeries> patternSeries() const;
    QVector<QColor> colors() const;
    QString title() const;
};

// Default labels: the recording's label, else the file name; groups: "name-t*.log".
QString defaultLabel(const QVector<Trial> &trials);
// What names have in common, with '*' for what differs: "run-t*.log.zst".
QString commonLabel(const QStringList &names);

} // namespace tty
