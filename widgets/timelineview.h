// Synchronized lanes over one time axis: produced and printed line rates, bytes on the
// wire against the UART's capacity, dropped messages, console lag and event markers, for
// one run or several (a comparison, groups of trials overlaid), and the wire time by source.
// Its methods live by job in timelineview.cpp (state, range, export), timelinelayout.cpp,
// timelinegraphs.cpp (with the pure timelinepoints.h), timelinesources.cpp (the stacked
// lanes), timelineinteraction.cpp and timelinenavigation.cpp.
#pragma once

#include "event.h"
#include "run.h"
#include "timelinedata.h"
#include "timeticker.h"

#include <QColor>
#include <QPointer>
#include <QVector>
#include <QWidget>

#include <map>
#include <memory>
#include <optional>
#include <set>

class QCustomPlot;
class QCPPainter;
class QCPAxisRect;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPItemRect;
class QCPTextElement;
class QCPLegend;
class QRubberBand;
class QScrollArea;

namespace tty {

class LanePlot;

class TimelineView : public QWidget
{
    Q_OBJECT
public:
    enum Lane { Produced, Printed, Wire, Drops, Lag, Events, LaneCount };
    Q_ENUM(Lane)

    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    void setRuns(const QVector<TimelineRun> &runs);
    // The runs grew (live capture): redraw, keeping the current range.
    void updateRuns(const QVector<TimelineRun> &runs);
    // Right end of the data, in x (for following a live capture).
    double dataEnd() const { return fullRange().second; }
    // Left end of the data, in x.
    double dataStart() const { return fullRange().first; }
    const QVector<TimelineRun> &runs() const { return m_runs; }
    // The trials of one side drawn at most. More lines than this on a lane are a solid band
    // that tells nothing one by one, and QCustomPlot keeps its plottables in lists searched
    // on every add: 10^4 boots as trials took 50 s to lay out. The metrics, the event list
    // and the log pane keep every trial; the legend says how many are drawn.
    static constexpr int kMaxTrialsDrawn = 50;
    // Whether a run has graphs and markers (the first kMaxTrialsDrawn of its side do).
    bool isDrawn(int run) const { return run >= 0 && run < m_drawn.size() && m_drawn[run]; }
    void setTitle(const QString &title);
    QString title() const;
    void setAxisTitle(const QString &title);
    void setTimeAxisMode(TimeAxisMode mode);
    TimeAxisMode timeAxisMode() const;
    void setLaneVisible(Lane lane, bool visible);
    bool laneVisible(Lane lane) const;
    static QString laneName(Lane lane);

    double xLower() const;
    double xUpper() const;
    void setXRange(double lower, double upper);
    void resetZoom();
    // Span of the selected log lines, drawn as a band across the lanes.
    void setHighlight(double x0, double x1);
    void clearHighlight();
    // The band's span, if one is shown.
    std::optional<QPair<double, double>> highlight() const;
    // The log view's current line, drawn as a thin line.
    void setCursorX(double x);

    // Moves to the next/previous event after/before the centre of the view (of `kind`
    // only, if given); returns the (run, event index) it moved to, or run -1.
    QPair<int, int> stepEvent(int direction, std::optional<EventKind> kind);

    // Lanes of matches per second for user regexes, between the lag and the event lanes.
    void setPatternLanes(const QVector<PatternSeries> &patterns);
    const QVector<PatternSeries> &patternLanes() const { return m_patterns; }
    QCPAxisRect *patternRect(int i) const
    {
        return i >= 0 && i < m_patterns.size() ? m_lanes.value(LaneCount + i).rect : nullptr;
    }
    QCPGraph *patternGraph(int i, int run) const;

