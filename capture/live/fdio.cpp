#include "fdio.h"

#include <cerrno>
#include <chrono>
#include <cstring>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace tty {

QString errnoText(int err)
{
    return QString::fromLocal8Bit(std::strerror(err));
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

} // namespace tty
