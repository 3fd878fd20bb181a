// Network consoles: a real ser2net (raw TCP) with a pseudo-terminal behind it, and a
// loopback server that goes away and comes back (the capture resumes with a gap).
#include "livetest.h"
#include "ser2net.h"

#include "kernelprefix.h"
#include "live/sources.h"
#include "metrics.h"
#include "runloader.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

using namespace tty;
using livetest::waitFor;

namespace {
int listenLoopback(int port, int *boundPort)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(std::uint16_t(port));
    if (::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 || ::listen(fd, 4) != 0) {
        ::close(fd);
        return -1;
    }
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len);
    *boundPort = ntohs(a.sin_port);
    return fd;
}

// A UDP socket on the loopback (port 0: any free one), *bound its port.
int udpSocket(std::uint16_t port, int *bound)
{
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    if (::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
        ::close(fd);
        return -1;
    }
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len);
    *bound = ntohs(a.sin_port);
    return fd;
}

// A UDP port of the loopback nobody listens on now (the capture binds it a moment later).
int freeUdpPort()
{
    int port = 0;
    const int probe = udpSocket(0, &port);
    if (probe < 0) {
        return 0;
    }
    ::close(probe);
    return port;
}

// Sends one datagram to the loopback's `port`.
bool sendTo(int fd, int port, const std::string &d)
{
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    to.sin_port = htons(std::uint16_t(port));
    return ::sendto(fd, d.data(), d.size(), 0, reinterpret_cast<sockaddr *>(&to), sizeof to) ==
           ssize_t(d.size());
}

int acceptWithin(int listenFd, int ms)
{
    pollfd p{listenFd, POLLIN, 0};
    if (::poll(&p, 1, ms) != 1) {
        return -1;
    }
    return ::accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC);
}
} // namespace

