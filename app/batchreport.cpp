#include "batchreport.h"

#include "interrupt.h"
#include "labels.h"
#include "parallel.h"
#include "runloader.h"
#include "session.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

namespace tty {

namespace {

struct FileResult
{
    QByteArray line;     // the JSON line, with its LF
    QByteArray messages; // for stderr: warnings, load errors, --fail-on lines
    LoadOutcome outcome = LoadOutcome::Complete;
    bool gateHolds = false;
    QString gateError; // a condition names a figure the report does not have (usage error)
};

void say(QByteArray *out, const QString &text)
{
    *out += "ttyscope: " + text.toUtf8() + '\n';
}

FileResult reportOne(qint64 seq, const QString &file, const BatchOptions &o, const RuleSet &rules)
{
    FileResult res;
    QJsonObject j{{QStringLiteral("seq"), double(seq)}, {QStringLiteral("file"), file}};
    LoadOptions lo;
    lo.format = o.format;
    lo.baud = o.baud;
    lo.rules = &rules;
    lo.cancel = interruptFlag();
    QString error;
    const std::shared_ptr<Run> run = loadRun(file, lo, &error);
    QJsonArray failOn;
    if (!run) {
        say(&res.messages, error);
        res.outcome = LoadOutcome::Unreadable;
        j[QStringLiteral("error")] = error;
        j[QStringLiteral("runs")] = QJsonArray();
        j[QStringLiteral("groups")] = QJsonArray();
    } else {
        res.outcome = run->load.outcome;
        for (const QString &w : run->warnings) {
            say(&res.messages, QStringLiteral("%1: warning: %2").arg(file, w));
        }
        if (run->load.outcome != LoadOutcome::Complete) {
            say(&res.messages, QStringLiteral("%1: %2").arg(file, run->load.message));
            j[QStringLiteral("error")] = run->load.message;
        }
        Session session;
        session.metrics = o.metrics;
        Side side;
        side.trials = trialsOf(run, file, o.boots);
        if (side.trials.isEmpty()) {
            say(&res.messages, QStringLiteral("%1: --boots chose none of its %2 boot(s)")
                                   .arg(file, QString::number(run->boots.size())));
        } else {
            side.label = defaultLabel(side.trials);
            session.sides.append(side);
        }
        QJsonObject report{{QStringLiteral("runs"), QJsonArray()},
                           {QStringLiteral("groups"), QJsonArray()}};
        if (!session.isEmpty()) {
            Report r = session.report();
            r.setEventOutput(o.events);
            QStringList metricWarnings;
            for (const Metrics &m : r.columns().front().metrics) {
                metricWarnings << m.warnings;
            }
            metricWarnings.removeDuplicates();
            for (const QString &w : metricWarnings) {
                say(&res.messages, QStringLiteral("%1: warning: %2").arg(file, w));
            }
            std::vector<GateCheck> checks;
            if (!checkGate(r, o.gate, &checks, &res.gateError)) {
                return res;
            }
            for (const GateCheck &c : checks) {
                const QString trial = trialName(r.columns()[c.column], c.trial);
                failOn.append(QJsonObject{{QStringLiteral("condition"), c.condition->text},
                                          {QStringLiteral("trial"), trial},
                                          {QStringLiteral("holds"), c.holds},
                                          {QStringLiteral("checked"), !c.unchecked},
                                          {QStringLiteral("detail"), c.detail}});
                if (c.holds || c.unchecked) {
                    res.messages +=
                        QStringLiteral("ttyscope report: --fail-on '%1' %2 on %3: %4\n")
                            .arg(c.condition->text,
                                 c.holds ? QStringLiteral("holds") : QStringLiteral("not checked"),
                                 trial, c.detail)
                            .toUtf8();
                }
                res.gateHolds = res.gateHolds || c.holds;
            }
            report = r.json();
        }
        j[QStringLiteral("runs")] = report.value(QStringLiteral("runs"));
        j[QStringLiteral("groups")] = report.value(QStringLiteral("groups"));
    }
    j[QStringLiteral("status")] = QLatin1String(loadOutcomeName(res.outcome));
    j[QStringLiteral("exit_status")] = res.gateHolds ? kGateFailedExit : exitStatus(res.outcome);
    j[QStringLiteral("fail_on")] = failOn;
    res.line = QJsonDocument(j).toJson(QJsonDocument::Compact) + '\n';
    return res;
}

// Files handed out in order to the workers, results taken back in order. A worker may run
// at most `window` files ahead of the line written last, so that a slow file holds back
// only a bounded number of finished lines.
class BatchQueue
{
public:
    BatchQueue(qint64 count, qint64 window) : m_count(count), m_window(window) {}

