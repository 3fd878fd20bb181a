// The main window: timeline on top, log text below (one pane per side), events and
// metrics in docks; loading in the background; export; settings.
// Its methods live by job in mainwindow.cpp (widgets, opening, the session),
// mainwindow_menus.cpp, mainwindow_dialogs.cpp, mainwindow_live.cpp and
// mainwindow_navigation.cpp; SessionBuilder, BackgroundAnalysis and WindowSettings do the
// work that needs no window.
#pragma once

#include "backgroundtask.h"
#include "runloadjob.h"
#include "session.h"
#include "sessionbuilder.h"
#include "sourcestats.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QPointer>

#include <memory>
#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QComboBox;
class QLineEdit;
class QSplitter;
class QMenu;
class QDockWidget;
class QTimer;

namespace tty {

class TimelineView;
class EventList;
class MetricsPanel;
class LogPane;
class NoticeBar;
class LiveController;
class LiveBar;
struct CaptureOptions;
class BackgroundAnalysis;
class SourcesPanel;
struct SessionSources;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Loads in the background; the window shows progress and stays responsive.
    void open(const OpenRequest &request);
    void openFiles(const QStringList &files); // one side per file, at most two
    bool openSample();
    // For tests and scripted screenshots: blocks (processing events) until loading ends
    // (and the metrics, computed in the background, are in).
    bool waitForLoaded(int timeoutMs = 60000);

    const Session &session() const { return m_session; }
    TimelineView *timeline() const { return m_timeline; }
    EventList *eventList() const { return m_events; }
    MetricsPanel *metricsPanel() const { return m_metrics; }
    LogPane *logPane(int side) const;
    NoticeBar *notices() const { return m_notices; }
    SourcesPanel *sourcesPanel() const { return m_sourcesPanel; }
    // Raises a dock: "events", "metrics" or "sources" (for screenshots); false if unknown.
    bool raisePane(const QString &name);
    // A lane of a source's lines per second (the source selected in the Sources dock).
    void addSourceLane();
    bool exportFigure(const QString &path, int width, int height, double scale, QString *error);

    // Live capture into side A (B: the run open now, if `withReference`). False with a
    // message when the port cannot be opened.
    bool startCapture(const CaptureOptions &options, bool withReference, QString *error);
    void stopCapture();
    // The capture shown (running or stopped), until something else is opened or captured.
    LiveController *live() const { return m_live; }
    // A capture is running: its run grows on the GUI thread.
    bool capturing() const;
    LiveBar *liveBar() const { return m_liveBar; }

