#include "livecontroller.h"

#include "live/recordingwriter.h"

namespace tty {

LiveController::LiveController(const CaptureOptions &options, QObject *parent)
    : QObject(parent), m_session(std::make_unique<CaptureSession>(options)),
      m_live(std::make_shared<LiveRun>()), m_pump(*m_session, *m_live, LivePump::Mode::Views)
{
    m_timer.setInterval(LivePump::kViewIntervalMs);
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
    report(m_pump.finish());
    emitStatus(); // the timer no longer does: "stopped", the final counts
    return ok;
}

std::shared_ptr<const Run> LiveController::run() const
{
    return std::shared_ptr<const Run>(m_live, &m_live->run());
}

void LiveController::poll()
{
    const LivePump::Turn t = m_pump.turn(monoNowNs());
    emitStatus();
    report(t);
}

void LiveController::emitStatus()
{
    const Run &r = m_live->run(); // read on the thread that changes it: no lock needed
    const CaptureSession::Status st = m_session->status();
    QString text =
        QStringLiteral("%1 — %2 lines, %3 bytes")
            .arg(st.message, QString::number(r.lines.size().count()), QString::number(st.bytesIn));
    if (!st.path.isEmpty()) {
        text += m_running ? QStringLiteral(" — recording %1").arg(st.path)
                          : QStringLiteral(" — recorded to %1").arg(st.path);
    }
    emit statusChanged(text);
}

void LiveController::report(const LivePump::Turn &t)
{
    const Run &r = m_live->run();
    for (std::size_t i = t.eventsFrom; i < t.eventsTo; ++i) {
        const Event &e = r.events[i];
        if (m_pump.alerts(e)) {
            const LineText held = r.eventText(e);
            const std::string_view text = held.view();
            emit alert(e.kind, QString::fromUtf8(text.data(), qsizetype(text.size())));
        }
    }
    if (t.changed) {
        emit updated();
    }
}

} // namespace tty
