// The bundled real captures against their independently counted .truth.json figures.
#include "metrics.h"
#include "run.h"
#include "runloader.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>

using namespace tty;

namespace {

QJsonObject readTruth(const QString &name, const QString &dir = QStringLiteral(TTYSCOPE_SAMPLES))
{
    QFile f(QStringLiteral("%1/%2.truth.json").arg(dir, name));
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(f.readAll()).object();
}

bool isNull(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).isNull() || o.value(QLatin1String(key)).isUndefined();
}

// Kernel lines whose timestamp starts the line, as the truth scripts count them.
qint64 linesWithTimestampAtStart(const Run &run)
{
    qint64 n = 0;
    for (LineIndex i{0}; i < run.lines.endIndex(); ++i) {
        if (run.lines.kernelTime(i) && !(run.lines.flags(i) & KernelTimeNotAtStart)) {
            ++n;
        }
    }
    return n;
}

} // namespace

class TstTruth : public QObject
{
    Q_OBJECT
private slots:
    void captures_data();
    void captures();
    void blastCaptures_data();
    void blastCaptures();
};

void TstTruth::captures_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("variant");
    const QDir dir(QStringLiteral(TTYSCOPE_SAMPLES));
    const QStringList files = dir.entryList({QStringLiteral("*.zst")}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 24);
    for (const QString &f : files) {
        const int dot = f.indexOf(QLatin1Char('.'));
        const QString name = f.left(dot);
        QString variant = f.mid(dot + 1);
        variant.chop(variant.endsWith(QLatin1String(".log.zst")) ? 8 : 4);
        QTest::newRow(qPrintable(f)) << dir.filePath(f) << name << variant;
    }
}

