// Boots and clocks: several boots in one capture, kernel time going back a little (SMP)
// versus falling back to zero (a new boot), and the host clock stepping back.
#include "alignment.h"
#include "bootselect.h"
#include "metrics.h"
#include "parallel.h"
#include "report.h"
#include "runbuilder.h"
#include "session.h"
#include "sourceindex.h"
#include "sourcestats.h"
#include "trials.h"
#include "tst_helpers.h"

#include <QtTest>

using namespace tty;
using namespace testutil;

class TstBoots : public QObject
{
    Q_OBJECT
private slots:
    void twoBootsFromSamples();
    void armBootingLineBeforeTheBanner();
    void consoleServerLog_data();
    void consoleServerLog();
    void promptThenNextKernel_data();
    void promptThenNextKernel();
    void promptFarFromItsKernel();
    void promptGluedToNextKernel_data();
    void promptGluedToNextKernel();
    void promptGluedOnTheTimeline();
    void promptGluedToFirmware_data();
    void promptGluedToFirmware();
    void captureAttachedLate();
    void kernelTimeBackwards_data();
    void kernelTimeBackwards();
    void hostClockStepsBack();
    void splitAsLinesCome();
    void regexChoiceAcrossSlices();
    void anchorSearchAsLinesCome();
};

// Two real captures one after the other, as a console server logs across a reboot.
// arm and arm64 print `Booting Linux on physical CPU` before `Linux version`, at the same
// kernel time: one boot, which starts at that line (a real arm64 capture under QEMU,
// tests/fixtures/arm64). Every arm boot read as two: a one-line boot, then the banner's.
void TstBoots::armBootingLineBeforeTheBanner()
{
    QFile f(QStringLiteral(TTYSCOPE_FIXTURES "/arm64/panic_noroot-arm64.hostts.log"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray one = f.readAll();
    const auto run = loadBytes(one);
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(1));
    const Boot &b = run->boots.front();
    QCOMPARE(b.first, LineIndex(0));
    QCOMPARE(b.firstKernelLine, std::optional<LineIndex>(LineIndex(0)));
    QCOMPARE(b.version, QStringLiteral("6.1.0-57-arm64"));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.boots, 1);
    QCOMPARE(m.lines, qint64(250));
    QVERIFY(m.panic.detected && m.panic.complete);
    // Two such boots one after the other: two boots, the second from its `Booting Linux`.
    const auto twice = loadBytes(one + one);
    QVERIFY(twice);
    QCOMPARE(twice->boots.size(), std::size_t(2));
    QCOMPARE(twice->boots[1].first, LineIndex(250));
    QVERIFY(lineText(*twice, 250).contains("Booting Linux on physical CPU"));
    QCOMPARE(twice->boots[1].version, QStringLiteral("6.1.0-57-arm64"));
}

void TstBoots::twoBootsFromSamples()
{
    const QByteArray a =
        zstdDecompressFile(QStringLiteral(TTYSCOPE_SAMPLES "/panic_noroot-smp2-115200-t1.raw.zst"));
    const QByteArray b = zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-default-smp2-115200-t1.raw.zst"));
    QVERIFY(!a.isEmpty() && !b.isEmpty());
    // The first ends without a newline? Keep the second boot's text on lines of its own.
    const QByteArray both = a + (a.endsWith('\n') ? "" : "\r\n") + b;
    const auto run = loadBytes(zstdCompress(both));
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(2));
    const Boot &first = run->boots[0], &second = run->boots[1];
    QCOMPARE(first.first, LineIndex(0));
    QCOMPARE(first.end, second.first);
    QCOMPARE(second.end, run->lines.endIndex());
    QCOMPARE(first.version, QStringLiteral("6.1.0-57-amd64"));
    QCOMPARE(second.version, QStringLiteral("6.1.0-57-amd64"));
    // Firmware output before the second kernel belongs to the second boot.
    QVERIFY(lineText(*run, second.first).contains("SeaBIOS"));

    // Each boot is a trial: its metrics are those of the capture alone.
    const Metrics m1 = computeMetrics(*run, MetricOptions{}, first.first, first.end);
    const Metrics m2 = computeMetrics(*run, MetricOptions{}, second.first, second.end);
    QCOMPARE(m1.boots, 1);
    QCOMPARE(m2.boots, 1);
    QCOMPARE(m1.lines + m2.lines, run->lines.size().count());
    QCOMPARE(m1.lines, qint64(370)); // panic_noroot truth: 370 lines
    QCOMPARE(m2.lines, qint64(371)); // boot_login-default truth: 371 lines
    QVERIFY(m1.panic.detected && m1.panic.complete);
    QVERIFY(!m2.panic.detected);
    const Metrics all = computeMetrics(*run, MetricOptions{});
    QCOMPARE(all.boots, 2);
    QCOMPARE(all.eventCounts[std::size_t(EventKind::Boot)], qint64(2));
    // Without host times the boots are laid end to end on the timeline.
    QVERIFY(run->timeOf(second.firstKernelLine.value()).value() >
            run->timeOf(first.end - 1_lines).value());
}

