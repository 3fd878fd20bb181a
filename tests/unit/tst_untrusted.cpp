// Untrusted input (issue 12): the defects a first fuzzing run found, each pinned by the input
// that showed it. A console log from a crashed kernel may hold anything: every byte that can
// be read is kept, numbers out of range are not times, and garbage is loaded with a warning.
#include "regexlimit.h"
#include "runbuilder.h"
#include "tst_helpers.h"

#include <QtTest>

#include <random>

using namespace tty;
using namespace testutil;

namespace {
QByteArray record(char type, const QByteArray &wall, const QByteArray &mono,
                  const QByteArray &payload)
{
    return QByteArray(1, type) + ' ' + wall + ' ' + mono + ' ' +
           QByteArray::number(payload.size()) + '\n' + payload + '\n';
}

QString allWarnings(const Run &run)
{
    return run.warnings.join(QLatin1Char('\n'));
}

const QString kNotText = QStringLiteral("this does not look like console text");

// The builder's warning for arrivals it could not use (RunBuilder::finish).
QString farArrivalWarning(int firstLine)
{
    return QStringLiteral("1 arrival time(s) were too far from the others or from the epoch to "
                          "be used (first: line %1)")
        .arg(firstLine);
}
} // namespace

class TstUntrusted : public QObject
{
    Q_OBJECT
private slots:
    void bannerWithoutBuild();
    void hostSecondsOutOfRange();
    void grabserialDateOutOfRange();
    void clockCorrectionOutOfRange();
    void hostTimeBeyondLimit();
    void markerTimeOutOfRange();
    void recordingNumberOutOfRange();
    void kmsgNumberOutOfRange();
    void kernelTimeBeyondHostRange();
    void recordHeaderPastAnyUptime();
    void recordingCutInsideRecordIsPartial();
    void randomBytesWarn();
    void nulsWarn();
    void crOnlyLineEndsWarn();
    void consoleTextDoesNotWarn();
    void seriesSizedToInput();
    void wireSpreadWithAClockThatJumps();
    void loadFromMemory();
    void costlyRegexGivesUpPerSearch();
};

// Defect 1: "Linux version <release>" with nothing after the release. The release was
// read with length npos, i.e. up to a NUL somewhere past the line.
void TstUntrusted::bannerWithoutBuild()
{
    const auto run = loadBytes("[    0.000000] Linux version 6.1.0-57-amd64\n"
                               "[    0.100000] Command line: console=ttyS0\n");
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(1));
    QCOMPARE(run->boots[0].version, QStringLiteral("6.1.0-57-amd64"));
}

// Defect 5: 11-12 digit host seconds overflowed int64 nanoseconds.
void TstUntrusted::hostSecondsOutOfRange()
{
    const auto run = loadBytes("1700000000.000000\t[    0.000000] a\n"
                               "99999999999.000000\t[    0.100000] b\n"
                               "1700000001.000000\t[    1.000000] c\n",
                               withFormat(QStringLiteral("hostts")));
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(3));
    QCOMPARE(lineText(*run, 1), QByteArray("99999999999.000000\t[    0.100000] b"));
    QCOMPARE(run->lines.arrival(LineIndex(1)), HostNs(1700000000000000000));
    QCOMPARE(run->lines.arrival(LineIndex(2)), HostNs(1700000001000000000));
    QVERIFY2(allWarnings(*run).contains(
                 QLatin1String("1 line(s) had no host timestamp (first: line 2)")),
             qPrintable(allWarnings(*run)));
}

// Defect 5: a -T date outside 1678-2262 overflowed milliseconds to nanoseconds.
void TstUntrusted::grabserialDateOutOfRange()
{
    const auto run = loadBytes("[2026-11-30T05:00:14.000000 0.000001] a\n"
                               "[9999-12-31T23:59:00.000000 0.000001] b\n"
                               "[2026-11-30T05:00:15.000000 1.000000] c\n",
                               withFormat(QStringLiteral("grabserial")));
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(3));
    QCOMPARE(run->lines.arrival(LineIndex(0)), HostNs(1796014814000000000));
    QCOMPARE(run->lines.arrival(LineIndex(1)), HostNs(1796014814000000000));
    QCOMPARE(run->lines.arrival(LineIndex(2)), HostNs(1796014815000000000));
    QVERIFY2(allWarnings(*run).contains(QLatin1String("1 line(s) had no grabserial timestamp")),
             qPrintable(allWarnings(*run)));
}

