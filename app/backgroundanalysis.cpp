// Runs the metrics and pattern matching of session snapshots on the thread pool.
#include "backgroundanalysis.h"

#include <QtConcurrent>

namespace tty {

BackgroundAnalysis::BackgroundAnalysis(QObject *parent) : QObject(parent)
{
    connect(&m_patternWatcher, &QFutureWatcherBase::finished, this,
            &BackgroundAnalysis::emitPatterns);
    connect(&m_metricsWatcher, &QFutureWatcherBase::finished, this, [this] {
        if (m_metricsWatcher.future().resultCount() > 0) {
            emit metricsReady(m_metricsWatcher.future().result());
        }
    });
    connect(&m_sourcesWatcher, &QFutureWatcherBase::finished, this, [this] {
        if (m_sourcesWatcher.future().resultCount() > 0) {
            emit sourcesReady(m_sourcesWatcher.future().result());
        }
    });
}

BackgroundAnalysis::~BackgroundAnalysis()
{
    waitForFinished();
}

void BackgroundAnalysis::waitForFinished()
{
    m_metricsWatcher.waitForFinished();
    m_patternWatcher.waitForFinished();
    m_sourcesWatcher.waitForFinished();
}

void BackgroundAnalysis::computeSources(const std::shared_ptr<const Report> &report,
                                        SourceGrouping by,
                                        const std::shared_ptr<const SessionSources> &previous)
{
    m_sourcesWatcher.waitForFinished();
    SourceOptions options;
    options.by = by;
    m_sourcesWatcher.setFuture(
        QtConcurrent::run([report, options, previous]() -> std::shared_ptr<const SessionSources> {
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
            s->sources =
                options.by == SourceGrouping::Template
                    ? byTemplate
                    : std::make_shared<const SourceReport>(*report, options, byTemplate.get());
            // One pass over each first trial's template ids: the stacked lanes' bins.
            for (std::size_t c = 0; c < report->columns().size(); ++c) {
                const ReportColumn &col = report->columns()[c];
                const SourceIndex *index =
                    col.runs.empty() ? nullptr : byTemplate->index(col.runs[0]);
                s->series.push_back(
                    index ? std::make_shared<const SourceSeries>(buildSourceSeries(
                                *col.runs[0], *index, byTemplate->tables()[c][0], col.metrics[0]))
                          : std::make_shared<const SourceSeries>());
            }
            return s;
        }));
}

void BackgroundAnalysis::computeMetrics(const Session &snapshot)
{
    m_metricsWatcher.setFuture(QtConcurrent::run([snapshot]() -> std::shared_ptr<const Report> {
        return std::make_shared<Report>(snapshot.report());
    }));
}

void BackgroundAnalysis::computePatterns(const Session &snapshot, bool wait)
{
    m_patternWatcher.waitForFinished();
    m_patternWatcher.setFuture(QtConcurrent::run([snapshot] { return snapshot.patternSeries(); }));
    if (wait) {
        m_patternWatcher.waitForFinished();
        emitPatterns();
    }
}

void BackgroundAnalysis::emitPatterns()
{
    if (m_patternWatcher.future().resultCount() > 0) {
        emit patternsReady(m_patternWatcher.future().result());
    }
}

} // namespace tty
