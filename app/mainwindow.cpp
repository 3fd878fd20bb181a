// The main window: builds the widgets and docks, opens runs and shows the session.
#include "mainwindow.h"

#include "backgroundanalysis.h"
#include "eventlist.h"
#include "livebar.h"
#include "livecontroller.h"
#include "logpane.h"
#include "metricspanel.h"
#include "noticebar.h"
#include "palette.h"
#include "samples.h"
#include "sourcespanel.h"
#include "timelineview.h"
#include "windowsettings.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

namespace tty {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_job(new RunLoadJob(this)), m_analysis(new BackgroundAnalysis(this))
{
    setWindowTitle(QStringLiteral("ttyscope"));
    setAcceptDrops(true);
    setObjectName(QStringLiteral("MainWindow"));

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(2, 2, 2, 2);
    m_notices = new NoticeBar(central);
    layout->addWidget(m_notices);
    m_liveBar = new LiveBar(central);
    m_liveBar->hide();
    layout->addWidget(m_liveBar);
    auto *split = new QSplitter(Qt::Vertical, central);
    split->setObjectName(QStringLiteral("mainSplit"));
    m_timeline = new TimelineView(split);
    m_logs = new QSplitter(Qt::Horizontal, split);
    split->addWidget(m_timeline);
    split->addWidget(m_logs);
    // The lanes first: at 1920x1080 every lane fits at a legible height without scrolling
    // (a saved layout, restored later, wins).
    split->setStretchFactor(0, 7);
    split->setStretchFactor(1, 3);
    split->setSizes({700, 300});
    layout->addWidget(split, 1);
    setCentralWidget(central);

