// The Sources dock (issue 14) in the real window, offscreen: computed in the background
// after the metrics, sorted by wire time with the flood on top, sortable; selecting a
// source filters the log to its lines (found on a worker) and highlights its time; "Add as
// lane" plots it; grouping by prefix; a comparison shows the A/B table. The stacked lane
// "wire time by source": the flood's bands hold its wire time, a template keeps its colour
// on both sides, the lane can be hidden.
#include "../stoppedcapture.h"
#include "guitest.h"
#include "logpane.h"
#include "logview.h"
#include "mainwindow.h"
#include "palette.h"
#include "sourcespanel.h"
#include "timelineview.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QProcess>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

using namespace tty;
using namespace guitest;

namespace {
QString cell(QTableView *t, int row, int column)
{
    return t->model()->index(row, column).data().toString();
}

// The height of band c of a stacked lane in each bin shown (the graphs hold the stack's
// upper edges), summed, times the bins' width: its wire seconds in view (values are % of
// the UART).
double bandWireSeconds(TimelineView *t, int lane, int c)
{
    QCPGraph *g = t->sourceGraph(lane, c);
    QCPGraph *below = c > 0 ? t->sourceGraph(lane, c - 1) : nullptr;
    double sum = 0;
    for (int i = 0; i + 1 < g->dataCount(); ++i) { // the last point closes the last step
        sum += g->data()->at(i)->value - (below ? below->data()->at(i)->value : 0.0);
    }
    return sum * t->sourceBinWidth(lane) / 100.0;
}

QAction *sourceLaneAction(MainWindow *w)
{
    for (QAction *a : w->findChildren<QAction *>()) {
        if (a->text() == QStringLiteral("wire time by source")) {
            return a;
        }
    }
    return nullptr;
}
} // namespace

class TestSources : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<MainWindow> w;

