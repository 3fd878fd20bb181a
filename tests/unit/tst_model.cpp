// The comparison model (model/): which parts of a capture are trials, the labels of sides
// and trials, the timeline runs and the report a Session makes. The CLI and the window both
// build their comparisons with these, so their figures and names agree.
#include "labels.h"
#include "session.h"
#include "trials.h"
#include "tst_helpers.h"

#include <QTest>

using namespace tty;
using namespace testutil;

class TstModel : public QObject
{
    Q_OBJECT
private slots:
    void commonLabels();
    void trialsOfTwoBoots();
    void sessionOfBoots();
};

namespace {
std::shared_ptr<const Run> loadSample(const QString &name)
{
    QString error;
    std::shared_ptr<const Run> run =
        loadRun(QStringLiteral(TTYSCOPE_SAMPLES "/") + name, LoadOptions{}, &error);
    if (!run) {
        qWarning("%s", qPrintable(error));
    }
    return run;
}

// panic_noroot then boot_login, as a console server logs a reboot: two boots.
std::shared_ptr<const Run> twoBoots()
{
    const QByteArray a =
        zstdDecompressFile(QStringLiteral(TTYSCOPE_SAMPLES "/panic_noroot-smp2-115200-t1.raw.zst"));
    const QByteArray b = zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-default-smp2-115200-t1.raw.zst"));
    return loadBytes(a + (a.endsWith('\n') ? "" : "\r\n") + b, LoadOptions{}, nullptr,
                     QStringLiteral("console-server.log"));
}
} // namespace

void TstModel::commonLabels()
{
    QCOMPARE(commonLabel({QStringLiteral("k612-t1.log.zst"), QStringLiteral("k612-t2.log.zst"),
                          QStringLiteral("k612-t3.log.zst")}),
             QStringLiteral("k612-t*.log.zst"));
    QCOMPARE(commonLabel({QStringLiteral("only.log")}), QStringLiteral("only.log"));
    QCOMPARE(trialSource(QStringLiteral("a.log"), -1), QStringLiteral("a.log"));
    QCOMPARE(trialSource(QStringLiteral("a.log"), 1), QStringLiteral("a.log (boot 2)"));

    // A side of three trials labels itself by what their files have in common...
    QVector<Trial> trials;
    for (int t = 1; t <= 3; ++t) {
        const auto run =
            loadSample(QStringLiteral("spam_rmmod-k612rt-smp4-115200-t%1.hostts.log.zst").arg(t));
        QVERIFY(run);
        trials.append(Trial{run, std::nullopt, run->meta.label});
    }
    QCOMPARE(defaultLabel(trials),
             QStringLiteral("spam_rmmod-k612rt-smp4-115200-t*.hostts.log.zst"));
    // ...and boots of one capture by the capture's name.
    const auto run = twoBoots();
    QVERIFY(run);
    BootChoice every;
    every.mode = BootChoice::Mode::EveryBoot;
    QCOMPARE(defaultLabel(trialsOf(run, QStringLiteral("x"), every)),
             QStringLiteral("console-server.log"));
}

void TstModel::trialsOfTwoBoots()
{
    const auto run = twoBoots();
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(2));

    const QVector<Trial> whole = trialsOf(run, QStringLiteral("cs.log"), BootChoice{});
    QCOMPARE(whole.size(), 1);
    QVERIFY(!whole[0].boot);
    QCOMPARE(whole[0].source, QStringLiteral("cs.log"));

    BootChoice every;
    every.mode = BootChoice::Mode::EveryBoot;
    const QVector<Trial> boots = trialsOf(run, QStringLiteral("cs.log"), every);
    QCOMPARE(boots.size(), 2);
    QCOMPARE(boots[0].boot, std::optional<int>(0));
    QCOMPARE(boots[1].boot, std::optional<int>(1));
    QCOMPARE(boots[1].source, QStringLiteral("cs.log (boot 2)"));

    // A selector picks boots even of a one-boot capture; one that picks none gives none.
    BootChoice second;
    second.mode = BootChoice::Mode::Selected;
    QString error;
    QVERIFY(BootSelector::parse(QStringLiteral("/Kernel panic/"), &second.selector, &error));
    const QVector<Trial> panicking = trialsOf(run, QStringLiteral("cs.log"), second);
    QCOMPARE(panicking.size(), 1);
    QCOMPARE(panicking[0].boot, std::optional<int>(0));
    const auto single = loadSample(QStringLiteral("boot_login-quiet-smp2-115200-t1.raw.zst"));
    QVERIFY(single);
    QVERIFY(!trialsOf(single, QStringLiteral("q"), every)[0].boot); // one boot: whole run
    QVERIFY(trialsOf(single, QStringLiteral("q"), second).isEmpty());
    BootChoice all;
    all.mode = BootChoice::Mode::Selected;
    QCOMPARE(trialsOf(single, QStringLiteral("q"), all)[0].boot, std::optional<int>(0));
}

void TstModel::sessionOfBoots()
{
    const auto run = twoBoots();
    QVERIFY(run);
    Session s;
    BootChoice every;
    every.mode = BootChoice::Mode::EveryBoot;
    Side a;
    a.label = QStringLiteral("boots");
    a.trials = trialsOf(run, QStringLiteral("cs.log"), every);
    s.sides.append(a);
    Side b;
    b.label = QStringLiteral("quiet");
    b.trials.append(Trial{loadSample(QStringLiteral("boot_login-quiet-smp2-115200-t1.raw.zst")),
                          std::nullopt, "q"});
    s.sides.append(b);
    s.patterns << QStringLiteral("Kernel panic");

    const QVector<TimelineRun> runs = s.timelineRuns();
    QCOMPARE(runs.size(), 3);
    QCOMPARE(runs[0].group, 0);
    QCOMPARE(runs[1].group, 0);
    QCOMPARE(runs[2].group, 1);
    QCOMPARE(runs[1].label, QStringLiteral("boots [cs.log (boot 2)]"));
    QCOMPARE(runs[2].label, QStringLiteral("quiet"));
    QCOMPARE(runs[1].groupLabel, QStringLiteral("boots"));

    // The report: one column per side, each boot's metrics those of its lines alone.
    const Report report = s.report();
    QCOMPARE(report.columns().size(), std::size_t(2));
    const ReportColumn &col = report.columns()[0];
    QCOMPARE(col.boots, (std::vector<std::optional<int>>{0, 1}));
    QCOMPARE(col.sources,
             (QStringList{QStringLiteral("cs.log (boot 1)"), QStringLiteral("cs.log (boot 2)")}));
    const Boot &second = run->boots[1];
    QCOMPARE(col.metrics[1].lines, computeMetrics(*run, s.metrics, second.first, second.end).lines);
    QCOMPARE(col.metrics[0].lines + col.metrics[1].lines, computeMetrics(*run, s.metrics).lines);

    // Pattern lanes: `zstdcat panic_noroot…raw.zst | grep -c 'Kernel panic'` = 2, and none in
    // the quiet boot; boot trials see their whole run's matches (the lane is per run).
    const QVector<PatternSeries> p = s.patternSeries();
    QCOMPARE(p.size(), 1);
    QCOMPARE(p[0].times.size(), 3);
    QCOMPARE(p[0].times[0].size(), std::size_t(2));
    QCOMPARE(p[0].times[2].size(), std::size_t(0));
    QVERIFY(p[0].times[0][0] <= p[0].times[0][1]);
}

QTEST_GUILESS_MAIN(TstModel)
#include "tst_model.moc"