// Defect 5: a step back of the host clock is folded out by adding a correction; a corrupt
// time made the correction plus the next arrival overflow. Here every stamp is within the
// 146 years of kHostLimitNs, and the corrected one is not.
void TstUntrusted::clockCorrectionOutOfRange()
{
    const auto run = loadBytes("1700000000.000000\ta\n"
                               "4000000000.000000\tb\n"
                               "1.000000\tc\n"
                               "1700000001.000000\td\n",
                               withFormat(QStringLiteral("hostts")));
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(4));
    QCOMPARE(run->lines.arrival(LineIndex(1)), HostNs(4000000000000000000));
    QCOMPARE(run->lines.arrival(LineIndex(2)), HostNs(4000000000000000000)); // folded: a step back
    QCOMPARE(run->lines.arrival(LineIndex(3)),
             HostNs(4000000000000000000)); // corrected, beyond the limit: kept as before
    QVERIFY2(
        allWarnings(*run).contains(farArrivalWarning(4) +
                                   QLatin1String("; each was given the time of the line before")),
        qPrintable(allWarnings(*run)));
}

// A host time 285 years after the epoch is no time: the line keeps the time before, and
// the run's times stay in range (the last line 1 s after the first, not 7.3e9 s).
void TstUntrusted::hostTimeBeyondLimit()
{
    const auto run = loadBytes("1700000000.000000\ta\n"
                               "9000000000.000000\tb\n"
                               "1700000001.000000\tc\n",
                               withFormat(QStringLiteral("hostts")));
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(3));
    QCOMPARE(run->lines.arrival(LineIndex(1)), HostNs(1700000000000000000));
    QCOMPARE(run->lines.arrival(LineIndex(2)), HostNs(1700000001000000000));
    QCOMPARE(run->timeOf(LineIndex(2)), std::optional<RunSeconds>(RunSeconds(1.0)));
    QVERIFY2(allWarnings(*run).contains(farArrivalWarning(2)), qPrintable(allWarnings(*run)));
}

// Found by fuzz_load_zstd in CI (tests/fuzz/regressions/load_zstd/marker_time_*): a
// recorded marker's wall time of -2^63 + 1 was subtracted from the run's origin, and the
// difference overflowed. The marker keeps its text and gets the time of the line before.
void TstUntrusted::markerTimeOutOfRange()
{
    QByteArray rec("TTYSCOPE-REC 1\n");
    rec += record('D', "1700000000000000000", "1", "first\n");
    rec += record('M', "-9223372036854775807", "0", "mark"); // mono 0: the wall time
    rec += record('D', "1700000002000000000", "3", "second\n");
    const auto run = loadBytes(rec);
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(2));
    const auto marker = std::find_if(run->events.begin(), run->events.end(),
                                     [](const Event &e) { return e.kind == EventKind::Marker; });
    QVERIFY(marker != run->events.end());
    QCOMPARE(QByteArray::fromStdString(run->notes[std::size_t(*marker->note)]), QByteArray("mark"));
    QCOMPARE(run->eventArrival(*marker), std::optional<HostNs>(HostNs(1700000000000000000)));
    QCOMPARE(run->eventTime(*marker), std::optional<RunSeconds>(RunSeconds(0.0)));
    QVERIFY2(allWarnings(*run).contains(farArrivalWarning(2)), qPrintable(allWarnings(*run)));
}