namespace {
// The lines of a bundled capture ('\n' taken off, '\r' kept), as a console server would
// store them again.
QList<QByteArray> sampleLines(const QString &name)
{
    QList<QByteArray> lines =
        zstdDecompressFile(QStringLiteral(TTYSCOPE_SAMPLES "/") + name).split('\n');
    if (!lines.isEmpty() && lines.back().isEmpty()) {
        lines.removeLast();
    }
    return lines;
}

// The console text of a line of either format.
QByteArray textOf(const QByteArray &line, bool hostts)
{
    return hostts ? line.mid(line.indexOf('\t') + 1) : line;
}

// Drops everything before the kernel's first line, and the escape codes in front of it:
// a console that printed no firmware output.
QList<QByteArray> withoutFirmware(const QList<QByteArray> &lines, bool hostts)
{
    static const QRegularExpression stamp(QStringLiteral("\\[\\s*\\d+\\.\\d{6}\\]"));
    QList<QByteArray> out;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QByteArray &l = lines[i];
        const QByteArray text = textOf(l, hostts);
        if (out.isEmpty()) {
            const QRegularExpressionMatch m = stamp.match(QString::fromLatin1(text));
            if (!m.hasMatch()) {
                continue;
            }
            // The line's host time was the arrival of the firmware text glued in front of
            // the kernel's; the kernel's own text came with the next line's.
            const QByteArray rest = text.mid(m.capturedStart());
            const QByteArray &timed =
                m.capturedStart() > 0 && i + 1 < lines.size() ? lines[i + 1] : l;
            out << (hostts ? timed.left(timed.indexOf('\t') + 1) + rest : rest);
            continue;
        }
        out << l;
    }
    return out;
}

// Appends a capture's lines to a log of several, as a console server stores them in a
// row: host-timestamped lines shifted so that the piece starts `gap` seconds after
// `*lastHost` (unless it is the log's first), which ends as the piece's last host time.
// `glued`: its first line ends the log's last line instead (a prompt without newline).
void appendPiece(QByteArray *log, const QList<QByteArray> &piece, bool hostts, double *lastHost,
                 bool glued = false, double gap = 2)
{
    const double shift =
        hostts && !log->isEmpty()
            ? *lastHost + gap - piece.front().left(piece.front().indexOf('\t')).toDouble()
            : 0;
    if (glued) {
        log->chop(1);
    }
    for (const QByteArray &l : piece) {
        if (glued && &l == &piece.front()) {
            *log += (hostts ? l.mid(l.indexOf('\t') + 1) : l) + '\n';
        } else if (hostts) {
            const int tab = l.indexOf('\t');
            *lastHost = l.left(tab).toDouble() + shift;
            *log += QByteArray::number(*lastHost, 'f', 6) + l.mid(tab) + '\n';
        } else {
            *log += l + '\n';
        }
    }
}
} // namespace

// 22 boots in a row as a lab's console server records them across reboots: default boots,
// quiet ones (no `Linux version` banner, kernel clock restarting at ~2 s after a boot that
// ended at ~4-6 s) and boots whose banner was removed, with and without the firmware's own
// output, host-timestamped and raw.
void TstBoots::consoleServerLog_data()
{
    QTest::addColumn<bool>("hostts");
    QTest::addColumn<bool>("firmware");
    QTest::newRow("hostts, firmware") << true << true;
    QTest::newRow("raw, firmware") << false << true;
    QTest::newRow("hostts, no firmware") << true << false;
    QTest::newRow("raw, no firmware") << false << false;
}

void TstBoots::consoleServerLog()
{
    QFETCH(bool, hostts);
    QFETCH(bool, firmware);
    const QString ext = hostts ? QStringLiteral("hostts.log.zst") : QStringLiteral("raw.zst");
    struct Kind
    {
        const char *sample;
        bool banner;
    };
    const Kind cycle[] = {{"boot_login-default", true},  {"boot_login-quiet", false},
                          {"boot_login-default", false}, {"boot_login-quiet", false},
                          {"panic_noroot", false},       {"boot_login-quiet", false},
                          {"panic_noroot", true}};
    QByteArray log;
    std::vector<LineIndex> starts;
    std::vector<bool> banners;
    LineIndex lines{0}; // where the next piece starts
    double lastHost = 0;
    for (int k = 0; k < 22; ++k) {
        const Kind &kind = cycle[k % 7];
        QList<QByteArray> piece =
            sampleLines(QStringLiteral("%1-smp2-115200-t1.%2").arg(kind.sample, ext));
        QVERIFY(!piece.isEmpty());
        if (!kind.banner) {
            piece.removeIf([&](const QByteArray &l) { return l.contains("Linux version"); });
        }
        if (!firmware) {
            piece = withoutFirmware(piece, hostts);
        }
        // Host times: each boot two seconds after the one before, as if captured in a row.
        starts.push_back(lines);
        banners.push_back(kind.banner);
        appendPiece(&log, piece, hostts, &lastHost);
        lines += LineCount(piece.size());
    }
    const auto run = loadBytes(zstdCompress(log));
    QVERIFY(run);
    QCOMPARE(run->lines.endIndex(), lines);
    QCOMPARE(run->boots.size(), std::size_t(22));
    for (std::size_t b = 0; b < 22; ++b) {
        QCOMPARE(run->boots[b].first, starts[b]);
        QCOMPARE(run->boots[b].version.isEmpty(), !banners[b]);
    }
    // The panic_noroot pieces (k % 7 == 4 or 6) print "Kernel panic"; the others do not.
    BootSelector panics, others;
    QString error;
    QVERIFY(BootSelector::parse(QStringLiteral("/Kernel panic/"), &panics, &error));
    QVERIFY(BootSelector::parse(QStringLiteral("!/Kernel panic/"), &others, &error));
    QCOMPARE(panics.select(*run), (std::vector<int>{4, 6, 11, 13, 18, 20}));
    QCOMPARE(others.select(*run),
             (std::vector<int>{0, 1, 2, 3, 5, 7, 8, 9, 10, 12, 14, 15, 16, 17, 19, 21}));
    // From the middle of boot 3 to the middle of boot 5 (0-based 2 to 4): three boots.
    const LineIndex mid2 = starts[2] + LineCount(10), mid4 = starts[4] + LineCount(10);
    const Run::BootRange range = run->bootsOverlapping(mid2, mid4);
    QCOMPARE(range.begin() - run->boots.data(), std::ptrdiff_t(2));
    QCOMPARE(range.end() - run->boots.data(), std::ptrdiff_t(5));
    QCOMPARE(computeMetrics(*run, MetricOptions{}, mid2, mid4).boots, 3);
    // A range ending where a boot starts holds none of it; an empty range holds no boot.
    QCOMPARE(computeMetrics(*run, MetricOptions{}, starts[2], starts[4]).boots, 2);
    QCOMPARE(run->bootsOverlapping(mid2, mid2).begin(), run->bootsOverlapping(mid2, mid2).end());
    // Each boot's lag comes from its own clock offset: the truth is at most 0.67 s.
    for (std::size_t b = 0; hostts && b < 22; ++b) {
        const Metrics m =
            computeMetrics(*run, MetricOptions{}, run->boots[b].first, run->boots[b].end);
        QVERIFY2(
            m.hasLag() && *m.lagMax < 0.68,
            qPrintable(QStringLiteral("boot %1: lag %2").arg(b + 1).arg(m.lagMax.value_or(-1))));
    }
}

