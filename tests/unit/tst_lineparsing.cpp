// Line framing and the kernel prefix: line endings, CRs, final fragments, escape codes
// before the timestamp, levels, caller ids, bytes kept exactly, huge lines, garbage.
#include "consolerate.h"
#include "kernelprefix.h"
#include "lineframer.h"
#include "linetable.h"
#include "metrics.h"
#include "runloader.h"
#include "tst_helpers.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QtTest>

using namespace tty;
using namespace testutil;

Q_DECLARE_METATYPE(QList<QByteArray>)

class TstLineParsing : public QObject
{
    Q_OBJECT
private slots:
    void framing_data();
    void framing();
    void framingAcrossChunks();
    void prefix_data();
    void prefix();
    void consoleRate_data();
    void consoleRate();
    void escapeBeforeTimestamp();
    void bytesKeptExactly();
    void hugeLine();
    void endlessLine_data();
    void endlessLine();
    void binaryGarbage();
    void timestampsThatLostDigits();
};

void TstLineParsing::framing_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QList<QByteArray>>("lines");
    QTest::addColumn<bool>("lastHasNewline");
    using L = QList<QByteArray>;
    QTest::newRow("LF") << QByteArray("a\nb\n") << L{"a", "b"} << true;
    QTest::newRow("CRLF") << QByteArray("a\r\nb\r\n") << L{"a", "b"} << true;
    QTest::newRow("CRCRLF (ONLCR)") << QByteArray("a\r\r\nb\r\r\n") << L{"a", "b"} << true;
    QTest::newRow("CR inside kept")
        << QByteArray("10%\r20%\r100%\r\n") << L{"10%\r20%\r100%"} << true;
    QTest::newRow("final fragment") << QByteArray("a\nlogin: ") << L{"a", "login: "} << false;
    QTest::newRow("empty lines") << QByteArray("\n\r\n\n") << L{"", "", ""} << true;
    QTest::newRow("lone CR at end") << QByteArray("a\r") << L{"a\r"} << false;
}

void TstLineParsing::framing()
{
    QFETCH(QByteArray, input);
    QFETCH(QList<QByteArray>, lines);
    QFETCH(bool, lastHasNewline);
    const auto run = loadBytes(input, withFormat(QStringLiteral("raw")));
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(lines.size()));
    for (int i = 0; i < lines.size(); ++i) {
        QCOMPARE(lineText(*run, i), lines[i]);
    }
    QCOMPARE(!(run->lines.flags(run->lines.endIndex() - 1_lines) & NoNewline), lastHasNewline);
    QCOMPARE(run->bytes, qint64(input.size()));
}

// The framer sees the stream in arbitrary chunks: every split gives the same lines.
void TstLineParsing::framingAcrossChunks()
{
    const QByteArray input("first\r\r\nsecond\rstill\r\n\nlast");
    for (int cut = 0; cut <= input.size(); ++cut) {
        LineFramer f;
        QList<QByteArray> got;
        auto sink = [&](const LineFramer::Line &l) {
            got << QByteArray(l.text.data(), qsizetype(l.text.size()));
        };
        f.feed(input.constData(), std::size_t(cut), HostNs(1), sink);
        f.feed(input.constData() + cut, std::size_t(input.size() - cut), HostNs(2), sink);
        f.finish(sink);
        QCOMPARE(got, (QList<QByteArray>{"first", "second\rstill", "", "last"}));
    }
}

