// systemd journal outputs (journalctl -k -o json / export / short-*): entries with their
// clocks exactly, and bundled captures converted to each output giving the figures of the
// original where the output carries the same clocks.
#include "journalentry.h"
#include "tst_helpers.h"
#include "tst_logconvert.h"

#include <QtTest>

using namespace tty;
using namespace testutil;

namespace {

QString allWarnings(const Run &run)
{
    return run.warnings.join(QLatin1Char('\n'));
}

// A run without host times places its lines on the timeline by their kernel times, in
// the arrival column (Run::finalize): seconds from 0, never journald's epoch times.
bool placedWithoutJournaldTimes(const Run &run)
{
    for (LineIndex i{0}; i < run.lines.endIndex(); ++i) {
        if (run.lines.arrival(i).value_or(HostNs(0)) > HostNs(1000LL * 1000000000)) {
            return false;
        }
    }
    return true;
}

void compareFigures(const Run &a, const Run &b, bool arrivals)
{
    MetricOptions o;
    o.windowStart = QStringLiteral("harness: insmod");
    const Metrics ma = computeMetrics(a, o), mb = computeMetrics(b, o);
    QCOMPARE(mb.lines, ma.lines);
    QCOMPARE(mb.kernelLines, ma.kernelLines);
    QCOMPARE(mb.droppedMessages, ma.droppedMessages);
    QCOMPARE(mb.dropNotices, ma.dropNotices);
    QCOMPARE(mb.boots, ma.boots);
    QCOMPARE(mb.kernelDuration, ma.kernelDuration);
    QCOMPARE(mb.window.found, ma.window.found);
    QCOMPARE(mb.window.produced, ma.window.produced);
    QCOMPARE(mb.panic.detected, ma.panic.detected);
    QCOMPARE(mb.panic.complete, ma.panic.complete);
    for (int k = 0; k < kEventKindCount; ++k) {
        QCOMPARE(mb.eventCounts[std::size_t(k)], ma.eventCounts[std::size_t(k)]);
    }
    if (arrivals) {
        QCOMPARE(mb.duration, ma.duration);
        QCOMPARE(mb.lagMax, ma.lagMax);
        QCOMPARE(mb.lagP50, ma.lagP50);
        QCOMPARE(mb.lagP99, ma.lagP99);
        QCOMPARE(mb.window.lines, ma.window.lines);
    } else {
        QVERIFY(!mb.duration && !mb.lagMax);
    }
}

} // namespace

class TstJournal : public QObject
{
    Q_OBJECT
private slots:
    void jsonEntries();
    void jsonPretty();
    void exportEntries();
    void shortForms();
    void sameFiguresAsTheOriginal_data();
    void sameFiguresAsTheOriginal();
    void shortMonotonicHasKernelTimeOnly();
    void untrusted();
};