    // Stacked lanes of wire time by source (% of the UART per bin, bytes/s without a baud
    // rate), right below the wire lane, each with a legend of its sources under it.
    void setSourceLanes(const QVector<SourceLane> &lanes);
    const QVector<SourceLane> &sourceLanes() const { return m_sources; }
    QCPAxisRect *sourceRect(int i) const { return m_lanes.value(sourceLane(i)).rect; }
    // Channel c of stacked lane i (0 .. top-1: its sources, top: "other"); its values are
    // the sum of the channels up to c (the stack's upper edge).
    QCPGraph *sourceGraph(int i, int channel) const;
    QCPLegend *sourceLegend(int i) const { return m_sourceLegends.value(i); }
    // What stacked lane i says of itself at its top right ("first trial only: …" on a side
    // of several trials); empty when it says nothing.
    QString sourceLaneNote(int i) const;
    double sourceBinWidth(int i) const { return m_lanes.value(sourceLane(i)).binWidth; }
    // The colour of a channel: a template keeps its colour in every lane it is drawn in.
    QColor sourceColor(int i, int channel) const;
    // The main legend (runs, event kinds).
    QCPLegend *legend() const { return m_legend; }

    QCustomPlot *plot() const;
    // The lanes scroll vertically when the view is too short for them at a legible height.
    QScrollArea *scrollArea() const { return m_scroll; }
    // Smallest inner height of a value lane, and of one row of the event lane.
    static constexpr int kMinLaneHeight = 60;
    // In an exported picture (its tick labels in the same font): three of them still fit.
    static constexpr int kMinExportLaneHeight = 36;
    int eventRowHeight() const;
    // Event kinds shown as rows of the event lane, top to bottom.
    const QVector<EventKind> &eventRows() const { return m_kindRows; }
    // Width of the bins the lane's series was last taken at (seconds; 0: none).
    double laneBinWidth(Lane lane) const { return m_lanes[lane].binWidth; }
    // Paints the view at a size of its own (export), with series chosen for that size.
    void renderTo(QCPPainter *painter, int width, int height);
    // The least height renderTo needs at that width for the title, every lane at its
    // minimum and the legend as it wraps there (a smaller one squeezes them into each other).
    int minimumRenderHeight(int width);
    // Where each lane was drawn by the last renderTo (empty rect: lane hidden).
    QVector<QRect> lastRenderLaneRects() const { return m_renderRects; }
    // The title's and the run legend's rectangles, and the title's text, in that render.
    struct RenderedFrame
    {
        QRect title, legend;
        QString titleText;
        int legendNeeds = 0; // the height its wrapped rows need at that width
    };
    RenderedFrame lastRenderFrame() const { return m_renderFrame; }
    QCPAxisRect *laneRect(Lane lane) const { return m_lanes[lane].rect; }
    // What a lane says in its middle when it has nothing to draw ("not available: the log
    // format has no host arrival times"); empty when it draws its data.
    QString laneNote(Lane lane) const
    {
        const QCPItemText *note = m_lanes.value(lane).missing;
        return note && note->visible() ? note->text() : QString();
    }
    // The title on a lane's axis, as drawn.
    QString laneAxisLabel(Lane lane) const
    {
        const QCPAxisRect *rect = m_lanes.value(lane).rect;
        return rect ? rect->axis(QCPAxis::atLeft)->label() : QString();
    }
    // What a lane's readout says for the cursor's last position (empty: none).
    QString laneReadout(Lane lane) const
    {
        const QCPItemText *r = m_lanes.value(lane).readout;
        return r ? r->text() : QString();
    }
    // Graph of a lane for run i (main series), for tests and tooltips.
    QCPGraph *laneGraph(Lane lane, int run) const;
    QCPGraph *markerGraph(int run, EventKind kind) const;

signals:
    void eventActivated(int run, int eventIndex);
    void timeActivated(double x);
    void rangeChanged(double lower, double upper);
    // The user zoomed or panned (not a programmatic setXRange): live follow pauses.
    void userMovedView();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    struct LaneState
    {
        QCPAxisRect *rect = nullptr;
        QCPItemText *readout = nullptr; // value under the cursor
        QCPItemText *missing = nullptr; // "the format has no host times"
        QCPItemStraightLine *crosshair = nullptr;
        QCPItemStraightLine *cursor = nullptr;
        QCPItemRect *highlight = nullptr;
        QVector<QCPGraph *> graphs;      // per run: main series
        QVector<QCPGraph *> extra;       // per run: secondary series (printed lines, mean lag)
        QVector<QCPGraph *> clips;       // per run: marks of values above the lane's range
        QCPItemText *clipNote = nullptr; // "▲ clipped: max ..."
        double binWidth = 0;             // seconds per bin of the series shown
        bool visible = true;
    };
    struct MarkerGraph
    {
        QCPGraph *graph;
        int run;
        EventKind kind;
        double y;
        const EventKindIndex::Kind *all; // every event of this kind (the run's index)
        QVector<int> events;             // event index per data point shown
    };