void TstLineParsing::prefix_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<qint64>("time");
    QTest::addColumn<int>("level");
    QTest::addColumn<char>("callerKind");
    QTest::addColumn<int>("callerId");
    QTest::addColumn<bool>("atStart");
    QTest::addColumn<QByteArray>("message");
    QTest::newRow("plain") << QByteArray("[   12.345678] hello") << qint64(12345678) << -1 << '\0'
                           << -1 << true << QByteArray("hello");
    QTest::newRow("no padding") << QByteArray("[12345.000001] x") << qint64(12345000001) << -1
                                << '\0' << -1 << true << QByteArray("x");
    QTest::newRow("level") << QByteArray("<6>[    0.000000] Linux version 6.1") << qint64(0) << 6
                           << '\0' << -1 << true << QByteArray("Linux version 6.1");
    QTest::newRow("caller task") << QByteArray("[   12.345678][  T123] text") << qint64(12345678)
                                 << -1 << 'T' << 123 << true << QByteArray("text");
    QTest::newRow("caller cpu") << QByteArray("[    1.000000][    C1] text") << qint64(1000000)
                                << -1 << 'C' << 1 << true << QByteArray("text");
    QTest::newRow("caller without time")
        << QByteArray("[  T1] init") << qint64(-1) << -1 << 'T' << 1 << true << QByteArray("init");
    QTest::newRow("caller cpu no pad")
        << QByteArray("[C0] msg") << qint64(-1) << -1 << 'C' << 0 << true << QByteArray("msg");
    QTest::newRow("level caller") << QByteArray("<3>[    5.500000][ T42] err") << qint64(5500000)
                                  << 3 << 'T' << 42 << true << QByteArray("err");
    QTest::newRow("userspace") << QByteArray("[  OK  ] Started Journal Service.") << qint64(-1)
                               << -1 << '\0' << -1 << true
                               << QByteArray("[  OK  ] Started Journal Service.");
    QTest::newRow("continuation") << QByteArray("  ? __warn+0x7d/0xc0") << qint64(-1) << -1 << '\0'
                                  << -1 << true << QByteArray("  ? __warn+0x7d/0xc0");
    QTest::newRow("login prompt then time")
        << QByteArray("corpusvm login: [   50.000001] reboot: Power down") << qint64(50000001) << -1
        << '\0' << -1 << false << QByteArray("reboot: Power down");
    QTest::newRow("pre-5.10 drop glued")
        << QByteArray("** 3 printk messages dropped ** [    7.000000] next") << qint64(7000000)
        << -1 << '\0' << -1 << false << QByteArray("next");
    // Amlogic's vendor kernels (4.9, 4.19: Khadas, Odroid, Chromecast boards).
    QTest::newRow("amlogic cpu") << QByteArray("[   12.345678@3] mmc0: new HS200 MMC card")
                                 << qint64(12345678) << -1 << '\0' << -1 << true
                                 << QByteArray("mmc0: new HS200 MMC card");
    QTest::newRow("amlogic after garbage")
        << QByteArray("\x1b[0m[    0.000000@0] Booting Linux") << qint64(0) << -1 << '\0' << -1
        << false << QByteArray("Booting Linux");
    QTest::newRow("at without cpu") << QByteArray("[   12.345678@] x") << qint64(-1) << -1 << '\0'
                                    << -1 << true << QByteArray("[   12.345678@] x");
    QTest::newRow("bracket not a time") << QByteArray("[ 1.2.3] x") << qint64(-1) << -1 << '\0'
                                        << -1 << true << QByteArray("[ 1.2.3] x");
    QTest::newRow("unterminated") << QByteArray("[   12.345678") << qint64(-1) << -1 << '\0' << -1
                                  << true << QByteArray("[   12.345678");
    QTest::newRow("empty") << QByteArray() << qint64(-1) << -1 << '\0' << -1 << true
                           << QByteArray();
    // Digits a UART lost (a real 6.1 capture under a loaded QEMU): the prefix is still one
    // (the message and its rules are found) but its time is none, not 0.04 or 23.1256.
    QTest::newRow("fraction digits lost")
        << QByteArray("[    0.0400] tsc: using HPET reference calibrion") << qint64(-1) << -1
        << '\0' << -1 << true << QByteArray("tsc: using HPET reference calibrion");
    QTest::newRow("seconds lost") << QByteArray("[   .000000] AGP: No AGP bridge found")
                                  << qint64(-1) << -1 << '\0' << -1 << true
                                  << QByteArray("AGP: No AGP bridge found");
    QTest::newRow("seven digits") << QByteArray("[   23.1256150] Kernel panic - not syncing: x")
                                  << qint64(-1) << -1 << '\0' << -1 << true
                                  << QByteArray("Kernel panic - not syncing: x");
    QTest::newRow("level, digits lost") << QByteArray("<4>[ 1.0] Call Trace:") << qint64(-1) << 4
                                        << '\0' << -1 << true << QByteArray("Call Trace:");
    // netconsole's extended form (kmsgheader.h): the record header is the prefix.
    QTest::newRow("record header") << QByteArray("6,416,1758426,-;eth0: link up") << qint64(1758426)
                                   << 6 << '\0' << -1 << true << QByteArray("eth0: link up");
    QTest::newRow("record, facility")
        << QByteArray("12,607,22085407756,-;from user space") << qint64(22085407756) << 4 << '\0'
        << -1 << true << QByteArray("from user space");
    QTest::newRow("record, release first")
        << QByteArray("6.12.0-rt-amd64,6,444,501151268,-;netconsole: network logging started")
        << qint64(501151268) << 6 << '\0' << -1 << true
        << QByteArray("netconsole: network logging started");
    QTest::newRow("record, caller") << QByteArray("4,1200,5012345,-,caller=T1;x") << qint64(5012345)
                                    << 4 << 'T' << 1 << true << QByteArray("x");
    QTest::newRow("record, fragment")
        << QByteArray("6,416,1758426,c,ncfrag=0/1900;first") << qint64(1758426) << 6 << '\0' << -1
        << true << QByteArray("first");
    // Past any uptime: a header, its time none (not a time in the year 33658), as a
    // bracketed time's.
    QTest::newRow("record, time past any uptime")
        << QByteArray("6,1,999999999999999999,-;x") << qint64(-1) << 6 << '\0' << -1 << true
        << QByteArray("x");
    QTest::newRow("digits, no header")
        << QByteArray("8250: ttyS0 at I/O 0x3f8 (irq = 4)") << qint64(-1) << -1 << '\0' << -1
        << true << QByteArray("8250: ttyS0 at I/O 0x3f8 (irq = 4)");
    QTest::newRow("not a flag") << QByteArray("1,2,3,x;y") << qint64(-1) << -1 << '\0' << -1 << true
                                << QByteArray("1,2,3,x;y");
    QTest::newRow("too many digits")
        << QByteArray("6,1,1234567890123456789,-;x") << qint64(-1) << -1 << '\0' << -1 << true
        << QByteArray("6,1,1234567890123456789,-;x");
    QTest::newRow("fields without end")
        << QByteArray("6,1,2,-,key=value with spaces;x") << qint64(-1) << -1 << '\0' << -1 << true
        << QByteArray("6,1,2,-,key=value with spaces;x");
    QTest::newRow("release without header") << QByteArray("6.1, the kernel") << qint64(-1) << -1
                                            << '\0' << -1 << true << QByteArray("6.1, the kernel");
}