namespace {
// A boot_login capture cut at its login prompt (the poweroff after it gone): a lab that
// power-cycles the board there. The boots after the first print no firmware. Each boot
// starts two seconds after the one before; `promptAt` gets each boot's prompt line and
// `starts` its first line. `filler` untimed lines go between the kernel and the prompt.
// `glued`: a prompt has no newline (as on the wire), so the next kernel's first line
// ends the prompt's line, which keeps the prompt's host time, and the next line comes
// `gap` seconds after it (the power cycle).
QByteArray poweredOffAtPrompt(bool hostts, int boots, int filler, std::vector<LineIndex> *starts,
                              std::vector<LineIndex> *promptAt, bool glued = false, double gap = 2,
                              bool firmware = false)
{
    const QString ext = hostts ? QStringLiteral("hostts.log.zst") : QStringLiteral("raw.zst");
    QByteArray log;
    LineIndex lines{0};
    double lastHost = 0;
    for (int k = 0; k < boots; ++k) {
        QList<QByteArray> piece =
            sampleLines(QStringLiteral("boot_login-default-smp2-115200-t1.%1").arg(ext));
        if (k > 0 && !firmware) {
            piece = withoutFirmware(piece, hostts);
        }
        const qsizetype prompt =
            piece.indexOf(*std::find_if(piece.begin(), piece.end(), [](const QByteArray &l) {
                return l.contains("corpusvm login:");
            }));
        QByteArray &p = piece[prompt];
        p = p.left(p.indexOf("corpusvm login:")) + "corpusvm login: ";
        piece.resize(prompt + 1);
        for (int f = 0; f < filler; ++f) {
            const QByteArray stamp = hostts ? p.left(p.indexOf('\t') + 1) : QByteArray();
            piece.insert(prompt, stamp + "[  OK  ] Started getty@tty" + QByteArray::number(f));
        }
        const bool glue = glued && k > 0; // the prompt's line ends with this boot's first
        if (glue) {
            lines -= 1_lines;
        }
        starts->push_back(lines);
        promptAt->push_back(lines + LineCount(piece.size() - 1));
        appendPiece(&log, piece, hostts, &lastHost, glue, gap);
        lines += LineCount(piece.size());
    }
    return log;
}
} // namespace

// Boots that end at the login prompt, the next kernel's banner right after it (no
// shutdown, no firmware output): the prompt is its own boot's. It went to the next boot,
// whose boot time then ended before its kernel started (-12.8 s from kernel start, 0.005 s
// from its first byte) while the boot that printed the prompt had none.
void TstBoots::promptThenNextKernel_data()
{
    QTest::addColumn<bool>("hostts");
    QTest::newRow("hostts") << true;
    QTest::newRow("raw") << false;
}

void TstBoots::promptThenNextKernel()
{
    QFETCH(bool, hostts);
    std::vector<LineIndex> starts, prompts;
    const auto run = loadBytes(zstdCompress(poweredOffAtPrompt(hostts, 3, 0, &starts, &prompts)));
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(3));
    for (std::size_t b = 0; b < 3; ++b) {
        QCOMPARE(run->boots[b].first, starts[b]);
        QCOMPARE(run->boots[b].end, b + 1 < 3 ? starts[b + 1] : run->lines.endIndex());
        const Metrics m =
            computeMetrics(*run, MetricOptions{}, run->boots[b].first, run->boots[b].end);
        QCOMPARE(m.bootDoneLine, std::optional<LineIndex>(prompts[b]));
        QCOMPARE(m.bootTimeFirstByte.has_value(), hostts);
        if (hostts) {
            // From SeaBIOS's first byte (1796014801.300316) to the prompt (…808.530784);
            // without firmware, from the banner, stamped with the next line's arrival
            // (…804.765974).
            QCOMPARE(qRound64(*m.bootTimeFirstByte * 1e6), b == 0 ? 7230468 : 3764810);
            QVERIFY(m.bootTimeKernel && *m.bootTimeKernel > 3.8 && *m.bootTimeKernel < 4.1);
        }
    }
    // The capture as a whole: its first boot's.
    const Metrics all = computeMetrics(*run, MetricOptions{});
    QCOMPARE(all.bootDoneLine, std::optional<LineIndex>(prompts[0]));
    if (hostts) {
        QCOMPARE(qRound64(*all.bootTimeFirstByte * 1e6), 7230468);
    }
}

