// Formats: detection from the first lines and parsing of each, ttyscope recordings written
// by hand after docs/format.md (cut inside a record, markers, gaps), and --format.
#include "formats.h"
#include "tst_helpers.h"

#include <QtTest>

using namespace tty;
using namespace testutil;

namespace {

constexpr qint64 kWall0 = 1700000000000000000;

// A recording: a header, data split mid-line across records, a marker, a gap and resume,
// and a wall clock that steps back 1 h (arrivals follow the monotonic clock).
QByteArray recording()
{
    QByteArray r("TTYSCOPE-REC 1\n");
    r += recordingRecord(
        'H', kWall0, 1000,
        R"({"tool":"ttyscope","version":"0.1.0","source":"/dev/ttyUSB0","baud":921600,)"
        R"("start_utc":"2023-11-14T22:13:20Z","host":"lab1","label":"stock kernel"})");
    r += recordingRecord('D', kWall0 + 1000000, 1000 + 1000000, "[    1.000000] first li");
    r += recordingRecord('D', kWall0 + 2000000, 1000 + 2000000, "ne\r\n[    1.500000] second\r\n");
    r += recordingRecord('M', kWall0 + 3000000, 1000 + 3000000, "before rmmod");
    r += recordingRecord('D', kWall0 - 3600000000000, 1000 + 4000000,
                         QByteArray("third \x00\xff\r\r\n", 11));
    r += recordingRecord('G', kWall0, 1000 + 5000000, "read error: EIO");
    r += recordingRecord('R', kWall0, 1000 + 9000000, "/dev/ttyUSB0");
    r += recordingRecord('X', kWall0, 1000 + 9500000, "a record type from the future");
    r += recordingRecord('D', kWall0, 1000 + 10000000, "login: ");
    return r;
}

} // namespace

class TstFormats : public QObject
{
    Q_OBJECT
private slots:
    void detect_data();
    void detect();
    void hostts_data();
    void hostts();
    void grabserial();
    void bigGrabserialOnEveryCore();
    void rawConserver();
    void rawConserverMarksAreNotWireBytes();
    void stampsNotRead_data();
    void stampsNotRead();
    void dmesg();
    void kmsg();
    void kmsgJumpOutOfRange();
    void kmsgWithRelease();
    void netconsoleExtendedStamped();
    void recordingFormat();
    void recordingCut();
    void recordingGarbage();
    void recorderWarningsOfAKindAreOne();
    void formatOverride();
    void registry();
    void loadOutcomes();
};

