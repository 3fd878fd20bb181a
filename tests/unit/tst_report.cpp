// Metrics on a small log whose figures are known by construction, and the report in
// text, Markdown and JSON (with the difference column for two runs).
#include "gate.h"
#include "jsonnumber.h"
#include "report.h"
#include "tst_helpers.h"

#include <QDateTime>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace tty;
using namespace testutil;

namespace {
// A column of one run, "x" read from x.log.
ReportColumn oneRunColumn(const Run &run, const Metrics &m)
{
    ReportColumn c;
    c.label = QStringLiteral("x");
    c.runs = {&run};
    c.boots = {std::nullopt};
    c.metrics = {m};
    c.files = {QStringLiteral("x.log")};
    return c;
}

// Kernel time zero at host 1700000000 s (1699999000 + 1000); line k (kernel time k*0.1 s) arrives
// lag_k late.
QByteArray syntheticLog(double extraLag)
{
    QByteArray b;
    auto add = [&](double host, const QByteArray &text) {
        b += QByteArray::number(1699999000.0 + host, 'f', 6) + '\t' + text + '\n';
    };
    add(1000.0, "[    0.000000] Linux version 6.1.0-57-amd64 (x)");
    add(1000.2, "[    0.100000] harness: insmod");                  // lag 0.1
    add(1000.3, "[    0.200000] noise: worker 0 seq 1");            // lag 0.1
    add(1000.9 + extraLag, "[    0.300000] noise: worker 1 seq 1"); // lag 0.6 (+extra)
    add(1001.0 + extraLag, "** 4 printk messages dropped **");
    add(1001.1 + extraLag, "[    0.400000] harness: rmmod"); // lag 0.7 (+extra)
    add(1002.0 + extraLag, "[    0.500000] Kernel panic - not syncing: test");
    add(1002.1 + extraLag, "[    0.510000] Call Trace:");
    add(1002.2 + extraLag, "[    0.600000] ---[ end Kernel panic - not syncing: test ]---");
    add(1003.0 + extraLag, "corpusvm login: ");
    return b;
}
} // namespace

class TstReport : public QObject
{
    Q_OBJECT
private slots:
    void metrics();
    void jsonNumbersAsPasted();
    void panicIncomplete_data();
    void panicIncomplete();
    void report();
    void welchStatistics();
    void bitsPerCharacterFromSettings();
    void groupsBetterOnlyWhenSignificant();
    void countsHaveNoDirection();
    void eventsInJson();
    void trialSourcesInHeaders();
    void placeMarkersInNamesStay();
    void absentFiguresSayWhy();
    void dropCountOutOfRange();
    void firstLineWithoutStamp_data();
    void kernelIntervalsStayInTheirBoot();
    void stampedFormatWithoutStamps();
    void firstLineWithoutStamp();
    void markdownKeepsItsColumns();
    void trialReadInPartIsSaid();
    void noSpreadIsNoTest();
};

void TstReport::metrics()
{
    const auto run = loadBytes(syntheticLog(0));
    QVERIFY(run);
    MetricOptions o;
    o.spans.append({QStringLiteral("harness: insmod"), QStringLiteral("harness: rmmod")});
    o.spans.append({QStringLiteral("harness: rmmod"), QStringLiteral("no such line")});
    o.windowStart = QStringLiteral("harness: insmod");
    o.windowSeconds = 0.5;
    o.windowMatch = QStringLiteral("noise:");
    o.intervals << QStringLiteral("noise: worker");
    const Metrics m = computeMetrics(*run, o);
    QCOMPARE(m.lines, qint64(10));
    QCOMPARE(m.kernelLines, qint64(8));
    QCOMPARE(m.bytes, qint64(run->bytes));
    // Time on the wire: 10 bits a byte (8N1) at the default 115200 baud.
    QCOMPARE(m.bitsPerChar, 10);
    QCOMPARE(m.baud, 115200);
    QCOMPARE(m.wireSeconds.value(), double(m.bytes) * 10 / 115200);
    QCOMPARE(m.boots, 1);
    QVERIFY(std::fabs(m.duration.value() - 3.0) < 1e-6);
    QCOMPARE(m.dropNotices, qint64(1));
    QCOMPARE(m.droppedMessages, qint64(4));
    QVERIFY(m.hasLag());
    QVERIFY(std::fabs(*m.lagMax - 1.6) < 1e-6); // the end marker: 1002.2 - 0.6 - 1000
    QVERIFY(std::fabs(*m.lagP50 - 0.6) < 1e-6); // lags 0 .1 .1 .6 .7 1.5 1.59 1.6: rank 4 of 8
    QVERIFY(std::fabs(*m.lagP99 - 1.6) < 1e-6);
    QCOMPARE(run->boots[0].kernelZero, HostNs(1700000000000000000));
    // Window: 0.5 s after the insmod line arrived (1000.2 .. 1000.7): one noise line by
    // arrival, two produced in that span of kernel time (0.1 .. 0.6 s).
    QVERIFY(m.window.found);
    QCOMPARE(m.window.startLine, LineIndex(1));
    QCOMPARE(m.window.lines, qint64(1));
    QCOMPARE(m.window.produced, qint64(2));
    // Span: insmod produced at 1000.1, rmmod arrived at 1001.1.
    QCOMPARE(m.spans.size(), std::size_t(2));
    QVERIFY(std::fabs(m.spans[0].seconds.value() - 1.0) < 1e-6);
    QCOMPARE(m.spans[0].toLine, LineIndex(5));
    QVERIFY(!m.spans[1].seconds);
    QVERIFY(m.spans[1].missing.contains(QLatin1String("no such line")));
    QVERIFY(std::fabs(m.bootTime.value() - 3.0) < 1e-6);
    QVERIFY(m.panic.detected);
    QVERIFY(m.panic.complete);
    QCOMPARE(m.panic.line, LineIndex(6));
    QCOMPARE(m.panic.reason, QStringLiteral("test"));
    QCOMPARE(m.eventCounts[std::size_t(EventKind::Boot)], qint64(1));
    QCOMPARE(m.eventCounts[std::size_t(EventKind::CallTrace)], qint64(1));
    QCOMPARE(m.eventCounts[std::size_t(EventKind::PanicEnd)], qint64(1));
    QCOMPARE(m.intervals.size(), std::size_t(1));
    QCOMPARE(m.intervals[0].matches, qint64(2));
    QVERIFY(std::fabs(m.intervals[0].mean.value() - 0.6) < 1e-6);
    QVERIFY(std::fabs(m.intervals[0].kernelMean.value() - 0.1) < 1e-6);

    // The same figures without host times: no lag, no boot time; spans by kernel time.
    QByteArray text;
    for (const QByteArray &l : syntheticLog(0).split('\n')) {
        text += l.mid(l.indexOf('\t') + 1) + '\n';
    }
    const auto raw = loadBytes(text);
    QVERIFY(raw);
    const Metrics r = computeMetrics(*raw, o);
    QVERIFY(!r.hasLag());
    QVERIFY(!r.bootTime);
    QCOMPARE(r.dropNotices, qint64(1));
    QVERIFY(r.panic.complete);
}

