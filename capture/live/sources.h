// The concrete byte sources behind ByteSource (see bytesource.h for which path gets which).
#pragma once

#include "bytesource.h"

struct sp_port;

namespace tty {

// Shared by the tty sources: poll()/read()/write() on a file descriptor, with POLLHUP,
// read() == 0 and EIO seen as a hang-up.
class FdSource : public ByteSource
{
public:
    bool isOpen() const override { return m_fd >= 0; }
    ReadResult read(char *buf, std::size_t cap, int timeoutMs) override;
    bool write(const char *p, std::size_t n, QString *error) override;
    QString error() const override { return m_error; }
    QString name() const override { return m_path; }

protected:
    explicit FdSource(const QString &path) : m_path(path) {}
    QString m_path;
    int m_fd = -1;
    QString m_error;
};

// A tty opened and configured with POSIX termios: pseudo-terminals (QEMU -serial pty,
// socat, console servers) and ttys without modem lines. Raw mode; no modem-line ioctls.
class PtySource : public FdSource
{
public:
    PtySource(const QString &path, const SerialSettings &s) : FdSource(path), m_settings(s) {}
    ~PtySource() override { close(); }
    bool open(QString *error) override;
    bool sendBreak(int ms, QString *error) override;
    void close() override;
    QString kind() const override { return QStringLiteral("tty (termios)"); }
    bool setsLineRate() const override { return !m_pseudo; }

private:
    SerialSettings m_settings;
    bool m_pseudo = false; // a pseudo-terminal's slave (Unix 98 ptys)
};

// A serial port opened and configured through libserialport. Ttys that libserialport
// refuses (no sysfs entry, or no modem lines) are opened with termios instead.
class SerialSource : public FdSource
{
public:
    SerialSource(const QString &path, const SerialSettings &s) : FdSource(path), m_settings(s) {}
    ~SerialSource() override { close(); }
    bool open(QString *error) override;
    bool sendBreak(int ms, QString *error) override;
    void close() override;
    QString kind() const override;
    bool setsLineRate() const override { return true; }

private:
    bool configure(QString *error);
    SerialSettings m_settings;
    sp_port *m_port = nullptr;
    bool m_termios = false; // fell back to termios
};

// A network console: a raw TCP connection (ser2net `accepter: tcp,...` without telnet).
class TcpSource : public ByteSource
{
public:
    explicit TcpSource(const QString &url) : m_url(url) {}
    ~TcpSource() override { close(); }
    bool open(QString *error) override;
    bool isOpen() const override { return m_fd >= 0; }
    ReadResult read(char *buf, std::size_t cap, int timeoutMs) override;
    bool write(const char *p, std::size_t n, QString *error) override;
    bool sendBreak(int ms, QString *error) override;
    void close() override;
    QString error() const override { return m_error; }
    QString name() const override { return m_url; }
    QString kind() const override { return QStringLiteral("tcp"); }
    bool setsLineRate() const override { return false; }

    // Splits tcp://HOST:PORT (HOST may be [v6]); false if it is not such a URL.
    static bool parseUrl(const QString &url, QString *host, QString *port);

private:
    QString m_url;
    int m_fd = -1;
    QString m_error;
};

// The kernel's network console (netconsole): UDP datagrams on a local port, udp://:PORT
// or udp://HOST:PORT (the local address to listen on). It sends only, at no line rate.
class UdpSource : public ByteSource
{
public:
    explicit UdpSource(const QString &url) : m_url(url) {}
    ~UdpSource() override { close(); }
    bool open(QString *error) override;
    bool isOpen() const override { return m_fd >= 0; }
    ReadResult read(char *buf, std::size_t cap, int timeoutMs) override;
    bool write(const char *p, std::size_t n, QString *error) override;
    bool sendBreak(int ms, QString *error) override;
    void close() override;
    QString error() const override { return m_error; }
    QString name() const override { return m_url; }
    QString kind() const override { return QStringLiteral("udp, netconsole"); }
    bool setsLineRate() const override { return false; }
    bool carriesSerialLine() const override { return false; }

    // Splits udp://[HOST]:PORT (HOST may be [v6] or empty: every local address).
    static bool parseUrl(const QString &url, QString *host, QString *port);

private:
    QString m_url;
    int m_fd = -1;
    bool m_sender = false; // tied to the first board that sent
    QString m_error;
};

// A message for an open() errno that names the path and says what to do.
QString openErrorMessage(const QString &path, int err);
// Configures an open tty fd in raw mode with termios; false with a message.
bool configureTermios(int fd, const QString &path, const SerialSettings &s, QString *error);

} // namespace tty
