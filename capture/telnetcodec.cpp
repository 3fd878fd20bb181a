#include "telnetcodec.h"

#include <cstring>

namespace tty {

using namespace telnet;

namespace {
constexpr std::size_t kMaxReplyValue = 64;
} // namespace

bool TelnetCodec::acceptLocal(unsigned char option) const
{
    return option == kBinary || option == kSga || (option == kComPort && m_mode == Mode::Rfc2217);
}

bool TelnetCodec::acceptRemote(unsigned char option) const
{
    // The server echoing is what a console does anyway (the board echoes); we never echo.
    return option == kBinary || option == kSga || option == kEcho;
}

void TelnetCodec::send3(unsigned char verb, unsigned char option)
{
    m_output.push_back(char(kIac));
    m_output.push_back(char(verb));
    m_output.push_back(char(option));
}

std::string TelnetCodec::start()
{
    for (const unsigned char opt : {kBinary, kSga}) {
        OptionState &o = m_options[opt];
        if (!o.him && !o.wantHim) {
            o.wantHim = true;
            send3(kDo, opt);
        }
        if (!o.us && !o.wantUs) {
            o.wantUs = true;
            send3(kWill, opt);
        }
    }
    if (m_mode == Mode::Rfc2217) {
        OptionState &o = m_options[kComPort];
        if (!o.us && !o.wantUs) {
            o.wantUs = true;
            send3(kWill, kComPort);
        }
    }
    return takeOutput();
}

// RFC 854's rule against loops: a request for the state an option is already in is not
// answered, and the answer to our own request is not answered back.
void TelnetCodec::negotiate(unsigned char verb, unsigned char option)
{
    OptionState &o = m_options[option];
    switch (verb) {
    case kWill:
        if (o.him || o.wantHim) {
            o.him = true;
            o.wantHim = false;
        } else if (acceptRemote(option)) {
            o.him = true;
            send3(kDo, option);
        } else {
            send3(kDont, option);
        }
        break;
    case kWont:
        if (o.him) {
            o.him = false;
            send3(kDont, option);
        } else if (o.wantHim) {
            o.wantHim = false;
            o.himRefused = true;
        }
        break;
    case kDo:
        if (o.us || o.wantUs) {
            o.us = true;
            o.wantUs = false;
        } else if (acceptLocal(option)) {
            o.us = true;
            send3(kWill, option);
        } else {
            send3(kWont, option);
        }
        break;
    case kDont:
        if (o.us) {
            o.us = false;
            send3(kWont, option);
        } else if (o.wantUs) {
            o.wantUs = false;
            o.usRefused = true;
        }
        break;
    default:
        break;
    }
}

void TelnetCodec::subnegotiation()
{
    ++m_commands;
    if (m_mode != Mode::Rfc2217 || m_sub.size() < 2 || (unsigned char)m_sub[0] != kComPort) {
        return; // nothing else was agreed to, so nothing else needs an answer
    }
    const unsigned char command = (unsigned char)m_sub[1];
    if (command < kServerOffset || command >= kServerOffset + m_replies.size()) {
        return;
    }
    Reply &r = m_replies[command - kServerOffset];
    ++r.count;
    r.last = m_sub.substr(2, kMaxReplyValue);
    if (command == kServerOffset + 8) { // FLOWCONTROL-SUSPEND
        m_suspended = true;
    } else if (command == kServerOffset + 9) { // FLOWCONTROL-RESUME
        m_suspended = false;
    }
}

void TelnetCodec::decode(const char *p, std::size_t n, std::string *data)
{
    const auto *u = reinterpret_cast<const unsigned char *>(p);
    std::size_t i = 0;
    while (i < n) {
        switch (m_state) {
        case State::Data: {
            if (m_options[kBinary].him) {
                // The bulk of a console: copy the run up to the next IAC at once.
                const void *ff = std::memchr(u + i, kIac, n - i);
                const std::size_t end =
                    ff ? std::size_t(static_cast<const unsigned char *>(ff) - u) : n;
                data->append(p + i, end - i);
                m_afterCr = false;
                i = end;
                if (i < n) {
                    m_state = State::Iac;
                    ++i;
                }
                break;
            }
            const unsigned char c = u[i++];
            if (c == kIac) {
                m_state = State::Iac;
            } else if (c == 0 && m_afterCr) {
                m_afterCr = false; // NVT: CR NUL is a bare CR
            } else {
                data->push_back(char(c));
                m_afterCr = c == '\r';
            }
            break;
        }
        case State::Iac: {
            const unsigned char c = u[i++];
            if (c == kIac) {
                data->push_back(char(kIac));
                m_afterCr = false;
                m_state = State::Data;
            } else if (c >= kWill) {
                m_verb = c;
                m_state = State::Verb;
            } else if (c == kSb) {
                m_sub.clear();
                m_state = State::Sub;
            } else if (c >= 236) {
                // EOF, SUSP, ABORT, EOR, SE, NOP, DM, BRK, IP, AO, AYT, EC, EL, GA: nothing a
                // console client acts on; they are not console bytes either.
                ++m_commands;
                m_state = State::Data;
            } else {
                // Not telnet: keep both bytes.
                ++m_protocolErrors;
                data->push_back(char(kIac));
                data->push_back(char(c));
                m_state = State::Data;
            }
            break;
        }
        case State::Verb:
            ++m_commands;
            negotiate(m_verb, u[i++]);
            m_state = State::Data;
            break;
        case State::Sub: {
            const unsigned char c = u[i++];
            if (c == kIac) {
                m_state = State::SubIac;
                break;
            }
            m_sub.push_back(char(c));
            if (m_sub.size() > kMaxSubnegotiation) {
                ++m_protocolErrors;
                data->push_back(char(kIac));
                data->push_back(char(kSb));
                data->append(m_sub);
                m_sub.clear();
                m_state = State::Data;
            }
            break;
        }
        case State::SubIac: {
            const unsigned char c = u[i];
            if (c == kIac) {
                m_sub.push_back(char(kIac));
                m_state = State::Sub;
                ++i;
            } else if (c == kSe) {
                subnegotiation();
                m_state = State::Data;
                ++i;
            } else {
                // IAC <command> inside a subnegotiation ends it (RFC 855 leaves this open):
                // take what came, then read the command as if after any IAC.
                ++m_protocolErrors;
                subnegotiation();
                m_state = State::Iac;
            }
            break;
        }
        }
    }
}

std::string TelnetCodec::takeOutput()
{
    std::string out;
    out.swap(m_output);
    return out;
}

std::string TelnetCodec::encode(const char *p, std::size_t n) const
{
    const bool nvt = !m_options[kBinary].us;
    std::string out;
    out.reserve(n + 8);
    for (std::size_t i = 0; i < n; ++i) {
        const char c = p[i];
        out.push_back(c);
        if ((unsigned char)c == kIac) {
            out.push_back(c);
        } else if (nvt && c == '\r' && (i + 1 == n || p[i + 1] != '\n')) {
            out.push_back('\0');
        }
    }
    return out;
}

std::string TelnetCodec::comPortCommand(unsigned char command, const std::string &value)
{
    std::string out{char(kIac), char(kSb), char(kComPort), char(command)};
    for (const char c : value) {
        out.push_back(c);
        if ((unsigned char)c == kIac) {
            out.push_back(c);
        }
    }
    out.push_back(char(kIac));
    out.push_back(char(kSe));
    return out;
}

std::string TelnetCodec::setBaudrate(std::uint32_t baud)
{
    const std::string v{char(baud >> 24), char(baud >> 16), char(baud >> 8), char(baud)};
    return comPortCommand(kSetBaudrate, v);
}

std::string TelnetCodec::setControl(unsigned char value)
{
    return comPortCommand(kSetControl, std::string(1, char(value)));
}

std::string TelnetCodec::breakCommand()
{
    return std::string{char(kIac), char(kBrk)};
}

int TelnetCodec::comPortReplies(unsigned char command) const
{
    return command < m_replies.size() ? m_replies[command].count : 0;
}

std::optional<std::string> TelnetCodec::lastComPortReply(unsigned char command) const
{
    if (command >= m_replies.size() || m_replies[command].count == 0) {
        return std::nullopt;
    }
    return m_replies[command].last;
}

} // namespace tty