void TstFormats::detect_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<QString>("format");
    QTest::newRow("recording") << QByteArray("TTYSCOPE-REC 1\nH 1 2 2\n{}\n") << "ttyscope";
    QTest::newRow("recording cut in magic") << QByteArray("TTYSCOPE-R") << "ttyscope";
    QTest::newRow("hostts tab") << QByteArray("1700000000.123456\t[    0.000000] Linux\n"
                                              "1700000000.200000\tsecond\n")
                                << "hostts";
    QTest::newRow("ts %.s (a space)") << QByteArray("1700000000.123456 [    0.0] Linux\n"
                                                    "1700000000.2 x\n")
                                      << "ts";
    QTest::newRow("hostts after garbage") << QByteArray("\x1b[2Jjunk\n1700000000.1\ta\n"
                                                        "1700000000.2\tb\n1700000000.3\tc\n")
                                          << "hostts";
    QTest::newRow("grabserial -t") << QByteArray("[0.000001 0.000001] SeaBIOS\n"
                                                 "[0.009759 0.009758] \n")
                                   << "grabserial";
    QTest::newRow("grabserial -T") << QByteArray("[2026-11-30T05:00:14.818990 0.000001] a\n"
                                                 "[2026-11-30T05:00:14.828744 0.009759] b\n")
                                   << "grabserial";
    QTest::newRow("kmsg") << QByteArray("6,1,0,-;Linux version 6.1\n SUBSYSTEM=x\n"
                                        "4,2,10,-,caller=T1;next\n")
                          << "kmsg";
    QTest::newRow("dmesg") << QByteArray("[    0.000000] Linux version 6.1\n"
                                         "[    0.000001] Command line: x\n")
                           << "raw";
    QTest::newRow("conserver") << QByteArray("[-- Console up -- Thu Nov 30 05:00:00 2026]\n"
                                             "login: \n")
                               << "raw";
    QTest::newRow("lava log.yaml")
        << QByteArray(
               "- {\"dt\": \"2026-01-04T12:00:00\", \"lvl\": \"info\", \"msg\": \"start\"}\n"
               "- {\"dt\": \"2026-01-04T12:00:01.5\", \"lvl\": \"target\", \"msg\": \"U-Boot\"}\n")
        << "lava";
    QTest::newRow("journalctl -o json")
        << QByteArray("{\"__CURSOR\":\"s=1\",\"__REALTIME_TIMESTAMP\":\"1767528001000000\","
                      "\"MESSAGE\":\"x\"}\n")
        << "journal-json";
    QTest::newRow("journalctl -o json-seq")
        << QByteArray("\x1e{\"MESSAGE\":\"x\",\"__REALTIME_TIMESTAMP\":\"1\"}\n") << "journal-json";
    QTest::newRow("journalctl -o export")
        << QByteArray("__CURSOR=s=1\n__REALTIME_TIMESTAMP=1\nMESSAGE=x\n\n") << "journal-export";
    QTest::newRow("journalctl -o short-monotonic")
        << QByteArray("[    1.000000] host kernel: a\n[    1.100000] host kernel: usb 1-1: b\n")
        << "journal-short";
    QTest::newRow("journalctl -o short-iso-precise")
        << QByteArray("2026-01-04T12:00:01.250000+0000 host kernel: a\n"
                      "2026-01-04T12:00:02.000000+0000 host sshd[12]: b\n")
        << "journal-short";
    QTest::newRow("journalctl -o short-precise")
        << QByteArray("Jan 04 12:00:01.250000 host kernel: a\nJan 04 12:00:02.0 bad\n"
                      "Jan 04 12:00:03.000000 host kernel: c\n")
        << "journal-short";
    QTest::newRow("console lines are not short-monotonic")
        << QByteArray("[    1.000000] usb 1-1: new device\n[    1.100000] pci 0000:00:01.0: x\n")
        << "raw";
    QTest::newRow("dmesg --json") << QByteArray("{\n   \"dmesg\": [\n      {\n") << "dmesg-json";
    QTest::newRow("dmesg -x") << QByteArray("kern  :info  : [    0.000000] Linux version 6.1\n"
                                            "kern  :notice: [    0.000000] Command line: x\n")
                              << "dmesg-text";
    QTest::newRow("dmesg -T") << QByteArray("[Tue Dec  1 20:10:49 2026] Linux version 6.1\n"
                                            "[Tue Dec  1 20:10:50 2026] x\n")
                              << "dmesg-text";
    QTest::newRow("dmesg -r") << QByteArray("<5>[    0.000000] Linux version 6.18\n"
                                            "<6>[    0.000000] Command line: console=ttyS0\n")
                              << "dmesg-text";
    QTest::newRow("pstore dmesg-ramoops")
        << QByteArray("Panic#1 Part1\n<6>[    2.227157] PTP clock support registered\n"
                      "<0>[    2.260000] Kernel panic - not syncing: VFS: Unable to mount\n")
        << "dmesg-text";
    QTest::newRow("a console printing priorities (console_msg_format=syslog)")
        << QByteArray("<5>[    0.000000] Linux version 6.18\r\n<6>[    0.000000] x\r\n") << "raw";
    QTest::newRow("dmesg --time-format iso")
        << QByteArray("2026-12-01T20:10:49,000000+00:00 Linux version 6.1\n") << "dmesg-text";
    QTest::newRow("tio --timestamp (24hour)")
        << QByteArray("[05:43:32.156] SeaBIOS\r\n\r\r\n[05:43:32.156] [    0.000000] Linux\r\n")
        << "tio";
    QTest::newRow("tio iso8601") << QByteArray("[2026-12-06T05:43:39.526] SeaBIOS\r\n") << "tio";
    QTest::newRow("tio after a CR") << QByteArray("\r[00:00:00.998] a\r\n") << "tio";
    QTest::newRow("empty") << QByteArray() << "raw";
    QTest::newRow("short number not a host time") << QByteArray("12 monkeys\n13 ghosts\n") << "raw";
}

void TstFormats::detect()
{
    QFETCH(QByteArray, head);
    QFETCH(QString, format);
    QCOMPARE(formatName(detectFormat(std::string_view(head.constData(), std::size_t(head.size())))),
             format);
}

void TstFormats::hostts_data()
{
    QTest::addColumn<char>("separator");
    QTest::newRow("tab") << '\t';
    QTest::newRow("space") << ' ';
}

void TstFormats::hostts()
{
    QFETCH(char, separator);
    QByteArray in;
    in += QByteArray("1700000000.250000") + separator + "[    1.000000] one\n";
    in += QByteArray("1700000001") + separator + "two\twith tab\n";
    in += QByteArray("1700000001.5") + separator + "\n";
    in += "no stamp here\n";
    const auto run = loadBytes(zstdCompress(in));
    QVERIFY(run);
    // With a space: moreutils ts '%.s', the same lines stamped at their ends (tst_ts).
    QCOMPARE(run->meta.format, separator == ' ' ? Format::Ts : Format::HostTs);
    QCOMPARE(run->arrivalIsLineEnd, separator == ' ');
    QVERIFY(run->hasArrival);
    QVERIFY(run->arrivalIsWallClock);
    QCOMPARE(run->lines.size(), LineCount(4));
    QCOMPARE(lineText(*run, 0), QByteArray("[    1.000000] one"));
    QCOMPARE(run->lines.arrival(LineIndex(0)), HostNs(1700000000250000000));
    QCOMPARE(lineText(*run, 1), QByteArray("two\twith tab"));
    QCOMPARE(run->lines.arrival(LineIndex(1)), HostNs(1700000001000000000));
    QCOMPARE(lineText(*run, 2), QByteArray());
    QCOMPARE(lineText(*run, 3), QByteArray("no stamp here"));
    QCOMPARE(run->lines.arrival(LineIndex(3)), HostNs(1700000001500000000));
    QVERIFY(run->warnings.join(QLatin1Char(' ')).contains(QLatin1String("no host timestamp")));
    QCOMPARE(run->boots[0].kernelZero, HostNs(1700000000250000000 - 1000000000));
}

