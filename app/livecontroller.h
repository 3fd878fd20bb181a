// Drives a live capture for the GUI: the session reads and records on its own threads;
// this object, on the GUI thread, turns the live pump (model/livepump.h) a few times a
// second and tells the window what changed (new lines, alerts, status).
#pragma once

#include "live/capturesession.h"
#include "live/liverun.h"
#include "livepump.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <memory>

namespace tty {

class LiveController : public QObject
{
    Q_OBJECT
public:
    explicit LiveController(const CaptureOptions &options, QObject *parent = nullptr);
    ~LiveController() override;

    bool start(QString *error);
    bool stop(QString *error = nullptr);
    bool running() const { return m_running; }

    // The live run, kept alive by this controller (aliasing shared pointer).
    std::shared_ptr<const Run> run() const;
    CaptureSession &session() { return *m_session; }
    CaptureSession::Status status() const { return m_session->status(); }

    void addMarker(const QString &text) { m_session->addMarker(text); }
    void send(const QByteArray &bytes) { m_session->send(bytes); }
    void sendBreak(char key) { m_session->sendBreak(key); }

    // Takes what arrived now (the timer does this at least 4 times a second).
    void poll();

signals:
    void updated();
    // An event worth interrupting the user for: a panic, an oops, the first drops.
    void alert(tty::EventKind kind, const QString &text);
    void statusChanged(const QString &text);

private:
    std::unique_ptr<CaptureSession> m_session;
    std::shared_ptr<LiveRun> m_live;
    QTimer m_timer;
    bool m_running = false;
    LivePump m_pump;

    void report(const LivePump::Turn &t);
    // The capture's state, lines, bytes and recording, for the bar.
    void emitStatus();
};

} // namespace tty
