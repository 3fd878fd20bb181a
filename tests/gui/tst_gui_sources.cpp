// The Sources dock (issue 14) in the real window, offscreen: computed in the background
// after the metrics, sorted by wire time with the flood on top, sortable; selecting a
// source filters the log to its lines and highlights its time; "Add as lane" plots it;
// a comparison shows the A/B table.
#include "guitest.h"
#include "logpane.h"
#include "logview.h"
#include "mainwindow.h"
#include "sourcespanel.h"

#include <QComboBox>
#include <QHeaderView>
#include <QTableView>
#include <QtTest>

using namespace tty;
using namespace guitest;

namespace {
// Waits until the log has taken all the rows of its filter.
int settledRows(LogModel *m)
{
    for (int i = 0; i < 200 && m->growing(); ++i) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return m->rowCount();
}

QString cell(QTableView *t, int row, int column)
{
    return t->model()->index(row, column).data().toString();
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
        QVERIFY(v->model()->filtered());
        QCOMPARE(settledRows(v->model()), 9397);
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
        QCOMPARE(lanes.size(), 1);
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
        QCOMPARE(settledRows(w->logPane(1)->view()->model()), 29);
        QCOMPARE(settledRows(w->logPane(0)->view()->model()), 0);
        p->view()->setCurrentIndex(2);
        QCOMPARE(t->model()->columnCount(), int(SourceModel::ColumnCount));
        QCOMPARE(t->model()->rowCount(), 291);
    }
};

QTEST_MAIN(TestSources)
#include "tst_gui_sources.moc"