// The prompt printed long after the kernel's last line (70 untimed lines before it): the
// boot split does not look that far, and leaves it to the next boot. That boot's time
// still counts from its own kernel's first line on: its own prompt, never the one before.
void TstBoots::promptFarFromItsKernel()
{
    std::vector<LineIndex> starts, prompts;
    const auto run = loadBytes(zstdCompress(poweredOffAtPrompt(true, 2, 70, &starts, &prompts)));
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(2));
    const Boot &second = run->boots[1];
    QVERIFY(second.first < prompts[0] && second.firstKernelLine == starts[1]);
    const Metrics m1 = computeMetrics(*run, MetricOptions{}, run->boots[0].first, second.first);
    QCOMPARE(m1.bootDoneLine, std::nullopt);
    QCOMPARE(m1.bootTime, std::nullopt);
    const Metrics m2 = computeMetrics(*run, MetricOptions{}, second.first, second.end);
    QCOMPARE(m2.bootDoneLine, std::optional<LineIndex>(prompts[1]));
    QVERIFY(m2.bootTimeKernel && *m2.bootTimeKernel > 3.8 && *m2.bootTimeKernel < 4.1);
    // The whole capture: the first prompt after its boot's kernel started is the second
    // boot's (the first one's prompt is counted in the second boot, before its kernel).
    const Metrics all = computeMetrics(*run, MetricOptions{});
    QCOMPARE(all.bootDoneLine, std::optional<LineIndex>(prompts[1]));
    QCOMPARE(qRound64(*all.bootTimeKernel * 1e3), qRound64(*m2.bootTimeKernel * 1e3));
}

// A capture attached 1.5 s into the kernel (the bundled boot from its line 150 on): its
// first byte is not the boot's start, so there is no boot time from it, and the report
// says why; the time from kernel start stays (the sample's 3.999 s less the 61 ms between
// the late line's production and its arrival, 3.938 s). A quiet boot (no banner) with its
// firmware output keeps both.
// The same with each prompt ended by the next kernel's banner, as a prompt without its
// newline is on the wire: "corpusvm login: [    0.000000] Linux version ...", stamped with
// the prompt's arrival. The line is the new boot's first, its prompt the old boot's
// boot-done line; the new boot's first byte is not known (its line's arrival is the
// prompt's), and its time from kernel start stays. Each boot got 20 s before (from the
// prompt's arrival to its own), and the boot before none; its duration and first 30 s ran
// from the prompt too (63.8 s; 1 line of 363 after a 60 s power cycle).
void TstBoots::promptGluedToNextKernel_data()
{
    promptThenNextKernel_data();
}

void TstBoots::promptGluedToNextKernel()
{
    QFETCH(bool, hostts);
    std::vector<LineIndex> starts, prompts;
    const auto run =
        loadBytes(zstdCompress(poweredOffAtPrompt(hostts, 3, 0, &starts, &prompts, true, 60)));
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(3));
    QCOMPARE(prompts[0], starts[1]);
    QCOMPARE(prompts[1], starts[2]);
    QVERIFY(lineText(*run, starts[1]).startsWith("corpusvm login: [    0.000000] Linux version"));
    for (std::size_t b = 0; b < 3; ++b) {
        QCOMPARE(run->boots[b].first, starts[b]);
        QCOMPARE(run->boots[b].firstKernelLine,
                 std::optional<LineIndex>(starts[b] + LineCount(b == 0 ? 8 : 0)));
        const Metrics m =
            computeMetrics(*run, MetricOptions{}, run->boots[b].first, run->boots[b].end);
        QCOMPARE(m.bootDoneLine, std::optional<LineIndex>(prompts[b]));
        if (!hostts) {
            QCOMPARE(m.bootTime, std::nullopt);
            continue;
        }
        QVERIFY(m.bootTimeKernel && *m.bootTimeKernel > 3.8 && *m.bootTimeKernel < 4.1);
        if (b == 0) {
            QCOMPARE(qRound64(*m.bootTimeFirstByte * 1e6), 7230468);
            QCOMPARE(m.bootStartNote, QString());
        } else {
            QCOMPARE(m.bootTimeFirstByte, std::nullopt);
            QCOMPARE(m.bootStartNote,
                     QStringLiteral("the boot's first line starts with the prompt of the system "
                                    "before it: when its own first byte came is not known"));
            // Host-time figures count from the boot's second line (the banner's own bytes
            // came at most that line's transmission before it), not from the prompt 60 s
            // earlier: from `Command line` (…804.765974) to the last line (…808.530784);
            // every line is in the first 30 s.
            QCOMPARE(qRound64(*m.duration * 1e6), 3764810);
            QCOMPARE(m.window.lines, m.lines);
        }
    }
    // The whole capture: the first boot's prompt, glued to the second boot's first line.
    const Metrics all = computeMetrics(*run, MetricOptions{});
    QCOMPARE(all.bootDoneLine, std::optional<LineIndex>(prompts[0]));
    if (hostts) {
        QCOMPARE(qRound64(*all.bootTimeFirstByte * 1e6), 7230468);
    }
}

