#include "laneplot.h"

#include <QTimer>

namespace tty {

LanePlot::LanePlot(QWidget *parent) : QCustomPlot(parent)
{
    // Any replot draws everything changed before it began. The two signals bracket the
    // part of a replot that lays out and draws (QCustomPlot's own flag for it, mReplotting,
    // is protected and not part of its API).
    connect(this, &QCustomPlot::beforeReplot, this, [this] {
        m_replotPending = false;
        m_inReplot = true;
    });
    connect(this, &QCustomPlot::afterReplot, this, [this] { m_inReplot = false; });
}

void LanePlot::requestReplot()
{
    if (m_inReplot) {
        // From a handler of beforeReplot or afterLayout: nothing is drawn yet.
        m_layoutAgain = true;
        return;
    }
    if (!m_replotPending) {
        m_replotPending = true;
        QTimer::singleShot(0, this, [this] {
            if (m_replotPending) {
                replot();
            }
        });
    }
}

void LanePlot::updateLayout()
{
    QCustomPlot::updateLayout(); // emits afterLayout
    // A handler that changed the layout each time would loop: two passes more at most (the
    // lanes' handler asks once, then finds its width unchanged).
    for (int pass = 0; m_layoutAgain && pass < 2; ++pass) {
        m_layoutAgain = false;
        QCustomPlot::updateLayout();
    }
    m_layoutAgain = false;
}

} // namespace tty
