// The telnet console sources: telnet://HOST:PORT and rfc2217://HOST:PORT.
#include "telnetsource.h"

#include "fdio.h"
#include "netconsole.h"

#include <QStringList>

#include <cerrno>
#include <chrono>
#include <thread>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace tty {

using namespace telnet;

namespace {
constexpr std::size_t kRawBytes = 64u << 10;

unsigned char parityCode(Parity p)
{
    switch (p) {
    case Parity::None:
        return 1;
    case Parity::Odd:
        return 2;
    case Parity::Even:
        return 3;
    case Parity::Mark:
        return 4;
    case Parity::Space:
        return 5;
    }
    return 1;
}

unsigned char flowCode(FlowControl f)
{
    return f == FlowControl::XonXoff  ? kControlXonXoff
           : f == FlowControl::RtsCts ? kControlHardware
                                      : kControlNoFlow;
}
} // namespace

QString TelnetSource::kind() const
{
    return m_mode == Mode::Rfc2217 ? QStringLiteral("telnet, RFC 2217") : QStringLiteral("telnet");
}

bool TelnetSource::open(QString *error)
{
    close();
    m_codec = TelnetCodec(m_mode);
    m_pending.clear();
    m_pendingPos = 0;
    const char *scheme = m_mode == Mode::Rfc2217 ? "rfc2217" : "telnet";
    const std::optional<ConsoleAddress> a = parseConsoleAddress(m_url);
    if (!a || a->scheme != QLatin1String(scheme)) {
        *error = QStringLiteral("%1: not a network console address (expected %2://HOST:PORT)")
                     .arg(m_url, QLatin1String(scheme));
        return false;
    }
    if (m_mode == Mode::Rfc2217 && m_settings.flow == FlowControl::DtrDsr) {
        *error = QStringLiteral("%1: unsupported settings: DTR/DSR flow control is not set over "
                                "RFC 2217 by ttyscope (none, rtscts or xonxoff are)")
                     .arg(m_url);
        return false;
    }
    m_fd = connectConsole(m_url, *a, error);
    if (m_fd < 0) {
        return false;
    }
    m_raw.resize(kRawBytes);
    if (!sendRaw(m_codec.start(), error) || (m_mode == Mode::Rfc2217 && !configure(error))) {
        close();
        return false;
    }
    m_error.clear();
    return true;
}

// RFC 2217 section 2: settings only after DO COM-PORT-OPTION, in the order it recommends;
// each is acknowledged with the value the server actually uses, which must be ours.
bool TelnetSource::configure(QString *error)
{
    const auto agreed = [&] {
        return m_codec.localEnabled(kComPort) || m_codec.localRefused(kComPort);
    };
    QString lost; // the connection, while waiting
    if (!waitFor(agreed, &lost)) {
        *error = lost;
        if (lost.isEmpty()) {
            *error = QStringLiteral("%1: no RFC 2217 answer within %2 s (the server did not "
                                    "agree to COM-PORT-OPTION). A raw TCP console is "
                                    "tcp://HOST:PORT, a plain telnet one telnet://HOST:PORT")
                         .arg(m_url, QString::number(kNegotiationMs / 1000));
        }
        return false;
    }
    if (!m_codec.localEnabled(kComPort)) {
        *error = QStringLiteral("%1: the server refused RFC 2217 (DONT COM-PORT-OPTION), so it "
                                "cannot set the line or send a BREAK; for a plain telnet console "
                                "use telnet://HOST:PORT (ser2net: accepter telnet(rfc2217),...)")
                     .arg(m_url);
        return false;
    }
    struct Setting
    {
        unsigned char command;
        std::string value;
        QString what;
    };
    const SerialSettings &s = m_settings;
    const std::uint32_t baud = std::uint32_t(s.baud);
    const std::vector<Setting> settings = {
        {kSetBaudrate,
         {char(baud >> 24), char(baud >> 16), char(baud >> 8), char(baud)},
         QStringLiteral("%1 baud").arg(s.baud)},
        {kSetDatasize, std::string(1, char(s.dataBits)),
         QStringLiteral("%1 data bits").arg(s.dataBits)},
        {kSetParity, std::string(1, char(parityCode(s.parity))),
         QStringLiteral("%1 parity").arg(QLatin1String(parityName(s.parity)))},
        {kSetStopsize, std::string(1, char(s.stopBits)),
         QStringLiteral("%1 stop bits").arg(s.stopBits)},
        {kSetControl, std::string(1, char(flowCode(s.flow))),
         QStringLiteral("flow control %1").arg(QLatin1String(flowName(s.flow)))},
    };
    std::vector<int> before;
    std::string out;
    for (const Setting &st : settings) {
        before.push_back(m_codec.comPortReplies(st.command));
        out += TelnetCodec::comPortCommand(st.command, st.value);
    }
    if (!sendRaw(out, error)) {
        return false;
    }
    const auto confirmed = [&] {
        for (std::size_t i = 0; i < settings.size(); ++i) {
            if (m_codec.comPortReplies(settings[i].command) <= before[i]) {
                return false;
            }
        }
        return true;
    };
    if (!waitFor(confirmed, &lost)) {
        *error = lost;
        if (lost.isEmpty()) {
            QStringList missing;
            for (std::size_t i = 0; i < settings.size(); ++i) {
                if (m_codec.comPortReplies(settings[i].command) <= before[i]) {
                    missing << settings[i].what;
                }
            }
            *error = QStringLiteral("%1: the RFC 2217 server did not confirm %2 within %3 s")
                         .arg(m_url, missing.join(QStringLiteral(", ")))
                         .arg(kNegotiationMs / 1000);
        }
        return false;
    }
    for (const Setting &st : settings) {
        const std::string got = m_codec.lastComPortReply(st.command).value_or(std::string());
        if (got != st.value) {
            QString answered;
            if (st.command == kSetBaudrate && got.size() == 4) {
                const auto b = [&](int i) { return std::uint32_t((unsigned char)got[i]); };
                answered =
                    QStringLiteral("%1 baud").arg(b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3));
            } else {
                answered = QStringLiteral("value %1")
                               .arg(got.empty() ? QStringLiteral("none")
                                                : QString::number((unsigned char)got[0]));
            }
            *error = QStringLiteral("%1: unsupported settings: the RFC 2217 server did not take "
                                    "%2 (it answered %3)")
                         .arg(m_url, st.what, answered);
            return false;
        }
    }
    return true;
}

