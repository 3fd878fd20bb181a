// util-linux dmesg outputs (--json, -x, -d, -T, --time-format iso|reltime|delta): the
// kernel's timestamp where dmesg printed it, no clock where it printed its own wall-clock
// estimate; the converter in tst_logconvert.h checked against the real dmesg program.
#include "tst_helpers.h"
#include "tst_logconvert.h"

#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

using namespace tty;
using namespace testutil;

namespace {

QString allWarnings(const Run &run)
{
    return run.warnings.join(QLatin1Char('\n'));
}

QList<KernelLine> sampleLines(const QString &sample)
{
    return kernelLinesOf(
        zstdDecompressFile(QStringLiteral(TTYSCOPE_SAMPLES "/%1.hostts.log.zst").arg(sample)));
}

// Kernel time 0 of the converted logs' wall-clock forms: 2026-11-30T05:00:00 UTC.
constexpr qint64 kBootNs = 1796014800LL * 1000000000;

} // namespace

class TstDmesg : public QObject
{
    Q_OBJECT
private slots:
    void shapes_data();
    void shapes();
    void sameFiguresAsTheOriginal_data();
    void sameFiguresAsTheOriginal();
    void wallClockFormsHaveNoClock_data();
    void wallClockFormsHaveNoClock();
    void converterIsWhatDmesgPrints_data();
    void converterIsWhatDmesgPrints();
    void untrusted();
};

void TstDmesg::shapes_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qint64>("kernelUs"); // -1: none
    QTest::addColumn<int>("level");
    QTest::newRow("-x") << QByteArray("kern  :warn  : [    1.234567] usb 1-1: x") << "dmesg-text"
                        << QByteArray("usb 1-1: x") << qint64(1234567) << 4;
    QTest::newRow("-x caller") << QByteArray("user  :crit  : [   12.000001] [  T123] harness: a")
                               << "dmesg-text" << QByteArray("[  T123] harness: a")
                               << qint64(12000001) << 2;
    QTest::newRow("-d") << QByteArray("[    1.234567 <    0.000100>] msg") << "dmesg-text"
                        << QByteArray("msg") << qint64(1234567) << -1;
    QTest::newRow("-T") << QByteArray("[Tue Dec  1 20:10:49 2026] msg") << "dmesg-text"
                        << QByteArray("msg") << qint64(-1) << -1;
    QTest::newRow("-x -T") << QByteArray("daemon:info  : [Tue Dec  1 20:10:49 2026] msg")
                           << "dmesg-text" << QByteArray("msg") << qint64(-1) << 6;
    QTest::newRow("ctime+delta") << QByteArray("[Tue Dec  1 20:10:49 2026 <    0.000100>] msg")
                                 << "dmesg-text" << QByteArray("msg") << qint64(-1) << -1;
    QTest::newRow("iso") << QByteArray("2026-12-01T20:10:50,234567+00:00 msg") << "dmesg-text"
                         << QByteArray("msg") << qint64(-1) << -1;
    QTest::newRow("reltime minute")
        << QByteArray("[Dec 1 20:10] msg") << "dmesg-text" << QByteArray("msg") << qint64(-1) << -1;
    QTest::newRow("reltime day 10")
        << QByteArray("[Dec10 20:10] msg") << "dmesg-text" << QByteArray("msg") << qint64(-1) << -1;
    QTest::newRow("reltime delta")
        << QByteArray("[  +0.000100] msg") << "dmesg-text" << QByteArray("msg") << qint64(-1) << -1;
    QTest::newRow("delta") << QByteArray("[<    0.000100>] msg") << "dmesg-text"
                           << QByteArray("msg") << qint64(-1) << -1;
    QTest::newRow("two formats (2.40)")
        << QByteArray("[    1.000000] 2026-12-01T20:10:50,234567+00:00 m") << "dmesg-text"
        << QByteArray("m") << qint64(1000000) << -1;
    // -r: the syslog priority, facility × 8 + level (a pstore dmesg-ramoops dump's too).
    QTest::newRow("-r") << QByteArray("<4>[    1.234567] usb 1-1: x") << "dmesg-text"
                        << QByteArray("usb 1-1: x") << qint64(1234567) << 4;
    QTest::newRow("-r user") << QByteArray("<10>[   12.000001] [  T123] harness: a") << "dmesg-text"
                             << QByteArray("[  T123] harness: a") << qint64(12000001) << 2;
    // A console printing the priority (console_msg_format=syslog) ends its lines in \r\n:
    // the console's text, raw, its prefix parsed as the console printed it.
    QTest::newRow("console_msg_format=syslog")
        << QByteArray("<6>[    1.234567] msg\r") << "raw" << QByteArray("<6>[    1.234567] msg")
        << qint64(1234567) << 6;
    // Past facility local7's priorities (191): not dmesg's, the console's text.
    QTest::newRow("not a priority")
        << QByteArray("<192>[    1.234567] msg") << "raw" << QByteArray("<192>[    1.234567] msg")
        << qint64(1234567) << 0;
    // Plain dmesg output is the console's text: raw, as before.
    QTest::newRow("plain") << QByteArray("[    1.234567] msg") << "raw"
                           << QByteArray("[    1.234567] msg") << qint64(1234567) << -1;
}

