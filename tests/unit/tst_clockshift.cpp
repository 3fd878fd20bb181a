// The kernel's clock and the host's moving apart within a boot (Boot::shifts): a suspend
// stops the kernel's clock, so its timestamps after the resume go on from where they
// were while the host's went on running, and a host clock can step forward. A single
// offset per boot read every line after such a point as lagging by the whole gap (7.6 s
// on the suspend fixtures, 300 days with a host clock stepped forward by that much). The
// fixtures are real captures of a suspend to RAM under QEMU (tests/fixtures/suspend).
#include "metrics.h"
#include "runbuilder.h"
#include "tst_helpers.h"

#include <QDir>
#include <QTest>

using namespace tty;
using namespace testutil;

class TstClockShift : public QObject
{
    Q_OBJECT
private slots:
    void suspend_data();
    void suspend();
    void hostClockStepAtIdle();
    void stepInABacklogIsNotTakenForOne();
    void noneInTheSamples();
    void foundAsLinesCome();
};

namespace {
std::unique_ptr<Run> load(const QString &path)
{
    QString error;
    std::unique_ptr<Run> run = loadRun(path, LoadOptions{}, &error);
    if (!run) {
        qWarning("%s: %s", qPrintable(path), qPrintable(error));
    }
    return run;
}

// A bundled capture with the host's times from 1-based line `from` on moved by `step` s:
// what a host clock stepped forward (NTP, a board without an RTC) leaves in a log.
QByteArray steppedFrom(const QString &sample, int from, double step)
{
    QByteArray out;
    const QList<QByteArray> lines =
        zstdDecompressFile(QStringLiteral(TTYSCOPE_SAMPLES "/") + sample).split('\n');
    for (int i = 0; i < lines.size(); ++i) {
        const QByteArray &l = lines[i];
        const qsizetype tab = l.indexOf('\t');
        if (i + 1 < from || tab < 0) {
            out += l + (i + 1 < lines.size() ? "\n" : "");
            continue;
        }
        const double t = l.left(tab).toDouble() + step;
        out += QByteArray::number(t, 'f', 6) + l.mid(tab) + '\n';
    }
    return out;
}

std::int64_t shiftMicros(const Boot &b, std::size_t k)
{
    const HostNs before = k == 0 ? *b.kernelZero : b.shifts[k - 1].zero;
    return (b.shifts[k].zero - before).count() / 1000;
}
} // namespace

void TstClockShift::suspend_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<qint64>("line");  // 1-based: the first line after the resume
    QTest::addColumn<qint64>("shift"); // µs
    QTest::addColumn<qint64>("lagMax");
    // The console printed up to the sleep: `ACPI: PM: Low-level resume complete` is the
    // first line after it.
    QTest::newRow("no_console_suspend") << "suspend-no_console_suspend.hostts.log" << qint64(374)
                                        << qint64(7613266) << qint64(205572);
    // The lines logged after `printk: Suspending console(s)` came out at the resume.
    QTest::newRow("console suspended") << "suspend-console_suspended.hostts.log" << qint64(371)
                                       << qint64(7941547) << qint64(186815);
}

void TstClockShift::suspend()
{
    QFETCH(QString, file);
    QFETCH(qint64, line);
    QFETCH(qint64, shift);
    QFETCH(qint64, lagMax);
    const auto run = load(QStringLiteral(TTYSCOPE_FIXTURES "/suspend/") + file);
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(1));
    const Boot &b = run->boots.front();
    QCOMPARE(b.shifts.size(), std::size_t(1));
    QCOMPARE(lineNumber(b.shifts.front().from), line);
    QCOMPARE(shiftMicros(b, 0), shift);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(micros(*m.lagMax), lagMax);
    // The resumed system's first line of its own came at once.
    const std::optional<LineIndex> resumed =
        findFirst(*run, QStringLiteral("harness: resumed"), LineIndex(0), run->lines.endIndex());
    QVERIFY(resumed);
    QVERIFY(run->lagOf(*resumed)->count() < 0.01);
    QCOMPARE(run->warnings.size(), qsizetype(1));
    QVERIFY2(run->warnings.front().startsWith(QLatin1String(
                 "the kernel's clock fell behind the host's 1 time(s) within a boot")),
             qPrintable(run->warnings.front()));
}

