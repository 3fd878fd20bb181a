// Timeline graphs: creates the plottables of each run and fills them for the visible range.
#include "timelineview.h"

#include "compactticker.h"
#include "lanedata.h"
#include "laneplot.h"
#include "palette.h"
#include "timelinepoints.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace tty {

namespace {
bool laneNeedsArrival(TimelineView::Lane lane)
{
    return lane == TimelineView::Printed || lane == TimelineView::Wire || lane == TimelineView::Lag;
}

// Drops the points outside [from, to] (all of them unless `shown`); a point is its bin's
// start, so the bin holding `from` (up to `bin` before it) stays. The last point closes
// the last bin (laneSlice): when it goes, the last bin kept is closed again, or a step
// graph draws it with no width, and a trial within one bin not at all.
void keepWithin(QVector<QCPGraphData> &points, bool shown, double from, double to, double bin)
{
    if (!shown || points.isEmpty()) {
        points.clear();
        return;
    }
    const double closing = points.back().key;
    points.erase(
        std::remove_if(points.begin(), points.end(),
                       [&](const QCPGraphData &p) { return p.key < from - bin || p.key > to; }),
        points.end());
    if (!points.isEmpty() && points.back().key != closing) {
        points.append(QCPGraphData(points.back().key + bin, points.back().value));
    }
}

} // namespace

