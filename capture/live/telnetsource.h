// Network consoles that speak telnet: rfc2217://HOST:PORT (ser2net's `telnet(rfc2217)`
// accepter and other RFC 2217 access servers: line settings and BREAK over the network) and
// telnet://HOST:PORT (plain telnet console ports: ser2net's `telnet`, terminal servers).
// The recording gets the console's bytes only; the telnet protocol is answered here.
#pragma once

#include "bytesource.h"
#include "telnetcodec.h"

#include <functional>
#include <string>
#include <vector>

namespace tty {

class TelnetSource : public ByteSource
{
public:
    using Mode = TelnetCodec::Mode;
    TelnetSource(const QString &url, Mode mode, const SerialSettings &settings)
        : m_url(url), m_mode(mode), m_settings(settings), m_codec(mode)
    {
    }
    ~TelnetSource() override { close(); }
    // Connects and negotiates. For RFC 2217 it waits (kNegotiationMs at most) until the
    // server agreed to COM-PORT-OPTION and confirmed each line setting, and fails with a
    // message saying which one it did not take.
    bool open(QString *error) override;
    bool isOpen() const override { return m_fd >= 0; }
    ReadResult read(char *buf, std::size_t cap, int timeoutMs) override;
    bool write(const char *p, std::size_t n, QString *error) override;
    // RFC 2217: SET-CONTROL BREAK ON, `ms`, BREAK OFF. Telnet: IAC BRK (the server picks
    // how long the BREAK lasts; ser2net: tcsendbreak()).
    bool sendBreak(int ms, QString *error) override;
    void close() override;
    QString error() const override { return m_error; }
    QString name() const override { return m_url; }
    QString kind() const override;
    bool setsLineRate() const override { return m_mode == Mode::Rfc2217; }

    // The protocol state, for what the server answered (tests, diagnostics).
    const TelnetCodec &codec() const { return m_codec; }

    static constexpr int kNegotiationMs = 3000;

private:
    // Reads what the socket has within timeoutMs into m_pending and sends the answers;
    // false (and m_error) when the connection is gone.
    bool pump(int timeoutMs);
    bool sendRaw(const std::string &bytes, QString *error);
    bool waitFor(const std::function<bool()> &done, QString *error);
    bool configure(QString *error);

    QString m_url;
    Mode m_mode;
    SerialSettings m_settings;
    TelnetCodec m_codec;
    int m_fd = -1;
    QString m_error;
    std::string m_pending; // console bytes decoded, not yet returned by read()
    std::size_t m_pendingPos = 0;
    std::vector<char> m_raw;
};

} // namespace tty