void TstJournal::jsonEntries()
{
    const QByteArray log =
        // A kernel entry: the kernel's stamp is _SOURCE_MONOTONIC_TIMESTAMP, not journald's.
        "{\"__CURSOR\":\"s=1;i=1\",\"__REALTIME_TIMESTAMP\":\"1767528001250001\","
        "\"__MONOTONIC_TIMESTAMP\":\"9000000\",\"_TRANSPORT\":\"kernel\",\"PRIORITY\":\"6\","
        "\"SYSLOG_IDENTIFIER\":\"kernel\",\"_SOURCE_MONOTONIC_TIMESTAMP\":\"1470000\","
        "\"MESSAGE\":\"Kernel panic - not syncing: VFS: \\\"x\\\" \\u00e9\\ud83d\\ude00\"}\n"
        // Binary (an ESC and invalid UTF-8) as an array of bytes; a user write to /dev/kmsg.
        "\x1e{\"MESSAGE\":[27,91,48,109,255,65],\"SYSLOG_IDENTIFIER\":\"harness\","
        "\"SYSLOG_PID\":\"42\",\"_TRANSPORT\":\"kernel\",\"PRIORITY\":\"2\","
        "\"__REALTIME_TIMESTAMP\":\"1767528002000000\",\"_SOURCE_BOOTTIME_TIMESTAMP\":\"2000000\"}"
        "\n"
        // A user-space entry: its time is journald's receipt, it has no kernel time.
        "{ \"__REALTIME_TIMESTAMP\" : \"1767528003000000\", \"_TRANSPORT\" : \"stdout\", "
        "\"SYSLOG_IDENTIFIER\" : \"agetty\", \"_SOURCE_MONOTONIC_TIMESTAMP\" : \"5\", "
        "\"MESSAGE\" : [\"first\", \"second\"] }\n"
        // journalctl left out a field of 4096 bytes or more; a message of two lines.
        "{\"__REALTIME_TIMESTAMP\":\"1767528004000000\",\"MESSAGE\":null}\n"
        "{\"__REALTIME_TIMESTAMP\":\"1767528005000000\",\"MESSAGE\":\"a\\nb\","
        "\"_SOURCE_MONOTONIC_TIMESTAMP\":\"5000000\"}\n"
        "not json\n";
    QString error;
    const auto run = loadBytes(log, LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    QCOMPARE(run->meta.format, Format::JournalJson);
    // journald's receipt time is not the console's arrival: none.
    QVERIFY(!run->hasArrival && !run->arrivalIsWallClock);
    QCOMPARE(run->lines.size(), LineCount(7));
    QCOMPARE(lineText(*run, 0),
             QByteArray("Kernel panic - not syncing: VFS: \"x\" \xc3\xa9\xf0\x9f\x98\x80"));
    QCOMPARE(lineText(*run, 1), QByteArray("harness[42]: \x1b[0m\xff"
                                           "A"));
    QCOMPARE(lineText(*run, 2), QByteArray("agetty: first"));
    QCOMPARE(lineText(*run, 3), QByteArray());
    QCOMPARE(lineText(*run, 4), QByteArray("a"));
    QCOMPARE(lineText(*run, 5), QByteArray("b"));
    QCOMPARE(lineText(*run, 6), QByteArray("not json"));
    QVERIFY(placedWithoutJournaldTimes(*run));
    QCOMPARE(run->lines.kernelTime(LineIndex(0)), std::optional(KernelUs(1470000)));
    QCOMPARE(run->lines.level(LineIndex(0)).value_or(-1), 6);
    QCOMPARE(run->lines.kernelTime(LineIndex(1)), std::optional(KernelUs(2000000)));
    QCOMPARE(run->lines.level(LineIndex(1)).value_or(-1), 2);
    QCOMPARE(run->lines.kernelTime(LineIndex(2)), std::optional<KernelUs>());
    QCOMPARE(run->lines.kernelTime(LineIndex(5)), std::optional(KernelUs(5000000)));
    const QString w = allWarnings(*run);
    QVERIFY2(w.contains(journaldTimesWarning(5)), qPrintable(w));
    QVERIFY2(w.contains(QLatin1String("1 line(s) were not journal entries (the first: not "
                                      "JSON: expected '{' at byte 0)")),
             qPrintable(w));
    QVERIFY2(w.contains(QLatin1String("1 message(s) were left out by journalctl")), qPrintable(w));
    int panics = 0;
    for (const Event &e : run->events) {
        panics += e.kind == EventKind::Panic ? 1 : 0;
    }
    QCOMPARE(panics, 1);
}

// -o json-pretty: the same entries over several lines each.
void TstJournal::jsonPretty()
{
    const auto run = loadBytes("{\n\t\"__CURSOR\" : \"s=1\",\n\t\"__REALTIME_TIMESTAMP\" : "
                               "\"1767528001250001\",\n\t\"_SOURCE_MONOTONIC_TIMESTAMP\" : "
                               "\"1470000\",\n\t\"MESSAGE\" : \"one\"\n}\n"
                               "{\n\t\"__REALTIME_TIMESTAMP\" : \"1767528002000000\",\n"
                               "\t\"MESSAGE\" : \"two\"\n}\n"
                               "{\n\t\"MESSAGE\" : \"cut");
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::JournalJson);
    QCOMPARE(run->lines.size(), LineCount(4));
    QCOMPARE(lineText(*run, 0), QByteArray("one"));
    QCOMPARE(run->lines.kernelTime(LineIndex(0)), std::optional(KernelUs(1470000)));
    QCOMPARE(lineText(*run, 1), QByteArray("two"));
    QVERIFY(!run->hasArrival && placedWithoutJournaldTimes(*run));
    QCOMPARE(lineText(*run, 2), QByteArray("{")); // the cut object, kept as its lines
    QCOMPARE(lineText(*run, 3), QByteArray("\t\"MESSAGE\" : \"cut"));
}