void TstFormats::grabserial()
{
    const QByteArray t("[0.000001 0.000001] SeaBIOS\n[1.500000 1.499999] [    0.200000] Linux x\n");
    auto run = loadBytes(t);
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::Grabserial);
    QVERIFY(!run->arrivalIsWallClock);
    QCOMPARE(run->lines.size(), LineCount(2));
    QCOMPARE(lineText(*run, 0), QByteArray("SeaBIOS"));
    QCOMPARE(run->lines.arrival(LineIndex(1)), HostNs(1500000000));
    QCOMPARE(run->lines.kernelTime(LineIndex(1)), KernelUs(200000));

    const QByteArray T("[2026-11-30T05:00:14.818990 0.000001] a\n"
                       "[2026-11-30T05:01:00.000000 45.181010] [    3.000000] b\n");
    run = loadBytes(T);
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::Grabserial);
    QVERIFY(run->arrivalIsWallClock);
    QCOMPARE(run->lines.arrival(LineIndex(0)), HostNs(1796014814818990000));
    QCOMPARE(run->lines.arrival(LineIndex(1)), HostNs(1796014860000000000));
    QCOMPARE(lineText(*run, 1), QByteArray("[    3.000000] b"));
}

void TstFormats::stampsNotRead_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("warned");
    // moreutils ts's default format, a custom one, ts -s: stamps no format reads.
    QTest::newRow("ts default") << QByteArray("Nov 30 05:00:01 SeaBIOS (version 1.16.2)\n"
                                              "Nov 30 05:00:04 [    0.000000] Linux version 6.1\n"
                                              "Nov 30 05:00:04 [    0.000000] Command line:\n")
                                << true;
    QTest::newRow("ts custom") << QByteArray("[2026-11-30 05:00:01.300316] SeaBIOS\n"
                                             "[2026-11-30 05:00:04.765974] [    0.000000] Linux\n")
                               << true;
    QTest::newRow("ts -s") << QByteArray("00:00:00 SeaBIOS\n00:00:03.401 [    0.000000] Linux\n")
                           << true;
    // ISO 8601 with a zone (ts '%Y-%m-%dT%H:%M:%.S%z' and the like) and Tera Term's
    // timestamped log: no warning and their stamps counted as console bytes before.
    QTest::newRow("iso zone") << QByteArray(
                                     "2026-12-07T02:30:01.300316+00:00 SeaBIOS (version 1.16)\n"
                                     "2026-12-07T02:30:04.765974+0000 [    0.000000] Linux\n"
                                     "2026-12-07T02:30:04.766001Z [    0.000000] Command line\n")
                              << true;
    QTest::newRow("tera term") << QByteArray("[Mon Dec 07 02:30:01.300 2026] SeaBIOS (version)\n"
                                             "[Mon Dec 07 02:30:04.765 2026] [    0.000000] L\n")
                               << true;
    // Console text: no warning.
    QTest::newRow("raw") << QByteArray(
                                "SeaBIOS (version 1.16.2)\r\n[    0.000000] Linux version\r\n"
                                "[    0.000000] Command line: console=ttyS0\r\n")
                         << false;
    QTest::newRow("one stamped line of three")
        << QByteArray("12:00:00 x\n[    0.000000] Linux version\n[    0.1] y\n") << false;
}

// A file whose lines start with a date or time no format reads is read as raw text; it says
// why its host-time figures are n/a, rather than only showing them so.
void TstFormats::stampsNotRead()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, warned);
    const auto run = loadBytes(text);
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::Raw);
    QVERIFY(!run->hasArrival);
    const QString w = run->warnings.join(u'\n');
    QCOMPARE(w.contains(QLatin1String("does not read as the host's")), warned);
    // The stamps are a terminal program's text, not the console's bytes.
    QCOMPARE(rowsAbsentBecause(*run, QStringLiteral("a terminal's stamps in the text")),
             warned ? QStringList({"bytes", "wire_s"}) : QStringList());
    // Forced raw: the user knows.
    QVERIFY(!loadBytes(text, withFormat(QStringLiteral("raw")))
                 ->warnings.join(u'\n')
                 .contains(QLatin1String("does not read as the host's")));
}

