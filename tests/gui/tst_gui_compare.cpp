// Comparison of two groups of real trials (the printk flood on 6.1 and 6.12-rt), aligned on
// the harness's insmod marker: alignment, group statistics against the truth files, the
// difference column, linked log panes, and the exported picture (GUI and headless).
#include "figure.h"
#include "guitest.h"
#include "logpane.h"
#include "logview.h"
#include "mainwindow.h"
#include "metricspanel.h"
#include "palette.h"
#include "timelineview.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace tty;
using namespace guitest;

namespace {
QStringList trials(const char *variant)
{
    QStringList f;
    for (int t = 1; t <= 3; ++t) {
        f << sample(QStringLiteral("spam_rmmod-%1-smp4-115200-t%2.hostts.log.zst")
                        .arg(QLatin1String(variant))
                        .arg(t)
                        .toLatin1());
    }
    return f;
}

QJsonObject truth(const QString &log)
{
    QString p = log;
    p.replace(QStringLiteral(".hostts.log.zst"), QStringLiteral(".truth.json"));
    QFile f(p);
    f.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(f.readAll()).object();
}

double truthMean(const QStringList &files, const std::function<double(const QJsonObject &)> &get,
                 double *sd)
{
    std::vector<double> v;
    for (const QString &f : files) {
        v.push_back(get(truth(f)));
    }
    const Summary s = summarize(v);
    *sd = s.sd;
    return s.mean;
}

const char *kInsmod = "harness: insmod";
} // namespace

class TestCompare : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<MainWindow> w;
    QStringList a = trials("A_default"), b = trials("k612rt");

    const ReportRow *row(const Report &r, const QString &key)
    {
        for (const ReportRow &x : r.rows()) {
            if (x.key == key) {
                return &x;
            }
        }
        return nullptr;
    }

