#include "runloadjob.h"

#include <QMetaObject>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace tty {

RunLoadJob::RunLoadJob(QObject *parent) : QObject(parent)
{
    connect(m_task.watcher(), &QFutureWatcherBase::finished, this, [this] {
        if (std::optional<LoadResult> r = m_task.result()) {
            emit finished(*r);
        }
    });
}

RunLoadJob::~RunLoadJob()
{
    m_cancel = true;
    m_task.waitForFinished();
}

void RunLoadJob::deliverProgress()
{
    std::optional<Progress> p;
    {
        std::lock_guard<std::mutex> lock(m_progressMutex);
        p.swap(m_progress);
    }
    if (p) {
        emit progress(p->file, p->at.bytesDone.value(), p->at.bytesTotal.count(), p->at.lines);
    }
}

void RunLoadJob::start(const QVector<QStringList> &sides, const LoadOptions &options,
                       std::shared_ptr<const RuleSet> rules, const QList<int> &bauds)
{
    m_cancel = false;
    m_task.start([this, sides, options, rules, bauds]() {
        // On two cores, the decompressing and the parsing thread would keep the GUI thread
        // waiting for a CPU: loading runs a little nicer (the reader thread it starts
        // inherits this), so the window keeps answering.
        const int oldNice = getpriority(PRIO_PROCESS, pid_t(syscall(SYS_gettid)));
        setpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)), oldNice + 5);
        LoadResult result;
        QElapsedTimer since;
        since.start();
        for (qsizetype side = 0; side < sides.size(); ++side) {
            const QStringList &files = sides[side];
            QVector<LoadedFile> loaded;
            for (const QString &f : files) {
                LoadOptions lo = options;
                if (bauds.value(side) > 0) {
                    lo.baud = bauds.value(side);
                }
                lo.rules = rules.get();
                lo.cancel = &m_cancel;
                lo.progress = [this, f, &since](const LoadProgress &p) {
                    // At most ~20 updates a second reach the GUI thread.
                    if (since.elapsed() < 50) {
                        return;
                    }
                    since.restart();
                    {
                        std::lock_guard<std::mutex> lock(m_progressMutex);
                        m_progress = Progress{f, p};
                    }
                    QMetaObject::invokeMethod(this, "deliverProgress", Qt::QueuedConnection);
                };
                LoadedFile lf;
                lf.path = f;
                std::unique_ptr<Run> run = loadRun(f, lo, &lf.error);
                lf.run = std::shared_ptr<const Run>(std::move(run));
                loaded.append(lf);
                if (m_cancel) {
                    result.cancelled = true;
                    break;
                }
            }
            result.sides.append(loaded);
            if (result.cancelled) {
                break;
            }
        }
        // Pool threads are reused: give this one its priority back (raising it again is
        // allowed only to root, so this may fail harmlessly for users).
        setpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)), oldNice);
        return result;
    });
}

} // namespace tty
