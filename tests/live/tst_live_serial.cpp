// The libserialport path: port enumeration and the messages users get for a nonexistent
// port, permission denied, a busy port and unsupported settings. Tests usually run as root,
// which bypasses file permissions and TIOCEXCL: those checks run in a child process that
// drops to the `nobody` user, so the kernel really refuses.
#include "livetest.h"

#include "live/sources.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>

using namespace tty;

namespace {
constexpr uid_t kNobody = 65534;

// Runs `open` of a source for `path` as user nobody in a child; returns the error message
// ("OK" if it opened). Empty if the child could not run.
QString openAsNobody(const QString &path, const std::function<void()> &beforeOpen = {})
{
    int fds[2];
    if (::pipe(fds) != 0) {
        return {};
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        if (::setgroups(0, nullptr) != 0 || ::setgid(kNobody) != 0 || ::setuid(kNobody) != 0) {
            ::_exit(3);
        }
        if (beforeOpen) {
            beforeOpen();
        }
        std::unique_ptr<ByteSource> s = makeSource(path, SerialSettings{});
        QString error;
        const QByteArray msg = s->open(&error) ? QByteArray("OK") : error.toUtf8();
        (void)!::write(fds[1], msg.constData(), std::size_t(msg.size()));
        ::_exit(0);
    }
    ::close(fds[1]);
    QByteArray out;
    char buf[512];
    pollfd p{fds[0], POLLIN, 0};
    while (::poll(&p, 1, 5000) == 1) {
        const ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n <= 0) {
            break;
        }
        out.append(buf, int(n));
    }
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return QString::fromUtf8(out);
}
} // namespace

class TestLiveSerial : public QObject
{
    Q_OBJECT

private slots:
    void enumeration()
    {
        QString error;
        const std::vector<PortInfo> ports = listPorts(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        qInfo("libserialport found %d port(s)", int(ports.size()));
        for (const PortInfo &p : ports) {
            qInfo("  %s  %s  %s %s", qPrintable(p.name), qPrintable(p.description),
                  qPrintable(p.transport), qPrintable(p.usbIdText()));
            QVERIFY(p.name.startsWith(QLatin1String("/dev/")));
            QVERIFY(QFile::exists(p.name));
            QVERIFY(!p.transport.isEmpty());
            QVERIFY(p.transport != QLatin1String("usb") || p.usb);
        }
        // Every native port with a driver behind it in sysfs should be listed.
        for (const PortInfo &p : ports) {
            QVERIFY(QFile::exists(QStringLiteral("/sys/class/tty/") + p.name.mid(5)));
        }
    }

    void nonexistentPort_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("usb") << QStringLiteral("/dev/ttyUSB97");
        QTest::newRow("pts") << QStringLiteral("/dev/pts/9997");
        QTest::newRow("path") << QStringLiteral("/nonexistent/ttyS0");
    }
    void nonexistentPort()
    {
        QFETCH(QString, path);
        std::unique_ptr<ByteSource> s = makeSource(path, SerialSettings{});
        QString error;
        QVERIFY(!s->open(&error));
        QVERIFY2(error.startsWith(path + QLatin1String(": no such port")), qPrintable(error));
        QVERIFY(error.contains(QLatin1String("--list")));
    }

    void permissionDeniedOnSerialPort()
    {
        // A real serial port libserialport knows, that nobody may not open.
        QString error;
        QString port;
        for (const PortInfo &p : listPorts(&error)) {
            struct stat st
            {
            };
            if (::stat(p.name.toLocal8Bit().constData(), &st) == 0 && (st.st_mode & 0006) == 0) {
                port = p.name;
                break;
            }
        }
        if (port.isEmpty()) {
            QSKIP("no serial port here that is closed to other users");
        }
        if (::geteuid() != 0) {
            std::unique_ptr<ByteSource> s = makeSource(port, SerialSettings{});
            if (s->open(&error)) {
                QSKIP("this user may open the serial port");
            }
        } else {
            error = openAsNobody(port);
        }
        QVERIFY2(error.contains(QLatin1String("permission denied")), qPrintable(error));
        QVERIFY(error.contains(QLatin1String("dialout")));
        QVERIFY(error.contains(QLatin1String("usermod -aG dialout")));
        QVERIFY(error.startsWith(port));
    }