private slots:
    void init()
    {
        w = std::make_unique<MainWindow>();
        w->resize(1500, 950);
        w->show();
    }
    void cleanup() { w.reset(); }

    void floodOnTopAndSelectable()
    {
        w->openFiles({sample("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst")});
        QVERIFY(w->waitForLoaded());
        SourcesPanel *p = w->sourcesPanel();
        QVERIFY(p->sources());
        QCOMPARE(p->view()->count(), 1);
        QTableView *t = p->table();
        // Every column in view, the source cut to what the dock leaves (200 px at least).
        int width = 0;
        for (int c = 0; c < t->model()->columnCount(); ++c) {
            QVERIFY(t->columnWidth(c) > 0);
            width += t->columnWidth(c);
        }
        QVERIFY(width <= std::max(t->viewport()->width(), 200 + width - t->columnWidth(0)));
        QCOMPARE(t->model()->rowCount(), 314); // as `report --sources` counts them
        QCOMPARE(cell(t, 0, SourceModel::Source), QStringLiteral("noise: worker # seq #"));
        QCOMPARE(cell(t, 0, SourceModel::Lines), QStringLiteral("9397")); // truth noise_lines
        QCOMPARE(cell(t, 0, SourceModel::Wire), QStringLiteral("33.059"));
        QCOMPARE(cell(t, 0, SourceModel::Share), QStringLiteral("83.0 %"));
        QCOMPARE(cell(t, 0, SourceModel::Dropped), QStringLiteral("3881"));
        QCOMPARE(cell(t, 1, SourceModel::Source),
                 QStringLiteral("[no timestamp] ** # printk messages dropped **"));

        // Sorting by another column: by lines, ascending, a one-line source comes first.
        t->sortByColumn(SourceModel::Lines, Qt::AscendingOrder);
        QCOMPARE(cell(t, 0, SourceModel::Lines), QStringLiteral("1"));
        t->sortByColumn(SourceModel::Lines, Qt::DescendingOrder);
        QCOMPARE(cell(t, 0, SourceModel::Lines), QStringLiteral("9397"));

        // Selecting the flood filters the log to its 9397 lines and highlights 5.435 s
        // (its first arrival) to 48.384 s (its last).
        p->selectRow(0);
        LogView *v = w->logPane(0)->view();
        QTRY_VERIFY(v->model()->filtered()); // the lines are found on a worker
        QCOMPARE(v->model()->rowCount(), 9397);
        for (int r : {0, 4000, 9396}) {
            QVERIFY(v->model()
                        ->index(r, LogModel::Text)
                        .data()
                        .toString()
                        .contains(QStringLiteral("noise: worker ")));
        }
        const auto h = w->timeline()->highlight();
        QVERIFY(h);
        QCOMPARE(qRound64(h->first * 1e6), 5434888);
        QCOMPARE(qRound64(h->second * 1e6), 48383514);

        // Add as lane: the source's lines per second, every line with an arrival.
        w->addSourceLane();
        const QVector<PatternSeries> &lanes = w->timeline()->patternLanes();
        QTRY_COMPARE(lanes.size(), 1);
        QCOMPARE(lanes[0].regex, QStringLiteral("source: noise: worker # seq #"));
        QCOMPARE(int(lanes[0].times[0].size()), 9397);
    }

    void comparisonShowsTheAbTable()
    {
        w->openFiles({sample("boot_login-quiet-smp2-115200-t1.hostts.log.zst"),
                      sample("boot_login-default-smp2-115200-t1.hostts.log.zst")});
        QVERIFY(w->waitForLoaded());
        SourcesPanel *p = w->sourcesPanel();
        QVERIFY(p->sources());
        // The A/B table first, then each trial on its own.
        QCOMPARE(p->view()->count(), 3);
        QCOMPARE(p->shown(), (QPair<int, int>(-1, 0)));
        QTableView *t = p->table();
        QCOMPARE(t->model()->columnCount(), int(SourceModel::DColumnCount));
        QCOMPARE(t->model()->rowCount(), 292);
        // Largest B − A first: the verbose boot's 29 acpiphp slots, new in B.
        QCOMPARE(cell(t, 0, SourceModel::DSource), QStringLiteral("acpiphp: Slot [#] registered"));
        QCOMPARE(cell(t, 0, SourceModel::DMark), QStringLiteral("new"));
        QCOMPARE(cell(t, 0, SourceModel::DLinesB), QStringLiteral("29"));
        // Selecting it filters B's log to its 29 lines; A has none.
        p->selectRow(0);
        QTRY_VERIFY(w->logPane(1)->view()->model()->filtered());
        QCOMPARE(w->logPane(1)->view()->model()->rowCount(), 29);
        QCOMPARE(w->logPane(0)->view()->model()->rowCount(), 0);
        p->view()->setCurrentIndex(2);
        QCOMPARE(t->model()->columnCount(), int(SourceModel::ColumnCount));
        QCOMPARE(t->model()->rowCount(), 291);
    }

    void stackedLaneOfTheFlood()
    {
        w->openFiles({sample("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst")});
        QVERIFY(w->waitForLoaded());
        TimelineView *t = w->timeline();
        QCOMPARE(t->sourceLanes().size(), 1);
        QVERIFY(t->sourceRect(0));
        // Its legend: the six largest sources by wire time, then the other 308 of the 314.
        QCPLegend *legend = t->sourceLegend(0);
        QVERIFY(legend);
        int entries = 0;
        for (int i = 0; i < legend->itemCount(); ++i) {
            entries += legend->item(i) ? 1 : 0; // a wrapped grid has empty cells
        }
        QCOMPARE(entries, kSourceLaneTop + 1);
        QCOMPARE(t->sourceGraph(0, 0)->name(), QStringLiteral("noise: worker # seq #"));
        QCOMPARE(t->sourceGraph(0, 1)->name(),
                 QStringLiteral("[no timestamp] ** # printk messages dropped **"));
        QCOMPARE(t->sourceGraph(0, kSourceLaneTop)->name(), QStringLiteral("other (308 sources)"));
        // At full range every bin is in view: the flood's band holds its 33.059 s on the
        // wire (report --sources), and the whole stack the run's 39.835 s.
        t->resetZoom();
        t->plot()->replot(); // laid out: the lanes take their series for their width
        QApplication::processEvents();
        QVERIFY(t->sourceRect(0)->width() > 500);
        QCOMPARE(qRound64(bandWireSeconds(t, 0, 0) * 1000), qint64(33059));
        double all = 0;
        for (int c = 0; c <= kSourceLaneTop; ++c) {
            all += bandWireSeconds(t, 0, c);
        }
        QCOMPARE(qRound64(all * 1000), qint64(39835));
        // About a bin a pixel, like every lane.
        QVERIFY(t->sourceGraph(0, 0)->dataCount() <= t->sourceRect(0)->width() + 3);
        QVERIFY(t->sourceGraph(0, 0)->dataCount() > t->sourceRect(0)->width() / 4);
        // The colours: the palette's, in order, and the grey of "other".
        QCOMPARE(t->sourceColor(0, 0), sourceColor(0));
        QCOMPARE(t->sourceColor(0, kSourceLaneTop), otherSourceColor());
        // Hidden and shown again from the menu (and the dock's toggle, the same action).
        QAction *a = sourceLaneAction(w.get());
        QVERIFY(a);
        a->setChecked(false);
        QCOMPARE(t->sourceLanes().size(), 0);
        QVERIFY(!t->sourceRect(0));
        a->setChecked(true);
        QCOMPARE(t->sourceLanes().size(), 1);
        QVERIFY(t->sourceRect(0));
    }

    void stackedLanesPerSide()
    {
        // Linux 6.1 against 6.12-rt, the same module flooding both.
        w->openFiles({sample("spam_rmmod-A_default-smp4-115200-t1.hostts.log.zst"),
                      sample("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst")});
        QVERIFY(w->waitForLoaded());
        TimelineView *t = w->timeline();
        // One lane per side, each with its own top sources, on its own run's axis.
        QCOMPARE(t->sourceLanes().size(), 2);
        QCOMPARE(t->sourceLanes()[0].run, 0);
        QCOMPARE(t->sourceLanes()[1].run, 1);
        QVERIFY(t->sourceRect(0)->axis(QCPAxis::atLeft)->label().startsWith(u'A'));
        QVERIFY(t->sourceRect(1)->axis(QCPAxis::atLeft)->label().startsWith(u'B'));
        // A template on both sides has one colour; templates of one side differ.
        const SourceSeries &a = *t->sourceLanes()[0].series;
        const SourceSeries &b = *t->sourceLanes()[1].series;
        int shared = 0;
        for (std::size_t i = 0; i < a.top.size(); ++i) {
            for (std::size_t j = 0; j < b.top.size(); ++j) {
                const bool same =
                    a.top[i].templ == b.top[j].templ && a.top[i].kernel == b.top[j].kernel;
                shared += same ? 1 : 0;
                QCOMPARE(t->sourceColor(0, int(i)) == t->sourceColor(1, int(j)), same);
            }
        }
        QCOMPARE(shared, 4); // the flood's template and three of the boot
    }

    // A side without a baud rate (the flood's stamps squeezed tenfold: the bytes came
    // faster than 115200 can send them) is in bytes/s, the other in % of its UART: each
    // lane on the scale of its unit. On one scale, B's percentages were flat at zero under
    // A's tens of kB/s.
    void stackedLanesOfTwoUnits()
    {
        QProcess zstd;
        zstd.start(
            QStringLiteral("zstd"),
            {QStringLiteral("-dcq"), sample("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst")});
        QVERIFY(zstd.waitForFinished(30000) && zstd.exitCode() == 0);
        QByteArray fast;
        double first = -1;
        for (const QByteArray &line : zstd.readAllStandardOutput().split('\n')) {
            const qsizetype tab = line.indexOf('\t');
            if (tab < 0) {
                continue;
            }
            const double t = line.left(tab).toDouble();
            first = first < 0 ? t : first;
            fast += QByteArray::number(first + (t - first) / 10, 'f', 6) + line.mid(tab) + '\n';
        }
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("fast.log")));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(fast) == fast.size());
        f.close();
        w->openFiles({f.fileName(), sample("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst")});
        QVERIFY(w->waitForLoaded());
        TimelineView *t = w->timeline();
        QCOMPARE(t->sourceLanes().size(), 2);
        QCOMPARE(t->sourceLanes()[0].series->baud, 0);
        QCOMPARE(t->sourceLanes()[1].series->baud, 115200);
        QCOMPARE(t->sourceRect(0)->axis(QCPAxis::atLeft)->label(),
                 QStringLiteral("A by source\nbytes/s"));
        QCOMPARE(t->sourceRect(1)->axis(QCPAxis::atLeft)->label(),
                 QStringLiteral("B by source\n% of UART"));
        // The flood squeezed tenfold sends about 115 kB/s; at 115200 it fills about all of
        // its UART.
        const double topA = t->sourceRect(0)->axis(QCPAxis::atLeft)->range().upper;
        const double topB = t->sourceRect(1)->axis(QCPAxis::atLeft)->range().upper;
        QVERIFY2(topA > 20000, qPrintable(QString::number(topA)));
        QVERIFY2(topB >= 90 && topB <= 1000, qPrintable(QString::number(topB)));
    }

    // Raw text has no arrivals: its lane is by kernel time, what the kernel produced, in
    // bytes/s. As a share of the UART it read 200 % (a burst the UART spread over seconds),
    // beside a wire lane that said "not available".
    void rawLaneIsProduction()
    {
        w->openFiles({sample("spam_rmmod-k612rt-smp4-115200-t1.raw.zst")});
        QVERIFY(w->waitForLoaded());
        TimelineView *t = w->timeline();
        QCOMPARE(t->sourceLanes().size(), 1);
        QVERIFY(t->sourceLanes()[0].series->byKernelTime);
        QCOMPARE(t->sourceLanes()[0].series->baud, 0);
        QCOMPARE(t->sourceRect(0)->axis(QCPAxis::atLeft)->label(),
                 QStringLiteral("by source\nproduced B/s"));
        // The flood's production peaks above the 11520 B/s a 115200 UART carries.
        const double top = t->sourceRect(0)->axis(QCPAxis::atLeft)->range().upper;
        QVERIFY2(top > 11520, qPrintable(QString::number(top)));
    }

    void groupedByPrefix()
    {
        w->openFiles({sample("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst")});
        QVERIFY(w->waitForLoaded());
        SourcesPanel *p = w->sourcesPanel();
        QTableView *t = p->table();
        p->groupingBox()->setCurrentIndex(p->groupingBox()->findText(QStringLiteral("by prefix")));
        QCOMPARE(p->grouping(), SourceGrouping::Prefix);
        // As `report --sources-by prefix` gives them: 131 prefixes, "noise" first.
        QTRY_COMPARE(t->model()->rowCount(), 131);
        QCOMPARE(cell(t, 0, SourceModel::Source), QStringLiteral("noise"));
        QCOMPARE(cell(t, 0, SourceModel::Lines), QStringLiteral("9401"));
        QCOMPARE(cell(t, 0, SourceModel::Wire), QStringLiteral("33.084"));
        QCOMPARE(cell(t, 1, SourceModel::Source), QStringLiteral("[no timestamp] (no prefix)"));
        // Selecting it filters the log to the prefix's lines.
        p->selectRow(0);
        LogView *v = w->logPane(0)->view();
        QTRY_VERIFY(v->model()->filtered());
        QCOMPARE(v->model()->rowCount(), 9401);
        // The stacked lane stays by template.
        QCOMPARE(w->timeline()->sourceGraph(0, 0)->name(), QStringLiteral("noise: worker # seq #"));
        // By caller: this kernel printed no caller ids.
        p->groupingBox()->setCurrentIndex(p->groupingBox()->findText(QStringLiteral("by caller")));
        QTRY_COMPARE(t->model()->rowCount(), 2);
        QCOMPARE(cell(t, 0, SourceModel::Source), QStringLiteral("(no caller id)"));
        QCOMPARE(cell(t, 0, SourceModel::Lines), QStringLiteral("9777"));
    }

    void narrowDockScrollsSideways()
    {
        w->openFiles({sample("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst")});
        QVERIFY(w->waitForLoaded());
        SourcesPanel *p = w->sourcesPanel();
        QTableView *t = p->table();
        auto *dock = w->findChild<QDockWidget *>(QStringLiteral("sourcesDock"));
        QVERIFY(dock);
        dock->setFloating(true); // sized by the test, not by the window's layout
        // Narrow: the source cut at 200 px, the figures scroll sideways.
        dock->resize(360, 600);
        QApplication::processEvents();
        QCOMPARE(t->columnWidth(SourceModel::Source), 200);
        QVERIFY(t->horizontalScrollBar()->maximum() > 0);
        // Wide: the longest source whole, and no scrolling.
        dock->resize(1800, 600);
        QApplication::processEvents();
        QVERIFY(t->columnWidth(SourceModel::Source) > 200);
        t->resizeColumnToContents(SourceModel::Source);
        const int whole = t->columnWidth(SourceModel::Source);
        dock->resize(1801, 600);
        QApplication::processEvents();
        QCOMPARE(t->columnWidth(SourceModel::Source), whole);
        QCOMPARE(t->horizontalScrollBar()->maximum(), 0);
    }

    // The flood capture stopped at its 6000th line, its console 7.369 s behind: the panel's
    // dropped messages (1516 attributed, 2 not: grep counts 1518) are at least, as the
    // report's are.
    void droppedMessagesOfAStoppedFlood()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("stopped.log")));
        QVERIFY(testcapture::writeFirstLines(
            sample("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst"), 6000, f.fileName()));
        w->openFiles({f.fileName()});
        QVERIFY(w->waitForLoaded());
        QStringList summaries;
        for (const QLabel *l : w->sourcesPanel()->findChildren<QLabel *>()) {
            if (l->text().contains(QLatin1String("dropped messages"))) {
                summaries << l->text();
            }
        }
        QCOMPARE(summaries, QStringList{QStringLiteral(
                                "307 sources, 6000 lines, 21.398 s on the wire; dropped "
                                "messages (at least: the log ends with the console 7.369 s "
                                "behind): 1516 attributed, 2 not; boot share n/a: no line "
                                "matches the boot-done pattern (--boot-pattern).")});
    }
};

QTEST_MAIN(TestSources)
#include "tst_gui_sources.moc"
