// Network console addresses and connections, shared by the network byte sources:
// tcp://HOST:PORT (raw), telnet://HOST:PORT and rfc2217://HOST:PORT (telnet, RFC 2217).
#pragma once

#include <QString>

#include <optional>

namespace tty {

struct ConsoleAddress
{
    QString scheme; // tcp, telnet, rfc2217
    QString host;   // a name, an IPv4 address or an IPv6 address (given as [v6])
    QString port;
};

// Splits SCHEME://HOST:PORT for the three schemes; nullopt if it is not such an address.
std::optional<ConsoleAddress> parseConsoleAddress(const QString &url);

// Connects within 3 s; the socket (non-blocking, TCP_NODELAY, keep-alive), or -1 with a
// message for the user in *error that names the address.
int connectConsole(const QString &url, const ConsoleAddress &address, QString *error);

} // namespace tty
