// Loads the files of one or two sides on a worker thread, reporting progress to the GUI
// thread and honouring Cancel. The GUI thread never parses.
#pragma once

#include "backgroundtask.h"
#include "runloader.h"

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>

#include <atomic>
#include <memory>
#include <mutex>
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

    // `bauds`: a rate per side where it has one (0 or none: options.baud).
    void start(const QVector<QStringList> &sides, const LoadOptions &options,
               std::shared_ptr<const RuleSet> rules, const QList<int> &bauds = {});
    void cancel() { m_cancel = true; }
    bool isRunning() const { return m_task.isRunning(); }
    void waitForFinished() { m_task.waitForFinished(); }

signals:
    void progress(const QString &file, qint64 bytesDone, qint64 bytesTotal, qint64 lines);
    void finished(const tty::LoadResult &result);

private:
    // Emits the progress the loading thread left in m_progress.
    Q_INVOKABLE void deliverProgress();

    BackgroundTask<LoadResult> m_task;
    std::atomic<bool> m_cancel{false};
    // The latest progress, from the loading thread to the GUI thread: a mailbox under a
    // std::mutex that TSan sees, and a queued call by name that carries nothing
    // (backgroundtask.h says why a queued functor would look like a race).
    struct Progress
    {
        QString file;
        LoadProgress at;
    };
    std::mutex m_progressMutex;
    std::optional<Progress> m_progress;
};

} // namespace tty

Q_DECLARE_METATYPE(tty::LoadResult)
