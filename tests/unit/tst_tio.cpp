// tio's timestamped log (capture/tioformat.cpp): the fixtures are real tio 2.5 logs of two
// bundled captures replayed through a pseudo-terminal at their own pace
// (tests/fixtures/tio/replay.py); the clocks' corner cases are written out here.
#include "metrics.h"
#include "tst_helpers.h"

#include <QTest>

using namespace tty;
using namespace testutil;

class TstTio : public QObject
{
    Q_OBJECT
private slots:
    void realTioLogs_data();
    void realTioLogs();
    void midnight();
    void clockSetBack();
    void deltas();
    void linesWithoutStamps();
    void formatSwitchedInSession();
    void deltasPastTheClock();
    void bigLogOnEveryCore();
};

namespace {
std::unique_ptr<Run> loadTio(const QByteArray &text)
{
    return loadBytes(text, withFormat(QStringLiteral("tio")));
}

std::int64_t at(const Run &run, qint64 line)
{
    const std::optional<RunSeconds> t = run.timeOf(LineIndex(line));
    return t ? micros(t->count()) : -1;
}
} // namespace

void TstTio::realTioLogs_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<bool>("wallClock");
    QTest::addColumn<qint64>("lines");
    QTest::addColumn<qint64>("kernelLines");
    QTest::addColumn<qint64>("durationUs");
    QTest::addColumn<qint64>("lagMaxUs");
    QTest::addColumn<qint64>("bootTimeUs"); // -1: no login prompt
    QTest::addColumn<bool>("panicComplete");
    // The same figures as the hostts captures they were replayed from (371 / 359 lines,
    // 9.288 s, lag 0.666780 s; 370 / 362, 6.974 s, 0.646 s): tio stamps in milliseconds.
    QTest::newRow("24hour-start, boot to login")
        << QStringLiteral("boot_login-default-24hour-start.log") << false << qint64(371)
        << qint64(359) << qint64(9'288'000) << qint64(666'571) << qint64(7'231'000) << false;
    QTest::newRow("iso8601, panic")
        << QStringLiteral("panic_noroot-iso8601.log") << true << qint64(370) << qint64(362)
        << qint64(6'974'000) << qint64(646'433) << qint64(-1) << true;
}

void TstTio::realTioLogs()
{
    QFETCH(QString, fixture);
    QFETCH(bool, wallClock);
    QFETCH(qint64, lines);
    QFETCH(qint64, kernelLines);
    QFETCH(qint64, durationUs);
    QFETCH(qint64, lagMaxUs);
    QFETCH(qint64, bootTimeUs);
    QFETCH(bool, panicComplete);
    QString error;
    // Detected by its stamps, as a user opens it.
    const std::unique_ptr<Run> run =
        loadRun(QStringLiteral(TTYSCOPE_FIXTURES "/tio/") + fixture, LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    QCOMPARE(formatName(run->meta.format), QStringLiteral("tio"));
    QVERIFY2(run->warnings.isEmpty(), qPrintable(run->warnings.join(u'\n')));
    QVERIFY(run->hasArrival);
    QCOMPARE(run->arrivalIsWallClock, wallClock);
    // The stamp is gone from the text; the kernel's own prefix follows.
    QVERIFY(lineText(*run, LineIndex(9))
                .startsWith("[    0.000000] Command line: console=ttyS0,115200 panic=0"));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.lines, lines);
    QCOMPARE(m.kernelLines, kernelLines);
    QCOMPARE(micros(m.duration.value()), durationUs);
    QCOMPARE(micros(m.lagMax.value()), lagMaxUs);
    QCOMPARE(m.bootTime ? micros(*m.bootTime) : -1, bootTimeUs);
    QCOMPARE(m.panic.detected, panicComplete);
    QCOMPARE(m.panic.complete, panicComplete);
    QCOMPARE(m.boots, 1);
}

// 24hour is the local time of day: midnight comes between two lines.
void TstTio::midnight()
{
    const auto run = loadTio("[23:59:59.900] [   10.000000] a\r\n"
                             "[00:00:00.100] [   10.200000] b\r\n"
                             "[00:00:01.100] [   11.200000] c\r\n");
    QVERIFY(run);
    QCOMPARE(at(*run, 0), qint64(0));
    QCOMPARE(at(*run, 1), qint64(200'000));
    QCOMPARE(at(*run, 2), qint64(1'200'000));
    QVERIFY(run->warnings.isEmpty());
}

// 24hour is the host's local time: the end of summer time sets it back an hour. One such
// step is not deltas, and not a day: the loader folds it as any host clock set back.
void TstTio::clockSetBack()
{
    const auto run = loadTio("[02:59:59.000] [   10.000000] a\r\n"
                             "[02:00:00.500] [   10.500000] b\r\n"
                             "[02:00:01.500] [   11.500000] c\r\n");
    QVERIFY(run);
    QCOMPARE(at(*run, 0), qint64(0));
    QCOMPARE(at(*run, 1), qint64(0)); // folded onto the line before
    QCOMPARE(at(*run, 2), qint64(1'000'000));
    QCOMPARE(run->warnings.size(), 1);
    QVERIFY2(run->warnings.front().contains(QLatin1String("host clock went back 1 time(s)")),
             qPrintable(run->warnings.front()));
}

// 24hour-delta: each stamp is the time since the one before (the first: since tio started).
// Summed; never read as a clock that keeps going back.
void TstTio::deltas()
{
    const auto run = loadTio("[00:00:01.000] [    0.000000] a\r\n"
                             "[00:00:00.005] [    0.005000] b\r\n"
                             "[00:00:02.000] [    2.005000] c\r\n"
                             "[00:00:00.004] [    2.009000] d\r\n");
    QVERIFY(run);
    QCOMPARE(at(*run, 0), qint64(0));
    QCOMPARE(at(*run, 1), qint64(5'000));
    QCOMPARE(at(*run, 2), qint64(2'005'000));
    QCOMPARE(at(*run, 3), qint64(2'009'000));
    QCOMPARE(run->warnings, QStringList(QStringLiteral(
                                "tio 24hour-delta stamps: arrival times are the sum of the deltas "
                                "from tio's start")));
    // Lines at the pace they were produced: no lag.
    QCOMPARE(micros(computeMetrics(*run, MetricOptions{}).lagMax.value()), qint64(0));
}

// tio stamps a line at its first byte other than CR or LF: a line of CRs alone has no
// stamp, CRs in front of a line come before its stamp, and the file may start with such a
// line. Run second 0 is the first stamp.
void TstTio::linesWithoutStamps()
{
    const auto run = loadTio("\r\r\n"
                             "\r[2026-12-06T05:43:39.526] a\r\n"
                             "\r\r\n"
                             "[2026-12-06T05:43:40.727] b\r\n"
                             "text without a stamp\r\n");
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(5));
    QCOMPARE(at(*run, 0), qint64(-1)); // before any stamp: no time
    QCOMPARE(lineText(*run, LineIndex(1)), QByteArray("a"));
    QCOMPARE(at(*run, 1), qint64(0));
    QCOMPARE(at(*run, 2), qint64(0)); // after `a`: its time
    QCOMPARE(at(*run, 3), qint64(1'201'000));
    QCOMPARE(at(*run, 4), qint64(1'201'000));
    QVERIFY(run->arrivalIsWallClock);
    QCOMPARE(run->warnings,
             QStringList(QStringLiteral("1 line(s) with text had no tio timestamp; they were kept "
                                        "with the time of the line before")));
}

// ctrl-t t switches the stamp format during a session: a stamp of the other kind cannot be
// placed on the first kind's clock.
void TstTio::formatSwitchedInSession()
{
    const auto run = loadTio("[05:43:39.000] a\r\n"
                             "[2026-12-06T05:43:40.000] b\r\n"
                             "[05:43:41.500] c\r\n");
    QVERIFY(run);
    QCOMPARE(at(*run, 1), qint64(0));
    QCOMPARE(at(*run, 2), qint64(2'500'000));
    QVERIFY(!run->arrivalIsWallClock);
    QCOMPARE(run->warnings.size(), 1);
    QVERIFY(run->warnings.front().startsWith(QLatin1String("1 line(s) had a tio timestamp of "
                                                           "another format")));
}

// Untrusted input: 106,760 deltas of almost a day each add up past int64 nanoseconds
// (292 years) after 106,751 of them; those lines keep the time before, never a wrapped one.
// Long before that the loader's own guard (docs/report.md) refuses arrivals 146 years from
// the others: from line 53,379 on, each keeps the time of the line before.
void TstTio::deltasPastTheClock()
{
    QByteArray text = "[00:00:01.000] a\n[00:00:00.500] b\n[00:00:00.250] b\n";
    for (int i = 0; i < 106'760; ++i) {
        text += "[23:59:59.999] c\n";
    }
    const auto run = loadTio(text);
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(106'763));
    QCOMPARE(run->warnings.size(), 3);
    QVERIFY2(run->warnings[1].startsWith(QLatin1String("9 line(s) had a tio timestamp past")),
             qPrintable(run->warnings[1]));
    QVERIFY2(run->warnings[2].startsWith(QLatin1String("53385 arrival time(s) were too far")),
             qPrintable(run->warnings[2]));
    // The last line placed, 0-based 53,377: 0.75 s + 53,375 × 86,399.999 s (in milliseconds:
    // a double holds this many seconds to about a microsecond).
    const double last = run->timeOf(LineIndex(53'377))->count();
    QCOMPARE(qRound64(last * 1000), qint64(4'611'599'947'375));
    QCOMPARE(run->timeOf(LineIndex(106'762))->count(), last);
}

// A tio log past the size that is parsed on the calling thread goes through the reader and
// the block parsers (stampedblocks.h): the 6.12-rt flood, stamped as tio 24hour stamps it
// (the UTC time of day, to the millisecond), gives the truth's lines, kernel lines and
// drops, and each line the host-stamped log's arrival to the millisecond.
void TstTio::bigLogOnEveryCore()
{
    const QByteArray hostts = zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst"));
    const QByteArray tio = restamped(hostts, [](double seconds, const QByteArray &text) {
        const QTime t = QTime(0, 0).addMSecs(int(qRound64(seconds * 1000.0) % 86'400'000));
        return '[' + t.toString(QStringLiteral("HH:mm:ss.zzz")).toLatin1() + "] " + text;
    });
    QVERIFY(tio.size() > 256 * 1024); // past the calling thread's share
    QString error;
    const auto run = loadBytes(tio, LoadOptions{}, &error);
    const auto reference = loadBytes(hostts, LoadOptions{}, &error);
    QVERIFY2(run && reference, qPrintable(error));
    QCOMPARE(formatName(run->meta.format), QStringLiteral("tio"));
    QCOMPARE(run->lines.size(), LineCount(11365));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.kernelLines - m.kernelLinesBehindText, std::int64_t(9776));
    QCOMPARE(m.droppedMessages, std::int64_t(3881));
    const QString differs = differingLine(*run, *reference, 1'000'000); // tio's milliseconds
    QVERIFY2(differs.isEmpty(), qPrintable(differs));
}

QTEST_GUILESS_MAIN(TstTio)
#include "tst_tio.moc"
