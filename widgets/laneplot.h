// The timeline's plot: a QCustomPlot whose replots for a change coalesce with the replot a
// resize makes anyway.
//
// A resize replots at once (QCustomPlot::resizeEvent), and the lanes then take their series
// for the new width in an afterLayout handler, inside that replot; that can change the
// value axes' ranges, hence the ticks and margins the replot has just laid out. Both that
// handler and TimelineView's own resize handling used to queue a replot (rpQueuedReplot),
// which then drew the whole timeline again though nothing had changed since (a third of a
// big log's first-paint stall). Here a change made inside a replot, before it draws, is laid
// out again by that replot, and a queued replot is dropped if any replot ran in between.
#pragma once

#include <qcustomplot.h>

namespace tty {

class LanePlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit LanePlot(QWidget *parent = nullptr);

    // What changed is drawn: by the replot under way (laid out again first), or by one
    // queued, unless another replot comes before it.
    void requestReplot();

protected:
    void updateLayout() override;

private:
    bool m_inReplot = false; // between beforeReplot and afterReplot
    bool m_layoutAgain = false;
    bool m_replotPending = false;
};

} // namespace tty