void TstDmesg::shapes()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, format);
    QFETCH(QByteArray, text);
    QFETCH(qint64, kernelUs);
    QFETCH(int, level);
    const auto run = loadBytes(line + '\n' + line + '\n');
    QVERIFY(run);
    QCOMPARE(formatName(run->meta.format), format);
    QCOMPARE(run->lines.size(), LineCount(2));
    QCOMPARE(lineText(*run, 0), text);
    QCOMPARE(run->lines.kernelTime(LineIndex(0)),
             kernelUs < 0 ? std::optional<KernelUs>() : std::optional(KernelUs(kernelUs)));
    QCOMPARE(run->lines.level(LineIndex(0)).value_or(-1), level);
    QVERIFY(!run->hasArrival);
}

void TstDmesg::sameFiguresAsTheOriginal_data()
{
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("form");
    for (const char *s : {"boot_login-default-smp2-115200-t1", "panic_noroot-smp2-115200-t1",
                          "spam_rmmod-k612rt-smp4-115200-t1"}) {
        for (const char *f : {"json", "json -x", "-x", "-d", "-x -d", "-r"}) {
            QTest::addRow("%s %s", s, f) << s << f;
        }
    }
}

// dmesg prints the kernel's timestamp and no arrivals: the figures of the raw console text
// of the same lines (which has the same single clock), exactly.
void TstDmesg::sameFiguresAsTheOriginal()
{
    QFETCH(QString, sample);
    QFETCH(QString, form);
    const QList<KernelLine> lines = sampleLines(sample);
    const bool x = form.contains(QLatin1String("-x"));
    QByteArray realRaw;
    if (form == QLatin1String("-r")) {
        // As the real dmesg prints it from the same messages.
        Files files;
        QProcess p;
        p.start(QStandardPaths::findExecutable(QStringLiteral("dmesg")),
                {QStringLiteral("-F"),
                 files.write(QStringLiteral("syslog.buf"), toSyslogBuffer(lines)),
                 QStringLiteral("-r")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        realRaw = p.readAllStandardOutput();
        QVERIFY(realRaw.startsWith("<6>["));
    }
    const QByteArray converted =
        !realRaw.isEmpty() ? realRaw
        : form.startsWith(QLatin1String("json"))
            ? toDmesgJson(lines, x)
            : toDmesgText(lines,
                          form.contains(QLatin1String("-d")) ? DmesgTime::TimeDelta
                                                             : DmesgTime::Time,
                          x, kBootNs);
    QString error;
    const auto a = loadBytes(consoleOf(lines), withFormat(QStringLiteral("raw")), &error);
    const auto b = loadBytes(zstdCompress(converted), LoadOptions{}, &error, "dmesg.zst");
    QVERIFY2(a && b, qPrintable(error));
    QCOMPARE(formatName(b->meta.format), form.startsWith(QLatin1String("json"))
                                             ? QStringLiteral("dmesg-json")
                                             : QStringLiteral("dmesg-text"));
    QVERIFY2(b->warnings.isEmpty(), qPrintable(allWarnings(*b)));
    QVERIFY(!b->hasArrival);
    QCOMPARE(b->lines.size(), a->lines.size());
    for (LineIndex i{0}; i < a->lines.endIndex(); ++i) {
        QCOMPARE(b->lines.kernelTime(i), a->lines.kernelTime(i));
        QCOMPARE(lineText(*b, i), lineText(*a, i).mid(15)); // without "[    1.234567] "
    }
    MetricOptions o;
    o.windowStart = QStringLiteral("harness: insmod");
    o.spans.append({QStringLiteral("harness: insmod"), QStringLiteral("harness: rmmod")});
    const Metrics ma = computeMetrics(*a, o), mb = computeMetrics(*b, o);
    QCOMPARE(mb.lines, ma.lines);
    QCOMPARE(mb.kernelLines, ma.kernelLines);
    QCOMPARE(mb.droppedMessages, ma.droppedMessages);
    QCOMPARE(mb.dropNotices, ma.dropNotices);
    QCOMPARE(mb.boots, ma.boots);
    QCOMPARE(mb.kernelDuration, ma.kernelDuration);
    QCOMPARE(mb.window.found, ma.window.found);
    QCOMPARE(mb.window.produced, ma.window.produced);
    QCOMPARE(mb.window.producedDropped, ma.window.producedDropped);
    QCOMPARE(mb.spans[0].kernelSeconds, ma.spans[0].kernelSeconds);
    QCOMPARE(mb.panic.detected, ma.panic.detected);
    QCOMPARE(mb.panic.complete, ma.panic.complete);
    for (int k = 0; k < kEventKindCount; ++k) {
        QCOMPARE(mb.eventCounts[std::size_t(k)], ma.eventCounts[std::size_t(k)]);
    }
    QVERIFY(!mb.duration && !mb.lagMax && !mb.bootTime);
    // The kernel's log, not the console's output: it holds the messages a console dropped
    // and none of its drop notices, so its drops, like its bytes and times, are n/a (they
    // read 0 drops). The raw console text of the same lines has them.
    QCOMPARE(rowsAbsentBecause(*b, QStringLiteral("a kernel log, not console output")),
             kConsoleOnlyRows);
    QCOMPARE(rowsAbsentBecause(*a, QStringLiteral("a kernel log, not console output")),
             QStringList());
}

void TstDmesg::wallClockFormsHaveNoClock_data()
{
    QTest::addColumn<int>("time");
    QTest::newRow("-T") << int(DmesgTime::Ctime);
    QTest::newRow("iso") << int(DmesgTime::Iso);
    QTest::newRow("reltime") << int(DmesgTime::Reltime);
    QTest::newRow("delta") << int(DmesgTime::Delta);
}

// -T, iso, reltime and delta stamps are dmesg's wall-clock estimate or differences: the
// lines keep every event and drop, and have neither clock.
void TstDmesg::wallClockFormsHaveNoClock()
{
    QFETCH(int, time);
    const QList<KernelLine> lines = sampleLines(QStringLiteral("panic_noroot-smp2-115200-t1"));
    const auto a = loadBytes(consoleOf(lines), withFormat(QStringLiteral("raw")));
    const auto b = loadBytes(toDmesgText(lines, DmesgTime(time), false, kBootNs));
    QVERIFY(a && b);
    QCOMPARE(b->meta.format, Format::DmesgText);
    QCOMPARE(b->lines.size(), a->lines.size());
    const Metrics ma = computeMetrics(*a, MetricOptions{}),
                  mb = computeMetrics(*b, MetricOptions{});
    QCOMPARE(mb.kernelLines, std::int64_t(0));
    QVERIFY(!mb.kernelDuration && !mb.duration);
    QCOMPARE(mb.panic.detected, ma.panic.detected);
    QCOMPARE(mb.panic.complete, ma.panic.complete);
    for (int k = 0; k < kEventKindCount; ++k) {
        QCOMPARE(mb.eventCounts[std::size_t(k)], ma.eventCounts[std::size_t(k)]);
    }
    QCOMPARE(allWarnings(*b),
             QStringLiteral("%1 line(s) had dmesg's wall-clock or relative stamps (-T, "
                            "--time-format ctime|iso|reltime|delta): dmesg made them from the "
                            "kernel's timestamp and its estimate of the boot time, so they are "
                            "neither arrival nor kernel times and were not used as either (plain "
                            "dmesg or -x keeps the kernel's timestamp)")
                 .arg(lines.size()));
}

void TstDmesg::converterIsWhatDmesgPrints_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("time");
    QTest::addColumn<bool>("decode");
    QTest::newRow("-x") << QStringList{QStringLiteral("-x")} << int(DmesgTime::Time) << true;
    QTest::newRow("-d") << QStringList{QStringLiteral("-d")} << int(DmesgTime::TimeDelta) << false;
    QTest::newRow("-x -d") << QStringList{QStringLiteral("-x"), QStringLiteral("-d")}
                           << int(DmesgTime::TimeDelta) << true;
    QTest::newRow("delta") << QStringList{QStringLiteral("--time-format"), QStringLiteral("delta")}
                           << int(DmesgTime::Delta) << false;
}

// The text forms that do not depend on the host's boot time, byte for byte as the real
// dmesg prints them from the same messages (dmesg -F reads a syslog(2) buffer).
void TstDmesg::converterIsWhatDmesgPrints()
{
    QFETCH(QStringList, args);
    QFETCH(int, time);
    QFETCH(bool, decode);
    const QString dmesg = QStandardPaths::findExecutable(QStringLiteral("dmesg"));
    QVERIFY2(!dmesg.isEmpty(), "util-linux dmesg is part of every Debian system");
    const QList<KernelLine> lines = sampleLines(QStringLiteral("spam_rmmod-k612rt-smp4-115200-t1"));
    Files files;
    const QString buffer = files.write(QStringLiteral("syslog.buf"), toSyslogBuffer(lines));
    QProcess p;
    p.start(dmesg,
            QStringList{QStringLiteral("-F"), buffer, QStringLiteral("--color=never")} + args);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    const QByteArray real = p.readAllStandardOutput();
    QCOMPARE(real, toDmesgText(lines, DmesgTime(time), decode, kBootNs));
}

void TstDmesg::untrusted()
{
    const auto run = loadBytes("{\n   \"dmesg\": [\n"
                               "      {\"pri\": 6, \"time\": 99999999999999.000000, \"msg\": "
                               "\"far\"},\n"
                               "      {\"pri\": 6, \"time\": 1.5, \"msg\": \"ok\\u0000\\ud800\"},\n"
                               "      {\"pri\": 6, \"time\": 2.0, \"msg\": \"x\"},\n"
                               "      {\"pri\": 6, \"time\": 3.0, \"msg\": \"cut");
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::DmesgJson);
    QCOMPARE(run->lines.size(), LineCount(4));
    QCOMPARE(lineText(*run, 0), QByteArray("far"));
    QCOMPARE(run->lines.kernelTime(LineIndex(0)), std::optional<KernelUs>());
    // A lone surrogate is not JSON: the record is kept as its text.
    QCOMPARE(lineText(*run, 1),
             QByteArray("{\"pri\": 6, \"time\": 1.5, \"msg\": \"ok\\u0000\\ud800\"}"));
    QCOMPARE(run->lines.kernelTime(LineIndex(2)), std::optional(KernelUs(2000000)));
    QCOMPARE(lineText(*run, 3), QByteArray("{\"pri\": 6, \"time\": 3.0, \"msg\": \"cut"));
    QCOMPARE(run->load.outcome, LoadOutcome::Truncated);
    QCOMPARE(run->load.message,
             QStringLiteral("the JSON ends inside a record (35 bytes of it kept as text)"));
    const QString w = allWarnings(*run);
    QVERIFY2(w.contains(QLatin1String("2 record(s) were not dmesg JSON records (the first: not "
                                      "JSON: bad surrogate pair")),
             qPrintable(w));
    QVERIFY2(w.contains(QLatin1String("1 record(s) had a \"time\" that is not a kernel time")),
             qPrintable(w));

    // Forced on text that is not dmesg's JSON: nothing is a record, and the skipped bytes
    // are counted.
    const auto text = loadBytes("[    1.000000] ab\n", withFormat(QStringLiteral("dmesg-json")));
    QVERIFY(text);
    QCOMPARE(text->lines.size(), LineCount(0));
    QVERIFY2(allWarnings(*text).contains(
                 QLatin1String("10 byte(s) outside the records were not the JSON around them")),
             qPrintable(allWarnings(*text)));
}

QTEST_GUILESS_MAIN(TstDmesg)
#include "tst_dmesg.moc"
