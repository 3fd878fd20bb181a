#include "timelineview.h"

#include "crashes.h"
#include "lanedata.h"
#include "palette.h"

#include <QMouseEvent>
#include <QPicture>
#include <QRubberBand>
#include <QToolTip>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tty {

namespace {
constexpr double kMarkerHitPixels = 7;
constexpr QCP::AntialiasedElements kScreenAliased = QCP::aeScatters | QCP::aePlottables;

QString laneTitle(TimelineView::Lane lane)
{
    switch (lane) {
    case TimelineView::Produced:
        return QStringLiteral("produced+\ndropped/s");
    case TimelineView::Printed:
        return QStringLiteral("printed\nlines/s");
    case TimelineView::Wire:
        return QStringLiteral("on the wire\nbytes/s");
    case TimelineView::Drops:
        return QStringLiteral("dropped\nmessages");
    case TimelineView::Lag:
        return QStringLiteral("console\nlag (s)");
    case TimelineView::Events:
        return QStringLiteral("events");
    case TimelineView::LaneCount:
        break;
    }
    return {};
}

bool laneNeedsArrival(TimelineView::Lane lane)
{
    return lane == TimelineView::Printed || lane == TimelineView::Wire || lane == TimelineView::Lag;
}

QString fmtValue(double v)
{
    if (std::fabs(v) >= 100) {
        return QString::number(v, 'f', 0);
    }
    return QString::number(v, 'g', 3);
}
} // namespace

TimelineView::TimelineView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    layout->addWidget(m_plot);
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
    // Lanes take about one bin per pixel and markers merge per screen bucket: when the
    // lanes get their real width (first layout, resize, lanes shown or hidden), take the
    // series again for that width.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (laneWidth() != m_dataWidth) {
            refreshData(); // queues a replot with the new data
        }
    });
    m_lanes.resize(LaneCount);
    m_band = new QRubberBand(QRubberBand::Rectangle, m_plot);
    buildLayout();
}

TimelineView::~TimelineView() = default;

QString TimelineView::laneName(Lane lane)
{
    return laneTitle(lane).replace(u'\n', u' ');
}

void TimelineView::setRuns(const QVector<TimelineRun> &runs)
{
    m_runs = runs;
    buildLayout();
    resetZoom();
}

void TimelineView::updateRuns(const QVector<TimelineRun> &runs)
{
    const double lo = xLower(), hi = xUpper();
    m_runs = runs;
    m_syncing = true; // the rebuild itself is not the user moving the view
    buildLayout();
    m_syncing = false;
    setXRange(lo, hi);
}