    m_statusText = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(240);
    m_progress->setVisible(false);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setVisible(false);
    statusBar()->addWidget(m_statusText, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    connect(m_cancel, &QPushButton::clicked, m_job, &RunLoadJob::cancel);
    connect(m_job, &RunLoadJob::progress, this,
            [this](const QString &f, qint64 done, qint64 total, qint64 lines) {
                m_progress->setRange(0, 1000);
                m_progress->setValue(total > 0 ? int(1000 * done / total) : 0);
                m_statusText->setText(
                    tr("Loading %1: %2 of %3 MB, %4 lines")
                        .arg(QFileInfo(f).fileName(), QString::number(double(done) / 1e6, 'f', 1),
                             QString::number(double(total) / 1e6, 'f', 1), QString::number(lines)));
            });
    connect(m_job, &RunLoadJob::finished, this, &MainWindow::onLoaded);

    buildDocks();
    buildActions();

    connect(m_timeline, &TimelineView::eventActivated, this, &MainWindow::showEventAt);
    connect(m_timeline, &TimelineView::timeActivated, this, &MainWindow::showTime);
    connect(m_timeline, &TimelineView::userMovedView, this,
            [this] { m_liveBar->setFollowing(false); });
    connect(m_liveBar, &LiveBar::followToggled, this, [this](bool on) {
        if (on) {
            onLiveUpdated();
        }
    });
    connect(m_liveBar, &LiveBar::markerRequested, this, &MainWindow::dropMarker);
    connect(m_liveBar, &LiveBar::stopRequested, this, &MainWindow::stopCapture);
    connect(m_liveBar, &LiveBar::sendText, this, [this](const QByteArray &b) {
        if (m_live) {
            m_live->send(b);
        }
    });
    connect(m_liveBar, &LiveBar::sendBreak, this, [this](char key) {
        if (m_live) {
            m_live->sendBreak(key);
        }
    });
    connect(m_events, &EventList::eventActivated, this, [this](int run, int ev) {
        showEventAt(run, ev);
        // The runs the timeline shows (Session::timelineRuns would align every run again).
        const Run &r = *m_timeline->runs()[run].run;
        const std::optional<RunSeconds> t = r.eventTime(r.events[std::size_t(ev)]);
        if (!t) {
            return;
        }
        const double x = m_timeline->runs()[run].xOf(*t);
        const double half = (m_timeline->xUpper() - m_timeline->xLower()) / 2;
        if (x < m_timeline->xLower() || x > m_timeline->xUpper()) {
            m_timeline->setXRange(x - half, x + half);
        }
    });
    connect(m_analysis, &BackgroundAnalysis::patternsReady, this,
            [this](const QVector<PatternSeries> &p) {
                m_patternLanes = p;
                m_timeline->setPatternLanes(m_patternLanes + m_sourceLanes);
            });
    connect(m_analysis, &BackgroundAnalysis::sourcesReady, this, &MainWindow::onSourcesReady);
    connect(m_analysis, &BackgroundAnalysis::metricsReady, this,
            [this](const std::shared_ptr<const Report> &report,
                   const std::shared_ptr<const CrashTitles> &crashTitles) {
                if (!m_session.isEmpty()) {
                    m_report = report;
                    m_metrics->setReport(*report, runColors(int(m_session.sides.size())));
                    // The crashes, found with the metrics, title the event list's rows.
                    m_events->setCrashTitles(crashTitles);
                    // Who floods the console: after the metrics, in the background too.
                    m_analysis->computeSources(report, m_sourcesPanel->grouping());
                }
            });
    WindowSettings::restore(this, m_lanesMenu, &m_session.metrics);
}

MainWindow::~MainWindow()
{
    // Background work holds the runs; let it finish before they go.
    m_analysis->waitForFinished();
    m_sourceLinesTask.waitForFinished();
}

void MainWindow::buildDocks()
{
    m_events = new EventList(this);
    m_eventDock = new QDockWidget(tr("Events"), this);
    m_eventDock->setObjectName(QStringLiteral("eventsDock"));
    m_eventDock->setWidget(m_events);
    addDockWidget(Qt::RightDockWidgetArea, m_eventDock);
    m_metrics = new MetricsPanel(this);
    m_metricsDock = new QDockWidget(tr("Metrics"), this);
    m_metricsDock->setObjectName(QStringLiteral("metricsDock"));
    m_metricsDock->setWidget(m_metrics);
    addDockWidget(Qt::RightDockWidgetArea, m_metricsDock);
    // The metrics table is what people paste into mails: give it room by default (a saved
    // layout, restored later, wins). Docks can only be sized once the window is laid out.
    tabifyDockWidget(m_eventDock, m_metricsDock);
    buildSourcesDock();
    m_metricsDock->raise();
    m_metrics->setMinimumWidth(320);
    connect(m_metrics, &MetricsPanel::optionsChanged, this, [this] {
        m_session.metrics = m_metrics->options();
        refreshMetrics();
    });
    connect(m_metrics, &MetricsPanel::bootsCompared, this, &MainWindow::compareBoots);
    connect(m_metrics, &MetricsPanel::bootSelected, this, [this](std::optional<int> boot) {
        // A boot of a single capture: its metrics, and the timeline and the event list of
        // its lines alone (zoomed to it), as for a boot trial; none: the whole capture.
        const Session &shown = m_session;
        if (shown.sides.size() != 1 || shown.sides[0].trials.size() != 1) {
            return;
        }
        // New lists, not a write into the shown ones: a metrics task may just have let go
        // of its snapshot, which shares them, on a worker, and QList's test for sharing is a
        // relaxed load (TSan: a race with that worker's reads).
        Trial trial = shown.sides[0].trials[0];
        trial.boot = boot;
        Side side;
        side.label = shown.sides[0].label;
        side.trials = {trial};
        m_session.sides = {side};
        refreshMetrics();
        refreshTimelineRuns();
    });
}

LogPane *MainWindow::logPane(int side) const
{
    return side < m_panes.size() ? m_panes[side] : nullptr;
}

void MainWindow::open(const OpenRequest &request)
{
    endCapture();
    m_liveBar->hide();
    if (m_job->isRunning()) {
        m_job->cancel();
        m_job->waitForFinished();
    }
    m_pending = request;
    m_loading = true;
    m_notices->clear();
    m_progress->setRange(0, 0);
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_statusText->setText(tr("Loading…"));
    m_job->start(request.sides, request.load, request.rules, request.bauds);
}

void MainWindow::openFiles(const QStringList &files)
{
    if (files.size() > 2) {
        // A file manager may hand over many files: compare them as two groups? No — the user
        // would not know which went where. Say what happens instead.
        m_notices->show(NoticeBar::Level::Warning,
                        tr("%1 files were given; the first two are compared. To compare groups of "
                           "trials, use File ▸ Compare… (several files per side) or "
                           "<tt>ttyscope a1,a2,a3 b1,b2</tt>.")
                            .arg(files.size()));
    }
    OpenRequest r;
    for (const QString &f : files.mid(0, 2)) {
        r.sides.append(f.split(QLatin1Char(','), Qt::SkipEmptyParts));
    }
    r.rules = std::make_shared<RuleSet>(RuleSet::builtin());
    r.metrics = m_session.metrics;
    r.alignment = m_session.alignment;
    open(r);
}

bool MainWindow::openSample()
{
    const SampleSet s = bundledSample();
    if (s.sides.isEmpty()) {
        m_notices->show(NoticeBar::Level::Warning,
                        tr("The bundled sample was not found (looked in %1).")
                            .arg(s.searched.join(QStringLiteral(", ")).toHtmlEscaped()));
        return false;
    }
    OpenRequest r;
    r.sides = s.sides;
    r.labels = s.labels;
    r.rules = std::make_shared<RuleSet>(RuleSet::builtin());
    Alignment::parse(s.alignment, &r.alignment, nullptr);
    r.metrics = s.metrics;
    r.sample = true;
    open(r);
    return true;
}

bool MainWindow::waitForLoaded(int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    // Sleeps until the next event: a loop of processEvents that returns at once kept a core
    // busy, on a 2-core host half of what the workers it waits for could use. The tick
    // wakes it to look at the state and the time.
    QTimer tick;
    tick.start(20);
    auto waitWhile = [&](auto busy) {
        while (busy() && t.elapsed() < timeoutMs) {
            QApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        }
    };
    waitWhile([this] {
        return m_loading || m_analysis->metricsRunning() || m_analysis->sourcesRunning();
    });
    QApplication::processEvents(); // the watcher's finished signal
    // The metrics' arrival starts the sources.
    waitWhile([this] { return m_analysis->sourcesRunning(); });
    QApplication::processEvents();
    return !m_loading;
}

void MainWindow::onLoaded(const LoadResult &result)
{
    m_loading = false;
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_statusText->clear();
    OpenedSession loaded = SessionBuilder::fromLoad(result, m_pending);
    QStringList &problems = loaded.problems, &warnings = loaded.warnings;
    Session &s = loaded.session;
    if (result.cancelled) {
        problems.prepend(tr("Loading was cancelled; what was read so far is shown."));
    }
    if (!problems.isEmpty()) {
        m_notices->show(NoticeBar::Level::Error, NoticeBar::linesAsHtml(problems + warnings));
    } else if (!warnings.isEmpty()) {
        m_notices->show(NoticeBar::Level::Warning, NoticeBar::linesAsHtml(warnings));
    }
    if (s.sides.isEmpty()) {
        return;
    }
    if (!s.sample) {
        WindowSettings::addRecent(loaded.opened);
        updateRecentMenu();
    }
    setSession(std::move(s));
}

void MainWindow::compareBoots(const QString &a, const QString &b)
{
    if (m_bootBase.isEmpty()) {
        return;
    }
    if (a.trimmed().isEmpty() && b.trimmed().isEmpty()) {
        setSession(m_bootBase);
        return;
    }
    QStringList problems;
    Session s = SessionBuilder::fromBoots(m_bootBase, m_session.metrics, a, b, &problems);
    if (!problems.isEmpty() || s.sides.size() != 2) {
        m_notices->show(NoticeBar::Level::Error, NoticeBar::linesAsHtml(problems));
        return;
    }
    setSession(std::move(s));
}

void MainWindow::setSession(Session session)
{
    m_session = std::move(session);
    const bool bootsCompared =
        !m_bootBase.isEmpty() && m_session.sides.size() == 2 &&
        !m_session.sides[0].trials.isEmpty() &&
        m_session.sides[0].trials[0].run == m_bootBase.sides[0].trials[0].run;
    if (m_session.sides.size() == 1 && m_session.sides[0].trials.size() == 1) {
        m_bootBase = m_session;
        m_bootBase.sides[0].trials[0].boot = std::nullopt;
    } else if (!bootsCompared) {
        m_bootBase = Session{};
    }
    m_metrics->setBootComparison(!m_bootBase.isEmpty() &&
                                 m_bootBase.sides[0].trials[0].run->boots.size() > 1);
    setWindowTitle(QStringLiteral("%1 — ttyscope").arg(m_session.title()));
    m_runIndex.clear();
    for (int s = 0; s < m_session.sides.size(); ++s) {
        for (int t = 0; t < m_session.sides[s].trials.size(); ++t) {
            m_runIndex.append({s, t});
        }
    }
    // Log panes: one per side, side by side.
    for (LogPane *p : m_panes) {
        p->deleteLater();
    }
    m_panes.clear();
    int first = 0;
    for (int s = 0; s < m_session.sides.size(); ++s) {
        auto *pane = new LogPane(m_logs);
        pane->setSide(m_session.sides[s], s, first);
        first += m_session.sides[s].trials.size();
        m_logs->addWidget(pane);
        m_panes.append(pane);
        pane->view()->model()->setShowControls(m_showControls && m_showControls->isChecked());
        pane->view()->model()->setTimesInText(m_timesInText && m_timesInText->isChecked());
        connect(pane->view(), &LogView::currentLineChanged, this,
                [this, s](LineIndex l) { onLogLineChanged(s, l); });
        connect(pane->view(), &LogView::selectionChanged, this,
                [this, pane](LineIndex a, LineIndex b) {
                    const Run *r = pane->run();
                    const TimelineRun tr = m_timeline->runs().value(pane->timelineRun());
                    const std::optional<RunSeconds> ta = r ? r->timeOf(a) : std::nullopt;
                    const std::optional<RunSeconds> tb = r ? r->timeOf(b) : std::nullopt;
                    if (ta && tb) {
                        m_timeline->setHighlight(tr.xOf(*ta), tr.xOf(*tb));
                    } else if (r) {
                        m_timeline->clearHighlight(); // no arrival times to place it by
                    }
                });
    }
    m_metrics->setOptions(m_session.metrics);
    QStringList boots;
    std::optional<int> chosenBoot; // `--boots 2`: the trial is that boot
    if (m_session.sides.size() == 1 && m_session.sides[0].trials.size() == 1) {
        chosenBoot = std::as_const(m_session).sides[0].trials[0].boot;
        const Run &r = *std::as_const(m_session).sides[0].trials[0].run;
        for (std::size_t b = 0; b < r.boots.size(); ++b) {
            boots << tr("boot %1 (lines %2–%3)%4")
                         .arg(b + 1)
                         .arg(lineNumber(r.boots[b].first))
                         .arg(lineNumber(r.boots[b].end - 1_lines))
                         .arg(r.boots[b].version.isEmpty()
                                  ? QString()
                                  : QStringLiteral(", ") + r.boots[b].version);
        }
    }
    m_metrics->setBoots(boots, chosenBoot);
    const QString spec = m_session.alignment.spec();
    const int ai = m_align->findData(
        m_session.alignment.kind == Alignment::Kind::Regex ? QStringLiteral("regex") : spec);
    m_align->setCurrentIndex(std::max(0, ai));
    if (m_session.alignment.kind == Alignment::Kind::FirstEvent) {
        m_align->setCurrentIndex(std::max(
            0, m_align->findData(QLatin1String(eventKindName(m_session.alignment.event)))));
    }
    m_alignRegex->setText(m_session.alignment.regex);
    m_alignRegex->setEnabled(m_session.alignment.kind == Alignment::Kind::Regex);
    refreshTimelineRuns();
    refreshMetrics();
    if (m_session.alignment.kind != Alignment::Kind::Start) {
        showTime(0); // the logs open at the moment everything is aligned on
    }
}

void MainWindow::refreshTimelineRuns()
{
    QStringList warnings;
    const QVector<TimelineRun> runs = m_session.timelineRuns(&warnings);
    m_timeline->setTitle(m_session.title());
    m_timeline->setAxisTitle(m_session.alignment.axisTitle());
    m_timeline->setRuns(runs);
    m_timeline->setTimeAxisMode(TimeAxisMode(m_axisMode->currentIndex()));
    m_timeline->resetZoom();
    m_events->setRuns(runs);
    if (!m_session.patterns.isEmpty()) {
        setPatterns(m_session.patterns);
    }
    if (!warnings.isEmpty()) {
        m_notices->show(NoticeBar::Level::Warning, NoticeBar::linesAsHtml(warnings));
    }
}

std::shared_ptr<const Report> MainWindow::currentReport()
{
    // The metrics are computed once per session: by the worker refreshMetrics() started,
    // or here when an export comes first.
    if (!m_report) {
        m_report = std::make_shared<const Report>(m_session.report());
    }
    return m_report;
}

void MainWindow::refreshMetrics()
{
    m_report.reset(); // the figures of the session before: exports must not use them
    clearSources();
    if (m_session.isEmpty()) {
        return;
    }
    if (capturing()) {
        // A live run grows on this thread: its metrics are taken here, between updates.
        // Once stopped it no longer grows, and its figures come from a worker as a file's.
        m_report = std::make_shared<const Report>(m_session.report());
        m_metrics->setReport(*m_report, runColors(int(m_session.sides.size())));
        m_events->setCrashTitles(crashTitlesOf(m_session, *m_report));
        return;
    }
    // Metrics scan every line: off the GUI thread, so a big log never freezes the window.
    m_analysis->computeMetrics(m_session);
}

void MainWindow::setAlignment(const Alignment &a)
{
    m_session.alignment = a;
    if (!m_session.isEmpty()) {
        refreshTimelineRuns();
    }
}

void MainWindow::addPatternLane(const QString &regex)
{
    if (!QRegularExpression(regex).isValid()) {
        m_notices->show(NoticeBar::Level::Error,
                        tr("Invalid regex: %1").arg(regex.toHtmlEscaped()));
        return;
    }
    QStringList p = m_session.patterns;
    p << regex;
    setPatterns(p);
    // The interval statistics of the pattern go to the metrics.
    m_session.metrics.intervals = p;
    refreshMetrics();
}

void MainWindow::setPatterns(const QStringList &regexes, bool wait)
{
    m_session.patterns = regexes;
    m_analysis->computePatterns(m_session, wait);
}

void MainWindow::closeEvent(QCloseEvent *e)
{
    stopCapture();
    m_analysis->waitForFinished();
    WindowSettings::save(this, m_lanesMenu);
    m_job->cancel();
    m_job->waitForFinished();
    e->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *e)
{
    if (e->mimeData()->hasUrls()) {
        e->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent *e)
{
    QStringList files;
    for (const QUrl &u : e->mimeData()->urls()) {
        if (u.isLocalFile()) {
            files << u.toLocalFile();
        }
    }
    if (!files.isEmpty()) {
        openFiles(files.mid(0, 2));
        e->acceptProposedAction();
    }
}
} // namespace tty
