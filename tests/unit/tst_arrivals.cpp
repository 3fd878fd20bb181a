// When kernel text that shares its line with other text arrived (capture/bootstart.h). A
// line's host time is its first byte's; the kernel's text behind a boot loader's or a
// prompt's bytes on the same line came later, by seconds on the real captures.
#include "alignment.h"
#include "bootstart.h"
#include "consolerate.h"
#include "metrics.h"
#include "report.h"
#include "tst_helpers.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace tty;
using namespace testutil;

class TstArrivals : public QObject
{
    Q_OBJECT
private slots:
    void fasterThanTheDefaultBaud();
    void fastConsoleOnTime_data();
    void fastConsoleOnTime();
    void slowerThanTheDefaultBaud_data();
    void slowerThanTheDefaultBaud();
    void samplesKeepTheDefaultBaud();
    void rateOnTheKernelCommandLine_data();
    void rateOnTheKernelCommandLine();
    void commandLinesOfDifferentRates();
    void bannerBehindTheBootLoader_data();
    void bannerBehindTheBootLoader();
    void kernelTextBehindTheLoginPrompt();
    void markersMatchedInFront_data();
    void markersMatchedInFront();
    void kernelTextAfterAQuietSpell();
    void damagedClocksStayInBounds();
};

namespace {
std::unique_ptr<Run> loadSample(const QString &name)
{
    QString error;
    std::unique_ptr<Run> run =
        loadRun(QStringLiteral(TTYSCOPE_SAMPLES "/") + name, LoadOptions{}, &error);
    if (!run) {
        qWarning("%s", qPrintable(error));
    }
    return run;
}

// Run seconds of an alignment over the whole run; -1 when the spec does not parse, -2
// when there is no anchor.
double aligned(const Run &run, const QString &spec)
{
    Alignment a;
    QString error;
    if (!Alignment::parse(spec, &a, &error)) {
        return -1;
    }
    const std::optional<RunSeconds> t = alignmentTime(run, a, LineIndex(0));
    return t ? t->count() : -2;
}

const Event *firstOf(const Run &run, EventKind kind)
{
    for (const Event &e : run.events) {
        if (e.kind == kind) {
            return &e;
        }
    }
    return nullptr;
}
} // namespace

void TstArrivals::bannerBehindTheBootLoader_data()
{
    QTest::addColumn<QString>("sample");
    QTest::addColumn<qint64>("bannerLine"); // 0-based
    QTest::addColumn<qint64>("earlyUs");    // the line's first byte before the next line's
    // The boot loader prints "Probing EDD (edd=off to disable)... o" and the kernel's first
    // line ends that line: its host time is the loader's, before the kernel decompressed.
    // The next line (`Command line`, also kernel time 0) is the banner's upper bound.
    QTest::newRow("6.1 hostts") << QStringLiteral(
                                       "boot_login-default-smp2-115200-t1.hostts.log.zst")
                                << qint64(8) << qint64(3'401'224);
    QTest::newRow("6.1 panic hostts")
        << QStringLiteral("panic_noroot-smp2-115200-t1.hostts.log.zst") << qint64(8)
        << qint64(3'430'139);
    QTest::newRow("6.12-rt hostts")
        << QStringLiteral("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst") << qint64(8)
        << qint64(1'176'378);
    // grabserial -t: elapsed seconds and the delta to the line before, `[3.465595 3.401355]`.
    QTest::newRow("6.1 grabserial")
        << QStringLiteral("boot_login-default-smp2-115200-t1.grabserial.log.zst") << qint64(8)
        << qint64(3'401'354);
}

void TstArrivals::bannerBehindTheBootLoader()
{
    QFETCH(QString, sample);
    QFETCH(qint64, bannerLine);
    QFETCH(qint64, earlyUs);
    const std::unique_ptr<Run> run = loadSample(sample);
    QVERIFY(run);
    const Event *boot = firstOf(*run, EventKind::Boot);
    QVERIFY(boot);
    const LineIndex line = boot->line, next = line + 1_lines;
    QCOMPARE(line, LineIndex(bannerLine));
    QVERIFY(lineText(*run, line).startsWith("Probing EDD"));
    const double own = run->timeOf(line)->count(), after = run->timeOf(next)->count();
    QCOMPARE(micros(after - own), earlyUs);

    // The boot event, the boot alignment and a pattern in the banner: with the banner's
    // bytes, not the loader's.
    QCOMPARE(micros(run->eventTime(*boot)->count()), micros(after));
    QCOMPARE(micros(aligned(*run, QStringLiteral("boot"))), micros(after));
    QCOMPARE(micros(aligned(*run, QStringLiteral("event:boot"))), micros(after));
    QCOMPARE(micros(aligned(*run, QStringLiteral("regex:Linux version"))), micros(after));
    // A pattern in the loader's text in front: that line's first byte.
    QCOMPARE(micros(aligned(*run, QStringLiteral("regex:Probing EDD"))), micros(own));
    // The lag figures never used the line (its timestamp is behind other text).
    QVERIFY(!run->lagOf(line));
}

