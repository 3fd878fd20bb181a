// The kernel's clock and the host's running at different rates within a boot
// (capture/clockdrift.h). A board's crystal is tens of ppm off the host's NTP-disciplined
// clock: measured from one offset, a long capture's console lags hold the drift (0.24 s
// over 20 minutes at 200 ppm). The fixture is a real 20-minute capture under QEMU
// (tests/fixtures/drift), whose host stamps are scaled here as a host clock running fast
// or slow against the kernel's would have stamped them.
#include "clockdrift.h"
#include "metrics.h"
#include "runbuilder.h"
#include "tst_helpers.h"

#include <QDir>
#include <QTest>

#include <cmath>

using namespace tty;
using namespace testutil;

class TstClockDrift : public QObject
{
    Q_OBJECT
private slots:
    void floorLine();
    void notDrift_data();
    void notDrift();
    void capture_data();
    void capture();
    void noneInTheSamples();
    void foundAsLinesCome();
};

namespace {
const QString kCapture = QStringLiteral(TTYSCOPE_FIXTURES "/drift/drift-20min.hostts.log.zst");

// The capture with its host times moved as a host clock running `ppm` fast against the
// kernel's would have stamped them (from its first line on).
QByteArray scaled(double ppm)
{
    QByteArray out;
    const QList<QByteArray> lines = zstdDecompressFile(kCapture).split('\n');
    double t0 = -1;
    for (const QByteArray &l : lines) {
        const qsizetype tab = l.indexOf('\t');
        if (tab < 0) {
            continue;
        }
        const double t = l.left(tab).toDouble();
        t0 = t0 < 0 ? t : t0;
        out += QByteArray::number(t0 + (t - t0) * (1 + ppm * 1e-6), 'f', 6) + l.mid(tab) + '\n';
    }
    return out;
}

KernelUs kernelSeconds(double s)
{
    return KernelUs(std::llround(s * 1e6));
}

HostNs hostSeconds(double s)
{
    return HostNs(std::llround(s * 1e9));
}
} // namespace

// Idle points on a line drifting 100 ppm, some of them late (a console lock held): the
// lower line through them has the drift's slope exactly.
void TstClockDrift::floorLine()
{
    IdleFloor f;
    for (int i = 0; i <= 300; ++i) {
        const double x = 4.0 * i;
        const double late = i % 7 == 3 ? 0.3 : (i % 5 == 1 ? 0.002 * i : 0.0);
        f.add(kernelSeconds(x), hostSeconds(1000 + 100e-6 * x + late));
    }
    const std::optional<double> r = f.rate(Microseconds(1200000000));
    QVERIFY(r);
    QVERIFY2(std::abs(*r - 100e-6) < 1e-9, qPrintable(QString::number(*r * 1e6, 'f', 6)));
}

void TstClockDrift::notDrift_data()
{
    QTest::addColumn<double>("span");  // seconds of kernel time the idle points cover
    QTest::addColumn<double>("slope"); // of their offsets
    // Under 10 minutes of idle points: 200 ppm is 0.12 s at most.
    QTest::newRow("short") << 590.0 << 200e-6;
    // 2000 ppm is not a crystal's error: a clock stepped, or a backlog.
    QTest::newRow("steep") << 1200.0 << 2000e-6;
    // 2 ppm over 20 minutes moves the offset by 2.4 ms: not worth a figure's change.
    QTest::newRow("small") << 1200.0 << 2e-6;
}

void TstClockDrift::notDrift()
{
    QFETCH(double, span);
    QFETCH(double, slope);
    IdleFloor f;
    for (double x = 0; x <= span; x += 5) {
        f.add(kernelSeconds(x), hostSeconds(50 + slope * x));
    }
    QVERIFY(!f.rate(Microseconds(std::llround(span * 1e6))));
}

void TstClockDrift::capture_data()
{
    QTest::addColumn<double>("ppm");
    QTest::addColumn<bool>("drifts");
    QTest::newRow("as captured") << 0.0 << false;
    QTest::newRow("host 200 ppm fast") << 200.0 << true;
    QTest::newRow("host 150 ppm slow") << -150.0 << true;
}

