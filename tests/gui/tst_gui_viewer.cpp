// The viewer on a real capture: lanes carry the core's series, navigation keeps lanes in
// step, markers and the log are linked, search and filter work, exports draw every lane.
#include "eventlist.h"
#include "figure.h"
#include "guitest.h"
#include "inputfile.h"
#include "loglineview.h"
#include "logpane.h"
#include "logview.h"
#include "mainwindow.h"
#include "metrics.h"
#include "metricspanel.h"
#include "noticebar.h"
#include "palette.h"
#include "runloader.h"
#include "timelinepoints.h"

#include <QClipboard>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QThread>
#include <QtTest>

#include <atomic>
#include <csignal>
#include <numeric>
#include <sys/stat.h>
#include <thread>

using namespace tty;
using namespace guitest;

class TestViewer : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<MainWindow> w;
    const Run *run() const { return w->session().sides[0].trials[0].run.get(); }
    std::optional<LineIndex> firstEventLine(EventKind k) const
    {
        for (const Event &e : run()->events) {
            if (e.kind == k) {
                return e.line;
            }
        }
        return std::nullopt;
    }

private slots:
    void initTestCase()
    {
        w = std::make_unique<MainWindow>();
        w->resize(1500, 1000);
        w->show();
        w->openFiles({sample("blast_crash-smp2-115200-t1.hostts.log.zst")});
        QVERIFY(w->waitForLoaded());
        QCOMPARE(w->session().sides.size(), 1);
        QCOMPARE(run()->lines.size(), 8803_lines); // the truth file's count
        QApplication::processEvents();
        w->timeline()->plot()->replot();
    }

    void lanesCarryTheCoreSeries()
    {
        TimelineView *t = w->timeline();
        t->resetZoom();
        const Metrics m = computeMetrics(*run(), MetricOptions());
        // Rates integrate back to counts: every line is in the printed lane once, every
        // kernel line and every dropped message in the produced lane once.
        QCOMPARE(qRound(integrate(t->laneGraph(TimelineView::Printed, 0))), int(m.lines));
        QCOMPARE(qRound(integrate(t->laneGraph(TimelineView::Produced, 0))),
                 int(m.kernelLines + m.droppedMessages));
        QCOMPARE(int(m.kernelLines + m.droppedMessages), 8476 + 1330); // truth: 1330 dropped
        double bytes = integrate(t->laneGraph(TimelineView::Wire, 0));
        QVERIFY2(std::abs(bytes - double(run()->bytes)) < 0.02 * run()->bytes,
                 qPrintable(QString::number(bytes)));
        // The drop lane is a rate (messages/s, the same unit at every zoom) that integrates
        // back to the N of the notices: nothing thinned away.
        const double dropped = integrate(t->laneGraph(TimelineView::Drops, 0));
        QCOMPARE(qRound(dropped), 1330);
        QCOMPARE(int(m.droppedMessages), 1330);
        double lagMax = 0;
        auto lag = t->laneGraph(TimelineView::Lag, 0)->data();
        for (int i = 0; i < lag->size(); ++i) {
            lagMax = std::max(lagMax, lag->at(i)->value);
        }
        QVERIFY2(m.lagMax && std::abs(lagMax - *m.lagMax) < 1e-3,
                 qPrintable(QStringLiteral("%1 vs %2").arg(lagMax).arg(m.lagMax.value_or(-1))));
        // Every drop notice is drawn: by its own marker, or by the marker of the pixel
        // column it shares with others (markers are merged per pixel, never dropped).
        QCPGraph *drops = t->markerGraph(0, EventKind::Drop);
        QVERIFY(drops->dataCount() > 20 && drops->dataCount() < 319);
        // Symbols stand at most one bucket (a symbol's width) apart.
        const double pixel = (t->xUpper() - t->xLower()) / drops->keyAxis()->axisRect()->width() *
                             kindStyle(EventKind::Drop).size;
        int covered = 0;
        for (const Event &e : run()->events) {
            if (e.kind != EventKind::Drop) {
                continue;
            }
            const double x = run()->eventTime(e).value().count();
            auto it = drops->data()->findBegin(x - pixel, false);
            covered +=
                (it != drops->data()->constEnd() && std::abs(it->key - x) <= 1.01 * pixel) ? 1 : 0;
        }
        QCOMPARE(covered, 319);
        QCOMPARE(t->markerGraph(0, EventKind::Panic)->dataCount(), 1);
        // Zoomed in on a burst, each notice gets a marker of its own.
        const double first =
            run()
                ->eventTime(run()->events[std::size_t(
                    std::find_if(run()->events.begin(), run()->events.end(),
                                 [](const Event &e) { return e.kind == EventKind::Drop; }) -
                    run()->events.begin())])
                .value()
                .count();
        t->setXRange(first - 0.001, first + 0.05);
        int inView = 0;
        for (const Event &e : run()->events) {
            const double x = run()->eventTime(e).value().count();
            inView +=
                (e.kind == EventKind::Drop && x >= first - 0.001 && x <= first + 0.05) ? 1 : 0;
        }
        QVERIFY(inView >= 1);
        QVERIFY(drops->dataCount() >= inView);
        t->resetZoom();
    }

    // Zoomed in to a few milliseconds a bin, the wire lane and the lag lane follow the
    // UART: a line's bytes over the time they took on the wire, the lag of the line being
    // sent while the next had not come. Before, each line's bytes stood in its first
    // byte's bin (a lane jumping between 0 and several times the UART's capacity) and a
    // bin where no line began had a lag of 0 s, in a flood 13 s behind.
    void zoomedLanesFollowTheWire()
    {
        TimelineView *t = w->timeline();
        const std::optional<LineIndex> drop = firstEventLine(EventKind::Drop);
        QVERIFY(drop);
        const double at = run()->timeOf(*drop).value().count();
        t->setXRange(at, at + 1);
        QCPGraph *lag = t->laneGraph(TimelineView::Lag, 0);
        QCPGraph *wire = t->laneGraph(TimelineView::Wire, 0);
        int gaps = 0, points = 0;
        double lowest = 1e9, busiest = 0;
        for (const QCPGraphData &p : *lag->data()) {
            if (p.key >= at && p.key < at + 1) {
                ++points;
                gaps += std::isnan(p.value) ? 1 : 0;
                lowest = std::isnan(p.value) ? lowest : std::min(lowest, p.value);
            }
        }
        for (const QCPGraphData &p : *wire->data()) {
            if (p.key >= at && p.key < at + 1) {
                busiest = std::max(busiest, p.value);
            }
        }
        QCOMPARE(t->laneBinWidth(TimelineView::Lag), 0.004);
        QCOMPARE(points, 250);
        QCOMPARE(gaps, 1); // the host read nothing for a bin: 4 ms more than a line takes
        QVERIFY2(lowest > 9, qPrintable(QString::number(lowest)));
        // Up to 120 % of 11,520 B/s in a bin, where the host read a line sooner than the
        // UART sends it; a line's 80 bytes in one 4 ms bin were 174 %.
        QVERIFY2(busiest < 1.25 * 11520, qPrintable(QString::number(busiest)));

        // The longest silence between two lines: after the first line's time on the wire,
        // the lag lane has a gap (no line, no lag; it was drawn as 0 s) and the readout
        // says so.
        LineIndex before(0);
        double silence = 0;
        for (LineIndex i(1); i < run()->lines.endIndex(); ++i) {
            const double gap = (*run()->timeOf(i) - *run()->timeOf(i - 1_lines)).count();
            if (gap > silence) {
                silence = gap;
                before = i - 1_lines;
            }
        }
        QVERIFY(silence > 1);
        const double quietFrom = run()->timeOf(before)->count();
        t->setXRange(quietFrom, quietFrom + silence);
        const double bin = t->laneBinWidth(TimelineView::Lag);
        double frontier = -1e300;
        const double sent =
            std::max(
                quietFrom,
                run()->wireSpan(quietFrom, run()->wireBytes(before), std::nullopt, &frontier).to) +
            bin;
        int inside = 0;
        for (const QCPGraphData &p : *lag->data()) {
            if (p.key >= sent && p.key + bin <= quietFrom + silence) {
                ++inside;
                QVERIFY2(std::isnan(p.value), qPrintable(QString::number(p.key)));
            }
        }
        QVERIFY(inside > 100);
        QCPAxisRect *lagRect = t->laneRect(TimelineView::Lag);
        const QPoint middle(
            int(lagRect->axis(QCPAxis::atBottom)->coordToPixel(quietFrom + silence / 2)),
            lagRect->rect().center().y());
        QMouseEvent move(QEvent::MouseMove, middle, t->plot()->mapToGlobal(middle), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(t->plot(), &move);
        QCOMPARE(t->laneReadout(TimelineView::Lag).left(4), QStringLiteral("idle"));
        t->resetZoom();
    }

    void zoomingOneLaneMovesAll()
    {
        TimelineView *t = w->timeline();
        QCPAxis *lagX = t->laneRect(TimelineView::Lag)->axis(QCPAxis::atBottom);
        lagX->setRange(12.5, 17.25);
        for (int l = 0; l < TimelineView::LaneCount; ++l) {
            const QCPRange r = t->laneRect(TimelineView::Lane(l))->axis(QCPAxis::atBottom)->range();
            QCOMPARE(r.lower, 12.5);
            QCOMPARE(r.upper, 17.25);
        }
        // Zoomed in, the lanes take finer bins: more points per second than at full range.
        const int zoomed = t->laneGraph(TimelineView::Printed, 0)->dataCount();
        QVERIFY(zoomed > 20);
        QVERIFY(zoomed < 5000); // about one per pixel, never one per line
        t->resetZoom();
        QVERIFY(t->xLower() < 0.5 && t->xUpper() > 47);
    }

    void clickingAMarkerShowsItsLine()
    {
        TimelineView *t = w->timeline();
        t->resetZoom();
        w->timeline()->plot()->replot();
        QCPGraph *g = t->markerGraph(0, EventKind::Panic);
        QVERIFY(g && g->dataCount() == 1);
        const double x = g->keyAxis()->coordToPixel(g->data()->at(0)->key);
        const double y = g->valueAxis()->coordToPixel(g->data()->at(0)->value);
        QTest::mouseClick(t->plot(), Qt::LeftButton, Qt::NoModifier, QPoint(int(x), int(y)));
        const std::optional<LineIndex> panic = firstEventLine(EventKind::Panic);
        QCOMPARE(lineNumber(panic.value()), 8763); // truth: first_kernel_panic.line
        QCOMPARE(w->logPane(0)->view()->currentLine(), panic);
        // ...and the event list follows.
        const QModelIndex cur = w->eventList()->table()->currentIndex();
        QVERIFY(cur.isValid());
        QCOMPARE(cur.data(EventModel::KindRole).toString(), QStringLiteral("panic"));
    }

    void eventListGroupsCrashesByTitle()
    {
        EventList *list = w->eventList();
        QComboBox *kinds = list->findChild<QComboBox *>();
        QVERIFY(kinds);
        const QString title =
            QStringLiteral("kernel panic: sysrq triggered crash in sysrq_handle_crash");
        const int i = kinds->findData(QStringLiteral("title:") + title);
        QVERIFY2(i >= 0, "no entry for the crash title");
        QCOMPARE(kinds->itemText(i), QStringLiteral("crash: %1 (1)").arg(title));
        kinds->setCurrentIndex(i);
        QCOMPARE(list->model()->rowCount(), 1);
        const QModelIndex row = list->model()->index(0, EventModel::Kind);
        QCOMPARE(row.data(EventModel::KindRole).toString(), QStringLiteral("panic"));
        QCOMPARE(row.data(EventModel::TitleRole).toString(), title);
        QCOMPARE(row.data(EventModel::RunRole).toInt(), 0);
        const Event &e = run()->events[std::size_t(row.data(EventModel::EventRole).toInt())];
        QVERIFY(run()->lines.text(e.line).str().find("Kernel panic - not syncing: sysrq triggered "
                                                     "crash") != std::string_view::npos);
        kinds->setCurrentIndex(0);
        QCOMPARE(list->model()->rowCount(), int(run()->events.size()));
    }

    void markersOnePerColumn()
    {
        // The first event of each column of `step` seconds, as a walk over every event
        // finds it, against markerPoints' search from column to column: the 319 drops at
        // a full view, a zoomed one and one where each drop has a column of its own; and
        // the same for the events of a part of the run only (a boot trial's).
        const EventKindIndex::Kind &drops = run()->eventsByKind.of(EventKind::Drop);
        QCOMPARE(drops.seconds.size(), std::size_t(319));
        const double shift = 3.5;
        const std::size_t mid = std::size_t(drops.events[100]),
                          late = std::size_t(drops.events[200]);
        const double zoom = std::floor(drops.seconds[150] - shift); // a second with drops
        for (const auto &[x0, x1, step, first, end] :
             {std::tuple{-10.0, 60.0, 0.1, std::size_t(0), std::size_t(-1)},
              std::tuple{zoom, zoom + 1.0, 0.002, std::size_t(0), std::size_t(-1)},
              std::tuple{0.0, 50.0, 1e-6, std::size_t(0), std::size_t(-1)},
              std::tuple{0.0, 50.0, 5.0, std::size_t(0), std::size_t(-1)},
              std::tuple{-10.0, 60.0, 0.1, mid, late}, std::tuple{0.0, 50.0, 1e-6, mid, late},
              std::tuple{0.0, 50.0, 5.0, mid, late},
              std::tuple{zoom, zoom + 1.0, 0.002, mid, late}}) {
            QVector<double> keys;
            QVector<int> events;
            double lastCol = -1e300;
            for (std::size_t i = 0; i < drops.seconds.size(); ++i) {
                const double x = drops.seconds[i] - shift;
                const std::size_t e = std::size_t(drops.events[i]);
                if (x < x0 - 10 * step || x > x1 + 10 * step || e < first || e >= end) {
                    continue;
                }
                const double col = std::floor((x - x0) / step);
                if (col != lastCol) {
                    keys.append(x);
                    events.append(drops.events[i]);
                    lastCol = col;
                }
            }
            QVector<int> got;
            const QVector<QCPGraphData> pts =
                markerPoints(drops, shift, 1.0, x0, x1, step, &got, first, end);
            QCOMPARE(got, events);
            QVERIFY2(!events.isEmpty(),
                     qPrintable(QStringLiteral("%1 %2 %3").arg(x0).arg(x1).arg(first)));
            QCOMPARE(pts.size(), keys.size());
            for (int i = 0; i < pts.size(); ++i) {
                QCOMPARE(pts[i].key, keys[i]);
                QCOMPARE(pts[i].value, 1.0);
            }
        }
    }

    void eventListFiltersSortsAndSelects()
    {
        EventList *list = w->eventList();
        EventModel *m = list->model();
        LogLineView *table = list->table();
        const int all = int(run()->events.size());
        QCOMPARE(m->rowCount(), all);
        QCOMPARE(m->kindCounts()[int(EventKind::Drop)], 319); // the truth's dropped_lines
        int panic = -1;
        for (int e = 0; e < all && panic < 0; ++e) {
            if (run()->events[std::size_t(e)].kind == EventKind::Panic) {
                panic = e;
            }
        }
        QVERIFY(panic >= 0);
        QCOMPARE(m->rowOf(0, panic), panic); // all shown, in order: a row is an event
        list->setKindFilter(QStringLiteral("drop"));
        QCOMPARE(m->rowCount(), 319);
        QCOMPARE(m->rowOf(0, panic), -1);
        // The drops in event order, each row naming its event.
        int previous = -1;
        for (int r = 0; r < m->rowCount(); ++r) {
            const int e = m->index(r, 0).data(EventModel::EventRole).toInt();
            QVERIFY(e > previous);
            QCOMPARE(run()->events[std::size_t(e)].kind, EventKind::Drop);
            previous = e;
        }
        // The first drop: line 3978, 8 messages (the truth's dropped_first).
        const QModelIndex first = m->index(0, EventModel::Kind);
        QCOMPARE(first.data().toString(), QStringLiteral("drop (8)"));
        QCOMPARE(
            lineNumber(run()->events[std::size_t(first.data(EventModel::EventRole).toInt())].line),
            3978);
        // The selection follows its event through a sort; the latest drop comes first.
        list->selectEvent(0, first.data(EventModel::EventRole).toInt());
        const int selected = first.data(EventModel::EventRole).toInt();
        table->sortByColumn(EventModel::Arrival, Qt::DescendingOrder);
        QCOMPARE(m->rowCount(), 319);
        QCOMPARE(table->currentIndex().data(EventModel::EventRole).toInt(), selected);
        QCOMPARE(table->currentIndex().row(), 318);
        QCOMPARE(m->index(0, 0).data(EventModel::EventRole).toInt(), previous);
        for (int r = 1; r < m->rowCount(); ++r) {
            QVERIFY(m->index(r - 1, EventModel::Arrival).data().toDouble() >=
                    m->index(r, EventModel::Arrival).data().toDouble());
        }
        // Selecting an event filtered out changes nothing.
        list->selectEvent(0, panic);
        QCOMPARE(table->currentIndex().data(EventModel::EventRole).toInt(), selected);
        // A click on a header section sorts by it; the kind column shows one name here.
        QHeaderView *header = table->horizontalHeader();
        const QPoint arrival(header->sectionViewportPosition(EventModel::Arrival) + 5,
                             header->height() / 2);
        QTest::mouseClick(header->viewport(), Qt::LeftButton, Qt::NoModifier, arrival);
        QCOMPARE(header->sortIndicatorSection(), int(EventModel::Arrival));
        const bool up = header->sortIndicatorOrder() == Qt::AscendingOrder;
        QCOMPARE(m->index(0, 0).data(EventModel::EventRole).toInt(), up ? selected : previous);
        // A click on a row shows its event in the log: the third row's drop.
        const int third = m->index(2, 0).data(EventModel::EventRole).toInt();
        QSignalSpy activated(list, &EventList::eventActivated);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier,
                          QPoint(header->sectionViewportPosition(EventModel::Text) + 10,
                                 2 * table->rowHeight() + table->rowHeight() / 2));
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated[0][1].toInt(), third);
        QCOMPARE(w->logPane(0)->view()->currentLine(), run()->events[std::size_t(third)].line);
        // Back to the events' own order, then all kinds.
        table->sortByColumn(-1, Qt::AscendingOrder);
        QCOMPARE(m->index(0, 0).data(EventModel::EventRole).toInt(), selected);
        list->setKindFilter(QString());
        QCOMPARE(m->rowCount(), all);
        QCOMPARE(m->index(panic, 0).data(EventModel::EventRole).toInt(), panic);
        list->selectEvent(0, panic);
        QCOMPARE(table->currentIndex().row(), panic);
    }

    void clickingTheTimelineMovesTheLog()
    {
        TimelineView *t = w->timeline();
        QCPAxisRect *rect = t->laneRect(TimelineView::Printed);
        const int px = int(rect->axis(QCPAxis::atBottom)->coordToPixel(20.0));
        QTest::mouseClick(t->plot(), Qt::LeftButton, Qt::NoModifier,
                          QPoint(px, rect->center().y()));
        const std::optional<LineIndex> l = w->logPane(0)->view()->currentLine();
        QVERIFY(l && *l > LineIndex(0));
        // The line shown is the last one that arrived by then.
        const double at = rect->axis(QCPAxis::atBottom)->pixelToCoord(px);
        QVERIFY(run()->timeOf(*l).value().count() <= at);
        QVERIFY(run()->timeOf(*l + 1_lines).value().count() > at);
    }

    void nextEventKeys()
    {
        TimelineView *t = w->timeline();
        t->setXRange(-1, 1);
        const auto [r, e] = t->stepEvent(1, EventKind::Panic);
        QCOMPARE(r, 0);
        QCOMPARE(run()->events[std::size_t(e)].kind, EventKind::Panic);
        const double centre = (t->xLower() + t->xUpper()) / 2;
        QVERIFY(std::abs(centre - run()->eventTime(run()->events[std::size_t(e)]).value().count()) <
                1e-6);
    }

    void searchAndFilter()
    {
        LogView *v = w->logPane(0)->view();
        // The banner and the end marker both say it; the first match is shown.
        v->search(QStringLiteral("Kernel panic - not syncing"), true);
        QCOMPARE(int(v->matchCount()), 2);
        QCOMPARE(v->currentLine(), firstEventLine(EventKind::Panic));
        v->search(QStringLiteral("^\\[\\s*\\d+\\.\\d+\\] sysrq: "), true);
        QCOMPARE(int(v->matchCount()), 11);
        v->setFilterToMatches(true);
        QCOMPARE(v->model()->rowCount(), 11);
        for (int r = 0; r < 11; ++r) {
            QVERIFY(v->model()
                        ->index(r, LogModel::Text)
                        .data()
                        .toString()
                        .contains(QStringLiteral("sysrq: ")));
        }
        v->setFilterToMatches(false);
        QCOMPARE(v->model()->rowCount(), 8803);
        v->search(QString(), true);
        QCOMPARE(int(v->matchCount()), 0);
    }

    void selectingLinesHighlightsTheirSpan()
    {
        LogView *v = w->logPane(0)->view();
        QSignalSpy spy(v, &LogView::selectionChanged);
        v->lines()->selectRow(100);
        QTest::keyClick(v->lines(), Qt::Key_Down, Qt::ShiftModifier);
        QVERIFY(spy.count() >= 1);
        const auto args = spy.last();
        QCOMPARE(args[0].value<LineIndex>(), LineIndex(100));
        QCOMPARE(args[1].value<LineIndex>(), LineIndex(101));
    }

    void exportDrawsEveryLane()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("view.png"));
        QString error;
        w->timeline()->resetZoom();
        QVERIFY2(w->exportFigure(png, 1600, 1100, 1.0, &error), qPrintable(error));
        QImage img(png);
        QCOMPARE(img.size(), QSize(1600, 1100));
        const QVector<QRect> lanes = w->timeline()->lastRenderLaneRects();
        // The fixed lanes and the stacked lane of wire time by source.
        QCOMPARE(lanes.size(), int(TimelineView::LaneCount) + 1);
        const QColor bg = plotBackground();
        for (int l = 0; l < lanes.size(); ++l) {
            QVERIFY(!lanes[l].isEmpty());
            const int ink = countInk(img, lanes[l].adjusted(2, 2, -2, -2), bg);
            QVERIFY2(ink > 300,
                     qPrintable(QStringLiteral("lane %1: %2 pixels drawn").arg(l).arg(ink)));
            // The run's own colour is in every data lane; the flood's in the stacked one.
            if (l >= TimelineView::LaneCount) {
                // Its band: the source's colour laid over the background at the fill's alpha.
                const QColor c = w->timeline()->sourceColor(0, 0);
                const double a = 0.78;
                const QColor band(int(c.red() * a + bg.red() * (1 - a)),
                                  int(c.green() * a + bg.green() * (1 - a)),
                                  int(c.blue() * a + bg.blue() * (1 - a)));
                QVERIFY(countColor(img, lanes[l], band) > 20);
            } else if (l != TimelineView::Events) {
                QVERIFY2(countColor(img, lanes[l], runColor(0)) > 20,
                         qPrintable(QString::number(l)));
            }
        }
        // The metrics table is under the lanes.
        const QRect table(0, lanes.back().bottom() + 60, 1600, 1100 - lanes.back().bottom() - 60);
        QVERIFY(countInk(img, table, bg) > 2000);
        // PDF export works too.
        const QString pdf = dir.filePath(QStringLiteral("view.pdf"));
        QVERIFY2(w->exportFigure(pdf, 1600, 1100, 1.0, &error), qPrintable(error));
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
        QVERIFY(f.size() > 10000);
    }

    // A raw capture of a board that had been running for 88 s (it starts mid-line, then
    // at kernel time 88.120001): its timeline starts at its first line, not 88 s before
    // it at kernel time 0, where 93 % of the view was empty.
    // `export --range FROM:TO` draws that part of the axis: a second of the flood is not the
    // whole capture's picture, and a range that is no range is refused before loading.
    void exportRange_data()
    {
        QTest::addColumn<QString>("range");
        QTest::addColumn<int>("status");
        QTest::newRow("a second of the flood") << QStringLiteral("24.8:25.8") << 0;
        QTest::newRow("backwards") << QStringLiteral("25:24") << 2;
        QTest::newRow("empty") << QStringLiteral("25:25") << 2;
        QTest::newRow("one number") << QStringLiteral("25") << 2;
        QTest::newRow("not a number") << QStringLiteral("a:b") << 2;
        QTest::newRow("infinite") << QStringLiteral("0:inf") << 2;
    }
    void exportRange()
    {
        QFETCH(QString, range);
        QFETCH(int, status);
        QTemporaryDir dir;
        const QString file = sample("blast_crash-smp2-115200-t1.hostts.log.zst");
        const auto draw = [&](const QStringList &extra, const QString &png) {
            QProcess p;
            p.start(QStringLiteral(TTYSCOPE_BIN),
                    QStringList{QStringLiteral("export"), QStringLiteral("--png"), png,
                                QStringLiteral("--width"), QStringLiteral("900"),
                                QStringLiteral("--height"), QStringLiteral("700"),
                                QStringLiteral("--no-table")} +
                        extra + QStringList{file});
            p.waitForFinished(60000);
            return qMakePair(p.exitCode(), QString::fromUtf8(p.readAllStandardError()));
        };
        const QString part = dir.filePath(QStringLiteral("part.png"));
        const auto [rc, err] = draw({QStringLiteral("--range"), range}, part);
        QCOMPARE(rc, status);
        if (status != 0) {
            QVERIFY2(err.contains(QStringLiteral("--range wants FROM:TO in seconds")),
                     qPrintable(err));
            QVERIFY(!QFile::exists(part));
            return;
        }
        const QString whole = dir.filePath(QStringLiteral("whole.png"));
        QCOMPARE(draw({}, whole).first, 0);
        const QImage a(part), b(whole);
        QCOMPARE(a.size(), QSize(900, 700));
        QCOMPARE(b.size(), a.size());
        QVERIFY(a != b);
    }

    void rawCaptureOfARunningBoard()
    {
        QTemporaryDir dir;
        QFile crash(QStringLiteral(TTYSCOPE_SAMPLES "/../crashes/riscv_oops_66.log"));
        QVERIFY(crash.open(QIODevice::ReadOnly));
        const QString path = dir.filePath(QStringLiteral("attached.log"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("et0: link up, 100Mbps\n" + crash.readAll());
        out.close();
        MainWindow w2;
        w2.openFiles({path});
        QVERIFY(w2.waitForLoaded());
        const Run &r = *w2.session().sides[0].trials[0].run;
        // The line before the first timestamp takes its time.
        QCOMPARE(r.timeOf(LineIndex(0)), r.timeOf(LineIndex(1)));
        QCOMPARE(std::llround(r.timeOf(LineIndex(1))->count() * 1e6), 88120001LL);
        // Aligned on the capture's start, the view runs from its first line (0 s) to the
        // panic's end (6.884843 s), with 1 % of margin.
        TimelineView *t = w2.timeline();
        QVERIFY2(t->dataStart() > -0.1 && t->dataStart() < 0,
                 qPrintable(QString::number(t->dataStart())));
        QVERIFY2(t->dataEnd() > 6.88 && t->dataEnd() < 7.0,
                 qPrintable(QString::number(t->dataEnd())));
    }

    // A warning is shown as written: its quotes are no "&quot;" (an escaped message without a
    // tag was taken for plain text), and two warnings stand one under the other.
    void warningsShowAsWritten()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("netconsole.log"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("1700000000.000000\t6,0,0,-,ncfrag=0/10;abcde6,0,0,-,ncfrag=5/10;fghij\n"
                "1700000000.100000\t[    0.0400] a <b> lost digits\n");
        f.close();
        MainWindow w2;
        w2.openFiles({path});
        QVERIFY(w2.waitForLoaded());
        const auto *label = w2.notices()->findChild<QLabel *>();
        QVERIFY(label);
        QCOMPARE(label->textFormat(), Qt::RichText);
        QTextDocument shown;
        shown.setHtml(w2.notices()->text());
        // <br> is a line separator in the document.
        const QStringList lines =
            shown.toPlainText().replace(QChar::LineSeparator, u'\n').split(u'\n');
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], QStringLiteral("netconsole.log: 1 line(s) began with a kernel timestamp "
                                          "that is not printk's (first: line 2, '[    0.0400]'): "
                                          "characters were lost on the line; they count as lines "
                                          "without a kernel time"));
        QCOMPARE(lines[1],
                 QStringLiteral("netconsole.log: 1 record(s) longer than one of netconsole's "
                                "datagrams came in fragments (first: line 1): each is one "
                                "line, with the headers of its later fragments "
                                "(\",ncfrag=\") inside its text"));
    }

    // A netconsole's bytes crossed no serial line: its lane is of bytes received, unless a
    // serial console beside it has a wire.
    void netconsoleLanes()
    {
        const QString dir = QStringLiteral(TTYSCOPE_FIXTURES "/netconsole/");
        MainWindow w2;
        w2.openFiles({dir + QStringLiteral("plain.ttyrec.zst"),
                      dir + QStringLiteral("extended.ttyrec.zst")});
        QVERIFY(w2.waitForLoaded());
        QCOMPARE(w2.session().sides.size(), 2);
        QCOMPARE(w2.timeline()->laneAxisLabel(TimelineView::Wire),
                 QStringLiteral("received\nbytes/s"));
        MainWindow w3;
        w3.openFiles({sample("boot_login-default-smp2-115200-t1.hostts.log.zst"),
                      dir + QStringLiteral("extended.ttyrec.zst")});
        QVERIFY(w3.waitForLoaded());
        QCOMPARE(w3.session().sides.size(), 2);
        QCOMPARE(w3.timeline()->laneAxisLabel(TimelineView::Wire),
                 QStringLiteral("on the wire\nbytes/s"));
    }

    // The kernel time column shows each line's timestamp; the text column leaves the
    // line's own out (a narrow pane showed little more than "[    4.129775] har"), keeps
    // what no column shows, and a copy keeps the whole line.
    void timestampsLeftToTheirColumn_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<int>("hidden");
        QTest::newRow("printk") << QByteArray("[    4.129775] harness: insmod") << 15;
        QTest::newRow("level") << QByteArray("<6>[    1.000000] x") << 18;
        QTest::newRow("caller kept") << QByteArray("[    1.000000][    T1] x") << 14;
        QTest::newRow("no space") << QByteArray("[    1.000000]x") << 14;
        QTest::newRow("only a time") << QByteArray("[    1.000000]") << 14;
        QTest::newRow("record header") << QByteArray("6,416,1758426,-;pci 0000:00:01.0") << 16;
        QTest::newRow("header with caller") << QByteArray("4,7,2000,-,caller=T1;x") << 21;
        QTest::newRow("behind a prompt")
            << QByteArray("corpusvm login: [    4.884373] harness: poweroff") << 0;
        QTest::newRow("lost digits") << QByteArray("[    0.0400] x") << 0;
        QTest::newRow("no time") << QByteArray("8250: ttyS0 at I/O 0x3f8") << 0;
        QTest::newRow("empty") << QByteArray() << 0;
    }
    void timestampsLeftToTheirColumn()
    {
        QFETCH(QByteArray, line);
        QFETCH(int, hidden);
        QCOMPARE(LogModel::timestampBytes(std::string_view(line.constData(), line.size())),
                 std::size_t(hidden));
    }

    void timestampsLeftToTheirColumnOnRealLogs()
    {
        MainWindow w2;
        w2.resize(1366, 768);
        w2.show();
        w2.openFiles({sample("boot_login-default-smp2-115200-t1.hostts.log.zst"),
                      QStringLiteral(TTYSCOPE_FIXTURES "/netconsole/extended.ttyrec.zst")});
        QVERIFY(w2.waitForLoaded());
        LogView *boot = w2.logPane(0)->view();
        LogView *ext = w2.logPane(1)->view();
        auto text = [](LogView *v, int row) {
            return v->model()->index(row, LogModel::Text).data().toString();
        };
        auto kernel = [](LogView *v, int row) {
            return v->model()->index(row, LogModel::Kernel).data().toString();
        };
        // Line 10 of the capture, and line 368, whose timestamp stands behind the prompt.
        QCOMPARE(kernel(boot, 9), QStringLiteral("0.000000"));
        QCOMPARE(text(boot, 9),
                 QStringLiteral("Command line: console=ttyS0,115200 panic=0 scenario=boot_login"));
        QCOMPARE(kernel(boot, 367), QStringLiteral("4.884373"));
        QCOMPARE(text(boot, 367),
                 QStringLiteral("corpusvm login: [    4.884373] harness: poweroff"));
        // netconsole's record header is the timestamp of its form.
        QCOMPARE(kernel(ext, 1), QStringLiteral("0.000000"));
        QCOMPARE(text(ext, 1), QStringLiteral("Command line: console=ttyS0,115200 panic=0 "
                                              "printk.devkmsg=on nc_port=17001 nc_ext_port=17002"));
        // Copied: as the console printed it.
        LogLineView *lines = boot->lines();
        lines->selectRow(9);
        QTest::keySequence(lines, QKeySequence::Copy);
        QCOMPARE(QApplication::clipboard()->text(),
                 QStringLiteral("[    0.000000] Command line: console=ttyS0,115200 panic=0 "
                                "scenario=boot_login\n"));
        // Asked for, the timestamps come back in every pane.
        w2.findChild<QAction *>(QStringLiteral("timesInText"))->setChecked(true);
        QCOMPARE(text(boot, 9), QStringLiteral("[    0.000000] Command line: console=ttyS0,115200 "
                                               "panic=0 scenario=boot_login"));
        QCOMPARE(text(ext, 1), QStringLiteral("6,1,0,-;Command line: console=ttyS0,115200 "
                                              "panic=0 printk.devkmsg=on nc_port=17001 "
                                              "nc_ext_port=17002"));
        w2.findChild<QAction *>(QStringLiteral("timesInText"))->setChecked(false);
        // The time columns are as wide as this log's values need (9.288 s of capture, 5.9 s of
        // kernel time, 371 lines; a lag up to their sum), at least their titles: the rest is
        // the text's.
        const QFontMetrics mono(lines->font());
        const QFontMetrics header(lines->horizontalHeader()->font());
        const int margin = 2 * mono.horizontalAdvance(QLatin1Char('0'));
        auto expected = [&](const QString &widest, const QString &title) {
            return std::max(mono.horizontalAdvance(widest), header.horizontalAdvance(title)) +
                   margin;
        };
        QCOMPARE(lines->horizontalHeader()->sectionSize(LogModel::Number),
                 expected(QStringLiteral("000"), QStringLiteral("line")));
        QCOMPARE(lines->horizontalHeader()->sectionSize(LogModel::Arrival),
                 expected(QStringLiteral("0.000000"), QStringLiteral("arrival (s)")));
        QCOMPARE(lines->horizontalHeader()->sectionSize(LogModel::Kernel),
                 expected(QStringLiteral("0.000000"), QStringLiteral("kernel time")));
        QCOMPARE(lines->horizontalHeader()->sectionSize(LogModel::Lag),
                 expected(QStringLiteral("00.000"), QStringLiteral("lag (s)"))); // 9.3 + 5.9 s
        // No number is cut: every cell of both logs fits its column.
        for (LogView *v : {boot, ext}) {
            const QHeaderView *h = v->lines()->horizontalHeader();
            for (int row = 0; row < v->model()->rowCount(); ++row) {
                for (int column : {int(LogModel::Number), int(LogModel::Arrival),
                                   int(LogModel::Kernel), int(LogModel::Lag)}) {
                    const QString cell = v->model()->index(row, column).data().toString();
                    QVERIFY2(
                        mono.horizontalAdvance(cell) + margin <= h->sectionSize(column),
                        qPrintable(
                            QStringLiteral("row %1 column %2: %3").arg(row).arg(column).arg(cell)));
                }
            }
        }
        // A capture attached to a console already far behind: the 6.12-rt flood from its
        // 6000th line on, whose lines came more than 10 s late. Their lags fit too.
        QString error;
        InputFile in;
        QVERIFY2(in.open(sample("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst"), &error),
                 qPrintable(error));
        QByteArray all;
        for (QByteArray block(int(InputFile::kBlockBytes), '\0');;) {
            const std::size_t n = in.readInto(block.data(), std::size_t(block.size()));
            if (n == 0) {
                break;
            }
            all.append(block.constData(), qsizetype(n));
        }
        const QList<QByteArray> rows = all.split('\n');
        QTemporaryDir dir;
        QFile late(dir.filePath(QStringLiteral("late.hostts.log")));
        QVERIFY(late.open(QIODevice::WriteOnly));
        late.write(rows.mid(6000).join('\n'));
        late.close();
        const std::shared_ptr<const Run> lateRun(loadRun(late.fileName(), LoadOptions{}, &error));
        QVERIFY2(lateRun, qPrintable(error));
        LogView lateView;
        lateView.setRun(lateRun);
        double maxLag = 0;
        for (int row = 0; row < lateView.model()->rowCount(); ++row) {
            const QString cell = lateView.model()->index(row, LogModel::Lag).data().toString();
            maxLag = std::max(maxLag, cell.toDouble());
            QVERIFY2(mono.horizontalAdvance(cell) + margin <=
                         lateView.lines()->horizontalHeader()->sectionSize(LogModel::Lag),
                     qPrintable(cell));
        }
        QVERIFY2(maxLag > 10, qPrintable(QString::number(maxLag)));
    }

    void damagedFileSaysWhatWasKept()
    {
        // A zstd file cut in the middle: the window says so and shows what was read.
        QTemporaryDir dir;
        QFile in(sample("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray all = in.readAll();
        const QString cut = dir.filePath(QStringLiteral("cut.log.zst"));
        QFile out(cut);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(all.left(all.size() / 2));
        out.close();
        MainWindow w2;
        w2.openFiles({cut});
        QVERIFY(w2.waitForLoaded());
        QVERIFY(!w2.session().isEmpty());
        const qint64 kept = w2.session().sides[0].trials[0].run->lines.size().count();
        QVERIFY(kept > 1000 && kept < 11365);
        QVERIFY2(w2.notices()->isVisibleTo(&w2) &&
                     w2.notices()->text().contains(QStringLiteral("truncated")),
                 qPrintable(w2.notices()->text()));
    }

    void manyWarningsScrollInTheirStrip()
    {
        // 20 different warnings from a recorder, each two lines long at 1366 px: the strip
        // shows 6 lines and scrolls; the window keeps its size and the timeline its room.
        static const char *const kKinds[] = {"apple", "banana", "cherry", "damson", "elder",
                                             "fig",   "grape",  "hazel",  "iris",   "juniper",
                                             "kiwi",  "lemon",  "mango",  "nectar", "olive",
                                             "peach", "quince", "rowan",  "sloe",   "tangelo"};
        QByteArray rec("TTYSCOPE-REC 1\n");
        auto record = [&](char type, const QByteArray &payload) {
            rec += QByteArray(1, type) + " 1700000000000000000 1000 " +
                   QByteArray::number(payload.size()) + '\n' + payload + '\n';
        };
        record('D', "[    0.000000] Linux version 6.1.0 (test)\n[    1.000000] hello\n");
        for (const char *kind : kKinds) {
            record('W', QByteArray("the recorder had trouble of the ") + kind +
                            " kind, which takes a long explanation that wraps on a window of "
                            "the size of a laptop's screen");
        }
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("warned.ttyrec"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(rec);
        out.close();
        MainWindow w2;
        w2.resize(1366, 768);
        w2.show();
        w2.openFiles({path});
        QVERIFY(w2.waitForLoaded());
        QApplication::processEvents();
        NoticeBar *bar = w2.notices();
        QVERIFY(bar->isVisibleTo(&w2));
        for (const char *kind : kKinds) {
            QVERIFY2(bar->text().contains(QLatin1String(kind)), kind); // all there, scrolled
        }
        const int line = bar->fontMetrics().lineSpacing();
        QVERIFY2(bar->height() <= NoticeBar::kMaxLines * line + 4 * line,
                 qPrintable(QStringLiteral("%1 px, lines of %2 px").arg(bar->height()).arg(line)));
        QVERIFY(bar->height() >= NoticeBar::kMaxLines * line);
        QCOMPARE(w2.size(), QSize(1366, 768));
        QVERIFY2(w2.timeline()->height() > 300,
                 qPrintable(QString::number(w2.timeline()->height())));
    }

    void unreadableFileIsReported()
    {
        MainWindow w2;
        w2.openFiles({QStringLiteral("/nonexistent/console.log")});
        QVERIFY(w2.waitForLoaded());
        QVERIFY(w2.session().isEmpty());
        QVERIFY(w2.notices()->text().contains(QStringLiteral("No such file")));
    }

    void cancelKeepsWhatWasRead()
    {
        // A log that comes slowly through a pipe, so that the load is still running when
        // the test looks: progress shows lines, Cancel ends the load, and what was read
        // stays on screen with a notice saying so.
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("slow.log"));
        QVERIFY(mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        std::atomic<bool> stop{false};
        // Once the load ends the pipe has no reader: the feeder's write fails, not the test.
        const auto oldPipe = signal(SIGPIPE, SIG_IGN);
        std::thread feeder([&] {
            QFile f(fifo);
            if (!f.open(QIODevice::WriteOnly)) {
                return;
            }
            QByteArray chunk;
            for (int i = 0; i < 20000; ++i) {
                chunk += "1700000000." + QByteArray::number(100000 + i) + "\t[    1." +
                         QByteArray::number(100000 + i) + "] line " + QByteArray::number(i) + "\n";
            }
            while (!stop && f.write(chunk) == chunk.size()) {
                f.flush();
                QThread::msleep(20);
            }
        });
        MainWindow w2;
        w2.show();
        w2.openFiles({fifo});
        QPushButton *cancel = nullptr;
        for (QPushButton *b : w2.findChildren<QPushButton *>()) {
            cancel = b->text() == QStringLiteral("Cancel") ? b : cancel;
        }
        QVERIFY(cancel);
        auto progressLines = [&] {
            for (QLabel *l : w2.findChildren<QLabel *>()) {
                static const QRegularExpression re(QStringLiteral("^Loading .*, (\\d+) lines$"));
                const QRegularExpressionMatch m = re.match(l->text());
                if (m.hasMatch()) {
                    return m.captured(1).toLongLong();
                }
            }
            return qint64(0);
        };
        QTRY_VERIFY_WITH_TIMEOUT(cancel->isVisible() && progressLines() > 0, 20000);
        cancel->click();
        const bool loaded = w2.waitForLoaded(20000);
        stop = true;
        feeder.join();
        signal(SIGPIPE, oldPipe);
        QVERIFY(loaded);
        QVERIFY(!cancel->isVisible());
        QVERIFY(!w2.session().isEmpty());
        const Run &r = *w2.session().sides[0].trials[0].run;
        QVERIFY(r.lines.size() > 0_lines);
        QVERIFY2(r.load.outcome == LoadOutcome::Cancelled, loadOutcomeName(r.load.outcome));
        QVERIFY2(r.load.message.contains(QStringLiteral("cancelled")), qPrintable(r.load.message));
        QCOMPARE(std::string(r.lines.text(LineIndex(0)).str()),
                 std::string("[    1.100000] line 0"));
        QVERIFY2(w2.notices()->text().contains(QStringLiteral("cancelled")),
                 qPrintable(w2.notices()->text()));
    }

    void jumpsAndSelectsInABigLog()
    {
        // All rows are there at once (the view keeps nothing per row), a jump to a far
        // line puts it in the middle of the view, with and after a filter, and a Shift
        // selection copies exactly its lines.
        QByteArray text;
        const int n = 600000;
        for (int i = 0; i < n; ++i) {
            text += "1700000000." + QByteArray::number(100000 + i) + "\t[    1." +
                    QByteArray::number(100000 + i) + "] seq " + QByteArray::number(i) + "\n";
        }
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("many.log"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(text) == text.size());
        f.close();
        QString error;
        std::shared_ptr<const Run> run = loadRun(path, LoadOptions{}, &error);
        QVERIFY2(run, qPrintable(error));
        LogView v;
        v.resize(800, 400);
        v.show();
        v.setRun(run);
        QCOMPARE(v.model()->rowCount(), n);
        LogLineView *lines = v.lines();
        const int sight = lines->viewport()->height() / lines->rowHeight();
        QVERIFY(sight > 5);
        v.showLine(LineIndex(590000));
        QCOMPARE(v.currentLine(), LineIndex(590000));
        QCOMPARE(lines->firstVisibleRow(), 590000 - sight / 2);
        const QRect cell = lines->visualRect(v.model()->index(590000, LogModel::Text));
        QVERIFY(lines->viewport()->rect().contains(cell));
        QCOMPARE(lines->indexAt(cell.center()).row(), 590000);

        // "seq 5" is in the lines 5, 50-59, 500-599, ... 500000-599999: 111,111 of them.
        // The search moves on to the next match, which the filter keeps current.
        v.search(QStringLiteral("seq 5"), true);
        QCOMPARE(v.currentLine(), LineIndex(590001));
        v.setFilterToMatches(true);
        QCOMPARE(v.model()->rowCount(), 111111);
        QCOMPARE(v.currentLine(), LineIndex(590001));
        QCOMPARE(lines->currentIndex().row(), 111111 - 9999); // 590001 is the 10,000th last
        v.setFilterToMatches(false);
        QCOMPARE(v.model()->rowCount(), n);
        v.showLine(LineIndex(580000));
        QCOMPARE(v.currentLine(), LineIndex(580000));
        QCOMPARE(lines->firstVisibleRow(), 580000 - sight / 2);
        v.showLine(LineIndex(n - 1)); // the last line: the view ends with it
        QCOMPARE(lines->firstVisibleRow(), n - sight);

        v.search(QString(), true);
        lines->selectRow(10);
        QTest::keyClick(lines, Qt::Key_Down, Qt::ShiftModifier);
        QTest::keyClick(lines, Qt::Key_Down, Qt::ShiftModifier);
        QCOMPARE(v.currentLine(), LineIndex(12));
        QCOMPARE(v.model()->index(10, LogModel::Text).data().toString(), QStringLiteral("seq 10"));
        QTest::keySequence(lines, QKeySequence::Copy);
        QCOMPARE(QApplication::clipboard()->text(),
                 QStringLiteral("[    1.100010] seq 10\n[    1.100011] seq 11\n"
                                "[    1.100012] seq 12\n"));
        QTest::keyClick(lines, Qt::Key_End);
        QCOMPARE(v.currentLine(), LineIndex(n - 1));
        QCOMPARE(lines->selectionModel()->selection().size(), 1);
        QCOMPARE(lines->selectionModel()->selection().front().top(), n - 1);
    }

    void compareBootsOfOneCapture()
    {
        // Two real captures in a row, as a console server logs across a reboot: the boot
        // row of the metrics dock makes them sides A and B.
        QByteArray both;
        for (const char *name :
             {"panic_noroot-smp2-115200-t1.raw.zst", "boot_login-default-smp2-115200-t1.raw.zst"}) {
            QProcess z;
            z.start(QStringLiteral("zstd"), {QStringLiteral("-dc"), sample(name)});
            QVERIFY(z.waitForFinished(10000));
            both += z.readAllStandardOutput();
        }
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lab.log"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(both) == both.size());
        f.close();
        MainWindow w2;
        w2.resize(1366, 768);
        w2.show();
        w2.openFiles({path});
        QVERIFY(w2.waitForLoaded());
        QCOMPARE(int(w2.session().sides[0].trials[0].run->boots.size()), 2);
        MetricsPanel *panel = w2.metricsPanel();
        QVERIFY(panel->bootsA()->isVisibleTo(&w2));
        {
            // `ttyscope --boots 2 lab.log`: the window opens that boot as the trial, as
            // `report --boots 2` reports it (the option was accepted and ignored before).
            MainWindow w3;
            OpenRequest r;
            r.sides = {{path}};
            r.boots = {QStringLiteral("2")};
            w3.open(r);
            QVERIFY(w3.waitForLoaded());
            QCOMPARE(w3.session().sides.size(), 1);
            QCOMPARE(w3.session().sides[0].trials.size(), 1);
            QCOMPARE(w3.session().sides[0].trials[0].boot, std::optional<int>(1));
            QCOMPARE(w3.session().report().rows().front().values[0],
                     std::vector<std::optional<double>>{371}); // boot_login truth
            // The dock names the boot shown, and the log opens at its first line.
            QCOMPARE(w3.metricsPanel()->selectedBoot(), 1);
            const Run &lab = *w3.session().sides[0].trials[0].run;
            QCOMPARE(w3.logPane(0)->view()->currentLine(),
                     std::optional<LineIndex>(lab.boots[1].first));
            r.boots = {QStringLiteral("/no such line/")};
            w3.open(r);
            QVERIFY(w3.waitForLoaded());
            QVERIFY2(w3.notices()->text().contains(QStringLiteral(
                         "lab.log: --boots /no such line/ chooses none of its 2 boots")),
                     qPrintable(w3.notices()->text()));
            QProcess bad;
            bad.start(QStringLiteral(TTYSCOPE_BIN),
                      {QStringLiteral("--boots"), QStringLiteral("2-"),
                       QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("x.png")),
                       path});
            QVERIFY(bad.waitForFinished(30000));
            QCOMPARE(bad.exitCode(), 2);
            QVERIFY2(bad.readAllStandardError().contains("ttyscope: --boots: "),
                     "a malformed selector is refused, not ignored");
            QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))));
        }
        {
            // One boot chosen in the metrics dock: the event list and the timeline show its
            // events alone (as for a boot trial), and the whole capture again after.
            const Run &run = *w2.session().sides[0].trials[0].run;
            const std::size_t inSecond = run.events.size() - run.eventsBefore(run.boots[1].first);
            QVERIFY(inSecond > 0 && inSecond < run.events.size());
            emit panel->bootSelected(1);
            QCOMPARE(w2.eventList()->model()->rowCount(), int(inSecond));
            QCOMPARE(w2.timeline()->markerGraph(0, EventKind::Panic)->dataCount(), 0);
            QVERIFY(w2.timeline()->xUpper() < run.timeOf(run.boots[1].end - 1_lines)->count());
            // Aligned on something else meanwhile, then back to the whole capture.
            Alignment a;
            a.kind = Alignment::Kind::FirstKernelLine;
            w2.setAlignment(a);
            QCOMPARE(w2.eventList()->model()->rowCount(), int(inSecond));
            emit panel->bootSelected(std::nullopt);
            QCOMPARE(w2.eventList()->model()->rowCount(), int(run.events.size()));
            QCOMPARE(w2.timeline()->markerGraph(0, EventKind::Panic)->dataCount(), 1);
            w2.setAlignment(Alignment{});
        }
        auto compare = [&](const QString &a, const QString &b) {
            panel->bootsA()->setText(a);
            panel->bootsB()->setText(b);
            emit panel->bootsB()->returnPressed();
        };
        compare(QStringLiteral("/Kernel panic/"), QStringLiteral("!/Kernel panic/"));
        QCOMPARE(w2.session().sides.size(), 2);
        QCOMPARE(w2.session().sides[0].trials.size(), 1);
        QCOMPARE(w2.session().sides[0].trials[0].boot, std::optional<int>(0));
        QCOMPARE(w2.session().sides[1].trials[0].boot, std::optional<int>(1));
        QCOMPARE(w2.session().sides[0].label, QStringLiteral("boots /Kernel panic/"));
        const Report r = w2.session().report();
        QCOMPARE(r.rows().front().key, QStringLiteral("lines"));
        QCOMPARE(r.rows().front().values[0],
                 std::vector<std::optional<double>>{370}); // panic_noroot truth
        QCOMPARE(r.rows().front().values[1],
                 std::vector<std::optional<double>>{371}); // boot_login truth
        // The event list shows each event once, under the side whose boot has it, at its
        // time from that boot's start (it listed the whole capture once per side, with
        // the other boot's events at times hundreds of seconds before or after).
        {
            const Run &run = *w2.session().sides[0].trials[0].run;
            const LineIndex second = run.boots[1].first;
            const auto inFirst = std::count_if(run.events.begin(), run.events.end(),
                                               [&](const Event &e) { return e.line < second; });
            QVERIFY(inFirst > 0 && std::size_t(inFirst) < run.events.size());
            EventModel *events = w2.eventList()->model();
            QCOMPARE(events->rowCount(), int(run.events.size()));
            std::vector<int> perSide(2, 0);
            for (int row = 0; row < events->rowCount(); ++row) {
                const int side = events->index(row, 0).data(EventModel::RunRole).toInt();
                const int e = events->index(row, 0).data(EventModel::EventRole).toInt();
                ++perSide[std::size_t(side)];
                QCOMPARE(run.events[std::size_t(e)].line < second, side == 0);
                QCOMPARE(events->rowOf(side, e), row);
                QCOMPARE(events->rowOf(1 - side, e), -1);
            }
            QCOMPARE(perSide, (std::vector<int>{int(inFirst), int(run.events.size() - inFirst)}));
            const QVector<int> kinds = events->kindCounts();
            QCOMPARE(std::accumulate(kinds.begin(), kinds.end(), 0), int(run.events.size()));
            // The timeline too draws each side's own boot: the panic only on side A's, and
            // the range is the longer boot, not the capture seen from each boot's start.
            TimelineView *t = w2.timeline();
            QCOMPARE(t->markerGraph(0, EventKind::Panic)->dataCount(), 1);
            QCOMPARE(t->markerGraph(1, EventKind::Panic)->dataCount(), 0);
            QCOMPARE(t->markerGraph(0, EventKind::Boot)->dataCount(), 1);
            QCOMPARE(t->markerGraph(1, EventKind::Boot)->dataCount(), 1);
        }
        // Still offered: the capture is the same one.
        QVERIFY(panel->bootsA()->isVisibleTo(&w2));
        if (qEnvironmentVariableIsSet("TTYSCOPE_SHOTS")) {
            QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
            QApplication::processEvents();
            w2.grab().save(qEnvironmentVariable("TTYSCOPE_SHOTS") + QStringLiteral("/boots.png"));
        }
        compare(QStringLiteral("1-2"), QStringLiteral("9"));
        QCOMPARE(w2.session().sides.size(), 2); // a selector choosing no boot changes nothing
        QVERIFY(w2.notices()->text().contains(QStringLiteral("none of the 2 boots")));
        compare(QString(), QString());
        QCOMPARE(w2.session().sides.size(), 1);
        QVERIFY(!w2.session().sides[0].trials[0].boot);
    }

    void cleanupTestCase() { w.reset(); }
};

QTEST_MAIN(TestViewer)
#include "tst_gui_viewer.moc"