// A grabserial log past the size that is parsed on the calling thread goes through the
// reader and the block parsers (stampedblocks.h): the 6.12-rt flood, stamped as grabserial
// -t stamps it, gives the truth's lines, kernel lines and drops, and each line the host-
// stamped log's arrival to the microsecond (both from the same stamps).
void TstFormats::bigGrabserialOnEveryCore()
{
    const QByteArray hostts = zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst"));
    double first = -1, before = -1;
    const QByteArray grab = restamped(hostts, [&](double t, const QByteArray &text) {
        first = first < 0 ? t : first;
        before = before < 0 ? t : before;
        const QByteArray line = '[' + QByteArray::number(t - first, 'f', 6) + ' ' +
                                QByteArray::number(t - before, 'f', 6) + "] " + text;
        before = t;
        return line;
    });
    QVERIFY(grab.size() > 256 * 1024); // past the calling thread's share
    QString error;
    const auto run = loadBytes(grab, LoadOptions{}, &error);
    const auto reference = loadBytes(hostts, LoadOptions{}, &error);
    QVERIFY2(run && reference, qPrintable(error));
    QCOMPARE(formatName(run->meta.format), QStringLiteral("grabserial"));
    QCOMPARE(run->lines.size(), LineCount(11365));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.kernelLines - m.kernelLinesBehindText, std::int64_t(9776));
    QCOMPARE(m.droppedMessages, std::int64_t(3881));
    const QString differs = differingLine(*run, *reference, 1'000); // the same microseconds
    QVERIFY2(differs.isEmpty(), qPrintable(differs));
}

void TstFormats::rawConserver()
{
    const QByteArray in("[-- Console up -- Thu Nov 30 05:00:00 2026]\r\n"
                        "[    0.000000] Linux version 6.1.0 (x)\r\n"
                        "[-- MARK -- Thu Nov 30 05:20:00 2026]\r\n"
                        "[    1.000000] next\r\n"
                        "[--  not a mark\r\n");
    const auto run = loadBytes(in);
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::Raw);
    QVERIFY(!run->hasArrival);
    QCOMPARE(run->metaLines, qint64(2));
    QCOMPARE(run->lines.size(), LineCount(3));
    QCOMPARE(lineText(*run, 1), QByteArray("[    1.000000] next"));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.lines, qint64(3));
    QCOMPARE(m.kernelLines, qint64(2));
    QCOMPARE(m.bytes, qint64(78)); // the three console lines with their CR LF, no mark
    QVERIFY(!m.hasLag());
}

// A day of conserver's MARKs in the flood, past the one-thread size: the marks are not
// console lines and not bytes on the wire.
void TstFormats::rawConserverMarksAreNotWireBytes()
{
    const QByteArray raw = zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/spam_rmmod-k612rt-smp4-115200-t1.raw.zst"));
    QVERIFY(raw.size() > 256 * 1024); // past the calling thread's share
    QByteArray marked("[-- Console up -- Thu Nov 30 05:00:00 2026]\r\n");
    qint64 marks = 1;
    qsizetype at = 0;
    for (int i = 0; at < raw.size(); ++i) {
        const qsizetype nl = raw.indexOf('\n', at);
        const qsizetype next = nl < 0 ? raw.size() : nl + 1;
        marked += raw.mid(at, next - at);
        at = next;
        if (i % 50 == 49) {
            marked += "[-- MARK -- Thu Nov 30 05:20:00 2026]\r\n";
            ++marks;
        }
    }
    const auto plain = loadBytes(raw);
    const auto run = loadBytes(marked);
    QVERIFY(plain && run);
    QCOMPARE(run->metaLines, marks);
    QCOMPARE(run->lines.size(), plain->lines.size());
    QCOMPARE(run->bytes, plain->bytes);
    QCOMPARE(run->bytes, qint64(raw.size()));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.droppedMessages, std::int64_t(3881));
    QCOMPARE(m.wireSeconds, computeMetrics(*plain, MetricOptions{}).wireSeconds);
}

void TstFormats::dmesg()
{
    const QByteArray in("[    0.000000] Linux version 6.12.117+deb12-rt-amd64 (x)\n"
                        "[    0.000000] Command line: console=ttyS0\n"
                        "[    2.000000] Run /init as init process\n");
    const auto run = loadBytes(in, withFormat(QStringLiteral("dmesg")));
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::Raw);
    QCOMPARE(run->kernelLines, qint64(3));
    QCOMPARE(run->boots[0].version, QStringLiteral("6.12.117+deb12-rt-amd64"));
    // Without host times a line is placed by its kernel time.
    QCOMPARE(run->timeOf(LineIndex(2)).value(), RunSeconds(2.0));
}

