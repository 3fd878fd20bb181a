// The timeline's state: runs, titles, time axis, visible range, highlights and export.
#include "timelineview.h"

#include "laneplot.h"
#include "palette.h"

#include <QPicture>
#include <QRubberBand>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>

namespace tty {

namespace {
constexpr QCP::AntialiasedElements kScreenAliased = QCP::aeScatters | QCP::aePlottables;
} // namespace

TimelineView::TimelineView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    // At small window sizes the lanes keep a legible height and the lane area scrolls,
    // rather than shrinking until tick labels print on top of each other.
    m_scroll = new QScrollArea(this);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(m_scroll);
    m_plot = new LanePlot(m_scroll);
    m_scroll->setWidget(m_plot);
    // Never wider than the view: the scroll area would otherwise take the plot's layout
    // minimum (legend, title) and cut its right side off.
    m_plot->setMinimumWidth(100);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setAutoAddPlottableToLegend(false); // the legend lists runs and event kinds once
    m_plot->setNoAntialiasingOnDrag(true);
    // On screen, lanes and symbols are drawn without antialiasing: a lane of a thousand
    // busy steps costs ~10 ms antialiased (QCustomPlot strokes each segment) and a fraction
    // of that without. Exports draw everything antialiased.
    m_plot->setNotAntialiasedElements(kScreenAliased);
    m_plot->setPlottingHint(QCP::phFastPolylines, true); // one polyline, not a line per step
    m_plot->setMouseTracking(true);
    m_plot->installEventFilter(this);
    m_plot->addLayer(QStringLiteral("markers"), m_plot->layer(QStringLiteral("main")),
                     QCustomPlot::limAbove);
    m_plot->layer(QStringLiteral("markers"))->setMode(QCPLayer::lmBuffered);
    m_plot->addLayer(QStringLiteral("cursor"), m_plot->layer(QStringLiteral("markers")),
                     QCustomPlot::limAbove);
    m_plot->layer(QStringLiteral("cursor"))->setMode(QCPLayer::lmBuffered);
    m_ticker.reset(new TimeTicker);
    // A resize of the view resizes the plot first (the view's layout runs before its own
    // resize handler), and that replot is where the view's new width is taken: the title
    // and legend fitted to it, then, with the lanes' real width (first layout, resize,
    // lanes shown or hidden), the series and markers taken again (about one bin per pixel,
    // one marker per screen bucket). Both are laid out again and drawn by the replot under
    // way (LanePlot), not by a second one.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (!m_rendering && screenPlotWidth() != m_fittedWidth) { // not while exporting
            fitWidth(screenPlotWidth());
            m_plot->requestReplot();
        }
        if (laneWidth() != m_dataWidth) {
            refreshData();
        }
        fitHeight();
    });
    m_lanes.resize(LaneCount);
    m_band = new QRubberBand(QRubberBand::Rectangle, m_plot);
    buildLayout();
}

TimelineView::~TimelineView() = default;

QCustomPlot *TimelineView::plot() const
{
    return m_plot;
}

void TimelineView::chooseDrawnRuns()
{
    m_sideTrials.clear();
    m_drawn.resize(m_runs.size());
    for (int ri = 0; ri < m_runs.size(); ++ri) {
        const int side = std::max(0, m_runs[ri].group);
        if (side >= m_sideTrials.size()) {
            m_sideTrials.resize(side + 1, 0);
        }
        m_drawn[ri] = m_sideTrials[side]++ < kMaxTrialsDrawn;
    }
}

void TimelineView::setRuns(const QVector<TimelineRun> &runs)
{
    m_runs = runs;
    chooseDrawnRuns();
    buildLayout();
    resetZoom();
}

void TimelineView::updateRuns(const QVector<TimelineRun> &runs)
{
    const double lo = xLower(), hi = xUpper();
    m_runs = runs;
    chooseDrawnRuns();
    m_syncing = true; // the rebuild itself is not the user moving the view
    buildLayout();
    m_syncing = false;
    setXRange(lo, hi);
}

void TimelineView::setTitle(const QString &title)
{
    m_fullTitle = title;
    fitWidth(screenPlotWidth());
    m_plot->requestReplot();
}

QString TimelineView::title() const
{
    return m_fullTitle;
}

void TimelineView::setAxisTitle(const QString &title)
{
    if (title == m_axisTitle) {
        return;
    }
    m_axisTitle = title;
    buildLayout();
}

