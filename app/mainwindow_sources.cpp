// The Sources dock of the main window (issue 14): who floods the console. The sources are
// computed in the background after the metrics; selecting one filters the log of its side
// to its lines and highlights its time on the lanes; "Add as lane" plots its lines/s.
#include "backgroundanalysis.h"
#include "logpane.h"
#include "mainwindow.h"
#include "sourcespanel.h"
#include "timelineview.h"

#include <QDockWidget>
#include <QTableView>

namespace tty {

namespace {

// The lines of one template of a run, by its text (each run has its own template ids).
std::vector<LineIndex> linesOfTemplate(const SourceIndex &index, const QString &templ, bool kernel)
{
    std::vector<LineIndex> out;
    const std::optional<std::uint32_t> id = index.find(templ.toStdString(), kernel);
    if (!id) {
        return out;
    }
    for (LineIndex i(0); i < LineIndex(0) + index.lines(); ++i) {
        if (index.templateOf(i) == *id) {
            out.push_back(i);
        }
    }
    return out;
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
    connect(m_sourcesPanel, &SourcesPanel::sourceSelected, this, &MainWindow::onSourceSelected);
    connect(m_sourcesPanel, &SourcesPanel::addLaneRequested, this, &MainWindow::addSourceLane);
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
    m_sourcesPanel->setSources(nullptr);
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
    m_sources = sources;
    m_sourcesPanel->setSources(sources->sources);
}

std::optional<MainWindow::SelectedSource> MainWindow::selectedSource() const
{
    const QModelIndexList rows = m_sourcesPanel->table()->selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        return std::nullopt;
    }
    const int row = rows.front().row();
    if (const SourceStat *s = m_sourcesPanel->sourceAt(row)) {
        return SelectedSource{s->templ, s->kernel};
    }
    if (const SourceDiff *d = m_sourcesPanel->diffAt(row)) {
        return SelectedSource{d->templ, d->kernel};
    }
    return std::nullopt;
}

void MainWindow::onSourceSelected()
{
    if (!m_sources) {
        return;
    }
    const std::optional<SelectedSource> chosen = selectedSource();
    if (!chosen) {
        return;
    }
    const SourceReport &sr = *m_sources->sources;
    const Report &report = sr.report();
    const auto [column, trial] = m_sourcesPanel->shown();
    const QString &templ = chosen->templ;
    const bool kernel = chosen->kernel;
    // Each side's log: the trial shown (a comparison: each side's first), filtered to the
    // source's lines; the timeline highlights the span from its first to its last line.
    bool highlighted = false;
    for (int side = 0; side < m_panes.size() && std::size_t(side) < report.columns().size();
         ++side) {
        if (column >= 0 && side != column) {
            continue;
        }
        const int t = column >= 0 ? trial : 0;
        LogPane *pane = m_panes[side];
        if (pane->trial() != t) {
            pane->setTrial(t);
        }
        const Run *run = report.columns()[std::size_t(side)].runs[std::size_t(t)];
        const SourceIndex *index = sr.index(run);
        if (!index || pane->run() != run) {
            continue;
        }
        auto lines =
            std::make_shared<const std::vector<LineIndex>>(linesOfTemplate(*index, templ, kernel));
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
    if (!m_sources) {
        return;
    }
    const std::optional<SelectedSource> chosen = selectedSource();
    if (!chosen) {
        return;
    }
    const QString &templ = chosen->templ;
    const bool kernel = chosen->kernel;
    // The lane's lines per second in every run on the timeline, by arrival time.
    PatternSeries ps;
    ps.regex = tr("source: %1").arg(templ);
    for (const auto &[side, trial] : m_runIndex) {
        std::vector<double> times;
        const Run &run = *m_session.sides[side].trials[trial].run;
        if (const SourceIndex *index = m_sources->sources->index(&run)) {
            for (const LineIndex i : linesOfTemplate(*index, templ, kernel)) {
                if (const std::optional<RunSeconds> at = run.timeOf(i)) {
                    times.push_back(at->count());
                }
            }
        }
        ps.times.append(std::move(times));
    }
    m_sourceLanes.append(ps);
    m_timeline->setPatternLanes(m_patternLanes + m_sourceLanes);
}

} // namespace tty