void TstReport::panicIncomplete_data()
{
    QTest::addColumn<QByteArray>("log");
    QTest::addColumn<QStringList>("missing");
    QTest::newRow("no end marker (panic=N reboots first)")
        << QByteArray("[ 1.0] Kernel panic - not syncing: x\n[ 1.1] Call Trace:\n")
        << QStringList{"end marker"};
    QTest::newRow("no call trace")
        << QByteArray("[ 1.0] Kernel panic - not syncing: x\n"
                      "[ 1.1] ---[ end Kernel panic - not syncing: x ]---\n")
        << QStringList{"call trace"};
    QTest::newRow("banner dropped")
        << QByteArray("[ 1.1] Call Trace:\n[ 1.2] ---[ end Kernel panic - not syncing: x ]---\n")
        << QStringList{"banner", "call trace"};
}

void TstReport::panicIncomplete()
{
    QFETCH(QByteArray, log);
    QFETCH(QStringList, missing);
    const auto run = loadBytes(log);
    QVERIFY(run);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QVERIFY(m.panic.detected);
    QVERIFY(!m.panic.complete);
    QCOMPARE(m.panic.missing, missing);
    const Report rep({oneRunColumn(*run, m)}, MetricOptions{});
    QVERIFY(rep.text().contains(QStringLiteral("no, missing %1").arg(missing.join(", "))));
}

void TstReport::report()
{
    const auto a = loadBytes(syntheticLog(0));
    const auto b = loadBytes(syntheticLog(2.0));
    QVERIFY(a && b);
    MetricOptions o;
    o.spans.append({QStringLiteral("harness: insmod"), QStringLiteral("harness: rmmod")});
    auto column = [&](const Run &r, const QString &label) {
        ReportColumn c;
        c.label = label;
        c.runs = {&r};
        c.boots = {std::nullopt};
        c.metrics = {computeMetrics(r, o)};
        c.files = {label + QStringLiteral(".log")};
        return c;
    };
    const Report rep({column(*a, QStringLiteral("stock")), column(*b, QStringLiteral("new"))}, o);
    QVERIFY(rep.hasDiff());

    const QString text = rep.text();
    QVERIFY(text.contains(QStringLiteral("B − A")));
    QVERIFY(text.contains(QLatin1String("stock: stock.log")));
    const QStringList lines = text.split(QLatin1Char('\n'));
    const QString lagRow = lines.filter(QStringLiteral("console lag max")).value(0);
    // One trial a side says nothing about the noise: the difference, but no winner.
    QCOMPARE(lagRow.simplified(),
             QStringLiteral("console lag max (s) 1.600 3.600 +2.000 (+125.0%)"));
    // Aligned: every column starts at the same offset in the header and the rows.
    const int col = lines.filter(QStringLiteral("metric")).value(0).indexOf(QLatin1String("stock"));
    QVERIFY(col > 0);
    QCOMPARE(lagRow.indexOf(QLatin1String("1.600")), col);

    const QString md = rep.markdown();
    QVERIFY(md.startsWith(QStringLiteral("| metric | stock | new | B − A |")));
    QVERIFY(
        md.contains(QLatin1String("| console lag max (s) | 1.600 | 3.600 | +2.000 (+125.0%) |")));
    QVERIFY(!md.contains(QLatin1String("**")));

    const QJsonObject j = rep.json();
    const QJsonArray runs = j.value(QLatin1String("runs")).toArray();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(j.value(QLatin1String("groups")).toArray().size(), 2);
    const QJsonObject r0 = runs[0].toObject();
    for (const char *key : {"source", "format", "label", "lines", "kernel_lines", "bytes", "boots",
                            "drops", "panic", "lag", "window", "spans", "boot_time_s", "events"}) {
        QVERIFY2(r0.contains(QLatin1String(key)), key);
    }
    QCOMPARE(r0.value(QLatin1String("format")).toString(), QStringLiteral("hostts"));
    QCOMPARE(r0.value(QLatin1String("lines")).toInt(), 10);
    QCOMPARE(r0.value(QLatin1String("drops")).toObject().value(QLatin1String("notices")).toInt(),
             1);
    QCOMPARE(r0.value(QLatin1String("drops")).toObject().value(QLatin1String("messages")).toInt(),
             4);
    QVERIFY(r0.value(QLatin1String("panic")).toObject().value(QLatin1String("detected")).toBool());
    QVERIFY(r0.value(QLatin1String("panic"))
                .toObject()
                .value(QLatin1String("trace_complete"))
                .toBool());
    QVERIFY(std::fabs(
                r0.value(QLatin1String("lag")).toObject().value(QLatin1String("max_s")).toDouble() -
                1.6) < 1e-6);
    const QJsonObject win = r0.value(QLatin1String("window")).toObject();
    for (const char *key : {"start", "seconds", "lines"}) {
        QVERIFY2(win.contains(QLatin1String(key)), key);
    }
    QCOMPARE(win.value(QLatin1String("lines")).toInt(), 10); // all within the first 30 s
    const QJsonObject span = r0.value(QLatin1String("spans")).toArray()[0].toObject();
    QCOMPARE(span.value(QLatin1String("from")).toString(), QStringLiteral("harness: insmod"));
    QCOMPARE(span.value(QLatin1String("to")).toString(), QStringLiteral("harness: rmmod"));
    QVERIFY(std::fabs(span.value(QLatin1String("seconds")).toDouble() - 1.0) < 1e-6);
    QVERIFY(std::fabs(r0.value(QLatin1String("boot_time_s")).toDouble() - 3.0) < 1e-6);
    const QJsonArray events = r0.value(QLatin1String("events")).toArray();
    QJsonObject drop;
    for (const QJsonValue &v : events) {
        if (v.toObject().value(QLatin1String("kind")).toString() == QLatin1String("drop")) {
            drop = v.toObject();
        }
    }
    QCOMPARE(drop.value(QLatin1String("line")).toInt(), 5); // 1-based
    QCOMPARE(drop.value(QLatin1String("count")).toInt(), 4);
    QVERIFY(std::fabs(drop.value(QLatin1String("arrival")).toDouble() - 1700000001.0) < 1e-6);
    QVERIFY(drop.value(QLatin1String("kernel_time")).isNull());
    QCOMPARE(drop.value(QLatin1String("text")).toString(),
             QStringLiteral("** 4 printk messages dropped **"));
    const QJsonObject diff = j.value(QLatin1String("diff")).toObject();
    const QJsonObject lagDiff = diff.value(QLatin1String("lag.max_s")).toObject();
    QVERIFY(std::fabs(lagDiff.value(QLatin1String("b_minus_a")).toDouble() - 2.0) < 1e-6);
    QVERIFY(lagDiff.value(QLatin1String("better")).isNull());
    QVERIFY(lagDiff.value(QLatin1String("ci95")).isNull());
    QVERIFY(lagDiff.value(QLatin1String("p")).isNull());

    // One column: no difference column anywhere.
    const Report single({column(*a, QStringLiteral("stock"))}, o);
    QVERIFY(!single.hasDiff());
    QVERIFY(!single.text().contains(QStringLiteral("B − A")));
    QVERIFY(!single.json().contains(QLatin1String("diff")));
}

void TstReport::bitsPerCharacterFromSettings()
{
    RunMeta meta;
    QCOMPARE(bitsPerCharacter(meta), 10); // unknown: 8N1
    meta.extra = QJsonObject{{QStringLiteral("data_bits"), 7},
                             {QStringLiteral("parity"), QStringLiteral("even")},
                             {QStringLiteral("stop_bits"), 2}};
    QCOMPARE(bitsPerCharacter(meta), 11); // start + 7 + parity + 2 stop
    meta.extra = QJsonObject{{QStringLiteral("data_bits"), 8},
                             {QStringLiteral("parity"), QStringLiteral("none")},
                             {QStringLiteral("stop_bits"), 1}};
    QCOMPARE(bitsPerCharacter(meta), 10);
    // --baud changes the wire time of the same bytes.
    LoadOptions slow;
    slow.baud = 9600;
    QByteArray log = "1700000000.000000\t[    0.000000] Linux version 6.1.0 (x)\n";
    const auto run = loadBytes(log, slow);
    QVERIFY(run);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.baud, 9600);
    QCOMPARE(m.wireSeconds.value(), double(m.bytes) * 10 / 9600);
}

