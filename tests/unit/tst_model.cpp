// The comparison model (model/): which parts of a capture are trials, the labels of sides
// and trials, the timeline runs and the report a Session makes. The CLI and the window both
// build their comparisons with these, so their figures and names agree.
#include "crashtitles.h"
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
    void eventsByKindOfASample();
    void eventsByKindSortsNotesWithTimes();
    void crashTitlesByEvent();
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
    QCOMPARE(trialSourceName(QStringLiteral("a.log"), std::nullopt), QStringLiteral("a.log"));
    QCOMPARE(trialSourceName(QStringLiteral("a.log"), 1), QStringLiteral("a.log (boot 2)"));

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
    QCOMPARE(whole[0].source(), QStringLiteral("cs.log"));

    BootChoice every;
    every.mode = BootChoice::Mode::EveryBoot;
    const QVector<Trial> boots = trialsOf(run, QStringLiteral("cs.log"), every);
    QCOMPARE(boots.size(), 2);
    QCOMPARE(boots[0].boot, std::optional<int>(0));
    QCOMPARE(boots[1].boot, std::optional<int>(1));
    QCOMPARE(boots[1].source(), QStringLiteral("cs.log (boot 2)"));

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
    // Each boot trial stands for its boot's lines and events, the other side for all.
    const Boot &first = run->boots[0], &second = run->boots[1];
    QCOMPARE(runs[0].firstLine, first.first);
    QCOMPARE(runs[0].endLine, std::optional<LineIndex>(first.end));
    QCOMPARE(runs[1].firstLine, second.first);
    QCOMPARE(runs[0].firstEvent(), std::size_t(0));
    QCOMPARE(runs[0].endEvent(), runs[1].firstEvent());
    QVERIFY(runs[1].firstEvent() > 0);
    QCOMPARE(runs[1].endEvent(), run->events.size());
    QVERIFY(run->events[runs[1].firstEvent()].line >= second.first);
    QVERIFY(run->events[runs[1].firstEvent() - 1].line < second.first);
    QVERIFY(!runs[2].endLine);
    QCOMPARE(runs[2].endEvent(), runs[2].run->events.size());
    QCOMPARE(runs[1].spanFrom, run->timeOf(second.first));
    QCOMPARE(runs[1].spanTo, run->timeOf(second.end - 1_lines));
    QVERIFY(!runs[2].spanFrom);
    // Aligned on the first panic: the boot without one is shown from its own start (its
    // first line), not from the start of the capture it was cut from.
    s.alignment.kind = Alignment::Kind::FirstEvent;
    s.alignment.event = EventKind::Panic;
    QStringList warnings;
    const QVector<TimelineRun> aligned = s.timelineRuns(&warnings);
    const auto panic = std::find_if(run->events.begin(), run->events.end(),
                                    [](const Event &e) { return e.kind == EventKind::Panic; });
    QVERIFY(panic != run->events.end() && panic->line < second.first);
    QCOMPARE(aligned[0].shift, run->eventTime(*panic)->count());
    QVERIFY(run->timeOf(second.first)->count() > 1);
    QCOMPARE(aligned[1].shift, run->timeOf(second.first)->count());
    QCOMPARE(
        warnings,
        (QStringList{QStringLiteral("cs.log (boot 2): no 'event:panic' to align on; shown from its "
                                    "start"),
                     QStringLiteral("q: no 'event:panic' to align on; shown from its start")}));
    QCOMPARE(aligned[2].shift, 0.0);
    s.alignment = Alignment{};

    // The report: one column per side, each boot's metrics those of its lines alone.
    const Report report = s.report();
    QCOMPARE(report.columns().size(), std::size_t(2));
    const ReportColumn &col = report.columns()[0];
    QCOMPARE(col.boots, (std::vector<std::optional<int>>{0, 1}));
    QCOMPARE(col.files, (QStringList{QStringLiteral("cs.log"), QStringLiteral("cs.log")}));
    QCOMPARE(col.source(1), QStringLiteral("cs.log (boot 2)"));
    QCOMPARE(col.sourcesSummary(), QStringLiteral("cs.log (boots 1, 2)"));
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

