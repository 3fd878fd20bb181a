#include "sources.h"

#include <libserialport.h>

#include <QRegularExpression>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <optional>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

namespace tty {

namespace {

QString errnoText(int err)
{
    return QString::fromLocal8Bit(std::strerror(err));
}

bool isPtsPath(const QString &path)
{
    return path.startsWith(QLatin1String("/dev/pts/"));
}

speed_t speedConstant(int baud)
{
    switch (baud) {
    case 50:
        return B50;
    case 75:
        return B75;
    case 110:
        return B110;
    case 134:
        return B134;
    case 150:
        return B150;
    case 200:
        return B200;
    case 300:
        return B300;
    case 600:
        return B600;
    case 1200:
        return B1200;
    case 1800:
        return B1800;
    case 2400:
        return B2400;
    case 4800:
        return B4800;
    case 9600:
        return B9600;
    case 19200:
        return B19200;
    case 38400:
        return B38400;
    case 57600:
        return B57600;
    case 115200:
        return B115200;
    case 230400:
        return B230400;
    case 460800:
        return B460800;
    case 500000:
        return B500000;
    case 576000:
        return B576000;
    case 921600:
        return B921600;
    case 1000000:
        return B1000000;
    case 1152000:
        return B1152000;
    case 1500000:
        return B1500000;
    case 2000000:
        return B2000000;
    case 2500000:
        return B2500000;
    case 3000000:
        return B3000000;
    case 3500000:
        return B3500000;
    case 4000000:
        return B4000000;
    default:
        return B0;
    }
}

// Waits for POLLOUT and writes everything; used by every fd-based source.
bool writeAll(int fd, const char *p, std::size_t n, const QString &name, bool socket,
              QString *error)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (n > 0) {
        const ssize_t w = socket ? ::send(fd, p, n, MSG_NOSIGNAL) : ::write(fd, p, n);
        if (w > 0) {
            p += w;
            n -= std::size_t(w);
            continue;
        }
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w < 0 && errno != EAGAIN) {
            *error = QStringLiteral("%1: write failed: %2").arg(name, errnoText(errno));
            return false;
        }
        if (std::chrono::steady_clock::now() > deadline) {
            *error =
                QStringLiteral("%1: write timed out (flow control holding the line?)").arg(name);
            return false;
        }
        pollfd pfd{fd, POLLOUT, 0};
        ::poll(&pfd, 1, 100);
    }
    return true;
}

} // namespace

QString openErrorMessage(const QString &path, int err)
{
    switch (err) {
    case ENOENT:
    case ENODEV:
    case ENXIO:
        return QStringLiteral("%1: no such port (`ttyscope capture --list` shows the serial "
                              "ports found)")
            .arg(path);
    case EACCES:
    case EPERM:
        return QStringLiteral("%1: permission denied. Serial ports belong to the 'dialout' "
                              "group: run `sudo usermod -aG dialout $USER`, then log out and in "
                              "again")
            .arg(path);
    case EBUSY:
        return QStringLiteral("%1: port busy: another program holds it open exclusively (find "
                              "it with `fuser -v %1`)")
            .arg(path);
    default:
        return QStringLiteral("%1: cannot open: %2").arg(path, errnoText(err));
    }
}