void TstReport::welchStatistics()
{
    // References computed independently (numerical integration of the t density).
    QVERIFY(std::fabs(studentTQuantile(0.975, 4) - 2.776445105) < 1e-8);
    QVERIFY(std::fabs(2 * studentTCdf(-2.0, 10) - 0.073388035) < 1e-8);
    const Difference d = welch(summarize({10, 12, 14}), summarize({20, 22, 24}));
    QVERIFY(d.valid);
    QCOMPARE(d.diff, 10.0);
    QVERIFY(std::fabs(d.df - 4.0) < 1e-12);
    QVERIFY(std::fabs(d.p - 0.0036022326) < 1e-9);
    QVERIFY(std::fabs(d.ciLow - 5.466084) < 1e-6);
    QVERIFY(std::fabs(d.ciHigh - 14.533916) < 1e-6);
    QVERIFY(d.significant());
    // n = 1 on a side: no test.
    QVERIFY(!welch(summarize({10}), summarize({20, 22, 24})).valid);
    // No noise on either side: a difference is certain, none is none.
    QCOMPARE(welch(summarize({0, 0, 0}), summarize({5, 5, 5})).p, 0.0);
    QCOMPARE(welch(summarize({5, 5}), summarize({5, 5, 5})).p, 1.0);
    QVERIFY(welch(summarize({0, 0, 0}), summarize({5, 5, 5})).noSpread);
    QVERIFY(!d.noSpread);
    // The same figure in every trial, one that binary fractions do not hold: exactly that
    // mean and no noise, so two such sides are not a test of rounding errors (summed as
    // they were, 1.6 gave sd 1.1e-16 and a 95 % interval of +-6e-16).
    const Summary same = summarize({1.6, 1.6, 1.6});
    QVERIFY(same.mean == 1.6); // exactly: QCOMPARE's fuzzy compare would let 2e-16 pass
    QVERIFY(same.sd == 0.0);
    const Difference none = welch(same, summarize({1.6, 1.6, 1.6}));
    QVERIFY(none.diff == 0.0);
    QVERIFY(none.p == 1.0);
    QVERIFY(none.ciLow == none.ciHigh);
    const Summary tenths = summarize({0.1, 0.2, 0.3, std::nan("")});
    QCOMPARE(tenths.n, 3);
    QVERIFY(std::fabs(tenths.mean - 0.2) < 1e-15);
    QVERIFY(std::fabs(tenths.sd - 0.1) < 1e-15);
}

namespace {
// A column of trials with given figures, on a run only used for what its format has.
ReportColumn trials(const Run &run, const QString &label, const std::vector<double> &printed,
                    const std::vector<double> &dropped)
{
    ReportColumn c;
    c.label = label;
    for (std::size_t i = 0; i < printed.size(); ++i) {
        Metrics m = computeMetrics(run, MetricOptions{});
        m.window.lines = std::int64_t(printed[i]);
        m.droppedMessages = std::int64_t(dropped[i]);
        c.runs.push_back(&run);
        c.boots.push_back(std::nullopt);
        c.metrics.push_back(m);
        c.files << QStringLiteral("%1-t%2.log").arg(label).arg(i + 1);
    }
    return c;
}
} // namespace

// The headers name the boots of one file as ranges ("cs.log (boots 1–3, 7)"), and a long
// list by its ends and count; the JSON keeps every trial's source.
void TstReport::trialSourcesInHeaders()
{
    const auto run = loadBytes(syntheticLog(0));
    const auto other = loadBytes(syntheticLog(0));
    QVERIFY(run && other);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    auto add = [&](ReportColumn &c, const Run *r, std::optional<int> boot, const QString &file) {
        c.runs.push_back(r);
        c.boots.push_back(boot);
        c.metrics.push_back(m);
        c.files << file;
    };
    const QString cs = QStringLiteral("cs.log");
    ReportColumn a, b;
    a.label = QStringLiteral("A");
    b.label = QStringLiteral("B");
    for (const int boot : {0, 1, 2, 6}) {
        add(a, run.get(), boot, cs);
    }
    add(a, other.get(), std::nullopt, QStringLiteral("other.log"));
    add(a, run.get(), 8, cs);
    for (int boot = 1; boot < 60; boot += 2) {
        add(b, run.get(), boot, cs);
    }
    const Report rep({a, b}, MetricOptions{});
    const QStringList text = rep.text().split(QLatin1Char('\n'));
    QCOMPARE(text.value(0), QStringLiteral("A: cs.log (boots 1–3, 7), other.log, cs.log (boot 9)"));
    QCOMPARE(
        text.value(1),
        QStringLiteral("B: cs.log (boots 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, …, 60: 30 boots)"));
    const QStringList markdown = rep.markdown()
                                     .split(QLatin1Char('\n'))
                                     .filter(QRegularExpression(QStringLiteral("^- [AB]: ")));
    QCOMPARE(markdown,
             (QStringList{QStringLiteral("- A: cs.log (boots 1–3, 7), other.log, cs.log (boot 9)"),
                          QStringLiteral("- B: cs.log (boots 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, "
                                         "…, 60: 30 boots)")}));
    const QJsonObject j = rep.json();
    QCOMPARE(j.value(QLatin1String("runs")).toArray().size(), 36);
    QCOMPARE(j.value(QLatin1String("runs"))
                 .toArray()[35]
                 .toObject()
                 .value(QLatin1String("boot"))
                 .toInt(),
             60);
    const QJsonArray sources = j.value(QLatin1String("groups"))
                                   .toArray()[1]
                                   .toObject()
                                   .value(QLatin1String("sources"))
                                   .toArray();
    QCOMPARE(sources.size(), 30);
    QCOMPARE(sources[29].toString(), QStringLiteral("cs.log (boot 60)"));

    // Names are never parsed back: a file whose name reads like a boot is one file, and
    // two files of the same name from different runs are two items.
    ReportColumn odd;
    odd.label = QStringLiteral("C");
    const QString tricky = QStringLiteral("cs.log (boot 2)");
    add(odd, run.get(), 0, tricky);
    add(odd, run.get(), 1, tricky);
    add(odd, other.get(), 2, tricky);
    add(odd, run.get(), std::nullopt, tricky);
    QCOMPARE(odd.source(0), QStringLiteral("cs.log (boot 2) (boot 1)"));
    QCOMPARE(odd.source(3), tricky);
    // A name with what QString::arg reads as a place marker is kept as it is.
    QCOMPARE(trialSourceName(QStringLiteral("a%2%1.log"), 0), QStringLiteral("a%2%1.log (boot 1)"));
    QCOMPARE(
        odd.sourcesSummary(),
        QStringLiteral("cs.log (boot 2) (boots 1, 2), cs.log (boot 2) (boot 3), cs.log (boot 2)"));

    // A column of many files is cut like a long list of boots: 20 files, one line.
    ReportColumn many;
    many.label = QStringLiteral("D");
    for (int k = 1; k <= 20; ++k) {
        add(many, other.get(), std::nullopt, QStringLiteral("t%1.log").arg(k));
    }
    QCOMPARE(many.sourcesSummary(),
             QStringLiteral("t1.log, t2.log, t3.log, t4.log, t5.log, t6.log, t7.log, t8.log, "
                            "t9.log, t10.log, …, t20.log: 20 trials"));
    add(many, other.get(), std::nullopt, QStringLiteral("t%1%2.log"));
    QCOMPARE(many.sourcesSummary(),
             QStringLiteral("t1.log, t2.log, t3.log, t4.log, t5.log, t6.log, t7.log, t8.log, "
                            "t9.log, t10.log, …, t%1%2.log: 21 trials"));
}