void TstModel::eventsByKindOfASample()
{
    const std::shared_ptr<const Run> run = loadSample("blast_crash-smp2-115200-t1.hostts.log.zst");
    QVERIFY(run);
    const EventKindIndex &index = run->eventsByKind;
    QCOMPARE(index.total(), run->events.size());
    // The truth file counts 319 lines that say messages were dropped, and one panic.
    QCOMPARE(index.count(EventKind::Drop), std::size_t(319));
    QCOMPARE(index.count(EventKind::Panic), std::size_t(1));
    const EventKindIndex::Kind &panic = index.of(EventKind::Panic);
    QCOMPARE(panic.events.size(), std::size_t(1));
    QCOMPARE(lineNumber(run->events[std::size_t(panic.events[0])].line), 8763);
    // Every kind against the definition: the events of the kind with an arrival, in order.
    std::size_t counted = 0;
    for (int k = 0; k < kEventKindCount; ++k) {
        std::vector<double> seconds;
        std::vector<int> events;
        for (std::size_t e = 0; e < run->events.size(); ++e) {
            if (run->events[e].kind == EventKind(k)) {
                if (const std::optional<RunSeconds> t = run->eventTime(run->events[e])) {
                    seconds.push_back(t->count());
                    events.push_back(int(e));
                }
            }
        }
        QCOMPARE(index.of(EventKind(k)).seconds, seconds);
        QCOMPARE(index.of(EventKind(k)).events, events);
        counted += index.count(EventKind(k));
    }
    QCOMPARE(counted, run->events.size());
    // The panic arrived 1796015459.94738 - 1796015413.101548 s after the first line.
    QVERIFY(std::abs(panic.seconds[0] - 46.845832) < 1e-5);
}

void TstModel::eventsByKindSortsNotesWithTimes()
{
    // Recorded markers carry times of their own, so a kind can come out of line order;
    // events without an arrival are counted but not placed.
    std::vector<Event> events(5);
    events[0].kind = EventKind::Marker;
    events[1].kind = EventKind::Drop;
    events[2].kind = EventKind::Marker;
    events[3].kind = EventKind::Marker;
    events[4].kind = EventKind::Drop;
    const std::vector<std::optional<RunSeconds>> times = {
        RunSeconds(5.0), RunSeconds(1.0), RunSeconds(2.0), RunSeconds(5.0), std::nullopt};
    EventKindIndex index;
    index.build(events, times);
    QCOMPARE(index.total(), std::size_t(5));
    QCOMPARE(index.of(EventKind::Marker).seconds, (std::vector<double>{2.0, 5.0, 5.0}));
    QCOMPARE(index.of(EventKind::Marker).events, (std::vector<int>{2, 0, 3})); // stable
    QCOMPARE(index.count(EventKind::Drop), std::size_t(2));
    QCOMPARE(index.of(EventKind::Drop).events, std::vector<int>{1});
    QCOMPARE(index.count(EventKind::Panic), std::size_t(0));
}

void TstModel::crashTitlesByEvent()
{
    const std::shared_ptr<const Run> run = loadSample("blast_crash-smp2-115200-t1.hostts.log.zst");
    QVERIFY(run);
    auto crashes = std::make_shared<const std::vector<Crash>>(findCrashes(*run));
    QCOMPARE(crashes->size(), std::size_t(1));
    const QString title =
        QStringLiteral("kernel panic: sysrq triggered crash in sysrq_handle_crash");
    const std::size_t panicEvent = crashes->front().event;
    QCOMPARE(run->events[panicEvent].kind, EventKind::Panic);
    // Two runs of the same capture and one whose crashes are not known.
    const CrashTitles titles({crashes, nullptr, crashes});
    QCOMPARE(titles.runCount(), 3);
    QCOMPARE(titles.titleOf(0, panicEvent), title);
    QCOMPARE(titles.titleOf(2, panicEvent), title);
    QCOMPARE(titles.titleOf(1, panicEvent), QString());
    QCOMPARE(titles.titleOf(0, panicEvent - 1), QString());
    QCOMPARE(titles.titleOf(3, panicEvent), QString()); // no such run
    QCOMPARE(titles.counts(), (QVector<QPair<QString, int>>{{title, 2}}));
    QCOMPARE(titles.eventsOf(title),
             (QVector<QPair<int, int>>{{0, int(panicEvent)}, {2, int(panicEvent)}}));
    QVERIFY(titles.eventsOf(QStringLiteral("no such crash")).isEmpty());

    // Reports out of event order (as no caller gives them, but a title must still be found),
    // and counts ordered by count, then by title.
    std::vector<Crash> mixed(3);
    mixed[0].event = 40;
    mixed[0].title = QStringLiteral("b");
    mixed[1].event = 7;
    mixed[1].title = QStringLiteral("a");
    mixed[2].event = 12;
    mixed[2].title = QStringLiteral("b");
    const CrashTitles out({std::make_shared<const std::vector<Crash>>(mixed)});
    QCOMPARE(out.titleOf(0, 7), QStringLiteral("a"));
    QCOMPARE(out.titleOf(0, 12), QStringLiteral("b"));
    QCOMPARE(out.titleOf(0, 40), QStringLiteral("b"));
    QCOMPARE(out.titleOf(0, 8), QString());
    QCOMPARE(out.counts(),
             (QVector<QPair<QString, int>>{{QStringLiteral("b"), 2}, {QStringLiteral("a"), 1}}));
    QCOMPARE(out.eventsOf(QStringLiteral("b")), (QVector<QPair<int, int>>{{0, 12}, {0, 40}}));
}