void TimelineView::setTimeAxisMode(TimeAxisMode mode)
{
    if (mode == m_ticker->mode() && mode == TimeAxisMode::Relative) {
        return; // nothing to redo (a rebuild would only cost time)
    }
    m_ticker->setMode(mode);
    if (!m_runs.isEmpty() && !m_runs.front().run->boots.empty()) {
        const Run &r = *m_runs.front().run;
        m_ticker->setWallOrigin(toSeconds(r.origin.sinceOrigin()) + m_runs.front().shift);
        const Boot &b = r.boots.front();
        const double kz =
            b.kernelZero && r.hasArrival ? toSeconds(*b.kernelZero - r.origin) : b.timeBase.count();
        m_ticker->setKernelOrigin(m_runs.front().shift - kz);
    }
    buildLayout();
}

TimeAxisMode TimelineView::timeAxisMode() const
{
    return m_ticker->mode();
}

void TimelineView::setLaneVisible(Lane lane, bool visible)
{
    m_lanes[lane].visible = visible;
    const double lo = xLower(), hi = xUpper();
    buildLayout();
    setXRange(lo, hi);
}

bool TimelineView::laneVisible(Lane lane) const
{
    return m_lanes[lane].visible;
}

void TimelineView::applyTheme()
{
    const QColor fg = plotForeground(), bg = plotBackground(), grid = plotGrid();
    m_plot->setBackground(bg);
    for (QCPAxisRect *rect : m_plot->axisRects()) {
        for (QCPAxis *a : rect->axes()) {
            a->setBasePen(QPen(fg));
            a->setTickPen(QPen(fg));
            a->setSubTickPen(QPen(fg));
            a->setTickLabelColor(fg);
            a->setLabelColor(fg);
            a->grid()->setPen(QPen(grid, 1, Qt::DotLine));
        }
    }
    if (m_title) {
        m_title->setTextColor(fg);
    }
    QVector<QCPLegend *> legends = m_sourceLegends;
    legends << m_legend;
    for (QCPLegend *l : legends) {
        if (l) {
            l->setTextColor(fg);
            l->setBrush(bg);
            l->setBorderPen(Qt::NoPen);
        }
    }
}

QPair<double, double> TimelineView::fullRange() const
{
    double lo = 0, hi = 1;
    bool first = true;
    for (int ri = 0; ri < m_runs.size(); ++ri) {
        const Run &r = *m_runs[ri].run;
        if (r.lines.empty() || !isDrawn(ri)) {
            continue;
        }
        // From the first line's time (run second 0 with host times; a raw capture of a
        // running board starts at its kernel time, not 0) or the first production before it.
        const double start = r.timeOf(LineIndex(0)).value_or(RunSeconds(0)).count();
        double a = runX(ri, std::min(start, r.series.start()));
        const std::optional<RunSeconds> last = r.timeOf(r.lines.endIndex() - 1_lines);
        double b = runX(ri, last ? std::max(last->count(), r.series.end()) : r.series.end());
        if (!m_runs[ri].clipX(a, b)) {
            continue; // a boot trial shows its boot only
        }
        lo = first ? a : std::min(lo, a);
        hi = first ? b : std::max(hi, b);
        first = false;
    }
    const double pad = (hi - lo) * 0.01;
    return {lo - pad, hi + pad};
}

void TimelineView::resetZoom()
{
    const auto [lo, hi] = fullRange();
    setXRange(lo, hi);
}

double TimelineView::xLower() const
{
    for (const LaneState &l : m_lanes) {
        if (l.rect) {
            return l.rect->axis(QCPAxis::atBottom)->range().lower;
        }
    }
    return 0;
}

double TimelineView::xUpper() const
{
    for (const LaneState &l : m_lanes) {
        if (l.rect) {
            return l.rect->axis(QCPAxis::atBottom)->range().upper;
        }
    }
    return 1;
}

void TimelineView::setXRange(double lower, double upper)
{
    m_programmatic = true;
    for (const LaneState &l : m_lanes) {
        if (l.rect) {
            l.rect->axis(QCPAxis::atBottom)->setRange(lower, upper);
            break; // the others follow in onXRangeChanged
        }
    }
    m_programmatic = false;
    refreshData();
}

void TimelineView::onXRangeChanged(const QCPRange &range)
{
    if (m_syncing) {
        return;
    }
    m_syncing = true;
    for (const LaneState &l : m_lanes) {
        if (l.rect) {
            l.rect->axis(QCPAxis::atBottom)->setRange(range);
        }
    }
    m_syncing = false;
    refreshData();
    emit rangeChanged(range.lower, range.upper);
    if (!m_programmatic) {
        emit userMovedView();
    }
}