// A label or file name holding what QString::arg reads as a place marker ("%1") is printed
// as it is: chained arg() calls put the trial count into the label ("x2-t*.log (n=%2)").
void TstReport::placeMarkersInNamesStay()
{
    const auto run = loadBytes(syntheticLog(0));
    QVERIFY(run);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    ReportColumn c;
    c.label = QStringLiteral("x%1-t*.log");
    for (int k = 1; k <= 2; ++k) {
        c.runs.push_back(run.get());
        c.boots.push_back(std::nullopt);
        c.metrics.push_back(m);
        c.files << QStringLiteral("x%1-t") + QString::number(k) + QStringLiteral(".log");
    }
    const Report rep({c}, MetricOptions{});
    const QStringList text = rep.text().split(QLatin1Char('\n'));
    QCOMPARE(text.value(0), QStringLiteral("x%1-t*.log: x%1-t1.log, x%1-t2.log"));
    QVERIFY2(text.value(2).endsWith(QStringLiteral(" x%1-t*.log (n=2)")),
             qPrintable(text.value(2)));
    const QStringList md = rep.markdown().split(QLatin1Char('\n'));
    QVERIFY(md.contains(QStringLiteral("| metric | x%1-t*.log (n=2) |")));
}

void TstReport::countsHaveNoDirection()
{
    const auto run = loadBytes(syntheticLog(0));
    QVERIFY(run);
    // Lines printed differ by +500 with sd 10: significant, but in the first 30 s of a
    // boot more lines is not better, and nor is any count of lines, bytes or events.
    const auto make = [&](const MetricOptions &o) {
        return Report({trials(*run, QStringLiteral("A"), {9000, 9010, 9020}, {0, 0, 0}),
                       trials(*run, QStringLiteral("B"), {9500, 9510, 9520}, {0, 0, 0})},
                      o);
    };
    const Report boot = make(MetricOptions{});
    for (const ReportRow &r : boot.rows()) {
        if (r.key == QLatin1String("window.lines")) {
            QCOMPARE(boot.better(r), 0);
            QCOMPARE(boot.diffCell(r), QStringLiteral("+500.0 (+5.5%) [+477.3, +522.7]"));
            QVERIFY(boot.json()
                        .value(QLatin1String("diff"))
                        .toObject()
                        .value(QLatin1String("window.lines"))
                        .toObject()
                        .value(QLatin1String("better"))
                        .isNull());
            QVERIFY(!boot.markdown().contains(QLatin1String("**9010")));
        }
        if (r.key == QLatin1String("lines") || r.key == QLatin1String("bytes") ||
            r.key.startsWith(QLatin1String("events."))) {
            QCOMPARE(int(r.better), int(ReportRow::Better::None));
        }
    }
    // A window opened by the test's own start line measures throughput: more is better.
    MetricOptions flood;
    flood.windowStart = QStringLiteral("harness: insmod");
    const Report tp = make(flood);
    for (const ReportRow &r : tp.rows()) {
        if (r.key == QLatin1String("window.lines")) {
            QCOMPARE(tp.better(r), 1);
            QVERIFY(tp.diffCell(r).endsWith(QLatin1String("  B better")));
        }
    }
}

void TstReport::groupsBetterOnlyWhenSignificant()
{
    const auto run = loadBytes(syntheticLog(0));
    QVERIFY(run);
    // Lines printed differ by +0.2 % with sd 200 (noise); drops by 10 with sd 2 (real).
    const Report rep({trials(*run, QStringLiteral("A"), {9000, 9200, 9400}, {10, 12, 14}),
                      trials(*run, QStringLiteral("B"), {9020, 9220, 9420}, {20, 22, 24})},
                     MetricOptions{});
    const ReportRow *printed = nullptr, *dropped = nullptr;
    for (const ReportRow &r : rep.rows()) {
        printed = r.key == QLatin1String("window.lines") ? &r : printed;
        dropped = r.key == QLatin1String("drops.messages") ? &r : dropped;
    }
    QVERIFY(printed && dropped);
    QCOMPARE(rep.better(*printed), 0);
    QCOMPARE(rep.diffCell(*printed), QStringLiteral("+20.0 (+0.2%) [-433.4, +473.4]  n.s."));
    QCOMPARE(rep.better(*dropped), -1); // fewer dropped in A
    QCOMPARE(rep.diffCell(*dropped), QStringLiteral("+10.0 (+83.3%) [+5.5, +14.5]  A better"));
    const QJsonObject diff = rep.json().value(QLatin1String("diff")).toObject();
    const QJsonObject dd = diff.value(QLatin1String("drops.messages")).toObject();
    QCOMPARE(dd.value(QLatin1String("better")).toString(), QStringLiteral("A"));
    QVERIFY(std::fabs(dd.value(QLatin1String("p")).toDouble() - 0.0036022326) < 1e-9);
    const QJsonArray ci = dd.value(QLatin1String("ci95")).toArray();
    QCOMPARE(ci.size(), 2);
    QVERIFY(std::fabs(ci[0].toDouble() - 5.466084) < 1e-6);
    const QJsonObject pd = diff.value(QLatin1String("window.lines")).toObject();
    QVERIFY(pd.value(QLatin1String("better")).isNull());
    QCOMPARE(pd.value(QLatin1String("significant")).toBool(true), false);
    QVERIFY(!pd.contains(QLatin1String("untested")));
    QVERIFY(rep.text().contains(QLatin1String("Welch's t test")));
    // Only the two figures that vary between trials are tested (the rest are equal in
    // every trial: no noise, no test); one of the two differs at 95 %.
    QCOMPARE(rep.diffTally().tested, 2);
    QCOMPARE(rep.diffTally().significant, 1);
    QCOMPARE(rep.text().trimmed().split(QLatin1Char('\n')).back(),
             QStringLiteral("1 of the 2 differences tested are significant at 95 %; between "
                            "two identical kernels about one in twenty would be by chance (0.1 "
                            "here), so one alone is weak evidence."));
    // In Markdown each note is a paragraph of its own (lines that follow one another
    // would be one).
    QVERIFY2(rep.markdown().endsWith(
                 QStringLiteral("it is not) and the metric has a direction.\n\n1 of the 2 "
                                "differences tested are significant at 95 %; between two "
                                "identical kernels about one in twenty would be by chance "
                                "(0.1 here), so one alone is weak evidence.\n")),
             qPrintable(rep.markdown().right(300)));
    QCOMPARE(rep.json().value(QLatin1String("diff_tested")).toObject(),
             (QJsonObject{{QStringLiteral("tested"), 2},
                          {QStringLiteral("significant"), 1},
                          {QStringLiteral("expected_by_chance"), 0.1}}));

    // One trial against three: no test, and the text and JSON say why.
    const Report one({trials(*run, QStringLiteral("A"), {9000}, {10}),
                      trials(*run, QStringLiteral("B"), {9020, 9220, 9420}, {20, 22, 24})},
                     MetricOptions{});
    for (const ReportRow &r : one.rows()) {
        dropped = r.key == QLatin1String("drops.messages") ? &r : dropped;
    }
    QCOMPARE(one.diffCell(*dropped), QStringLiteral("+12.0 (+120.0%)"));
    QCOMPARE(one.better(*dropped), 0);
    const QStringList notes = one.text().trimmed().split(QLatin1Char('\n'));
    QCOMPARE(notes.back(), QStringLiteral("A has one trial: no measure of its noise, so B − A has "
                                          "no interval and no side is called better (run two "
                                          "trials or more on each side)."));
    const QJsonObject od = one.json()
                               .value(QLatin1String("diff"))
                               .toObject()
                               .value(QLatin1String("drops.messages"))
                               .toObject();
    QVERIFY(od.value(QLatin1String("ci95")).isNull());
    QCOMPARE(od.value(QLatin1String("untested")).toString(),
             QStringLiteral("A has 1 value(s); a test needs two or more on each side"));
}