bool configureTermios(int fd, const QString &path, const SerialSettings &s, QString *error)
{
    termios t{};
    if (::tcgetattr(fd, &t) != 0) {
        *error = QStringLiteral("%1: not a terminal device (%2)").arg(path, errnoText(errno));
        return false;
    }
    ::cfmakeraw(&t);
    const speed_t sp = speedConstant(s.baud);
    if (sp != B0) {
        ::cfsetispeed(&t, sp);
        ::cfsetospeed(&t, sp);
    } else if (!isPtsPath(path)) {
        // A pseudo-terminal has no line speed, so any rate is fine there.
        *error = QStringLiteral("%1: unsupported settings: %2 baud is not a rate termios can "
                                "set on this tty")
                     .arg(path)
                     .arg(s.baud);
        return false;
    }
    t.c_cflag &= ~tcflag_t(CSIZE | PARENB | PARODD | CMSPAR | CSTOPB | CRTSCTS);
    t.c_cflag |= CLOCAL | CREAD;
    t.c_cflag |= s.dataBits == 5 ? CS5 : s.dataBits == 6 ? CS6 : s.dataBits == 7 ? CS7 : CS8;
    switch (s.parity) {
    case Parity::None:
        break;
    case Parity::Odd:
        t.c_cflag |= PARENB | PARODD;
        break;
    case Parity::Even:
        t.c_cflag |= PARENB;
        break;
    case Parity::Mark:
        t.c_cflag |= PARENB | CMSPAR | PARODD;
        break;
    case Parity::Space:
        t.c_cflag |= PARENB | CMSPAR;
        break;
    }
    if (s.stopBits == 2) {
        t.c_cflag |= CSTOPB;
    }
    t.c_iflag &= ~tcflag_t(IXON | IXOFF | IXANY);
    switch (s.flow) {
    case FlowControl::None:
        break;
    case FlowControl::RtsCts:
        t.c_cflag |= CRTSCTS;
        break;
    case FlowControl::XonXoff:
        t.c_iflag |= IXON | IXOFF;
        break;
    case FlowControl::DtrDsr:
        *error = QStringLiteral("%1: unsupported settings: DTR/DSR flow control is not "
                                "available through termios")
                     .arg(path);
        return false;
    }
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (::tcsetattr(fd, TCSANOW, &t) != 0) {
        *error = QStringLiteral("%1: unsupported settings (%2): %3")
                     .arg(path, settingsSummary(s), errnoText(errno));
        return false;
    }
    // tcsetattr succeeds when any of the changes was applied: check the speed stuck.
    termios got{};
    if (sp != B0 && ::tcgetattr(fd, &got) == 0 && ::cfgetospeed(&got) != sp) {
        *error = QStringLiteral("%1: unsupported settings: the tty refused %2 baud")
                     .arg(path)
                     .arg(s.baud);
        return false;
    }
    return true;
}

namespace {
// Settings a port cannot take are refused before it is touched, the message naming it.
bool usableSettings(const QString &path, const SerialSettings &settings, QString *error)
{
    QString msg;
    if (!checkSettings(settings, &msg)) {
        *error = QStringLiteral("%1: %2").arg(path, msg);
        return false;
    }
    return true;
}

// The start of a read on a descriptor: open, and readable or hung up within the timeout.
// Otherwise the result to return (a timeout, or an error with *error set).
std::optional<ByteSource::ReadResult> awaitData(int fd, int timeoutMs, const QString &name,
                                                const char *closedWord, QString *error,
                                                short *revents)
{
    using R = ByteSource::ReadResult;
    if (fd < 0) {
        *error = QStringLiteral("%1: %2").arg(name, QLatin1String(closedWord));
        return R{ByteSource::ReadStatus::Error, 0};
    }
    pollfd pfd{fd, POLLIN, 0};
    const int r = ::poll(&pfd, 1, timeoutMs);
    if (r == 0 || (r < 0 && errno == EINTR)) {
        return R{ByteSource::ReadStatus::Timeout, 0};
    }
    if (r < 0) {
        *error = QStringLiteral("%1: poll failed: %2").arg(name, errnoText(errno));
        return R{ByteSource::ReadStatus::Error, 0};
    }
    *revents = pfd.revents;
    return std::nullopt;
}
} // namespace

// ---- FdSource