void TstLineParsing::prefix()
{
    QFETCH(QByteArray, line);
    QFETCH(qint64, time);
    QFETCH(int, level);
    QFETCH(char, callerKind);
    QFETCH(int, callerId);
    QFETCH(bool, atStart);
    QFETCH(QByteArray, message);
    const KernelPrefix p = parseKernelPrefix(std::string_view(line.constData(), line.size()));
    QCOMPARE(p.time ? p.time->count() : qint64(-1), time);
    QCOMPARE(p.level.value_or(-1), level); // -1: the table's "no level printed"
    QCOMPARE(p.caller ? p.caller->kind : '\0', callerKind);
    QCOMPARE(p.caller ? p.caller->id : -1, callerId);
    QCOMPARE(p.timeAt == 0, atStart);
    QCOMPARE(line.mid(qsizetype(p.message)), message);
    // A prefix skipped without a time or a caller is a damaged time.
    QCOMPARE(p.timeDamaged, !p.time && !p.caller && p.message > 0);
}

// A real capture whose UART lost characters in its first 300 lines (Debian 6.1, 4 CPUs
// under a loaded QEMU; tests/fixtures/blast/README.md): lines whose timestamp lost digits
// count as lines without a kernel time, as `grep -c '^\[ *[0-9]*\.[0-9]\{6\}\]'` counts
// (4541 of 5974), the report says how many and where the first is, and their events are
// found all the same.
void TstLineParsing::timestampsThatLostDigits()
{
    QString error;
    const auto run = loadRun(QStringLiteral(TTYSCOPE_FIXTURES "/blast/lost-digits.hostts.log.zst"),
                             LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.lines, qint64(5974));
    QCOMPARE(m.kernelLines, qint64(4541));
    QCOMPARE(m.kernelLinesBehindText, qint64(0));
    QCOMPARE(run->warnings,
             QStringList{QStringLiteral(
                 "23 line(s) began with a kernel timestamp that is not printk's (first: line 3, "
                 "'[    0.0000]'): characters were lost on the line; they count as lines without "
                 "a kernel time")});
    QVERIFY(!run->lines.kernelTime(LineIndex(96))); // line 97: "[    0.0400] tsc: using HPET …"
    QVERIFY(run->lines.flags(LineIndex(96)) & KernelTimeDamaged);
    QCOMPARE(run->lines.kernelTime(LineIndex(95)), KernelUs(40000)); // line 96, whole

    // The same from a few lines of raw text, and from a live console's lines.
    const auto small = loadBytes("[    1.000000] a\n[    1.0] b\n[   .500000] c\n");
    QVERIFY(small);
    QCOMPARE(small->warnings,
             QStringList{QStringLiteral(
                 "2 line(s) began with a kernel timestamp that is not printk's (first: line 2, "
                 "'[    1.0]'): characters were lost on the line; they count as lines without "
                 "a kernel time")});
    QCOMPARE(computeMetrics(*small, MetricOptions{}).kernelLines, qint64(1));
}