void TstReport::eventsInJson()
{
    const auto run = loadBytes(syntheticLog(0));
    QVERIFY(run);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    auto kindsOf = [&](EventOutput eo, double *omitted) {
        const QJsonObject j = runToJson(*run, m, MetricOptions{}, eo);
        *omitted = j.value(QLatin1String("events_omitted")).toDouble(-1);
        QStringList kinds;
        for (const QJsonValue &v : j.value(QLatin1String("events")).toArray()) {
            kinds << v.toObject().value(QLatin1String("kind")).toString();
        }
        return kinds.join(QLatin1Char(' '));
    };
    double omitted = 0;
    QCOMPARE(kindsOf({}, &omitted), QStringLiteral("boot drop panic call_trace panic_end"));
    QCOMPARE(omitted, 0.0);
    QCOMPARE(kindsOf({EventOutput::Which::Crash, std::nullopt}, &omitted), QStringLiteral("panic"));
    QCOMPARE(omitted, 4.0);
    QCOMPARE(kindsOf({EventOutput::Which::None, std::nullopt}, &omitted), QString());
    QCOMPARE(omitted, 5.0);
    // The crash list follows: one panic here, listed unless none are asked for.
    QCOMPARE(runToJson(*run, m, MetricOptions{}, {})[QLatin1String("crashes")].toArray().size(), 1);
    const QJsonObject none =
        runToJson(*run, m, MetricOptions{}, {EventOutput::Which::None, std::nullopt});
    QCOMPARE(none[QLatin1String("crashes")].toArray().size(), 0);
    QCOMPARE(none[QLatin1String("crashes_omitted")].toInt(), 1);
    QCOMPARE(kindsOf({EventOutput::Which::All, 2}, &omitted), QStringLiteral("boot drop"));
    QCOMPARE(omitted, 3.0);
}

