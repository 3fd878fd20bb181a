// Keeps the logs, the event list and the timeline on the same moment as the user moves.
#include "mainwindow.h"

#include "eventlist.h"
#include "loglineview.h"
#include "logpane.h"
#include "timelineview.h"

#include <QComboBox>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTableView>

namespace tty {

void MainWindow::alignOnCurrentLine()
{
    // Align every run on the first line with the same message text as the current one.
    for (LogPane *p : m_panes) {
        const std::optional<LineIndex> l = p->view()->currentLine();
        if (!l || !p->run()) {
            continue;
        }
        const LineText line = p->run()->lines.text(*l);
        std::string_view t = line.view();
        const auto close = t.find("] ");
        if (t.size() > 0 && t[0] == '[' && close != std::string_view::npos) {
            t = t.substr(close + 2);
        }
        Alignment a;
        a.kind = Alignment::Kind::Regex;
        a.regex = QRegularExpression::escape(
            QString::fromUtf8(t.data(), qsizetype(std::min<std::size_t>(t.size(), 120))));
        setAlignment(a);
        m_align->setCurrentIndex(m_align->findData(QStringLiteral("regex")));
        m_alignRegex->setText(a.regex);
        m_alignRegex->setEnabled(true);
        return;
    }
}

void MainWindow::showEventAt(int timelineRun, int eventIndex)
{
    if (timelineRun < 0 || timelineRun >= m_runIndex.size()) {
        return;
    }
    const auto [side, trial] = m_runIndex[timelineRun];
    LogPane *pane = m_panes.value(side);
    const Run &run = *m_session.sides[side].trials[trial].run;
    if (eventIndex < 0 || std::size_t(eventIndex) >= run.events.size() || !pane) {
        return;
    }
    pane->setTrial(trial);
    const Event &e = run.events[std::size_t(eventIndex)];
    pane->view()->showLine(std::min(e.line, run.lines.endIndex() - 1_lines));
    m_events->selectEvent(timelineRun, eventIndex);
    // The other side follows to the same aligned moment.
    const std::optional<RunSeconds> t = run.eventTime(e);
    if (!t) {
        return; // no aligned moment for the other side to follow to
    }
    const double x = m_timeline->runs()[timelineRun].xOf(*t);
    for (int s = 0; s < m_panes.size(); ++s) {
        if (s != side && m_panes[s]->run()) {
            const TimelineRun &other = m_timeline->runs()[m_panes[s]->timelineRun()];
            m_panes[s]->view()->showLine(m_panes[s]->run()->lineAt(other.timeAtX(x)));
        }
    }
}

void MainWindow::showTime(double x)
{
    for (LogPane *p : m_panes) {
        if (const Run *r = p->run()) {
            p->view()->showLine(r->lineAt(m_timeline->runs().value(p->timelineRun()).timeAtX(x)));
        }
    }
}

void MainWindow::onLogLineChanged(int side, LineIndex line)
{
    LogPane *pane = m_panes.value(side);
    if (!pane || !pane->run()) {
        return;
    }
    const std::optional<RunSeconds> t = pane->run()->timeOf(line);
    if (!t) {
        m_timeline->setCursorX(std::numeric_limits<double>::quiet_NaN()); // hides the cursor
        return;
    }
    const double x = m_timeline->runs().value(pane->timelineRun()).xOf(*t);
    m_timeline->setCursorX(x);
    if (x < m_timeline->xLower() || x > m_timeline->xUpper()) {
        const double half = (m_timeline->xUpper() - m_timeline->xLower()) / 2;
        m_timeline->setXRange(x - half, x + half);
    }
}

void MainWindow::stepEvent(int direction, bool ofSelectedKind)
{
    std::optional<EventKind> kind;
    if (ofSelectedKind) {
        const QModelIndex cur = m_events->table()->currentIndex();
        EventKind k;
        const QString name = cur.isValid() ? cur.data(EventModel::KindRole).toString() : QString();
        if (!name.isEmpty() && eventKindFromName(name, &k)) {
            kind = k;
        }
    }
    const auto [run, ev] = m_timeline->stepEvent(direction, kind);
    if (run >= 0) {
        showEventAt(run, ev);
    }
}

} // namespace tty
