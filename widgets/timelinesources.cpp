// The stacked lanes "wire time by source" (issue 14): per lane, the top sources of a run and
// "other", stacked, as the share of the UART each took per bin (bytes per second without a
// baud rate), fed from the source series pyramid at about one bin a pixel.
#include "timelineview.h"

#include "laneplot.h"
#include "palette.h"
#include "timelinepoints.h"

#include <qcustomplot.h>

#include <QHash>

#include <algorithm>
#include <array>
#include <cmath>

namespace tty {

namespace {

QString sourceKey(const SourceSeries::Source &s)
{
    return (s.kernel ? QLatin1Char('K') : QLatin1Char('U')) + QString::fromStdString(s.templ);
}

QString sourceName(const SourceSeries::Source &s)
{
    const QString t = QString::fromStdString(s.templ);
    return s.kernel ? t : QStringLiteral("[no timestamp] ") + t;
}

// Plot value per byte in a bin of `width` seconds: % of the UART, or bytes per second.
double valuePerByte(const SourceSeries &s, double width)
{
    return s.baud > 0 ? 100.0 * s.bitsPerChar / double(s.baud) / width : 1.0 / width;
}

QString elided(const QString &label, int chars)
{
    return label.size() > chars ? label.left(chars - 1) + QChar(0x2026) : label;
}

} // namespace

void TimelineView::setSourceLanes(const QVector<SourceLane> &lanes)
{
    const double lo = xLower(), hi = xUpper();
    m_sources = lanes;
    resizeLanes();
    assignSourceColors();
    buildLayout();
    setXRange(lo, hi);
}

void TimelineView::assignSourceColors()
{
    // Lane by lane, largest source first: a template drawn before keeps its colour, a new
    // one takes the next. Two lanes of six sources never run out of the twelve colours.
    QHash<QString, int> colorOf;
    int next = 0;
    m_sourceColors.clear();
    for (const SourceLane &lane : m_sources) {
        QVector<int> colors;
        for (const SourceSeries::Source &s : lane.series->top) {
            auto it = colorOf.find(sourceKey(s));
            if (it == colorOf.end()) {
                it = colorOf.insert(sourceKey(s), next++);
            }
            colors << *it;
        }
        m_sourceColors << colors;
    }
}

QColor TimelineView::sourceColor(int i, int channel) const
{
    const QVector<int> &c = m_sourceColors.value(i);
    return channel < c.size() ? tty::sourceColor(c[channel]) : otherSourceColor();
}

QCPGraph *TimelineView::sourceGraph(int i, int channel) const
{
    const int l = sourceLane(i);
    return i >= 0 && l < m_lanes.size() ? m_lanes[l].graphs.value(channel) : nullptr;
}

QString TimelineView::sourceLaneLabel(int i) const
{
    const SourceLane &lane = m_sources[i];
    const QString unit = lane.series->byKernelTime ? QStringLiteral("produced B/s")
                         : lane.series->baud > 0   ? QStringLiteral("% of UART")
                                                   : QStringLiteral("bytes/s");
    if (m_sources.size() > 1 && lane.run < m_runs.size()) {
        // The side's letter: its name is in the legend and the log pane's title, and a long
        // file name would crowd the rotated label.
        const QChar side(u'A' + std::clamp(m_runs[lane.run].group, 0, 25));
        return QStringLiteral("%1 by source\n%2").arg(side, unit);
    }
    return QStringLiteral("by source\n%1").arg(unit);
}

QString TimelineView::sourceLaneNote(int i) const
{
    const QCPItemText *note = m_lanes.value(sourceLane(i)).clipNote;
    return note && note->visible() ? note->text() : QString();
}

void TimelineView::buildSourceGraphs()
{
    const bool dark = darkTheme();
    for (int i = 0; i < m_sources.size(); ++i) {
        LaneState &lane = m_lanes[sourceLane(i)];
        QCPLegend *legend = m_sourceLegends.value(i);
        if (!lane.rect || !legend) {
            continue;
        }
        const SourceSeries &s = *m_sources[i].series;
        QCPAxis *x = lane.rect->axis(QCPAxis::atBottom), *y = lane.rect->axis(QCPAxis::atLeft);
        // Each band is its stack's upper edge filled down to zero, in an opaque colour,
        // drawn from the top band down: the bands below cover the rest. Semi-transparent
        // fills between graphs (channel fills) cost 13 ms a replot; these cost ~1 ms.
        const QColor bg = plotBackground();
        const double alpha = dark ? 0.70 : 0.78;
        lane.graphs.fill(nullptr, s.channels());
        for (int c = s.channels() - 1; c >= 0; --c) {
            QCPGraph *g = m_plot->addGraph(x, y);
            const QColor color = sourceColor(i, c);
            QPen pen(dark ? color : color.darker(115), 1);
            pen.setCosmetic(true);
            g->setPen(pen);
            g->setBrush(QColor(int(color.red() * alpha + bg.red() * (1 - alpha)),
                               int(color.green() * alpha + bg.green() * (1 - alpha)),
                               int(color.blue() * alpha + bg.blue() * (1 - alpha))));
            g->setLineStyle(QCPGraph::lsStepLeft);
            // The legend names the masked template (the dock's tooltip has it whole).
            g->setName(c < int(s.top.size())
                           ? elided(sourceName(s.top[std::size_t(c)]), 48)
                           : QStringLiteral("other (%1 sources)").arg(s.otherSources));
            lane.graphs[c] = g;
        }
        for (QCPGraph *g : lane.graphs) {
            g->addToLegend(legend); // the largest source first
        }
        if (s.empty()) {
            lane.missing->setText(QStringLiteral("no timed lines"));
            lane.missing->setVisible(true);
        }
        // The lane is one trial's while the lanes above overlay them all: say whose.
        const int run = m_sources[i].run;
        if (lane.clipNote && run >= 0 && run < m_runs.size() &&
            m_sideTrials.value(std::max(0, m_runs[run].group)) > 1) {
            lane.clipNote->setText(
                QStringLiteral("first trial only: %1").arg(elided(m_runs[run].source, 60)));
            // Over the bands: on a box of the background, to be read.
            QColor box = plotBackground();
            box.setAlpha(215);
            lane.clipNote->setBrush(box);
            lane.clipNote->setPadding(QMargins(4, 1, 4, 1));
            lane.clipNote->setColor(plotForeground());
            lane.clipNote->setLayer(QStringLiteral("markers")); // above the bands
            lane.clipNote->setVisible(true);
        }
    }
}

void TimelineView::refreshSources(double x0, double x1)
{
    // Every stacked lane of one unit on one scale, so that A's and B's bands compare by
    // height; a side without a baud rate is in bytes/s, not a share of a UART, and a scale
    // of 20k B/s would flatten the other's percentages to nothing.
    std::array<std::vector<double>, 2> totals; // [0]: bytes/s, [1]: % of UART
    for (int i = 0; i < m_sources.size(); ++i) {
        LaneState &lane = m_lanes[sourceLane(i)];
        const SourceSeries &s = *m_sources[i].series;
        if (!lane.rect || s.empty() || lane.graphs.size() != s.channels() || x1 <= x0) {
            continue;
        }
        const double shift = m_runs.value(m_sources[i].run).shift;
        const double px = std::max(50.0, double(lane.rect->width()));
        const SourceSeries::Level &l = s.levels[std::size_t(s.levelFor(x1 - x0, px))];
        lane.binWidth = l.width;
        const double n = double(l.bins());
        // One bin of margin each side so that the bands run to the plot's edges.
        const std::size_t b0 =
            std::size_t(std::clamp(std::floor((x0 + shift - s.start) / l.width) - 1, 0.0, n));
        const std::size_t b1 =
            std::size_t(std::clamp(std::ceil((x1 + shift - s.start) / l.width) + 1, 0.0, n));
        const double scale = valuePerByte(s, l.width);
        std::vector<double> sum(b1 - b0, 0.0);
        for (int c = 0; c < s.channels(); ++c) {
            const std::vector<float> &ch = l.ch[std::size_t(c)];
            QVector<QCPGraphData> pts;
            pts.reserve(int(b1 - b0) + 1);
            for (std::size_t b = b0; b < b1; ++b) {
                sum[b - b0] += double(ch[b]) * scale;
                pts.append(QCPGraphData(s.start + double(b) * l.width - shift, sum[b - b0]));
            }
            if (!pts.isEmpty()) { // close the last step
                pts.append(QCPGraphData(pts.back().key + l.width, pts.back().value));
            }
            lane.graphs[c]->data()->set(pts, true);
        }
        for (std::size_t b = b0; b < b1; ++b) {
            const double key = s.start + double(b) * l.width - shift;
            if (key + l.width >= x0 && key <= x1) {
                totals[s.baud > 0 ? 1 : 0].push_back(sum[b - b0]);
            }
        }
    }
    std::array<double, 2> top{};
    for (std::size_t u = 0; u < top.size(); ++u) {
        top[u] = totals[u].empty() ? 1.0 : robustLaneRange(std::move(totals[u])).top;
    }
    for (int i = 0; i < m_sources.size(); ++i) {
        if (QCPAxisRect *rect = m_lanes[sourceLane(i)].rect) {
            const double t = top[m_sources[i].series->baud > 0 ? 1 : 0];
            rect->axis(QCPAxis::atLeft)->setRange(0, t > 0 ? t : 1.0);
        }
    }
}

QString TimelineView::sourceReadout(int l, double x) const
{
    // The largest bands under the cursor, by their own height.
    const int i = l - sourceLane(0);
    const LaneState &lane = m_lanes[l];
    if (i < 0 || i >= m_sources.size()) {
        return {};
    }
    const SourceSeries &s = *m_sources[i].series;
    QVector<QPair<double, QString>> bands;
    double below = 0;
    for (int c = 0; c < lane.graphs.size(); ++c) {
        const QCPGraph *g = lane.graphs[c];
        auto it = g->data()->findBegin(x, false);
        if (it != g->data()->constBegin() && (it == g->data()->constEnd() || it->key > x)) {
            --it;
        }
        if (it == g->data()->constEnd()) {
            return {};
        }
        const double v = it->value - below;
        below = it->value;
        if (v > 0) {
            bands.append({v, elided(g->name(), 24)});
        }
    }
    std::sort(bands.begin(), bands.end(),
              [](const auto &a, const auto &b) { return a.first > b.first; });
    QStringList parts;
    for (int k = 0; k < bands.size() && k < 3; ++k) {
        parts << QStringLiteral("%1 %2%3")
                     .arg(bands[k].second)
                     .arg(bands[k].first, 0, 'f', bands[k].first >= 10 ? 0 : 1)
                     .arg(s.baud > 0 ? QStringLiteral(" %") : QStringLiteral(" B/s"));
    }
    if (!parts.isEmpty() && lane.binWidth > 0) {
        parts << (lane.binWidth >= 1
                      ? QStringLiteral("(%1 s bins)").arg(lane.binWidth, 0, 'g', 3)
                      : QStringLiteral("(%1 ms bins)").arg(lane.binWidth * 1000, 0, 'g', 3));
    }
    return parts.join(QStringLiteral("   "));
}

} // namespace tty
