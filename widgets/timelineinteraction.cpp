// Mouse interaction on the timeline: crosshair readouts, clicks, drags, zooms and tooltips.
#include "timelineview.h"

#include "crashes.h"
#include "laneplot.h"

#include <QMouseEvent>
#include <QRubberBand>
#include <QToolTip>

#include <qcustomplot.h>

#include <cmath>

namespace tty {

namespace {
QString fmtValue(double v)
{
    if (std::fabs(v) >= 100) {
        return QString::number(v, 'f', 0);
    }
    return QString::number(v, 'g', 3);
}
} // namespace

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
        if (isSourceLane(l)) {
            lane.readout->setText(sourceReadout(l, x));
            continue;
        }
        QStringList parts;
        for (int ri = 0; ri < lane.graphs.size(); ++ri) {
            QCPGraph *g = lane.graphs[ri];
            if (!g || g->data()->isEmpty()) {
                continue;
            }
            auto it = g->data()->findBegin(x, false);
            if (it != g->data()->constBegin() && it->key > x) {
                --it;
            }
            if (it == g->data()->constEnd()) {
                continue;
            }
            if (std::isnan(it->value)) {
                // The lag lane's gap: no line arrived or was being sent.
                parts << (m_runs.size() > 1 ? QStringLiteral("%1: idle").arg(m_runs[ri].label)
                                            : QStringLiteral("idle"));
                continue;
            }
            QString v = fmtValue(it->value);
            if (l == Wire && m_runs[ri].run->meta.baud > 0) {
                v += QStringLiteral(" (%1%)").arg(
                    100.0 * it->value / (m_runs[ri].run->meta.baud / 10.0), 0, 'f', 0);
            }
            parts << (m_runs.size() > 1 ? QStringLiteral("%1: %2").arg(m_runs[ri].label, v) : v);
        }
        if (!parts.isEmpty() && lane.binWidth > 0) {
            // Rates are per second at every zoom; the bin they average over is stated.
            parts << (lane.binWidth >= 1
                          ? QStringLiteral("(%1 s bins)").arg(fmtValue(lane.binWidth))
                          : QStringLiteral("(%1 ms bins)").arg(fmtValue(lane.binWidth * 1000)));
        }
        lane.readout->setText(parts.join(QStringLiteral("   ")));
    }
    m_plot->layer(QStringLiteral("cursor"))->replot();
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
                const LineText held = r.eventText(e);
                const std::string_view t = held.view();
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
                    tip += e.count == kCountOutOfRange
                               ? QStringLiteral("<br>messages dropped: count out of range")
                               : QStringLiteral("<br>%1 message(s) dropped").arg(e.count);
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

} // namespace tty