// The capture's lag figures as they are, and with its host stamps drifting: the same
// within a millisecond. One offset read lag max 0.828 s and p50 0.540 s at +200 ppm,
// 0.607 s and 0.332 s at -150 ppm, against the capture's 0.635 s and 0.420 s.
void TstClockDrift::capture()
{
    QFETCH(double, ppm);
    QFETCH(bool, drifts);
    QString error;
    const auto plain = loadRun(kCapture, LoadOptions{}, &error);
    QVERIFY(plain);
    const Metrics base = computeMetrics(*plain, MetricOptions{});
    // As captured: no drift under QEMU (a line stamped [    0.000000] before the
    // kernel's clock ran is no idle point: it read 78.7 ppm).
    QCOMPARE(micros(*base.lagMax), qint64(634848));
    QCOMPARE(plain->boots.front().kernelRate, 1.0);

    const auto run =
        loadBytes(scaled(ppm), LoadOptions{}, nullptr, QStringLiteral("drift.hostts.log"));
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(1));
    const Boot &b = run->boots.front();
    const Metrics m = computeMetrics(*run, MetricOptions{});
    if (!drifts) {
        QCOMPARE(b.kernelRate, 1.0);
        QVERIFY(run->warnings.isEmpty());
        return;
    }
    QVERIFY2(std::abs((b.kernelRate - 1) * 1e6 - ppm) < 2.0,
             qPrintable(QString::number((b.kernelRate - 1) * 1e6)));
    // Lags are durations on the host's clock, which the scaling made longer or shorter.
    const double hostRate = 1 + ppm * 1e-6;
    QVERIFY2(std::abs(*m.lagMax - *base.lagMax * hostRate) < 0.001,
             qPrintable(QStringLiteral("%1 vs %2").arg(*m.lagMax).arg(*base.lagMax)));
    QVERIFY(std::abs(*m.lagP99 - *base.lagP99 * hostRate) < 0.001);
    QVERIFY(std::abs(*m.lagP50 - *base.lagP50 * hostRate) < 0.001);
    QCOMPARE(run->warnings.size(), qsizetype(1));
    QVERIFY2(run->warnings.front().startsWith(QStringLiteral("boot 1: the kernel's clock ran ")),
             qPrintable(run->warnings.front()));
    // No line is earlier than its production (by more than a nanosecond of rounding: the
    // stamps are microseconds).
    for (LineIndex i{0}; i < run->lines.endIndex(); ++i) {
        if (const std::optional<Seconds> lag = run->lagOf(i)) {
            QVERIFY2(lag->count() >= -1e-9, qPrintable(QString::number(lag->count(), 'g', 17)));
        }
    }
}

// The bundled captures last under a minute: none is corrected.
void TstClockDrift::noneInTheSamples()
{
    const QStringList files =
        QDir(QStringLiteral(TTYSCOPE_SAMPLES)).entryList({QStringLiteral("*.hostts.log.zst")});
    QCOMPARE(files.size(), 10);
    for (const QString &f : files) {
        QString error;
        const auto run = loadRun(QStringLiteral(TTYSCOPE_SAMPLES "/") + f, LoadOptions{}, &error);
        QVERIFY(run);
        for (const Boot &b : run->boots) {
            QVERIFY2(b.kernelRate == 1.0, qPrintable(f));
        }
    }
}

// A live capture splits boots as lines come (finalize five times a second): the drift is
// the one a run split in one go finds.
void TstClockDrift::foundAsLinesCome()
{
    Run live, whole;
    buildLiveAndWhole(scaled(200), &live, &whole, 50);
    QCOMPARE(live.boots.size(), std::size_t(1));
    QCOMPARE(whole.boots.size(), std::size_t(1));
    QVERIFY(whole.boots.front().kernelRate != 1.0);
    QCOMPARE(live.boots.front().kernelRate, whole.boots.front().kernelRate);
    QCOMPARE(live.boots.front().kernelZero, whole.boots.front().kernelZero);
}

QTEST_GUILESS_MAIN(TstClockDrift)
#include "tst_clockdrift.moc"
