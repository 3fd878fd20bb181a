// The netconsole source: udp://[HOST]:PORT, the kernel's network console (netconsole=...
// or its configfs targets) received as UDP datagrams on a local port.
#include "sources.h"

#include "fdio.h"

#include <QRegularExpression>

#include <cerrno>

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace tty {

namespace {
// netconsole sends the boot log again when it registers (a few hundred datagrams at
// once); a receive buffer of the default ~200 KiB drops some of them while the reader
// sleeps between reads.
constexpr int kReceiveBuffer = 8 << 20;
// The most a UDP datagram carries: a read goes on taking queued datagrams while this
// much room is left, so none is cut.
constexpr std::size_t kLargestDatagram = 65536;
} // namespace

bool UdpSource::parseUrl(const QString &url, QString *host, QString *port)
{
    static const QRegularExpression re(
        QStringLiteral("^udp://(?:\\[([^\\]]+)\\]|([^:/\\[\\]]*)):(\\d{1,5})/?$"));
    const QRegularExpressionMatch m = re.match(url);
    if (!m.hasMatch() || m.captured(3).toInt() <= 0 || m.captured(3).toInt() >= 65536) {
        return false;
    }
    *host = m.captured(1).isEmpty() ? m.captured(2) : m.captured(1);
    *port = m.captured(3);
    return true;
}

bool UdpSource::open(QString *error)
{
    close();
    QString host, port;
    if (!parseUrl(m_url, &host, &port)) {
        *error = QStringLiteral("%1: not a netconsole address (expected udp://:PORT or "
                                "udp://HOST:PORT, e.g. udp://:6666)")
                     .arg(m_url);
        return false;
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_DGRAM;
    hints.ai_flags = AI_PASSIVE;
    addrinfo *res = nullptr;
    const QByteArray node = host.toUtf8();
    const int g = ::getaddrinfo(host.isEmpty() ? nullptr : node.constData(),
                                port.toUtf8().constData(), &hints, &res);
    if (g != 0) {
        *error = QStringLiteral("%1: cannot resolve %2: %3")
                     .arg(m_url, host, QString::fromLocal8Bit(::gai_strerror(g)));
        return false;
    }
    int lastErr = 0;
    for (addrinfo *a = res; a && m_fd < 0; a = a->ai_next) {
        const int fd =
            ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0) {
            lastErr = errno;
            continue;
        }
        // No SO_REUSEADDR: a second receiver on the port would take some of the datagrams.
        const int zero = 0;
        // Past net.core.rmem_max where allowed (root), else as much as it lets.
        if (::setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &kReceiveBuffer, sizeof kReceiveBuffer) !=
            0) {
            ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &kReceiveBuffer, sizeof kReceiveBuffer);
        }
        if (a->ai_family == AF_INET6) {
            // udp://:PORT takes boards on IPv4 as well.
            ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
        }
        if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0) {
            m_fd = fd;
        } else {
            lastErr = errno;
            ::close(fd);
        }
    }
    ::freeaddrinfo(res);
    if (m_fd < 0) {
        *error = lastErr == EADDRINUSE
                     ? QStringLiteral("%1: the port is taken (another receiver of this "
                                      "netconsole, e.g. nc or socat, is running)")
                           .arg(m_url)
                     : QStringLiteral("%1: cannot listen: %2").arg(m_url, errnoText(lastErr));
        return false;
    }
    m_error.clear();
    m_sender = false;
    return true;
}

ByteSource::ReadResult UdpSource::read(char *buf, std::size_t cap, int timeoutMs)
{
    short revents = 0;
    if (const auto early = awaitData(m_fd, timeoutMs, m_url, "not listening", &m_error, &revents)) {
        return *early;
    }
    // The datagrams waiting, each whole, in the order they came.
    std::size_t n = 0;
    while (cap - n >= kLargestDatagram || n == 0) {
        sockaddr_storage from{};
        socklen_t fromLen = sizeof from;
        const ssize_t got = ::recvfrom(m_fd, buf + n, cap - n, MSG_DONTWAIT,
                                       reinterpret_cast<sockaddr *>(&from), &fromLen);
        if (got < 0) {
            if (n > 0 || errno == EAGAIN || errno == EINTR || errno == ECONNREFUSED) {
                break;
            }
            m_error = QStringLiteral("%1: receive failed: %2").arg(m_url, errnoText(errno));
            return {ReadStatus::Error, 0};
        }
        if (!m_sender) {
            // One console per port: the first board's datagrams only. The socket is tied
            // to it, and the kernel drops anyone else's, which would interleave with its
            // lines.
            if (::connect(m_fd, reinterpret_cast<sockaddr *>(&from), fromLen) == 0) {
                m_sender = true;
            }
        }
        n += std::size_t(got);
    }
    return n > 0 ? ReadResult{ReadStatus::Data, n} : ReadResult{ReadStatus::Timeout, 0};
}

bool UdpSource::write(const char *, std::size_t, QString *error)
{
    *error = QStringLiteral("%1: a netconsole only sends; there is no way back to the board "
                            "(use its serial console, or ssh)")
                 .arg(m_url);
    return false;
}

bool UdpSource::sendBreak(int, QString *error)
{
    *error = QStringLiteral("%1: a netconsole carries no BREAK (magic SysRq needs the serial "
                            "console, or /proc/sysrq-trigger on the board)")
                 .arg(m_url);
    return false;
}

void UdpSource::close()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
}

} // namespace tty