void TstTruth::captures()
{
    QFETCH(QString, file);
    QFETCH(QString, name);
    QFETCH(QString, variant);
    const QJsonObject truth = readTruth(name);
    QVERIFY2(!truth.isEmpty(), qPrintable(name));

    QString error;
    const std::unique_ptr<Run> run = loadRun(file, LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    QVERIFY2(!run->load.stoppedEarly(), qPrintable(run->load.message));
    QVERIFY2(run->warnings.isEmpty(), qPrintable(run->warnings.join(QLatin1Char('\n'))));

    const QString expectedFormat =
        variant.startsWith(QLatin1String("grabserial")) ? QStringLiteral("grabserial") : variant;
    QCOMPARE(formatName(run->meta.format), expectedFormat);
    const bool timed = variant != QLatin1String("raw");
    QCOMPARE(run->hasArrival, timed);

    MetricOptions o;
    o.spans.append(
        {QStringLiteral("harness: rmmod"), QStringLiteral("noise: all workers stopped")});
    const Metrics m = computeMetrics(*run, o);

    QCOMPARE(m.lines, qint64(truth.value(QLatin1String("lines")).toInteger()));
    QCOMPARE(linesWithTimestampAtStart(*run),
             qint64(truth.value(QLatin1String("lines_with_kernel_timestamp")).toInteger()));
    // The report's figures: all lines with a kernel time, and those whose time stands
    // behind other text (the truth counts only lines starting with one).
    QCOMPARE(m.kernelLines - m.kernelLinesBehindText,
             qint64(truth.value(QLatin1String("lines_with_kernel_timestamp")).toInteger()));
    QCOMPARE(m.dropNotices, qint64(truth.value(QLatin1String("dropped_lines")).toInteger()));
    QCOMPARE(m.droppedMessages,
             qint64(truth.value(QLatin1String("dropped_messages_sum")).toInteger()));
    QCOMPARE(m.boots, 1);
    QCOMPARE(int(run->boots.size()), 1);
    if (variant == QLatin1String("raw")) {
        QCOMPARE(m.bytes, qint64(truth.value(QLatin1String("bytes_total")).toInteger()));
    }

    // Panic and its completeness.
    const bool panic = !isNull(truth, "first_kernel_panic");
    const bool end = !isNull(truth, "end_kernel_panic");
    const bool trace = truth.value(QLatin1String("call_trace_between_panic_and_end")).toBool();
    QCOMPARE(m.panic.detected, panic || end);
    QCOMPARE(m.panic.complete, panic && end && trace);
    QCOMPARE(m.eventCounts[std::size_t(EventKind::Panic)] > 0, panic);
    if (panic) {
        const QJsonObject p = truth.value(QLatin1String("first_kernel_panic")).toObject();
        QCOMPARE(lineNumber(m.panic.line.value()),
                 qint64(p.value(QLatin1String("line")).toInteger()));
        QVERIFY(p.value(QLatin1String("text")).toString().endsWith(m.panic.reason));
    }

    // Clocks: the lower envelope of (arrival - kernel time), and the lag above it.
    if (timed) {
        QVERIFY(m.hasLag());
        QVERIFY2(std::fabs(*m.lagMax - truth.value(QLatin1String("max_console_lag_s")).toDouble()) <
                     0.001,
                 qPrintable(QString::number(*m.lagMax, 'f', 6)));
    } else {
        QVERIFY(!m.hasLag());
    }
    if (variant == QLatin1String("hostts") || variant == QLatin1String("grabserial-T")) {
        QVERIFY(run->arrivalIsWallClock);
        const double zero = double(run->boots.front().kernelZero.value().count()) * 1e-9;
        const double expected = truth.value(QLatin1String("kernel_to_host_offset_s")).toDouble();
        QVERIFY2(std::fabs(zero - expected) < 0.001, qPrintable(QString::number(zero, 'f', 6)));
    }

    // The flush after rmmod: from the marker's production to the arrival of the last line.
    QCOMPARE(m.spans.size(), std::size_t(1));
    if (!isNull(truth, "rmmod_issued_to_stopped_on_wire_s")) {
        const double expected =
            truth.value(QLatin1String("rmmod_issued_to_stopped_on_wire_s")).toDouble();
        if (timed) {
            QVERIFY2(std::fabs(m.spans[0].seconds.value() - expected) < 0.001,
                     qPrintable(QString::number(m.spans[0].seconds.value(), 'f', 6)));
        } else {
            // Raw text has no arrival: the span (which ends on an arrival) is absent, not a
            // number from the kernel clock.
            QVERIFY(!m.spans[0].seconds);
        }
        // By kernel time alone, the same on every format.
        const double kernelSpan = truth.value(QLatin1String("noise_all_workers_stopped"))
                                      .toObject()
                                      .value(QLatin1String("kernel_ts"))
                                      .toDouble() -
                                  truth.value(QLatin1String("harness_markers"))
                                      .toObject()
                                      .value(QLatin1String("rmmod"))
                                      .toObject()
                                      .value(QLatin1String("kernel_ts"))
                                      .toDouble();
        QVERIFY2(std::fabs(m.spans[0].kernelSeconds.value() - kernelSpan) < 1e-6,
                 qPrintable(QString::number(m.spans[0].kernelSeconds.value(), 'f', 6)));
        const QJsonObject stopped =
            truth.value(QLatin1String("noise_all_workers_stopped")).toObject();
        QCOMPARE(lineNumber(m.spans[0].toLine.value()),
                 qint64(stopped.value(QLatin1String("line")).toInteger()));
    } else {
        QVERIFY(!m.spans[0].missing.isEmpty());
        QVERIFY(!m.spans[0].seconds);
    }

    // Noise lines in the 30 s after the insmod marker, by arrival and by kernel time.
    if (truth.contains(QLatin1String("noise_lines_arrived_within_30s_of_insmod_marker_host"))) {
        MetricOptions w;
        w.windowStart = QStringLiteral("harness: insmod");
        w.windowMatch = QStringLiteral("noise: worker");
        w.windowSeconds = 30;
        const Metrics wm = computeMetrics(*run, w);
        QVERIFY(wm.window.found);
        // Produced = printed + dropped; the truth counts the printed ones.
        QCOMPARE(
            wm.window.produced - wm.window.producedDropped,
            qint64(truth.value(QLatin1String("noise_lines_logged_within_30s_of_insmod_kernel_ts"))
                       .toInteger()));
        QCOMPARE(wm.window.producedDropped == 0,
                 truth.value(QLatin1String("dropped_messages_sum")).toInteger() == 0);
        // Over the whole test, printed + dropped is what the module says it printed.
        MetricOptions all = w;
        all.windowSeconds = 1000;
        const Metrics am = computeMetrics(*run, all);
        const QString stopped = truth.value(QLatin1String("noise_all_workers_stopped"))
                                    .toObject()
                                    .value(QLatin1String("text"))
                                    .toString();
        const qint64 total =
            stopped.section(QLatin1String("(total "), 1).section(u' ', 0, 0).toLongLong();
        QVERIFY(total > 0);
        QCOMPARE(am.window.produced, total);
        QCOMPARE(am.window.producedDropped,
                 qint64(truth.value(QLatin1String("dropped_messages_sum")).toInteger()));
        if (!timed) {
            QVERIFY(!wm.window.printedKnown);
        }
        if (timed) {
            QCOMPARE(wm.window.lines,
                     qint64(truth
                                .value(QLatin1String(
                                    "noise_lines_arrived_within_30s_of_insmod_marker_host"))
                                .toInteger()));
        }
    }

    // The first 30 s from the first line, SeaBIOS's: it has no kernel time, so in a raw
    // capture where that window falls on the kernel clock is not known (it came an unknown
    // time before the kernel's time 0), and what the kernel produced in it is absent
    // rather than counted from the kernel's first line. From that line (the banner, or on a
    // quiet boot the first line printed) it is the same on every format.
    QCOMPARE(m.window.producedKnown, timed);
    if (!timed) {
        QCOMPARE(m.window.producedUnknownWhy,
                 QStringLiteral("starts at line 1, which has no kernel time; no host times"));
    }
    MetricOptions banner;
    banner.windowStart = QStringLiteral("\\[ *[0-9]+\\.[0-9]{6}\\] ");
    const Metrics bm = computeMetrics(*run, banner);
    QVERIFY(bm.window.producedKnown);
    const std::unique_ptr<Run> raw =
        loadRun(QStringLiteral(TTYSCOPE_SAMPLES "/%1.raw.zst").arg(name), LoadOptions{}, &error);
    QVERIFY2(raw, qPrintable(error));
    QCOMPARE(bm.window.produced, computeMetrics(*raw, banner).window.produced);
    QVERIFY(bm.window.produced > 0);

    // Boot time to the login prompt. The truth counts from QEMU's start, which is not in
    // the capture; ttyscope counts from the first line that arrived.
    if (!isNull(truth, "login_prompt")) {
        const QJsonObject login = truth.value(QLatin1String("login_prompt")).toObject();
        if (timed) {
            const double expected = login.value(QLatin1String("host_time")).toDouble() -
                                    truth.value(QLatin1String("first_host_time")).toDouble();
            // grabserial stamps lines on its own clock, a few ms after the capture did.
            const double tolerance = expectedFormat == QLatin1String("grabserial") ? 0.01 : 0.001;
            QVERIFY2(std::fabs(m.bootTime.value() - expected) < tolerance,
                     qPrintable(QString::number(m.bootTime.value(), 'f', 6)));
            QVERIFY(m.bootTime.value() <
                    truth.value(QLatin1String("qemu_start_to_login_s")).toDouble());
            QCOMPARE(m.bootTimeFirstByte, m.bootTime);
            // From the kernel's start: its time 0 on the host clock is the truth's offset.
            const double fromKernel =
                login.value(QLatin1String("host_time")).toDouble() -
                truth.value(QLatin1String("kernel_to_host_offset_s")).toDouble();
            QVERIFY2(std::fabs(m.bootTimeKernel.value() - fromKernel) < tolerance,
                     qPrintable(QString::number(m.bootTimeKernel.value(), 'f', 6)));
            QVERIFY(m.bootWireSeconds.value() > 0 &&
                    m.bootWireSeconds.value() < m.bootTimeFirstByte.value());
        } else {
            QVERIFY(!m.bootTime);
            QVERIFY(!m.bootTimeKernel);
            QVERIFY(!m.bootWireSeconds);
        }
    } else {
        QVERIFY(!m.bootTime);
    }
}

// Real captures of the blast_crash scenario on more CPUs and on 6.12-rt (tests/fixtures/
// blast), against the figures tests/fixtures/blast/truth.py counted from them, and the
// crashes read from the logs by hand.
void TstTruth::blastCaptures_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("crashes"); // titles, in order
    QTest::addColumn<int>("stackInOops");     // the oops holding the panic's stack, or 0
    QTest::newRow("6.1, 4 CPUs: the panic between another CPU's task dump")
        << QStringLiteral("blast-61-smp4")
        << QStringList{QStringLiteral("kernel panic: sysrq triggered crash in sysrq_handle_crash")}
        << 0;
    QTest::newRow("6.12-rt, 2 CPUs: the backlog printed before the panic's stack")
        << QStringLiteral("blast-612rt-smp2")
        << QStringList{QStringLiteral("kernel panic: sysrq triggered crash in sysrq_handle_crash")}
        << 0;
    QTest::newRow("6.12-rt, 4 CPUs: int3 oopses, then Fatal exception")
        << QStringLiteral("blast-612rt-smp4")
        << QStringList{QStringLiteral("int3 in sched_clock_tick"),
                       QStringLiteral("int3 in sched_clock_tick")}
        << 3310;
}

