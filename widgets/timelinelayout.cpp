// Lane layout of the timeline: which lanes, in what order, with their axes and items.
#include "timelineview.h"

#include "compactticker.h"
#include "laneplot.h"
#include "palette.h"

#include <qcustomplot.h>

#include <algorithm>

namespace tty {

namespace {
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
        return QStringLiteral("dropped\nmessages/s");
    case TimelineView::Lag:
        return QStringLiteral("console\nlag (s)");
    case TimelineView::Events:
        return QStringLiteral("events");
    case TimelineView::LaneCount:
        break;
    }
    return {};
}

} // namespace

QString TimelineView::laneName(Lane lane)
{
    return laneTitle(lane).replace(u'\n', u' ');
}

void TimelineView::buildLayout()
{
    // Which rows the event lane needs: kinds present in any run, in a fixed order.
    QVector<bool> present(kEventKindCount, false);
    for (const TimelineRun &r : m_runs) {
        for (int k = 0; k < kEventKindCount; ++k) {
            present[k] = present[k] || r.run->eventsByKind.count(EventKind(k)) > 0;
        }
    }
    m_kindRows.clear();
    for (int k = kEventKindCount - 1; k >= 0; --k) {
        if (present[k]) {
            m_kindRows.prepend(EventKind(k));
        }
    }

    m_plot->clearPlottables();
    m_plot->clearItems();
    m_plot->plotLayout()->clear();
    m_markers.clear();
    m_sourceLegends.fill(nullptr, m_sources.size()); // the layout's clear() deleted them
    QFont titleFont = font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title = new QCPTextElement(m_plot, m_fullTitle, titleFont);
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
        lane.clips.clear();
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
        y->setTicker(QSharedPointer<CompactTicker>::create()); // few, narrow labels
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
        // Clipped to its own lane: an item is clipped to the plot's first axis rect unless
        // told, and there a note in any other lane was never drawn.
        lane.missing->setClipAxisRect(rect);
        lane.missing->setColor(QColor(128, 128, 128));
        lane.missing->setVisible(false);
        lane.clipNote = new QCPItemText(m_plot);
        lane.clipNote->setClipToAxisRect(false);
        lane.clipNote->position->setType(QCPItemPosition::ptAxisRectRatio);
        lane.clipNote->position->setAxisRect(rect);
        lane.clipNote->position->setCoords(0.995, 0.02);
        lane.clipNote->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        lane.clipNote->setColor(QColor(128, 128, 128));
        lane.clipNote->setVisible(false);
        if (isSourceLane(l)) {
            // The stacked lane's sources, named right under it.
            auto *legend = new QCPLegend;
            m_plot->plotLayout()->addElement(row, 0, legend);
            m_plot->plotLayout()->setRowStretchFactor(row, 0.001);
            ++row;
            legend->setLayer(QStringLiteral("legend"));
            legend->setIconSize(14, 10);
            legend->setMargins(QMargins(7, 1, 7, 3));
            QFont lf = font();
            lf.setPointSizeF(lf.pointSizeF() * 0.85);
            legend->setFont(lf);
            m_sourceLegends[l - sourceLane(0)] = legend;
        }
    }
    m_legend = new QCPLegend;
    m_plot->plotLayout()->addElement(row, 0, m_legend);
    m_legend->setLayer(QStringLiteral("legend"));
    m_plot->plotLayout()->setRowStretchFactor(row, 0.001);
    m_legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_legend->setIconSize(14, 10);
    QFont lf = font();
    lf.setPointSizeF(lf.pointSizeF() * 0.9);
    m_legend->setFont(lf);
    buildGraphs();
    setLaneMinimums(kMinLaneHeight);
    fitWidth(screenPlotWidth());
    applyTheme();
}

void TimelineView::setLaneMinimums(int valueLane)
{
    // Legible lanes: room for three tick labels, and a label's height per event row.
    for (int l = 0; l < m_lanes.size(); ++l) {
        if (QCPAxisRect *rect = m_lanes[l].rect) {
            rect->setMinimumSize(
                0, l == Events ? std::max<int>(40, int(m_kindRows.size()) * eventRowHeight())
                               : valueLane);
        }
    }
}

int TimelineView::eventRowHeight() const
{
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.85); // the event lane's tick label font
    return QFontMetrics(f).height() + 2;
}

