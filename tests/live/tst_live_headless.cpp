// The real `ttyscope capture --headless` process on a pseudo-terminal: SIGTERM stops it
// cleanly (events printed, frame ended, summary, the capture's end recorded), SIGKILL loses
// at most about a second; a boot from power-on; a quiet boot captured past its window; the
// window's capture (offscreen) stopped by a signal.
#include "livetest.h"

#include "inputfile.h"
#include "metrics.h"
#include "runloader.h"

#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <random>
#include <sys/resource.h>

using namespace tty;
using livetest::waitFor;

class TestLiveHeadless : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    bool startCapture(QProcess &p, const QString &port, const QString &out,
                      const QStringList &extra = {}, QByteArray *stderrText = nullptr)
    {
        p.start(QStringLiteral(TTYSCOPE_BIN),
                QStringList{QStringLiteral("capture"), QStringLiteral("--headless"),
                            QStringLiteral("--port"), port, QStringLiteral("--output"), out} +
                    extra);
        if (!p.waitForStarted(5000)) {
            return false;
        }
        // It says so on stderr once the port is open and the recording created.
        QByteArray err;
        return waitFor(
                   [&] {
                       p.waitForReadyRead(20);
                       err += p.readAllStandardError();
                       return err.contains("Ctrl-C stops") || p.state() != QProcess::Running;
                   },
                   5000) &&
               p.state() == QProcess::Running && (!stderrText || (*stderrText = err, true));
    }

    // The bytes of a bundled raw capture, whole; empty with *error if it cannot be read.
    static std::string sampleBytes(const char *name, QString *error)
    {
        InputFile in;
        std::string bytes;
        if (!in.open(QStringLiteral(TTYSCOPE_SAMPLES "/") + QLatin1String(name), error)) {
            return bytes;
        }
        for (std::string block(InputFile::kBlockBytes, '\0');;) {
            const std::size_t n = in.readInto(block.data(), block.size());
            if (n == 0) {
                break;
            }
            bytes.append(block.data(), n);
        }
        return bytes;
    }

    // Starts a headless capture on a new pty with `bytes` written to it.
    bool captureOf(const std::string &bytes, const QString &out, livetest::Pty &pty, QProcess &p)
    {
        if (!pty.open() || !startCapture(p, pty.name, out)) {
            return false;
        }
        pty.releaseSlave();
        return pty.write(bytes);
    }