    void permissionDeniedOnPty()
    {
        livetest::Pty pty;
        QVERIFY(pty.open());
        QCOMPARE(::chmod(pty.name.toLocal8Bit().constData(), 0), 0);
        QString error;
        if (::geteuid() != 0) {
            std::unique_ptr<ByteSource> s = makeSource(pty.name, SerialSettings{});
            QVERIFY(!s->open(&error));
        } else {
            error = openAsNobody(pty.name);
        }
        QVERIFY2(error.contains(QLatin1String("permission denied")), qPrintable(error));
        QVERIFY(error.contains(QLatin1String("dialout")));
    }

    void busyPort()
    {
        if (::geteuid() != 0) {
            QSKIP("needs root to hand the pty to another user (TIOCEXCL binds non-root openers)");
        }
        livetest::Pty pty;
        QVERIFY(pty.open());
        QCOMPARE(::chown(pty.name.toLocal8Bit().constData(), kNobody, kNobody), 0);
        std::unique_ptr<ByteSource> first = makeSource(pty.name, SerialSettings{});
        QString error;
        QVERIFY2(first->open(&error), qPrintable(error));
        const QString second = openAsNobody(pty.name);
        QVERIFY2(second.contains(QLatin1String("port busy")), qPrintable(second));
        first->close();
        QCOMPARE(openAsNobody(pty.name), QStringLiteral("OK"));
    }

    void unsupportedSettings()
    {
        SerialSettings s;
        QString error;
        s.dataBits = 9;
        QVERIFY(!checkSettings(s, &error));
        QVERIFY(error.contains(QLatin1String("unsupported settings: 9 data bits")));
        s = SerialSettings{};
        s.stopBits = 3;
        QVERIFY(!checkSettings(s, &error));
        s = SerialSettings{};
        s.baud = 0;
        QVERIFY(!checkSettings(s, &error));

        livetest::Pty pty;
        QVERIFY(pty.open());
        s = SerialSettings{};
        s.flow = FlowControl::DtrDsr;
        std::unique_ptr<ByteSource> src = makeSource(pty.name, s);
        QVERIFY(!src->open(&error));
        QVERIFY2(error.contains(QLatin1String("unsupported settings")), qPrintable(error));
        // A pty has no line speed: any rate is accepted there.
        s = SerialSettings{};
        s.baud = 123456;
        src = makeSource(pty.name, s);
        QVERIFY2(src->open(&error), qPrintable(error));
    }

    void sourceChoice()
    {
        QCOMPARE(makeSource(QStringLiteral("tcp://localhost:2000"), {})->kind(),
                 QStringLiteral("tcp"));
        QCOMPARE(makeSource(QStringLiteral("/dev/pts/3"), {})->kind(),
                 QStringLiteral("tty (termios)"));
        QCOMPARE(makeSource(QStringLiteral("/dev/ttyUSB0"), {})->kind(),
                 QStringLiteral("serial (libserialport)"));
        QString host, port;
        QVERIFY(TcpSource::parseUrl(QStringLiteral("tcp://[::1]:3000"), &host, &port));
        QCOMPARE(host, QStringLiteral("::1"));
        QCOMPARE(port, QStringLiteral("3000"));
        QVERIFY(!TcpSource::parseUrl(QStringLiteral("tcp://host"), &host, &port));
        QVERIFY(!TcpSource::parseUrl(QStringLiteral("tcp://host:99999"), &host, &port));
    }

    void ttyWithoutSysfsEntryFallsBackToTermios()
    {
        // A tty node libserialport has no sysfs entry for (a pty under another name).
        livetest::Pty pty;
        QVERIFY(pty.open());
        QTemporaryDir dir;
        const QString link = dir.filePath(QStringLiteral("ttyconsole"));
        QVERIFY(QFile::link(pty.name, link));
        std::unique_ptr<ByteSource> s = makeSource(link, SerialSettings{});
        QCOMPARE(s->kind(), QStringLiteral("serial (libserialport)"));
        QString error;
        QVERIFY2(s->open(&error), qPrintable(error));
        QCOMPARE(s->kind(), QStringLiteral("tty (termios)"));
        QVERIFY(pty.write("x"));
        char c = 0;
        const ByteSource::ReadResult r = s->read(&c, 1, 1000);
        QCOMPARE(int(r.status), int(ByteSource::ReadStatus::Data));
        QCOMPARE(c, 'x');
    }
};

QTEST_GUILESS_MAIN(TestLiveSerial)
#include "tst_live_serial.moc"
