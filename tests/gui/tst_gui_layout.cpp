// The window a reviewer sees, at the sizes people use (1366×768, 1500×950, 1920×1080):
// every figure of the metrics table visible without scrolling, lane tick labels and
// event rows that never print on top of each other, the legend's order, stable units.
// Each in the light and the dark theme; run twice by ctest: as is, and at QT_SCALE_FACTOR=2.
#include "compactticker.h"
#include "consoletext.h"
#include "eventlist.h"
#include "eventmodel.h"
#include "guitest.h"
#include "laneplot.h"
#include "logmodel.h"
#include "logpane.h"
#include "logview.h"
#include "mainwindow.h"
#include "metricspanel.h"
#include "metricstable.h"
#include "palette.h"
#include "runlabels.h"
#include "theme.h"

#include <QHeaderView>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace tty;
using namespace guitest;

namespace {
const QList<QSize> kSizes{{1366, 768}, {1500, 950}, {1920, 1080}};

// Where the delegate draws a cell's text: its width from the font, aligned in the cell
// within the delegate's margins.
QRect textRect(const MetricsTable *t, const QModelIndex &i)
{
    const QRect cell = t->visualRect(i);
    const QFont f =
        i.data(Qt::FontRole).isValid() ? i.data(Qt::FontRole).value<QFont>() : t->font();
    const int w = QFontMetrics(f).horizontalAdvance(i.data(Qt::DisplayRole).toString());
    const int m = t->textMargin();
    const bool right = i.column() > 0; // values right-aligned, metric names left
    return QRect(right ? cell.right() - m - w + 1 : cell.left() + m, cell.top(), w, cell.height());
}

// Every cell's text lies inside the viewport, whole (not elided) for the values.
void checkTable(const MetricsTable *t, const QString &what)
{
    QVERIFY2(t->rowCount() > 10, qPrintable(what));
    QCOMPARE(t->horizontalScrollBar()->maximum(), 0);
    const QRect vp = t->viewport()->rect();
    for (int r = 0; r < t->rowCount(); ++r) {
        const QRect row = t->visualRect(t->model()->index(r, 0));
        if (row.bottom() > vp.bottom()) {
            break; // scrolled vertically: rows below are checked by their x only
        }
        for (int c = 0; c < t->columnCount(); ++c) {
            const QModelIndex i = t->model()->index(r, c);
            const QRect tr = c == 0 ? t->visualRect(i) : textRect(t, i);
            QVERIFY2(vp.left() <= tr.left() && tr.right() <= vp.right(),
                     qPrintable(QStringLiteral("%1: row %2 col %3 '%4' at %5..%6, viewport %7")
                                    .arg(what)
                                    .arg(r)
                                    .arg(c)
                                    .arg(i.data().toString())
                                    .arg(tr.left())
                                    .arg(tr.right())
                                    .arg(vp.width())));
            if (c == 0) {
                // A metric name is whole, wrapped at spaces into as many lines as its row has.
                const QRect cell =
                    t->visualRect(i).adjusted(t->textMargin(), 0, -t->textMargin(), 0);
                const QRect wrapped = QFontMetrics(t->font()).boundingRect(
                    QRect(0, 0, cell.width(), 10000), Qt::TextWordWrap, i.data().toString());
                QVERIFY2(wrapped.width() <= cell.width() && wrapped.height() <= cell.height(),
                         qPrintable(QStringLiteral("%1: name '%2' (%3x%4) cut in %5x%6")
                                        .arg(what, i.data().toString())
                                        .arg(wrapped.width())
                                        .arg(wrapped.height())
                                        .arg(cell.width())
                                        .arg(cell.height())));
            } else {
                QVERIFY2(tr.width() <= t->visualRect(i).width() - 2 * t->textMargin(),
                         qPrintable(QStringLiteral("%1: '%2' wider than its cell")
                                        .arg(what, i.data().toString())));
            }
            QCOMPARE(i.data().toString(), i.data(MetricsTable::FullTextRole).toString());
        }
    }
    // Headers: the run labels, elided in the middle, whole in the tooltip.
    for (int c = 1; c < t->columnCount(); ++c) {
        QTableWidgetItem *h = t->horizontalHeaderItem(c);
        const QFont f = h->data(Qt::FontRole).isValid() ? h->font() : t->horizontalHeader()->font();
        QVERIFY2(QFontMetrics(f).horizontalAdvance(h->text()) <= t->columnWidth(c),
                 qPrintable(h->text()));
        // The header view needs no more than the column: it elides nothing further itself.
        QVERIFY2(t->horizontalHeader()->sectionSizeHint(c) <= t->columnWidth(c),
                 qPrintable(QStringLiteral("%1: header '%2' needs %3 px, has %4")
                                .arg(what, h->text())
                                .arg(t->horizontalHeader()->sectionSizeHint(c))
                                .arg(t->columnWidth(c))));
        QVERIFY(h->toolTip().startsWith(h->data(MetricsTable::FullTextRole).toString()));
    }
}
// Where an axis drew its tick labels (right-aligned at the left axis, centred on the
// tick): their rectangles, in the order of the ticks.
QVector<QRect> tickLabelRects(QCPAxis *y)
{
    QVector<QRect> out;
    const QFontMetrics fm(y->tickLabelFont());
    const QVector<double> ticks = y->tickVector();
    const QVector<QString> labels = y->tickVectorLabels();
    for (int i = 0; i < ticks.size(); ++i) {
        if (!y->range().contains(ticks[i])) {
            continue;
        }
        const int py = qRound(y->coordToPixel(ticks[i]));
        const int w = fm.horizontalAdvance(labels[i]);
        const int x = y->axisRect()->left() - y->tickLabelPadding() - w;
        out << QRect(x, py - fm.height() / 2, w, fm.height());
    }
    return out;
}

QStringList inRange(QCPAxis *y)
{
    QStringList out;
    for (int i = 0; i < y->tickVector().size(); ++i) {
        if (y->range().contains(y->tickVector()[i])) {
            out << y->tickVectorLabels()[i];
        }
    }
    return out;
}

void checkNoOverlap(const QVector<QRect> &rects, const QString &what)
{
    for (int i = 0; i < rects.size(); ++i) {
        for (int j = i + 1; j < rects.size(); ++j) {
            QVERIFY2(
                !rects[i].intersects(rects[j]),
                qPrintable(QStringLiteral("%1: labels %2 and %3 overlap").arg(what).arg(i).arg(j)));
        }
    }
}

// The main legend (the stacked lanes have legends of their own, under them).
QCPLegend *legendOf(TimelineView *t)
{
    return t->legend();
}

// Every legend entry whole: its icon and text (as QCustomPlot draws them) inside its own
// cell, the cells apart and inside the plot.
void checkLegend(TimelineView *t, const QString &what)
{
    QCPLegend *legend = legendOf(t);
    QVERIFY(legend);
    const QRect plot = t->plot()->rect();
    QVector<QRect> cells;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (!legend->item(i)) {
            continue; // the empty cells after the last entry
        }
        auto *it = qobject_cast<QCPPlottableLegendItem *>(legend->item(i));
        QVERIFY(it);
        const QString name = it->plottable()->name();
        const QRect cell = it->rect();
        const int textWidth =
            QFontMetrics(it->font())
                .boundingRect(0, 0, 0, legend->iconSize().height(), Qt::TextDontClip, name)
                .width();
        const int textRight =
            cell.left() + legend->iconSize().width() + legend->iconTextPadding() + textWidth;
        QVERIFY2(textRight <= cell.right() + 1 && cell.right() <= plot.right() &&
                     cell.left() >= plot.left(),
                 qPrintable(QStringLiteral("%1: '%2' ends at %3, its cell %4..%5, plot %6")
                                .arg(what, name)
                                .arg(textRight)
                                .arg(cell.left())
                                .arg(cell.right())
                                .arg(plot.right())));
        cells << cell;
    }
    checkNoOverlap(cells, what + QStringLiteral(" legend"));
}