// The same boots on the timeline: a boot whose first line carries the prompt before it
// was drawn from the prompt's arrival, 60 s of power cycle before its kernel printed, so
// with "start of capture" or "first kernel line" its trial sat 60 s right of the others;
// its banner's boot event too. Aligned on 'login:', the boot's first line (the prompt of
// the boot before) was taken for its own prompt.
void TstBoots::promptGluedOnTheTimeline()
{
    std::vector<LineIndex> starts, prompts;
    const std::shared_ptr<const Run> run =
        loadBytes(zstdCompress(poweredOffAtPrompt(true, 3, 0, &starts, &prompts, true, 60)));
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(3));
    const auto at = [&](LineIndex line) { return run->timeOf(line).value().count(); };
    const auto align = [&](const QString &spec, std::size_t b) {
        Alignment a;
        QString error;
        if (!Alignment::parse(spec, &a, &error)) {
            return -1.0;
        }
        const std::optional<RunSeconds> t =
            alignmentTime(*run, a, run->boots[b].first, run->boots[b].end);
        return t ? t->count() : -2.0;
    };
    // Each glued boot's second line (`Command line`) came 60 s after the prompt.
    for (std::size_t b = 1; b < 3; ++b) {
        QCOMPARE(qRound64((at(starts[b] + 1_lines) - at(prompts[b - 1])) * 1e6), 60'000'000);
    }
    for (std::size_t b = 1; b < 3; ++b) {
        const LineIndex second = starts[b] + 1_lines;
        QCOMPARE(align(QStringLiteral("start"), b), at(second));
        QCOMPARE(align(QStringLiteral("boot"), b), at(second));
        QCOMPARE(align(QStringLiteral("regex:Linux version"), b), at(second));
        // The boot event of its banner: with the banner's bytes, not the prompt's.
        const auto banner =
            std::find_if(run->events.begin(), run->events.end(), [&](const Event &e) {
                return e.kind == EventKind::Boot && e.line == starts[b];
            });
        QVERIFY(banner != run->events.end());
        QCOMPARE(run->eventTime(*banner)->count(), at(second));
        QCOMPARE(align(QStringLiteral("event:boot"), b), at(second));
    }
    // 'login:' in a boot's range: its own prompt, glued in front of the next boot's first
    // line (the prompt's own arrival), never the prompt of the boot before.
    QCOMPARE(align(QStringLiteral("login:"), 0), at(prompts[0]));
    QCOMPARE(prompts[1], starts[2]);
    QCOMPARE(align(QStringLiteral("login:"), 1), at(prompts[1]));
    QCOMPARE(align(QStringLiteral("login:"), 2), at(prompts[2]));
    QVERIFY(at(prompts[1]) < at(starts[2] + 1_lines) - 60);

    // Boots as trials: each trial's lane starts with its own bytes.
    Session s;
    BootChoice every;
    every.mode = BootChoice::Mode::EveryBoot;
    Side side;
    side.label = QStringLiteral("boots");
    side.trials = trialsOf(run, QStringLiteral("glued.log"), every);
    s.sides.append(side);
    const QVector<TimelineRun> runs = s.timelineRuns();
    QCOMPARE(runs.size(), 3);
    QCOMPARE(runs[0].shift, 0.0);
    QCOMPARE(runs[0].spanFrom, run->timeOf(starts[0]));
    for (int b = 1; b < 3; ++b) {
        const LineIndex second = starts[std::size_t(b)] + 1_lines;
        QCOMPARE(runs[b].shift, at(second));
        QCOMPARE(runs[b].spanFrom, run->timeOf(second));
        QCOMPARE(runs[b].spanTo,
                 run->timeOf(prompts[std::size_t(b)] - (b < 2 ? 1_lines : 0_lines)));
    }
}

// A board power-cycled at its prompt, whose firmware starts with a terminal reset: the
// reset ends the prompt's line ("corpusvm login: ESC c ESC[?7l ESC[2J ESC[0mSeaBIOS
// (version ..."). The line-anchored firmware rules missed it there, so the new boot began
// 16 ms later at the iPXE line and the old boot kept the firmware's first lines: with a
// 60 s power cycle each old boot's duration read 67.2 s, each new boot's lines produced in
// its first 30 s read 0 (counted from the prompt's arrival), and its boot time 7.214 s
// from a line that is not its first.
void TstBoots::promptGluedToFirmware_data()
{
    promptThenNextKernel_data();
}

