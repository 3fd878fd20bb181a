#include "livecontroller.h"

#include <ctime>

namespace tty {

namespace {
constexpr int kPollMs = 200; // 5 updates a second: the view never lags more than that

std::int64_t monoNow()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}
} // namespace

LiveController::LiveController(const CaptureOptions &options, QObject *parent)
    : QObject(parent), m_session(std::make_unique<CaptureSession>(options)),
      m_live(std::make_shared<LiveRun>())
{
    m_timer.setInterval(kPollMs);
    connect(&m_timer, &QTimer::timeout, this, &LiveController::poll);
}

LiveController::~LiveController()
{
    stop();
}

bool LiveController::start(QString *error)
{
    if (!m_session->start(error)) {
        return false;
    }
    m_running = true;
    m_live->run().finalize(); // an empty run with its one boot, ready to be shown
    m_timer.start();
    return true;
}

bool LiveController::stop(QString *error)
{
    if (!m_running) {
        return true;
    }
    m_timer.stop();
    const bool ok = m_session->stop(error);
    m_running = false;
    {
        const std::unique_lock<GrowLock> growing(*m_live->run().growLock);
        m_live->add(m_session->takeLive());
        m_live->finish();
        m_live->run().finalize();
    }
    emit updated();
    return ok;
}

std::shared_ptr<const Run> LiveController::run() const
{
    return std::shared_ptr<const Run>(m_live, &m_live->run());
}

void LiveController::poll()
{
    Run &r = m_live->run();
    // Workers may be reading the run (pattern lanes, log search): it changes only while
    // none is (Run::growLock); reading it here, on the thread that changes it, needs none.
    std::unique_lock<GrowLock> growing(*r.growLock);
    m_live->add(m_session->takeLive());
    m_live->idle(monoNow());
    growing.unlock();
    const CaptureSession::Status st = m_session->status();
    QString text = QStringLiteral("%1 — %2 lines, %3 bytes")
                       .arg(st.message)
                       .arg(r.lines.size().count())
                       .arg(st.bytesIn);
    if (!st.path.isEmpty()) {
        text += QStringLiteral(" — recording %1").arg(st.path);
    }
    emit statusChanged(text);
    if (r.lines.size().count() == m_lastLines && r.events.size() == m_lastEvents) {
        return;
    }
    // finalize() goes over every line (the series): hours into a fast capture it takes
    // tens of milliseconds, so it runs at most a fifth of the time on this thread.
    const std::int64_t now = monoNow();
    if (now - m_lastFinalizeMono < 4 * m_finalizeNs) {
        return;
    }
    m_lastLines = r.lines.size().count();
    m_lastEvents = r.events.size();
    // All lines but the last (a partial line may still grow) are final: the boot split
    // need not go over them again, which keeps an update cheap hours into a capture.
    growing.lock();
    r.splitBootsSoFar(r.lines.endIndex() - 1_lines);
    r.finalize();
    growing.unlock();
    m_lastFinalizeMono = monoNow();
    m_finalizeNs = m_lastFinalizeMono - now;
    for (; m_seenEvents < r.events.size(); ++m_seenEvents) {
        const Event &e = r.events[m_seenEvents];
        const std::string_view t = r.eventText(e);
        const QString s = QString::fromUtf8(t.data(), qsizetype(t.size()));
        if (e.kind == EventKind::Panic || e.kind == EventKind::Oops || e.kind == EventKind::Bug ||
            e.kind == EventKind::HardLockup || e.kind == EventKind::SoftLockup ||
            e.kind == EventKind::RcuStall || e.kind == EventKind::HungTask) {
            emit alert(e.kind, s);
        } else if (e.kind == EventKind::Drop && !m_droppedAlerted) {
            m_droppedAlerted = true; // the first drop alerts; the lane shows the rest
            emit alert(e.kind, s);
        }
    }
    emit updated();
}

} // namespace tty
