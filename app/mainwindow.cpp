#include "mainwindow.h"

#include "bootselect.h"

#include "capturedialog.h"
#include "eventlist.h"
#include "figure.h"
#include "livebar.h"
#include "livecontroller.h"
#include "logpane.h"
#include "metricspanel.h"
#include "noticebar.h"
#include "palette.h"
#include "samples.h"
#include "theme.h"
#include "timelineview.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QColorDialog>
#include <QComboBox>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <qcustomplot.h>

#include <cmath>

namespace tty {

namespace {
constexpr int kMaxRecent = 10;

QString trialSource(const QString &path, int boot)
{
    const QString name = QFileInfo(path).fileName();
    return boot >= 0 ? QStringLiteral("%1 boot %2").arg(name).arg(boot + 1) : name;
}
} // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent), m_job(new RunLoadJob(this))
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
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400});
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
                m_statusText->setText(tr("Loading %1: %2 of %3 MB, %4 lines")
                                          .arg(QFileInfo(f).fileName())
                                          .arg(double(done) / 1e6, 0, 'f', 1)
                                          .arg(double(total) / 1e6, 0, 'f', 1)
                                          .arg(lines));
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
        const Run &r = *m_session.timelineRuns()[run].run;
        const double x = r.eventTime(r.events[std::size_t(ev)]) - m_timeline->runs()[run].shift;
        const double half = (m_timeline->xUpper() - m_timeline->xLower()) / 2;
        if (std::isfinite(x) && (x < m_timeline->xLower() || x > m_timeline->xUpper())) {
            m_timeline->setXRange(x - half, x + half);
        }
    });
    connect(&m_patternWatcher, &QFutureWatcherBase::finished, this,
            &MainWindow::refreshPatternLanes);
    connect(&m_metricsWatcher, &QFutureWatcherBase::finished, this, [this] {
        if (m_metricsWatcher.future().resultCount() > 0 && !m_session.isEmpty()) {
            m_metrics->setReport(*m_metricsWatcher.future().result(), m_session.colors());
        }
    });
    restoreSettings();
}

MainWindow::~MainWindow()
{
    // Background work holds the runs; let it finish before they go.
    m_metricsWatcher.waitForFinished();
    m_patternWatcher.waitForFinished();
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
    m_metricsDock->raise();
    m_metrics->setMinimumWidth(320);
    connect(m_metrics, &MetricsPanel::optionsChanged, this, [this] {
        m_session.metrics = m_metrics->options();
        refreshMetrics();
    });
    connect(m_metrics, &MetricsPanel::bootsCompared, this, &MainWindow::compareBoots);
    connect(m_metrics, &MetricsPanel::bootSelected, this, [this](int boot) {
        // Per-boot metrics for a single capture; the timeline zooms to the boot.
        if (m_session.sides.size() != 1 || m_session.sides[0].trials.size() != 1) {
            return;
        }
        m_session.sides[0].trials[0].boot = boot;
        refreshMetrics();
        const Run &r = *m_session.sides[0].trials[0].run;
        if (boot >= 0 && std::size_t(boot) < r.boots.size()) {
            const Boot &b = r.boots[std::size_t(boot)];
            m_timeline->setXRange(r.timeOf(b.first), r.timeOf(std::max(b.first, b.end - 1_lines)));
        } else {
            m_timeline->resetZoom();
        }
    });
}

