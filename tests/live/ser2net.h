// A real ser2net for the live tests, on loopback: a YAML config with one connection from a
// free TCP port to a device (the tests' pseudo-terminal), optionally run under strace to see
// what ser2net does to the device. The child gets no descriptor of the test's (not the
// build's lock file either: a ser2net left behind by a crashed test must not hold it) and is
// killed if the test dies.
#pragma once

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QString>

#include <arpa/inet.h>
#include <csignal>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace livetest {

// A loopback port nothing listens on now (bound, read back, closed).
inline int freeLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = -1;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) == 0) {
        port = ntohs(a.sin_port);
    }
    ::close(fd);
    return port;
}

inline QString findSbin(const char *name)
{
    QString p = QStandardPaths::findExecutable(QLatin1String(name));
    if (p.isEmpty()) {
        p = QStandardPaths::findExecutable(QLatin1String(name), {QStringLiteral("/usr/sbin")});
    }
    return p;
}

class Ser2net
{
public:
    ~Ser2net() { stop(); }

    // accepter: "telnet(rfc2217)", "telnet" or "tcp"; device: the tty ser2net opens.
    // strace: the ioctl and openat calls go to tracePath(). onPort: a port to listen on
    // (a restart), else a free one. options: YAML lines of the connection's options
    // ("dev-to-net-bufsize: 65536"). False with *error.
    bool start(const QString &dir, const QString &accepter, const QString &device, bool strace,
               QString *error, int onPort = -1, const QStringList &options = {})
    {
        const QString ser2net = findSbin("ser2net");
        if (ser2net.isEmpty()) {
            *error = QStringLiteral("ser2net is not installed (scripts/deps.sh installs it)");
            return false;
        }
        m_dir = dir;
        port = onPort > 0 ? onPort : freeLoopbackPort();
        const QString cfg = QDir(dir).filePath(QStringLiteral("ser2net.yaml"));
        QFile f(cfg);
        if (!f.open(QIODevice::WriteOnly)) {
            *error = f.errorString();
            return false;
        }
        // The gensio stack: telnet(rfc2217),tcp,... / telnet,tcp,... / tcp,...
        const QString stack =
            accepter == QLatin1String("tcp") ? QString() : accepter + QLatin1Char(',');
        f.write(QStringLiteral("connection: &con0\n"
                               "  accepter: %1tcp,127.0.0.1,%2\n"
                               "  connector: serialdev,%3,115200n81,local\n")
                    .arg(stack)
                    .arg(port)
                    .arg(device)
                    .toUtf8());
        if (!options.isEmpty()) {
            f.write("  options:\n");
            for (const QString &o : options) {
                f.write("    " + o.toUtf8() + "\n");
            }
        }
        f.close();
        QStringList args{QStringLiteral("-n"), QStringLiteral("-u"),
                         QStringLiteral("-c"), cfg,
                         QStringLiteral("-P"), pidPath()};
        QString program = ser2net;
        if (strace) {
            program = QStandardPaths::findExecutable(QStringLiteral("strace"));
            if (program.isEmpty()) {
                *error = QStringLiteral("strace is not installed (scripts/deps.sh installs it)");
                return false;
            }
            args = QStringList{QStringLiteral("-f"),
                               QStringLiteral("-tt"),
                               QStringLiteral("-e"),
                               QStringLiteral("trace=openat,ioctl"),
                               QStringLiteral("-o"),
                               tracePath(),
                               ser2net} +
                   args;
        }
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setChildProcessModifier([] {
            // Only async-signal-safe calls between fork and exec.
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            for (int fd = 3; fd < 1024; ++fd) {
                ::fcntl(fd, F_SETFD, FD_CLOEXEC);
            }
        });
        m_process.start(program, args);
        if (!m_process.waitForStarted(5000)) {
            *error = m_process.errorString();
            return false;
        }
        return true;
    }

    // What ser2net (or strace) printed, for a failing test's message.
    QString output() { return QString::fromLocal8Bit(m_process.readAll()); }

    // ser2net's own pid (under strace it is strace's child), once it wrote its pid file.
    pid_t ser2netPid() const
    {
        QFile f(pidPath());
        if (!f.open(QIODevice::ReadOnly)) {
            return -1;
        }
        return pid_t(f.readAll().trimmed().toInt());
    }

    void stop()
    {
        if (m_process.state() == QProcess::NotRunning) {
            return;
        }
        // Under strace, SIGTERM to strace would leave ser2net running detached.
        const pid_t pid = ser2netPid();
        if (pid > 0 && pid != pid_t(m_process.processId())) {
            ::kill(pid, SIGTERM);
        }
        m_process.terminate();
        if (!m_process.waitForFinished(5000)) {
            m_process.kill();
            m_process.waitForFinished(2000);
        }
    }

    QString pidPath() const { return QDir(m_dir).filePath(QStringLiteral("ser2net.pid")); }
    QString tracePath() const { return QDir(m_dir).filePath(QStringLiteral("ser2net.strace")); }

    int port = -1;

private:
    QString m_dir;
    QProcess m_process;
};

} // namespace livetest