void TstFormats::kmsg()
{
    const QByteArray in("6,100,1000000,-;Linux version 6.1.0 (x)\n"
                        " SUBSYSTEM=acpi\n"
                        " DEVICE=+acpi:LNXSYSTM:00\n"
                        "4,101,1500000,-,caller=T1;second\n"
                        "30,104,2000000,-;after a gap of two\n"
                        "6,105,2000001,c;continued\n"
                        "12,109,3000000,-;a gap of three\n"
                        "garbage line\n");
    const auto run = loadBytes(in);
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::Kmsg);
    QVERIFY(!run->hasArrival);
    QCOMPARE(run->lines.size(), LineCount(6));
    QCOMPARE(lineText(*run, 0), QByteArray("Linux version 6.1.0 (x)"));
    QCOMPARE(run->lines.kernelTime(LineIndex(1)), KernelUs(1500000));
    QCOMPARE(run->lines.level(LineIndex(1)).value_or(-1), 4);
    QCOMPARE(run->lines.level(LineIndex(2)).value_or(-1), 6); // facility 3, level 6
    QCOMPARE(lineText(*run, 3), QByteArray("continued"));
    QVERIFY(!run->lines.kernelTime(LineIndex(5)));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.dropNotices, qint64(2));
    QCOMPARE(m.droppedMessages, qint64(2 + 3));
    // The kernel's log: no console bytes, times or lag, but its gaps are counted.
    QCOMPARE(rowsAbsentBecause(*run, QStringLiteral("a kernel log, not console output")),
             QStringList({"bytes", "wire_s", "duration_s", "lag.max_s", "lag.p50_s", "lag.p99_s",
                          "window.lines", "window.wire_s", "boot_time_s", "boot_time_kernel_s",
                          "boot_wire_share"}));
    std::vector<const Event *> drops;
    for (const Event &e : run->events) {
        if (e.kind == EventKind::Drop) {
            drops.push_back(&e);
        }
    }
    QCOMPARE(drops.size(), std::size_t(2));
    QCOMPARE(drops[0]->line, LineIndex(2)); // placed before the record after the gap
    QCOMPARE(drops[0]->count, 2u);
    QVERIFY(QString::fromStdString(std::string(run->eventText(*drops[0]).str()))
                .contains(QLatin1String("101 to 104")));
    const QString w = run->warnings.join(QLatin1Char(' '));
    QVERIFY2(w.contains(QLatin1String("2 dictionary line")), qPrintable(w));
    QVERIFY2(w.contains(QLatin1String("1 line(s) were not /dev/kmsg records")), qPrintable(w));
}

// A sequence number of garbage digits: a jump of 2^32 or more is no count, it does not wrap
// around to a small one.
void TstFormats::kmsgJumpOutOfRange()
{
    const QByteArray in("6,100,1000000,-;first\n"
                        "6,4294967398,2000000,-;a jump of 2^32 + 1 lost\n"
                        "6,4294967399,3000000,-;next\n");
    const auto run = loadBytes(in);
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::Kmsg);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.dropNotices, qint64(1));
    QCOMPARE(m.dropCountOutOfRange, std::optional<LineIndex>(LineIndex(1)));
}

// `nc -ul 6666 > file` of a netconsole with the `release` option: each record starts with
// the kernel's release, and is read as /dev/kmsg's, but as a console's records: a gap in
// their numbers is no known drop (the console skips records below its log level).
void TstFormats::kmsgWithRelease()
{
    const auto run = loadBytes("6.1.0-57-amd64,5,0,0,-;Linux version 6.1.0-57-amd64\n"
                               "6.1.0-57-amd64,6,1,1250,-;Command line: console=ttyS0\n"
                               "6.1.0-57-amd64,6,4,2500,-;after two records missing\n");
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::Kmsg);
    QCOMPARE(run->lines.size(), LineCount(3));
    QCOMPARE(lineText(*run, 1), QByteArray("Command line: console=ttyS0"));
    QCOMPARE(run->lines.kernelTime(LineIndex(1)), KernelUs(1250));
    QCOMPARE(run->warnings, QStringList());
    QCOMPARE(run->events.size(), std::size_t(2)); // the boot, and the gap
    QCOMPARE(run->events[1].kind, EventKind::Gap);
    QCOMPARE(run->events[1].line, LineIndex(2));
    QCOMPARE(run->events[1].count, 2u);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.dropsUnknown, QStringLiteral("2 record(s) missing: below the log level, dropped "
                                            "or lost"));

    // Without the release, the same records read as a /dev/kmsg reader's (gaps are drops)
    // unless given as raw text: then the headers stay in the text, and are a console's.
    const QByteArray plain("5,0,0,-;Linux version 6.1.0-57-amd64\n"
                           "6,1,1250,-;Command line: console=ttyS0\n"
                           "6,4,2500,-;after two records missing\n");
    LoadOptions raw;
    raw.format = QStringLiteral("raw");
    for (const bool asRaw : {false, true}) {
        const auto r = asRaw ? loadBytes(plain, raw) : loadBytes(plain);
        QVERIFY(r);
        QCOMPARE(r->meta.format, asRaw ? Format::Raw : Format::Kmsg);
        QCOMPARE(lineText(*r, 1), asRaw ? QByteArray("6,1,1250,-;Command line: console=ttyS0")
                                        : QByteArray("Command line: console=ttyS0"));
        QCOMPARE(r->lines.kernelTime(LineIndex(2)), KernelUs(2500));
        const Metrics rm = computeMetrics(*r, MetricOptions{});
        QCOMPARE(rm.dropsUnknown.isEmpty(), !asRaw);
        QCOMPARE(rm.droppedMessages, asRaw ? qint64(0) : qint64(2));
    }
}