void MainWindow::buildActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QToolBar *tb = addToolBar(tr("Main"));
    tb->setObjectName(QStringLiteral("mainToolbar"));
    auto add = [this](QMenu *menu, const QString &text, const QKeySequence &key, auto slot) {
        QAction *a = menu->addAction(text);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WindowShortcut);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        return a;
    };
    tb->addAction(add(file, tr("&Open…"), QKeySequence::Open, [this] { openDialog(); }));
    tb->addAction(
        add(file, tr("&Compare…"), QKeySequence(tr("Ctrl+Shift+O")), [this] { compareDialog(); }));
    add(file, tr("Open the &sample comparison"), QKeySequence(), [this] { openSample(); });
    file->addSeparator();
    tb->addAction(
        add(file, tr("Ca&pture…"), QKeySequence(tr("Ctrl+K")), [this] { captureDialog(); }));
    add(file, tr("S&top capture"), QKeySequence(tr("Ctrl+Shift+K")), [this] { stopCapture(); });
    add(file, tr("Drop a &marker (live)"), QKeySequence(Qt::Key_M), [this] { dropMarker(); });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    file->addSeparator();
    tb->addAction(
        add(file, tr("&Export image…"), QKeySequence(tr("Ctrl+E")), [this] { exportDialog(); }));
    add(file, tr("Copy image to clip&board"), QKeySequence(tr("Ctrl+Shift+C")),
        [this] { copyImage(); });
    file->addSeparator();
    add(file, tr("&Quit"), QKeySequence::Quit, [this] { close(); });

    QMenu *view = menuBar()->addMenu(tr("&View"));
    tb->addSeparator();
    tb->addAction(add(view, tr("&Reset zoom"), QKeySequence(Qt::Key_Home),
                      [this] { m_timeline->resetZoom(); }));
    tb->addAction(add(view, tr("&Previous event"), QKeySequence(Qt::Key_P),
                      [this] { stepEvent(-1, false); }));
    tb->addAction(
        add(view, tr("&Next event"), QKeySequence(Qt::Key_N), [this] { stepEvent(1, false); }));
    add(view, tr("Previous event of the selected kind"), QKeySequence(tr("Shift+P")),
        [this] { stepEvent(-1, true); });
    add(view, tr("Next event of the selected kind"), QKeySequence(tr("Shift+N")),
        [this] { stepEvent(1, true); });
    view->addSeparator();
    add(view, tr("&Find in log"), QKeySequence::Find, [this] {
        if (!m_panes.isEmpty()) {
            m_panes.front()->view()->searchField()->setFocus();
            m_panes.front()->view()->searchField()->selectAll();
        }
    });
    add(view, tr("Find next"), QKeySequence::FindNext, [this] {
        for (LogPane *p : m_panes) {
            p->view()->findNext();
        }
    });
    add(view, tr("Find previous"), QKeySequence::FindPrevious, [this] {
        for (LogPane *p : m_panes) {
            p->view()->findPrevious();
        }
    });
    add(view, tr("Align on the current log line"), QKeySequence(tr("Ctrl+L")),
        [this] { alignOnCurrentLine(); });
    add(view, tr("Add a &pattern lane…"), QKeySequence(tr("Ctrl+Shift+L")), [this] {
        bool ok = false;
        const QString re = QInputDialog::getText(
            this, tr("Pattern lane"), tr("Regex (matches per second; intervals in the metrics):"),
            QLineEdit::Normal, QString(), &ok);
        if (ok && !re.isEmpty()) {
            addPatternLane(re);
        }
    });
    add(view, tr("Remove pattern lanes"), QKeySequence(), [this] { setPatterns({}); });
    view->addSeparator();
    m_lanesMenu = view->addMenu(tr("&Lanes"));
    for (int l = 0; l < TimelineView::LaneCount; ++l) {
        QAction *a = m_lanesMenu->addAction(TimelineView::laneName(TimelineView::Lane(l)));
        a->setCheckable(true);
        a->setChecked(true);
        connect(a, &QAction::toggled, this,
                [this, l](bool on) { m_timeline->setLaneVisible(TimelineView::Lane(l), on); });
    }
    QMenu *themes = view->addMenu(tr("&Theme"));
    auto *themeGroup = new QActionGroup(this);
    const QString current =
        QSettings().value(QStringLiteral("view/theme"), QStringLiteral("system")).toString();
    for (const auto &[name, title] : {std::pair{"system", "Follow the system"},
                                      std::pair{"light", "Light"}, std::pair{"dark", "Dark"}}) {
        QAction *a = themes->addAction(tr(title));
        a->setCheckable(true);
        a->setChecked(current == QLatin1String(name));
        themeGroup->addAction(a);
        connect(a, &QAction::triggered, this, [n = QString::fromLatin1(name)] {
            applyTheme(n);
            QSettings().setValue(QStringLiteral("view/theme"), n);
        });
    }
    QMenu *colors = view->addMenu(tr("&Runs"));
    for (int i = 0; i < 2; ++i) {
        QAction *a = colors->addAction(i == 0 ? tr("Rename run A…") : tr("Rename run B…"));
        connect(a, &QAction::triggered, this, [this, i] {
            if (i >= m_session.sides.size()) {
                return;
            }
            bool ok = false;
            const QString label = QInputDialog::getText(
                this, tr("Rename"), tr("Label:"), QLineEdit::Normal, m_session.sides[i].label, &ok);
            if (ok && !label.isEmpty()) {
                m_session.sides[i].label = label;
                setSession(m_session);
            }
        });
    }
    colors->addSeparator();
    for (int i = 0; i < 2; ++i) {
        QAction *a = colors->addAction(i == 0 ? tr("Colour of run A…") : tr("Colour of run B…"));
        connect(a, &QAction::triggered, this, [this, i] {
            const QColor c = QColorDialog::getColor(runColor(i), this);
            if (c.isValid()) {
                QSettings().setValue(i == 0 ? QStringLiteral("colors/runA")
                                            : QStringLiteral("colors/runB"),
                                     c.name());
                for (int s = 0; s < m_session.sides.size(); ++s) {
                    m_session.sides[s].color = runColor(s);
                }
                setSession(m_session);
            }
        });
    }
    QAction *resetColors = colors->addAction(tr("Default colours"));
    connect(resetColors, &QAction::triggered, this, [this] {
        QSettings().remove(QStringLiteral("colors"));
        for (int s = 0; s < m_session.sides.size(); ++s) {
            m_session.sides[s].color = runColor(s);
        }
        setSession(m_session);
    });
    view->addAction(m_eventDock->toggleViewAction());
    view->addAction(m_metricsDock->toggleViewAction());
    add(view, tr("&Full screen"), QKeySequence(Qt::Key_F11),
        [this] { setWindowState(windowState() ^ Qt::WindowFullScreen); });

    tb->addSeparator();
    tb->addWidget(new QLabel(tr(" Align: "), this));
    m_align = new QComboBox(this);
    m_align->addItem(tr("start of capture"), QStringLiteral("start"));
    m_align->addItem(tr("first kernel line"), QStringLiteral("boot"));
    m_align->addItem(tr("first panic"), QStringLiteral("panic"));
    m_align->addItem(tr("first drop"), QStringLiteral("drop"));
    m_align->addItem(tr("first match of…"), QStringLiteral("regex"));
    m_align->setToolTip(
        tr("What time zero is for every run (Ctrl+L aligns on the current log line)"));
    tb->addWidget(m_align);
    m_alignRegex = new QLineEdit(this);
    m_alignRegex->setPlaceholderText(tr("regex, e.g. harness: insmod"));
    m_alignRegex->setMaximumWidth(220);
    m_alignRegex->setEnabled(false);
    tb->addWidget(m_alignRegex);
    auto applyAlign = [this] {
        const QString kind = m_align->currentData().toString();
        m_alignRegex->setEnabled(kind == QLatin1String("regex"));
        if (kind == QLatin1String("regex") && m_alignRegex->text().isEmpty()) {
            return;
        }
        Alignment a;
        QString error;
        if (Alignment::parse(kind == QLatin1String("regex")
                                 ? QStringLiteral("regex:") + m_alignRegex->text()
                                 : kind,
                             &a, &error)) {
            setAlignment(a);
        } else {
            m_notices->show(NoticeBar::Level::Error, error.toHtmlEscaped());
        }
    };
    connect(m_align, &QComboBox::activated, this, applyAlign);
    connect(m_alignRegex, &QLineEdit::editingFinished, this, applyAlign);
    tb->addWidget(new QLabel(tr("  Time: "), this));
    m_axisMode = new QComboBox(this);
    m_axisMode->addItem(tr("seconds"));
    m_axisMode->addItem(tr("wall clock"));
    m_axisMode->addItem(tr("kernel time"));
    tb->addWidget(m_axisMode);
    connect(m_axisMode, &QComboBox::activated, this, [this](int i) {
        const double lo = m_timeline->xLower(), hi = m_timeline->xUpper();
        m_timeline->setTimeAxisMode(TimeAxisMode(i));
        m_timeline->setXRange(lo, hi);
        for (LogPane *p : m_panes) {
            p->view()->setWallClock(i == 1);
        }
    });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    add(help, tr("&Keyboard shortcuts"), QKeySequence::HelpContents, [this] { showShortcuts(); });
    add(help, tr("&About ttyscope"), QKeySequence(), [this] { showAbout(); });
    updateRecentMenu();
}