void TstBoots::promptGluedToFirmware()
{
    QFETCH(bool, hostts);
    std::vector<LineIndex> starts, prompts;
    const std::shared_ptr<const Run> run = loadBytes(
        zstdCompress(poweredOffAtPrompt(hostts, 3, 0, &starts, &prompts, true, 60, true)));
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(3));
    QVERIFY(lineText(*run, starts[1])
                .startsWith("corpusvm login: \x1b"
                            "c\x1b[?7l\x1b[2J\x1b[0mSeaBIOS"));
    for (std::size_t b = 0; b < 3; ++b) {
        const Boot &boot = run->boots[b];
        QCOMPARE(boot.first, starts[b]);
        QCOMPARE(boot.firstKernelLine, std::optional<LineIndex>(starts[b] + 8_lines));
        const Metrics m = computeMetrics(*run, MetricOptions{}, boot.first, boot.end);
        // The capture's 371 lines less the poweroff line after the prompt, less the
        // prompt's line for all but the last boot (the prompt went to the next boot's
        // first line).
        QCOMPARE(m.lines, qint64(b < 2 ? 369 : 370) - 2);
        QCOMPARE(m.eventCounts[std::size_t(EventKind::Firmware)], qint64(3));
        QCOMPARE(m.bootDoneLine, std::optional<LineIndex>(prompts[b]));
        if (!hostts) {
            // The boot starts with its firmware's lines, which have no kernel time, and a
            // raw log no host times: where its first 30 s fall on the kernel clock is not
            // known (counted from the kernel's first line, the window would be another).
            QVERIFY(!m.window.producedKnown);
            QCOMPARE(m.window.producedUnknownWhy,
                     QStringLiteral("starts at line %1, which has no kernel time; no host times")
                         .arg(starts[b].value() + 1));
            QCOMPARE(m.bootTimeFirstByte, std::nullopt);
            continue;
        }
        QCOMPARE(m.window.produced, qint64(356));
        QCOMPARE(qRound64(m.bootTimeKernel.value() * 1e3), 3999);
        if (b == 0) {
            QCOMPARE(qRound64(*m.bootTimeFirstByte * 1e6), 7230468);
            QCOMPARE(qRound64(*m.duration * 1e6), 7230468);
            continue;
        }
        QCOMPARE(m.bootTimeFirstByte, std::nullopt);
        QCOMPARE(m.bootStartNote,
                 QStringLiteral("the boot's first line starts with the prompt of the system "
                                "before it: when its own first byte came is not known"));
        // From the firmware's second line (16.594 ms after SeaBIOS's in the capture), 60 s
        // after the prompt (±1 µs: the test shifted the host times by sums of doubles).
        const auto micros = [](double s) { return qRound64(s * 1e6); };
        QVERIFY(std::abs(micros(*m.duration) - (7230468 - 16594)) <= 1);
        const double cycle =
            run->timeOf(starts[b] + 1_lines)->count() - run->timeOf(prompts[b - 1])->count();
        QVERIFY(std::abs(micros(cycle) - 60016594) <= 1);
        Alignment start;
        QCOMPARE(alignmentTime(*run, start, boot.first, boot.end),
                 run->timeOf(starts[b] + 1_lines));
    }
    const Metrics all = computeMetrics(*run, MetricOptions{});
    QCOMPARE(all.bootDoneLine, std::optional<LineIndex>(prompts[0]));
    QCOMPARE(all.eventCounts[std::size_t(EventKind::Firmware)], qint64(9));
    if (hostts) {
        QCOMPARE(qRound64(*all.bootTimeFirstByte * 1e6), 7230468);
    }
}