// A cell none of whose trials has its figure says why, as the host-time cells already did:
// a panic capture printed "boot to 'login:' … n/a" beside "n/a (no host times)" of a raw
// log, with nothing to tell a missing prompt from a missing clock.
void TstReport::absentFiguresSayWhy()
{
    const auto panic = loadBytes(zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/panic_noroot-smp2-115200-t1.hostts.log.zst")));
    const auto quiet = loadBytes(zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-quiet-smp2-115200-t1.hostts.log.zst")));
    // User space alone (a console after the kernel's messages went quiet): no kernel time.
    const auto userOnly =
        loadBytes("1700000000.000000\tStarting ssh.service\n1700000001.000000\tcorpusvm login: \n");
    QVERIFY(panic && quiet && userOnly);
    MetricOptions o;
    o.spans.append({QStringLiteral("harness: rmmod"), QStringLiteral("all workers stopped")});
    o.intervals << QStringLiteral("harness: init start");
    auto column = [&](const QString &label, std::vector<const Run *> runs) {
        ReportColumn c;
        c.label = label;
        for (const Run *r : runs) {
            c.runs.push_back(r);
            c.boots.push_back(std::nullopt);
            c.metrics.push_back(computeMetrics(*r, o));
            c.files << label;
        }
        return c;
    };
    const Report rep({column(QStringLiteral("panic"), {panic.get(), panic.get()}),
                      column(QStringLiteral("quiet"), {quiet.get()}),
                      column(QStringLiteral("user"), {userOnly.get()}),
                      column(QStringLiteral("mixed"), {quiet.get(), panic.get()})},
                     o);
    auto cellsOf = [](const Report &report, const char *key) {
        QStringList out;
        for (const ReportRow &r : report.rows()) {
            if (r.key == QLatin1String(key)) {
                for (std::size_t c = 0; c < report.columns().size(); ++c) {
                    out << report.cell(r, c);
                }
            }
        }
        return out;
    };
    auto cells = [&](const char *key) { return cellsOf(rep, key); };
    const QString noLogin = QStringLiteral("n/a (no 'login:')");
    QCOMPARE(cells("boot_time_s"),
             (QStringList{noLogin, QStringLiteral("5.271"), QStringLiteral("1.000"),
                          QStringLiteral("5.271 (n=1)")}));
    QCOMPARE(cells("boot_time_kernel_s"),
             (QStringList{noLogin, QStringLiteral("1.988"), QStringLiteral("n/a (no kernel times)"),
                          QStringLiteral("1.988 (n=1)")}));
    QCOMPARE(cells("boot_wire_share"),
             (QStringList{noLogin, QStringLiteral("0.008"), QStringLiteral("0.003"),
                          QStringLiteral("0.008 (n=1)")}));
    QCOMPARE(cells("panic.trace_complete"),
             (QStringList{QStringLiteral("2/2"), QStringLiteral("n/a (no panic)"),
                          QStringLiteral("n/a (no panic)"), QStringLiteral("1/1")}));
    QCOMPARE(cells("kernel_duration_s"),
             (QStringList{QStringLiteral("3.500 ± 0.000 (n=2)"), QStringLiteral("2.068"),
                          QStringLiteral("n/a (no kernel times)"),
                          QStringLiteral("2.784 ± 1.012 (n=2)")}));
    QCOMPARE(cells("lag.max_s"),
             (QStringList{QStringLiteral("0.646 ± 0.000 (n=2)"), QStringLiteral("0.000"),
                          QStringLiteral("n/a (no kernel times)"),
                          QStringLiteral("0.323 ± 0.457 (n=2)")}));
    const QString noRmmod = QStringLiteral("n/a (no 'harness: rmmod')");
    QCOMPARE(cells("spans.0.seconds"), (QStringList{noRmmod, noRmmod, noRmmod, noRmmod}));
    QCOMPARE(cells("intervals.0.mean_s"),
             (QStringList(4, QStringLiteral("n/a (fewer than 2 matches)"))));
    // The JSON says why beside its nulls: runs are panic, panic, quiet, user, quiet, panic.
    const QJsonArray runs = rep.json().value(QLatin1String("runs")).toArray();
    QCOMPARE(runs.size(), 6);
    auto note = [&](int run, const char *object, const char *key) {
        const QJsonObject r = runs[run].toObject();
        return (*object ? r.value(QLatin1String(object)).toObject() : r)
            .value(QLatin1String(key))
            .toString();
    };
    QCOMPARE(note(0, "", "boot_time_note"),
             QStringLiteral("no line matches the boot pattern 'login:'"));
    QCOMPARE(note(2, "", "boot_time_note"), QString());
    QCOMPARE(note(3, "lag", "note"), QStringLiteral("no line has a kernel time"));
    QCOMPARE(note(2, "lag", "note"), QString());
    // Its two lines came in the window's first second, and no kernel said it stopped.
    QCOMPARE(note(3, "window", "note"),
             QStringLiteral("no line has a kernel time: lines produced in the window are "
                            "unknown; the log ends inside the window without the kernel saying "
                            "it stopped (seen: 1.000 s by arrival): its counts are lower bounds"));
    QVERIFY(runs[3].toObject()["window"].toObject()["produced"].isNull());
    QCOMPARE(cells("window.produced"),
             (QStringList{QStringLiteral("362.0 ± 0.0 (n=2)"), QStringLiteral("4"),
                          QStringLiteral("n/a (no kernel times)"),
                          QStringLiteral("183.0 ± 253.1 (n=2)")}));
    // The gate names the same reason for each trial, also where its column has none to
    // give as a whole (the mixed column: one trial reached its prompt).
    std::vector<GateCondition> conditions;
    QString error;
    QVERIFY(parseGateConditions({QStringLiteral("boot_time_s>30")}, &conditions, &error));
    std::vector<GateCheck> checks;
    QVERIFY(checkGate(rep, conditions, &checks, &error));
    QStringList details;
    for (const GateCheck &c : checks) {
        details << c.detail;
    }
    QCOMPARE(details, (QStringList{QStringLiteral("boot_time_s is n/a (no 'login:')"),
                                   QStringLiteral("boot_time_s is n/a (no 'login:')"),
                                   QStringLiteral("boot_time_s = 5.271"),
                                   QStringLiteral("boot_time_s = 1.000"),
                                   QStringLiteral("boot_time_s = 5.271"),
                                   QStringLiteral("boot_time_s is n/a (no 'login:')")}));

    // Trials absent for different reasons: each reason once, in trial order (the cell read
    // a bare "n/a"). The raw capture has no host times; the gate names that too.
    const auto panicRaw = loadBytes(
        zstdDecompressFile(QStringLiteral(TTYSCOPE_SAMPLES "/panic_noroot-smp2-115200-t1.raw.zst")),
        withFormat(QStringLiteral("raw")));
    QVERIFY(panicRaw);
    const Report differ({column(QStringLiteral("raw+panic"), {panicRaw.get(), panic.get()}),
                         column(QStringLiteral("user+panic"), {userOnly.get(), panic.get()})},
                        o);
    auto differCells = [&](const char *key) { return cellsOf(differ, key); };
    QCOMPARE(differCells("boot_time_s"),
             (QStringList{QStringLiteral("n/a (no host times; no 'login:')"),
                          QStringLiteral("1.000 (n=1)")}));
    QCOMPARE(differCells("boot_time_kernel_s"),
             (QStringList{QStringLiteral("n/a (no host times; no 'login:')"),
                          QStringLiteral("n/a (no kernel times; no 'login:')")}));
    QCOMPARE(differCells("spans.0.seconds"),
             (QStringList{QStringLiteral("n/a (no host times; no 'harness: rmmod')"), noRmmod}));
    std::vector<GateCheck> differChecks;
    QVERIFY(checkGate(differ, conditions, &differChecks, &error));
    QCOMPARE(differChecks.front().detail, QStringLiteral("boot_time_s is n/a (no host times)"));
}

// A '|' in a pattern, a label or the kernel's own text (a panic reason) ended its Markdown
// cell: the row got a column more than the header, and the table broke in review threads.
void TstReport::markdownKeepsItsColumns()
{
    const auto run = loadBytes("1700000000.000000\t[    0.000000] Linux version 6.1.0 (x)\n"
                               "1700000001.000000\t[    1.000000] Kernel panic - not syncing: "
                               "a|b\n");
    QVERIFY(run);
    MetricOptions o;
    o.spans.append({QStringLiteral("harness: (rmmod|x)"), QStringLiteral("done|y")});
    ReportColumn c;
    c.label = QStringLiteral("v6.1|patched");
    c.runs = {run.get()};
    c.boots = {std::nullopt};
    c.metrics = {computeMetrics(*run, o)};
    c.files = {QStringLiteral("p.log")};
    const Report rep({c}, o);
    // Cells split on the '|' that no backslash escapes.
    static const QRegularExpression unescaped(QStringLiteral("(?<!\\\\)\\|"));
    int tables = 0, rows = 0;
    qsizetype columns = -1;
    for (const QString &line : rep.markdown().split(QLatin1Char('\n'))) {
        if (!line.startsWith(QLatin1Char('|'))) {
            columns = -1;
            continue;
        }
        const qsizetype n = line.count(unescaped);
        if (columns < 0) {
            columns = n;
            ++tables;
        }
        QCOMPARE(n, columns);
        ++rows;
    }
    QCOMPARE(tables, 2); // the metrics and the crashes
    QVERIFY(rep.markdown().contains(
        QStringLiteral("| span 'harness: (rmmod\\|x)' → 'done\\|y' (s) | n/a (no 'harness: "
                       "(rmmod\\|x)') |")));
    QVERIFY(rep.markdown().contains(QStringLiteral("| metric | v6.1\\|patched |")));
    QVERIFY(rep.markdown().contains(QStringLiteral("| kernel panic: a\\|b | panic | 1 |")));
    QVERIFY(rows > 20);
}

// The JSON's numbers are pasted into review threads: the shortest form of the double
// nearest the figure, without the arithmetic's noise (a nanosecond count times 1e-9 gave
// 1796014801.3647501, 9.199955000000001 and 40.000099999999996 before).
void TstReport::jsonNumbersAsPasted()
{
    const QJsonArray a{jsonSeconds(HostNs(1796014801364750000)),
                       jsonSeconds(KernelUs(40000100)),
                       jsonSeconds(KernelUs(-1500000)),
                       jsonNumber(double(9199955000) * 1e-9),
                       jsonNumber(380837 * 10 / 115200.0),
                       jsonNumber(std::optional<double>()),
                       jsonNumber(std::nan("")),
                       jsonNumber(11365.0)};
    QCOMPARE(
        QJsonDocument(a).toJson(QJsonDocument::Compact),
        QByteArray("[1796014801.36475,40.0001,-1.5,9.199955,33.0587673611111,null,null,11365]"));
}

// Garbage digits in a drop notice (no console drops 2^32 messages between two lines, and
// the last one does not fit 64 bits): the notices are counted, the messages dropped and
// the lines produced in the window are unknown, and say which line made them so. The
// largest count that fits stays a count.
void TstReport::dropCountOutOfRange()
{
    const QByteArray log("[    1.000000] a\n"
                         "** 4294967294 printk messages dropped **\n"
                         "[    2.000000] b\n"
                         "** 4294967295 printk messages dropped **\n"
                         "[    3.000000] c\n"
                         "** 99999999999999999999999 printk messages dropped **\n"
                         "[    4.000000] d\n");
    const auto run = loadBytes(log);
    QVERIFY(run);
    QCOMPARE(run->events.size(), std::size_t(3));
    QCOMPARE(run->events[0].count, 4294967294u);
    QCOMPARE(run->events[1].count, kCountOutOfRange);
    QCOMPARE(run->events[2].count, kCountOutOfRange);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.dropNotices, qint64(3));
    QCOMPARE(m.dropCountOutOfRange, std::optional<LineIndex>(LineIndex(3)));
    QCOMPARE(m.window.dropCountOutOfRange, std::optional<LineIndex>(LineIndex(3)));
    const Report rep({oneRunColumn(*run, m)}, MetricOptions{});
    QStringList cells;
    for (const ReportRow &r : rep.rows()) {
        if (r.key == QLatin1String("drops.messages") || r.key == QLatin1String("window.produced")) {
            cells << rep.cell(r, 0);
        }
    }
    const QString why = QStringLiteral("n/a (a drop notice's count is out of range (line 4))");
    QCOMPARE(cells, (QStringList{why, why}));
    const QJsonObject j = rep.json()[QLatin1String("runs")][0].toObject();
    QCOMPARE(j[QLatin1String("drops")].toObject(),
             (QJsonObject{{QStringLiteral("notices"), 3},
                          {QStringLiteral("messages"), QJsonValue()},
                          {QStringLiteral("count_out_of_range_line"), 4}}));
    QCOMPARE(j[QLatin1String("window")][QLatin1String("produced")], QJsonValue());
}

// A header line in front of a timestamped capture (a script's banner, a file joined to
// another) had its arrival made 0, 1970: the duration read 1796014822.130 s, the boot
// time from the first byte 1796014820.085 s and the lines printed in the first 30 s 1.
// When it came is not known: every figure counted from it is n/a, with the reason; those
// from the kernel's clock are the capture's own.
void TstReport::firstLineWithoutStamp_data()
{
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("warning");
    QTest::newRow("hostts") << QStringLiteral("hostts.log.zst")
                            << QStringLiteral("the first 1 line(s) had no host timestamp: when "
                                              "they came is not known");
    QTest::newRow("grabserial") << QStringLiteral("grabserial.log.zst")
                                << QStringLiteral("the first 1 line(s) had no grabserial "
                                                  "timestamp: when they came is not known");
    // tio --timestamp: the hostts capture's stamps as "[HH:MM:SS.mmm] ".
    QTest::newRow("tio") << QStringLiteral("tio")
                         << QStringLiteral("the first 1 line(s) with text had no tio timestamp: "
                                           "when they came is not known");
}

void TstReport::firstLineWithoutStamp()
{
    QFETCH(QString, sample);
    QFETCH(QString, warning);
    QByteArray capture = zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-quiet-smp2-115200-t1.") +
        (sample == QLatin1String("tio") ? QStringLiteral("hostts.log.zst") : sample));
    if (sample == QLatin1String("tio")) {
        QByteArray tio;
        for (const QByteArray &line : capture.split('\n')) {
            const qsizetype tab = line.indexOf('\t');
            if (tab > 0) {
                const qint64 ms = qRound64(line.left(tab).toDouble() * 1e3);
                tio += "[" +
                       QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC)
                           .toString(QStringLiteral("HH:mm:ss.zzz"))
                           .toLatin1() +
                       "] " + line.mid(tab + 1) + "\n";
            }
        }
        capture = tio;
    }
    const auto plain = loadBytes(capture);
    const auto run = loadBytes("capture of ttyS0 started\n" + capture);
    QVERIFY(plain && run);
    QCOMPARE(run->meta.format, plain->meta.format);
    QCOMPARE(run->warnings, QStringList{warning});
    QCOMPARE(run->lines.arrival(LineIndex(0)), std::nullopt);
    QCOMPARE(run->lines.arrival(LineIndex(1)), plain->lines.arrival(LineIndex(0)));

    const Metrics m = computeMetrics(*run, MetricOptions{});
    const Metrics p = computeMetrics(*plain, MetricOptions{});
    QCOMPARE(m.duration, std::nullopt);
    QCOMPARE(m.startUntimed, QStringLiteral("line 1 has no host time"));
    QVERIFY(!m.window.printedKnown);
    QVERIFY(!m.window.producedKnown);
    QCOMPARE(m.bootTimeFirstByte, std::nullopt);
    QCOMPARE(m.bootStartNote, QStringLiteral("the boot's first line (line 1) has no host time"));
    // The kernel's clock does not need the header's arrival.
    QCOMPARE(m.bootTimeKernel, p.bootTimeKernel);
    QCOMPARE(m.lagMax, p.lagMax);
    QCOMPARE(m.kernelDuration, p.kernelDuration);

    const Report rep({oneRunColumn(*run, m)}, MetricOptions{});
    QStringList cells;
    for (const ReportRow &r : rep.rows()) {
        if (r.key == QLatin1String("duration_s") || r.key.startsWith(QLatin1String("window.")) ||
            r.key == QLatin1String("boot_time_s")) {
            cells << r.key + QLatin1Char(' ') + rep.cell(r, 0);
        }
    }
    QCOMPARE(cells,
             (QStringList{QStringLiteral("duration_s n/a (line 1 has no host time)"),
                          QStringLiteral("window.lines n/a (starts at line 1, which has no "
                                         "host time)"),
                          QStringLiteral("window.produced n/a (starts at line 1, which has no "
                                         "kernel time and no host time)"),
                          QStringLiteral("window.wire_s n/a (starts at line 1, which has no "
                                         "host time)"),
                          QStringLiteral("boot_time_s n/a (start has no host time)")}));
    const QJsonObject j = rep.json()[QLatin1String("runs")][0].toObject();
    QCOMPARE(j[QLatin1String("duration_note")].toString(), m.startUntimed);
    QCOMPARE(j[QLatin1String("boot_time_note")].toString(), m.bootStartNote);
    QCOMPARE(j[QLatin1String("window")][QLatin1String("note")].toString(),
             QStringLiteral("the window starts at line 1, which has no host time: lines printed "
                            "in the window are unknown; the window starts at line 1, which has "
                            "no kernel time and no host time: lines produced in the window are "
                            "unknown"));
}

