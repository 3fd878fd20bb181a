#include "sources.h"

#include "fdio.h"

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
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

namespace tty {

namespace {

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
                     .arg(path, QString::number(s.baud));
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
                     .arg(path, QString::number(s.baud));
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
    // Unix 98 pty slaves (/dev/pts/N) have majors 136-143 (Documentation/admin-guide/
    // devices.txt): their rate paces nothing.
    struct stat st
    {
    };
    m_pseudo = ::fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) >= 136 &&
               major(st.st_rdev) <= 143;
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

} // namespace tty