private slots:
    void sigtermStopsCleanly()
    {
        livetest::Pty pty;
        QVERIFY(pty.open());
        const QString out = m_dir.filePath(QStringLiteral("term.ttyrec.zst"));
        QProcess p;
        QVERIFY(startCapture(p, pty.name, out,
                             {QStringLiteral("--mark-on-start"), QStringLiteral("run 42 starts"),
                              QStringLiteral("--label"), QStringLiteral("headless test")}));
        pty.releaseSlave();
        QVERIFY(pty.write("[    5.100000] Kernel panic - not syncing: Attempted to kill init! "
                          "exitcode=0x00000009\r\n[    5.200000] ---[ end Kernel panic - not "
                          "syncing: Attempted to kill init! exitcode=0x00000009 ]---\r\n"));
        QByteArray stdoutText;
        QVERIFY(waitFor(
            [&] {
                p.waitForReadyRead(20);
                stdoutText += p.readAllStandardOutput();
                return stdoutText.contains("panic_end");
            },
            5000));
        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(5000));
        stdoutText += p.readAllStandardOutput();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        const QString text = QString::fromUtf8(stdoutText);
        QVERIFY2(text.contains(QRegularExpression(
                     QStringLiteral("\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  marker +run 42 starts\n"))),
                 qPrintable(text));
        QVERIFY2(text.contains(QRegularExpression(
                     QStringLiteral("  panic +\\[    5\\.100000\\] Kernel panic - not syncing"))),
                 qPrintable(text));
        QVERIFY(text.contains(QLatin1String("stopped by signal")));
        QVERIFY2(
            text.contains(QRegularExpression(QStringLiteral("[1-9]\\d+ bytes, 2 lines, 3 events"))),
            qPrintable(text));
        QVERIFY(text.contains(out));

        const livetest::Decoded d = livetest::decode(out);
        QVERIFY2(d.warning.isEmpty() && d.error.isEmpty(), qPrintable(d.warning + d.error));
        QCOMPARE(d.types.substr(0, 2), std::string("HM"));
        // The last record says when the capture stopped.
        QCOMPARE(d.types.back(), 'E');
        QCOMPARE(d.texts.back(), std::string("stopped"));
        QString error;
        std::unique_ptr<Run> r = loadRun(out, {}, &error);
        QVERIFY(r);
        QCOMPARE(r->meta.label, QStringLiteral("headless test"));
        QCOMPARE(r->lines.size(), LineCount(2));
        QVERIFY(r->captureEnd && *r->captureEnd > *r->lines.arrival(LineIndex(1)));
    }

    void sigkillLosesAtMostASecond()
    {
        livetest::Pty pty;
        QVERIFY(pty.open());
        const QString out = m_dir.filePath(QStringLiteral("kill.ttyrec.zst"));
        QProcess p;
        QVERIFY(startCapture(p, pty.name, out));
        pty.releaseSlave();

        // A steady console for 2-3 s (about 80 KB/s), noting when each byte was written.
        std::string sent;
        std::vector<std::pair<std::chrono::steady_clock::time_point, std::size_t>> log;
        const auto start = std::chrono::steady_clock::now();
        // A random length, so the kill does not always land at the same point of the
        // writer's flush cycle.
        const auto length = std::chrono::milliseconds(2000 + std::random_device()() % 1000);
        for (int seq = 0; std::chrono::steady_clock::now() - start < length; ++seq) {
            char line[200];
            const int n = std::snprintf(line, sizeof line,
                                        "[%5d.%06d] seq %d: the quick brown fox jumps over the "
                                        "lazy dog, and over the slow one too\r\n",
                                        seq / 1000, seq % 1000 * 1000, seq);
            QVERIFY(pty.write(std::string_view(line, std::size_t(n))));
            sent.append(line, std::size_t(n));
            log.emplace_back(std::chrono::steady_clock::now(), sent.size());
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        const auto killedAt = std::chrono::steady_clock::now();
        ::kill(pid_t(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(5000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);

        const livetest::Decoded d = livetest::decode(out);
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        QVERIFY(d.data.size() <= sent.size());
        QVERIFY(sent.compare(0, d.data.size(), d.data) == 0); // an exact prefix
        std::size_t dueBytes = 0; // everything written more than 1 s before the kill
        std::chrono::steady_clock::time_point lostFrom = killedAt;
        for (const auto &[t, bytes] : log) {
            if (killedAt - t > std::chrono::milliseconds(1000)) {
                dueBytes = bytes;
            }
            if (bytes > d.data.size() && lostFrom == killedAt) {
                lostFrom = t;
            }
        }
        qInfo("sent %zu bytes, recovered %zu; lost the last %.0f ms before SIGKILL", sent.size(),
              d.data.size(),
              std::chrono::duration<double, std::milli>(killedAt - lostFrom).count());
        QVERIFY2(d.data.size() >= dueBytes,
                 qPrintable(QStringLiteral("recovered %1 bytes, but %2 were written more than "
                                           "1 s before the kill")
                                .arg(d.data.size())
                                .arg(dueBytes)));
        QString error;
        std::unique_ptr<Run> r = loadRun(out, {}, &error);
        QVERIFY2(r, qPrintable(error));
        QVERIFY2(!r->load.stoppedEarly(), qPrintable(r->load.message));
        QVERIFY(r->lines.size() > 1000_lines);
        // A killed recorder wrote no end: when it stopped is not known.
        QVERIFY(d.types.find('E') == std::string::npos);
        QVERIFY(!r->captureEnd);
    }

    // The disk fills during a capture (a file size limit makes write() fail with EFBIG, as a
    // full disk fails with ENOSPC): the capture says so, goes on, keeps what reached the
    // file readable, and says at the end that bytes could not be recorded (exit 1).
    void diskFullWhileRecording()
    {
        livetest::Pty pty;
        QVERIFY(pty.open());
        const QString out = m_dir.filePath(QStringLiteral("full.ttyrec.zst"));
        constexpr rlim_t kLimit = 64 << 10;
        QProcess p;
        p.setChildProcessModifier([] {
            std::signal(SIGXFSZ, SIG_IGN); // else the first write past the limit kills it
            rlimit lim{kLimit, kLimit};
            ::setrlimit(RLIMIT_FSIZE, &lim);
        });
        QVERIFY(startCapture(p, pty.name, out));
        pty.releaseSlave();
        // 512 KiB of lines that compress to about half: far past the limit.
        std::mt19937 rng(7);
        std::string sent;
        for (int seq = 0; sent.size() < (512u << 10); ++seq) {
            char line[128];
            const int n = std::snprintf(line, sizeof line, "[%5d.%06d] %08x%08x%08x%08x\r\n",
                                        seq / 1000, seq % 1000 * 1000, unsigned(rng()),
                                        unsigned(rng()), unsigned(rng()), unsigned(rng()));
            QVERIFY(pty.write(std::string_view(line, std::size_t(n))));
            sent.append(line, std::size_t(n));
        }
        QByteArray err;
        QVERIFY(waitFor(
            [&] {
                p.waitForReadyRead(20);
                err += p.readAllStandardError();
                return err.contains("keeping the data in memory");
            },
            10000));
        QVERIFY2(err.contains("ttyscope capture: writing " + QFile::encodeName(out) +
                              " failed: File too large"),
                 err.constData());
        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(10000));
        err += p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        QCOMPARE(QFileInfo(out).size(), qint64(kLimit));
        // What reached the file is an exact prefix of what was sent, and loads.
        const livetest::Decoded d = livetest::decode(out);
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        QVERIFY(d.data.size() > 0 && d.data.size() < sent.size());
        QVERIFY(sent.compare(0, d.data.size(), d.data) == 0);
        QString error;
        std::unique_ptr<Run> r = loadRun(out, {}, &error);
        QVERIFY2(r, qPrintable(error));
        QVERIFY(r->lines.size() > 0_lines);
        const std::string first = r->lines.text(LineIndex(0)).str();
        QCOMPARE(std::string(first), sent.substr(0, sent.find('\r')));
    }

    // A pseudo-terminal takes a rate and sends at memory speed (QEMU's -serial pty): a
    // capture of one without --baud states no rate, and its report takes 115200 and finds
    // that 640 KiB that came at once could not have come through such a UART. With --baud
    // the rate is stated, and taken as given.
    void aPseudoTerminalStatesNoRate_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("recorded"); // the header's baud
        QTest::addColumn<int>("reported"); // the loaded run's: 0, no rate
        QTest::addColumn<QString>("line"); // what the capture says of the line on stderr
        QTest::newRow("no --baud")
            << QStringList() << 0 << 0 << "(tty (termios), rate not stated (give --baud), 8N1)";
        QTest::newRow("--baud 115200")
            << QStringList{QStringLiteral("--baud"), QStringLiteral("115200")} << 115200 << 115200
            << "(tty (termios), 115200 8N1)";
    }

    void aPseudoTerminalStatesNoRate()
    {
        QFETCH(QStringList, options);
        QFETCH(int, recorded);
        QFETCH(int, reported);
        QFETCH(QString, line);
        livetest::Pty pty;
        QVERIFY(pty.open());
        const QString out = m_dir.filePath(
            QStringLiteral("rate%1.ttyrec.zst").arg(QTest::currentDataTag()[0] == 'n'));
        QProcess p;
        QByteArray err;
        QVERIFY(startCapture(p, pty.name, out, options, &err));
        QVERIFY2(err.contains(line.toUtf8()), err.constData());
        pty.releaseSlave();
        const std::string sent = livetest::burstOfLines();
        QVERIFY(pty.write(sent));
        QByteArray text;
        QVERIFY(waitFor(
            [&] {
                p.waitForReadyRead(20);
                text += p.readAllStandardOutput();
                return text.contains("end of the burst");
            },
            10000));
        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(5000));
        QCOMPARE(p.exitCode(), 0);

        QString error;
        std::unique_ptr<Run> r = loadRun(out, {}, &error);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->meta.extra.value(QStringLiteral("baud")).toInt(), recorded);
        QCOMPARE(r->meta.baud, reported);
        QCOMPARE(r->bytes, std::int64_t(sent.size()));
        QVERIFY2(livetest::outranTheDefaultRate(r->warnings) == (reported == 0),
                 qPrintable(r->warnings.join(QLatin1Char('\n'))));
        QVERIFY(reported == 0 || r->warnings.isEmpty());
    }

    // An x86 console from power-on, as the bundled capture's serial line sent it: the
    // kernel's first line comes behind the boot loader's "Probing EDD ... ok" and escape
    // codes. Printing its event as it came read the line's boot before the live capture
    // had split its lines into any: the capture crashed (SIGSEGV) on every such boot.
    void aBootFromPowerOn()
    {
        QString error;
        const std::string bytes = sampleBytes("panic_noroot-smp2-115200-t1.raw.zst", &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(bytes.size(), std::size_t(24069)); // the truth file's bytes_total
        livetest::Pty pty;
        QProcess p;
        const QString out = m_dir.filePath(QStringLiteral("poweron.ttyrec.zst"));
        QVERIFY(captureOf(bytes, out, pty, p));
        QByteArray text;
        QVERIFY(waitFor(
            [&] {
                p.waitForReadyRead(20);
                text += p.readAllStandardOutput();
                return text.contains("panic_end") || p.state() != QProcess::Running;
            },
            10000));
        // Checked before the signal: a process that has ended has no id, and kill(0) would
        // stop this test's own process group.
        QVERIFY2(p.state() == QProcess::Running,
                 qPrintable(QStringLiteral("exit status %1, code %2")
                                .arg(int(p.exitStatus()))
                                .arg(p.exitCode())));
        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(5000));
        text += p.readAllStandardOutput();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        const QString printed = QString::fromUtf8(text);
        // The kernel's first line, printed with its arrival, its front text made safe.
        QVERIFY2(printed.contains(QRegularExpression(QStringLiteral(
                     "\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  boot +Probing EDD \\(edd=off to "
                     "disable\\)\\.\\.\\. o\\.c\\.\\[\\?7l\\.\\[2J\\[    0\\.000000\\] Linux "
                     "version 6\\.1\\.0-57-amd64 "))),
                 qPrintable(printed));
        QVERIFY2(printed.contains(QRegularExpression(QStringLiteral(
                     "  panic +\\[ +\\d+\\.\\d{6}\\] Kernel panic - not syncing: VFS: Unable "
                     "to mount root fs"))),
                 qPrintable(printed));

        std::unique_ptr<Run> r = loadRun(out, {}, &error);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->lines.size(), LineCount(370)); // the truth file's count
    }

    // The real quiet boot up to its login prompt, written at once, then 3 s of silence
    // before the capture is stopped: the recording's end says the capture saw the whole of
    // a 2 s window, so the window's counts are exact. Without that end they are at least
    // (the capture might have stopped at the prompt, as grabserial's -q does).
    void aQuietBootCapturedPastItsWindow()
    {
        QString error;
        std::string bytes = sampleBytes("boot_login-quiet-smp2-115200-t1.raw.zst", &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const std::size_t prompt = bytes.find("corpusvm login: ");
        QVERIFY(prompt != std::string::npos);
        bytes.resize(prompt + 16);
        livetest::Pty pty;
        QProcess p;
        const QString out = m_dir.filePath(QStringLiteral("quiet.ttyrec.zst"));
        QVERIFY(captureOf(bytes, out, pty, p));
        QTest::qWait(3000);
        QVERIFY(p.state() == QProcess::Running);
        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(5000));
        QCOMPARE(p.exitCode(), 0);

        std::unique_ptr<Run> r = loadRun(out, {}, &error);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->lines.size(), LineCount(14)); // 16 in the whole boot: 2 after the prompt
        QVERIFY(r->captureEnd);
        const double ranOn =
            toSeconds(*r->captureEnd - *r->lines.arrival(r->lines.endIndex() - 1_lines));
        QVERIFY2(ranOn > 2.5, qPrintable(QString::number(ranOn)));
        MetricOptions o;
        o.windowSeconds = 2;
        const Metrics m = computeMetrics(*r, o);
        QCOMPARE(m.window.lines, std::int64_t(14));
        QVERIFY(!m.window.printedSeenSeconds);
        QVERIFY(!m.window.producedSeenSeconds);
        r->captureEnd.reset();
        const Metrics unknownEnd = computeMetrics(*r, o);
        QCOMPARE(unknownEnd.window.lines, std::int64_t(14));
        QVERIFY(unknownEnd.window.printedSeenSeconds);
    }

    // The window's capture (`ttyscope capture` without --headless) told to stop by a
    // signal, as a logout or a `kill` tells it: the window closes as its close button
    // closes it, and the recording ends whole. Before, the signal ended the process where
    // it stood: its last frame was cut, the file loaded with a warning.
    void aWindowStoppedBySignalEndsItsRecording_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGHUP") << int(SIGHUP);
        QTest::newRow("SIGINT") << int(SIGINT);
    }
    void aWindowStoppedBySignalEndsItsRecording()
    {
        QFETCH(int, signal);
        livetest::Pty pty;
        QVERIFY(pty.open());
        const QString out = m_dir.filePath(QStringLiteral("window%1.ttyrec.zst").arg(signal));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(TTYSCOPE_BIN), {QStringLiteral("capture"), QStringLiteral("--port"),
                                               pty.name, QStringLiteral("--output"), out});
        QVERIFY(p.waitForStarted(5000));
        // The recording exists once the port is open and the window capturing.
        QVERIFY(waitFor([&] { return QFileInfo(out).size() > 0; }, 10000));
        pty.releaseSlave();
        const std::string sent = livetest::burstOfLines();
        QVERIFY(pty.write(sent));
        // Until the window has read it all: its recording holds the bytes (the last of
        // them in the frame still open).
        QVERIFY(waitFor(
            [&] {
                p.waitForReadyRead(20);
                return livetest::decode(out).data.size() >= sent.size() / 2 ||
                       p.state() != QProcess::Running;
            },
            10000));
        QVERIFY(p.state() == QProcess::Running);
        QTest::qWait(1500);
        ::kill(pid_t(p.processId()), signal);
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);

        const livetest::Decoded d = livetest::decode(out);
        QVERIFY2(d.warning.isEmpty() && d.error.isEmpty(), qPrintable(d.warning + d.error));
        QCOMPARE(d.data, sent);
        QString error;
        std::unique_ptr<Run> r = loadRun(out, {}, &error);
        QVERIFY2(r, qPrintable(error));
        QVERIFY2(r->warnings.filter(QStringLiteral("zstd frame")).isEmpty(),
                 qPrintable(r->warnings.join(QLatin1Char('\n'))));
        QCOMPARE(r->bytes, std::int64_t(sent.size()));
    }
};

QTEST_GUILESS_MAIN(TestLiveHeadless)
#include "tst_live_headless.moc"