    // The next file for a worker; -1 when there are none left (or after an interrupt).
    qint64 take()
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_room.wait(lock, [&] { return m_next - m_written < m_window || m_stop; });
        if (m_stop || m_next >= m_count || interrupted()) {
            return -1;
        }
        return m_next++;
    }
    void put(qint64 seq, FileResult r)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_done.emplace(seq, std::move(r));
        m_ready.notify_all();
    }
    // The result of file `seq` (the one after the last written); false when it will not
    // come (an interrupt stopped the batch before it).
    bool next(qint64 seq, FileResult *out)
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_ready.wait(lock, [&] { return m_done.count(seq) || m_workersLeft == 0; });
        const auto it = m_done.find(seq);
        if (it == m_done.end()) {
            return false;
        }
        *out = std::move(it->second);
        m_done.erase(it);
        m_written = seq + 1;
        m_room.notify_all();
        return true;
    }
    void setWorkers(int n) { m_workersLeft = n; }
    void workerDone()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        --m_workersLeft;
        m_ready.notify_all();
    }
    void stop()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
        m_room.notify_all();
    }

private:
    const qint64 m_count, m_window;
    qint64 m_next = 0, m_written = 0;
    int m_workersLeft = 0;
    bool m_stop = false;
    std::map<qint64, FileResult> m_done;
    std::mutex m_mutex;
    std::condition_variable m_room, m_ready;
};

} // namespace

int runBatchReport(const QStringList &files, const BatchOptions &options)
{
    const int jobs = std::max(1, std::min<int>(options.jobs > 0 ? options.jobs : hardwareThreads(),
                                               int(std::max<qsizetype>(1, files.size()))));
    BatchQueue queue(files.size(), 2 * qint64(jobs) + 2);
    queue.setWorkers(jobs);
    std::vector<std::thread> workers;
    for (int w = 0; w < jobs; ++w) {
        workers.emplace_back([&] {
            // Each worker matches with its own copy of the rules (RuleSet::lendCopy).
            const std::shared_ptr<const RuleSet> rules = options.rules->lendCopy();
            for (qint64 seq; (seq = queue.take()) >= 0;) {
                queue.put(seq, reportOne(seq, files[qsizetype(seq)], options, *rules));
            }
            queue.workerDone();
        });
    }
    LoadOutcome worst = LoadOutcome::Complete;
    bool gateFailed = false;
    QString gateError;
    FileResult r;
    for (qint64 seq = 0; seq < files.size() && queue.next(seq, &r); ++seq) {
        if (!r.gateError.isEmpty()) {
            gateError = r.gateError;
            break;
        }
        std::fwrite(r.line.constData(), 1, std::size_t(r.line.size()), stdout);
        std::fflush(stdout); // a line per file as it finishes: a reader sees it at once
        std::fwrite(r.messages.constData(), 1, std::size_t(r.messages.size()), stderr);
        worst = worse(worst, r.outcome);
        gateFailed = gateFailed || r.gateHolds;
    }
    queue.stop();
    for (std::thread &t : workers) {
        t.join();
    }
    if (!gateError.isEmpty()) {
        std::fprintf(stderr, "ttyscope report: %s\n", qPrintable(gateError));
        return 2;
    }
    if (interrupted()) {
        std::fprintf(stderr, "ttyscope report: interrupted: the files not yet reported were "
                             "left out\n");
        worst = worse(worst, LoadOutcome::Cancelled);
    }
    return gateFailed ? kGateFailedExit : exitStatus(worst);
}

} // namespace tty