void TstJournal::exportEntries()
{
    QByteArray log = "__CURSOR=s=1\n__REALTIME_TIMESTAMP=1767528001000000\n"
                     "__MONOTONIC_TIMESTAMP=99\n_TRANSPORT=kernel\n"
                     "_SOURCE_MONOTONIC_TIMESTAMP=1000000\nMESSAGE=plain text\n\n";
    // A binary MESSAGE holding a newline, a NUL and 0xff.
    const QByteArray bin("two\nlines\0\xff", 11);
    log += "__REALTIME_TIMESTAMP=1767528002000000\n_SOURCE_MONOTONIC_TIMESTAMP=2000000\nMESSAGE\n";
    quint64 n = quint64(bin.size());
    for (int b = 0; b < 8; ++b, n >>= 8) {
        log += char(n & 0xff);
    }
    log += bin + "\n\n";
    QString error;
    const auto run = loadBytes(log, LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    QCOMPARE(run->meta.format, Format::JournalExport);
    QCOMPARE(run->lines.size(), LineCount(3));
    QCOMPARE(lineText(*run, 0), QByteArray("plain text"));
    QCOMPARE(lineText(*run, 1), QByteArray("two"));
    QCOMPARE(lineText(*run, 2), QByteArray("lines\0\xff", 7));
    QVERIFY(!run->hasArrival && placedWithoutJournaldTimes(*run));
    QCOMPARE(run->lines.kernelTime(LineIndex(2)), std::optional(KernelUs(2000000)));
    QVERIFY2(!run->load.stoppedEarly() && run->load.outcome == LoadOutcome::Complete,
             qPrintable(run->load.message));

    // Cut inside the binary field: the entry is kept with the bytes there were, and the
    // load says it was cut.
    const auto cut = loadBytes(log.left(log.size() - 5), LoadOptions{}, &error);
    QVERIFY(cut);
    QCOMPARE(cut->load.outcome, LoadOutcome::Truncated);
    QCOMPARE(cut->load.message, QStringLiteral("the export stream ends inside its binary field "
                                               "MESSAGE (8 of 11 bytes); the entry was kept with "
                                               "what was there"));
    QCOMPARE(cut->lines.size(), LineCount(3));
    QCOMPARE(lineText(*cut, 2), QByteArray("line"));
}

void TstJournal::shortForms()
{
    const QByteArray mono = "-- Boot 5d8c --\n"
                            "[    1.470000] corpusvm kernel: usb 1-1: new device\n"
                            "[    1.480000] kernel: no host name\n"
                            "[    2.000000] corpusvm systemd[1]: Started x.\n"
                            "[    3.000000] corpusvm kernel: first\n"
                            "                                second\n"
                            "[    3.500000] corpusvm kernel: third\n"
                            "[    4.000000] corpusvm kernel: fourth\n";
    QString error;
    const auto m = loadBytes(mono, LoadOptions{}, &error);
    QVERIFY2(m, qPrintable(error));
    QCOMPARE(m->meta.format, Format::JournalShort);
    QVERIFY(!m->hasArrival);
    QCOMPARE(m->metaLines, std::int64_t(1));
    QCOMPARE(m->lines.size(), LineCount(7));
    QCOMPARE(lineText(*m, 0), QByteArray("usb 1-1: new device"));
    QCOMPARE(lineText(*m, 1), QByteArray("no host name"));
    QCOMPARE(lineText(*m, 2), QByteArray("systemd[1]: Started x."));
    QCOMPARE(lineText(*m, 4), QByteArray("second"));
    QCOMPARE(m->lines.kernelTime(LineIndex(0)), std::optional(KernelUs(1470000)));
    QCOMPARE(m->lines.kernelTime(LineIndex(2)), std::optional<KernelUs>()); // journald's clock
    QCOMPARE(m->lines.kernelTime(LineIndex(4)), std::optional(KernelUs(3000000)));
    QVERIFY2(allWarnings(*m).contains(QLatin1String("1 line(s) were not the kernel's")),
             qPrintable(allWarnings(*m)));

    const auto iso = loadBytes("2026-01-04T13:00:01.250000+01:00 corpusvm kernel: a\n"
                               "2026-01-04T12:00:02.000000+0000 corpusvm kernel: b\n");
    // Their stamps are journald's receipt: read, and not used as any clock.
    QVERIFY(iso);
    QCOMPARE(iso->meta.format, Format::JournalShort);
    QVERIFY(!iso->hasArrival && !iso->arrivalIsWallClock);
    QCOMPARE(lineText(*iso, 1), QByteArray("b"));
    QCOMPARE(iso->warnings, QStringList{journaldTimesWarning(2)});
    const auto precise = loadBytes("Dec 31 23:59:59.500000 h kernel: a\n"
                                   "Jan 01 00:00:00.250000 h kernel: b\n"
                                   "Feb 29 00:00:00.250000 h kernel: c\n");
    QVERIFY(precise);
    QCOMPARE(precise->meta.format, Format::JournalShort);
    QVERIFY(!precise->hasArrival);
    QCOMPARE(lineText(*precise, 2), QByteArray("c"));
    QVERIFY(placedWithoutJournaldTimes(*iso) && placedWithoutJournaldTimes(*precise));
    for (LineIndex i{0}; i < LineIndex(3); ++i) {
        QCOMPARE(precise->lines.kernelTime(i), std::optional<KernelUs>());
    }
    QCOMPARE(precise->warnings, QStringList{journaldTimesWarning(3)});
}

void TstJournal::sameFiguresAsTheOriginal_data()
{
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("form");
    for (const char *s : {"boot_login-default-smp2-115200-t1", "panic_noroot-smp2-115200-t1",
                          "spam_rmmod-k612rt-smp4-115200-t1"}) {
        for (const char *f :
             {"json", "export", "short-iso-precise", "short-iso-precise-0100", "short-precise"}) {
            QTest::addRow("%s %s", s, f) << s << f;
        }
    }
}

// journalctl -k of the same kernel messages: every figure the kernel's log holds is the
// capture's (lines, kernel times, boots, crashes, the window's lines produced by kernel
// time); the console's figures are n/a and say why. journald's receipt time is when it read
// the message from the kernel's log, never the console's arrival: used as one it gave a
// "console lag" of journald's start-up at boot. The converter writes the serial arrival
// there, so any use of it would show in the figures.
void TstJournal::sameFiguresAsTheOriginal()
{
    QFETCH(QString, sample);
    QFETCH(QString, form);
    const QList<KernelLine> lines = kernelLinesOf(
        zstdDecompressFile(QStringLiteral(TTYSCOPE_SAMPLES "/%1.hostts.log.zst").arg(sample)));
    QVERIFY(lines.size() > 300);
    const QByteArray converted =
        form == QLatin1String("json")     ? toJournalJson(lines)
        : form == QLatin1String("export") ? toJournalExport(lines)
        : form == QLatin1String("short-precise")
            ? toShortPrecise(lines)
            : toShortIsoPrecise(lines, !form.endsWith(QLatin1String("0100")));
    QString error;
    const auto a = loadBytes(kernelOnlyHostts(lines), LoadOptions{}, &error);
    const auto b = loadBytes(zstdCompress(converted), LoadOptions{}, &error, "journal.zst");
    QVERIFY2(a && b, qPrintable(error));
    QCOMPARE(a->meta.format, Format::HostTs);
    QCOMPARE(formatName(b->meta.format),
             form == QLatin1String("json")     ? QStringLiteral("journal-json")
             : form == QLatin1String("export") ? QStringLiteral("journal-export")
                                               : QStringLiteral("journal-short"));
    QCOMPARE(b->warnings, QStringList{journaldTimesWarning(lines.size())});
    QVERIFY(!b->hasArrival && !b->arrivalIsWallClock);
    // The kernel's stamps where the output has them (-o short-precise and short-iso-precise
    // show journald's receipt time only).
    const bool kernelTimes = !form.startsWith(QLatin1String("short"));
    QCOMPARE(b->lines.size(), a->lines.size());
    QVERIFY(placedWithoutJournaldTimes(*b));
    for (LineIndex i{0}; i < a->lines.endIndex(); ++i) {
        QCOMPARE(b->lines.kernelTime(i),
                 kernelTimes ? a->lines.kernelTime(i) : std::optional<KernelUs>());
        QCOMPARE(lineText(*b, i), lineText(*a, i).mid(15)); // without "[    1.234567] "
    }
    if (kernelTimes) {
        compareFigures(*a, *b, false);
    } else {
        const Metrics ma = computeMetrics(*a, MetricOptions{}),
                      mb = computeMetrics(*b, MetricOptions{});
        QCOMPARE(mb.lines, ma.lines);
        QCOMPARE(mb.panic.detected, ma.panic.detected);
        for (int k = 0; k < kEventKindCount; ++k) {
            QCOMPARE(mb.eventCounts[std::size_t(k)], ma.eventCounts[std::size_t(k)]);
        }
        QCOMPARE(mb.kernelLines, std::int64_t(0));
        QVERIFY(!mb.lagMax && !mb.kernelDuration && !mb.duration);
    }
    // The console's figures: n/a, with the reason, in the report and for --fail-on.
    QCOMPARE(rowsAbsentBecause(*b, QStringLiteral("a kernel log, not console output")),
             kConsoleOnlyRows);
}

// short-monotonic: the kernel's lines with their kernel times, no arrivals; the lines of
// user-space writes to /dev/kmsg ("harness: ...") show a stamp that may be journald's, so
// they have none: the other figures are those of the raw console text.
void TstJournal::shortMonotonicHasKernelTimeOnly()
{
    const QList<KernelLine> lines = kernelLinesOf(zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst")));
    const auto raw = loadBytes(consoleOf(lines), withFormat(QStringLiteral("raw")));
    const auto m = loadBytes(toShortMonotonic(lines));
    QVERIFY(raw && m);
    QCOMPARE(m->meta.format, Format::JournalShort);
    QCOMPARE(m->lines.size(), raw->lines.size());
    std::int64_t harness = 0;
    for (LineIndex i{0}; i < m->lines.endIndex(); ++i) {
        if (lineText(*m, i).startsWith("harness: ")) {
            ++harness;
            QCOMPARE(m->lines.kernelTime(i), std::optional<KernelUs>());
        } else {
            QCOMPARE(m->lines.kernelTime(i), raw->lines.kernelTime(i));
        }
    }
    QCOMPARE(harness, std::int64_t(5));
    const Metrics mr = computeMetrics(*raw, MetricOptions{}),
                  mm = computeMetrics(*m, MetricOptions{});
    QCOMPARE(mm.kernelLines, mr.kernelLines - harness);
    QCOMPARE(mm.droppedMessages, mr.droppedMessages);
    QCOMPARE(mm.dropNotices, mr.dropNotices);
    QCOMPARE(mm.kernelDuration, mr.kernelDuration);
    QVERIFY(!mm.duration && !mm.lagMax);
    QVERIFY2(allWarnings(*m).contains(QLatin1String("5 line(s) were not the kernel's")),
             qPrintable(allWarnings(*m)));
}

// Out-of-range numbers, bad JSON, a cut stream: a clear warning, every readable line kept.
void TstJournal::untrusted()
{
    const auto run =
        loadBytes("{\"__REALTIME_TIMESTAMP\":\"1767528001000000\",\"MESSAGE\":\"ok\"}\n"
                  "{\"__REALTIME_TIMESTAMP\":\"99999999999999999999\",\"MESSAGE\":\"far\","
                  "\"_SOURCE_MONOTONIC_TIMESTAMP\":\"9223372036854775807\"}\n"
                  "{\"__REALTIME_TIMESTAMP\":\"-5\",\"MESSAGE\":\"neg\"}\n"
                  "{\"__REALTIME_TIMESTAMP\":\"1767528002000000\",\"MESSAGE\":\"cut");
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::JournalJson);
    QCOMPARE(run->lines.size(), LineCount(4));
    // journald's times, absurd or not, are not used.
    QVERIFY(!run->hasArrival && placedWithoutJournaldTimes(*run));
    QCOMPARE(run->lines.kernelTime(LineIndex(1)), std::optional<KernelUs>());
    QCOMPARE(lineText(*run, 3),
             QByteArray("{\"__REALTIME_TIMESTAMP\":\"1767528002000000\",\"MESSAGE\":\"cut"));
    const QString w = allWarnings(*run);
    QVERIFY2(w.contains(journaldTimesWarning(3)), qPrintable(w));
    QVERIFY2(w.contains(QLatin1String("1 kernel entr(ies) had a _SOURCE_MONOTONIC_TIMESTAMP "
                                      "that is not a time")),
             qPrintable(w));
    QVERIFY2(w.contains(QLatin1String("1 line(s) were not journal entries (the first: not "
                                      "JSON: a string is not closed")),
             qPrintable(w));

    // An export field claiming an absurd size: the stream is damaged from there, the
    // entries before it kept.
    QByteArray ex = "__REALTIME_TIMESTAMP=1767528001000000\nMESSAGE=kept\n\n"
                    "__REALTIME_TIMESTAMP=1767528002000000\nMESSAGE\n";
    ex += QByteArray(8, '\xff') + "rest\n\n";
    const auto e = loadBytes(ex);
    QVERIFY(e);
    QCOMPARE(e->meta.format, Format::JournalExport);
    QCOMPARE(e->load.outcome, LoadOutcome::Damaged);
    QCOMPARE(e->load.message,
             QStringLiteral("the binary field MESSAGE at byte 90 of the export stream claims "
                            "18446744073709551615 bytes (more than 64 MiB): not an export stream "
                            "from there on; everything before it was kept"));
    QCOMPARE(e->lines.size(), LineCount(1));
    QCOMPARE(lineText(*e, 0), QByteArray("kept"));
}

QTEST_GUILESS_MAIN(TstJournal)
#include "tst_journal.moc"