// Defect 5: a 19-digit header number above INT64_MAX was accepted, wrapped.
void TstUntrusted::recordingNumberOutOfRange()
{
    QByteArray rec("TTYSCOPE-REC 1\n");
    rec += record('H', "1700000000000000000", "1", R"({"tool":"ttyscope"})");
    rec += record('D', "1700000000000000001", "2", "first\n");
    const qsizetype bad = rec.size();
    rec += record('D', "9999999999999999999", "3", "second\n");
    const auto run = loadBytes(rec);
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(1));
    QCOMPARE(lineText(*run, 0), QByteArray("first"));
    QCOMPARE(run->load.outcome, LoadOutcome::Damaged);
    QCOMPARE(run->load.message,
             QStringLiteral("unreadable record header at byte %1 of the decompressed recording; "
                            "everything before it was kept")
                 .arg(bad));

    // The extremes of int64 are numbers like any other.
    QByteArray edge("TTYSCOPE-REC 1\n");
    edge += record('D', "9223372036854775807", "-9223372036854775808", "x\n");
    const auto ok = loadBytes(edge);
    QVERIFY(ok);
    QVERIFY2(!ok->load.stoppedEarly(), qPrintable(ok->load.message));
    QCOMPARE(ok->lines.size(), LineCount(1));
}

// Found by fuzz_load (tests/fuzz/regressions/load/kmsg_field_*): a kmsg field of 19 or
// more digits overflowed int64.
void TstUntrusted::kmsgNumberOutOfRange()
{
    const auto run = loadBytes("6,1,100,-;first\n"
                               "6,9999999999999999999,200,-;second\n"
                               "6,2,300,-;third\n",
                               withFormat(QStringLiteral("kmsg")));
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(3));
    QCOMPARE(lineText(*run, 1), QByteArray("6,9999999999999999999,200,-;second"));
    QCOMPARE(lineText(*run, 2), QByteArray("third"));
    QVERIFY2(allWarnings(*run).contains(
                 QLatin1String("1 line(s) were not /dev/kmsg records; kept as console lines")),
             qPrintable(allWarnings(*run)));
}

// Found by fuzz_load_zstd (2026-12-05, 389,350 executions): a log without host times lays
// its lines out on their kernel clock, and a kernel time of 3 * 10^11 s (a /dev/kmsg usec
// field of 18 digits) became 3 * 10^20 ns, cast to int64: undefined behaviour (UBSan: float
// cast overflow), in practice the most negative time. It is placed at the builder's limit
// for host times (2^62 ns, 146 years), with a warning.
void TstUntrusted::kernelTimeBeyondHostRange()
{
    const auto run = loadBytes("6,1,1000000,-;first\n"
                               "6,2,300000000000000000,-;far\n"
                               "6,3,200,-;third\n",
                               withFormat(QStringLiteral("kmsg")));
    QVERIFY(run);
    QVERIFY(!run->hasArrival);
    QCOMPARE(run->lines.size(), LineCount(3));
    QCOMPARE(run->lines.kernelTime(LineIndex(1)),
             std::optional<KernelUs>(KernelUs(300000000000000000)));
    QCOMPARE(run->lines.arrival(LineIndex(0)), std::optional<HostNs>(HostNs(1000000000)));
    QCOMPARE(run->lines.arrival(LineIndex(1)),
             std::optional<HostNs>(HostNs(RunBuilder::kHostLimitNs)));
    // The kernel clock goes back after it: a second boot, laid out after the first, so at
    // the limit too.
    QCOMPARE(run->boots.size(), std::size_t(2));
    QCOMPARE(run->lines.arrival(LineIndex(2)),
             std::optional<HostNs>(HostNs(RunBuilder::kHostLimitNs)));
    // A view may ask for any time (panned far past the data): beyond what int64 ns hold,
    // it is clamped (UBSan in CI checks the casts), not wrapped.
    QCOMPARE(run->lineAt(RunSeconds(1e12)), run->lineAt(RunSeconds(5e9)));
    QCOMPARE(run->lineAt(RunSeconds(-1e12)), run->lineAt(RunSeconds(-1)));
    QVERIFY2(allWarnings(*run).contains(
                 QLatin1String("2 line(s) had a kernel time beyond 146 years (first: line 2); the "
                               "timeline places them there")),
             qPrintable(allWarnings(*run)));
}

