// Live capture from a pseudo-terminal pair standing in for the serial device: order, line
// splitting, arrival times, idle partial lines, a 100 MB stream recorded byte-exact, and a
// device that vanishes and comes back.
#include "livetest.h"

#include "live/recordingwriter.h"
#include "runloader.h"

#include <QTemporaryDir>
#include <QTest>

#include <random>

using namespace tty;
using livetest::Pty;
using livetest::waitFor;

class TestLivePty : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_n = 0;
    QString nextPath() { return m_dir.filePath(QStringLiteral("rec%1.ttyrec.zst").arg(++m_n)); }

    static CaptureOptions options(const QString &port, const QString &out)
    {
        CaptureOptions o;
        o.port = port;
        o.output = out;
        o.label = QStringLiteral("test");
        return o;
    }

private slots:
    void linesInOrderWithArrivalTimes()
    {
        Pty pty;
        QVERIFY(pty.open());
        const QString path = nextPath();
        CaptureSession s(options(pty.name, path));
        QString error;
        QVERIFY2(s.start(&error), qPrintable(error));
        QCOMPARE(s.status().sourceKind, QStringLiteral("tty (termios)"));
        pty.releaseSlave();
        LiveRun live;

        const HostNs t0 = wallNowNs();
        QVERIFY(pty.write("[    0.000000] Linux version 6.1.0 (test)\r\n"));
        QTest::qWait(120);
        const HostNs t1 = wallNowNs();
        QVERIFY(pty.write("[    0.100000] second ")); // first byte of line 2 arrives now
        QTest::qWait(120);
        const HostNs t2 = wallNowNs();
        QVERIFY(pty.write("half\r\nthird\r\r\n"));
        static const char binary[] = "with\0nul\tand\x1b[0m escape\n";
        QVERIFY(pty.write(std::string(binary, sizeof binary - 1)));
        QVERIFY(waitFor(
            [&] {
                live.add(s.takeLive());
                return live.run().lines.size() >= 4_lines;
            },
            3000));
        const Run &r = live.run();
        QCOMPARE(r.lines.size(), LineCount(4));
        QCOMPARE(r.lines.text(LineIndex(0)).str(),
                 std::string_view("[    0.000000] Linux version 6.1.0 (test)"));
        QCOMPARE(r.lines.text(LineIndex(1)).str(), std::string_view("[    0.100000] second half"));
        QCOMPARE(r.lines.text(LineIndex(2)).str(), std::string_view("third"));
        QCOMPARE(r.lines.text(LineIndex(3)).str(), std::string_view(binary, sizeof binary - 2));
        QCOMPARE(r.lines.kernelTime(LineIndex(1)), KernelUs(100000));
        // Arrival = arrival of the line's first byte, within a scheduling delay.
        const Nanoseconds slack{80'000'000}, early{1'000'000};
        QVERIFY(r.lines.arrival(LineIndex(0)) >= t0 - early &&
                r.lines.arrival(LineIndex(0)) < t0 + slack);
        QVERIFY(r.lines.arrival(LineIndex(1)) >= t1 - early && r.lines.arrival(LineIndex(1)) < t2);
        QVERIFY(r.lines.arrival(LineIndex(2)) >= t2 - early &&
                r.lines.arrival(LineIndex(2)) < t2 + slack);
        QVERIFY(r.lines.arrival(LineIndex(0)) < r.lines.arrival(LineIndex(1)));

        QVERIFY(s.stop(&error));
        // The recording loads into the same lines with the same times.
        std::unique_ptr<Run> loaded = loadRun(path, {}, &error);
        QVERIFY2(loaded, qPrintable(error));
        QVERIFY2(!loaded->load.stoppedEarly(), qPrintable(loaded->load.message));
        QVERIFY2(loaded->warnings.isEmpty(), qPrintable(loaded->warnings.join(QLatin1Char('\n'))));
        QCOMPARE(loaded->lines.size(), r.lines.size());
        for (LineIndex i{0}; i < r.lines.endIndex(); ++i) {
            QCOMPARE(loaded->lines.text(i).str(), r.lines.text(i).str());
            QCOMPARE(loaded->lines.arrival(i), r.lines.arrival(i));
        }
        QCOMPARE(loaded->meta.label, QStringLiteral("test"));
        QCOMPARE(loaded->meta.baud, 115200);
        QCOMPARE(loaded->meta.extra.value(QStringLiteral("source")).toString(), pty.name);
        QCOMPARE(loaded->meta.extra.value(QStringLiteral("version")).toString(),
                 QStringLiteral(TTYSCOPE_VERSION));
        // The live run read the same header: the loaded file's metadata but for the source,
        // which is the capture's port (the loaded run's is the file).
        QCOMPARE(r.meta.label, QStringLiteral("test"));
        QCOMPARE(r.meta.baud, 115200);
        QCOMPARE(r.meta.source, pty.name);
        QCOMPARE(loaded->meta.source, path);
        QCOMPARE(r.meta.tool, QStringLiteral("ttyscope ") + QStringLiteral(TTYSCOPE_VERSION));
        QCOMPARE(r.meta.tool, loaded->meta.tool);
        QCOMPARE(r.meta.host, loaded->meta.host);
        QVERIFY(!r.meta.startUtc.isEmpty());
        QCOMPARE(r.meta.startUtc, loaded->meta.startUtc);
        QCOMPARE(r.meta.extra, loaded->meta.extra);
    }

    void idlePartialLineShownThenCompleted()
    {
        Pty pty;
        QVERIFY(pty.open());
        const QString path = nextPath();
        CaptureSession s(options(pty.name, path));
        QString error;
        QVERIFY2(s.start(&error), qPrintable(error));
        pty.releaseSlave();
        LiveRun live;
        const auto pump = [&] {
            live.add(s.takeLive());
            live.idle(monoNowNs());
        };

        QVERIFY(pty.write("boot ok\r\ndebian login: "));
        QVERIFY(waitFor(
            [&] {
                pump();
                return live.run().lines.size() == 1_lines;
            },
            2000));
        // Not shown before the idle timeout...
        QCOMPARE(live.run().lines.text(LineIndex(0)).str(), std::string_view("boot ok"));
        // ...then shown as a line without newline.
        QVERIFY(waitFor(
            [&] {
                pump();
                return live.run().lines.size() == 2_lines;
            },
            2000));
        QCOMPARE(live.run().lines.text(LineIndex(1)).str(), std::string_view("debian login: "));
        QVERIFY(live.run().lines.flags(LineIndex(1)) & NoNewline);
        QVERIFY(live.lastLineOpen());
        const std::optional<HostNs> promptArrival = live.run().lines.arrival(LineIndex(1));

        // More bytes that do not end the line yet: the shown line grows in place.
        QVERIFY(pty.write("ro"));
        QVERIFY(waitFor(
            [&] {
                pump();
                return live.run().lines.text(LineIndex(1)).str().size() > 14;
            },
            2000));
        QCOMPARE(live.run().lines.text(LineIndex(1)).str(), std::string_view("debian login: ro"));
        QVERIFY(pty.write("ot\r\n"));
        QVERIFY(waitFor(
            [&] {
                pump();
                return !live.lastLineOpen();
            },
            2000));
        QCOMPARE(live.run().lines.size(), LineCount(2));
        QCOMPARE(live.run().lines.text(LineIndex(1)).str(), std::string_view("debian login: root"));
        QVERIFY(!(live.run().lines.flags(LineIndex(1)) & NoNewline));
        QCOMPARE(live.run().lines.arrival(LineIndex(1)), promptArrival);

        // A panic shown while idle, a marker dropped meanwhile, then the line completes:
        // one panic event, in line order before the marker placed after the line.
        QVERIFY(pty.write("Kernel panic - not syncing: VFS: Unable to mount"));
        QVERIFY(waitFor(
            [&] {
                pump();
                return live.lastLineOpen();
            },
            2000));
        QCOMPARE(live.stableEvents(), std::size_t(0));
        QCOMPARE(live.run().events.size(), std::size_t(1));
        s.addMarker(QStringLiteral("pressed M"));
        QVERIFY(waitFor(
            [&] {
                pump();
                return live.run().events.size() == 2;
            },
            2000));
        QVERIFY(pty.write(" root fs\r\n"));
        QVERIFY(waitFor(
            [&] {
                pump();
                return !live.lastLineOpen();
            },
            2000));
        const Run &r = live.run();
        QCOMPARE(r.lines.size(), LineCount(3));
        QCOMPARE(r.lines.text(LineIndex(2)).str(),
                 std::string_view("Kernel panic - not syncing: VFS: Unable to "
                                  "mount root fs"));
        QCOMPARE(r.events.size(), std::size_t(2));
        QCOMPARE(r.events[0].kind, EventKind::Panic);
        QCOMPARE(r.events[0].line, LineIndex(2));
        QCOMPARE(r.events[1].kind, EventKind::Marker);
        QCOMPARE(r.eventText(r.events[1]).str(), std::string_view("pressed M"));
        QCOMPARE(live.stableEvents(), std::size_t(2));

        QVERIFY(s.stop(&error));
        std::unique_ptr<Run> loaded = loadRun(path, {}, &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->lines.size(), LineCount(3));
        QCOMPARE(loaded->lines.text(LineIndex(1)).str(), std::string_view("debian login: root"));
        // The loader places a marker recorded inside a line before that line (it cannot
        // know the line was shown); the same two events either way.
        QCOMPARE(loaded->events.size(), std::size_t(2));
        QCOMPARE(int(loaded->events[0].kind) + int(loaded->events[1].kind),
                 int(EventKind::Panic) + int(EventKind::Marker));
    }

    void hundredMegabytesByteExact()
    {
        // Console-like text with some binary noise, generated fast, 100 MB.
        const std::size_t total = 100u << 20;
        std::string src;
        src.reserve(total);
        std::mt19937 rng(7);
        char line[160];
        for (std::uint64_t i = 0; src.size() < total; ++i) {
            const int n =
                std::snprintf(line, sizeof line, "[%6llu.%06u] worker %u: step %llu value %08x\r\n",
                              (unsigned long long)(i / 1000), unsigned(i % 1000000),
                              unsigned(rng() % 64), (unsigned long long)i, unsigned(rng()));
            src.append(line, std::size_t(n));
            if (i % 97 == 0) {
                for (int k = 0; k < 24; ++k) {
                    src.push_back(char(rng()));
                }
            }
        }
        src.resize(total);

        Pty pty;
        QVERIFY(pty.open());
        const QString path = nextPath();
        CaptureOptions o = options(pty.name, path);
        o.liveQueue = false; // the recording is what is checked here
        CaptureSession s(o);
        QString error;
        QVERIFY2(s.start(&error), qPrintable(error));
        pty.releaseSlave();
        const auto t0 = std::chrono::steady_clock::now();
        std::thread writer([&] { pty.write(src); });
        const bool all = waitFor([&] { return s.status().bytesIn >= std::int64_t(total); }, 40000);
        writer.join();
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QVERIFY2(all, qPrintable(QStringLiteral("only %1 bytes arrived").arg(s.status().bytesIn)));
        QVERIFY(s.stop(&error));
        qInfo("100 MiB through the pty into the recording in %.2f s (%.0f MiB/s), file %.1f MiB",
              secs, 100 / secs, double(s.status().recording.fileBytes) / (1 << 20));

        const livetest::Decoded d = livetest::decode(path);
        QVERIFY2(d.error.isEmpty() && d.warning.isEmpty(), qPrintable(d.error + d.warning));
        QCOMPARE(d.data.size(), src.size());
        QVERIFY(d.data == src);
        QCOMPARE(d.types.front(), 'H');
        QVERIFY(s.status().recording.frames >= 2); // a frame ends every 64 MiB
    }

    void vanishedDeviceIsResumed()
    {
        auto pty = std::make_unique<Pty>();
        QVERIFY(pty->open());
        const QString name = pty->name;
        const QString path = nextPath();
        CaptureSession s(options(name, path));
        QString error;
        QVERIFY2(s.start(&error), qPrintable(error));
        pty->releaseSlave();
        QVERIFY(pty->write("before\r\n"));
        QVERIFY(waitFor([&] { return s.status().bytesIn == 8; }, 2000));

        pty->close(); // the device vanishes
        QVERIFY(
            waitFor([&] { return s.status().state == CaptureSession::State::Disconnected; }, 2000));
        QVERIFY(waitFor([&] { return s.status().message.contains(QLatin1String("no such port")); },
                        3000));

        // The same /dev/pts/N comes back: pty numbers are handed out lowest first, so open
        // pairs until that one is ours again.
        std::vector<std::unique_ptr<Pty>> others;
        std::unique_ptr<Pty> back;
        for (int i = 0; i < 64 && !back; ++i) {
            auto p = std::make_unique<Pty>();
            QVERIFY(p->open());
            if (p->name == name) {
                back = std::move(p);
            } else {
                others.push_back(std::move(p));
            }
        }
        others.clear();
        if (!back) {
            QSKIP("the pty number was taken by another process before it could be reused");
        }
        QVERIFY(waitFor([&] { return s.status().state == CaptureSession::State::Open; }, 3000));
        back->releaseSlave();
        QVERIFY(back->write("after\r\n"));
        QVERIFY(waitFor([&] { return s.status().bytesIn == 15; }, 2000));
        QVERIFY(s.stop(&error));
        QCOMPARE(s.status().gaps, 1);

        const livetest::Decoded d = livetest::decode(path);
        QCOMPARE(d.data, std::string("before\r\nafter\r\n"));
        QCOMPARE(d.types, std::string("HDGRDE")); // E: stopped
        QVERIFY(QString::fromStdString(d.texts[1]).contains(QLatin1String("hung up")));
        QVERIFY(QString::fromStdString(d.texts[2]).contains(name));

        std::unique_ptr<Run> loaded = loadRun(path, {}, &error);
        QVERIFY(loaded);
        QCOMPARE(loaded->lines.size(), LineCount(2));
        QCOMPARE(loaded->events.size(), std::size_t(2));
        QCOMPARE(loaded->events[0].kind, EventKind::Gap);
        QCOMPARE(loaded->events[1].kind, EventKind::Gap);
    }

    void sendRecordsTheCommand()
    {
        Pty pty;
        QVERIFY(pty.open());
        const QString path = nextPath();
        CaptureSession s(options(pty.name, path));
        QString error;
        QVERIFY2(s.start(&error), qPrintable(error));
        pty.releaseSlave();
        s.send(QByteArrayLiteral("echo c > /proc/sysrq-trigger\n"));
        s.sendBreak('t');
        std::string got;
        waitFor(
            [&] {
                char buf[256];
                pollfd p{pty.master, POLLIN, 0};
                if (::poll(&p, 1, 10) == 1) {
                    const ssize_t n = ::read(pty.master, buf, sizeof buf);
                    if (n > 0) {
                        got.append(buf, std::size_t(n));
                    }
                }
                return got.size() >= 30;
            },
            3000);
        QCOMPARE(got, std::string("echo c > /proc/sysrq-trigger\nt"));
        QVERIFY(s.stop(&error));
        const livetest::Decoded d = livetest::decode(path);
        QCOMPARE(d.types, std::string("HSSE"));
        QCOMPARE(d.texts[1], std::string("echo c > /proc/sysrq-trigger\n"));
        QCOMPARE(d.texts[2], std::string("<BREAK>t"));
    }
};

QTEST_GUILESS_MAIN(TestLivePty)
#include "tst_live_pty.moc"
