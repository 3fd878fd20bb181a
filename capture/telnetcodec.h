// Telnet as a console client speaks it (RFC 854 NVT, RFC 855 options, RFC 856 BINARY, RFC 858
// SGA), with the RFC 2217 COM-PORT-OPTION on top: what a network console (ser2net's
// `telnet` and `telnet(rfc2217)` accepters, terminal servers) sends is split into the
// console's bytes, exactly as the serial line carried them, and the telnet protocol, which
// is answered and never reaches the recording. No I/O here: the byte source (live/) moves
// the bytes; this is the part that parses untrusted input (tests/fuzz/fuzz_telnet.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace tty {

namespace telnet {
// RFC 854 commands (the byte after IAC).
constexpr unsigned char kSe = 240, kNop = 241, kDm = 242, kBrk = 243, kSb = 250, kWill = 251,
                        kWont = 252, kDo = 253, kDont = 254, kIac = 255;
// Options.
constexpr unsigned char kBinary = 0, kEcho = 1, kSga = 3, kComPort = 44;
// RFC 2217 client-to-server commands; the server answers with the command plus 100.
constexpr unsigned char kSetBaudrate = 1, kSetDatasize = 2, kSetParity = 3, kSetStopsize = 4,
                        kSetControl = 5, kServerOffset = 100;
// SET-CONTROL values.
constexpr unsigned char kControlNoFlow = 1, kControlXonXoff = 2, kControlHardware = 3,
                        kControlBreakOn = 5, kControlBreakOff = 6;
} // namespace telnet

class TelnetCodec
{
public:
    enum class Mode {
        Telnet,  // a plain telnet console port: BINARY and SGA
        Rfc2217, // the same plus COM-PORT-OPTION (line settings, BREAK)
    };

    explicit TelnetCodec(Mode mode) : m_mode(mode) {}

    // The option requests a client opens with: BINARY and SGA both ways, and WILL
    // COM-PORT-OPTION for RFC 2217. Marks them as asked, so that the answers are not answered.
    std::string start();

    // Decodes received bytes: the console's bytes are appended to *data (IAC IAC becomes one
    // 0xFF; CR NUL becomes CR while the server does not send BINARY), commands and
    // negotiation are taken out and answered (see takeOutput()). Any split across calls is
    // fine: the state is kept.
    void decode(const char *p, std::size_t n, std::string *data);

    // Answers to the server's negotiation, to be sent now; empties the queue.
    std::string takeOutput();

    // Bytes typed to the console as they go on the wire: 0xFF doubled; while we do not
    // send BINARY, a CR not followed by LF becomes CR NUL (RFC 854).
    std::string encode(const char *p, std::size_t n) const;

    // IAC SB COM-PORT-OPTION <command> <value, 0xFF doubled> IAC SE.
    static std::string comPortCommand(unsigned char command, const std::string &value);
    static std::string setBaudrate(std::uint32_t baud);
    static std::string setControl(unsigned char value);
    // IAC BRK: the telnet BREAK (RFC 854), for servers without RFC 2217.
    static std::string breakCommand();

    // Option state: enabled for the server's side (it sends it) or for ours.
    bool remoteEnabled(unsigned char option) const { return m_options[option].him; }
    bool localEnabled(unsigned char option) const { return m_options[option].us; }
    // The server answered our request for this option of ours with DONT.
    bool localRefused(unsigned char option) const { return m_options[option].usRefused; }

    // RFC 2217 server answers, by the client command they answer (1..12): how many arrived
    // and the value of the last one (its bytes, unescaped). The value is bounded.
    int comPortReplies(unsigned char command) const;
    std::optional<std::string> lastComPortReply(unsigned char command) const;
    // FLOWCONTROL-SUSPEND / RESUME from the server: it asks the client to stop sending.
    bool suspended() const { return m_suspended; }

    // Protocol errors seen (a subnegotiation past kMaxSubnegotiation, IAC followed by a byte
    // that is no command): their bytes are kept as console data, never dropped.
    std::int64_t protocolErrors() const { return m_protocolErrors; }
    std::int64_t commandsSeen() const { return m_commands; }

    // Longer subnegotiations are not telnet: their bytes are given back as console data.
    static constexpr std::size_t kMaxSubnegotiation = 1024;

private:
    struct OptionState
    {
        bool us = false, him = false;         // enabled on our side / the server's
        bool wantUs = false, wantHim = false; // we asked (WILL / DO) and wait for the answer
        bool usRefused = false, himRefused = false;
    };
    enum class State { Data, Iac, Verb, Sub, SubIac };

    bool acceptLocal(unsigned char option) const;
    bool acceptRemote(unsigned char option) const;
    void negotiate(unsigned char verb, unsigned char option);
    void subnegotiation();
    void send3(unsigned char verb, unsigned char option);

    Mode m_mode;
    State m_state = State::Data;
    unsigned char m_verb = 0;
    bool m_afterCr = false; // NVT receive: the last data byte was CR (a NUL after it goes)
    std::string m_sub;      // option byte and payload of the subnegotiation being read
    std::string m_output;
    std::array<OptionState, 256> m_options{};
    struct Reply
    {
        int count = 0;
        std::string last;
    };
    std::array<Reply, 13> m_replies{};
    bool m_suspended = false;
    std::int64_t m_protocolErrors = 0;
    std::int64_t m_commands = 0;
};

} // namespace tty