// A raw log of two boots lays them end to end on the timeline, 1 s apart: an --interval by
// kernel time across the two read 6.9361 s between the boots' 'login:' prompts, a time no
// clock measured (the kernel's starts again at each boot). Intervals by kernel time stay in
// their boot; those by arrival need host times, and say so.
void TstReport::kernelIntervalsStayInTheirBoot()
{
    const QByteArray boot = zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-default-smp2-115200-t1.raw.zst"));
    const auto one = loadBytes(boot);
    const auto two = loadBytes(boot + boot);
    QVERIFY(one && two);
    QCOMPARE(two->boots.size(), std::size_t(2));
    MetricOptions o;
    o.intervals = {QStringLiteral("login:"), QStringLiteral("Freeing unused")};
    const Metrics m1 = computeMetrics(*one, o), m2 = computeMetrics(*two, o);
    // One prompt a boot: no two in one boot.
    QCOMPARE(m2.intervals[0].matches, qint64(2));
    QCOMPARE(m2.intervals[0].kernelP50, std::nullopt);
    QCOMPARE(m2.intervals[0].kernelMean, std::nullopt);
    // Four "Freeing unused" lines a boot, 3.471000 to 3.578643: the same three intervals in
    // each boot, and none between the boots.
    QCOMPARE(m2.intervals[1].matches, qint64(8));
    QCOMPARE(qRound64(*m2.intervals[1].kernelMean * 1e6),
             qRound64(*m1.intervals[1].kernelMean * 1e6));
    QCOMPARE(qRound64(*m2.intervals[1].kernelMean * 1e6), qRound64((3.578643 - 3.471) / 3 * 1e6));
    QCOMPARE(qRound64(*m2.intervals[1].kernelP99 * 1e6),
             qRound64(*m1.intervals[1].kernelP99 * 1e6));

    const Report rep({oneRunColumn(*two, m2)}, o);
    QStringList cells;
    for (const ReportRow &r : rep.rows()) {
        if (r.key.startsWith(QLatin1String("intervals.0."))) {
            cells << r.key + QLatin1Char(' ') + rep.cell(r, 0);
        }
    }
    QCOMPARE(cells, (QStringList{
                        QStringLiteral("intervals.0.matches 2"),
                        QStringLiteral("intervals.0.mean_s n/a (no host times)"),
                        QStringLiteral("intervals.0.p50_s n/a (no host times)"),
                        QStringLiteral("intervals.0.p99_s n/a (no host times)"),
                        QStringLiteral("intervals.0.kernel_p50_s n/a (no two stamped in one boot)"),
                        QStringLiteral("intervals.0.kernel_p99_s n/a (no two stamped in one boot)"),
                    }));
}