    // m_runs was set: which of them are drawn.
    void chooseDrawnRuns();
    void buildLayout();
    void buildGraphs();
    void refreshData();
    void updateReadouts(double x);
    void onXRangeChanged(const QCPRange &range);
    bool markerAt(const QPoint &pos, int *run, int *eventIndex, double *distance) const;
    double runX(int run, double runSeconds) const { return runSeconds - m_runs[run].shift; }
    void applyTheme();
    void refreshMarkers(double x0, double x1);
    // The UART's capacity in the wire lane, a line per baud rate (and, with two, the sides
    // at each): rate -> sides (groups).
    void refreshCapacityLines(QCPAxisRect *rect, const std::map<int, std::set<int>> &sidesOfRate);
    void refreshPatterns(double x0, double x1, QVector<double> &laneMax);
    // Lanes after the fixed ones: the pattern lanes, then the stacked source lanes.
    int sourceLane(int i) const { return LaneCount + int(m_patterns.size()) + i; }
    bool isSourceLane(int l) const { return l >= sourceLane(0); }
    void resizeLanes();
    // The stacked lanes (timelinesources.cpp).
    void assignSourceColors();
    void buildSourceGraphs();
    void refreshSources(double x0, double x1);
    QString sourceReadout(int lane, double x) const;
    QString sourceLaneLabel(int i) const;
    void fitLegend(QCPLegend *legend, int width);
    QVector<int> laneOrder() const;
    QCPItemStraightLine *verticalLine(QCPAxisRect *rect, const QPen &pen);
    int laneWidth() const;
    QString laneLabel(int lane) const;
    // Legend columns and title eliding for a plot of this width.
    void fitWidth(int width);
    // The widths of the legend's columns when entries of these widths fill a plot `width`
    // wide.
    QVector<int> legendColumnWidths(const QCPLegend *legend, const QVector<int> &item,
                                    int width) const;
    // The plot's minimum height: every lane at a legible height (the scroll area scrolls).
    void fitHeight();
    void setLaneMinimums(int valueLane);
    int screenPlotWidth() const;
    QPair<double, double> fullRange() const;

    QScrollArea *m_scroll = nullptr;
    LanePlot *m_plot = nullptr;
    QString m_fullTitle;
    QCPTextElement *m_title = nullptr;
    QCPLegend *m_legend = nullptr;
    QVector<LaneState> m_lanes;
    QVector<MarkerGraph> m_markers;
    QVector<EventKind> m_kindRows; // event lane rows, top to bottom
    QVector<PatternSeries> m_patterns;
    QVector<SourceLane> m_sources;
    QVector<QCPLegend *> m_sourceLegends; // per stacked lane, under it
    QVector<QVector<int>> m_sourceColors; // per stacked lane and channel: palette index
    QVector<TimelineRun> m_runs;
    QVector<bool> m_drawn;     // per run: isDrawn
    QVector<int> m_sideTrials; // per side (TimelineRun::group): its trials
    QSharedPointer<TimeTicker> m_ticker;
    QString m_axisTitle;
    QVector<QRect> m_renderRects;
    RenderedFrame m_renderFrame;
    int m_dataWidth = -1;     // lane width the series and markers were taken for
    int m_fittedWidth = -1;   // view width the title and legend were fitted to
    bool m_rendering = false; // renderTo is laying the plot out at the export size
    bool m_syncing = false;
    bool m_programmatic = false;
    QRubberBand *m_band = nullptr;
    QPoint m_bandOrigin;
    QPoint m_pressPos;
    bool m_bandActive = false;
};

} // namespace tty