ByteSource::ReadResult FdSource::read(char *buf, std::size_t cap, int timeoutMs)
{
    short revents = 0;
    if (const auto early = awaitData(m_fd, timeoutMs, m_path, "not open", &m_error, &revents)) {
        return *early;
    }
    // Data that arrived before a hang-up is read first: POLLIN and POLLHUP come together.
    if (revents & POLLIN) {
        const ssize_t n = ::read(m_fd, buf, cap);
        if (n > 0) {
            return {ReadStatus::Data, std::size_t(n)};
        }
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            return {ReadStatus::Timeout, 0};
        }
        if (n == 0 || errno == EIO || errno == ENODEV || errno == ENXIO) {
            m_error = QStringLiteral("%1: device hung up or vanished").arg(m_path);
            return {ReadStatus::HangUp, 0};
        }
        m_error = QStringLiteral("%1: read failed: %2").arg(m_path, errnoText(errno));
        return {ReadStatus::Error, 0};
    }
    if (revents & (POLLHUP | POLLERR | POLLNVAL)) {
        m_error = QStringLiteral("%1: device hung up or vanished").arg(m_path);
        return {ReadStatus::HangUp, 0};
    }
    return {ReadStatus::Timeout, 0};
}

bool FdSource::write(const char *p, std::size_t n, QString *error)
{
    if (m_fd < 0) {
        *error = QStringLiteral("%1: not open").arg(m_path);
        return false;
    }
    return writeAll(m_fd, p, n, m_path, false, error);
}

// ---- PtySource