LogPane *MainWindow::logPane(int side) const
{
    return side < m_panes.size() ? m_panes[side] : nullptr;
}

void MainWindow::open(const OpenRequest &request)
{
    stopCapture();
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
    m_job->start(request.sides, request.load, request.rules);
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
    auto logsGrowing = [this] {
        for (LogPane *p : m_panes) {
            if (p->view()->model()->growing()) {
                return true;
            }
        }
        return false;
    };
    while ((m_loading || m_metricsWatcher.isRunning() || logsGrowing()) &&
           t.elapsed() < timeoutMs) {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    QApplication::processEvents(); // the watcher's finished signal
    return !m_loading;
}

void MainWindow::onLoaded(const LoadResult &result)
{
    m_loading = false;
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_statusText->clear();
    QStringList problems, warnings;
    Session s;
    s.alignment = m_pending.alignment;
    s.metrics = m_pending.metrics;
    s.sample = m_pending.sample;
    QStringList opened;
    for (int si = 0; si < result.sides.size(); ++si) {
        Side side;
        side.color = runColor(si);
        for (const LoadedFile &f : result.sides[si]) {
            if (!f.run) {
                problems << f.error.toHtmlEscaped();
                continue;
            }
            opened << f.path;
            for (const QString &w : f.run->warnings) {
                warnings << QStringLiteral("%1: %2")
                                .arg(QFileInfo(f.path).fileName(), w)
                                .toHtmlEscaped();
            }
            if (!f.run->error.isEmpty()) {
                problems << QStringLiteral("%1: %2")
                                .arg(QFileInfo(f.path).fileName(), f.run->error)
                                .toHtmlEscaped();
            }
            if (m_pending.bootsAsTrials && f.run->boots.size() > 1) {
                for (int b = 0; b < int(f.run->boots.size()); ++b) {
                    side.trials.append(Trial{f.run, b, trialSource(f.path, b)});
                }
            } else {
                side.trials.append(Trial{f.run, -1, trialSource(f.path, -1)});
            }
        }
        if (side.trials.isEmpty()) {
            continue;
        }
        side.label = si < m_pending.labels.size() && !m_pending.labels[si].isEmpty()
                         ? m_pending.labels[si]
                         : defaultLabel(side.trials);
        s.sides.append(side);
    }
    if (result.cancelled) {
        problems.prepend(tr("Loading was cancelled; what was read so far is shown."));
    }
    if (!problems.isEmpty()) {
        m_notices->show(NoticeBar::Level::Error,
                        problems.join(QStringLiteral("<br>")) +
                            (warnings.isEmpty()
                                 ? QString()
                                 : QStringLiteral("<br>") + warnings.join(QStringLiteral("<br>"))));
    } else if (!warnings.isEmpty()) {
        m_notices->show(NoticeBar::Level::Warning, warnings.join(QStringLiteral("<br>")));
    }
    if (s.sides.isEmpty()) {
        return;
    }
    if (!s.sample) {
        addRecent(opened);
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
    const Trial base = m_bootBase.sides[0].trials[0];
    Session s;
    s.metrics = m_session.metrics;
    s.alignment.kind = Alignment::Kind::FirstKernelLine; // boots line up on their kernels
    QStringList problems;
    int side = 0;
    for (const QString &spec : {a, b}) {
        BootSelector selector;
        QString error;
        if (!BootSelector::parse(spec, &selector, &error)) {
            problems << error;
            continue;
        }
        Side sd;
        sd.color = runColor(side++);
        for (const int boot : selector.select(*base.run)) {
            sd.trials.append(Trial{base.run, boot, trialSource(base.source, boot)});
        }
        if (sd.trials.isEmpty()) {
            problems
                << tr("boots '%1': none of the %2 boots").arg(spec).arg(base.run->boots.size());
            continue;
        }
        sd.label = tr("boots %1").arg(spec.trimmed().isEmpty() ? tr("all") : spec.trimmed());
        s.sides.append(sd);
    }
    if (!problems.isEmpty() || s.sides.size() != 2) {
        m_notices->show(NoticeBar::Level::Error,
                        problems.join(QStringLiteral("<br>")).toHtmlEscaped());
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
        m_bootBase.sides[0].trials[0].boot = -1;
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
        pane->setSide(m_session.sides[s], first);
        first += m_session.sides[s].trials.size();
        m_logs->addWidget(pane);
        m_panes.append(pane);
        connect(pane->view(), &LogView::currentLineChanged, this,
                [this, s](LineIndex l) { onLogLineChanged(s, l); });
        connect(pane->view(), &LogView::selectionChanged, this,
                [this, pane](LineIndex a, LineIndex b) {
                    const Run *r = pane->run();
                    const double shift = m_timeline->runs().value(pane->timelineRun()).shift;
                    if (r) {
                        m_timeline->setHighlight(r->timeOf(a) - shift, r->timeOf(b) - shift);
                    }
                });
    }
    m_metrics->setOptions(m_session.metrics);
    QStringList boots;
    if (m_session.sides.size() == 1 && m_session.sides[0].trials.size() == 1) {
        const Run &r = *m_session.sides[0].trials[0].run;
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
    m_metrics->setBoots(boots);
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
        m_notices->show(NoticeBar::Level::Warning,
                        warnings.join(QStringLiteral("<br>")).toHtmlEscaped());
    }
}

void MainWindow::refreshMetrics()
{
    if (m_session.isEmpty()) {
        return;
    }
    if (m_live) {
        // A live run grows on this thread: its metrics are taken here, between updates.
        m_metrics->setReport(m_session.report(), m_session.colors());
        return;
    }
    // Metrics scan every line: off the GUI thread, so a big log never freezes the window.
    const Session snapshot = m_session;
    m_metricsWatcher.setFuture(QtConcurrent::run([snapshot]() -> std::shared_ptr<const Report> {
        return std::make_shared<Report>(snapshot.report());
    }));
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
    m_patternWatcher.waitForFinished();
    const Session snapshot = m_session;
    m_patternWatcher.setFuture(QtConcurrent::run([snapshot] { return snapshot.patternSeries(); }));
    if (wait) {
        m_patternWatcher.waitForFinished();
        refreshPatternLanes();
    }
}

void MainWindow::refreshPatternLanes()
{
    if (m_patternWatcher.future().resultCount() > 0) {
        m_timeline->setPatternLanes(m_patternWatcher.future().result());
    }
}

void MainWindow::captureDialog()
{
    CaptureDialog dlg(!m_session.isEmpty() && !m_live, this);
    if (dlg.exec() != QDialog::Accepted) {
        return;
    }
    CaptureOptions o;
    QString error;
    if (!dlg.options(&o, &error) || !startCapture(o, dlg.compareWithReference(), &error)) {
        m_notices->show(NoticeBar::Level::Error, error.toHtmlEscaped());
    }
}

bool MainWindow::startCapture(const CaptureOptions &options, bool withReference, QString *error)
{
    stopCapture();
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
    side.color = runColor(0);
    side.trials.append(Trial{live->run(), -1, options.port});
    s.sides.append(side);
    if (withReference && !m_session.isEmpty()) {
        Side ref = m_session.sides.front();
        ref.label += tr(" (reference)");
        ref.color = runColor(1);
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
    if (!m_live) {
        return;
    }
    QString error;
    if (!m_live->stop(&error)) {
        m_notices->show(NoticeBar::Level::Error,
                        tr("The recording could not be completed: %1").arg(error).toHtmlEscaped());
    } else {
        m_notices->show(
            NoticeBar::Level::Info,
            tr("Capture stopped; the recording is %1").arg(m_live->status().path).toHtmlEscaped());
    }
    m_liveBar->setRunning(false);
    m_metricsClock.invalidate(); // the final figures, now
    // The run stays on screen (the controller keeps it alive) until something else is opened.
    m_live->disconnect(this);
    onLiveUpdated();
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
    const QVector<TimelineRun> runs = m_session.timelineRuns();
    m_timeline->updateRuns(runs);
    if (m_liveBar->following()) {
        // Keep the newest data in view with the current zoom (at least a minute).
        const double span = std::max(10.0, m_timeline->xUpper() - m_timeline->xLower());
        const double end =
            runs.front().run->lines.empty()
                ? 0
                : runs.front().run->timeOf(runs.front().run->lines.endIndex() - 1_lines) -
                      runs.front().shift;
        m_timeline->setXRange(end - span * 0.95, end + span * 0.05);
    }
    for (LogPane *p : m_panes) {
        p->view()->model()->linesChanged();
    }
    if (m_liveBar->following() && !m_panes.isEmpty() && m_panes.front()->run() &&
        !m_panes.front()->run()->lines.empty()) {
        m_panes.front()->view()->table()->scrollToBottom();
    }
    m_events->setRuns(runs);
    if (!m_metricsClock.isValid() || m_metricsClock.elapsed() > 1000) {
        m_metricsClock.restart();
        refreshMetrics();
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

void MainWindow::alignOnCurrentLine()
{
    // Align every run on the first line with the same message text as the current one.
    for (LogPane *p : m_panes) {
        const std::optional<LineIndex> l = p->view()->currentLine();
        if (!l || !p->run()) {
            continue;
        }
        std::string_view t = p->run()->lines.text(*l);
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
    const double x = run.eventTime(e) - m_timeline->runs()[timelineRun].shift;
    for (int s = 0; s < m_panes.size(); ++s) {
        if (s != side && m_panes[s]->run()) {
            const double shift = m_timeline->runs()[m_panes[s]->timelineRun()].shift;
            m_panes[s]->view()->showLine(m_panes[s]->run()->lineAt(x + shift));
        }
    }
}

void MainWindow::showTime(double x)
{
    for (LogPane *p : m_panes) {
        if (const Run *r = p->run()) {
            const double shift = m_timeline->runs().value(p->timelineRun()).shift;
            p->view()->showLine(r->lineAt(x + shift));
        }
    }
}

void MainWindow::onLogLineChanged(int side, LineIndex line)
{
    LogPane *pane = m_panes.value(side);
    if (!pane || !pane->run()) {
        return;
    }
    const double x =
        pane->run()->timeOf(line) - m_timeline->runs().value(pane->timelineRun()).shift;
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

bool MainWindow::exportFigure(const QString &path, int width, int height, double scale,
                              QString *error)
{
    const Report report = m_session.report();
    FigureTable table{&report, m_session.colors()};
    if (path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) {
        return saveFigurePdf(m_timeline, table, path, width, height, error);
    }
    return saveFigurePng(m_timeline, table, path, width, height, scale, error);
}

void MainWindow::exportDialog()
{
    QSettings settings;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export image"),
        settings.value(QStringLiteral("export/last"), QStringLiteral("ttyscope.png")).toString(),
        tr("PNG image (*.png);;PDF document (*.pdf)"));
    if (path.isEmpty()) {
        return;
    }
    QDialog dlg(this);
    dlg.setWindowTitle(tr("Export size"));
    auto *form = new QFormLayout(&dlg);
    auto *w = new QSpinBox(&dlg);
    w->setRange(400, 10000);
    w->setValue(settings.value(QStringLiteral("export/width"), 1600).toInt());
    auto *h = new QSpinBox(&dlg);
    h->setRange(300, 10000);
    h->setValue(settings.value(QStringLiteral("export/height"), 1100).toInt());
    auto *sc = new QDoubleSpinBox(&dlg);
    sc->setRange(0.5, 4);
    sc->setValue(settings.value(QStringLiteral("export/scale"), 1.0).toDouble());
    form->addRow(tr("Width"), w);
    form->addRow(tr("Height"), h);
    form->addRow(tr("Scale (PNG)"), sc);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dlg);
    form->addRow(box);
    connect(box, &QDialogButtonBox::accepted, &dlg, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, &dlg, &QDialog::reject);
    if (dlg.exec() != QDialog::Accepted) {
        return;
    }
    settings.setValue(QStringLiteral("export/last"), path);
    settings.setValue(QStringLiteral("export/width"), w->value());
    settings.setValue(QStringLiteral("export/height"), h->value());
    settings.setValue(QStringLiteral("export/scale"), sc->value());
    QString error;
    if (!exportFigure(path, w->value(), h->value(), sc->value(), &error)) {
        m_notices->show(NoticeBar::Level::Error, error.toHtmlEscaped());
    } else {
        m_statusText->setText(tr("Exported %1").arg(path));
    }
}

void MainWindow::copyImage()
{
    const Report report = m_session.report();
    FigureTable table{&report, m_session.colors()};
    QApplication::clipboard()->setImage(
        renderFigure(m_timeline, table, 1600, 1100, devicePixelRatioF()));
    m_statusText->setText(tr("Image copied to the clipboard"));
}

void MainWindow::openDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open console logs"), QString(),
        tr("Console logs (*.log *.zst *.txt *.ttyrec *.cap);;All files (*)"));
    if (files.size() == 1) {
        openFiles(files);
    } else if (files.size() > 1) {
        // Several files picked at once: one group of trials.
        openFiles({files.join(QLatin1Char(','))});
    }
}

void MainWindow::compareDialog()
{
    const QStringList a =
        QFileDialog::getOpenFileNames(this, tr("Compare: run A (one file or several trials)"));
    if (a.isEmpty()) {
        return;
    }
    const QStringList b =
        QFileDialog::getOpenFileNames(this, tr("Compare: run B (one file or several trials)"));
    if (b.isEmpty()) {
        return;
    }
    openFiles({a.join(QLatin1Char(',')), b.join(QLatin1Char(','))});
}

void MainWindow::addRecent(const QStringList &files)
{
    QSettings s;
    QStringList recent = s.value(QStringLiteral("recent")).toStringList();
    const QString entry = files.join(QLatin1Char(','));
    recent.removeAll(entry);
    recent.prepend(entry);
    s.setValue(QStringLiteral("recent"), recent.mid(0, kMaxRecent));
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recent")).toStringList();
    for (const QString &r : recent) {
        QAction *a = m_recentMenu->addAction(r.size() > 80 ? QStringLiteral("…") + r.right(78) : r);
        connect(a, &QAction::triggered, this, [this, r] { openFiles({r}); });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::showShortcuts()
{
    QStringList rows;
    for (QAction *a : actions()) {
        if (!a->shortcut().isEmpty()) {
            rows << QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                        .arg(a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                             a->text().remove(u'&').toHtmlEscaped());
        }
    }
    rows
        << tr("<tr><td><b>Mouse wheel</b></td><td>Zoom the timeline around the cursor</td></tr>")
        << tr("<tr><td><b>Drag</b></td><td>Pan the timeline</td></tr>")
        << tr("<tr><td><b>Right drag / Shift+drag</b></td><td>Zoom to the selected range</td></tr>")
        << tr("<tr><td><b>Click a marker</b></td><td>Show its line in the log</td></tr>")
        << tr("<tr><td><b>Click the timeline</b></td><td>Move the log to that moment</td></tr>");
    QMessageBox box(this);
    box.setWindowTitle(tr("Keyboard shortcuts"));
    box.setText(QStringLiteral("<table cellspacing=6>%1</table>").arg(rows.join(QString())));
    box.exec();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About ttyscope"), aboutText());
}

void MainWindow::restoreSettings()
{
    QSettings s;
    if (s.status() != QSettings::NoError) {
        return; // a broken settings file must never stop the program
    }
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    if (auto *split = findChild<QSplitter *>(QStringLiteral("mainSplit"))) {
        split->restoreState(s.value(QStringLiteral("window/split")).toByteArray());
    }
    const QList<QAction *> lanes = m_lanesMenu->actions();
    for (int l = 0; l < lanes.size(); ++l) {
        lanes[l]->setChecked(s.value(QStringLiteral("lanes/%1").arg(l), true).toBool());
    }
    m_session.metrics.windowSeconds = s.value(QStringLiteral("metrics/window"), 30.0).toDouble();
    if (!(m_session.metrics.windowSeconds > 0)) {
        m_session.metrics.windowSeconds = 30;
    }
}

void MainWindow::saveSettings()
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    if (auto *split = findChild<QSplitter *>(QStringLiteral("mainSplit"))) {
        s.setValue(QStringLiteral("window/split"), split->saveState());
    }
    const QList<QAction *> lanes = m_lanesMenu->actions();
    for (int l = 0; l < lanes.size(); ++l) {
        s.setValue(QStringLiteral("lanes/%1").arg(l), lanes[l]->isChecked());
    }
}

void MainWindow::closeEvent(QCloseEvent *e)
{
    stopCapture();
    m_metricsWatcher.waitForFinished();
    m_patternWatcher.waitForFinished();
    saveSettings();
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