void TimelineView::buildGraphs()
{
    QVector<int> legendGroups;
    // The legend lists the runs (A, B, ...) side by side first, then what else is drawn.
    QVector<QCPGraph *> runEntries, kindEntries;
    QCPGraph *meanLagEntry = nullptr;
    int runsShown = 0;
    for (const int n : m_sideTrials) {
        runsShown += std::min(n, kMaxTrialsDrawn);
    }
    int shownBefore = 0; // drawn runs before this one
    for (int ri = 0; ri < m_runs.size(); ++ri) {
        const TimelineRun &tr = m_runs[ri];
        if (!isDrawn(ri)) {
            // No graphs: the lanes' lists keep their places, indexed by run.
            for (int l = 0; l < m_lanes.size(); ++l) {
                if (LaneState &lane = m_lanes[l]; lane.rect && l != Events && !isSourceLane(l)) {
                    lane.graphs.append(nullptr);
                    lane.extra.append(nullptr);
                    lane.clips.append(nullptr);
                }
            }
            continue;
        }
        const int sideTrials = m_sideTrials.value(std::max(0, tr.group));
        const bool grouped = sideTrials > 1;
        QColor c = runColor(tr.group);
        if (grouped) {
            c.setAlpha(150);
        }
        const double width = grouped ? 1.0 : 1.5;
        for (int l = 0; l < m_lanes.size(); ++l) {
            LaneState &lane = m_lanes[l];
            if (!lane.rect || l == Events || isSourceLane(l)) {
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
            // Values above a lane's robust range: a mark at the top edge in the run's colour
            // (the crosshair's readout gives the value).
            QCPGraph *clip = m_plot->addGraph(x, y);
            clip->setLineStyle(QCPGraph::lsNone);
            clip->setPen(QPen(c));
            clip->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangle, c, c, 7));
            clip->setName(tr.label + QStringLiteral(" (clipped)"));
            lane.clips.append(clip);
            if (l == Produced && !legendGroups.contains(tr.group)) {
                legendGroups.append(tr.group);
                runEntries.append(g);
                // The legend names the group, not its first trial.
                if (!tr.groupLabel.isEmpty()) {
                    g->setName(tr.groupLabel);
                }
                if (sideTrials > kMaxTrialsDrawn) {
                    g->setName(QStringLiteral("%1 (first %2 of %3 trials drawn)")
                                   .arg(g->name(), QString::number(kMaxTrialsDrawn),
                                        QString::number(sideTrials)));
                }
            }
            if (extra && !meanLagEntry) {
                meanLagEntry = extra;
            }
        }
        if (LaneState &ev = m_lanes[Events]; ev.rect) {
            QCPAxis *x = ev.rect->axis(QCPAxis::atBottom), *y = ev.rect->axis(QCPAxis::atLeft);
            // Runs share a kind's row, each a little offset so A and B stay apart.
            const double offset =
                runsShown > 1 ? 0.36 * (0.5 - double(shownBefore) / (runsShown - 1)) : 0.0;
            for (int row = 0; row < m_kindRows.size(); ++row) {
                const EventKind kind = m_kindRows[row];
                const KindStyle ks = kindStyle(kind);
                QCPGraph *g = m_plot->addGraph(x, y);
                g->setLayer(QStringLiteral("markers"));
                g->setLineStyle(QCPGraph::lsNone);
                g->setAdaptiveSampling(false); // every marker is drawn, however dense
                // Cosmetic pens take the raster engine's fast path: a wide or fractional pen
                // goes through the stroker, ~50 µs per symbol.
                QPen pen(m_runs.size() > 1 ? runColor(tr.group) : ks.color.darker(130),
                         m_runs.size() > 1 ? 2 : 1);
                pen.setCosmetic(true);
                g->setScatterStyle(QCPScatterStyle(ks.shape, pen, QBrush(ks.color), ks.size));
                g->setName(eventKindTitle(kind));
                const double yv = double(m_kindRows.size() - 1 - row) + offset;
                // The markers point into the run, which m_runs holds; the points are
                // filled per view by refreshMarkers.
                MarkerGraph mg{g, ri, kind, yv, &tr.run->eventsByKind.of(kind), {}};
                if (ri == 0) {
                    kindEntries.append(g);
                }
                m_markers.append(mg);
            }
        }
        ++shownBefore;
    }
    buildSourceGraphs();
    for (QCPGraph *g : runEntries) {
        g->addToLegend(m_legend);
    }
    if (meanLagEntry) {
        // The lag lane's second, dashed line: named once, in the foreground colour.
        meanLagEntry->addToLegend(m_legend);
        meanLagEntry->setName(QStringLiteral("mean console lag (dashed)"));
    }
    for (QCPGraph *g : kindEntries) {
        g->addToLegend(m_legend);
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
    // Lanes that need host arrival times say so for runs whose format lacks them, and the
    // console's lanes for kernel logs that are not a console's output.
    // (kmsg is a kernel log whose drops, its reader's sequence gaps, are known.)
    QStringList withoutArrival, notConsole, noDrops;
    int drawnRuns = 0;
    for (int ri = 0; ri < m_runs.size(); ++ri) {
        if (!isDrawn(ri)) {
            continue;
        }
        ++drawnRuns;
        const Run &run = *m_runs[ri].run;
        const FormatInfo &info = formatInfo(run.meta.format);
        if (!info.consoleOutput) {
            notConsole << m_runs[ri].label;
        } else if (!run.hasArrival) {
            withoutArrival << m_runs[ri].label;
        }
        if (!info.dropsKnown) {
            noDrops << m_runs[ri].label;
        }
    }
    for (int l = 0; l < LaneCount; ++l) {
        LaneState &lane = m_lanes[l];
        // A kernel log's drop lane: the console's drop notices never reach its buffer.
        const QStringList without = laneNeedsArrival(Lane(l)) ? withoutArrival + notConsole
                                    : l == Drops              ? noDrops
                                                              : QStringList();
        if (!lane.rect || without.isEmpty()) {
            continue;
        }
        const auto kernelLog = [&](const QString &label) { return notConsole.contains(label); };
        const bool allKernelLogs = std::all_of(without.begin(), without.end(), kernelLog);
        const bool anyKernelLog = std::any_of(without.begin(), without.end(), kernelLog);
        const QString why = allKernelLogs ? QStringLiteral("a kernel log, not console output")
                            : anyKernelLog
                                ? QStringLiteral("no host arrival times, or a kernel log")
                                : QStringLiteral("no host arrival times");
        if (without.size() == drawnRuns) {
            lane.missing->setText(
                !anyKernelLog
                    ? QStringLiteral("not available: the log format has no host arrival times")
                    : QStringLiteral("not available: %1").arg(why));
        } else {
            // The other runs' data fill the lane: the note goes to its bottom left corner
            // (the top holds the peaks, the UART's capacity and the cursor's readout), above
            // the graphs and on the plot's background, so that both read.
            lane.missing->setText(QStringLiteral("not available for %1: %2")
                                      .arg(without.join(QStringLiteral(", ")), why));
            lane.missing->setLayer(QStringLiteral("legend"));
            lane.missing->position->setCoords(0.005, 0.98);
            lane.missing->setPositionAlignment(Qt::AlignBottom | Qt::AlignLeft);
            QColor back = plotBackground();
            back.setAlpha(220);
            lane.missing->setBrush(back);
            lane.missing->setPadding(QMargins(4, 1, 4, 1));
        }
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

void TimelineView::refreshData()
{
    m_dataWidth = laneWidth();
    const double x0 = xLower(), x1 = xUpper();
    QVector<double> laneMax(m_lanes.size(), 0.0);
    std::vector<std::vector<double>> laneValues(std::size_t(m_lanes.size()));
    refreshMarkers(x0, x1);
    refreshPatterns(x0, x1, laneMax);
    double capacity = 0;
    std::map<int, std::set<int>> sidesOfRate; // baud rate -> the sides (groups) at it
    for (int ri = 0; ri < m_runs.size(); ++ri) {
        const TimelineRun &tr = m_runs[ri];
        const SeriesPyramid &s = tr.run->series;
        // Only a run drawn in the wire lane (one with arrival times) has a UART there: a raw
        // log or a kernel log beside nothing else showed a capacity over an empty lane.
        if (tr.run->hasArrival) {
            capacity = std::max(capacity, tr.run->meta.baud / 10.0);
            if (tr.run->meta.baud > 0) {
                sidesOfRate[tr.run->meta.baud].insert(tr.group);
            }
        }
        for (int l = 0; l < LaneCount; ++l) {
            LaneState &lane = m_lanes[l];
            if (!lane.rect || l == Events || ri >= lane.graphs.size() || !lane.graphs[ri]) {
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
                // A rate like every other lane: the unit must not change with the zoom.
                ch = Channel::Dropped;
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
            // A boot trial: its run's other boots are other trials' (the bins as for the
            // whole view, so that every trial's bins are alike).
            double from = x0, to = x1;
            const bool shown = tr.clipX(from, to);
            if (tr.spanFrom) {
                keepWithin(slice.points, shown, from, to, slice.binWidth);
            }
            double sliceMax = 0;
            for (const QCPGraphData &p : slice.points) {
                if (std::isnan(p.value)) {
                    continue; // a gap: no line on the wire
                }
                sliceMax = std::max(sliceMax, p.value);
                if (p.key >= x0 && p.key <= x1) {
                    laneValues[std::size_t(l)].push_back(p.value);
                }
            }
            laneMax[l] = std::max(laneMax[l], tr.spanFrom ? sliceMax : slice.maxValue);
            lane.graphs[ri]->data()->set(slice.points, true);
            lane.binWidth = slice.binWidth;
            if (l == Lag && lane.extra.value(ri)) {
                LaneSlice mean =
                    laneSlice(s, Channel::LagSum, LaneValue::MeanLag, x0, x1, tr.shift, px);
                if (tr.spanFrom) {
                    keepWithin(mean.points, shown, from, to, mean.binWidth);
                }
                lane.extra[ri]->data()->set(mean.points, true);
            }
        }
    }
    refreshSources(x0, x1);
    for (int l = 0; l < m_lanes.size(); ++l) {
        LaneState &lane = m_lanes[l];
        if (!lane.rect || l == Events || isSourceLane(l)) {
            continue;
        }
        // Lanes of run series (not the pattern lanes) keep a spike from flattening them.
        LaneRange range;
        if (l < LaneCount && !laneValues[std::size_t(l)].empty()) {
            range = robustLaneRange(std::move(laneValues[std::size_t(l)]));
        } else if (laneMax[l] > 0) {
            range.top = laneMax[l] * 1.12;
        }
        double top = range.top;
        if (l == Wire && capacity > 0) {
            // Room for the capacity label above its line.
            top = std::max(top, capacity * 1.25 * 1.12);
            range.clipped = range.clipped && laneMax[l] > top;
        }
        double clippedMax = 0;
        for (int ri = 0; ri < lane.clips.size(); ++ri) {
            if (!lane.clips[ri]) {
                continue; // a trial not drawn
            }
            QVector<QCPGraphData> marks;
            if (range.clipped && ri < lane.graphs.size()) {
                for (const QCPGraphData &p : *lane.graphs[ri]->data()) {
                    if (p.value > top && p.key >= x0 && p.key <= x1) {
                        marks.append(QCPGraphData(p.key, top * 0.96));
                        clippedMax = std::max(clippedMax, p.value);
                    }
                }
            }
            lane.clips[ri]->data()->set(marks, true);
        }
        if (lane.clipNote) {
            lane.clipNote->setText(
                QStringLiteral("▲ clipped, up to %1").arg(compactNumber(clippedMax)));
            lane.clipNote->setVisible(clippedMax > 0);
        }
        lane.rect->axis(QCPAxis::atLeft)->setRange(0, top);
        if (l == Wire) {
            // A share of the UART needs its rate: no axis without one (--baud not given
            // where the default could not have sent the bytes), nor with two (a board at
            // 1500000 baud beside one at 115200: one scale of % would be the wrong one's).
            lane.rect->axis(QCPAxis::atRight)->setVisible(sidesOfRate.size() == 1);
            lane.rect->axis(QCPAxis::atRight)
                ->setRange(0, capacity > 0 ? top / capacity * 100 : 100);
        }
    }
    if (LaneState &w = m_lanes[Wire]; w.rect) {
        refreshCapacityLines(w.rect, sidesOfRate);
    }
    m_plot->requestReplot();
}

void TimelineView::refreshCapacityLines(QCPAxisRect *rect,
                                        const std::map<int, std::set<int>> &sidesOfRate)
{
    // Made again each time (a few items): the rates change with what is loaded.
    static const QString kCapName = QStringLiteral("uart-capacity");
    for (int i = m_plot->itemCount() - 1; i >= 0; --i) {
        QCPAbstractItem *it = m_plot->item(i);
        if (it->clipAxisRect() == rect && it->objectName() == kCapName) {
            m_plot->removeItem(it);
        }
    }
    // Dark red does not read on the dark theme's background.
    const QColor textColor = darkTheme() ? QColor(255, 120, 120) : QColor(200, 0, 0);
    for (const auto &[baud, sides] : sidesOfRate) {
        // 10 bits per byte on the wire (8N1).
        const double capacity = baud / 10.0;
        // Two rates: each line is its side's, in its colour, as its data are; one rate (or
        // one shared by both sides) is the limit of the whole lane, in red.
        const bool oneSides = sidesOfRate.size() > 1 && sides.size() == 1;
        QColor lineColor = oneSides ? runColor(*sides.begin()) : QColor(200, 0, 0);
        lineColor.setAlpha(200);
        auto *cap = new QCPItemStraightLine(m_plot);
        cap->setObjectName(kCapName);
        cap->setClipAxisRect(rect);
        cap->setPen(QPen(lineColor, 1.2, Qt::DashDotLine));
        for (QCPItemPosition *p : {cap->point1, cap->point2}) {
            p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            p->setAxisRect(rect);
            p->setTypeX(QCPItemPosition::ptAxisRectRatio);
        }
        cap->point1->setCoords(0, capacity);
        cap->point2->setCoords(1, capacity);
        auto *text = new QCPItemText(m_plot);
        text->setObjectName(kCapName);
        text->setClipAxisRect(rect);
        text->position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        text->position->setAxisRect(rect);
        text->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        text->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        text->setColor(oneSides ? runColor(*sides.begin()) : textColor);
        text->position->setCoords(0.995, capacity);
        QString whose;
        if (sidesOfRate.size() > 1) {
            QStringList names;
            for (int side : sides) {
                names << QString(QChar(u'A' + side));
            }
            whose = QStringLiteral(": ") + names.join(QStringLiteral(", "));
        }
        text->setText(QStringLiteral("UART capacity %1 B/s (%2 baud, 8N1)%3")
                          .arg(capacity, 0, 'f', 0)
                          .arg(baud)
                          .arg(whose));
    }
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
        double from = x0, to = x1; // a boot trial's own events only
        if (!m_runs[m.run].clipX(from, to)) {
            m.events.clear();
            m.graph->data()->clear();
            continue;
        }
        const TimelineRun &tr = m_runs[m.run];
        const QVector<QCPGraphData> pts = markerPoints(*m.all, tr.shift, m.y, from, to, step,
                                                       &m.events, tr.firstEvent(), tr.endEvent());
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
        for (int ri = 0; ri < lane.graphs.size() && ri < m_patterns[p].times.size(); ++ri) {
            if (!lane.graphs[ri]) {
                continue; // a trial not drawn
            }
            const std::vector<double> &t = m_patterns[p].times[ri];
            const double shift = m_runs[ri].shift;
            double maxRate = 0;
            QVector<QCPGraphData> pts = patternRatePoints(t, shift, x0, x1, bins, &maxRate);
            double from = x0, to = x1;
            if (m_runs[ri].spanFrom) { // a boot trial: the matches of its boot only
                keepWithin(pts, m_runs[ri].clipX(from, to), from, to, (x1 - x0) / bins);
                maxRate = 0;
                for (const QCPGraphData &d : pts) {
                    maxRate = std::max(maxRate, d.value);
                }
            }
            laneMax[l] = std::max(laneMax[l], maxRate);
            lane.graphs[ri]->data()->set(pts, true);
        }
    }
}

} // namespace tty