void TstBoots::captureAttachedLate()
{
    QList<QByteArray> lines =
        sampleLines(QStringLiteral("boot_login-default-smp2-115200-t1.hostts.log.zst"));
    QCOMPARE(lines.size(), 371);
    lines = lines.mid(149);
    QVERIFY(lines.front().contains("[    1.535324] pinctrl core: initialized"));
    const auto run = loadBytes(lines.join('\n') + '\n');
    QVERIFY(run);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QVERIFY(m.bootDoneLine);
    QCOMPARE(m.bootTimeFirstByte, std::nullopt);
    QCOMPARE(m.bootTime, std::nullopt);
    QCOMPARE(qRound64(m.bootTimeKernel.value() * 1e3), 3938);
    QCOMPARE(m.bootStartNote, QStringLiteral("the boot's first line is 1.535 s into its kernel, "
                                             "with no firmware output before it: its start was "
                                             "not captured"));
    ReportColumn c;
    c.label = QStringLiteral("late");
    c.runs = {run.get()};
    c.boots = {std::nullopt};
    c.metrics = {m};
    c.files = {QStringLiteral("late.log")};
    const Report rep({c}, MetricOptions{});
    int rows = 0;
    for (const ReportRow &r : rep.rows()) {
        if (r.key == QLatin1String("boot_time_s") || r.key == QLatin1String("boot_wire_share")) {
            QCOMPARE(rep.cell(r, 0), QStringLiteral("n/a (start not captured)"));
            ++rows;
        } else if (r.key == QLatin1String("boot_time_kernel_s")) {
            QCOMPARE(rep.cell(r, 0), QStringLiteral("3.938"));
            ++rows;
        }
    }
    QCOMPARE(rows, 3);
    // The source table's boot share says the same, not "no host arrival times".
    const SourceIndex index = SourceIndex::build(*run);
    QCOMPARE(computeSources(*run, index, m, SourceGrouping::Template).bootNote,
             QStringLiteral("no boot time (%1)").arg(m.bootStartNote));

    const auto quiet = loadBytes(zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-quiet-smp2-115200-t1.hostts.log.zst")));
    QVERIFY(quiet);
    const Metrics q = computeMetrics(*quiet, MetricOptions{});
    QVERIFY(q.bootTimeFirstByte && q.bootTimeKernel);
    QCOMPARE(q.bootStartNote, QString());
}

void TstBoots::kernelTimeBackwards_data()
{
    QTest::addColumn<QByteArray>("log");
    QTest::addColumn<int>("boots");
    QTest::newRow("SMP reordering, no new boot")
        << QByteArray("[    0.000000] Linux version 6.1.0 (x)\n[    0.500000] a\n"
                      "[    0.499000] b from another CPU\n[    2.000000] c\n[    1.800000] d\n")
        << 1;
    QTest::newRow("falls back to 0: new boot without banner")
        << QByteArray("[    0.000000] Linux version 6.1.0 (x)\n[   50.000000] a\n"
                      "[    0.000000] x\n[    0.100000] y\n")
        << 2;
    QTest::newRow("banner starts a boot")
        << QByteArray("[    0.000000] Linux version 6.1.0 (x)\n[    3.000000] a\n"
                      "[    4.000000] Linux version 6.12.0 (kexec, time kept)\n")
        << 2;
    QTest::newRow("large drop far from zero")
        << QByteArray("[  100.000000] a\n[   60.000000] b\n") << 2;
    QTest::newRow("clock restarts after power off")
        << QByteArray("[    4.000000] reboot: Power down\n[    1.965651] harness: init\n") << 2;
    QTest::newRow("clock restarts after a panic")
        << QByteArray("[    3.499855] ---[ end Kernel panic - not syncing: VFS ]---\n"
                      "[    1.965651] harness: init\n")
        << 2;
    QTest::newRow("small step back after a panic: other CPUs")
        << QByteArray("[    3.499855] Kernel panic - not syncing: x\n"
                      "[    3.499000] CPU: 1 PID: 0 Comm: swapper\n")
        << 1;
    QTest::newRow("same fall without a cue: one boot")
        << QByteArray("[    4.000000] a\n[    1.965651] b\n") << 1;
    QTest::newRow("firmware banner")
        << QByteArray("[    4.000000] a\nSeaBIOS (version 1.16)\n[    5.000000] b\n") << 2;
    QTest::newRow("terminal reset") << QByteArray("[    4.000000] a\n\x1b"
                                                  "c\x1b[2J[    5.000000] b\n")
                                    << 2;
    QTest::newRow("firmware before the first kernel line: one boot")
        << QByteArray("\x1b"
                      "cSeaBIOS (version 1.16)\nBooting from ROM...\n"
                      "\x1b"
                      "c[    0.000000] Linux version 6.1.0 (x)\n[    0.1] b\n")
        << 1;
}

void TstBoots::kernelTimeBackwards()
{
    QFETCH(QByteArray, log);
    QFETCH(int, boots);
    const auto run = loadBytes(log);
    QVERIFY(run);
    QCOMPARE(int(run->boots.size()), boots);
    // Lines are placed monotonically on the timeline whatever the kernel clock did.
    for (LineIndex i{1}; i < run->lines.endIndex(); ++i) {
        QVERIFY(run->timeOf(i).value() >= run->timeOf(i - 1_lines).value());
    }
}

void TstBoots::hostClockStepsBack()
{
    const QByteArray log("1700000000.000000\t[    0.000000] Linux version 6.1.0 (x)\n"
                         "1700000001.000000\t[    1.000000] a\n"
                         "1699999990.000000\t[    1.100000] after NTP stepped back 11 s\n"
                         "1699999990.500000\t[    1.600000] b\n"
                         "1699999990.499999\t[    1.600001] c, 1 us jitter\n");
    const auto run = loadBytes(log);
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(5));
    const QString w = run->warnings.join(QLatin1Char(' '));
    QVERIFY2(w.contains(QLatin1String("host clock went back 1 time(s)")), qPrintable(w));
    QVERIFY2(w.contains(QLatin1String("largest step 11.000 s")), qPrintable(w));
    QVERIFY2(w.contains(QLatin1String("line 3")), qPrintable(w));
    for (LineIndex i{1}; i < run->lines.endIndex(); ++i) {
        QVERIFY(run->lines.arrival(i) >= run->lines.arrival(i - 1_lines));
    }
    // Shifted by the step: b arrives 0.5 s after the line before it.
    QCOMPARE(*run->lines.arrival(LineIndex(3)) - *run->lines.arrival(LineIndex(2)),
             Nanoseconds(500000000));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QVERIFY(m.hasLag());
    // The step does not turn into 11 s of lag (the folded line arrives with the one before).
    QVERIFY2(*m.lagMax < 0.2, qPrintable(QString::number(*m.lagMax)));
    QVERIFY(m.duration.value() > 1.4 && m.duration.value() < 1.6);
}