int TimelineView::laneWidth() const
{
    for (const LaneState &l : m_lanes) {
        if (l.rect) {
            return l.rect->width();
        }
    }
    return 0;
}

void TimelineView::renderTo(QCPPainter *painter, int width, int height)
{
    // The export's layouts are not the screen's: its title and legend keep the export width.
    m_rendering = true;
    setLaneMinimums(kMinExportLaneHeight);
    fitWidth(width);
    {
        // A first pass lays the lanes out at the export size, so that the series are then
        // taken at one bin per exported pixel.
        QPicture scratch;
        QCPPainter p(&scratch);
        m_plot->toPainter(&p, width, height);
    }
    refreshData();
    m_plot->setNotAntialiasedElements(QCP::aeNone);
    m_plot->toPainter(painter, width, height);
    m_plot->setNotAntialiasedElements(kScreenAliased);
    m_renderRects.clear();
    for (const LaneState &l : m_lanes) {
        m_renderRects.append(l.rect ? l.rect->rect() : QRect());
    }
    m_renderFrame = {
        m_title ? m_title->outerRect() : QRect(), m_legend ? m_legend->outerRect() : QRect(),
        m_title ? m_title->text() : QString(), m_legend ? m_legend->minimumSize().height() : 0};
    m_rendering = false;
    setLaneMinimums(kMinLaneHeight);
    fitWidth(screenPlotWidth());
    m_plot->replot(); // back to the on-screen layout
    refreshData();
}

int TimelineView::minimumRenderHeight(int width)
{
    // The lanes' margins (tick labels, the axis title) are known once laid out at the
    // export's width; the layout's minimum is then the sum of what each row needs.
    m_rendering = true;
    setLaneMinimums(kMinExportLaneHeight);
    fitWidth(width);
    {
        QPicture scratch;
        QCPPainter p(&scratch);
        m_plot->toPainter(&p, width, std::max(m_plot->height(), 2000));
    }
    const int h = m_plot->plotLayout()->minimumOuterSizeHint().height();
    setLaneMinimums(kMinLaneHeight);
    m_rendering = false;
    fitWidth(screenPlotWidth());
    return h;
}

QCPGraph *TimelineView::laneGraph(Lane lane, int run) const
{
    const LaneState &l = m_lanes[lane];
    return run < l.graphs.size() ? l.graphs[run] : nullptr;
}

QCPGraph *TimelineView::markerGraph(int run, EventKind kind) const
{
    for (const MarkerGraph &m : m_markers) {
        if (m.run == run && m.kind == kind) {
            return m.graph;
        }
    }
    return nullptr;
}

void TimelineView::setHighlight(double x0, double x1)
{
    if (x1 - x0 < (xUpper() - xLower()) * 0.002) {
        // Keep a single line's span visible.
        const double mid = (x0 + x1) / 2, half = (xUpper() - xLower()) * 0.001;
        x0 = mid - half;
        x1 = mid + half;
    }
    for (LaneState &l : m_lanes) {
        if (l.rect) {
            l.highlight->topLeft->setCoords(x0, 0);
            l.highlight->bottomRight->setCoords(x1, 1);
            l.highlight->setVisible(true);
        }
    }
    m_plot->requestReplot();
}

std::optional<QPair<double, double>> TimelineView::highlight() const
{
    for (const LaneState &l : m_lanes) {
        if (l.rect && l.highlight && l.highlight->visible()) {
            return QPair<double, double>(l.highlight->topLeft->coords().x(),
                                         l.highlight->bottomRight->coords().x());
        }
    }
    return std::nullopt;
}

void TimelineView::clearHighlight()
{
    for (LaneState &l : m_lanes) {
        if (l.rect) {
            l.highlight->setVisible(false);
        }
    }
    m_plot->requestReplot();
}

void TimelineView::setCursorX(double x)
{
    for (LaneState &l : m_lanes) {
        if (l.rect) {
            l.cursor->point1->setCoords(x, 0);
            l.cursor->point2->setCoords(x, 1);
            l.cursor->setVisible(std::isfinite(x));
        }
    }
    m_plot->layer(QStringLiteral("cursor"))->replot();
}

void TimelineView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        // Light/dark switch: plot colours follow the application palette.
        const double lo = xLower(), hi = xUpper();
        buildLayout();
        setXRange(lo, hi);
    }
}

int TimelineView::screenPlotWidth() const
{
    // The vertical scroll bar's room is kept whether it shows or not, so that its coming
    // and going does not re-wrap the legend.
    return width() - m_scroll->verticalScrollBar()->sizeHint().width();
}

} // namespace tty