QStringList legendNames(TimelineView *t)
{
    QStringList names;
    QCPLegend *legend = legendOf(t);
    for (int i = 0; legend && i < legend->itemCount(); ++i) {
        if (auto *it = qobject_cast<QCPPlottableLegendItem *>(legend->item(i))) {
            names << it->plottable()->name();
        }
    }
    return names;
}

const char *kBlast = "blast_crash-smp2-115200-t1.hostts.log.zst";
const char *kBootDefault = "boot_login-default-smp2-115200-t1.hostts.log.zst";
const char *kBootQuiet = "boot_login-quiet-smp2-115200-t1.hostts.log.zst";
const char *kSpamA = "spam_rmmod-A_default-smp4-115200-t1.hostts.log.zst";
const char *kSpamRt = "spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst";
} // namespace

// Counts the resize events a widget receives.
class ResizeCounter : public QObject
{
public:
    int count = 0;
    bool eventFilter(QObject *, QEvent *e) override
    {
        count += e->type() == QEvent::Resize;
        return false;
    }
};

class TestLayout : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<MainWindow> w;

    void open(const QStringList &sides, const QStringList &labels = {}, bool bootsAsTrials = false)
    {
        w = std::make_unique<MainWindow>();
        w->resize(1366, 768);
        w->show();
        OpenRequest r;
        for (const QString &s : sides) {
            r.sides.append({s});
        }
        r.labels = labels;
        r.bootsAsTrials = bootsAsTrials;
        r.rules = std::make_shared<RuleSet>(RuleSet::builtin());
        w->open(r);
        QVERIFY(w->waitForLoaded());
        QTRY_VERIFY(w->metricsPanel()->table()->rowCount() > 10);
    }

    static void themes()
    {
        QTest::addColumn<QString>("theme");
        QTest::newRow("light") << QStringLiteral("light");
        QTest::newRow("dark") << QStringLiteral("dark");
    }

    void resizeTo(const QSize &s)
    {
        w->resize(s);
        for (int i = 0; i < 5; ++i) {
            QApplication::processEvents();
        }
        w->timeline()->plot()->replot();
        QApplication::processEvents();
        // The window really is that size: nothing in it asks for more.
        QCOMPARE(w->size(), s);
    }