// The extended form with host times (`nc -ul 6666 | ts '%.s'`): each line keeps its text,
// header and all, and has the header's kernel time and level; a gap in the record numbers
// is records missing, which may be drops or not (below the console's log level); a record's
// dictionary is no console line.
void TstFormats::netconsoleExtendedStamped()
{
    const auto run = loadBytes("1700000000.000000\t6,0,0,-;Linux version 6.1.0\n"
                               "1700000000.101000\t3,1,1000,-;pci 0000:00:01.0: BAR 0: failed\n"
                               "1700000000.101000\t SUBSYSTEM=pci\n"
                               "1700000000.101000\t DEVICE=+pci:0000:00:01.0\n"
                               "1700000000.202000\t6,5,2000,-;after a gap of three\n");
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::HostTs);
    QCOMPARE(run->lines.size(), LineCount(3));
    QCOMPARE(run->metaLines, 2);
    QCOMPARE(lineText(*run, 1), QByteArray("3,1,1000,-;pci 0000:00:01.0: BAR 0: failed"));
    QCOMPARE(run->lines.kernelTime(LineIndex(1)), KernelUs(1000));
    QCOMPARE(run->lines.level(LineIndex(1)).value_or(-1), 3);
    QCOMPARE(run->lines.kernelTime(LineIndex(2)), KernelUs(2000));
    QCOMPARE(run->warnings, QStringList());
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.dropsUnknown, QStringLiteral("3 record(s) missing: below the log level, dropped "
                                            "or lost"));
    QCOMPARE(m.kernelLines, qint64(3));
    // Lag: the host's clock against the kernel's from the first line, 0.1 s behind later.
    QVERIFY(m.lagMax);
    QCOMPARE(qRound(*m.lagMax * 1000), 200);
    const Event *gap = nullptr;
    for (const Event &e : run->events) {
        QVERIFY(e.kind != EventKind::Drop);
        gap = e.kind == EventKind::Gap ? &e : gap;
    }
    QVERIFY(gap);
    QCOMPARE(gap->line, LineIndex(2));
    QCOMPARE(gap->count, 3u);
    QCOMPARE(QString::fromStdString(std::string(run->eventText(*gap).str())),
             QStringLiteral("3 record(s) missing: the record numbers jump from 1 to 5 (below the "
                            "console's log level, dropped by printk, or lost on the network)"));

    // Without a gap, nothing was dropped: the drops are known, none.
    const auto whole = loadBytes("1700000000.000000\t6,0,0,-;Linux version 6.1.0\n"
                                 "1700000000.101000\t6,1,1000,-;next\n");
    QVERIFY(whole);
    const Metrics wm = computeMetrics(*whole, MetricOptions{});
    QCOMPARE(wm.dropsUnknown, QString());
    QCOMPARE(wm.droppedMessages, qint64(0));
    QVERIFY(whole->recordNumbers.seen);
}

void TstFormats::recordingFormat()
{
    for (bool compressed : {false, true}) {
        const QByteArray rec = recording();
        const auto run = loadBytes(compressed ? zstdCompress(rec) : rec);
        QVERIFY(run);
        QVERIFY2(!run->load.stoppedEarly(), qPrintable(run->load.message));
        QVERIFY2(run->warnings.isEmpty(), qPrintable(run->warnings.join(QLatin1Char(' '))));
        QCOMPARE(run->meta.format, Format::Ttyscope);
        QCOMPARE(run->meta.label, QStringLiteral("stock kernel"));
        QCOMPARE(run->meta.baud, 921600);
        QCOMPARE(run->meta.host, QStringLiteral("lab1"));
        QCOMPARE(run->meta.startUtc, QStringLiteral("2023-11-14T22:13:20Z"));
        QVERIFY(run->arrivalIsWallClock);
        QCOMPARE(run->lines.size(), LineCount(4));
        QCOMPARE(lineText(*run, 0), QByteArray("[    1.000000] first line"));
        QCOMPARE(lineText(*run, 1), QByteArray("[    1.500000] second"));
        QCOMPARE(lineText(*run, 2), QByteArray("third \x00\xff", 8));
        QCOMPARE(lineText(*run, 3), QByteArray("login: "));
        QVERIFY(run->lines.flags(LineIndex(3)) & NoNewline);
        // Arrival: the D record holding the first byte, on the monotonic clock.
        QCOMPARE(run->lines.arrival(LineIndex(0)), HostNs(kWall0 + 1000000));
        QCOMPARE(run->lines.arrival(LineIndex(1)), HostNs(kWall0 + 2000000));
        QCOMPARE(run->lines.arrival(LineIndex(2)), HostNs(kWall0 + 4000000));
        QCOMPARE(run->lines.arrival(LineIndex(3)), HostNs(kWall0 + 10000000));
        // Every received byte counts, line endings included.
        QCOMPARE(run->bytes, qint64(23 + 27 + 11 + 7));

        std::vector<std::pair<EventKind, QByteArray>> notes;
        for (const Event &e : run->events) {
            if (e.note) {
                const std::string t = run->eventText(e).str();
                notes.emplace_back(e.kind, QByteArray(t.data(), qsizetype(t.size())));
                QVERIFY(e.arrival.has_value());
            }
        }
        QCOMPARE(notes.size(), std::size_t(3));
        QCOMPARE(notes[0].first, EventKind::Marker);
        QCOMPARE(notes[0].second, QByteArray("before rmmod"));
        QCOMPARE(notes[1].first, EventKind::Gap);
        QVERIFY(notes[1].second.contains("EIO"));
        QCOMPARE(notes[2].first, EventKind::Gap);
        QVERIFY(notes[2].second.contains("resumed"));
        const Metrics m = computeMetrics(*run, MetricOptions{});
        QCOMPARE(m.eventCounts[std::size_t(EventKind::Marker)], qint64(1));
        QCOMPARE(m.eventCounts[std::size_t(EventKind::Gap)], qint64(2));
    }
}