bool PtySource::open(QString *error)
{
    close();
    if (!usableSettings(m_path, m_settings, error)) {
        return false;
    }
    const QByteArray p = m_path.toLocal8Bit();
    const int fd = ::open(p.constData(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *error = openErrorMessage(m_path, errno);
        return false;
    }
    if (!::isatty(fd)) {
        ::close(fd);
        *error = QStringLiteral("%1: not a terminal device").arg(m_path);
        return false;
    }
    if (!configureTermios(fd, m_path, m_settings, error)) {
        ::close(fd);
        return false;
    }
    // Other non-root openers now get EBUSY, which is what "port busy" means.
    ::ioctl(fd, TIOCEXCL);
    m_fd = fd;
    m_error.clear();
    return true;
}

bool PtySource::sendBreak(int ms, QString *error)
{
    if (m_fd < 0) {
        *error = QStringLiteral("%1: not open").arg(m_path);
        return false;
    }
    // Ptys accept and ignore a BREAK; real ttys hold the line low for ms.
    if (::ioctl(m_fd, TIOCSBRK) == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
        ::ioctl(m_fd, TIOCCBRK);
        return true;
    }
    if (::tcsendbreak(m_fd, 0) != 0) {
        *error = QStringLiteral("%1: BREAK failed: %2").arg(m_path, errnoText(errno));
        return false;
    }
    return true;
}

void PtySource::close()
{
    if (m_fd >= 0) {
        ::ioctl(m_fd, TIOCNXCL);
        ::close(m_fd);
        m_fd = -1;
    }
}

// ---- SerialSource

namespace {
QString spMessage()
{
    char *m = sp_last_error_message();
    const QString s = QString::fromLocal8Bit(m ? m : "unknown error");
    sp_free_error_message(m);
    return s;
}
} // namespace

QString SerialSource::kind() const
{
    return m_termios ? QStringLiteral("tty (termios)") : QStringLiteral("serial (libserialport)");
}

bool SerialSource::open(QString *error)
{
    close();
    if (!usableSettings(m_path, m_settings, error)) {
        return false;
    }
    const QByteArray p = m_path.toLocal8Bit();
    bool fallback = false;
    if (sp_get_port_by_name(p.constData(), &m_port) != SP_OK) {
        // No sysfs entry: either nothing there, or a tty libserialport does not know.
        m_port = nullptr;
        struct stat st
        {
        };
        if (::stat(p.constData(), &st) != 0) {
            *error = openErrorMessage(m_path, errno);
            return false;
        }
        if (!S_ISCHR(st.st_mode)) {
            *error = QStringLiteral("%1: not a serial port (not a character device)").arg(m_path);
            return false;
        }
        fallback = true;
    } else if (sp_open(m_port, SP_MODE_READ_WRITE) != SP_OK) {
        // libserialport 0.1.1 also fails on the modem-line ioctl of ttys that have none, and
        // its errno is then not always the real reason: open the tty ourselves, which either
        // gives the true error (permission, busy, gone) or a tty to drive with termios.
        sp_free_port(m_port);
        m_port = nullptr;
        fallback = true;
    }
    m_termios = fallback;
    if (fallback) {
        const int fd = ::open(p.constData(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) {
            *error = openErrorMessage(m_path, errno);
            return false;
        }
        if (!::isatty(fd) || !configureTermios(fd, m_path, m_settings, error)) {
            if (!::isatty(fd)) {
                *error = QStringLiteral("%1: not a terminal device").arg(m_path);
            }
            ::close(fd);
            return false;
        }
        ::ioctl(fd, TIOCEXCL);
        m_fd = fd;
        m_error.clear();
        return true;
    }
    if (!configure(error)) {
        close();
        return false;
    }
    int fd = -1;
    if (sp_get_port_handle(m_port, &fd) != SP_OK || fd < 0) {
        *error = QStringLiteral("%1: no file handle: %2").arg(m_path, spMessage());
        close();
        return false;
    }
    ::ioctl(fd, TIOCEXCL);
    m_fd = fd;
    m_error.clear();
    return true;
}

bool SerialSource::configure(QString *error)
{
    const SerialSettings &s = m_settings;
    const auto fail = [&](const QString &what) {
        *error = QStringLiteral("%1: unsupported settings: %2 (%3)").arg(m_path, what, spMessage());
        return false;
    };
    if (sp_set_baudrate(m_port, s.baud) != SP_OK) {
        return fail(QStringLiteral("%1 baud").arg(s.baud));
    }
    if (sp_set_bits(m_port, s.dataBits) != SP_OK) {
        return fail(QStringLiteral("%1 data bits").arg(s.dataBits));
    }
    static const sp_parity parities[] = {SP_PARITY_NONE, SP_PARITY_ODD, SP_PARITY_EVEN,
                                         SP_PARITY_MARK, SP_PARITY_SPACE};
    if (sp_set_parity(m_port, parities[int(s.parity)]) != SP_OK) {
        return fail(QStringLiteral("%1 parity").arg(QLatin1String(parityName(s.parity))));
    }
    if (sp_set_stopbits(m_port, s.stopBits) != SP_OK) {
        return fail(QStringLiteral("%1 stop bits").arg(s.stopBits));
    }
    static const sp_flowcontrol flows[] = {SP_FLOWCONTROL_NONE, SP_FLOWCONTROL_RTSCTS,
                                           SP_FLOWCONTROL_XONXOFF, SP_FLOWCONTROL_DTRDSR};
    if (sp_set_flowcontrol(m_port, flows[int(s.flow)]) != SP_OK) {
        return fail(QStringLiteral("%1 flow control").arg(QLatin1String(flowName(s.flow))));
    }
    return true;
}

bool SerialSource::sendBreak(int ms, QString *error)
{
    if (m_fd < 0) {
        *error = QStringLiteral("%1: not open").arg(m_path);
        return false;
    }
    if (m_port) {
        if (sp_start_break(m_port) != SP_OK) {
            *error = QStringLiteral("%1: BREAK failed: %2").arg(m_path, spMessage());
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
        sp_end_break(m_port);
        return true;
    }
    if (::tcsendbreak(m_fd, 0) != 0) {
        *error = QStringLiteral("%1: BREAK failed: %2").arg(m_path, errnoText(errno));
        return false;
    }
    return true;
}

void SerialSource::close()
{
    if (m_port) {
        if (m_fd >= 0) {
            ::ioctl(m_fd, TIOCNXCL);
        }
        sp_close(m_port);
        sp_free_port(m_port);
        m_port = nullptr;
    } else if (m_fd >= 0) {
        ::ioctl(m_fd, TIOCNXCL);
        ::close(m_fd);
    }
    m_fd = -1;
}

// ---- TcpSource

bool TcpSource::parseUrl(const QString &url, QString *host, QString *port)
{
    static const QRegularExpression re(
        QStringLiteral("^tcp://(?:\\[([^\\]]+)\\]|([^:/\\[\\]]+)):(\\d{1,5})/?$"));
    const QRegularExpressionMatch m = re.match(url);
    if (!m.hasMatch()) {
        return false;
    }
    *host = m.captured(1).isEmpty() ? m.captured(2) : m.captured(1);
    *port = m.captured(3);
    return port->toInt() > 0 && port->toInt() < 65536;
}

bool TcpSource::open(QString *error)
{
    close();
    QString host, port;
    if (!parseUrl(m_url, &host, &port)) {
        *error = QStringLiteral("%1: not a network console address (expected tcp://HOST:PORT)")
                     .arg(m_url);
        return false;
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *res = nullptr;
    const int g = ::getaddrinfo(host.toUtf8().constData(), port.toUtf8().constData(), &hints, &res);
    if (g != 0) {
        *error = QStringLiteral("%1: cannot resolve %2: %3")
                     .arg(m_url, host, QString::fromLocal8Bit(::gai_strerror(g)));
        return false;
    }
    int lastErr = 0;
    for (addrinfo *a = res; a; a = a->ai_next) {
        const int fd =
            ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0) {
            lastErr = errno;
            continue;
        }
        int rc = ::connect(fd, a->ai_addr, a->ai_addrlen);
        if (rc != 0 && errno == EINPROGRESS) {
            pollfd pfd{fd, POLLOUT, 0};
            if (::poll(&pfd, 1, 3000) == 1) {
                int soErr = 0;
                socklen_t len = sizeof soErr;
                ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &soErr, &len);
                rc = soErr == 0 ? 0 : -1;
                errno = soErr;
            } else {
                errno = ETIMEDOUT;
            }
        }
        if (rc == 0) {
            const int one = 1;
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
            m_fd = fd;
            break;
        }
        lastErr = errno;
        ::close(fd);
    }
    ::freeaddrinfo(res);
    if (m_fd < 0) {
        if (lastErr == ECONNREFUSED) {
            *error = QStringLiteral("%1: connection refused (is ser2net or the console server "
                                    "listening there?)")
                         .arg(m_url);
        } else {
            *error = QStringLiteral("%1: cannot connect: %2").arg(m_url, errnoText(lastErr));
        }
        return false;
    }
    m_error.clear();
    return true;
}

ByteSource::ReadResult TcpSource::read(char *buf, std::size_t cap, int timeoutMs)
{
    short revents = 0;
    if (const auto early = awaitData(m_fd, timeoutMs, m_url, "not connected", &m_error, &revents)) {
        return *early;
    }
    const ssize_t n = ::recv(m_fd, buf, cap, 0);
    if (n > 0) {
        return {ReadStatus::Data, std::size_t(n)};
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
        return {ReadStatus::Timeout, 0};
    }
    m_error = n == 0 ? QStringLiteral("%1: connection closed by the console server").arg(m_url)
                     : QStringLiteral("%1: connection lost: %2").arg(m_url, errnoText(errno));
    return {ReadStatus::HangUp, 0};
}

bool TcpSource::write(const char *p, std::size_t n, QString *error)
{
    if (m_fd < 0) {
        *error = QStringLiteral("%1: not connected").arg(m_url);
        return false;
    }
    return writeAll(m_fd, p, n, m_url, true, error);
}

bool TcpSource::sendBreak(int, QString *error)
{
    *error = QStringLiteral("%1: a raw TCP console cannot carry a serial BREAK (that needs "
                            "telnet with RFC 2217 on the server)")
                 .arg(m_url);
    return false;
}

void TcpSource::close()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
}

} // namespace tty
