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

void BackgroundAnalysis::computeSources(const std::shared_ptr<const Report> &report)
{
    m_sourcesWatcher.waitForFinished();
    m_sourcesWatcher.setFuture(
        QtConcurrent::run([report]() -> std::shared_ptr<const SessionSources> {
            auto s = std::make_shared<SessionSources>();
            s->report = report;
            s->sources = std::make_shared<const SourceReport>(*report, SourceOptions{});
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