private slots:
    void cleanup()
    {
        w.reset();
        applyTheme(QStringLiteral("system"));
    }

    void metricsTableSingleRun_data() { themes(); }
    void metricsTableSingleRun()
    {
        QFETCH(QString, theme);
        QVERIFY(applyTheme(theme));
        open({sample(kBlast)});
        for (const QSize &s : kSizes) {
            resizeTo(s);
            checkTable(w->metricsPanel()->table(),
                       QStringLiteral("single %1x%2 %3").arg(s.width()).arg(s.height()).arg(theme));
            if (QTest::currentTestFailed()) {
                return;
            }
        }
        // The file name is the header, elided in the middle: its start and end stay.
        const QTableWidgetItem *h = w->metricsPanel()->table()->horizontalHeaderItem(1);
        QCOMPARE(h->data(MetricsTable::FullTextRole).toString(),
                 QStringLiteral("blast_crash-smp2-115200-t1.hostts.log.zst"));
        QVERIFY(h->text().startsWith(QLatin1String("bla")));
        QVERIFY(h->text().endsWith(QLatin1String("zst")));
    }

    // A short label that fits is shown whole: neither our elision nor the header view's
    // own cuts it (rounded text widths once made "qemu ttyS0" read "qem...yS0").
    void metricsTableShortLabelWhole()
    {
        open({sample(kBlast)}, {QStringLiteral("qemu ttyS0")});
        for (const QSize &s : kSizes) {
            resizeTo(s);
            const MetricsTable *t = w->metricsPanel()->table();
            QCOMPARE(t->horizontalHeaderItem(1)->text(), QStringLiteral("qemu ttyS0"));
            QVERIFY(t->horizontalHeader()->sectionSizeHint(1) + 2 <= t->columnWidth(1));
        }
        // One trial: its stacked lane of sources needs no note of whose it is.
        QCOMPARE(w->timeline()->sourceLanes().size(), 1);
        QCOMPARE(w->timeline()->sourceLaneNote(0), QString());
    }

    void metricsTableComparison_data() { themes(); }
    void metricsTableComparison()
    {
        QFETCH(QString, theme);
        QVERIFY(applyTheme(theme));
        open({sample(kBootDefault), sample(kBootQuiet)});
        const MetricsTable *t = w->metricsPanel()->table();
        QCOMPARE(t->columnCount(), 4);
        QCOMPARE(t->horizontalHeaderItem(3)->text(), QStringLiteral("B − A"));
        for (const QSize &s : kSizes) {
            resizeTo(s);
            checkTable(
                t, QStringLiteral("comparison %1x%2 %3").arg(s.width()).arg(s.height()).arg(theme));
            if (QTest::currentTestFailed()) {
                return;
            }
        }
    }

    // Two file names of one test differ in the middle: elided each in its own middle, the
    // run headers of the metrics and the run column of the events read alike
    // ("spam_…g.zst" twice at 1366x768). Where a whole label does not fit, what tells it
    // from the other is shown, and the whole label is in the tooltip.
    void runLabelsTellTheRunsApart()
    {
        QCOMPARE(distinctParts({QStringLiteral("bc-61-smp4.hostts.log"),
                                QStringLiteral("bc-612rt-smp2.hostts.log")}),
                 QStringList({QStringLiteral("…61-smp4…"), QStringLiteral("…612rt-smp2…")}));
        QCOMPARE(distinctParts({QStringLiteral("k61"), QStringLiteral("k61.1")}),
                 QStringList({QStringLiteral("k61"), QStringLiteral("k61.1")}));
        // The bundled sample's labels: not cut inside "6.1" / "6.12", nor at the ")".
        QCOMPARE(distinctParts({QStringLiteral("Linux 6.1 (legacy printk)"),
                                QStringLiteral("Linux 6.12-rt (printer thread)")}),
                 QStringList({QStringLiteral("…6.1 (legacy printk)"),
                              QStringLiteral("…6.12-rt (printer thread)")}));
        const QString a = QString::fromLatin1(kSpamA), b = QString::fromLatin1(kSpamRt);
        open({sample(kSpamA), sample(kSpamRt)});
        const MetricsTable *t = w->metricsPanel()->table();
        for (const QSize &s : kSizes) {
            resizeTo(s);
            checkTable(t, QStringLiteral("spam %1x%2").arg(s.width()).arg(s.height()));
            const QString ha = t->horizontalHeaderItem(1)->text();
            const QString hb = t->horizontalHeaderItem(2)->text();
            QVERIFY2(ha == a || ha.startsWith(QStringLiteral("…A_")), qPrintable(ha));
            QVERIFY2(hb == b || hb.startsWith(QStringLiteral("…k6")), qPrintable(hb));
        }
        resizeTo(kSizes.front());
        QCOMPARE(t->horizontalHeaderItem(1)->text(), QStringLiteral("…A_default…"));
        QCOMPARE(t->horizontalHeaderItem(2)->text(), QStringLiteral("…k612rt…"));
        QVERIFY(t->horizontalHeaderItem(1)->toolTip().startsWith(a + QLatin1Char('\n')));
        // The events' run column: the same parts, the whole label as the tooltip.
        const EventModel *m = w->eventList()->model();
        QCOMPARE(m->runColumnLabels(),
                 QStringList({QStringLiteral("…A_default…"), QStringLiteral("…k612rt…")}));
        QSet<QString> shown;
        for (int r = 0; r < m->rowCount(); ++r) {
            const QModelIndex i = m->index(r, EventModel::RunCol);
            const int run = i.data(EventModel::RunRole).toInt();
            QCOMPARE(i.data().toString(), m->runColumnLabels()[run]);
            QCOMPARE(i.data(Qt::ToolTipRole).toString(), run == 0 ? a : b);
            shown << i.data().toString();
        }
        QCOMPARE(shown.size(), 2);
    }

    // A side of many trials (60 boots of one file): each value's tooltip lists the first
    // and last ten and how many are between (a tooltip taller than the screen shows
    // nothing), the header's names the boots as the report's header does, and the timeline
    // draws the first 50 trials and says so in its legend.
    void aSideOfManyTrials()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile in(sample(kBootDefault));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray frame = in.readAll();
        const QString path = dir.filePath(QStringLiteral("60boots.log.zst"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        for (int k = 0; k < 60; ++k) {
            QCOMPARE(out.write(frame), frame.size()); // zstd frames concatenate
        }
        out.close();
        open({path}, {QStringLiteral("k61")}, true);
        const MetricsTable *t = w->metricsPanel()->table();
        QCOMPARE(t->columnCount(), 2);
        QCOMPARE(t->horizontalHeaderItem(1)->toolTip(),
                 QStringLiteral("k61\n60boots.log.zst (boots 1–60)"));
        QCOMPARE(t->horizontalHeaderItem(1)->data(Qt::UserRole).toString(),
                 QStringLiteral(" (n=60)"));
        int lines = -1;
        for (int r = 0; r < t->rowCount(); ++r) {
            if (t->item(r, 0)->data(Qt::UserRole).toString() == QLatin1String("lines")) {
                lines = r;
            }
        }
        QVERIFY(lines >= 0);
        const QStringList tip = t->item(lines, 1)->toolTip().split(QLatin1Char('\n'));
        QCOMPARE(tip.size(), 21);
        // `zstdcat` of the sample: 371 lines, the first boot's; every copy is one boot.
        for (int i = 0; i < 21; ++i) {
            const int boot = i < 10 ? i + 1 : i + 40;
            QCOMPARE(tip[i], i == 10 ? QStringLiteral("… 40 more trials …")
                                     : QStringLiteral("60boots.log.zst (boot %1): 371").arg(boot));
        }

        TimelineView *tl = w->timeline();
        QCOMPARE(tl->runs().size(), 60);
        for (int run = 0; run < 60; ++run) {
            QCOMPARE(tl->isDrawn(run), run < TimelineView::kMaxTrialsDrawn);
            QCOMPARE(tl->laneGraph(TimelineView::Produced, run) != nullptr, tl->isDrawn(run));
            QCOMPARE(tl->markerGraph(run, EventKind::Boot) != nullptr, tl->isDrawn(run));
        }
        QStringList names;
        for (int i = 0; i < tl->legend()->itemCount(); ++i) {
            if (auto *it = qobject_cast<QCPPlottableLegendItem *>(tl->legend()->item(i))) {
                names << it->plottable()->name();
            }
        }
        QCOMPARE(names.value(0), QStringLiteral("k61 (first 50 of 60 trials drawn)"));
        const QCPGraph *g = tl->laneGraph(TimelineView::Printed, 0);
        QVERIFY(g && !g->data()->isEmpty());
        // The stacked lane of sources is the side's first trial's, and says so.
        QCOMPARE(tl->sourceLanes().size(), 1);
        QCOMPARE(tl->sourceLaneNote(0),
                 QStringLiteral("first trial only: 60boots.log.zst (boot 1)"));
    }

    // Boots shorter than a bin (here 5 µs of kernel time, no host times): each trial's
    // lane is the one bin holding its lines, drawn with its width. The bin kept at a
    // trial's end lost its closing point, so a one-bin trial drew nothing at all.
    void aTrialWithinOneBin()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QByteArray log;
        for (int boot = 0; boot < 2; ++boot) {
            log += "[    0.000000] Linux version 6.1.0-" + QByteArray::number(boot) +
                   "-amd64 (debian-kernel@lists.debian.org) #1 SMP\n";
            for (int k = 1; k <= 5; ++k) {
                log += "[    0.00000" + QByteArray::number(k) + "] random: crng init " +
                       QByteArray::number(k) + "\n";
            }
            log += "\ndebian login: \n";
        }
        const QString path = dir.filePath(QStringLiteral("short-boots.log"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        QCOMPARE(out.write(log), log.size());
        out.close();
        open({path}, {}, true);
        TimelineView *tl = w->timeline();
        QCOMPARE(tl->runs().size(), 2);
        for (int run = 0; run < 2; ++run) {
            QCPGraph *g = tl->laneGraph(TimelineView::Produced, run);
            QVERIFY(g);
            QCOMPARE(g->dataCount(), 2); // the bin and its end
            QCOMPARE(qRound(integrate(g)), 6);
        }
    }

    void lanesStayLegibleAt1366_data() { themes(); }
    void lanesStayLegibleAt1366()
    {
        QFETCH(QString, theme);
        QVERIFY(applyTheme(theme));
        open({sample(kBlast)});
        resizeTo(QSize(1366, 768));
        TimelineView *t = w->timeline();
        // The lanes do not fit at a legible height: the lane area scrolls instead.
        QVERIFY(t->scrollArea()->verticalScrollBar()->maximum() > 0);
        for (int l = 0; l < TimelineView::LaneCount; ++l) {
            QCPAxisRect *rect = t->laneRect(TimelineView::Lane(l));
            QVERIFY(rect);
            const int min = l == TimelineView::Events
                                ? int(t->eventRows().size()) * t->eventRowHeight()
                                : TimelineView::kMinLaneHeight;
            QVERIFY2(rect->height() >= min,
                     qPrintable(QStringLiteral("lane %1: %2 px").arg(l).arg(rect->height())));
            if (l != TimelineView::Events) {
                checkNoOverlap(tickLabelRects(rect->axis(QCPAxis::atLeft)),
                               TimelineView::laneName(TimelineView::Lane(l)));
            }
        }
        // Compact numbers: the sysrq-t burst of the produced lane reads 2k, not 2000.
        QCOMPARE(inRange(t->laneRect(TimelineView::Produced)->axis(QCPAxis::atLeft)),
                 QStringList({QStringLiteral("0"), QStringLiteral("1k"), QStringLiteral("2k")}));
        // The title is whole and inside the plot.
        auto *title = qobject_cast<QCPTextElement *>(t->plot()->plotLayout()->element(0, 0));
        QVERIFY(title);
        QCOMPARE(title->text(), QString::fromLatin1(kBlast));
        QVERIFY(title->rect().top() >= 0);
        QVERIFY(title->rect().height() >= QFontMetrics(title->font()).height());
    }

    // A raw log has no arrival times: the lanes that need them say so in their middle, and
    // the note is drawn there (it was clipped to the first lane's rectangle, so never seen).
    void lanesWithoutArrivalSaySo_data() { themes(); }
    void lanesWithoutArrivalSaySo()
    {
        QFETCH(QString, theme);
        QVERIFY(applyTheme(theme));
        open({sample("boot_login-default-smp2-115200-t1.raw.zst")});
        resizeTo(QSize(1366, 768));
        TimelineView *t = w->timeline();
        const QString note = QStringLiteral("not available: the log format has no host arrival "
                                            "times");
        QCOMPARE(t->laneNote(TimelineView::Printed), note);
        QCOMPARE(t->laneNote(TimelineView::Wire), note);
        QCOMPARE(t->laneNote(TimelineView::Produced), QString());
        const QImage image = t->plot()->toPixmap().toImage();
        for (TimelineView::Lane lane : {TimelineView::Printed, TimelineView::Wire}) {
            // The note's grey (128, 128, 128) in the middle band of the lane, where nothing
            // else of that colour is drawn (none before the fix; 92 and more at any scale).
            const QRect r = t->laneRect(lane)->rect();
            const QFontMetrics fm(t->font());
            const QRect band(r.center().x() - fm.horizontalAdvance(note) / 2,
                             r.center().y() - fm.height(), fm.horizontalAdvance(note),
                             2 * fm.height());
            int grey = 0;
            for (int y = band.top(); y <= band.bottom(); ++y) {
                for (int x = band.left(); x <= band.right(); ++x) {
                    const QColor c = image.pixelColor(x, y);
                    grey += std::abs(c.red() - 128) <= 8 && std::abs(c.green() - 128) <= 8 &&
                            std::abs(c.blue() - 128) <= 8;
                }
            }
            QVERIFY2(grey >= 30, qPrintable(QStringLiteral("%1: %2 grey pixels")
                                                .arg(TimelineView::laneName(lane))
                                                .arg(grey)));
        }

        // Beside a log with arrival times the note names the raw one, at the lane's bottom
        // left, drawn over the other run's data.
        open({sample(kBootDefault), sample("boot_login-default-smp2-115200-t1.raw.zst")});
        resizeTo(QSize(1366, 768));
        t = w->timeline();
        const QString partial = QStringLiteral("not available for boot_login-default-smp2-115200-"
                                               "t1.raw.zst: no host arrival times");
        QCOMPARE(t->laneNote(TimelineView::Printed), partial);
        const QImage both = t->plot()->toPixmap().toImage();
        const QRect r = t->laneRect(TimelineView::Printed)->rect();
        const QFontMetrics fm(t->font());
        int grey = 0;
        for (int y = r.bottom() - 2 * fm.height(); y <= r.bottom(); ++y) {
            for (int x = r.left(); x <= r.left() + fm.horizontalAdvance(partial); ++x) {
                const QColor c = both.pixelColor(x, y);
                grey += std::abs(c.red() - 128) <= 8 && std::abs(c.green() - 128) <= 8 &&
                        std::abs(c.blue() - 128) <= 8;
            }
        }
        QVERIFY2(grey >= 30, qPrintable(QString::number(grey)));
    }

    void kernelLogsHaveNoConsoleLanes()
    {
        // A dmesg --json beside a capture: the kernel's log has the messages a console
        // dropped and none of its drop notices, nor arrivals. Its drop lane was an empty
        // lane (read: nothing dropped), its printed lanes said "no host arrival times".
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("board.dmesg.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\n   \"dmesg\": [\n"
                "      {\"pri\": 6, \"time\": 0.000000, \"msg\": \"Linux version 6.1.0\"},\n"
                "      {\"pri\": 6, \"time\": 1.500000, \"msg\": \"noise: worker 0 seq 1\"}\n"
                "   ]\n}\n");
        f.close();
        open({sample(kBootDefault), path});
        resizeTo(QSize(1366, 768));
        const TimelineView *t = w->timeline();
        const QString note =
            QStringLiteral("not available for board.dmesg.json: a kernel log, not console output");
        for (TimelineView::Lane lane :
             {TimelineView::Printed, TimelineView::Wire, TimelineView::Lag, TimelineView::Drops}) {
            QCOMPARE(t->laneNote(lane), note);
        }
        QCOMPARE(t->laneNote(TimelineView::Produced), QString());
        // The UART's capacity line and its label: the capture's.
        const auto capacityItems = [this] {
            int n = 0;
            for (int i = 0; i < w->timeline()->plot()->itemCount(); ++i) {
                n += w->timeline()->plot()->item(i)->objectName() == u"uart-capacity";
            }
            return n;
        };
        QCOMPARE(capacityItems(), 2);
        open({path});
        QCOMPARE(w->timeline()->laneNote(TimelineView::Drops),
                 QStringLiteral("not available: a kernel log, not console output"));
        // No UART drawn over the empty wire lane (it was, with a "% of UART" axis).
        QCOMPARE(capacityItems(), 0);
    }

    void spikesDoNotFlattenALane()
    {
        open({sample(kBlast)});
        resizeTo(QSize(1366, 768));
        TimelineView *t = w->timeline();
        t->resetZoom();
        t->plot()->replot();
        // The drop lane: a few bursts of hundreds of messages over a steady trickle.
        QCPGraph *g = t->laneGraph(TimelineView::Drops, 0);
        QCPAxis *y = g->valueAxis();
        double max = 0;
        for (const QCPGraphData &p : *g->data()) {
            if (p.key >= t->xLower() && p.key <= t->xUpper()) {
                max = std::max(max, p.value);
            }
        }
        // The bursts stand far above the rest: the range follows the rest, the bursts are
        // cut at the top edge and marked, their height stated.
        QVERIFY2(y->range().upper * 3 < max,
                 qPrintable(QStringLiteral("%1 vs %2").arg(y->range().upper).arg(max)));
        QCPGraph *clips = nullptr;
        for (int i = 0; i < t->plot()->graphCount(); ++i) {
            if (t->plot()->graph(i)->name() == QString::fromLatin1(kBlast) + " (clipped)" &&
                t->plot()->graph(i)->valueAxis() == y) {
                clips = t->plot()->graph(i);
            }
        }
        QVERIFY(clips);
        int above = 0;
        for (const QCPGraphData &p : *g->data()) {
            above += p.key >= t->xLower() && p.key <= t->xUpper() && p.value > y->range().upper;
        }
        QVERIFY(above > 0);
        QCOMPARE(clips->dataCount(), above);
        bool noted = false;
        for (int i = 0; i < t->plot()->itemCount(); ++i) {
            if (auto *text = qobject_cast<QCPItemText *>(t->plot()->item(i))) {
                noted = noted ||
                        (text->visible() && text->position->axisRect() == y->axisRect() &&
                         text->text() == QStringLiteral("▲ clipped, up to ") + compactNumber(max));
            }
        }
        QVERIFY(noted);
        // A lane without spikes is not clipped: the lag lane's top is its maximum + 12 %.
        QCPGraph *lag = t->laneGraph(TimelineView::Lag, 0);
        double lagMax = 0;
        for (const QCPGraphData &p : *lag->data()) {
            if (p.key >= t->xLower() && p.key <= t->xUpper()) {
                lagMax = std::max(lagMax, p.value);
            }
        }
        QCOMPARE(lag->valueAxis()->range().upper, lagMax * 1.12);
    }

    void eventRowsNeverOverlap_data() { themes(); }
    void eventRowsNeverOverlap()
    {
        QFETCH(QString, theme);
        QVERIFY(applyTheme(theme));
        open({sample(kBlast)});
        resizeTo(QSize(1366, 768));
        TimelineView *t = w->timeline();
        // A row per kind present, in the fixed order of the kinds.
        QCOMPARE(t->eventRows(),
                 QVector<EventKind>({EventKind::Drop, EventKind::Panic, EventKind::PanicEnd,
                                     EventKind::CallTrace, EventKind::Sysrq, EventKind::Boot,
                                     EventKind::Console, EventKind::Firmware}));
        QCPAxis *y = t->laneRect(TimelineView::Events)->axis(QCPAxis::atLeft);
        const QVector<QRect> rects = tickLabelRects(y);
        QCOMPARE(rects.size(), 8);
        checkNoOverlap(rects, QStringLiteral("event rows"));
        QCOMPARE(inRange(y), QStringList({QStringLiteral("firmware"), QStringLiteral("console"),
                                          QStringLiteral("boot"), QStringLiteral("sysrq"),
                                          QStringLiteral("call_trace"), QStringLiteral("panic_end"),
                                          QStringLiteral("panic"), QStringLiteral("drop")}));
    }

    void legendEntriesWhole_data() { themes(); }
    void legendEntriesWhole()
    {
        QFETCH(QString, theme);
        QVERIFY(applyTheme(theme));
        // The blast: one run, the mean lag and eight event kinds. The boot comparison: A
        // and B (long file names), then the kinds.
        const QStringList single{sample(kBlast)};
        const QStringList pair{sample(kBootDefault), sample(kBootQuiet)};
        for (const QStringList &files : {single, pair}) {
            open(files);
            for (const QSize &s : kSizes) {
                resizeTo(s);
                const QString what = QStringLiteral("%1 run(s) %2x%3 %4")
                                         .arg(files.size())
                                         .arg(s.width())
                                         .arg(s.height())
                                         .arg(theme);
                checkLegend(w->timeline(), what);
                if (QTest::currentTestFailed()) {
                    return;
                }
                // The runs first, side by side.
                const QStringList names = legendNames(w->timeline());
                QVERIFY2(names.size() >= 2, qPrintable(what));
                QCOMPARE(names[0], QString::fromLatin1(files.size() == 1 ? kBlast : kBootDefault));
                QCOMPARE(names[1], files.size() == 1 ? QStringLiteral("mean console lag (dashed)")
                                                     : QString::fromLatin1(kBootQuiet));
                QCPLegend *legend = legendOf(w->timeline());
                QCOMPARE(legend->item(0)->rect().top(), legend->item(1)->rect().top());
                QVERIFY(legend->item(0)->rect().right() < legend->item(1)->rect().left());
            }
        }
    }

    void legendRunsFirst()
    {
        open({sample(kBootDefault), sample(kBootQuiet)});
        resizeTo(QSize(1500, 950));
        TimelineView *t = w->timeline();
        // A and B share their rows: the same kinds in the same order for both.
        QCOMPARE(t->eventRows(), QVector<EventKind>({EventKind::Boot, EventKind::Reboot,
                                                     EventKind::Console, EventKind::Firmware}));
        QCPLegend *legend = legendOf(t);
        QVERIFY(legend);
        QStringList names;
        QSet<QCPAbstractPlottable *> listed;
        for (int i = 0; i < legend->itemCount(); ++i) {
            if (!legend->item(i)) {
                continue; // the empty cells after the last entry
            }
            auto *it = qobject_cast<QCPPlottableLegendItem *>(legend->item(i));
            QVERIFY(it);
            names << it->plottable()->name();
            listed << it->plottable();
        }
        QCOMPARE(
            names,
            QStringList({QString::fromLatin1(kBootDefault), QString::fromLatin1(kBootQuiet),
                         QStringLiteral("mean console lag (dashed)"),
                         eventKindTitle(EventKind::Boot), eventKindTitle(EventKind::Reboot),
                         eventKindTitle(EventKind::Console), eventKindTitle(EventKind::Firmware)}));
        // Every series drawn is listed, or drawn in the colour of a listed run, or in the
        // dashes of the listed mean lag.
        for (int i = 0; i < t->plot()->graphCount(); ++i) {
            QCPGraph *g = t->plot()->graph(i);
            if (listed.contains(g)) {
                continue;
            }
            // The stacked lanes' bands are listed in their own legends, under them.
            bool inSourceLegend = false;
            for (int k = 0; k < t->sourceLanes().size(); ++k) {
                inSourceLegend = inSourceLegend || t->sourceLegend(k)->hasItemWithPlottable(g);
            }
            if (inSourceLegend) {
                continue;
            }
            // Markers draw with their symbol's pen, lines with the graph's.
            const QColor c = g->lineStyle() == QCPGraph::lsNone ? g->scatterStyle().pen().color()
                                                                : g->pen().color();
            const bool runColour = c.rgb() == runColor(0).rgb() || c.rgb() == runColor(1).rgb();
            QVERIFY2(runColour, qPrintable(g->name()));
            bool kind = false;
            for (int k = 0; k < kEventKindCount; ++k) {
                kind = kind || g->name() == eventKindTitle(EventKind(k));
            }
            // Markers of B are drawn in B's colour with the kind's symbol, listed by kind.
            QVERIFY2(!kind || names.contains(g->name()), qPrintable(g->name()));
            QVERIFY2(kind || g->pen().style() == Qt::SolidLine ||
                         (g->pen().style() == Qt::DashLine &&
                          names.contains(QStringLiteral("mean console lag (dashed)"))),
                     qPrintable(g->name()));
        }
    }

    // LanePlot on its own: a change asked for from inside a replot (an afterLayout handler,
    // as the lanes' width fitting) is laid out again and drawn by that replot, and one
    // asked for after it (an afterReplot handler) by exactly one queued replot.
    void aChangeInsideAReplotIsDrawnByIt()
    {
        LanePlot plot;
        plot.resize(600, 400);
        plot.show(); // its resize event replots: before the counting
        for (int i = 0; i < 5; ++i) {
            QApplication::processEvents();
        }
        int layouts = 0, replots = 0, askInLayout = 1, askAfter = 0;
        connect(&plot, &QCustomPlot::afterLayout, &plot, [&] {
            ++layouts;
            if (askInLayout > 0) {
                --askInLayout;
                plot.requestReplot();
            }
        });
        connect(&plot, &QCustomPlot::afterReplot, &plot, [&] {
            ++replots;
            if (askAfter > 0) {
                --askAfter;
                plot.requestReplot();
            }
        });
        plot.replot();
        for (int i = 0; i < 5; ++i) {
            QApplication::processEvents();
        }
        QCOMPARE(replots, 1);
        QCOMPARE(layouts, 2); // laid out again, not drawn again
        askAfter = 1;
        plot.replot();
        for (int i = 0; i < 5; ++i) {
            QApplication::processEvents();
        }
        QCOMPARE(replots, 3); // the request after the second one: one more
        QCOMPARE(layouts, 4);
    }

    // A resize draws the timeline once for each size the plot takes: the lanes take their
    // series for the new width inside the replot the resize makes, which lays the new
    // ranges out before drawing (LanePlot). The timeline's own resize handling and the
    // lanes' handler each queued another full replot, drawing it all again for nothing.
    void resizeReplotsOncePerSize()
    {
        open({sample(kBlast)});
        resizeTo(QSize(1366, 768));
        TimelineView *t = w->timeline();
        ResizeCounter resizes;
        t->plot()->installEventFilter(&resizes);
        int replots = 0;
        const QMetaObject::Connection counting =
            connect(t->plot(), &QCustomPlot::afterReplot, this, [&] { ++replots; });
        const double binsBefore = t->laneBinWidth(TimelineView::Drops);
        w->resize(1920, 1080);
        for (int i = 0; i < 5; ++i) {
            QApplication::processEvents();
        }
        QVERIFY(resizes.count >= 1);
        QCOMPARE(replots, resizes.count);
        // The series were taken for the new width (wider lanes, finer bins) ...
        QVERIFY2(t->laneBinWidth(TimelineView::Drops) < binsBefore,
                 qPrintable(QStringLiteral("%1 -> %2")
                                .arg(binsBefore)
                                .arg(t->laneBinWidth(TimelineView::Drops))));
        // ... and laid out by the replot that drew them: another changes no range or tick.
        auto axes = [&] {
            QList<QVariantList> out;
            for (QCPAxisRect *r : t->plot()->axisRects()) {
                QCPAxis *y = r->axis(QCPAxis::atLeft);
                QVariantList ticks;
                for (double v : y->tickVector()) {
                    ticks << v;
                }
                out.append({r->rect(), y->range().lower, y->range().upper, ticks});
            }
            return out;
        };
        const QList<QVariantList> drawn = axes();
        QVERIFY(drawn.size() >= 5);
        t->plot()->replot();
        QCOMPARE(replots, resizes.count + 1);
        QCOMPARE(axes(), drawn);
        disconnect(counting);
        t->plot()->removeEventFilter(&resizes);
    }

    void ratesPerSecondAtEveryZoom()
    {
        open({sample(kBlast)});
        TimelineView *t = w->timeline();
        const QString label = t->laneRect(TimelineView::Drops)->axis(QCPAxis::atLeft)->label();
        QCOMPARE(label, QStringLiteral("dropped\nmessages/s"));
        QVector<double> bins;
        for (const QSize &s : kSizes) {
            resizeTo(s);
            t->resetZoom();
            QApplication::processEvents();
            // The unit never changes with the width; the series integrates to the count.
            QCOMPARE(t->laneRect(TimelineView::Drops)->axis(QCPAxis::atLeft)->label(), label);
            QCOMPARE(qRound(integrate(t->laneGraph(TimelineView::Drops, 0))), 1330);
            bins << t->laneBinWidth(TimelineView::Drops);
        }
        // Narrower lanes take wider bins; the readout says which.
        QVERIFY(bins[0] >= bins[2]);
        QCPAxisRect *rect = t->laneRect(TimelineView::Drops);
        const QPoint at(rect->center().x(), rect->center().y());
        QTest::mouseMove(t->plot(), at);
        QApplication::processEvents();
        bool found = false;
        const QString bin = bins[2] >= 1 ? QStringLiteral("(%1 s bins)").arg(bins[2])
                                         : QStringLiteral("(%1 ms bins)").arg(bins[2] * 1000);
        for (int i = 0; i < t->plot()->itemCount(); ++i) {
            if (auto *text = qobject_cast<QCPItemText *>(t->plot()->item(i))) {
                found = found || (text->position->axisRect() == rect && text->text().endsWith(bin));
            }
        }
        QVERIFY2(found, qPrintable(bin));
    }

    void consoleTextAsPrinted()
    {
        const std::string_view raw = "\x1b"
                                     "c\x1b[?7l\x1b[2J\x1b[0mSeaBIOS (version 1.16.2)\r";
        QCOMPARE(QString::fromStdString(printedText(raw)),
                 QStringLiteral("SeaBIOS (version 1.16.2)"));
        QCOMPARE(LogModel::displayText(raw), QStringLiteral("SeaBIOS (version 1.16.2)"));
        QVector<int> ranges;
        QCOMPARE(LogModel::displayText(raw, true, &ranges),
                 QStringLiteral("^[c^[[?7l^[[2J^[[0mSeaBIOS (version 1.16.2)^M"));
        QCOMPARE(ranges, QVector<int>({0, 3, 3, 9, 9, 14, 14, 19, 43, 45}));
        // OSC up to BEL, a lone ESC at the end, DEL.
        QCOMPARE(QString::fromStdString(printedText("a\x1b]0;title\x07"
                                                    "b\x7f"
                                                    "c\x1b")),
                 QStringLiteral("abc"));

        open({sample(kBlast)});
        LogView *v = w->logPane(0)->view();
        const QModelIndex first = v->model()->index(0, LogModel::Text);
        QCOMPARE(first.data().toString(),
                 QStringLiteral("SeaBIOS (version 1.16.2-debian-1.16.2-1)"));
        // Search and filter work on the text as printed.
        v->search(QStringLiteral("^SeaBIOS \\(version"), true);
        QCOMPARE(v->matchCount(), std::size_t(1));
        // The View menu shows the sequences (dim, in caret notation).
        QAction *show = w->findChild<QAction *>(QStringLiteral("showControls"));
        QVERIFY(show);
        show->setChecked(true);
        QCOMPARE(first.data().toString(),
                 QStringLiteral("^[c^[[?7l^[[2J^[[0mSeaBIOS (version 1.16.2-debian-1.16.2-1)"));
        QCOMPARE(first.data(LogModel::ControlRangesRole).value<QVector<int>>(),
                 QVector<int>({0, 3, 3, 9, 9, 14, 14, 19}));
        show->setChecked(false);
        QCOMPARE(first.data().toString(),
                 QStringLiteral("SeaBIOS (version 1.16.2-debian-1.16.2-1)"));
    }
};

QTEST_MAIN(TestLayout)
#include "tst_gui_layout.moc"