// The real boot_login capture ends with "corpusvm login: [    4.884373] harness: poweroff":
// the getty's prompt, then a kernel line 0.89 s later by the kernel's clock.
void TstArrivals::kernelTextBehindTheLoginPrompt()
{
    const std::unique_ptr<Run> run =
        loadSample(QStringLiteral("boot_login-default-smp2-115200-t1.hostts.log.zst"));
    QVERIFY(run);
    const LineIndex glued(367);
    QCOMPARE(lineText(*run, glued), QByteArray("corpusvm login: [    4.884373] harness: poweroff"));
    // Arrivals from the file: the prompt 1796014808.530784, the next line (an empty one,
    // no kernel time) 1796014809.538525; the capture starts at 1796014801.300316.
    QCOMPARE(micros(run->timeOf(glued)->count()), qint64(7'230'468));
    QCOMPARE(micros(run->timeOf(glued + 1_lines)->count()), qint64(8'238'209));
    // The kernel produced the marker at 4.884373 s, 1796014809.415818 on the host clock
    // (the lowest lag, line 104's, puts kernel time 0 at 1796014804.531445; truth.json
    // rounds it to ...446 in floating point): after the prompt came.
    QCOMPARE(micros(run->producedAt(glued)->count()), qint64(8'115'502));

    // The prompt is the line's first byte: 'login:' aligns there, and the boot time ends
    // there (truth.json: qemu_start_to_login 7.352176 s, from QEMU's start, 0.12 s before
    // the first byte).
    QCOMPARE(micros(aligned(*run, QStringLiteral("regex:login:"))), qint64(7'230'468));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(micros(m.bootTimeFirstByte.value()), qint64(7'230'468));
    // The marker came between its production and the next line's first byte; the next
    // line has no kernel time to carry back, so its arrival is the bound given.
    QCOMPARE(micros(aligned(*run, QStringLiteral("regex:harness: poweroff"))), qint64(8'238'209));
    MetricOptions o;
    o.spans = {{QStringLiteral("harness: boot complete"), QStringLiteral("harness: poweroff")}};
    o.windowStart = QStringLiteral("harness: poweroff");
    o.windowSeconds = 2;
    const Metrics s = computeMetrics(*run, o);
    QCOMPARE(s.spans.size(), std::size_t(1));
    // From the production of `boot complete` (3.870011 s: 1796014808.401456) to the
    // marker's arrival: 1.137069 s, where the prompt's arrival gave 0.129328 s.
    QCOMPARE(micros(s.spans[0].seconds.value()), qint64(1'137'069));
    QCOMPARE(micros(s.spans[0].kernelSeconds.value()), qint64(1'014'362));
    // The window from the marker: the empty line and the two last kernel lines arrived in
    // the 2 s after it (0, 1.044522 and 1.049544 s later).
    QCOMPARE(micros(s.window.start.value()), qint64(8'238'209));
    QCOMPARE(s.window.lines, qint64(4));

    // The prompt has no kernel time: the 4.884373 s behind it is the marker's, printed
    // later. A span to or from 'login:' has none by kernel time (it read 4.884 s from the
    // banner), and says why; by host time it runs to or from the prompt's arrival.
    MetricOptions p;
    p.spans = {{QStringLiteral("Linux version"), QStringLiteral("login:")},
               {QStringLiteral("login:"), QStringLiteral("Power down")}};
    p.windowStart = QStringLiteral("login:");
    p.windowSeconds = 2;
    const Metrics q = computeMetrics(*run, p);
    QCOMPARE(q.spans.size(), std::size_t(2));
    QVERIFY(!q.spans[0].kernelSeconds);
    QCOMPARE(q.spans[0].kernelMissing, QStringLiteral("'login:' has no kernel time"));
    // From the banner's production (kernel time 0: 1796014804.531445) to the prompt.
    QCOMPARE(micros(q.spans[0].seconds.value()), qint64(3'999'339));
    QVERIFY(!q.spans[1].kernelSeconds);
    QCOMPARE(q.spans[1].kernelMissing, QStringLiteral("'login:' has no kernel time"));
    // From the prompt's arrival to `reboot: Power down`'s (1796014810.588069).
    QCOMPARE(micros(q.spans[1].seconds.value()), qint64(2'057'285));
    // A window from the prompt: from its arrival on both clocks. Printed: the prompt's line
    // and the empty one after it; produced: the marker, `ACPI: PM: Preparing to enter
    // system sleep state S5` and `reboot: Power down` (0.885, 1.932 and 1.937 s later).
    QCOMPARE(micros(q.window.start.value()), qint64(7'230'468));
    QCOMPARE(q.window.lines, qint64(2));
    QCOMPARE(q.window.produced, qint64(3));
    p.windowSeconds = 1.9;
    QCOMPARE(computeMetrics(*run, p).window.produced, qint64(1));
}

