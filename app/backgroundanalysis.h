// The metrics and pattern lanes of a session, computed off the GUI thread: both scan every
// line, and a big log must never freeze the window.
#pragma once

#include "session.h"

#include <QFutureWatcher>
#include <QObject>

#include <memory>

namespace tty {

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
    bool metricsRunning() const { return m_metricsWatcher.isRunning(); }
    void waitForFinished();

signals:
    void metricsReady(const std::shared_ptr<const tty::Report> &report);
    void patternsReady(const QVector<tty::PatternSeries> &patterns);

private:
    void emitPatterns();

    QFutureWatcher<QVector<PatternSeries>> m_patternWatcher;
    QFutureWatcher<std::shared_ptr<const Report>> m_metricsWatcher;
};

} // namespace tty