// SeaBIOS/firmware escape codes before the kernel's first line (as in the real samples):
// the timestamp is found, the line is flagged, the text kept, and rules still match.
void TstLineParsing::escapeBeforeTimestamp()
{
    const QByteArray input("\x1b"
                           "c\x1b[?7l\x1b[2J\x1b[0mSeaBIOS (version 1.16.2)\r\n"
                           "\x1b"
                           "c\x1b[?7l\x1b[2J[    0.000000] Linux version 6.1.0-57-amd64 (x)\r\n"
                           "[    0.100000] Kernel panic - not syncing: test\r\n");
    const auto run = loadBytes(input);
    QVERIFY(run);
    QCOMPARE(run->meta.format, Format::Raw);
    QCOMPARE(run->lines.size(), LineCount(3));
    QVERIFY(!run->lines.kernelTime(LineIndex(0)));
    QCOMPARE(run->lines.kernelTime(LineIndex(1)), KernelUs(0));
    QVERIFY(run->lines.flags(LineIndex(1)) & KernelTimeNotAtStart);
    QVERIFY(!(run->lines.flags(LineIndex(2)) & KernelTimeNotAtStart));
    QVERIFY(lineText(*run, 1).startsWith("\x1b"
                                         "c\x1b[?7l"));
    QCOMPARE(run->boots.size(), std::size_t(1));
    QCOMPARE(run->boots[0].version, QStringLiteral("6.1.0-57-amd64"));
    bool boot = false, panic = false;
    for (const Event &e : run->events) {
        boot = boot || (e.kind == EventKind::Boot && e.line == LineIndex(1));
        panic = panic || (e.kind == EventKind::Panic && e.line == LineIndex(2));
    }
    QVERIFY(boot);
    QVERIFY(panic);
}