void TstArrivals::markersMatchedInFront_data()
{
    QTest::addColumn<QString>("mark");
    QTest::addColumn<qint64>("line");     // 0-based
    QTest::addColumn<qint64>("timeUs");   // run time of the marker
    QTest::addColumn<qint64>("kernelUs"); // -1: none
    // "Probing EDD (edd=off to disable)... o ESC c ... [    0.000000] Linux version ...":
    // the loader's text came with the line's first byte (run time 0.064434), the banner
    // with the next line's (3.465658, as the boot event).
    QTest::newRow("loader's text")
        << QStringLiteral("Probing EDD") << qint64(8) << qint64(64'434) << qint64(-1);
    QTest::newRow("kernel's banner")
        << QStringLiteral("Linux version") << qint64(8) << qint64(3'465'658) << qint64(0);
    // "corpusvm login: [    4.884373] harness: poweroff": the prompt at 7.230468, the
    // marker at the next line's first byte, 8.238209 (kernelTextBehindTheLoginPrompt).
    QTest::newRow("prompt") << QStringLiteral("login:") << qint64(367) << qint64(7'230'468)
                            << qint64(-1);
    QTest::newRow("kernel's marker") << QStringLiteral("harness: poweroff") << qint64(367)
                                     << qint64(8'238'209) << qint64(4'884'373);
    // A pattern across both is complete only once the kernel's text came (as an alignment
    // on it, matchInFront).
    QTest::newRow("across both") << QStringLiteral("login: \\[ +4\\.88") << qint64(367)
                                 << qint64(8'238'209) << qint64(4'884'373);
}

// A --mark matched in the text in front of a kernel timestamp is that text's: it arrived
// with the line's first byte and has no kernel time (it was the kernel text's before).
void TstArrivals::markersMatchedInFront()
{
    QFETCH(QString, mark);
    QFETCH(qint64, line);
    QFETCH(qint64, timeUs);
    QFETCH(qint64, kernelUs);
    RuleSet rules = RuleSet::builtin();
    QString error;
    QVERIFY2(rules.addMarker(mark, &error), qPrintable(error));
    LoadOptions o;
    o.rules = &rules;
    const std::unique_ptr<Run> run = loadRun(
        QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-default-smp2-115200-t1.hostts.log.zst"), o,
        &error);
    QVERIFY2(run, qPrintable(error));
    std::vector<const Event *> marks;
    for (const Event &e : run->events) {
        if (e.kind == EventKind::Marker) {
            marks.push_back(&e);
        }
    }
    QCOMPARE(marks.size(), std::size_t(1));
    QCOMPARE(marks[0]->line, LineIndex(line));
    QCOMPARE(micros(run->eventTime(*marks[0])->count()), timeUs);
    const std::optional<KernelUs> k = run->eventKernelTime(*marks[0]);
    QCOMPARE(k ? qint64(k->count()) : qint64(-1), kernelUs);
    // The same time as the alignment on the pattern.
    QCOMPARE(micros(aligned(*run, QStringLiteral("regex:") + mark)), timeUs);
}

namespace {
// A shell's prompt, and after a quiet spell the kernel's next line behind it; then lines
// with their timestamps at the start, whose lowest lag puts kernel time 0 at host 90 s.
QByteArray shellThenQuietSpell(const QByteArray &nextStamp)
{
    return "100.000000\t[   10.000000] random: crng init done\n"
           "100.010000\troot@vm:~# [   50.000000] sysrq: Trigger a crash\n"
           "140.500000\t[" +
           nextStamp +
           "] Kernel panic - not syncing: sysrq triggered crash\n"
           "140.600000\t[   50.600000] CPU: 0 PID: 1 Comm: sh Not tainted 6.1.0-57-amd64\n";
}
} // namespace

// The kernel printed nothing for 40 s, the shell printed its prompt meanwhile, then the
// kernel's next line ended the prompt's line. Its text came 40 s after the line's first
// byte: the next line arrived 0.5 s of kernel time after it was produced.
void TstArrivals::kernelTextAfterAQuietSpell()
{
    const std::unique_ptr<Run> run =
        loadBytes(shellThenQuietSpell("   50.500000"), withFormat(QStringLiteral("hostts")));
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(4));
    const Event *sysrq = firstOf(*run, EventKind::Sysrq);
    const Event *panic = firstOf(*run, EventKind::Panic);
    QVERIFY(sysrq && panic);
    QCOMPARE(sysrq->line, LineIndex(1));
    QCOMPARE(micros(run->timeOf(LineIndex(1))->count()), qint64(10'000)); // the prompt
    QCOMPARE(micros(run->eventTime(*sysrq)->count()), qint64(40'000'000));
    QCOMPARE(micros(run->eventTime(*panic)->count()), qint64(40'500'000));
    QCOMPARE(micros(aligned(*run, QStringLiteral("event:sysrq"))), qint64(40'000'000));
    QCOMPARE(micros(aligned(*run, QStringLiteral("regex:Trigger a crash"))), qint64(40'000'000));
    QCOMPARE(micros(aligned(*run, QStringLiteral("regex:root@vm"))), qint64(10'000));
    QCOMPARE(micros(aligned(*run, QStringLiteral("boot"))), qint64(0));
}

// Untrusted clocks: the estimate stays between the line's first byte (and its production)
// and the next line's first byte, whatever the kernel times say.
void TstArrivals::damagedClocksStayInBounds()
{
    // The next line's kernel time 10^9 s later: carried back, it would land before the
    // line's own first byte (and overflow nanoseconds). That line's lag also puts kernel
    // time 0 10^9 s back, so the production time says nothing: the first byte stands.
    {
        const std::unique_ptr<Run> run = loadBytes(shellThenQuietSpell("1000000050.500000"),
                                                   withFormat(QStringLiteral("hostts")));
        QVERIFY(run);
        const Event *sysrq = firstOf(*run, EventKind::Sysrq);
        QVERIFY(sysrq);
        QCOMPARE(micros(run->eventTime(*sysrq)->count()), qint64(10'000));
    }
    // The next line's kernel time before the line's (a new boot's clock, or damage): no
    // kernel time to carry back; the next line's first byte bounds it.
    {
        const std::unique_ptr<Run> run =
            loadBytes(shellThenQuietSpell("   49.000000"), withFormat(QStringLiteral("hostts")));
        QVERIFY(run);
        const Event *sysrq = firstOf(*run, EventKind::Sysrq);
        QVERIFY(sysrq);
        QCOMPARE(micros(run->eventTime(*sysrq)->count()), qint64(40'500'000));
    }
    // The host clock steps back on the next line: nothing bounds the text after the
    // line's first byte, which stands.
    {
        QByteArray text = shellThenQuietSpell("   50.500000");
        text.replace("140.500000", "99.000000");
        const std::unique_ptr<Run> run = loadBytes(text, withFormat(QStringLiteral("hostts")));
        QVERIFY(run);
        const Event *sysrq = firstOf(*run, EventKind::Sysrq);
        QVERIFY(sysrq);
        QCOMPARE(micros(run->eventTime(*sysrq)->count()), qint64(10'000));
    }
}

// The 6.12-rt flood at 115200 baud, its host stamps squeezed tenfold: a console at about
// 1.15 Mbaud, read without --baud. At the default 115200 its 458,896 bytes would have taken
// 39.8 s on the wire in a 4.8 s capture; the wire figures are n/a, the warning names the
// busiest second's bytes and the standard rate they take (1152000: ten times 115200), and
// --baud makes them figures again. The
// capture as it is (at 115200) raises nothing.
void TstArrivals::fasterThanTheDefaultBaud()
{
    const QByteArray hostts = zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst"));
    double first = -1;
    const QByteArray fast = restamped(hostts, [&](double t, const QByteArray &text) {
        first = first < 0 ? t : first;
        return QByteArray::number(first + (t - first) / 10, 'f', 6) + '\t' + text;
    });
    QString error;
    const auto asCaptured = loadBytes(hostts, LoadOptions{}, &error);
    QVERIFY2(asCaptured, qPrintable(error));
    QCOMPARE(asCaptured->meta.baud, 115200);
    QCOMPARE(asCaptured->warnings, QStringList());

    const auto run = loadBytes(fast, LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    QCOMPARE(run->meta.baud, 0);
    QCOMPARE(run->warnings.size(), 1);
    QVERIFY2(run->warnings.front().startsWith(
                 QLatin1String("the bytes came faster than 115200 baud (console=ttyS0,115200 on "
                               "the kernel command line) can send them: 256 KiB ahead of such a "
                               "UART 3.297 s into the capture; "
                               "up to 103956 bytes in a second, which takes 1152000 baud or "
                               "more; ")),
             qPrintable(run->warnings.front()));
    QVERIFY2(run->warnings.front().contains(QLatin1String(
                 "the figures that need the rate (time on the wire, UART use) are n/a: give the "
                 "console's rate with --baud")),
             qPrintable(run->warnings.front()));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QVERIFY(!m.wireSeconds);
    QCOMPARE(m.bytes, std::int64_t(458896));

    // A reader that stalled 18 s into the flood for 18 s and was then handed what the
    // host held (179 KiB at once): the bytes did not outrun the UART, and the rate
    // stays.
    const QByteArray stalled = restamped(hostts, [&](double t, const QByteArray &text) {
        const double at = t >= first + 18 && t < first + 36 ? first + 36 : t;
        return QByteArray::number(at, 'f', 6) + '\t' + text;
    });
    const auto late = loadBytes(stalled, LoadOptions{}, &error);
    QVERIFY2(late, qPrintable(error));
    QCOMPARE(late->meta.baud, 115200);
    QCOMPARE(late->warnings, QStringList());

    LoadOptions given;
    given.baud = 1500000;
    const auto withBaud = loadBytes(fast, given, &error);
    QVERIFY2(withBaud, qPrintable(error));
    QCOMPARE(withBaud->warnings, QStringList());
    const Metrics mb = computeMetrics(*withBaud, MetricOptions{});
    QVERIFY(mb.wireSeconds);
    QCOMPARE(*mb.wireSeconds, 458896 * 10 / 1500000.0);
}

namespace {
// The kernel time of a console line ("[    1.234567] ..."), if it starts with one.
std::optional<double> kernelSecondsOf(const QByteArray &text)
{
    const qsizetype close = text.indexOf(']');
    if (!text.startsWith('[') || close < 0) {
        return std::nullopt;
    }
    bool ok = false;
    const double k = text.mid(1, close - 1).trimmed().toDouble(&ok);
    return ok ? std::optional<double>(k) : std::nullopt;
}

// A host-stamped capture of the same console through a UART at `baud`: each line is sent
// once the kernel printed it (its kernel time on the capture's clock) and the line before
// it is out, and arrives when its last byte is. Lines without a kernel time follow the
// line before them.
QByteArray throughUart(const QByteArray &hostts, int baud)
{
    double offset = std::numeric_limits<double>::infinity();
    restamped(hostts, [&](double t, const QByteArray &text) {
        if (const std::optional<double> k = kernelSecondsOf(text)) {
            offset = std::min(offset, t - *k);
        }
        return QByteArray();
    });
    double ready = -std::numeric_limits<double>::infinity(), sent = ready;
    return restamped(hostts, [&](double t, const QByteArray &text) {
        if (sent == -std::numeric_limits<double>::infinity()) {
            ready = sent = t;
        }
        if (const std::optional<double> k = kernelSecondsOf(text)) {
            ready = std::max(ready, *k + offset);
        }
        sent = std::max(sent, ready) + double(text.size() + 2) * 10 / baud;
        return QByteArray::number(sent, 'f', 6) + '\t' + text;
    });
}
} // namespace

// A short boot through a fast UART never gets 256 KiB ahead of a 115200 one: a 30 KiB boot
// at 1500000 baud runs 3 KiB ahead. That it came faster shows in its lines: a UART at
// 115200 would have held them a quarter of a second, and they came within milliseconds of
// their kernel timestamps. Through a UART at 115200, the same boot and the flood keep the
// rate, and so does a flood whose reader stalled for 18 s and then was handed the backlog
// at ten times the rate, over two seconds (the lines came late: they were held).
void TstArrivals::fastConsoleOnTime_data()
{
    QTest::addColumn<QString>("sample");
    QTest::addColumn<int>("baud");
    QTest::addColumn<QString>("warning"); // empty: the rate stays
    const QString boot = QStringLiteral("boot_login-default-smp2-115200-t1.hostts.log.zst");
    const QString panic = QStringLiteral("panic_noroot-smp2-115200-t1.hostts.log.zst");
    const QString flood = QStringLiteral("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst");
    const auto text = [](const char *ahead, const char *at, const char *held, const char *lag,
                         int peak) {
        // The captures' kernels name 115200 on their command lines, which these bytes
        // outran: where the rate came from is said.
        return QStringLiteral("the bytes came faster than 115200 baud (console=ttyS0,115200 on "
                              "the kernel command line) can send them: %1 KiB ahead of such a UART "
                              "%2 s into the capture, "
                              "which would have held them %3 s, yet their lines came within "
                              "%4 s of their kernel timestamps; up to %5 bytes in a second, "
                              "which takes 230400 baud or more; the figures that need the rate "
                              "(time on the wire, UART use) are n/a: give the console's rate "
                              "with --baud")
            .arg(QLatin1String(ahead), QLatin1String(at), QLatin1String(held), QLatin1String(lag))
            .arg(peak);
    };
    QTest::newRow("boot 1500000") << boot << 1500000 << text("3.0", "3.294", "0.27", "0.007", 9129);
    QTest::newRow("boot 921600") << boot << 921600 << text("2.8", "3.294", "0.25", "0.013", 9127);
    QTest::newRow("panic 460800") << panic << 460800 << text("2.8", "3.328", "0.25", "0.034", 8585);
    QTest::newRow("flood 1500000")
        << flood << 1500000 << text("2.9", "1.003", "0.26", "0.007", 19557);
    QTest::newRow("boot 115200") << boot << 115200 << QString();
    QTest::newRow("panic 115200") << panic << 115200 << QString();
    QTest::newRow("flood 115200") << flood << 115200 << QString();
    QTest::newRow("flood, late and slow") << flood << 0 << QString();
}

void TstArrivals::fastConsoleOnTime()
{
    QFETCH(QString, sample);
    QFETCH(int, baud);
    QFETCH(QString, warning);
    const QByteArray hostts = zstdDecompressFile(QStringLiteral(TTYSCOPE_SAMPLES "/") + sample);
    QByteArray capture;
    if (baud > 0) {
        capture = throughUart(hostts, baud);
    } else {
        double first = -1, last = 0;
        capture = restamped(hostts, [&](double t, const QByteArray &text) {
            first = first < 0 ? t : first;
            const double stall = first + 18;
            const double at = t >= stall && t < stall + 18 ? stall + 18 + (t - stall) / 10 : t;
            last = std::max(last, at); // what came during the hand-over waits for it
            return QByteArray::number(last, 'f', 6) + '\t' + text;
        });
    }
    QString error;
    const auto run = loadBytes(capture, LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    if (warning.isEmpty()) {
        QCOMPARE(run->warnings, QStringList());
        QCOMPARE(run->meta.baud, 115200);
    } else {
        QCOMPARE(run->warnings, QStringList{warning});
        QCOMPARE(run->meta.baud, 0);
        QVERIFY(!computeMetrics(*run, MetricOptions{}).wireSeconds);
    }
}

// Real captures of Debian's 6.1 kernels under QEMU with the console at 9600, 38400 and
// 115200 baud (tests/fixtures/slowbaud), read without --baud: the RT kernel, whose printing
// thread lets printk's callers run free, logging a burst of 300 lines after a quiet boot,
// and the plain kernel's full boot at 38400. The slow consoles fall behind by 19.8, 4.7 and
// 1.7 s while their bytes come at 957, 3833 and 3492 a second; at the default 115200 their
// bytes would read 1.7 s (3.7 s) on the wire instead of 20.3 and 5.1 (11.2). The wire
// figures are n/a, the warning names the rate, and --baud makes them figures again. At
// 115200 the burst falls behind by 1.3 s for under 2 s, at 10 KiB a second: the rate stays.
void TstArrivals::slowerThanTheDefaultBaud_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("baud");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<QString>("warning"); // empty: the default rate stays
    const auto text = [](const char *lag, int perSecond, const char *over, int rate) {
        return QStringLiteral("the console fell behind (its lines came up to %1 s after their "
                              "kernel timestamps) while its bytes came at %2 bytes a second "
                              "over %3 s: a UART at 115200 baud (ttyscope's default) sends "
                              "11520, so the console's rate is lower, %4 baud or more (or it "
                              "could not keep its UART busy); the figures that need the rate "
                              "(time on the wire, UART use) are n/a: give the console's rate "
                              "with --baud")
            .arg(QLatin1String(lag))
            .arg(perSecond)
            .arg(QLatin1String(over))
            .arg(rate);
    };
    QTest::newRow("rt 9600") << "rt-9600-quiet" << 9600 << qint64(19441)
                             << text("19.8", 957, "19.9", 9600);
    QTest::newRow("rt 38400") << "rt-38400-quiet" << 38400 << qint64(19441)
                              << text("4.7", 3833, "4.8", 38400);
    QTest::newRow("rt 115200") << "rt-115200-quiet" << 115200 << qint64(19441) << QString();
}

void TstArrivals::slowerThanTheDefaultBaud()
{
    QFETCH(QString, file);
    QFETCH(int, baud);
    QFETCH(qint64, bytes);
    QFETCH(QString, warning);
    const QString path =
        QStringLiteral(TTYSCOPE_FIXTURES "/slowbaud/") + file + QStringLiteral(".hostts.log.zst");
    QString error;
    const auto run = loadRun(path, LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.bytes, bytes);
    if (warning.isEmpty()) {
        QCOMPARE(run->warnings, QStringList());
        QCOMPARE(run->meta.baud, 115200);
        QVERIFY(m.wireSeconds);
        QCOMPARE(*m.wireSeconds, double(bytes) * 10 / 115200.0);
        return;
    }
    QCOMPARE(run->warnings, QStringList{warning});
    QCOMPARE(run->meta.baud, 0);
    QVERIFY(!m.wireSeconds);
    QVERIFY(!m.window.wireSeconds);

    LoadOptions given;
    given.baud = baud;
    const auto withBaud = loadRun(path, given, &error);
    QVERIFY2(withBaud, qPrintable(error));
    QCOMPARE(withBaud->warnings, QStringList());
    const Metrics mb = computeMetrics(*withBaud, MetricOptions{});
    QVERIFY(mb.wireSeconds);
    QCOMPARE(*mb.wireSeconds, double(bytes) * 10 / double(baud));
}

// Every bundled capture was made at 115200 (the figures of their truth files assume it):
// none may lose its rate, by either check.
void TstArrivals::samplesKeepTheDefaultBaud()
{
    const QStringList files = QDir(QStringLiteral(TTYSCOPE_SAMPLES))
                                  .entryList({QStringLiteral("*.hostts.log.zst"),
                                              QStringLiteral("*.grabserial*.log.zst")},
                                             QDir::Files, QDir::Name);
    QCOMPARE(files.size(), 14);
    for (const QString &name : files) {
        const std::unique_ptr<Run> run = loadSample(name);
        QVERIFY2(run, qPrintable(name));
        QVERIFY2(run->meta.baud == 115200,
                 qPrintable(name + QStringLiteral(": ") + run->warnings.join(QLatin1Char('\n'))));
    }
}

namespace {
// A host-stamped capture as the serial line sent it: each row's text and "\r\n".
QByteArray rawOf(const QByteArray &hostts)
{
    QByteArray raw;
    for (const QByteArray &row : hostts.split('\n')) {
        const qsizetype tab = row.indexOf('\t');
        if (tab >= 0) {
            raw += row.mid(tab + 1) + "\r\n";
        }
    }
    return raw;
}

std::unique_ptr<Run> loadBytes(const QTemporaryDir &dir, const QString &name,
                               const QByteArray &bytes)
{
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) {
        return nullptr;
    }
    f.close();
    QString error;
    std::unique_ptr<Run> run = loadRun(f.fileName(), LoadOptions{}, &error);
    if (!run) {
        qWarning("%s", qPrintable(error));
    }
    return run;
}

// The report's notes of the rates, for one column a run (A, B, ...).
QStringList rateNotes(const std::vector<const Run *> &runs)
{
    std::vector<ReportColumn> columns(runs.size());
    for (std::size_t k = 0; k < runs.size(); ++k) {
        columns[k].label = QString(QChar(u'A' + int(k)));
        columns[k].runs = {runs[k]};
        columns[k].boots = {std::nullopt};
        columns[k].metrics = {computeMetrics(*runs[k], MetricOptions{})};
        columns[k].files = {runs[k]->meta.source};
    }
    return Report(columns, MetricOptions{})
        .footnotes(true)
        .split(QLatin1Char('\n'))
        .filter(QStringLiteral("rate"));
}
} // namespace

// The kernel names its console's rate on its command line; a log that states none of its
// own takes it from there. The 6.1 boot at 38400 baud was read at ttyscope's default: raw,
// with a time on the wire of 3.725 s (42,910 bytes at 115200) where the UART took 11.174 s;
// host-stamped, with the wire figures n/a and a warning to give --baud.
void TstArrivals::rateOnTheKernelCommandLine_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("raw"); // read as the serial line sent it, without host times
    QTest::addColumn<int>("baud");
    QTest::addColumn<QString>("statement");
    QTest::addColumn<qint64>("bytes");
    const QString slow = QStringLiteral(TTYSCOPE_FIXTURES "/slowbaud/6.1-38400.hostts.log.zst");
    const QString boot =
        QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-default-smp2-115200-t1.hostts.log.zst");
    QTest::newRow("6.1 at 38400, host-stamped")
        << slow << false << 38400 << "console=ttyS0,38400" << qint64(42910);
    QTest::newRow("6.1 at 38400, raw")
        << slow << true << 38400 << "console=ttyS0,38400" << qint64(42910);
    QTest::newRow("6.1 at 115200, raw")
        << boot << true << 115200 << "console=ttyS0,115200" << qint64(24096);
}

void TstArrivals::rateOnTheKernelCommandLine()
{
    QFETCH(QString, file);
    QFETCH(bool, raw);
    QFETCH(int, baud);
    QFETCH(QString, statement);
    QFETCH(qint64, bytes);
    QTemporaryDir dir;
    const QByteArray hostts = zstdDecompressFile(file);
    QVERIFY(!hostts.isEmpty());
    const std::unique_ptr<Run> run =
        raw ? loadBytes(dir, QStringLiteral("console.log"), rawOf(hostts))
            : loadBytes(dir, QStringLiteral("console.hostts.log"), hostts);
    QVERIFY(run);
    QCOMPARE(run->hasArrival, !raw);
    QCOMPARE(run->warnings, QStringList());
    QCOMPARE(run->meta.baud, baud);
    QCOMPARE(run->meta.baudSource, RunMeta::BaudSource::KernelCommandLine);
    QCOMPARE(run->meta.baudStatement, statement);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.bytes, bytes);
    QVERIFY(m.wireSeconds);
    QCOMPARE(*m.wireSeconds, double(bytes) * 10 / double(baud));
    QCOMPARE(rateNotes({run.get()}),
             QStringList{QStringLiteral("The wire figures' rate: %1 baud (%2 on the kernel "
                                        "command line).")
                             .arg(baud)
                             .arg(statement)});
    // --baud is the user's word, over the kernel's.
    LoadOptions given;
    given.baud = 9600;
    QString error;
    const std::unique_ptr<Run> withBaud = loadRun(run->meta.source, given, &error);
    QVERIFY2(withBaud, qPrintable(error));
    QCOMPARE(withBaud->meta.baud, 9600);
    QCOMPARE(withBaud->meta.baudSource, RunMeta::BaudSource::Given);
}

// Two boots in one raw log whose command lines name different rates (a board moved to
// another console server, or two boards' logs joined): which one each line crossed is not
// known, so the default is taken and said; the quiet boot's log names none.
void TstArrivals::commandLinesOfDifferentRates()
{
    QTemporaryDir dir;
    const QByteArray fast = rawOf(zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-default-smp2-115200-t1.hostts.log.zst")));
    const QByteArray slow = rawOf(
        zstdDecompressFile(QStringLiteral(TTYSCOPE_FIXTURES "/slowbaud/6.1-38400.hostts.log.zst")));
    QVERIFY(!fast.isEmpty() && !slow.isEmpty());
    const std::unique_ptr<Run> both = loadBytes(dir, QStringLiteral("both.log"), fast + slow);
    QVERIFY(both);
    QCOMPARE(both->boots.size(), std::size_t(2));
    QCOMPARE(both->meta.baud, 115200);
    QCOMPARE(both->meta.baudSource, RunMeta::BaudSource::Default);
    QCOMPARE(both->warnings,
             QStringList{QStringLiteral(
                 "the kernel command lines name consoles at different rates, "
                 "console=ttyS0,115200 (line 10) and console=ttyS0,38400 (line 373): which "
                 "one this is is not known, so ttyscope's default of 115200 baud is taken (give "
                 "the console's rate with --baud)")});
    QCOMPARE(rateNotes({both.get()}),
             QStringList{QStringLiteral(
                 "The wire figures' rate: 115200 baud (ttyscope's default: the log states no "
                 "rate and has no arrival times to check one by; give --baud).")});

    // Two columns at two stated rates: each named.
    const std::unique_ptr<Run> a = loadBytes(dir, QStringLiteral("slow.log"), slow);
    const std::unique_ptr<Run> b = loadBytes(dir, QStringLiteral("fast.log"), fast);
    QVERIFY(a && b);
    QCOMPARE(rateNotes({a.get(), b.get()}),
             QStringList{QStringLiteral(
                 "The wire figures' rate: A: 38400 baud (console=ttyS0,38400 on the kernel "
                 "command line); B: 115200 baud (console=ttyS0,115200 on the kernel command "
                 "line).")});

    // Beside a column with no rate (a netconsole's: no serial line), that column is named.
    QString error;
    const std::unique_ptr<Run> net = loadRun(
        QStringLiteral(TTYSCOPE_FIXTURES "/netconsole/extended.ttyrec.zst"), LoadOptions{}, &error);
    QVERIFY2(net, qPrintable(error));
    QCOMPARE(net->meta.baud, 0);
    QCOMPARE(rateNotes({a.get(), net.get()}),
             QStringList{QStringLiteral(
                 "The wire figures' rate: A: 38400 baud (console=ttyS0,38400 on the kernel "
                 "command line); B: no rate (n/a).")});

    const QByteArray quiet = rawOf(zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-quiet-smp2-115200-t1.hostts.log.zst")));
    const std::unique_ptr<Run> none = loadBytes(dir, QStringLiteral("quiet.log"), quiet);
    QVERIFY(none);
    QCOMPARE(none->meta.baud, 115200);
    QCOMPARE(none->meta.baudSource, RunMeta::BaudSource::Default);
    QCOMPARE(none->warnings, QStringList());
}

QTEST_GUILESS_MAIN(TstArrivals)
#include "tst_arrivals.moc"