// The same 18 digits in a record header of netconsole's extended form, beside host times: no
// kernel time (as a bracketed time past any uptime is none), counted and named.
void TstUntrusted::recordHeaderPastAnyUptime()
{
    const auto run = loadBytes("1700000000.000000\t6,1,1000000,-;first\n"
                               "1700000000.100000\t6,2,999999999999999999,-;far\n"
                               "1700000000.200000\t6,3,1200000,-;third\n");
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::HostTs);
    QCOMPARE(run->lines.size(), LineCount(3));
    QCOMPARE(run->lines.kernelTime(LineIndex(1)), std::nullopt);
    QCOMPARE(run->lines.kernelTime(LineIndex(2)), std::optional<KernelUs>(KernelUs(1200000)));
    QCOMPARE(run->boots.size(), std::size_t(1));
    QVERIFY2(allWarnings(*run).contains(QLatin1String(
                 "1 line(s) began with a kernel timestamp that is not printk's (first: line 2, "
                 "'6,2,999999999999999999,-')")),
             qPrintable(allWarnings(*run)));
}

// Defect 4: an uncompressed recording cut inside a D record is read in part, as a cut
// zstd frame is (report/export then exit 3).
void TstUntrusted::recordingCutInsideRecordIsPartial()
{
    QByteArray rec("TTYSCOPE-REC 1\n");
    rec += record('D', "1700000000000000001", "2", "first\nsecond\n");
    const auto run = loadBytes(rec.left(rec.size() - 4));
    QVERIFY(run);
    QCOMPARE(run->load.outcome, LoadOutcome::Truncated);
    QVERIFY(!run->load.message.isEmpty());
    QCOMPARE(run->lines.size(), LineCount(2));
    QCOMPARE(lineText(*run, 1), QByteArray("seco"));
}

// Defect 6: garbage is loaded whole, with a warning.
void TstUntrusted::randomBytesWarn()
{
    std::mt19937 gen(12);
    QByteArray bytes(10 << 20, Qt::Uninitialized);
    for (char &c : bytes) {
        c = char(gen() & 0xff);
    }
    const auto run = loadBytes(bytes, withFormat(QStringLiteral("raw")));
    QVERIFY(run);
    QCOMPARE(run->bytes, qint64(bytes.size()));
    const QString w = allWarnings(*run);
    QVERIFY2(w.contains(kNotText) && w.contains(QLatin1String("of the first 4194304 bytes")),
             qPrintable(w));
}

void TstUntrusted::nulsWarn()
{
    const QByteArray nuls(10 << 20, '\0');
    const auto run = loadBytes(nuls);
    QVERIFY(run);
    QCOMPARE(run->bytes, qint64(nuls.size()));
    QVERIFY2(allWarnings(*run).contains(
                 kNotText + QStringLiteral(": 100.0% of the first 4194304 bytes are not text, and "
                                           "the longest line is 10485760 bytes")),
             qPrintable(allWarnings(*run)));
}

// A log whose lines end in CRs alone was one line of 500 KB with a not-text warning; its
// CRs are now its line ends, and a warning says how it was read.
void TstUntrusted::crOnlyLineEndsWarn()
{
    QByteArray cr;
    int lines = 0;
    for (; cr.size() < 500000; ++lines) {
        cr += "[    " + QByteArray::number(lines) + ".000000] a console line\r";
    }
    const auto run = loadBytes(cr);
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(lines));
    QCOMPARE(lineText(*run, LineIndex(lines - 1)),
             "[    " + QByteArray::number(lines - 1) + ".000000] a console line");
    QCOMPARE(allWarnings(*run),
             QStringLiteral("the lines end in a carriage return alone (CR, no LF: a terminal's log "
                            "or a capture that dropped the LFs): each CR was read as a line end"));
}

void TstUntrusted::consoleTextDoesNotWarn()
{
    for (const char *name :
         {"boot_login-quiet-smp2-115200-t1.hostts.log.zst", "blast_crash-smp2-115200-t1.raw.zst",
          "spam_rmmod-A_default-smp4-115200-t1.hostts.log.zst"}) {
        QString error;
        const auto run = loadRun(QStringLiteral(TTYSCOPE_SAMPLES "/") + name, {}, &error);
        QVERIFY2(run, qPrintable(error));
        QVERIFY2(!allWarnings(*run).contains(kNotText), qPrintable(allWarnings(*run)));
    }
}