void TimelineView::setTitle(const QString &title)
{
    m_title->setText(title);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString TimelineView::title() const
{
    return m_title->text();
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
        m_ticker->setWallOrigin(double(r.origin.count()) * 1e-9 + m_runs.front().shift);
        const Boot &b = r.boots.front();
        const double kz = b.kernelZero && r.hasArrival
                              ? double((*b.kernelZero - r.origin).count()) * 1e-9
                              : b.timeBase;
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
    if (m_legend) {
        m_legend->setTextColor(fg);
        m_legend->setBrush(bg);
        m_legend->setBorderPen(Qt::NoPen);
    }
}

void TimelineView::buildLayout()
{
    // Which rows the event lane needs: kinds present in any run, in a fixed order.
    QVector<bool> present(kEventKindCount, false);
    for (const TimelineRun &r : m_runs) {
        for (const Event &e : r.run->events) {
            present[int(e.kind)] = true;
        }
    }
    m_kindRows.clear();
    for (int k = kEventKindCount - 1; k >= 0; --k) {
        if (present[k]) {
            m_kindRows.prepend(EventKind(k));
        }
    }

    const QString oldTitle = m_title ? m_title->text() : QString();
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_plot->plotLayout()->clear();
    m_markers.clear();
    QFont titleFont = font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title = new QCPTextElement(m_plot, oldTitle, titleFont);
    m_title->setMargins(QMargins(0, 8, 0, 2));
    m_plot->plotLayout()->addElement(0, 0, m_title);
    auto *margins = new QCPMarginGroup(m_plot);
    int row = 1;
    int lastVisible = -1;
    const QVector<int> order = laneOrder();
    for (int l : order) {
        if (m_lanes[l].visible) {
            lastVisible = l;
        }
    }
    for (int l : order) {
        LaneState &lane = m_lanes[l];
        lane.rect = nullptr;
        lane.graphs.clear();
        lane.extra.clear();
        if (!lane.visible) {
            continue;
        }
        auto *rect = new QCPAxisRect(m_plot);
        m_plot->plotLayout()->addElement(row, 0, rect);
        // The event lane needs room for one row per kind present.
        m_plot->plotLayout()->setRowStretchFactor(
            row, l == Events ? std::max(1.3, 0.28 * std::max(1, int(m_kindRows.size()))) : 1.0);
        ++row;
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
        QCPAxis *x = rect->axis(QCPAxis::atBottom);
        QCPAxis *y = rect->axis(QCPAxis::atLeft);
        x->setTicker(m_ticker);
        x->setTickLabels(l == lastVisible);
        if (l == lastVisible) {
            QString t = m_axisTitle.isEmpty() ? QStringLiteral("seconds from the start of the run")
                                              : m_axisTitle;
            if (m_ticker->mode() == TimeAxisMode::WallClock) {
                t = QStringLiteral("wall-clock time (UTC)");
            } else if (m_ticker->mode() == TimeAxisMode::Kernel) {
                t = QStringLiteral("kernel time (s) of %1")
                        .arg(m_runs.isEmpty() ? QString() : m_runs.front().label);
            }
            x->setLabel(t);
        }
        y->setLabel(laneLabel(l));
        y->setPadding(4);
        y->ticker()->setTickCount(3); // short lanes: few labels that never overlap
        rect->axis(QCPAxis::atRight)->setVisible(l == Wire);
        rect->axis(QCPAxis::atRight)->setLabel(QStringLiteral("% of UART"));
        rect->axis(QCPAxis::atRight)->setTickLabels(true);
        rect->axis(QCPAxis::atRight)->ticker()->setTickCount(3);
        connect(x, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
                &TimelineView::onXRangeChanged);
        lane.rect = rect;

        lane.crosshair = verticalLine(rect, QPen(QColor(128, 128, 128, 160), 1, Qt::DashLine));
        lane.cursor = verticalLine(rect, QPen(QColor(200, 40, 40, 200), 1));
        lane.highlight = new QCPItemRect(m_plot);
        lane.highlight->setLayer(QStringLiteral("background"));
        lane.highlight->setClipAxisRect(rect);
        lane.highlight->setPen(Qt::NoPen);
        lane.highlight->setBrush(QColor(255, 200, 0, 60));
        for (QCPItemPosition *p : {lane.highlight->topLeft, lane.highlight->bottomRight}) {
            p->setAxes(x, y);
            p->setAxisRect(rect);
            p->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        lane.highlight->topLeft->setCoords(0, 0);
        lane.highlight->bottomRight->setCoords(0, 1);
        lane.highlight->setVisible(false);
        lane.readout = new QCPItemText(m_plot);
        lane.readout->setLayer(QStringLiteral("cursor"));
        lane.readout->setClipToAxisRect(false);
        lane.readout->position->setType(QCPItemPosition::ptAxisRectRatio);
        lane.readout->position->setAxisRect(rect);
        lane.readout->position->setCoords(0.005, 0.02);
        lane.readout->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        lane.readout->setColor(plotForeground());
        lane.readout->setText(QString());
        lane.missing = new QCPItemText(m_plot);
        lane.missing->position->setType(QCPItemPosition::ptAxisRectRatio);
        lane.missing->position->setAxisRect(rect);
        lane.missing->position->setCoords(0.5, 0.5);
        lane.missing->setColor(QColor(128, 128, 128));
        lane.missing->setVisible(false);
    }
    m_legend = new QCPLegend;
    m_plot->plotLayout()->addElement(row, 0, m_legend);
    m_legend->setLayer(QStringLiteral("legend"));
    m_plot->plotLayout()->setRowStretchFactor(row, 0.001);
    m_legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_legend->setWrap(8);
    m_legend->setIconSize(14, 10);
    QFont lf = font();
    lf.setPointSizeF(lf.pointSizeF() * 0.9);
    m_legend->setFont(lf);
    buildGraphs();
    // The legend's row gets exactly the height its items need (it has no stretch).
    const int legendRows =
        (m_legend->itemCount() + m_legend->wrap() - 1) / std::max(1, m_legend->wrap());
    const int lineHeight = QFontMetrics(m_legend->font()).height() + 6;
    m_legend->setMinimumSize(0, std::max(1, legendRows) * lineHeight + 8);
    applyTheme();
}

void TimelineView::buildGraphs()
{
    QVector<int> legendGroups;
    for (int ri = 0; ri < m_runs.size(); ++ri) {
        const TimelineRun &tr = m_runs[ri];
        const bool grouped = std::count_if(m_runs.begin(), m_runs.end(), [&](const TimelineRun &o) {
                                 return o.group == tr.group;
                             }) > 1;
        QColor c = tr.color;
        if (grouped) {
            c.setAlpha(150);
        }
        const double width = grouped ? 1.0 : 1.5;
        for (int l = 0; l < m_lanes.size(); ++l) {
            LaneState &lane = m_lanes[l];
            if (!lane.rect || l == Events) {
                continue;
            }
            QCPAxis *x = lane.rect->axis(QCPAxis::atBottom), *y = lane.rect->axis(QCPAxis::atLeft);
            QCPGraph *g = m_plot->addGraph(x, y);
            // Cosmetic pens: a zig-zag of a thousand steps drawn with a scaled 1.5-px pen goes
            // through the stroker (~10 ms a lane); a cosmetic one takes the fast path.
            QPen pen(c, l == Drops ? 2.0 : width);
            pen.setCosmetic(true);
            g->setPen(pen);
            g->setLineStyle(l == Drops ? QCPGraph::lsImpulse : QCPGraph::lsStepLeft);
            g->setName(tr.label);
            lane.graphs.append(g);
            QCPGraph *extra = nullptr;
            if (l == Lag && !grouped) {
                // The mean lag helps for one run; with overlaid trials it is clutter.
                extra = m_plot->addGraph(x, y);
                extra->setPen(QPen(c, 1, Qt::DashLine));
                extra->setLineStyle(QCPGraph::lsStepLeft);
                extra->setName(tr.label + QStringLiteral(" (mean)"));
            }
            lane.extra.append(extra);
            if (l == Produced && !legendGroups.contains(tr.group)) {
                legendGroups.append(tr.group);
                g->addToLegend(m_legend);
                // The legend names the group, not its first trial.
                if (!tr.groupLabel.isEmpty()) {
                    g->setName(tr.groupLabel);
                }
            }
        }
        if (LaneState &ev = m_lanes[Events]; ev.rect) {
            QCPAxis *x = ev.rect->axis(QCPAxis::atBottom), *y = ev.rect->axis(QCPAxis::atLeft);
            const int runsShown = m_runs.size();
            // Runs share a kind's row, each a little offset so A and B stay apart.
            const double offset = runsShown > 1 ? 0.36 * (0.5 - double(ri) / (runsShown - 1)) : 0.0;
            // One pass over the events, by kind, in x order. Events come in line order,
            // which is arrival order except for notes with times of their own: a kind is
            // sorted only when that left it out of order (a big log has 10^5 events).
            QVector<QPair<QVector<double>, QVector<int>>> byKind(kEventKindCount);
            {
                const auto &events = tr.run->events;
                for (int ei = 0; ei < int(events.size()); ++ei) {
                    const double t = tr.run->eventTime(std::size_t(ei));
                    if (std::isfinite(t)) {
                        auto &[keys, index] = byKind[int(events[std::size_t(ei)].kind)];
                        keys.append(runX(ri, t));
                        index.append(ei);
                    }
                }
                for (auto &[keys, index] : byKind) {
                    if (std::is_sorted(keys.begin(), keys.end())) {
                        continue;
                    }
                    QVector<int> order(keys.size());
                    std::iota(order.begin(), order.end(), 0);
                    std::stable_sort(order.begin(), order.end(),
                                     [&keys = keys](int a, int b) { return keys[a] < keys[b]; });
                    QVector<double> k2;
                    QVector<int> i2;
                    for (const int o : order) {
                        k2.append(keys[o]);
                        i2.append(index[o]);
                    }
                    keys = std::move(k2);
                    index = std::move(i2);
                }
            }
            for (int row = 0; row < m_kindRows.size(); ++row) {
                const EventKind kind = m_kindRows[row];
                const KindStyle ks = kindStyle(kind);
                QCPGraph *g = m_plot->addGraph(x, y);
                g->setLayer(QStringLiteral("markers"));
                g->setLineStyle(QCPGraph::lsNone);
                g->setAdaptiveSampling(false); // every marker is drawn, however dense
                // Cosmetic pens take the raster engine's fast path: a wide or fractional pen
                // goes through the stroker, ~50 µs per symbol.
                QPen pen(m_runs.size() > 1 ? tr.color : ks.color.darker(130),
                         m_runs.size() > 1 ? 2 : 1);
                pen.setCosmetic(true);
                g->setScatterStyle(QCPScatterStyle(ks.shape, pen, QBrush(ks.color), ks.size));
                g->setName(eventKindTitle(kind));
                const double yv = double(m_kindRows.size() - 1 - row) + offset;
                MarkerGraph mg{g, ri, kind, yv, {}, {}, {}};
                mg.keys = std::move(byKind[int(kind)].first);
                mg.all = std::move(byKind[int(kind)].second);
                mg.events.clear(); // filled per view by refreshMarkers
                if (ri == 0) {
                    g->addToLegend(m_legend);
                }
                m_markers.append(mg);
            }
        }
    }
    if (LaneState &ev = m_lanes[Events]; ev.rect) {
        QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
        for (int row = 0; row < m_kindRows.size(); ++row) {
            ticks->addTick(double(m_kindRows.size() - 1 - row),
                           QLatin1String(eventKindName(m_kindRows[row])));
        }
        ev.rect->axis(QCPAxis::atLeft)->setTicker(ticks);
        ev.rect->axis(QCPAxis::atLeft)
            ->setRange(-0.6, std::max<double>(m_kindRows.size(), 1) - 0.4);
        ev.rect->axis(QCPAxis::atLeft)->grid()->setVisible(true);
        ev.rect->axis(QCPAxis::atLeft)->setLabel(QString());
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 0.85);
        ev.rect->axis(QCPAxis::atLeft)->setTickLabelFont(f);
        if (m_kindRows.isEmpty()) {
            ev.missing->setText(QStringLiteral("no events detected"));
            ev.missing->setVisible(true);
        }
    }
    // Lanes that need host arrival times say so for runs whose format lacks them.
    QStringList without;
    for (const TimelineRun &tr : m_runs) {
        if (!tr.run->hasArrival) {
            without << tr.label;
        }
    }
    for (int l = 0; l < LaneCount; ++l) {
        LaneState &lane = m_lanes[l];
        if (!lane.rect || !laneNeedsArrival(Lane(l)) || without.isEmpty()) {
            continue;
        }
        lane.missing->setText(
            without.size() == m_runs.size()
                ? QStringLiteral("not available: the log format has no host arrival times")
                : QStringLiteral("not available for %1: no host arrival times")
                      .arg(without.join(QStringLiteral(", "))));
        lane.missing->setVisible(true);
    }
    if (m_lanes[Produced].rect) {
        bool anyKernel = false;
        for (const TimelineRun &tr : m_runs) {
            anyKernel = anyKernel || tr.run->kernelLines > 0;
        }
        if (!anyKernel && !m_runs.isEmpty()) {
            m_lanes[Produced].missing->setText(
                QStringLiteral("not available: no kernel timestamps in the log"));
            m_lanes[Produced].missing->setVisible(true);
        }
    }
}

QPair<double, double> TimelineView::fullRange() const
{
    double lo = 0, hi = 1;
    bool first = true;
    for (int ri = 0; ri < m_runs.size(); ++ri) {
        const Run &r = *m_runs[ri].run;
        if (r.lines.empty()) {
            continue;
        }
        const double a = runX(ri, std::min(0.0, r.series.start()));
        const double b = runX(ri, std::max(r.timeOf(r.lines.endIndex() - 1_lines), r.series.end()));
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

void TimelineView::refreshData()
{
    m_dataWidth = laneWidth();
    const double x0 = xLower(), x1 = xUpper();
    QVector<double> laneMax(m_lanes.size(), 0.0);
    refreshMarkers(x0, x1);
    refreshPatterns(x0, x1, laneMax);
    double capacity = 0;
    for (int ri = 0; ri < m_runs.size(); ++ri) {
        const TimelineRun &tr = m_runs[ri];
        const SeriesPyramid &s = tr.run->series;
        capacity = std::max(capacity, tr.run->meta.baud / 10.0);
        for (int l = 0; l < LaneCount; ++l) {
            LaneState &lane = m_lanes[l];
            if (!lane.rect || l == Events || ri >= lane.graphs.size()) {
                continue;
            }
            const double px = std::max(50.0, double(lane.rect->width()));
            Channel ch = Channel::Produced;
            LaneValue v = LaneValue::Rate;
            switch (Lane(l)) {
            case Produced:
                ch = Channel::Produced;
                break;
            case Printed:
                ch = Channel::Printed;
                break;
            case Wire:
                ch = Channel::Bytes;
                break;
            case Drops:
                ch = Channel::Dropped;
                v = LaneValue::Sum;
                break;
            case Lag:
                ch = Channel::LagMax;
                v = LaneValue::Max;
                break;
            default:
                continue; // pattern lanes are filled by refreshPatterns
            }
            if (!s.present(ch)) {
                lane.graphs[ri]->data()->clear();
                continue;
            }
            LaneSlice slice = laneSlice(s, ch, v, x0, x1, tr.shift, px);
            laneMax[l] = std::max(laneMax[l], slice.maxValue);
            lane.graphs[ri]->data()->set(slice.points, true);
            if (l == Drops) {
                lane.rect->axis(QCPAxis::atLeft)
                    ->setLabel(
                        slice.binWidth >= 1
                            ? QStringLiteral("dropped\nper %1 s").arg(slice.binWidth)
                            : QStringLiteral("dropped\nper %1 ms").arg(slice.binWidth * 1000));
            }
            if (l == Lag && lane.extra.value(ri)) {
                LaneSlice mean =
                    laneSlice(s, Channel::LagSum, LaneValue::MeanLag, x0, x1, tr.shift, px);
                lane.extra[ri]->data()->set(mean.points, true);
            }
        }
    }
    for (int l = 0; l < m_lanes.size(); ++l) {
        LaneState &lane = m_lanes[l];
        if (!lane.rect || l == Events) {
            continue;
        }
        double top = laneMax[l];
        if (l == Wire && capacity > 0) {
            top = std::max(top, capacity * 1.25); // room for the capacity label above its line
        }
        top = top > 0 ? top * 1.12 : 1.0;
        lane.rect->axis(QCPAxis::atLeft)->setRange(0, top);
        if (l == Wire) {
            lane.rect->axis(QCPAxis::atRight)
                ->setRange(0, capacity > 0 ? top / capacity * 100 : 100);
        }
    }
    if (LaneState &w = m_lanes[Wire]; w.rect && capacity > 0) {
        // The UART's capacity: 10 bits per byte on the wire (8N1).
        static const QString kCapName = QStringLiteral("uart-capacity");
        QCPItemStraightLine *cap = nullptr;
        QCPItemText *capText = nullptr;
        for (int i = 0; i < m_plot->itemCount(); ++i) {
            QCPAbstractItem *it = m_plot->item(i);
            if (it->clipAxisRect() == w.rect && it->objectName() == kCapName) {
                if (auto *line = qobject_cast<QCPItemStraightLine *>(it)) {
                    cap = line;
                } else if (auto *t = qobject_cast<QCPItemText *>(it)) {
                    capText = t;
                }
            }
        }
        if (!cap) {
            cap = new QCPItemStraightLine(m_plot);
            cap->setObjectName(kCapName);
            cap->setClipAxisRect(w.rect);
            cap->setPen(QPen(QColor(200, 0, 0, 170), 1.2, Qt::DashDotLine));
            for (QCPItemPosition *p : {cap->point1, cap->point2}) {
                p->setAxes(w.rect->axis(QCPAxis::atBottom), w.rect->axis(QCPAxis::atLeft));
                p->setAxisRect(w.rect);
                p->setTypeX(QCPItemPosition::ptAxisRectRatio);
            }
            capText = new QCPItemText(m_plot);
            capText->setObjectName(kCapName);
            capText->setClipAxisRect(w.rect);
            capText->position->setAxes(w.rect->axis(QCPAxis::atBottom),
                                       w.rect->axis(QCPAxis::atLeft));
            capText->position->setAxisRect(w.rect);
            capText->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
            capText->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
            capText->setColor(QColor(200, 0, 0));
        }
        cap->point1->setCoords(0, capacity);
        cap->point2->setCoords(1, capacity);
        capText->position->setCoords(0.995, capacity);
        capText->setText(QStringLiteral("UART capacity %1 B/s (%2 baud, 8N1)")
                             .arg(capacity, 0, 'f', 0)
                             .arg(int(capacity * 10)));
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QCPItemStraightLine *TimelineView::verticalLine(QCPAxisRect *rect, const QPen &pen)
{
    // A hidden line across the whole lane height at an x set later (crosshair, log cursor).
    auto *line = new QCPItemStraightLine(m_plot);
    line->setLayer(QStringLiteral("cursor"));
    line->setClipAxisRect(rect);
    line->setPen(pen);
    for (QCPItemPosition *p : {line->point1, line->point2}) {
        p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        p->setAxisRect(rect);
        p->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    line->setVisible(false);
    return line;
}

QVector<int> TimelineView::laneOrder() const
{
    QVector<int> order{Produced, Printed, Wire, Drops, Lag};
    for (int i = LaneCount; i < m_lanes.size(); ++i) {
        order << i;
    }
    order << Events;
    return order;
}

QString TimelineView::laneLabel(int lane) const
{
    if (lane < LaneCount) {
        return laneTitle(Lane(lane));
    }
    QString re = m_patterns.value(lane - LaneCount).regex;
    if (re.size() > 16) {
        re = re.left(15) + QChar(0x2026);
    }
    return QStringLiteral("%1\nmatches/s").arg(re);
}

void TimelineView::setPatternLanes(const QVector<PatternSeries> &patterns)
{
    const double lo = xLower(), hi = xUpper();
    m_patterns = patterns;
    m_lanes.resize(LaneCount + patterns.size());
    for (int i = LaneCount; i < m_lanes.size(); ++i) {
        m_lanes[i].visible = true;
    }
    buildLayout();
    setXRange(lo, hi);
}

QCPGraph *TimelineView::patternGraph(int i, int run) const
{
    const int l = LaneCount + i;
    return l < m_lanes.size() && run < m_lanes[l].graphs.size() ? m_lanes[l].graphs[run] : nullptr;
}

void TimelineView::refreshMarkers(double x0, double x1)
{
    // One marker per pixel column and kind: dense events stay visible as a solid run of
    // markers (never thinned away), but a million call traces do not cost a million symbols.
    const LaneState &ev = m_lanes[Events];
    const double px = ev.rect ? std::max(50.0, double(ev.rect->width())) : 1000.0;
    for (MarkerGraph &m : m_markers) {
        // One symbol per bucket of its width: symbols then touch, so a dense run of events
        // still reads as a solid band, and hidden overlaps are not drawn at all (each symbol
        // costs tens of microseconds to draw).
        const double bucketPx = std::max(1.0, double(kindStyle(m.kind).size));
        const double step = (x1 - x0) / px * bucketPx;
        QVector<QCPGraphData> pts;
        m.events.clear();
        auto it = std::lower_bound(m.keys.begin(), m.keys.end(), x0 - 10 * step);
        const auto end = std::upper_bound(m.keys.begin(), m.keys.end(), x1 + 10 * step);
        double lastCol = -1e300;
        for (; it != end; ++it) {
            const double col = std::floor((*it - x0) / step);
            if (col == lastCol) {
                continue;
            }
            lastCol = col;
            pts.append(QCPGraphData(*it, m.y));
            m.events.append(m.all[int(it - m.keys.begin())]);
        }
        m.graph->data()->set(pts, true);
    }
}

void TimelineView::refreshPatterns(double x0, double x1, QVector<double> &laneMax)
{
    for (int p = 0; p < m_patterns.size(); ++p) {
        const int l = LaneCount + p;
        LaneState &lane = m_lanes[l];
        if (!lane.rect) {
            continue;
        }
        const int bins = std::max(50, lane.rect->width()) / 2;
        const double w = (x1 - x0) / bins;
        for (int ri = 0; ri < lane.graphs.size() && ri < m_patterns[p].times.size(); ++ri) {
            const std::vector<double> &t = m_patterns[p].times[ri];
            const double shift = m_runs[ri].shift;
            QVector<QCPGraphData> pts;
            pts.reserve(bins + 1);
            auto lo = std::lower_bound(t.begin(), t.end(), x0 + shift);
            for (int b = 0; b < bins; ++b) {
                const auto hi = std::lower_bound(lo, t.end(), x0 + shift + (b + 1) * w);
                const double rate = double(hi - lo) / w;
                pts.append(QCPGraphData(x0 + b * w, rate));
                laneMax[l] = std::max(laneMax[l], rate);
                lo = hi;
            }
            pts.append(QCPGraphData(x1, pts.isEmpty() ? 0 : pts.back().value));
            lane.graphs[ri]->data()->set(pts, true);
        }
    }
}

void TimelineView::renderTo(QCPPainter *painter, int width, int height)
{
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
    m_plot->replot(); // back to the on-screen layout
    refreshData();
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
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::clearHighlight()
{
    for (LaneState &l : m_lanes) {
        if (l.rect) {
            l.highlight->setVisible(false);
        }
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
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

void TimelineView::updateReadouts(double x)
{
    for (int l = 0; l < m_lanes.size(); ++l) {
        LaneState &lane = m_lanes[l];
        if (!lane.rect) {
            continue;
        }
        lane.crosshair->point1->setCoords(x, 0);
        lane.crosshair->point2->setCoords(x, 1);
        lane.crosshair->setVisible(true);
        if (l == Events) {
            lane.readout->setText(m_ticker->mode() == TimeAxisMode::Relative
                                      ? QStringLiteral("t = %1 s").arg(x, 0, 'f', 3)
                                      : QString());
            continue;
        }
        QStringList parts;
        for (int ri = 0; ri < lane.graphs.size(); ++ri) {
            QCPGraph *g = lane.graphs[ri];
            if (g->data()->isEmpty()) {
                continue;
            }
            auto it = g->data()->findBegin(x, false);
            if (it != g->data()->constBegin() && it->key > x) {
                --it;
            }
            if (it == g->data()->constEnd()) {
                continue;
            }
            QString v = fmtValue(it->value);
            if (l == Wire && m_runs[ri].run->meta.baud > 0) {
                v += QStringLiteral(" (%1%)").arg(
                    100.0 * it->value / (m_runs[ri].run->meta.baud / 10.0), 0, 'f', 0);
            }
            parts << (m_runs.size() > 1 ? QStringLiteral("%1: %2").arg(m_runs[ri].label, v) : v);
        }
        lane.readout->setText(parts.join(QStringLiteral("   ")));
    }
    m_plot->layer(QStringLiteral("cursor"))->replot();
}

bool TimelineView::markerAt(const QPoint &pos, int *run, int *eventIndex, double *distance) const
{
    double best = kMarkerHitPixels;
    bool found = false;
    for (const MarkerGraph &m : m_markers) {
        QVariant details;
        const double d = m.graph->selectTest(pos, false, &details);
        if (d < 0 || d >= best) {
            continue;
        }
        const QCPDataSelection sel = details.value<QCPDataSelection>();
        if (sel.isEmpty()) {
            continue;
        }
        const int idx = sel.dataRange(0).begin();
        if (idx < 0 || idx >= m.events.size()) {
            continue;
        }
        best = d;
        *run = m.run;
        *eventIndex = m.events[idx];
        found = true;
    }
    if (distance) {
        *distance = best;
    }
    return found;
}

QPair<int, int> TimelineView::stepEvent(int direction, std::optional<EventKind> kind)
{
    const double centre = (xLower() + xUpper()) / 2;
    const double eps = (xUpper() - xLower()) * 1e-6;
    int bestRun = -1, bestEvent = -1;
    double bestX = 0;
    for (int ri = 0; ri < m_runs.size(); ++ri) {
        const Run &r = *m_runs[ri].run;
        for (int ei = 0; ei < int(r.events.size()); ++ei) {
            const Event &e = r.events[std::size_t(ei)];
            if (kind && e.kind != *kind) {
                continue;
            }
            const double x = runX(ri, r.eventTime(std::size_t(ei)));
            if (!std::isfinite(x)) {
                continue;
            }
            const bool after = direction > 0 ? x > centre + eps : x < centre - eps;
            if (after && (bestRun < 0 || (direction > 0 ? x < bestX : x > bestX))) {
                bestRun = ri;
                bestEvent = ei;
                bestX = x;
            }
        }
    }
    if (bestRun >= 0) {
        const double half = (xUpper() - xLower()) / 2;
        setXRange(bestX - half, bestX + half);
    }
    return {bestRun, bestEvent};
}

bool TimelineView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_plot) {
        return QWidget::eventFilter(watched, event);
    }
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        auto *me = static_cast<QMouseEvent *>(event);
        m_pressPos = me->pos();
        if (me->button() == Qt::RightButton ||
            (me->button() == Qt::LeftButton && (me->modifiers() & Qt::ShiftModifier))) {
            // Rubber band: select a range to zoom into (right drag, or shift + drag).
            m_bandActive = true;
            m_bandOrigin = me->pos();
            m_band->setGeometry(QRect(m_bandOrigin, QSize()));
            m_band->show();
            m_plot->setInteraction(QCP::iRangeDrag, false);
            return true;
        }
        break;
    }
    case QEvent::MouseMove: {
        auto *me = static_cast<QMouseEvent *>(event);
        if (m_bandActive) {
            const QRect r = m_plot->rect();
            m_band->setGeometry(
                QRect(QPoint(m_bandOrigin.x(), r.top()), QPoint(me->pos().x(), r.bottom()))
                    .normalized());
            return true;
        }
        if (QCPAxisRect *rect = m_plot->axisRectAt(me->pos())) {
            const double x = rect->axis(QCPAxis::atBottom)->pixelToCoord(me->pos().x());
            updateReadouts(x);
            int run = -1, ev = -1;
            if (markerAt(me->pos(), &run, &ev, nullptr)) {
                const Run &r = *m_runs[run].run;
                const Event &e = r.events[std::size_t(ev)];
                const std::string_view t = r.eventText(e);
                QString tip =
                    QStringLiteral("<b>%1</b>%2<br>%3")
                        .arg(eventKindTitle(e.kind).toHtmlEscaped(),
                             m_runs.size() > 1
                                 ? QStringLiteral(" — ") + m_runs[run].label.toHtmlEscaped()
                                 : QString(),
                             QString::fromUtf8(t.data(),
                                               qsizetype(std::min<std::size_t>(t.size(), 300)))
                                 .toHtmlEscaped());
                if (e.kind == EventKind::Drop) {
                    tip += QStringLiteral("<br>%1 message(s) dropped").arg(e.count);
                }
                if (isCrashKind(e.kind)) {
                    // The report around this headline only (a WARN opens at its `cut here`
                    // line just before), not the whole run.
                    for (const Crash &c : findCrashes(r, std::max(LineIndex(0), e.line - 2_lines),
                                                      e.line + 1_lines)) {
                        if (c.event == std::size_t(ev)) {
                            tip +=
                                QStringLiteral("<br><b>crash:</b> %1%2")
                                    .arg(c.title.toHtmlEscaped(),
                                         c.traceComplete ? QString()
                                                         : QStringLiteral(" (report cut short)"));
                        }
                    }
                }
                QToolTip::showText(me->globalPosition().toPoint(), tip, m_plot);
            } else {
                QToolTip::hideText();
            }
        }
        break;
    }
    case QEvent::MouseButtonRelease: {
        auto *me = static_cast<QMouseEvent *>(event);
        if (m_bandActive) {
            m_bandActive = false;
            m_band->hide();
            m_plot->setInteraction(QCP::iRangeDrag, true);
            QCPAxisRect *rect = nullptr;
            for (const LaneState &l : m_lanes) {
                if (l.rect) {
                    rect = l.rect;
                    break;
                }
            }
            if (rect && std::abs(me->pos().x() - m_bandOrigin.x()) > 4) {
                QCPAxis *x = rect->axis(QCPAxis::atBottom);
                double a = x->pixelToCoord(m_bandOrigin.x()), b = x->pixelToCoord(me->pos().x());
                if (a > b) {
                    std::swap(a, b);
                }
                setXRange(a, b);
                emit userMovedView();
            }
            return true;
        }
        if (me->button() == Qt::LeftButton && (me->pos() - m_pressPos).manhattanLength() < 4) {
            int run = -1, ev = -1;
            if (markerAt(me->pos(), &run, &ev, nullptr)) {
                emit eventActivated(run, ev);
            } else if (QCPAxisRect *rect = m_plot->axisRectAt(me->pos())) {
                emit timeActivated(rect->axis(QCPAxis::atBottom)->pixelToCoord(me->pos().x()));
            }
        }
        break;
    }
    case QEvent::Leave:
        for (LaneState &l : m_lanes) {
            if (l.rect) {
                l.crosshair->setVisible(false);
                l.readout->setText(QString());
            }
        }
        m_plot->layer(QStringLiteral("cursor"))->replot();
        break;
    default:
        break;
    }
    return QWidget::eventFilter(watched, event);
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

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    refreshData();
}

} // namespace tty