void TstLineParsing::bytesKeptExactly()
{
    QByteArray input;
    input += QByteArray("[    1.000000] nul\0inside\r\n", 27);
    input += QByteArray("[    2.000000] bad utf8 \xff\xfe\xc3\x28 end\r\n");
    input += QByteArray("\0\0\0\n", 4);
    for (const QString &format : {QStringLiteral("raw"), QStringLiteral("auto")}) {
        const auto run = loadBytes(input, withFormat(format));
        QVERIFY(run);
        QCOMPARE(run->lines.size(), LineCount(3));
        QCOMPARE(lineText(*run, 0), QByteArray("[    1.000000] nul\0inside", 25));
        QCOMPARE(lineText(*run, 1), QByteArray("[    2.000000] bad utf8 \xff\xfe\xc3\x28 end"));
        QCOMPARE(lineText(*run, 2), QByteArray(3, '\0'));
        QCOMPARE(run->lines.kernelTime(LineIndex(1)), KernelUs(2000000));
    }
    // Host-timestamped too.
    const auto ts = loadBytes(QByteArray("1700000000.5\tbad \xff\0byte\n", 24));
    QVERIFY(ts);
    QCOMPARE(ts->meta.format, Format::HostTs);
    QCOMPARE(lineText(*ts, 0), QByteArray("bad \xff\0byte", 10));
}

void TstLineParsing::hugeLine()
{
    QByteArray input("[    1.000000] before\n");
    const qsizetype huge = 50 * 1024 * 1024;
    input += QByteArray(huge, 'x');
    input += "\n[    2.000000] after\n";
    QElapsedTimer t;
    t.start();
    const auto run = loadBytes(zstdCompress(input));
    QVERIFY(run);
    QVERIFY2(t.elapsed() < 20000, "a 50 MB line must not make loading crawl");
    QCOMPARE(run->lines.size(), LineCount(3));
    QCOMPARE(qsizetype(run->lines.text(LineIndex(1)).size()), huge);
    QVERIFY(!(run->lines.flags(LineIndex(1)) & (Split | NoNewline)));
    QCOMPARE(lineText(*run, 2), QByteArray("[    2.000000] after"));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.lines, qint64(3));
}

void TstLineParsing::endlessLine_data()
{
    QTest::addColumn<QString>("format");
    QTest::newRow("raw (parsed in blocks)") << QStringLiteral("raw");
    QTest::newRow("grabserial (parsed in order)") << QStringLiteral("grabserial");
}

void TstLineParsing::endlessLine()
{
    // Past 64 MiB a line is cut: the piece is flagged as continued, the rest is the next
    // line, every byte is kept, and the run says so.
    QFETCH(QString, format);
    const qsizetype max = qsizetype(LineFramer::kDefaultMaxLine);
    QByteArray input("before\n");
    input += QByteArray(max + 1000, 'x');
    input += "\nafter\n";
    const auto run = loadBytes(input, withFormat(format));
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(4));
    QCOMPARE(qsizetype(run->lines.text(LineIndex(1)).size()), max);
    QVERIFY(run->lines.flags(LineIndex(1)) & Split);
    QCOMPARE(qsizetype(run->lines.text(LineIndex(2)).size()), qsizetype(1000));
    QVERIFY(!(run->lines.flags(LineIndex(2)) & (Split | NoNewline)));
    QCOMPARE(lineText(*run, 3), QByteArray("after"));
    QVERIFY2(run->warnings.join('\n').contains(QLatin1String("ran past 64 MiB")),
             qPrintable(run->warnings.join('\n')));
}