    void setAlignment(const Alignment &a);
    // Reads the files open now again with `baud` for a side (two boards at different
    // rates; a console the 115200 default could not have carried). False with a message
    // when the session is not the files of the last open (a capture).
    bool setSideBaud(int side, int baud, QString *error);
    // A lane of matches per second for a regex; computed in the background.
    void setPatterns(const QStringList &regexes, bool wait = false);
    // Moves the log and the timeline to an event (not QWidget::showEvent).
    void showEventAt(int timelineRun, int eventIndex);
    void showTime(double x);

protected:
    void closeEvent(QCloseEvent *e) override;
    void dragEnterEvent(QDragEnterEvent *e) override;
    void dropEvent(QDropEvent *e) override;

private:
    void buildActions();
    void askSideBaud(int side);
    void buildDocks();
    void onLoaded(const LoadResult &result);
    void setSession(Session session);
    // Two selections of the boots of the single capture on screen as sides A and B.
    void compareBoots(const QString &a, const QString &b);
    void refreshMetrics();
    // The session's metrics, computed once (exports reuse what the metrics dock shows).
    std::shared_ptr<const Report> currentReport();
    void refreshTimelineRuns();
    void onLogLineChanged(int side, LineIndex line);
    void stepEvent(int direction, bool ofSelectedKind);
    void updateRecentMenu();
    void exportDialog();
    void copyImage();
    void compareDialog();
    void openDialog();
    void showShortcuts();
    void showAbout();
    void alignOnCurrentLine();
    void captureDialog();
    void onLiveUpdated();
    // Stops the capture and lets its controller go (what it showed stays, as a file would).
    void endCapture();
    void onLiveAlert(EventKind kind, const QString &text);
    void dropMarker();
    void addPatternLane(const QString &regex);
    // The Sources dock (mainwindow_sources.cpp).
    void buildSourcesDock();
    void onSourcesReady(const std::shared_ptr<const SessionSources> &sources);
    void onSourceSelected();
    // The source of the Sources dock's selected row: what its lines share (by the dock's
    // grouping), its template and whether it is a kernel one.
    struct SelectedSource
    {
        QString key, templ;
        bool kernel = true;
        SourceGrouping by = SourceGrouping::Template;
        bool operator==(const SelectedSource &o) const
        {
            return key == o.key && templ == o.templ && kernel == o.kernel && by == o.by;
        }
    };
    std::optional<SelectedSource> selectedSource() const;
    // The lines of a source in every timeline run (a scan of 16 M template ids at 1 GiB),
    // found on a worker; the log filter, the highlight and "Add as lane" take them.
    struct SourceLines;
    // The lines of a source in every timeline run, on a worker; `withTimes` also their
    // arrival times, for a lane.
    void findSourceLines(const SelectedSource &source, bool withTimes);
    void onSourceLinesFound();
    void applySourceFilter(const SourceLines &found);
    void addSourceLaneOf(const SourceLines &found);
    void clearSources();
    // The stacked lanes of wire time by source, one per side, when their action is on.
    void showSourceLanes();

    Session m_session;
    // The single multi-boot capture whose boots can be compared (and restored).
    Session m_bootBase;
    OpenRequest m_pending;
    QVector<QPair<int, int>> m_runIndex; // timeline run -> (side, trial)
    RunLoadJob *m_job;
    BackgroundAnalysis *m_analysis;         // metrics and pattern lanes, off the GUI thread
    std::shared_ptr<const Report> m_report; // of m_session; null until computed
    TimelineView *m_timeline;
    QSplitter *m_logs;
    QVector<LogPane *> m_panes;
    EventList *m_events;
    MetricsPanel *m_metrics;
    NoticeBar *m_notices;
    QDockWidget *m_eventDock = nullptr;
    QDockWidget *m_metricsDock = nullptr;
    SourcesPanel *m_sourcesPanel = nullptr;
    QDockWidget *m_sourcesDock = nullptr;
    std::shared_ptr<const SessionSources> m_sources; // of m_report; null until computed
    QVector<PatternSeries> m_patternLanes;           // of the user's regexes
    QVector<PatternSeries> m_sourceLanes;            // added from the Sources dock
    BackgroundTask<std::shared_ptr<const SourceLines>> m_sourceLinesTask;
    std::shared_ptr<const SourceLines> m_sourceLinesFound; // of the last selection
    bool m_addLaneWhenFound = false;
    QLabel *m_statusText;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QComboBox *m_align;
    QLineEdit *m_alignRegex;
    QComboBox *m_axisMode;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_lanesMenu = nullptr;
    QAction *m_sourceLaneAction = nullptr; // View > Lanes and the Sources dock: the stacked lane
    QAction *m_showControls = nullptr;     // View: escape sequences shown in the log text
    QAction *m_timesInText = nullptr;      // View: kernel timestamps kept in the log text
    bool m_loading = false;
    LiveController *m_live = nullptr;
    LiveBar *m_liveBar = nullptr;
    QElapsedTimer m_metricsClock;
    // A live update that came too soon after the last refresh is taken up by this timer:
    // when the data stops (after a panic none comes), the panel still catches up within 1 s.
    QTimer *m_metricsLater = nullptr;
};

} // namespace tty