// Cut anywhere: everything before the cut loads; cut inside a D record keeps its bytes.
void TstFormats::recordingCut()
{
    const QByteArray rec = recording();
    const qsizetype secondD = rec.indexOf("D ", rec.indexOf("first li"));
    const qsizetype payload = rec.indexOf('\n', secondD) + 1;
    const auto run = loadBytes(rec.left(payload + 8)); // "ne\r\n[   "
    QVERIFY(run);
    QVERIFY(!run->load.stoppedEarly());
    QCOMPARE(run->lines.size(), LineCount(2));
    QCOMPARE(lineText(*run, 0), QByteArray("[    1.000000] first line"));
    QCOMPARE(lineText(*run, 1), QByteArray("[   "));
    const QString w = run->warnings.join(QLatin1Char(' '));
    QVERIFY2(w.contains(QLatin1String("ends inside a 'D' record: 8 of its 27 bytes")),
             qPrintable(w));

    for (qsizetype cut = 1; cut < rec.size(); ++cut) {
        const auto r = loadBytes(zstdCompress(rec.left(cut)));
        QVERIFY(r);
        QCOMPARE(r->meta.format, Format::Ttyscope);
        QVERIFY2(r->lines.size() <= 4_lines, qPrintable(QString::number(cut)));
        for (LineIndex i{0}; i < r->lines.endIndex(); ++i) {
            QVERIFY(!lineText(*r, i).isNull());
        }
        if (cut >= payload + 27) {
            QVERIFY(r->lines.size() >= 2_lines);
        }
    }
}

void TstFormats::recorderWarningsOfAKindAreOne()
{
    // A flooding console behind a slow GUI: the capture warns about every second that its
    // live view fell behind. 3,600 warnings of one kind are one entry, not a screen of them.
    QByteArray rec("TTYSCOPE-REC 1\n");
    rec += recordingRecord('D', kWall0, 1000, "[    1.000000] flood\n");
    for (int i = 0; i < 3600; ++i) {
        rec += recordingRecord('W', kWall0 + i, 1000 + i,
                               "the live view fell behind: " + QByteArray::number(100 + i) +
                                   " bytes are not shown here (they are in the recording)");
        if (i == 10) {
            rec += recordingRecord('W', kWall0 + i, 1000 + i, "a write to the recording failed");
        }
    }
    const auto run = loadBytes(rec);
    QVERIFY(run);
    QCOMPARE(run->warnings.filter(QStringLiteral("recorder: ")),
             QStringList({QStringLiteral("recorder: the live view fell behind: 100 bytes are not "
                                         "shown here (they are in the recording) (the first of "
                                         "3600 such warnings)"),
                          QStringLiteral("recorder: a write to the recording failed")}));
}

void TstFormats::recordingGarbage()
{
    QByteArray rec = recording();
    const qsizetype at = rec.indexOf("M ");
    rec.insert(at, "garbage that is no header\n");
    const auto run = loadBytes(rec);
    QVERIFY(run);
    QCOMPARE(run->load.outcome, LoadOutcome::Damaged);
    QVERIFY2(run->load.message.contains(QStringLiteral("byte %1").arg(at)),
             qPrintable(run->load.message));
    QCOMPARE(run->lines.size(), LineCount(2));
}

void TstFormats::formatOverride()
{
    const QByteArray in("1700000000.250000\t[    1.000000] one\n1700000001.0\ttwo\n");
    auto run = loadBytes(in, withFormat(QStringLiteral("raw")));
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::Raw);
    QVERIFY(!run->hasArrival);
    QCOMPARE(lineText(*run, 0), QByteArray("1700000000.250000\t[    1.000000] one"));

    run = loadBytes(in, withFormat(QStringLiteral("host")));
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::HostTs);

    QString error;
    run = loadBytes(in, withFormat(QStringLiteral("nonsense")), &error);
    QVERIFY(!run);
    QVERIFY2(error.contains(QLatin1String("unknown format 'nonsense'")), qPrintable(error));
    QVERIFY(error.contains(QLatin1String("grabserial")));
    QCOMPARE(canonicalFormat(QStringLiteral("conserver")), std::optional(Format::Raw));
    QCOMPARE(canonicalFormat(QStringLiteral("KMSG")), std::optional(Format::Kmsg));
    QCOMPARE(canonicalFormat(QStringLiteral("nonsense")), std::optional<Format>());
    QCOMPARE(formatNames().size(), 13);
}

