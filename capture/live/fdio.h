// Descriptor helpers shared by the byte sources (sources.cpp, tcpsource.cpp): errno text,
// writing everything with a deadline, and waiting for data with the result to return.
#pragma once

#include "bytesource.h"

#include <QString>

#include <optional>

namespace tty {

QString errnoText(int err);
// Waits for POLLOUT and writes everything; used by every fd-based source.
bool writeAll(int fd, const char *p, std::size_t n, const QString &name, bool socket,
              QString *error);
// The start of a read on a descriptor: open, and readable or hung up within the timeout.
// Otherwise the result to return (a timeout, or an error with *error set).
std::optional<ByteSource::ReadResult> awaitData(int fd, int timeoutMs, const QString &name,
                                                const char *closedWord, QString *error,
                                                short *revents);

} // namespace tty
