// The Sources dock of the main window (issue 14): who floods the console. The sources are
// computed in the background after the metrics; selecting one filters the log of its side
// to its lines and highlights its time on the lanes; "Add as lane" plots its lines/s; the
// stacked lanes show the top sources' wire time over time.
#include "backgroundanalysis.h"
#include "logpane.h"
#include "mainwindow.h"
#include "sourcespanel.h"
#include "timelineview.h"

#include <QDockWidget>
#include <QTableView>

namespace tty {

struct MainWindow::SourceLines
{
    SelectedSource source;
    // Per timeline run: the source's lines in its trial, and their arrival times when a
    // lane was asked for (8 bytes a line more: a flood's source in a 10 GiB log is 140 M
    // lines, and the window is meant to stay within 6 GiB).
    QVector<std::shared_ptr<const std::vector<LineIndex>>> lines;
    bool withTimes = false;
    QVector<std::vector<double>> times;
};

namespace {

// The lines of a source in [first, end) of a run, by its key (each run has its own
// template ids: a template is found by its text).
std::vector<LineIndex> linesOf(const Run &run, const SourceIndex &index, const QString &key,
                               const QString &templ, bool kernel, SourceGrouping by,
                               LineIndex first, LineIndex end)
{
    SourceStat s;
    s.key = key;
    s.kernel = kernel;
    if (by == SourceGrouping::Template) {
        const std::optional<std::uint32_t> id = index.find(templ.toStdString(), kernel);
        if (!id) {
            return {};
        }
        s.templateId = *id;
    }
    return linesOfSource(run, index, s, by, first, end);
}

} // namespace

void MainWindow::buildSourcesDock()
{
    m_sourcesPanel = new SourcesPanel(this);
    m_sourcesDock = new QDockWidget(tr("Sources"), this);
    m_sourcesDock->setObjectName(QStringLiteral("sourcesDock"));
    m_sourcesDock->setWidget(m_sourcesPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_sourcesDock);
    tabifyDockWidget(m_metricsDock, m_sourcesDock);
    connect(m_sourceLinesTask.watcher(), &QFutureWatcherBase::finished, this,
            &MainWindow::onSourceLinesFound);
    connect(m_sourcesPanel, &SourcesPanel::sourceSelected, this, &MainWindow::onSourceSelected);
    connect(m_sourcesPanel, &SourcesPanel::addLaneRequested, this, &MainWindow::addSourceLane);
    connect(m_sourcesPanel, &SourcesPanel::groupingChanged, this, [this](SourceGrouping by) {
        // The same report's sources again, in the new grouping (the indexes are kept).
        if (m_report) {
            m_analysis->computeSources(m_report, by, m_sources);
        }
    });
}

bool MainWindow::raisePane(const QString &name)
{
    QDockWidget *d = name == QLatin1String("events")    ? m_eventDock
                     : name == QLatin1String("metrics") ? m_metricsDock
                     : name == QLatin1String("sources") ? m_sourcesDock
                                                        : nullptr;
    if (d) {
        d->raise();
    }
    return d != nullptr;
}

void MainWindow::clearSources()
{
    m_sources.reset();
    m_sourceLinesFound.reset();
    m_addLaneWhenFound = false;
    m_sourcesPanel->setSources(nullptr);
    if (!m_timeline->sourceLanes().isEmpty()) {
        m_timeline->setSourceLanes({});
    }
    if (!m_sourceLanes.isEmpty()) {
        m_sourceLanes.clear();
        m_timeline->setPatternLanes(m_patternLanes);
    }
}

void MainWindow::onSourcesReady(const std::shared_ptr<const SessionSources> &sources)
{
    // Sources of an older report (the options changed meanwhile) are dropped.
    if (!sources || sources->report != m_report) {
        return;
    }
    const bool sameLanes = m_sources && m_sources->series == sources->series;
    m_sources = sources;
    m_sourceLinesFound.reset();
    m_sourcesPanel->setSources(sources->sources);
    if (!sameLanes) {
        showSourceLanes();
    }
}

void MainWindow::showSourceLanes()
{
    QVector<SourceLane> lanes;
    if (m_sources && m_sourceLaneAction && m_sourceLaneAction->isChecked()) {
        // Each side's first trial, on its own time axis; its own top sources.
        for (std::size_t c = 0; c < m_sources->series.size(); ++c) {
            const int run = int(m_runIndex.indexOf(QPair<int, int>(int(c), 0)));
            if (run >= 0 && m_sources->series[c]) {
                lanes.append(SourceLane{run, m_sources->series[c]});
            }
        }
    }
    if (!lanes.isEmpty() || !m_timeline->sourceLanes().isEmpty()) {
        m_timeline->setSourceLanes(lanes);
    }
}

std::optional<MainWindow::SelectedSource> MainWindow::selectedSource() const
{
    const QModelIndexList rows = m_sourcesPanel->table()->selectionModel()->selectedRows();
    if (rows.isEmpty() || !m_sourcesPanel->sources()) {
        return std::nullopt;
    }
    const int row = rows.front().row();
    const SourceGrouping by = m_sourcesPanel->sources()->options().by;
    if (const SourceStat *s = m_sourcesPanel->sourceAt(row)) {
        return SelectedSource{s->key, s->templ, s->kernel, by};
    }
    if (const SourceDiff *d = m_sourcesPanel->diffAt(row)) {
        return SelectedSource{d->key, d->templ, d->kernel, by};
    }
    return std::nullopt;
}

void MainWindow::onSourceSelected()
{
    if (const std::optional<SelectedSource> chosen = selectedSource(); m_sources && chosen) {
        m_addLaneWhenFound = false;
        findSourceLines(*chosen, false);
    }
}

void MainWindow::findSourceLines(const SelectedSource &source, bool withTimes)
{
    // Every timeline run's trial: its run, its index and the lines its metrics measured.
    struct Job
    {
        std::shared_ptr<const Run> run;
        const SourceIndex *index;
        LineIndex first, end;
    };
    std::vector<Job> jobs;
    const Report &report = *m_sources->report;
    for (const auto &[side, trial] : m_runIndex) {
        const std::shared_ptr<const Run> &run = m_session.sides[side].trials[trial].run;
        const Metrics *m = report.trialMetrics(side, trial);
        // A run the report does not cover has no lines of the source (one entry per run
        // all the same: onSourceLinesFound matches them to the timeline's runs).
        jobs.push_back({run, m ? m_sources->sources->index(run.get()) : nullptr,
                        m ? m->first : LineIndex(0), m ? m->end : LineIndex(0)});
    }
    // The scan runs on a worker: a source of a 1 GiB log is 16 M ids away (docs/benchmarks.md).
    // The sources (and with them the indexes) are held until it ends.
    m_sourceLinesTask.start([jobs = std::move(jobs), source, withTimes,
                             keep = m_sources]() -> std::shared_ptr<const SourceLines> {
        auto found = std::make_shared<SourceLines>();
        found->source = source;
        found->withTimes = withTimes;
        for (const Job &j : jobs) {
            auto lines = std::make_shared<std::vector<LineIndex>>();
            std::vector<double> times;
            if (j.index) {
                *lines = linesOf(*j.run, *j.index, source.key, source.templ, source.kernel,
                                 source.by, j.first, j.end);
            }
            if (j.index && withTimes) {
                times.reserve(lines->size());
                for (const LineIndex i : *lines) {
                    if (const std::optional<RunSeconds> at = j.run->timeOf(i)) {
                        times.push_back(at->count());
                    }
                }
            }
            found->lines.append(std::move(lines));
            found->times.append(std::move(times));
        }
        return found;
    });
}

void MainWindow::onSourceLinesFound()
{
    const std::optional<std::shared_ptr<const SourceLines>> result = m_sourceLinesTask.result();
    if (!result) {
        return;
    }
    const std::shared_ptr<const SourceLines> found = *result;
    // Only the lines of the source selected now, of the sources on screen now.
    const std::optional<SelectedSource> chosen = selectedSource();
    if (!m_sources || !chosen || !(*chosen == found->source) ||
        found->lines.size() != m_runIndex.size()) {
        return;
    }
    const bool sameLines = m_sourceLinesFound && m_sourceLinesFound->source == found->source;
    m_sourceLinesFound = found;
    if (!sameLines) {
        applySourceFilter(*found);
    }
    if (m_addLaneWhenFound) {
        if (!found->withTimes) {
            findSourceLines(found->source, true); // the lane asked for while these were found
            return;
        }
        m_addLaneWhenFound = false;
        addSourceLaneOf(*found);
    }
}

void MainWindow::applySourceFilter(const SourceLines &found)
{
    const auto [column, trial] = m_sourcesPanel->shown();
    // Each side's log: the trial shown (a comparison: each side's first), filtered to the
    // source's lines; the timeline highlights the span from its first to its last line.
    bool highlighted = false;
    for (int side = 0; side < m_panes.size(); ++side) {
        if (column >= 0 && side != column) {
            continue;
        }
        const int t = column >= 0 ? trial : 0;
        LogPane *pane = m_panes[side];
        if (pane->trial() != t) {
            pane->setTrial(t);
        }
        const int k = int(m_runIndex.indexOf(QPair<int, int>(side, t)));
        if (k < 0) {
            continue;
        }
        const std::shared_ptr<const std::vector<LineIndex>> &lines = found.lines[k];
        const Run *run = m_session.sides[side].trials[t].run.get();
        if (pane->run() != run) {
            continue;
        }
        pane->view()->model()->setFilter(lines);
        if (lines->empty()) {
            continue;
        }
        pane->view()->showLine(lines->front());
        const TimelineRun tr = m_timeline->runs().value(pane->timelineRun());
        const std::optional<RunSeconds> a = run->timeOf(lines->front());
        const std::optional<RunSeconds> b = run->timeOf(lines->back());
        if (a && b && !highlighted) {
            m_timeline->setHighlight(tr.xOf(*a), tr.xOf(*b));
            highlighted = true;
        }
    }
}

void MainWindow::addSourceLane()
{
    const std::optional<SelectedSource> chosen = selectedSource();
    if (!m_sources || !chosen) {
        return;
    }
    if (m_sourceLinesFound && m_sourceLinesFound->source == *chosen &&
        m_sourceLinesFound->withTimes) {
        addSourceLaneOf(*m_sourceLinesFound);
        return;
    }
    // The lines' times are found first (or the lines still being found come first): the
    // lane follows when they are.
    m_addLaneWhenFound = true;
    if (!m_sourceLinesTask.isRunning()) {
        findSourceLines(*chosen, true);
    }
}

void MainWindow::addSourceLaneOf(const SourceLines &found)
{
    // The lane's lines per second in every run on the timeline, by arrival time.
    PatternSeries ps;
    const QString &name = found.source.by == SourceGrouping::Template || found.source.key.isEmpty()
                              ? found.source.templ
                              : found.source.key;
    ps.regex = found.source.by == SourceGrouping::Template
                   ? tr("source: %1").arg(name)
                   : tr("%1: %2").arg(sourceGroupingName(found.source.by), name);
    ps.times = found.times;
    m_sourceLanes.append(ps);
    m_timeline->setPatternLanes(m_patternLanes + m_sourceLanes);
}

} // namespace tty
