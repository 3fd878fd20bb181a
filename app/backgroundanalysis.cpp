// Runs the metrics and pattern matching of session snapshots on the thread pool.
#include "backgroundanalysis.h"

namespace tty {

BackgroundAnalysis::BackgroundAnalysis(QObject *parent) : QObject(parent)
{
    connect(m_patterns.watcher(), &QFutureWatcherBase::finished, this,
            &BackgroundAnalysis::emitPatterns);
    connect(m_metrics.watcher(), &QFutureWatcherBase::finished, this, [this] {
        if (std::optional<SessionMetrics> m = m_metrics.result()) {
            emit metricsReady(m->report, m->crashTitles);
        }
    });
    connect(m_sources.watcher(), &QFutureWatcherBase::finished, this, [this] {
        if (std::optional<std::shared_ptr<const SessionSources>> s = m_sources.result()) {
            emit sourcesReady(*s);
        }
    });
}

BackgroundAnalysis::~BackgroundAnalysis()
{
    waitForFinished();
}

void BackgroundAnalysis::waitForFinished()
{
    m_metrics.waitForFinished();
    m_patterns.waitForFinished();
    m_sources.waitForFinished();
}

void BackgroundAnalysis::computeSources(const std::shared_ptr<const Report> &report,
                                        SourceGrouping by,
                                        const std::shared_ptr<const SessionSources> &previous)
{
    m_sources.waitForFinished();
    SourceOptions options;
    options.by = by;
    m_sources.start([report, options, previous]() -> std::shared_ptr<const SessionSources> {
        auto s = std::make_shared<SessionSources>();
        s->report = report;
        if (previous && previous->report == report) {
            s->sources =
                std::make_shared<const SourceReport>(*report, options, previous->sources.get());
            s->series = previous->series;
            return s;
        }
        // The stacked lanes are by template, whatever the table's grouping.
        auto byTemplate = std::make_shared<const SourceReport>(*report, SourceOptions{});
        s->sources = options.by == SourceGrouping::Template
                         ? byTemplate
                         : std::make_shared<const SourceReport>(*report, options, byTemplate.get());
        // One pass over each first trial's template ids: the stacked lanes' bins.
        for (std::size_t c = 0; c < report->columns().size(); ++c) {
            const ReportColumn &col = report->columns()[c];
            const SourceIndex *index = col.runs.empty() ? nullptr : byTemplate->index(col.runs[0]);
            s->series.push_back(
                index ? std::make_shared<const SourceSeries>(buildSourceSeries(
                            *col.runs[0], *index, byTemplate->tables()[c][0], col.metrics[0]))
                      : std::make_shared<const SourceSeries>());
        }
        return s;
    });
}

std::shared_ptr<const CrashTitles> crashTitlesOf(const Session &session, const Report &report)
{
    QVector<std::shared_ptr<const std::vector<Crash>>> crashes;
    for (int s = 0; s < session.sides.size(); ++s) {
        for (int t = 0; t < session.sides[s].trials.size(); ++t) {
            const Metrics *tm = report.trialMetrics(s, t);
            crashes.append(tm ? tm->crashes : nullptr);
        }
    }
    return std::make_shared<const CrashTitles>(std::move(crashes));
}

void BackgroundAnalysis::computeMetrics(const Session &snapshot)
{
    m_metrics.start([snapshot]() -> SessionMetrics {
        SessionMetrics m;
        m.report = std::make_shared<Report>(snapshot.report());
        m.crashTitles = crashTitlesOf(snapshot, *m.report);
        return m;
    });
}

void BackgroundAnalysis::computePatterns(const Session &snapshot, bool wait)
{
    m_patterns.waitForFinished();
    m_patterns.start([snapshot] { return snapshot.patternSeries(); });
    if (wait) {
        m_patterns.waitForFinished();
        emitPatterns();
    }
}

void BackgroundAnalysis::emitPatterns()
{
    if (std::optional<QVector<PatternSeries>> p = m_patterns.result()) {
        emit patternsReady(*p);
    }
}

} // namespace tty