// Defect 7: the series had a million bins whatever the input; now a few per line, with a
// floor. Two lines an hour apart: 3600 s / 4096 bins -> 1 s bins; up to the last line's
// last byte on the wire ("b\r\n", 0.26 ms at 115200 baud) -> 3602 bins.
void TstUntrusted::seriesSizedToInput()
{
    const auto run = loadBytes("1700000000.000000\t[    0.000000] a\n"
                               "1700003600.000000\t[ 3600.000000] b\n");
    QVERIFY(run);
    QCOMPARE(run->series.level(0).width, 1.0);
    QCOMPARE(run->series.level(0).bins(), std::size_t(3602));
    QCOMPARE(run->series.sum(Channel::Printed, 0, 3601), 2.0);
}

// A line's bytes are spread over its time on the wire, up to the next line's arrival. A
// host clock that jumps back and forth between two times 1000 s apart, at --baud 1 (a line
// of 100 bytes takes 1000 s): the loader shifts the times after each step back so that they
// stay in order (a warning says so), 1000 s a line, and each line's bytes go over the ten
// 100 s bins of its 1000 s, every byte counted. (Spans that went back over bins already
// spread would be cut at the last span's end: Run::wireSpan's frontier.)
void TstUntrusted::wireSpreadWithAClockThatJumps()
{
    QByteArray log;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
        log += (i % 2 ? "1700001000.000000\t" : "1700000000.000000\t") + QByteArray(98, 'x') + '\n';
    }
    LoadOptions o = withFormat(QStringLiteral("hostts"));
    o.baud = 1;
    const auto run = loadBytes(log, o);
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(n));
    QCOMPARE(run->series.level(0).width, 100.0);
    QCOMPARE(run->series.level(0).bins(), std::size_t(1000011)); // 10^8 s and the last line
    double bytes = 0;
    for (const float b : run->series.level(0).ch[std::size_t(Channel::Bytes)]) {
        bytes += double(b);
    }
    QCOMPARE(qRound64(bytes), qint64(n) * 100);
}

// The in-memory entry point (fuzzing) loads what the file loader loads.
void TstUntrusted::loadFromMemory()
{
    const QByteArray z = zstdCompress("1700000000.000000\t[    0.000000] a\n"
                                      "1700000001.000000\t[    1.000000] b\n");
    QString error;
    const auto run = loadRunFromBytes(std::string_view(z.constData(), std::size_t(z.size())),
                                      QStringLiteral("mem.log.zst"), {}, &error);
    QVERIFY2(run, qPrintable(error));
    QCOMPARE(run->meta.format, Format::HostTs);
    QCOMPARE(run->lines.size(), LineCount(2));
    QCOMPARE(run->lines.arrival(LineIndex(1)), HostNs(1700000001000000000));
}

// A regex past PCRE2's match limit is given up (regexlimit.h) for the search that ran into
// it, not for the next: the compiled matchers are kept between searches (a report of 10^5
// boot trials searches each for the same pattern), and one that gave up is made again.
void TstUntrusted::costlyRegexGivesUpPerSearch()
{
    QByteArray log;
    for (int i = 0; i < 3; ++i) {
        log += "[    " + QByteArray::number(i) + ".000000] " + QByteArray(40, 'a') + "!\n";
    }
    log += "[    3.000000] aa\n"; // (a|aa)+$ matches this line without backtracking
    const auto run = loadBytes(log);
    QVERIFY(run);
    QVERIFY(takeRegexesOverLimit().isEmpty());
    const QString costly = QStringLiteral("(a|aa)+$");
    MetricOptions o;
    o.windowStart = costly;
    for (int k = 0; k < 2; ++k) {
        // The first line costs past the limit: the search gives up, and says so, each time.
        const Metrics m = computeMetrics(*run, o);
        QVERIFY(!m.window.found);
        QCOMPARE(takeRegexesOverLimit(), QStringList{costly});
    }
    // From the last line alone the same pattern is found: the matcher is not left given up.
    const Metrics tail = computeMetrics(*run, o, LineIndex(3), LineIndex(4));
    QVERIFY(tail.window.found);
    QCOMPARE(*tail.window.startLine, LineIndex(3));
    QVERIFY(takeRegexesOverLimit().isEmpty());
}

QTEST_GUILESS_MAIN(TstUntrusted)
#include "tst_untrusted.moc"