void TstLineParsing::binaryGarbage()
{
    QRandomGenerator rng(1234);
    QByteArray garbage(1 << 20, Qt::Uninitialized);
    for (char &c : garbage) {
        c = char(rng.bounded(256));
    }
    for (const QString &format :
         {QStringLiteral("auto"), QStringLiteral("raw"), QStringLiteral("hostts"),
          QStringLiteral("grabserial"), QStringLiteral("kmsg")}) {
        QString error;
        const auto run = loadBytes(garbage, withFormat(format), &error);
        QVERIFY2(run, qPrintable(error));
        const qint64 newlines = garbage.count('\n');
        QVERIFY(run->lines.size().count() == newlines + (garbage.endsWith('\n') ? 0 : 1) ||
                format == QLatin1String("kmsg"));
        const Metrics m = computeMetrics(*run, MetricOptions{});
        QCOMPARE(m.lines, run->lines.size().count());
    }
}

// The rate a kernel command line states for its serial console (consolerate.h).
void TstLineParsing::consoleRate_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<int>("baud"); // 0: none stated
    QTest::addColumn<QString>("console");
    QTest::newRow("x86") << QByteArray("console=ttyS0,115200 panic=0 scenario=boot_login") << 115200
                         << "console=ttyS0,115200";
    QTest::newRow("options") << QByteArray("root=/dev/vda console=tty0 console=ttyS0,38400n8")
                             << 38400 << "console=ttyS0,38400n8";
    QTest::newRow("arm") << QByteArray("console=ttyAMA0,1500000 earlycon") << 1500000
                         << "console=ttyAMA0,1500000";
    QTest::newRow("8250 by address") << QByteArray("console=uart8250,io,0x3f8,9600n8") << 9600
                                     << "console=uart8250,io,0x3f8,9600n8";
    QTest::newRow("two at one rate") << QByteArray("console=ttyS0,115200 console=ttyS1,115200n8")
                                     << 115200 << "console=ttyS0,115200";
    QTest::newRow("two at two rates")
        << QByteArray("console=ttyS0,115200 console=ttyS1,9600") << 0 << QString();
    // The kernel keeps a console's first `console=` and its options.
    QTest::newRow("one named twice") << QByteArray("console=ttyS0,115200 console=ttyS0,9600")
                                     << 115200 << "console=ttyS0,115200";
    QTest::newRow("first without a rate")
        << QByteArray("console=ttyS0 console=ttyS0,115200") << 0 << QString();
    QTest::newRow("8250 named twice")
        << QByteArray("console=uart8250,io,0x3f8,9600n8 console=uart8250,io,0x3f8,115200") << 9600
        << "console=uart8250,io,0x3f8,9600n8";
    QTest::newRow("no rate") << QByteArray("console=ttyS0 quiet") << 0 << QString();
    QTest::newRow("a screen") << QByteArray("console=tty0 console=tty1,115200") << 0 << QString();
    QTest::newRow("hypervisor") << QByteArray("console=hvc0") << 0 << QString();
    QTest::newRow("usb gadget") << QByteArray("console=ttyGS0,115200") << 0 << QString();
    QTest::newRow("init's") << QByteArray("ro -- console=ttyS0,9600") << 0 << QString();
    QTest::newRow("out of range") << QByteArray("console=ttyS0,99999999999") << 0 << QString();
    QTest::newRow("not a number") << QByteArray("console=ttyS0,fast") << 0 << QString();
    QTest::newRow("empty") << QByteArray() << 0 << QString();
}

void TstLineParsing::consoleRate()
{
    QFETCH(QByteArray, line);
    QFETCH(int, baud);
    QFETCH(QString, console);
    const std::optional<StatedRate> r =
        consoleRateOfCommandLine(std::string_view(line.constData(), std::size_t(line.size())));
    QCOMPARE(r ? r->baud : 0, baud);
    QCOMPARE(r ? r->console : QString(), console);
}

QTEST_GUILESS_MAIN(TstLineParsing)
#include "tst_lineparsing.moc"
