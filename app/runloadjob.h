// Loads the files of one or two sides on a worker thread, reporting progress to the GUI
// thread and honouring Cancel. The GUI thread never parses.
#pragma once

#include "runloader.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QStringList>

#include <atomic>
#include <memory>
#include <vector>

namespace tty {

struct LoadedFile
{
    QString path;
    std::shared_ptr<const Run> run; // null when unreadable
    QString error;                  // unreadable: why
};

struct LoadResult
{
    QVector<QVector<LoadedFile>> sides; // per side, per file
    bool cancelled = false;
};

class RunLoadJob : public QObject
{
    Q_OBJECT
public:
    explicit RunLoadJob(QObject *parent = nullptr);
    ~RunLoadJob() override;

    void start(const QVector<QStringList> &sides, const LoadOptions &options,
               std::shared_ptr<const RuleSet> rules);
    void cancel() { m_cancel = true; }
    bool isRunning() const { return m_watcher.isRunning(); }
    void waitForFinished() { m_watcher.waitForFinished(); }

signals:
    void progress(const QString &file, qint64 bytesDone, qint64 bytesTotal, qint64 lines);
    void finished(const tty::LoadResult &result);

private:
    QFutureWatcher<LoadResult> m_watcher;
    std::atomic<bool> m_cancel{false};
};

} // namespace tty

Q_DECLARE_METATYPE(tty::LoadResult)