bool TelnetSource::waitFor(const std::function<bool()> &done, QString *error)
{
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(kNegotiationMs);
    while (!done()) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0) {
            return false;
        }
        if (!pump(int(std::min<long long>(left, 50)))) {
            *error = m_error;
            return false;
        }
    }
    return true;
}

bool TelnetSource::pump(int timeoutMs)
{
    pollfd pfd{m_fd, POLLIN, 0};
    const int r = ::poll(&pfd, 1, timeoutMs);
    if (r <= 0) {
        return true; // nothing yet (or EINTR): the caller's loop tries again
    }
    const ssize_t n = ::recv(m_fd, m_raw.data(), m_raw.size(), 0);
    if (n == 0) {
        m_error = QStringLiteral("%1: connection closed by the console server").arg(m_url);
        return false;
    }
    if (n < 0) {
        if (errno == EAGAIN || errno == EINTR) {
            return true;
        }
        m_error = QStringLiteral("%1: connection lost: %2").arg(m_url, errnoText(errno));
        return false;
    }
    if (m_pendingPos == m_pending.size()) {
        m_pending.clear();
        m_pendingPos = 0;
    }
    m_codec.decode(m_raw.data(), std::size_t(n), &m_pending);
    QString error;
    if (!sendRaw(m_codec.takeOutput(), &error)) {
        m_error = error;
        return false;
    }
    return true;
}

ByteSource::ReadResult TelnetSource::read(char *buf, std::size_t cap, int timeoutMs)
{
    if (m_fd >= 0 && m_pendingPos == m_pending.size()) {
        short revents = 0;
        if (const auto early =
                awaitData(m_fd, timeoutMs, m_url, "not connected", &m_error, &revents)) {
            return *early;
        }
        if (!pump(0)) {
            return {ReadStatus::HangUp, 0};
        }
    } else if (m_fd < 0) {
        m_error = QStringLiteral("%1: not connected").arg(m_url);
        return {ReadStatus::Error, 0};
    }
    const std::size_t n = std::min(cap, m_pending.size() - m_pendingPos);
    if (n == 0) {
        return {ReadStatus::Timeout, 0}; // only telnet protocol arrived
    }
    m_pending.copy(buf, n, m_pendingPos);
    m_pendingPos += n;
    return {ReadStatus::Data, n};
}

bool TelnetSource::sendRaw(const std::string &bytes, QString *error)
{
    if (bytes.empty()) {
        return true;
    }
    if (m_fd < 0) {
        *error = QStringLiteral("%1: not connected").arg(m_url);
        return false;
    }
    return writeAll(m_fd, bytes.data(), bytes.size(), m_url, true, error);
}

bool TelnetSource::write(const char *p, std::size_t n, QString *error)
{
    return sendRaw(m_codec.encode(p, n), error);
}

bool TelnetSource::sendBreak(int ms, QString *error)
{
    if (m_mode == Mode::Telnet) {
        return sendRaw(TelnetCodec::breakCommand(), error);
    }
    if (!sendRaw(TelnetCodec::setControl(kControlBreakOn), error)) {
        return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    return sendRaw(TelnetCodec::setControl(kControlBreakOff), error);
}

void TelnetSource::close()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
}

} // namespace tty