// The format table is the one place formats are described: its names, aliases and clocks
// are what the loader, the metrics and the report used to spell out one by one.
void TstFormats::registry()
{
    QCOMPARE(formatNames(),
             QStringList({QStringLiteral("ttyscope"), QStringLiteral("dmesg-json"),
                          QStringLiteral("journal-json"), QStringLiteral("journal-export"),
                          QStringLiteral("lava"), QStringLiteral("journal-short"),
                          QStringLiteral("dmesg-text"), QStringLiteral("hostts"),
                          QStringLiteral("ts"), QStringLiteral("tio"), QStringLiteral("grabserial"),
                          QStringLiteral("kmsg"), QStringLiteral("raw")}));
    QStringList seen;
    for (const FormatInfo &f : formatTable()) {
        QCOMPARE(formatInfo(f.id).name, f.name);
        const QStringList names = QStringList(f.aliases) << f.name;
        for (const QString &n : names) {
            QVERIFY2(!seen.contains(n), qPrintable(n)); // one row per name or alias
            seen << n;
            QCOMPARE(canonicalFormat(n), std::optional(f.id));
            QCOMPARE(canonicalFormat(n.toUpper()), std::optional(f.id));
        }
        // A record parser, or lines for the block parser (independent, or stamped by the
        // reader); a detector unless it is the fallback.
        QVERIFY2(f.makeParser || f.id == Format::HostTs || f.id == Format::Ts ||
                     f.id == Format::Raw || f.id == Format::Ttyscope || f.id == Format::Tio ||
                     f.id == Format::Grabserial,
                 qPrintable(f.name));
        QVERIFY2((f.matchesHead || f.looksLikeLine) != (f.id == Format::Raw), qPrintable(f.name));
    }
    QCOMPARE(canonicalFormat(QStringLiteral("auto")), std::optional<Format>());
    QCOMPARE(formatName(Format::Unknown), QString());
    QVERIFY(!formatInfo(Format::Unknown).bytesExact);

    struct Clocks
    {
        Format id;
        bool arrival, wall, exact;
        int ending;
    };
    for (const Clocks &c :
         {Clocks{Format::Ttyscope, true, true, true, 2},
          Clocks{Format::HostTs, true, true, false, 2}, Clocks{Format::Ts, true, true, false, 2},
          Clocks{Format::Grabserial, true, false, false, 2},
          Clocks{Format::Tio, true, false, false, 2}, Clocks{Format::Kmsg, false, false, false, 1},
          Clocks{Format::Lava, true, true, false, 2},
          // journald's times are when it read the kernel's log, no console's arrivals.
          Clocks{Format::JournalJson, false, false, false, 2},
          Clocks{Format::JournalExport, false, false, false, 2},
          Clocks{Format::JournalShort, false, false, false, 2},
          Clocks{Format::DmesgJson, false, false, false, 2},
          Clocks{Format::DmesgText, false, false, false, 2},
          Clocks{Format::Raw, false, false, true, 2}}) {
        const FormatInfo &f = formatInfo(c.id);
        QCOMPARE(f.hasArrival, c.arrival);
        QCOMPARE(f.arrivalIsWallClock, c.wall);
        QCOMPARE(f.bytesExact, c.exact);
        QCOMPARE(f.lineEndingBytes, c.ending);
        QCOMPARE(f.kernelTimeInRecord, c.id == Format::Kmsg || c.id == Format::JournalJson ||
                                           c.id == Format::JournalExport ||
                                           c.id == Format::JournalShort ||
                                           c.id == Format::DmesgJson || c.id == Format::DmesgText);
        // The kernel's log read from its buffer, not what a console printed; kmsg's too, but
        // its sequence gaps are the messages its reader lost, which it counts as drops.
        const bool kernelLog = c.id == Format::JournalJson || c.id == Format::JournalExport ||
                               c.id == Format::JournalShort || c.id == Format::DmesgJson ||
                               c.id == Format::DmesgText || c.id == Format::Kmsg;
        QCOMPARE(f.consoleOutput, !kernelLog);
        QCOMPARE(f.dropsKnown, !kernelLog || c.id == Format::Kmsg);
    }
}

void TstFormats::loadOutcomes()
{
    QCOMPARE(worse(LoadOutcome::Truncated, LoadOutcome::Damaged), LoadOutcome::Damaged);
    QCOMPARE(worse(LoadOutcome::Cancelled, LoadOutcome::Complete), LoadOutcome::Cancelled);
    QCOMPARE(worse(LoadOutcome::Cancelled, LoadOutcome::Unreadable), LoadOutcome::Unreadable);
    QCOMPARE(exitStatus(LoadOutcome::Complete), 0);
    QCOMPARE(exitStatus(LoadOutcome::Truncated), 3);
    QCOMPARE(exitStatus(LoadOutcome::Damaged), 3);
    QCOMPARE(exitStatus(LoadOutcome::Cancelled), 3);
    QCOMPARE(exitStatus(LoadOutcome::Unreadable), 1);

    // A cut inside a record, then damage: the damage is what is reported.
    LoadStatus s;
    s.truncate(QStringLiteral("cut"));
    QCOMPARE(s.outcome, LoadOutcome::Truncated);
    QVERIFY(s.readInPart() && !s.stoppedEarly());
    s.stop(LoadOutcome::Damaged, QStringLiteral("corrupt"));
    s.truncate(QStringLiteral("cut again"));
    QCOMPARE(s.outcome, LoadOutcome::Damaged);
    QCOMPARE(s.message, QStringLiteral("corrupt"));
    QVERIFY(s.stoppedEarly());

    const auto run = loadBytes("[    1.000000] one\n");
    QVERIFY(run);
    QCOMPARE(run->load.outcome, LoadOutcome::Complete);
    QVERIFY(run->load.message.isEmpty());
}

QTEST_GUILESS_MAIN(TstFormats)
#include "tst_formats.moc"