void TstTruth::blastCaptures()
{
    QFETCH(QString, name);
    QFETCH(QStringList, crashes);
    QFETCH(int, stackInOops);
    const QString dir = QStringLiteral(TTYSCOPE_FIXTURES "/blast");
    const QJsonObject truth = readTruth(name, dir);
    QVERIFY2(!truth.isEmpty(), qPrintable(name));
    QString error;
    const std::unique_ptr<Run> run =
        loadRun(QStringLiteral("%1/%2.hostts.log.zst").arg(dir, name), LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    QVERIFY2(run->warnings.isEmpty(), qPrintable(run->warnings.join(QLatin1Char('\n'))));
    const Metrics m = computeMetrics(*run, MetricOptions{});

    QCOMPARE(m.lines, qint64(truth.value(QLatin1String("lines")).toInteger()));
    QCOMPARE(m.kernelLines,
             qint64(truth.value(QLatin1String("lines_with_kernel_timestamp")).toInteger()));
    QCOMPARE(m.kernelLinesBehindText, qint64(0));
    QCOMPARE(m.dropNotices, qint64(truth.value(QLatin1String("dropped_lines")).toInteger()));
    QCOMPARE(m.droppedMessages,
             qint64(truth.value(QLatin1String("dropped_messages_sum")).toInteger()));
    QCOMPARE(m.boots, 1);
    QVERIFY2(std::fabs(*m.lagMax - truth.value(QLatin1String("max_console_lag_s")).toDouble()) <
                 0.000001,
             qPrintable(QString::number(*m.lagMax, 'f', 6)));
    const double zero = double(run->boots.front().kernelZero.value().count()) * 1e-9;
    QVERIFY2(std::fabs(zero - truth.value(QLatin1String("kernel_to_host_offset_s")).toDouble()) <
                 0.000001,
             qPrintable(QString::number(zero, 'f', 6)));

    // The panic: banner, end marker, and its stack after the banner or in the oops before.
    const QJsonObject panic = truth.value(QLatin1String("first_kernel_panic")).toObject();
    QVERIFY(m.panic.detected);
    QCOMPARE(lineNumber(m.panic.line.value()),
             qint64(panic.value(QLatin1String("line")).toInteger()));
    QVERIFY(panic.value(QLatin1String("text")).toString().endsWith(m.panic.reason));
    QVERIFY(!isNull(truth, "end_kernel_panic"));
    QCOMPARE(truth.value(QLatin1String("call_trace_between_panic_and_end")).toBool(),
             stackInOops == 0);
    QCOMPARE(m.panic.stackInOops ? lineNumber(*m.panic.stackInOops) : 0, qint64(stackInOops));
    QVERIFY(m.panic.complete);

    QStringList titles;
    for (const Crash &c : findCrashes(*run)) {
        titles << c.title;
        QVERIFY2(c.traceComplete, qPrintable(c.title));
    }
    QCOMPARE(titles, crashes);
}

QTEST_GUILESS_MAIN(TstTruth)
#include "tst_truth.moc"
