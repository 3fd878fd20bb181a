// The main window during a live capture: starting, following, markers and alerts.
#include "mainwindow.h"

#include "backgroundanalysis.h"
#include "capturedialog.h"
#include "eventlist.h"
#include "livebar.h"
#include "livecontroller.h"
#include "loglineview.h"
#include "logpane.h"
#include "noticebar.h"
#include "palette.h"
#include "timelineview.h"

#include <QApplication>
#include <QDateTime>
#include <QInputDialog>
#include <QTimer>

namespace tty {

bool MainWindow::startCapture(const CaptureOptions &options, bool withReference, QString *error)
{
    endCapture();
    auto *live = new LiveController(options, this);
    if (!live->start(error)) {
        delete live;
        return false;
    }
    m_live = live;
    Session s;
    s.metrics = m_session.metrics;
    Side side;
    side.label = options.label.isEmpty() ? options.port : options.label;
    side.trials.append(Trial{live->run(), std::nullopt, options.port});
    s.sides.append(side);
    if (withReference && !m_session.isEmpty()) {
        Side ref = m_session.sides.front();
        ref.label += tr(" (reference)");
        s.sides.append(ref);
        s.alignment = m_session.alignment;
    }
    connect(live, &LiveController::updated, this, &MainWindow::onLiveUpdated);
    connect(live, &LiveController::alert, this, &MainWindow::onLiveAlert);
    connect(live, &LiveController::statusChanged, m_liveBar, &LiveBar::setStatus);
    m_liveBar->show();
    m_liveBar->setRunning(true);
    m_liveBar->setFollowing(true);
    m_notices->show(NoticeBar::Level::Info,
                    tr("Capturing %1 into %2").arg(options.port, options.output).toHtmlEscaped());
    setSession(std::move(s));
    m_metricsClock.start();
    return true;
}

void MainWindow::stopCapture()
{
    if (!m_live || !m_live->running()) {
        return;
    }
    QString error;
    // Stopping completes the run, and may find what a report of the recording would (a
    // default rate its bytes do not fit): those warnings are said with the stop.
    const std::shared_ptr<const Run> run = m_live->run();
    const qsizetype known = run->warnings.size();
    if (!m_live->stop(&error)) {
        m_notices->show(NoticeBar::Level::Error,
                        tr("The recording could not be completed: %1").arg(error).toHtmlEscaped());
    } else {
        const QString stopped =
            tr("Capture stopped; the recording is %1").arg(m_live->status().path).toHtmlEscaped();
        const QStringList found = run->warnings.mid(known);
        if (found.isEmpty()) {
            m_notices->show(NoticeBar::Level::Info, stopped);
        } else {
            m_notices->show(NoticeBar::Level::Warning,
                            stopped + QStringLiteral("<br>") + NoticeBar::linesAsHtml(found));
        }
    }
    m_liveBar->setRunning(false);
    m_metricsClock.invalidate(); // the final figures, now
    // The run stays on screen (the controller keeps it alive) until something else is opened.
    m_live->disconnect(this);
    onLiveUpdated();
}

bool MainWindow::capturing() const
{
    return m_live && m_live->running();
}

void MainWindow::endCapture()
{
    stopCapture();
    if (m_live) {
        // The session may still show its run: the run is shared with the controller, not
        // owned by it. Without a controller the window treats what it shows as files.
        m_live->deleteLater();
        m_live = nullptr;
    }
}

void MainWindow::dropMarker()
{
    if (!m_live || !m_live->running()) {
        return;
    }
    bool ok = false;
    const QString text = QInputDialog::getText(this, tr("Marker"), tr("Text (optional):"),
                                               QLineEdit::Normal, QString(), &ok);
    if (ok) {
        m_live->addMarker(text.isEmpty() ? tr("marker") : text);
        m_live->poll();
    }
}

void MainWindow::onLiveUpdated()
{
    if (m_session.isEmpty()) {
        return;
    }
    const QVector<TimelineRun> runs = m_session.timelineRuns(nullptr, &m_timeline->runs());
    m_timeline->updateRuns(runs);
    if (m_liveBar->following()) {
        // Keep the newest data in view with the current zoom (at least a minute).
        const double span = std::max(10.0, m_timeline->xUpper() - m_timeline->xLower());
        const Run &r = *runs.front().run;
        const std::optional<RunSeconds> last = r.lines.empty()
                                                   ? std::optional<RunSeconds>(RunSeconds(0))
                                                   : r.timeOf(r.lines.endIndex() - 1_lines);
        if (last) { // without an arrival time there is no newest moment to follow
            const double end = r.lines.empty() ? 0 : runs.front().xOf(*last);
            m_timeline->setXRange(end - span * 0.95, end + span * 0.05);
        }
    }
    for (LogPane *p : m_panes) {
        p->view()->model()->linesChanged();
    }
    if (m_liveBar->following() && !m_panes.isEmpty() && m_panes.front()->run() &&
        !m_panes.front()->run()->lines.empty()) {
        m_panes.front()->view()->lines()->scrollToBottom();
    }
    m_events->setRuns(runs);
    if (!m_metricsLater) {
        m_metricsLater = new QTimer(this);
        m_metricsLater->setSingleShot(true);
        connect(m_metricsLater, &QTimer::timeout, this, [this] {
            if (!m_session.isEmpty()) {
                m_metricsClock.restart();
                refreshMetrics();
            }
        });
    }
    if (!m_metricsClock.isValid() || m_metricsClock.elapsed() > 1000) {
        m_metricsLater->stop();
        m_metricsClock.restart();
        refreshMetrics();
    } else if (!m_metricsLater->isActive()) {
        m_metricsLater->start(int(std::max<qint64>(0, 1000 - m_metricsClock.elapsed())));
    }
}

void MainWindow::onLiveAlert(EventKind kind, const QString &text)
{
    const QString when = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
    const NoticeBar::Level level =
        kind == EventKind::Drop ? NoticeBar::Level::Warning : NoticeBar::Level::Error;
    m_notices->show(level,
                    QStringLiteral("<b>%1 at %2</b>: %3")
                        .arg(eventKindTitle(kind).toHtmlEscaped(), when, text.toHtmlEscaped()));
    QApplication::alert(this); // the taskbar entry asks for attention
}

} // namespace tty