void TimelineView::fitWidth(int width)
{
    m_fittedWidth = width;
    if (m_title) {
        // A comparison's title names two files: elided, it never widens the plot.
        // Each side elided on its own, so that a narrow picture keeps the "vs" and the
        // trial counts.
        const QFontMetrics fm(m_title->font());
        const int room = std::max(100, width - 20);
        const QString vs = QStringLiteral("  vs  ");
        const QStringList sides = m_fullTitle.split(vs);
        if (sides.size() == 2 && fm.horizontalAdvance(m_fullTitle) > room) {
            const int half = std::max(50, (room - fm.horizontalAdvance(vs)) / 2);
            m_title->setText(fm.elidedText(sides[0], Qt::ElideMiddle, half) + vs +
                             fm.elidedText(sides[1], Qt::ElideMiddle, half));
        } else {
            m_title->setText(fm.elidedText(m_fullTitle, Qt::ElideMiddle, room));
        }
    }
    if (!m_legend) {
        return;
    }
    fitLegend(m_legend, width);
    for (QCPLegend *l : m_sourceLegends) {
        if (l) {
            fitLegend(l, width);
        }
    }
}

void TimelineView::fitLegend(QCPLegend *legend, int width)
{
    // The entries in order (a wrapped grid has empty cells after the last one).
    QVector<int> widths;
    int rowHeight = 1;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = legend->item(i)) {
            widths << item->minimumOuterSizeHint().width();
            rowHeight = std::max(rowHeight, item->minimumOuterSizeHint().height());
        }
    }
    const int n = int(widths.size());
    const QVector<int> columnWidths = legendColumnWidths(legend, widths, width);
    const int columns = std::max(1, int(columnWidths.size()));
    legend->setWrap(columns);
    // setWrap alone only places entries added later: the ones there are must be moved too
    // (without this, entries added before the first fit stayed in one row, squeezed and cut).
    legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    // The legend's row gets exactly the height its items need (it has no stretch).
    const int rows = std::max(1, (n + columns - 1) / columns);
    const QMargins lm = legend->margins();
    legend->setMinimumSize(0, rows * rowHeight + (rows - 1) * legend->rowSpacing() + lm.top() +
                                  lm.bottom());
    m_plot->updateGeometry();
}

QVector<int> TimelineView::legendColumnWidths(const QCPLegend *legend, const QVector<int> &item,
                                              int width) const
{
    // The most columns whose real widths fit: entries fill the rows left to right (A, B,
    // then the kinds), a column is as wide as its widest entry by the legend's font, and
    // the legend's margins and the spacing between columns count too. Never an entry cut.
    const int n = int(item.size());
    const QMargins lm = legend->margins();
    const int room = width - lm.left() - lm.right();
    for (int columns = n; columns > 1; --columns) {
        QVector<int> widths(columns, 0);
        for (int i = 0; i < n; ++i) {
            widths[i % columns] = std::max(widths[i % columns], item[i]);
        }
        int total = (columns - 1) * legend->columnSpacing();
        for (int w : widths) {
            total += w;
        }
        if (total <= room) {
            return widths;
        }
    }
    return {n > 0 ? *std::max_element(item.begin(), item.end()) : 0};
}

void TimelineView::fitHeight()
{
    // Every lane keeps its minimum height; the scroll area scrolls what does not fit.
    const int h = m_plot->plotLayout()->minimumOuterSizeHint().height();
    if (h != m_plot->minimumHeight()) {
        m_plot->setMinimumHeight(h);
    }
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
    // The stacked lanes break the wire lane down: right below it.
    QVector<int> order{Produced, Printed, Wire};
    for (int i = 0; i < m_sources.size(); ++i) {
        order << sourceLane(i);
    }
    order << Drops << Lag;
    for (int i = LaneCount; i < sourceLane(0); ++i) {
        order << i;
    }
    order << Events;
    return order;
}

QString TimelineView::laneLabel(int lane) const
{
    const auto noSerialLine = [](const TimelineRun &r) { return r.run->meta.noSerialLine; };
    if (lane == Wire && !m_runs.isEmpty() &&
        std::all_of(m_runs.begin(), m_runs.end(), noSerialLine)) {
        // A netconsole's bytes crossed no wire: the lane shows when they arrived.
        return QStringLiteral("received\nbytes/s");
    }
    if (lane < LaneCount) {
        return laneTitle(Lane(lane));
    }
    if (isSourceLane(lane)) {
        return sourceLaneLabel(lane - sourceLane(0));
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
    resizeLanes();
    buildLayout();
    setXRange(lo, hi);
}

void TimelineView::resizeLanes()
{
    m_lanes.resize(LaneCount + m_patterns.size() + m_sources.size());
    for (int i = LaneCount; i < m_lanes.size(); ++i) {
        m_lanes[i].visible = true;
    }
}

QCPGraph *TimelineView::patternGraph(int i, int run) const
{
    const int l = LaneCount + i;
    return i >= 0 && i < m_patterns.size() && l < m_lanes.size() && run < m_lanes[l].graphs.size()
               ? m_lanes[l].graphs[run]
               : nullptr;
}

} // namespace tty
