// The metrics and pattern lanes of a session, computed off the GUI thread: both scan every
// line, and a big log must never freeze the window.
#pragma once

#include "backgroundtask.h"
#include "crashtitles.h"
#include "session.h"
#include "sourcereport.h"

#include <QObject>

#include <memory>

namespace tty {

// The sources of a session's report (issue 14), with the report they were computed from
// (a SourceReport refers to it), and the wire time by source over time of each column's
// first trial (the timeline's stacked lanes).
struct SessionSources
{
    std::shared_ptr<const Report> report;
    std::shared_ptr<const SourceReport> sources;
    std::vector<std::shared_ptr<const SourceSeries>> series; // per column
};

// The metrics of a session, and the crash titles of its trials (sides, then trials: the
// order of Session::timelineRuns) for the event list.
struct SessionMetrics
{
    std::shared_ptr<const Report> report;
    std::shared_ptr<const CrashTitles> crashTitles;
};

// The crash titles of a session's trials, from the crashes its report found: a pass over
// every report, so on a worker but for a growing live run's.
std::shared_ptr<const CrashTitles> crashTitlesOf(const Session &session, const Report &report);

class BackgroundAnalysis : public QObject
{
    Q_OBJECT
public:
    explicit BackgroundAnalysis(QObject *parent = nullptr);
    // Background work holds the runs; it finishes before they go.
    ~BackgroundAnalysis() override;

    // Takes the metrics of a snapshot of the session; metricsReady follows.
    void computeMetrics(const Session &snapshot);
    // Waits for the previous patterns, then matches the session's patterns; patternsReady
    // follows (also at once when `wait`).
    void computePatterns(const Session &snapshot, bool wait);
    // The sources of every run of a report: the template index of each run and the cost of
    // each source, grouped `by`; sourcesReady follows. The indexes and the stacked lanes'
    // series of `previous` are taken when it is of the same report (a new grouping).
    void computeSources(const std::shared_ptr<const Report> &report,
                        SourceGrouping by = SourceGrouping::Template,
                        const std::shared_ptr<const SessionSources> &previous = nullptr);
    // Computing, or their ready signal still to come.
    bool metricsRunning() const { return m_metrics.isPending(); }
    bool sourcesRunning() const { return m_sources.isPending(); }
    void waitForFinished();

signals:
    void metricsReady(const std::shared_ptr<const tty::Report> &report,
                      const std::shared_ptr<const tty::CrashTitles> &crashTitles);
    void patternsReady(const QVector<tty::PatternSeries> &patterns);
    void sourcesReady(const std::shared_ptr<const tty::SessionSources> &sources);

private:
    void emitPatterns();

    BackgroundTask<QVector<PatternSeries>> m_patterns;
    BackgroundTask<SessionMetrics> m_metrics;
    BackgroundTask<std::shared_ptr<const SessionSources>> m_sources;
};

} // namespace tty