// `--format hostts` on a log none of whose lines has a stamp: no arrival is known, so the
// run is read as raw text is (placed by kernel time), not as arrivals none of which exists:
// the window drew printed and wire lanes of zeros and a source lane in % of the UART.
void TstReport::stampedFormatWithoutStamps()
{
    QByteArray text;
    for (const QByteArray &line :
         zstdDecompressFile(
             QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-quiet-smp2-115200-t1.hostts.log.zst"))
             .split('\n')) {
        text += line.mid(line.indexOf('\t') + 1) + '\n';
    }
    text.chop(1);
    const auto run = loadBytes(text, withFormat(QStringLiteral("hostts")));
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::HostTs);
    QVERIFY(!run->hasArrival);
    QCOMPARE(run->warnings,
             (QStringList{QStringLiteral("the first 16 line(s) had no host timestamp: when they "
                                         "came is not known"),
                          QStringLiteral("no line had a host time: the log is read without "
                                         "arrival times")}));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.lines, qint64(16));
    QCOMPARE(m.duration, std::nullopt);
    QCOMPARE(m.lagMax, std::nullopt);
    QCOMPARE(qRound64(*m.kernelDuration * 1e3), 2068);
    const Report rep({oneRunColumn(*run, m)}, MetricOptions{});
    for (const ReportRow &r : rep.rows()) {
        if (r.key == QLatin1String("duration_s") || r.key == QLatin1String("lag.max_s")) {
            QCOMPARE(rep.cell(r, 0), QStringLiteral("n/a (no host times)"));
        }
    }
}

// A trial whose file was cut (a copy that stopped, a disk that filled): its lines, bytes
// and drops are of what was read. The warning went to stderr only; a text or Markdown
// report pasted into a review thread showed a group's mean with it in and nothing said.
void TstReport::trialReadInPartIsSaid()
{
    QTemporaryDir dir;
    const QString whole =
        QStringLiteral(TTYSCOPE_SAMPLES "/spam_rmmod-A_default-smp4-115200-t1.hostts.log.zst");
    QFile in(
        QStringLiteral(TTYSCOPE_SAMPLES "/spam_rmmod-A_default-smp4-115200-t2.hostts.log.zst"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QString cut = dir.filePath(QStringLiteral("t2-cut.hostts.log.zst"));
    QFile out(cut);
    QVERIFY(out.open(QIODevice::WriteOnly) && out.write(in.read(60000)) == 60000);
    out.close();
    QString error;
    const std::unique_ptr<Run> a = loadRun(whole, LoadOptions{}, &error);
    const std::unique_ptr<Run> b = loadRun(cut, LoadOptions{}, &error);
    QVERIFY2(a && b, qPrintable(error));
    QVERIFY(!a->load.readInPart());
    QVERIFY(b->load.readInPart());
    QCOMPARE(b->lines.size(), 6697_lines);
    ReportColumn c;
    c.label = QStringLiteral("6.1");
    for (const Run *run : {a.get(), b.get()}) {
        c.runs.push_back(run);
        c.boots.push_back(std::nullopt);
        c.metrics.push_back(computeMetrics(*run, MetricOptions{}));
    }
    c.files = {QStringLiteral("t1.hostts.log.zst"), QStringLiteral("t2-cut.hostts.log.zst")};
    const Report rep({c}, MetricOptions{});
    const QString note = QStringLiteral(
        "t2-cut.hostts.log.zst was read only in part: the file ends inside a zstd frame "
        "(truncated at byte 60000): everything decoded before the cut was kept (6697 lines "
        "loaded). Its figures are of what was read, not of the whole run: its counts are at "
        "least (≥) what they show.");
    QCOMPARE(rep.footnotes().split(QLatin1Char('\n')).front(), note);
    QVERIFY2(rep.text().contains(QLatin1Char('\n') + note + QLatin1Char('\n')),
             qPrintable(rep.text().right(600)));
    QVERIFY(rep.markdown().contains(QStringLiteral("\n\n") + note + QStringLiteral("\n\n")));
    const QJsonArray runs = rep.json().value(QLatin1String("runs")).toArray();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs[0].toObject().value(QLatin1String("read_in_part")), QJsonValue(false));
    QCOMPARE(runs[1].toObject().value(QLatin1String("read_in_part")), QJsonValue(true));
    // A whole file says nothing of the kind.
    ReportColumn w = c;
    w.runs.pop_back();
    w.boots.pop_back();
    w.metrics.pop_back();
    w.files.pop_back();
    QVERIFY(!Report({w}, MetricOptions{}).footnotes().contains(QLatin1String("in part")));
}

void TstReport::noSpreadIsNoTest()
{
    // The default boot three times against the quiet one three times: every trial of a side
    // prints the same 371 (16) lines. The difference holds in every pair; no test was made,
    // so there is no p to give.
    const auto a = loadBytes(zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-default-smp2-115200-t1.hostts.log.zst")));
    const auto b = loadBytes(zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-quiet-smp2-115200-t1.hostts.log.zst")));
    QVERIFY(a && b);
    const auto column = [](const Run &run, const QString &label) {
        ReportColumn c;
        c.label = label;
        for (int k = 1; k <= 3; ++k) {
            c.runs.push_back(&run);
            c.boots.push_back(std::nullopt);
            c.metrics.push_back(computeMetrics(run, MetricOptions{}));
            c.files << label + QString::number(k);
        }
        return c;
    };
    const Report rep({column(*a, QStringLiteral("default")), column(*b, QStringLiteral("quiet"))},
                     MetricOptions{});
    const ReportRow *lines = nullptr;
    for (const ReportRow &r : rep.rows()) {
        lines = r.key == QLatin1String("lines") ? &r : lines;
    }
    QVERIFY(lines);
    QCOMPARE(rep.diffCell(*lines), QStringLiteral("-355.0 (-95.7%) [-355.0, -355.0]"));
    QCOMPARE(rep.diffTooltip(*lines),
             QStringLiteral("B − A = -355.0 in every pair of trials: each side gave the same "
                            "value in every trial, so there is no noise to test it against"));
    const QJsonObject d =
        rep.json().value(QLatin1String("diff")).toObject().value(QLatin1String("lines")).toObject();
    QVERIFY(d.value(QLatin1String("p")).isNull());
    QCOMPARE(d.value(QLatin1String("no_spread")).toString(),
             QStringLiteral("every trial of each side gave the same value"));
    QCOMPARE(d.value(QLatin1String("significant")), QJsonValue(true));
    QCOMPARE(d.value(QLatin1String("ci95")).toArray(), (QJsonArray{-355, -355}));
    // Nor is it counted among the differences tested.
    QCOMPARE(rep.diffTally().tested, 0);
}

QTEST_GUILESS_MAIN(TstReport)
#include "tst_report.moc"