// A host clock stepped forward by 300 days while the console was idle (before the module
// that floods it is loaded): the lag keeps its size, 9.724 s against the capture's 10.010
// (the kernel's new offset is the least lag after the step, which came 0.286 s late). The
// duration keeps the host's clock, step and all.
void TstClockShift::hostClockStepAtIdle()
{
    const double step = 300 * 86400.0;
    const auto run =
        loadBytes(steppedFrom(QStringLiteral("spam_rmmod-A_default-smp4-115200-t1.hostts.log.zst"),
                              364, step),
                  LoadOptions{}, nullptr, QStringLiteral("stepped.hostts.log"));
    QVERIFY(run);
    const Boot &b = run->boots.front();
    QCOMPARE(b.shifts.size(), std::size_t(1));
    QCOMPARE(lineNumber(b.shifts.front().from), qint64(364));
    QCOMPARE(shiftMicros(b, 0), qint64(25920000285981));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(micros(*m.lagMax), qint64(9723844));
    QCOMPARE(micros(*m.duration), qint64(25920050476192));
}

// A step while the console is working off a backlog looks like the backlog growing: it is
// not taken for a shift (the lag figures then hold the step: the warning-free limit of
// what the log can tell).
void TstClockShift::stepInABacklogIsNotTakenForOne()
{
    const auto run =
        loadBytes(steppedFrom(QStringLiteral("spam_rmmod-A_default-smp4-115200-t1.hostts.log.zst"),
                              5001, 600),
                  LoadOptions{}, nullptr, QStringLiteral("stepped.hostts.log"));
    QVERIFY(run);
    QVERIFY(run->boots.front().shifts.empty());
    QVERIFY(run->warnings.isEmpty());
}

// A console that builds up and works off a backlog (the floods, the panic after one),
// boots with and without a prompt: no shift anywhere.
void TstClockShift::noneInTheSamples()
{
    const QStringList files =
        QDir(QStringLiteral(TTYSCOPE_SAMPLES)).entryList({QStringLiteral("*.hostts.log.zst")});
    QCOMPARE(files.size(), 10);
    for (const QString &f : files) {
        const auto run = load(QStringLiteral(TTYSCOPE_SAMPLES "/") + f);
        QVERIFY(run);
        for (const Boot &b : run->boots) {
            QVERIFY2(b.shifts.empty(), qPrintable(f));
        }
    }
}

// A live capture splits boots as lines come (Run::splitBootsSoFar, finalize five times a
// second): it finds the shift where a run split in one go does.
void TstClockShift::foundAsLinesCome()
{
    QFile f(QStringLiteral(TTYSCOPE_FIXTURES "/suspend/suspend-no_console_suspend.hostts.log"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    Run live, whole;
    buildLiveAndWhole(f.readAll(), &live, &whole, 5);
    QCOMPARE(whole.boots.size(), std::size_t(1));
    QCOMPARE(live.boots.size(), std::size_t(1));
    const Boot &a = live.boots.front(), &b = whole.boots.front();
    QCOMPARE(b.shifts.size(), std::size_t(1));
    QCOMPARE(lineNumber(b.shifts.front().from), qint64(374));
    QCOMPARE(a.shifts.size(), b.shifts.size());
    QCOMPARE(a.shifts.front().from, b.shifts.front().from);
    QCOMPARE(a.shifts.front().zero, b.shifts.front().zero);
    QCOMPARE(a.kernelZero, b.kernelZero);
}

QTEST_GUILESS_MAIN(TstClockShift)
#include "tst_clockshift.moc"