namespace {

// A capture of two real boots, a panic and then a login, as lines (CRLF left in).
QList<QByteArray> panicThenLoginLines()
{
    return (zstdDecompressFile(
                QStringLiteral(TTYSCOPE_SAMPLES "/panic_noroot-smp2-115200-t1.raw.zst")) +
            "\r\n" +
            zstdDecompressFile(
                QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-default-smp2-115200-t1.raw.zst")))
        .split('\n');
}

} // namespace

// Live capture splits boots over all lines but the last before each update, and finalizes
// after it; its last line, a partial line, may then still be completed. The boots must be
// those of a run split in one go.
void TstBoots::splitAsLinesCome()
{
    const QList<QByteArray> lines = panicThenLoginLines();
    QVERIFY(lines.size() > 700);
    const RuleSet rules = RuleSet::builtin();
    Run live, whole;
    live.hasArrival = whole.hasArrival = true;
    RunBuilder liveBuilder(live, rules), wholeBuilder(whole, rules);
    for (int i = 0; i < lines.size(); ++i) {
        const QByteArray &l = lines[i];
        const HostNs t =
            HostNs(std::int64_t(1700000000) * 1000000000) + Nanoseconds(std::int64_t(i) * 10000000);
        wholeBuilder.addLine(std::string_view(l.constData(), std::size_t(l.size())), t);
        // The live run first sees half of each line, as an idle partial line, then all of it.
        const QByteArray half = l.left(l.size() / 2);
        liveBuilder.addLine(std::string_view(half.constData(), std::size_t(half.size())), t,
                            NoNewline);
        live.splitBootsSoFar(live.lines.endIndex() - 1_lines);
        live.finalize();
        liveBuilder.replaceLastLine(std::string_view(l.constData(), std::size_t(l.size())), 0);
        if (i % 7 == 0) {
            live.splitBootsSoFar(live.lines.endIndex() - 1_lines);
            live.finalize();
        }
    }
    live.finalize();
    whole.finalize();
    QCOMPARE(whole.boots.size(), std::size_t(2));
    QCOMPARE(live.boots.size(), whole.boots.size());
    for (std::size_t b = 0; b < whole.boots.size(); ++b) {
        QCOMPARE(live.boots[b].first, whole.boots[b].first);
        QCOMPARE(live.boots[b].end, whole.boots[b].end);
        QCOMPARE(live.boots[b].firstKernelLine, whole.boots[b].firstKernelLine);
        QCOMPARE(live.boots[b].kernelZero, whole.boots[b].kernelZero);
        QCOMPARE(live.boots[b].version, whole.boots[b].version);
    }
    QCOMPARE(live.kernelLines, whole.kernelLines);
}

// A log big enough to be searched in slices on every core (2^20 lines or more a slice), with
// a boot running across the slices' boundary that prints the pattern only in its second
// half: each slice starts at the boot holding its first line, not at the run's first boot.
void TstBoots::regexChoiceAcrossSlices()
{
    const QByteArray banner = "[    0.000000] Linux version 6.1.0-1-amd64 (debian-kernel@"
                              "lists.debian.org) #1 SMP PREEMPT_DYNAMIC Debian 6.1.4-1\n";
    QByteArray log;
    log += banner + "[    0.100000] needle in the first boot\n[    0.200000] a\n";
    log += banner + QByteArray("[    0.100000] b\n").repeated(2'400'000);
    log += "[    0.300000] needle at the end of the second boot\n";
    log += banner + "[    0.100000] c\n";
    log += banner + "[    0.100000] d\n";
    const auto run = loadBytes(log, withFormat(QStringLiteral("raw")));
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(4));
    QCOMPARE(sharedSliceCount(run->lines.endIndex() - LineIndex(0)), 2);
    BootSelector with, without;
    QString error;
    QVERIFY(BootSelector::parse(QStringLiteral("/needle/"), &with, &error));
    QVERIFY(BootSelector::parse(QStringLiteral("!/needle/"), &without, &error));
    QCOMPARE(with.select(*run), (std::vector<int>{0, 1}));
    QCOMPARE(without.select(*run), (std::vector<int>{2, 3}));
    // A regex with no literal to look for first is run on every line.
    QVERIFY(BootSelector::parse(QStringLiteral("/ne+dle|c$/"), &with, &error));
    QCOMPARE(with.select(*run), (std::vector<int>{0, 1, 2}));
}

// A live run's alignment anchor, searched again only where it grew (AnchorSearch), is
// the one a whole search finds at every step: also while the last line is half there,
// and for anchors that come late (the panic, the second boot's login) or never.
void TstBoots::anchorSearchAsLinesCome()
{
    const QList<QByteArray> lines = panicThenLoginLines();
    std::vector<Alignment> alignments;
    for (const char *spec : {"start", "boot", "panic", "event:reboot", "regex:login:",
                             "regex:Kernel panic - not syncing: VFS", "regex:no such line"}) {
        Alignment a;
        QString error;
        QVERIFY2(Alignment::parse(QString::fromLatin1(spec), &a, &error), qPrintable(error));
        alignments.push_back(a);
    }
    std::vector<AnchorSearch> searches(alignments.size());
    std::vector<bool> found(alignments.size(), false);
    const RuleSet rules = RuleSet::builtin();
    Run live;
    live.hasArrival = true;
    RunBuilder builder(live, rules);
    auto check = [&](int step) {
        for (std::size_t k = 0; k < alignments.size(); ++k) {
            const std::optional<RunSeconds> resumed =
                alignmentTime(live, alignments[k], LineIndex(0), std::nullopt, &searches[k]);
            const std::optional<RunSeconds> whole = alignmentTime(live, alignments[k]);
            QVERIFY2(
                resumed == whole,
                qPrintable(QStringLiteral("%1 at line %2").arg(alignments[k].spec()).arg(step)));
            found[k] = found[k] || whole.has_value();
        }
    };
    for (int i = 0; i < lines.size(); ++i) {
        const QByteArray &l = lines[i];
        const HostNs t =
            HostNs(std::int64_t(1700000000) * 1000000000) + Nanoseconds(std::int64_t(i) * 10000000);
        const QByteArray half = l.left(l.size() / 2);
        builder.addLine(std::string_view(half.constData(), std::size_t(half.size())), t, NoNewline);
        live.splitBootsSoFar(live.lines.endIndex() - 1_lines);
        live.finalize();
        check(i);
        builder.replaceLastLine(std::string_view(l.constData(), std::size_t(l.size())), 0);
        live.splitBootsSoFar(live.lines.endIndex() - 1_lines);
        live.finalize();
        check(i);
    }
    // All but "no such line" were found on the way; it was searched once a line.
    QCOMPARE(found, (std::vector<bool>{true, true, true, true, true, true, false}));
    QCOMPARE(searches.back().from, live.lines.endIndex() - 1_lines);
    QVERIFY(!searches.back().line);
}

QTEST_GUILESS_MAIN(TstBoots)
#include "tst_boots.moc"