private slots:
    void initTestCase()
    {
        w = std::make_unique<MainWindow>();
        w->resize(1500, 1000);
        w->show();
        OpenRequest r;
        r.sides = {a, b};
        r.labels = {QStringLiteral("6.1"), QStringLiteral("6.12-rt")};
        r.rules = std::make_shared<RuleSet>(RuleSet::builtin());
        QVERIFY(Alignment::parse(QStringLiteral("regex:") + QLatin1String(kInsmod), &r.alignment,
                                 nullptr));
        r.metrics.windowStart = QLatin1String(kInsmod);
        r.metrics.windowMatch = QStringLiteral("noise: worker");
        r.metrics.spans.append(
            {QStringLiteral("harness: rmmod"), QStringLiteral("noise: all workers stopped")});
        w->open(r);
        QVERIFY(w->waitForLoaded());
        QCOMPARE(w->session().sides.size(), 2);
        QCOMPARE(w->session().sides[0].trials.size(), 3);
        QCOMPARE(w->timeline()->runs().size(), 6);
    }

    void alignmentShiftsEveryTrial()
    {
        const QVector<TimelineRun> runs = w->timeline()->runs();
        const QStringList files = a + b;
        for (int i = 0; i < runs.size(); ++i) {
            const QJsonObject t = truth(files[i]);
            const QJsonObject m = t[QStringLiteral("harness_markers")]
                                      .toObject()[QStringLiteral("insmod nthreads=4")]
                                      .toObject();
            const double expected = m[QStringLiteral("host_time")].toDouble() -
                                    t[QStringLiteral("first_host_time")].toDouble();
            QVERIFY2(
                std::abs(runs[i].shift - expected) < 2e-6,
                qPrintable(
                    QStringLiteral("%1: %2 vs %3").arg(files[i]).arg(runs[i].shift).arg(expected)));
            QCOMPARE(runs[i].group, i < 3 ? 0 : 1); // the side: its colour is runColor(group)
        }
        QVERIFY(w->timeline()
                    ->plot()
                    ->axisRects()
                    .last()
                    ->axis(QCPAxis::atBottom)
                    ->label()
                    .contains(QLatin1String(kInsmod)));
        // Zoom and pan stay together for all lanes of both runs.
        w->timeline()->setXRange(5, 6);
        for (QCPAxisRect *rect : w->timeline()->plot()->axisRects()) {
            QCOMPARE(rect->axis(QCPAxis::atBottom)->range().lower, 5.0);
        }
    }

    void groupStatisticsMatchTheTruthFiles()
    {
        const Report r = w->session().report();
        QCOMPARE(int(r.columns().size()), 2);
        struct Check
        {
            const char *key;
            const char *truthKey;
            double tolerance;
        } checks[] = {
            {"window.lines", "noise_lines_arrived_within_30s_of_insmod_marker_host", 0},
            // produced = printed + dropped: every drop of these captures falls in the window
            {"window.produced", "noise_lines_logged_within_30s_of_insmod_kernel_ts", 0},
            {"drops.notices", "dropped_lines", 0},
            {"drops.messages", "dropped_messages_sum", 0},
            {"lag.max_s", "max_console_lag_s", 1e-3},
            {"spans.0.seconds", "rmmod_issued_to_stopped_on_wire_s", 2e-3},
            {"lines", "lines", 0},
        };
        for (const Check &c : checks) {
            const ReportRow *rr = row(r, QLatin1String(c.key));
            QVERIFY2(rr, c.key);
            for (int col = 0; col < 2; ++col) {
                double sd = 0;
                const bool produced = QLatin1String(c.key) == QLatin1String("window.produced");
                const double mean = truthMean(
                    col == 0 ? a : b,
                    [&](const QJsonObject &o) {
                        return o[QLatin1String(c.truthKey)].toDouble() +
                               (produced ? o[QLatin1String("dropped_messages_sum")].toDouble()
                                         : 0.0);
                    },
                    &sd);
                const Summary s = summarizePresent(rr->values[std::size_t(col)]);
                QCOMPARE(s.n, 3);
                QVERIFY2(std::abs(s.mean - mean) <= c.tolerance + 1e-9,
                         qPrintable(QStringLiteral("%1 col %2: %3 vs truth %4")
                                        .arg(QLatin1String(c.key))
                                        .arg(col)
                                        .arg(s.mean)
                                        .arg(mean)));
                QVERIFY2(std::abs(s.sd - sd) <= c.tolerance * 2 + 1e-6, c.key);
            }
        }
        // The difference column: B - A, and which is better.
        const ReportRow *drops = row(r, QStringLiteral("drops.messages"));
        QVERIFY(r.diffCell(*drops).startsWith(u'+'));
        QCOMPARE(r.better(*drops), -1); // fewer drops: A (6.1) is better
        const ReportRow *printed = row(r, QStringLiteral("window.lines"));
        // 6.12-rt printed 4 % more in the window, but with sd ~280 over 3 trials that is
        // within the noise: no winner, and the cell says so.
        QCOMPARE(r.better(*printed), 0);
        QVERIFY2(r.diffCell(*printed).endsWith(QLatin1String("n.s.")),
                 qPrintable(r.diffCell(*printed)));
        QVERIFY(r.cell(*drops, 1).contains(QStringLiteral("±")));
    }

    void clickingAMomentShowsBothLogs()
    {
        w->timeline()->resetZoom();
        w->showTime(10.0);
        for (int side = 0; side < 2; ++side) {
            LogPane *p = w->logPane(side);
            const double shift = w->timeline()->runs()[p->timelineRun()].shift;
            const std::optional<LineIndex> l = p->view()->currentLine();
            QVERIFY(l && *l > LineIndex(0));
            QVERIFY(p->run()->timeOf(*l).value().count() - shift <= 10.0);
            QVERIFY(p->run()->timeOf(*l + 1_lines).value().count() - shift > 10.0);
        }
    }

    void exportShowsBothRunsInEveryLane()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("cmp.png"));
        QString error;
        w->timeline()->resetZoom();
        QVERIFY2(w->exportFigure(png, 1600, 1200, 1.0, &error), qPrintable(error));
        const QImage img(png);
        const QVector<QRect> lanes = w->timeline()->lastRenderLaneRects();
        // The lanes of both runs (the stacked lanes after them are one side's each, in the
        // colours of its sources).
        QCOMPARE(lanes.size(), int(TimelineView::LaneCount) + 2);
        for (int l = 0; l < TimelineView::LaneCount; ++l) {
            const int na = countRunColor(img, lanes[l], runColor(0), plotBackground()),
                      nb = countRunColor(img, lanes[l], runColor(1), plotBackground());
            // 6.1 drops nothing: its drop lane is rightly empty of its colour.
            if (l != TimelineView::Drops) {
                QVERIFY2(na > 20,
                         qPrintable(QStringLiteral("lane %1: %2 pixels of A").arg(l).arg(na)));
            }
            QVERIFY2(nb > 20, qPrintable(QStringLiteral("lane %1: %2 pixels of B").arg(l).arg(nb)));
        }
        const QRect table(0, lanes.back().bottom() + 60, 1600, 1200 - lanes.back().bottom() - 60);
        QVERIFY(countColor(img, table, runColor(0)) > 20);
        QVERIFY(countColor(img, table, runColor(1)) > 20);
    }

    void aSmallExportKeepsEveryPartWhole()
    {
        // 900 x 700 is less than the title, six lanes, the legend and the table need: the
        // picture grows rather than squeeze them. Before, the layout shrank every row in
        // proportion, the title's too: half of it was above the picture, the legend's text
        // cut at its foot, the event rows' labels on top of each other.
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("small.png"));
        QString error;
        w->timeline()->resetZoom();
        QVERIFY2(w->exportFigure(png, 900, 700, 1.0, &error), qPrintable(error));
        const QImage img(png);
        QCOMPARE(img.width(), 900);
        QVERIFY2(img.height() > 700, qPrintable(QString::number(img.height())));
        const TimelineView *t = w->timeline();
        const TimelineView::RenderedFrame f = t->lastRenderFrame();
        const QVector<QRect> lanes = t->lastRenderLaneRects();
        QFont titleFont = t->font();
        titleFont.setBold(true);
        titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
        QVERIFY(f.title.top() >= 0);
        QVERIFY2(f.title.height() >= QFontMetrics(titleFont).height(),
                 qPrintable(QString::number(f.title.height())));
        // Both sides' names, elided each on its own, and the trial counts.
        QVERIFY2(f.titleText.contains(QStringLiteral(" (3 trials)  vs  ")) &&
                     f.titleText.endsWith(QStringLiteral(" (3 trials)")),
                 qPrintable(f.titleText));
        int previousBottom = f.title.bottom();
        for (int l = 0; l < TimelineView::LaneCount; ++l) {
            const QRect &r = lanes[l];
            QVERIFY2(r.top() > previousBottom, qPrintable(QString::number(l)));
            const int least = l == TimelineView::Events
                                  ? int(t->eventRows().size()) * t->eventRowHeight()
                                  : TimelineView::kMinExportLaneHeight;
            QVERIFY2(r.height() >= least,
                     qPrintable(QStringLiteral("lane %1: %2 px").arg(l).arg(r.height())));
            previousBottom = r.bottom();
        }
        QVERIFY(f.legend.top() > previousBottom);
        QVERIFY2(f.legendNeeds > 0 && f.legend.height() >= f.legendNeeds,
                 qPrintable(QString::number(f.legend.height())));
    }

    void patternLaneCountsMatches()
    {
        w->setPatterns({QStringLiteral("noise: worker 0 seq")}, true);
        TimelineView *t = w->timeline();
        QVERIFY(t->patternRect(0));
        t->resetZoom();
        for (int run = 0; run < 6; ++run) {
            const Run &r = *t->runs()[run].run;
            std::int64_t n = 0;
            for (LineIndex i{0}; i < r.lines.endIndex(); ++i) {
                n += r.lines.text(i).str().find("noise: worker 0 seq") != std::string_view::npos
                         ? 1
                         : 0;
            }
            QVERIFY(n > 1000);
            QCOMPARE(qRound64(integrate(t->patternGraph(0, run))), n);
        }
        w->setPatterns({}, true);
        QVERIFY(!t->patternRect(0));
    }

    void alignmentCanBeChanged()
    {
        Alignment start;
        w->setAlignment(start);
        for (const TimelineRun &r : w->timeline()->runs()) {
            QCOMPARE(r.shift, 0.0);
        }
        Alignment drop;
        QVERIFY(Alignment::parse(QStringLiteral("drop"), &drop, nullptr));
        w->setAlignment(drop);
        // 6.1 never drops: its trials stay at their start, 6.12-rt trials align on their first
        // drop.
        for (int i = 0; i < 6; ++i) {
            const TimelineRun &r = w->timeline()->runs()[i];
            QCOMPARE(r.shift > 0, i >= 3);
        }
    }

    void headlessMailingListWorkflow()
    {
        // The end-to-end workflow: report JSON and a picture from the command line.
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("mail.png"));
        const QStringList common{QStringLiteral("--window-start"),
                                 QLatin1String(kInsmod),
                                 QStringLiteral("--window-match"),
                                 QStringLiteral("noise: worker"),
                                 QStringLiteral("--span"),
                                 QStringLiteral("harness: rmmod=>noise: all workers stopped"),
                                 QStringLiteral("--label"),
                                 QStringLiteral("6.1"),
                                 QStringLiteral("--label"),
                                 QStringLiteral("6.12-rt"),
                                 a.join(u','),
                                 b.join(u',')};
        QProcess report;
        report.start(QStringLiteral(TTYSCOPE_BIN),
                     QStringList{QStringLiteral("report"), QStringLiteral("--output"),
                                 QStringLiteral("json")} +
                         common);
        QVERIFY(report.waitForFinished(60000));
        QCOMPARE(report.exitCode(), 0);
        const QJsonObject j = QJsonDocument::fromJson(report.readAllStandardOutput()).object();
        QCOMPARE(j[QStringLiteral("runs")].toArray().size(), 6);
        const QJsonArray groups = j[QStringLiteral("groups")].toArray();
        QCOMPARE(groups.size(), 2);
        double sd = 0;
        const double flushB = truthMean(
            b,
            [](const QJsonObject &o) {
                return o[QStringLiteral("rmmod_issued_to_stopped_on_wire_s")].toDouble();
            },
            &sd);
        const QJsonObject span = groups[1]
                                     .toObject()[QStringLiteral("metrics")]
                                     .toObject()[QStringLiteral("spans.0.seconds")]
                                     .toObject();
        QVERIFY(std::abs(span[QStringLiteral("mean")].toDouble() - flushB) < 2e-3);
        QCOMPARE(span[QStringLiteral("n")].toInt(), 3);
        QVERIFY(j[QStringLiteral("diff")].toObject().contains(QStringLiteral("drops.messages")));

        QProcess exp;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM")); // export must choose offscreen itself
        exp.setProcessEnvironment(env);
        exp.start(QStringLiteral(TTYSCOPE_BIN),
                  QStringList{QStringLiteral("export"), QStringLiteral("--png"), png,
                              QStringLiteral("--align"),
                              QStringLiteral("regex:") + QLatin1String(kInsmod)} +
                      common);
        QVERIFY(exp.waitForFinished(60000));
        QVERIFY2(exp.exitCode() == 0, exp.readAllStandardError().constData());
        const QImage img(png);
        QCOMPARE(img.size(), QSize(1600, 1100));
        QVERIFY(countRunColor(img, img.rect(), runColor(0), plotBackground()) > 1000);
        QVERIFY(countRunColor(img, img.rect(), runColor(1), plotBackground()) > 1000);
    }

    // A picture narrower than the table would be (file names as column headers, a group's
    // "mean ± sd" figures) shortens the headers, then the type: every column, B - A the
    // last, inside the picture, none cut at its edge.
    void narrowExportKeepsTheTableInside_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<QString>("sideA");
        QTest::addColumn<QString>("sideB");
        QTest::newRow("two runs, 900 px") << 900 << a[0] << b[0];
        QTest::newRow("two groups, 800 px") << 800 << a.join(u',') << b.join(u',');
    }
    void narrowExportKeepsTheTableInside()
    {
        QFETCH(int, width);
        QFETCH(QString, sideA);
        QFETCH(QString, sideB);
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("narrow.png"));
        QProcess exp;
        exp.start(QStringLiteral(TTYSCOPE_BIN),
                  QStringList{QStringLiteral("export"), QStringLiteral("--png"), png,
                              QStringLiteral("--width"), QString::number(width), sideA, sideB});
        QVERIFY(exp.waitForFinished(60000));
        QVERIFY2(exp.exitCode() == 0, exp.readAllStandardError().constData());
        const QImage img(png);
        QCOMPARE(img.width(), width);
        // The table's rows: the bottom fifth of the picture, below the lanes and legend.
        const int top = img.height() * 4 / 5, h = img.height() - top;
        // Nothing touches the right edge ...
        QCOMPARE(countInk(img, QRect(img.width() - 6, top, 6, h), plotBackground()), 0);
        // ... and the last columns' figures are drawn, left of it.
        QVERIFY2(countInk(img, QRect(img.width() * 4 / 5, top, img.width() / 5 - 6, h),
                          plotBackground()) > 300,
                 "no figures in the table's right part");
    }

    // `ttyscope --baud 1500000 --baud 115200 a.log b.log`: each side is loaded at its rate.
    void ratePerSide()
    {
        MainWindow other;
        OpenRequest r;
        r.sides = {{a.front()}, {b.front()}};
        r.bauds = {1500000, 115200};
        r.rules = std::make_shared<RuleSet>(RuleSet::builtin());
        other.open(r);
        QVERIFY(other.waitForLoaded());
        QCOMPARE(other.session().sides.size(), 2);
        QCOMPARE(other.session().sides[0].trials.front().run->meta.baud, 1500000);
        QCOMPARE(other.session().sides[1].trials.front().run->meta.baud, 115200);
        // The metrics pane says so under its table, as the text report does.
        const QStringList notes = other.metricsPanel()->notes().split(QLatin1Char('\n'));
        QCOMPARE(notes.last(),
                 QStringLiteral("The wire figures are at different rates: %1: 1500000 baud; "
                                "%2: 115200 baud.")
                     .arg(QFileInfo(a.front()).fileName(), QFileInfo(b.front()).fileName()));
        // The wire lane: a capacity line per rate, named by its side, and no "% of UART"
        // scale, which would be one side's.
        QStringList capacities;
        QCustomPlot *plot = other.timeline()->plot();
        const QCPAxisRect *wire = nullptr;
        for (int i = 0; i < plot->itemCount(); ++i) {
            if (plot->item(i)->objectName() == QLatin1String("uart-capacity")) {
                wire = plot->item(i)->clipAxisRect();
                // Each in its side's colour, the line as its name.
                if (auto *t = qobject_cast<QCPItemText *>(plot->item(i))) {
                    capacities << QStringLiteral("%1 %2").arg(t->text(), t->color().name());
                } else if (auto *l = qobject_cast<QCPItemStraightLine *>(plot->item(i))) {
                    capacities << QStringLiteral("line %1").arg(l->pen().color().name());
                }
            }
        }
        const QString blue = runColor(0).name(), orange = runColor(1).name();
        QCOMPARE(capacities,
                 (QStringList{
                     QStringLiteral("line ") + orange,
                     QStringLiteral("UART capacity 11520 B/s (115200 baud, 8N1): B ") + orange,
                     QStringLiteral("line ") + blue,
                     QStringLiteral("UART capacity 150000 B/s (1500000 baud, 8N1): A ") + blue,
                 }));
        QVERIFY(wire);
        QVERIFY(!wire->axis(QCPAxis::atRight)->visible());
        // One rate: its line, unnamed, and the scale.
        QStringList one;
        for (int i = 0; i < w->timeline()->plot()->itemCount(); ++i) {
            if (auto *t = qobject_cast<QCPItemText *>(w->timeline()->plot()->item(i));
                t && t->objectName() == QLatin1String("uart-capacity")) {
                one << t->text();
                QVERIFY(t->clipAxisRect()->axis(QCPAxis::atRight)->visible());
            }
        }
        QCOMPARE(one, QStringList{QStringLiteral("UART capacity 11520 B/s (115200 baud, 8N1)")});

        // View ▸ Runs ▸ Baud rate of run B…: the files are read again, B at its new rate, A
        // at its own, the labels kept.
        QString error;
        QVERIFY(other.setSideBaud(1, 230400, &error));
        QVERIFY(other.waitForLoaded());
        QCOMPARE(other.session().sides[0].trials.front().run->meta.baud, 1500000);
        QCOMPARE(other.session().sides[1].trials.front().run->meta.baud, 230400);
        QCOMPARE(other.session().sides[1].label, QFileInfo(b.front()).fileName());
        QVERIFY(other.metricsPanel()->notes().endsWith(
            QStringLiteral("; %1: 230400 baud.").arg(QFileInfo(b.front()).fileName())));
    }

    // B read again at another rate: A, whose rate its kernel's command line named, finds it
    // again (it went on as a rate given, and its note said nothing of where it came from).
    void aStatedRateStaysStatedWhenTheOtherSideChanges()
    {
        MainWindow other;
        other.resize(1500, 950);
        other.show();
        other.openFiles({QStringLiteral(TTYSCOPE_FIXTURES "/slowbaud/6.1-38400.hostts.log.zst"),
                         sample("boot_login-default-smp2-115200-t1.hostts.log.zst")});
        QVERIFY(other.waitForLoaded());
        auto meta = [&](int side) -> const RunMeta & {
            return other.session().sides[side].trials.front().run->meta;
        };
        QCOMPARE(meta(0).baud, 38400);
        QCOMPARE(meta(0).baudSource, RunMeta::BaudSource::KernelCommandLine);
        QString error;
        QVERIFY2(other.setSideBaud(1, 230400, &error), qPrintable(error));
        QVERIFY(other.waitForLoaded());
        QCOMPARE(meta(0).baud, 38400);
        QCOMPARE(meta(0).baudSource, RunMeta::BaudSource::KernelCommandLine);
        QCOMPARE(meta(0).baudStatement, QStringLiteral("console=ttyS0,38400"));
        QCOMPARE(meta(1).baud, 230400);
        QCOMPARE(meta(1).baudSource, RunMeta::BaudSource::Given);
        QVERIFY2(other.metricsPanel()->notes().contains(QStringLiteral(
                     "The wire figures' rate: 6.1-38400.hostts.log.zst: 38400 baud "
                     "(console=ttyS0,38400 on the kernel command line); "
                     "boot_login-default-smp2-115200-t1.hostts.log.zst: 230400 baud.")),
                 qPrintable(other.metricsPanel()->notes()));
    }

    void cleanupTestCase() { w.reset(); }
};

QTEST_MAIN(TestCompare)
#include "tst_gui_compare.moc"