class TestLiveTcp : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void ser2netRawTcp()
    {
        livetest::Pty pty;
        QVERIFY(pty.open());
        // ser2net.h: the child holds none of the test's descriptors and dies with the test.
        if (livetest::findSbin("ser2net").isEmpty()) {
            QSKIP("ser2net is not installed (apt-get install ser2net; scripts/deps.sh does)");
        }
        livetest::Ser2net server;
        QString startError;
        QVERIFY2(server.start(m_dir.path(), QStringLiteral("tcp"), pty.name, false, &startError),
                 qPrintable(startError));
        const int port = server.port;

        CaptureOptions o;
        o.port = QStringLiteral("tcp://127.0.0.1:%1").arg(port);
        o.output = m_dir.filePath(QStringLiteral("ser2net.ttyrec.zst"));
        CaptureSession s(o);
        QString error;
        // ser2net needs a moment before it listens.
        QVERIFY2(waitFor([&] { return s.start(&error); }, 5000), qPrintable(error));
        QCOMPARE(s.status().sourceKind, QStringLiteral("tcp"));

        // ser2net opens the tty when the client connects: wait until bytes flow.
        LiveRun live;
        QVERIFY(waitFor(
            [&] {
                pty.write("sync\r\n");
                QTest::qWait(50);
                live.add(s.takeLive());
                return live.run().lines.size() > 0_lines;
            },
            5000));
        pty.releaseSlave();
        const LineIndex first = live.run().lines.endIndex();
        std::string payload;
        for (int i = 0; i < 2000; ++i) {
            payload += "[  " + std::to_string(i) + ".000000] console line " + std::to_string(i) +
                       " over ser2net\r\n";
        }
        payload += "Kernel panic - not syncing: Attempted to kill init!\r\n";
        QVERIFY(pty.write(payload));
        QVERIFY(waitFor(
            [&] {
                live.add(s.takeLive());
                const Run &r = live.run();
                return r.lines.size() > 0_lines &&
                       r.lines.text(r.lines.endIndex() - 1_lines).str().substr(0, 12) ==
                           "Kernel panic";
            },
            5000));
        const Run &r = live.run();
        // All lines after the sync lines, in order, none lost.
        LineIndex i = first;
        while (i < r.lines.endIndex() && r.lines.text(i).str() == "sync") {
            ++i;
        }
        QCOMPARE(r.lines.endIndex() - i, 2001_lines);
        for (int k = 0; k < 2000; ++k) {
            QCOMPARE(r.lines.text(i + LineCount(k)).str(),
                     std::string_view("[  " + std::to_string(k) + ".000000] console line " +
                                      std::to_string(k) + " over ser2net"));
        }
        QCOMPARE(r.events.back().kind, EventKind::Panic);

        // And back to the console through ser2net.
        s.send(QByteArrayLiteral("uname -a\n"));
        std::string got;
        waitFor(
            [&] {
                char buf[64];
                pollfd p{pty.master, POLLIN, 0};
                if (::poll(&p, 1, 10) == 1) {
                    const ssize_t n = ::read(pty.master, buf, sizeof buf);
                    got.append(buf, std::size_t(std::max<ssize_t>(n, 0)));
                }
                return got.size() >= 9;
            },
            3000);
        QCOMPARE(got, std::string("uname -a\n"));
        QVERIFY(s.stop(&error));
        server.stop();

        std::unique_ptr<Run> loaded = loadRun(o.output, {}, &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->lines.size(), r.lines.size());
        QCOMPARE(loaded->meta.extra.value(QStringLiteral("source")).toString(), o.port);
    }

    void serverGoneAndBack()
    {
        int port = 0;
        int lfd = listenLoopback(0, &port);
        QVERIFY(lfd >= 0);
        CaptureOptions o;
        o.port = QStringLiteral("tcp://127.0.0.1:%1").arg(port);
        o.output = m_dir.filePath(QStringLiteral("gone.ttyrec.zst"));
        CaptureSession s(o);
        QString error;
        QVERIFY2(s.start(&error), qPrintable(error));
        int c = acceptWithin(lfd, 3000);
        QVERIFY(c >= 0);
        QCOMPARE(::send(c, "one\r\n", 5, MSG_NOSIGNAL), ssize_t(5));
        QVERIFY(waitFor([&] { return s.status().bytesIn == 5; }, 2000));
        ::close(c);
        ::close(lfd); // the console server goes away
        QVERIFY(
            waitFor([&] { return s.status().state == CaptureSession::State::Disconnected; }, 2000));
        QVERIFY(waitFor(
            [&] { return s.status().message.contains(QLatin1String("connection refused")); },
            3000));
        int again = 0;
        lfd = listenLoopback(port, &again); // and comes back on the same port
        QVERIFY(lfd >= 0);
        c = acceptWithin(lfd, 3000);
        QVERIFY(c >= 0);
        QVERIFY(waitFor([&] { return s.status().state == CaptureSession::State::Open; }, 2000));
        QCOMPARE(::send(c, "two\r\n", 5, MSG_NOSIGNAL), ssize_t(5));
        QVERIFY(waitFor([&] { return s.status().bytesIn == 10; }, 2000));
        QVERIFY(s.stop(&error));
        ::close(c);
        ::close(lfd);

        const livetest::Decoded d = livetest::decode(o.output);
        QCOMPARE(d.data, std::string("one\r\ntwo\r\n"));
        QCOMPARE(d.types, std::string("HDGRDE")); // E: stopped
        QVERIFY(QString::fromStdString(d.texts[1]).contains(QLatin1String("closed")));
        std::unique_ptr<Run> loaded = loadRun(o.output, {}, &error);
        QVERIFY(loaded);
        QCOMPARE(loaded->events.size(), std::size_t(2));
        QCOMPARE(loaded->events[0].kind, EventKind::Gap);
        QCOMPARE(loaded->events[0].line, LineIndex(1));
    }

    // A netconsole (udp://): each datagram whole and in order, the first board's only (a
    // second sender's lines would interleave with its own), no way back to the board, a
    // port another receiver holds refused, and a recording that takes no baud rate.
    void netconsoleDatagrams()
    {
        const int port = freeUdpPort();
        QVERIFY(port > 0);
        int boardPort = 0, otherPort = 0;
        const int board = udpSocket(0, &boardPort), other = udpSocket(0, &otherPort);
        QVERIFY(board >= 0 && other >= 0);
        std::int64_t fromBoard = 0;
        const auto send = [&](int fd, const std::string &d) {
            fromBoard += fd == board ? std::int64_t(d.size()) : 0;
            return sendTo(fd, port, d);
        };

        CaptureOptions o;
        o.port = QStringLiteral("udp://127.0.0.1:%1").arg(port);
        o.output = m_dir.filePath(QStringLiteral("netconsole.ttyrec.zst"));
        o.baudGiven = true; // the window's dialog with a rate chosen: still none recorded
        CaptureSession s(o);
        QString error;
        QVERIFY2(s.start(&error), qPrintable(error));
        QCOMPARE(s.status().sourceKind, QStringLiteral("udp, netconsole"));
        QCOMPARE(s.status().recordedBaud, 0);
        UdpSource second(o.port);
        QVERIFY(!second.open(&error));
        QCOMPARE(error, o.port + QStringLiteral(": the port is taken (another receiver of this "
                                                "netconsole, e.g. nc or socat, is running)"));

        // A long message comes in fragments (netconsole cuts at 1000 bytes): one line.
        const std::string longText(2500, 'x');
        QVERIFY(send(board, "[    0.000000] Linux version 6.1.0 (first)\n"));
        QVERIFY(waitFor([&] { return s.status().bytesIn > 0; }, 3000));
        QVERIFY(send(other, "[    0.000001] from another board\n"));
        QVERIFY(send(board, "[    0.100000] long " + longText.substr(0, 1000)));
        QVERIFY(send(board, longText.substr(1000, 1000)));
        QVERIFY(send(board, longText.substr(2000) + "\n"));
        for (int i = 0; i < 500; ++i) {
            QVERIFY(send(board, "[    1." + std::to_string(100000 + i) + "] burst " +
                                    std::to_string(i) + "\n"));
        }
        QVERIFY(send(board, "Kernel panic - not syncing: Attempted to kill init!\n"));
        QVERIFY2(waitFor([&] { return s.status().bytesIn == fromBoard; }, 5000),
                 qPrintable(QStringLiteral("%1 of %2").arg(s.status().bytesIn).arg(fromBoard)));
        QVERIFY(s.stop(&error));
        ::close(board);
        ::close(other);

        std::unique_ptr<Run> loaded = loadRun(o.output, {}, &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->lines.size(), 503_lines);
        QCOMPARE(loaded->lines.text(LineIndex(0)).str(),
                 std::string_view("[    0.000000] Linux version 6.1.0 (first)"));
        QCOMPARE(loaded->lines.text(LineIndex(1)).str(),
                 std::string_view("[    0.100000] long " + longText));
        QCOMPARE(loaded->lines.text(LineIndex(501)).str(),
                 std::string_view("[    1.100499] burst 499"));
        QCOMPARE(loaded->events.back().kind, EventKind::Panic);
        QCOMPARE(loaded->meta.baud, 0);
        QVERIFY(loaded->meta.noSerialLine);
        QCOMPARE(loaded->warnings, QStringList());
        const Metrics m = computeMetrics(*loaded, MetricOptions{});
        QVERIFY(!m.wireSeconds);
        QCOMPARE(m.bytes, fromBoard);
    }

    // netconsole=+... sends records as /dev/kmsg has them: the kernel's time and level in a
    // header, the record's number, its dictionary on lines of their own, fragments of a long
    // record back to back. Live and loaded, the header gives each line its kernel time and
    // level, a gap in the numbers is records missing (not known to be drops: the console
    // skips records below its log level too), and a dictionary is no console line.
    void netconsoleExtendedForm()
    {
        const int port = freeUdpPort();
        QVERIFY(port > 0);
        int boardPort = 0;
        const int board = udpSocket(0, &boardPort);
        QVERIFY(board >= 0);
        CaptureOptions o;
        o.port = QStringLiteral("udp://127.0.0.1:%1").arg(port);
        o.output = m_dir.filePath(QStringLiteral("extended.ttyrec.zst"));
        CaptureSession s(o);
        QString error;
        QVERIFY2(s.start(&error), qPrintable(error));
        std::vector<std::string> datagrams;
        for (int i = 0; i < 30; ++i) {
            datagrams.push_back("6," + std::to_string(i) + "," + std::to_string(1000 * i) +
                                ",-;line " + std::to_string(i) + "\n");
        }
        datagrams.push_back("3,30,30000,-;pci 0000:00:01.0: BAR 0: failed\n SUBSYSTEM=pci\n "
                            "DEVICE=+pci:0000:00:01.0\n");
        // 31, 32 and 33 lost on the network.
        for (int i = 34; i < 40; ++i) {
            datagrams.push_back("6," + std::to_string(i) + "," + std::to_string(1000 * i) +
                                ",-;line " + std::to_string(i) + "\n");
        }
        datagrams.push_back("6,40,40000,-,ncfrag=0/13;first ");
        datagrams.push_back("6,40,40000,-,ncfrag=6/13;second\n");
        datagrams.push_back("6.1.0-57-amd64,6,41,41000,-;with the release in front\n");
        datagrams.push_back("4,42,42000,-,caller=T7;Kernel panic - not syncing: test\n");
        std::int64_t sent = 0;
        for (const std::string &d : datagrams) {
            QVERIFY(sendTo(board, port, d));
            sent += std::int64_t(d.size());
        }
        LiveRun live;
        QVERIFY(waitFor(
            [&] {
                live.add(s.takeLive());
                return s.status().bytesIn == sent;
            },
            5000));
        QVERIFY(s.stop(&error));
        live.add(s.takeLive());
        live.finish();
        ::close(board);
        std::unique_ptr<Run> loaded = loadRun(o.output, {}, &error);
        QVERIFY2(loaded, qPrintable(error));

        for (const Run *r : {&live.run(), loaded.get()}) {
            // 30 + 1 + 6 + 1 (two fragments) + 1 + 1; the two dictionary lines are no lines.
            QCOMPARE(r->lines.size(), 40_lines);
            QCOMPARE(r->metaLines, 2);
            QCOMPARE(r->lines.text(LineIndex(30)).str(),
                     std::string_view("3,30,30000,-;pci 0000:00:01.0: BAR 0: failed"));
            QCOMPARE(r->lines.kernelTime(LineIndex(30)), std::optional(KernelUs(30000)));
            QCOMPARE(r->lines.flags(LineIndex(30)) & LevelMask, 3 + 1);
            QCOMPARE(r->lines.kernelTime(LineIndex(31)), std::optional(KernelUs(34000)));
            QCOMPARE(
                r->lines.text(LineIndex(37)).str(),
                std::string_view("6,40,40000,-,ncfrag=0/13;first 6,40,40000,-,ncfrag=6/13;second"));
            QCOMPARE(r->lines.kernelTime(LineIndex(38)), std::optional(KernelUs(41000)));
            QCOMPARE(r->lines.kernelTime(LineIndex(39)), std::optional(KernelUs(42000)));
            QCOMPARE(r->lines.flags(LineIndex(39)) & LevelMask, 4 + 1);
            QCOMPARE(parseKernelPrefix(r->lines.text(LineIndex(39)).str()).caller,
                     std::optional(Caller{'T', 7}));
            std::vector<Event> gaps, panics;
            for (const Event &e : r->events) {
                QVERIFY(e.kind != EventKind::Drop);
                (e.kind == EventKind::Gap ? gaps : panics).push_back(e);
            }
            QCOMPARE(gaps.size(), std::size_t(1));
            QCOMPARE(gaps[0].line, LineIndex(31));
            QCOMPARE(gaps[0].count, 3u);
            QCOMPARE(QString::fromStdString(r->notes.at(std::size_t(*gaps[0].note))),
                     QStringLiteral("3 record(s) missing: the record numbers jump from 30 to 34 "
                                    "(below the console's log level, dropped by printk, or lost "
                                    "on the network)"));
            QCOMPARE(r->recordNumbers.missing, 3);
            QCOMPARE(panics.size(), std::size_t(1));
            QCOMPARE(panics[0].kind, EventKind::Panic);
            QCOMPARE(panics[0].line, LineIndex(39));
            QCOMPARE(r->warnings,
                     QStringList{QStringLiteral(
                         "1 record(s) longer than one of netconsole's datagrams came in "
                         "fragments (first: line 38): each is one line, with the headers of its "
                         "later fragments (\",ncfrag=\") inside its text")});
        }
        // Which of the three were dropped, if any, the numbers do not say.
        const Metrics m = computeMetrics(*loaded, MetricOptions{});
        QCOMPARE(m.dropsUnknown, QStringLiteral("3 record(s) missing: below the log level, "
                                                "dropped or lost"));
        QVERIFY(!m.window.producedKnown);
        QCOMPARE(m.window.producedUnknownWhy, QStringLiteral("drops unknown: 3 record(s) missing"));
    }
};

QTEST_GUILESS_MAIN(TestLiveTcp)
#include "tst_live_tcp.moc"
