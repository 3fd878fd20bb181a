// The raw TCP console source (ser2net, console servers): tcp://HOST:PORT.
#include "sources.h"

#include "fdio.h"
#include "netconsole.h"

#include <QRegularExpression>

#include <cerrno>

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace tty {

std::optional<ConsoleAddress> parseConsoleAddress(const QString &url)
{
    static const QRegularExpression re(
        QStringLiteral("^(tcp|telnet|rfc2217)://(?:\\[([^\\]]+)\\]|([^:/\\[\\]]+)):(\\d{1,5})/?$"));
    const QRegularExpressionMatch m = re.match(url);
    if (!m.hasMatch()) {
        return std::nullopt;
    }
    ConsoleAddress a;
    a.scheme = m.captured(1);
    a.host = m.captured(2).isEmpty() ? m.captured(3) : m.captured(2);
    a.port = m.captured(4);
    if (a.port.toInt() <= 0 || a.port.toInt() >= 65536) {
        return std::nullopt;
    }
    return a;
}

bool TcpSource::parseUrl(const QString &url, QString *host, QString *port)
{
    const std::optional<ConsoleAddress> a = parseConsoleAddress(url);
    if (!a || a->scheme != QLatin1String("tcp")) {
        return false;
    }
    *host = a->host;
    *port = a->port;
    return true;
}

int connectConsole(const QString &url, const ConsoleAddress &address, QString *error)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *res = nullptr;
    const int g = ::getaddrinfo(address.host.toUtf8().constData(),
                                address.port.toUtf8().constData(), &hints, &res);
    if (g != 0) {
        *error = QStringLiteral("%1: cannot resolve %2: %3")
                     .arg(url, address.host, QString::fromLocal8Bit(::gai_strerror(g)));
        return -1;
    }
    int connected = -1;
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
            connected = fd;
            break;
        }
        lastErr = errno;
        ::close(fd);
    }
    ::freeaddrinfo(res);
    if (connected < 0) {
        if (lastErr == ECONNREFUSED) {
            *error = QStringLiteral("%1: connection refused (is ser2net or the console server "
                                    "listening there?)")
                         .arg(url);
        } else {
            *error = QStringLiteral("%1: cannot connect: %2").arg(url, errnoText(lastErr));
        }
    }
    return connected;
}

bool TcpSource::open(QString *error)
{
    close();
    const std::optional<ConsoleAddress> a = parseConsoleAddress(m_url);
    if (!a || a->scheme != QLatin1String("tcp")) {
        *error = QStringLiteral("%1: not a network console address (expected tcp://HOST:PORT)")
                     .arg(m_url);
        return false;
    }
    m_fd = connectConsole(m_url, *a, error);
    if (m_fd < 0) {
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
