// The telnet / RFC 2217 codec on exact bytes: ser2net 4.3.11's own greeting (recorded from
// the real server, tests/live/tst_live_rfc2217 talks to it), IAC unescaping at every split,
// NVT CR NUL, the COM-PORT answers, and what is sent.
#include "telnetcodec.h"

#include <QtTest>

using namespace tty;

namespace {
std::string bytes(std::initializer_list<int> b)
{
    std::string s;
    for (const int c : b) {
        s.push_back(char(c));
    }
    return s;
}

// ser2net 4.3.11 (gensio 2.6.2), `accepter: telnet(rfc2217),tcp,...`, first bytes it sends:
// WILL SGA, DO SGA, WILL ECHO, DONT ECHO, DO BINARY, WILL BINARY, DO COM-PORT-OPTION.
const std::string kSer2netGreeting =
    bytes({0xff, 0xfb, 0x03, 0xff, 0xfd, 0x03, 0xff, 0xfb, 0x01, 0xff, 0xfe,
           0x01, 0xff, 0xfd, 0x00, 0xff, 0xfb, 0x00, 0xff, 0xfd, 0x2c});

std::string decodeAll(TelnetCodec &c, const std::string &in)
{
    std::string data;
    c.decode(in.data(), in.size(), &data);
    return data;
}
} // namespace

class TestTelnetCodec : public QObject
{
    Q_OBJECT

private slots:
    void startAsksBinarySgaAndComPort()
    {
        TelnetCodec rfc(TelnetCodec::Mode::Rfc2217);
        QCOMPARE(rfc.start(), bytes({0xff, 0xfd, 0x00, 0xff, 0xfb, 0x00, 0xff, 0xfd, 0x03, 0xff,
                                     0xfb, 0x03, 0xff, 0xfb, 0x2c}));
        TelnetCodec plain(TelnetCodec::Mode::Telnet);
        QCOMPARE(plain.start(),
                 bytes({0xff, 0xfd, 0x00, 0xff, 0xfb, 0x00, 0xff, 0xfd, 0x03, 0xff, 0xfb, 0x03}));
    }

    void ser2netGreetingAfterOurRequests()
    {
        TelnetCodec c(TelnetCodec::Mode::Rfc2217);
        c.start();
        QCOMPARE(decodeAll(c, kSer2netGreeting), std::string());
        // Everything was an answer to our requests except WILL ECHO, which is accepted.
        QCOMPARE(c.takeOutput(), bytes({0xff, 0xfd, 0x01}));
        QVERIFY(c.localEnabled(telnet::kComPort));
        QVERIFY(c.localEnabled(telnet::kBinary));
        QVERIFY(c.remoteEnabled(telnet::kBinary));
        QVERIFY(c.remoteEnabled(telnet::kSga));
        QVERIFY(c.remoteEnabled(telnet::kEcho));
        QVERIFY(!c.localEnabled(telnet::kEcho));
        QCOMPARE(c.commandsSeen(), std::int64_t(7));
        // The same requests again change nothing and are not answered (no loop).
        QCOMPARE(decodeAll(c, kSer2netGreeting), std::string());
        QCOMPARE(c.takeOutput(), std::string());
    }

    void unaskedRequestsAnswered()
    {
        // A plain telnet client that asked nothing: each request gets its one answer, and
        // COM-PORT-OPTION is refused outside RFC 2217 mode.
        TelnetCodec c(TelnetCodec::Mode::Telnet);
        QCOMPARE(decodeAll(c, kSer2netGreeting), std::string());
        QCOMPARE(c.takeOutput(), bytes({0xff, 0xfd, 0x03, 0xff, 0xfb, 0x03, 0xff, 0xfd, 0x01, 0xff,
                                        0xfb, 0x00, 0xff, 0xfd, 0x00, 0xff, 0xfc, 0x2c}));
        QVERIFY(!c.localEnabled(telnet::kComPort));
        // Options nobody agreed to: refused; TERMINAL-TYPE (24) and NAWS (31).
        decodeAll(c, bytes({0xff, 0xfd, 24, 0xff, 0xfb, 31}));
        QCOMPARE(c.takeOutput(), bytes({0xff, 0xfc, 24, 0xff, 0xfe, 31}));
        // Switching an enabled option off is acknowledged once.
        decodeAll(c, bytes({0xff, 0xfc, 0x00, 0xff, 0xfc, 0x00}));
        QCOMPARE(c.takeOutput(), bytes({0xff, 0xfe, 0x00}));
        QVERIFY(!c.remoteEnabled(telnet::kBinary));
    }

    void comPortRefused()
    {
        TelnetCodec c(TelnetCodec::Mode::Rfc2217);
        c.start();
        decodeAll(c, bytes({0xff, 0xfe, 0x2c}));
        QVERIFY(c.localRefused(telnet::kComPort));
        QVERIFY(!c.localEnabled(telnet::kComPort));
        QCOMPARE(c.takeOutput(), std::string());
    }

    void iacUnescapedAtEverySplit()
    {
        // Data, an escaped 0xFF, a COM-PORT answer whose value holds an escaped 0xFF, NOP,
        // IAC IAC at the end: every way of cutting it in two gives the same bytes.
        const std::string wire =
            "ab" + bytes({0xff, 0xff}) + "c" +
            bytes({0xff, 0xfa, 0x2c, 0x65, 0x00, 0x01, 0xff, 0xff, 0x00, 0xff, 0xf0}) + "\r" +
            bytes({0x00, 0xff, 0xf1}) + "d" + bytes({0xff, 0xff, 0xff, 0xff});
        const std::string console =
            "ab" + bytes({0xff}) + "c\r" + bytes({0x00}) + "d" + bytes({0xff, 0xff});
        for (std::size_t cut = 0; cut <= wire.size(); ++cut) {
            TelnetCodec c(TelnetCodec::Mode::Rfc2217);
            c.start();
            decodeAll(c, kSer2netGreeting); // BINARY from the server: CR NUL stays as it is
            std::string data = decodeAll(c, wire.substr(0, cut));
            data += decodeAll(c, wire.substr(cut));
            QCOMPARE(data, console);
            QCOMPARE(c.comPortReplies(telnet::kSetBaudrate), 1);
            QCOMPARE(*c.lastComPortReply(telnet::kSetBaudrate), bytes({0x00, 0x01, 0xff, 0x00}));
        }
        // And one byte at a time.
        TelnetCodec c(TelnetCodec::Mode::Rfc2217);
        c.start();
        decodeAll(c, kSer2netGreeting);
        std::string data;
        for (const char b : wire) {
            data += decodeAll(c, std::string(1, b));
        }
        QCOMPARE(data, console);
        QCOMPARE(c.protocolErrors(), std::int64_t(0));
    }

    void nvtCrNulIsBareCr()
    {
        // Without BINARY from the server, RFC 854 sends a bare CR as CR NUL.
        TelnetCodec c(TelnetCodec::Mode::Telnet);
        const std::string wire = "x\r" + bytes({0x00}) + "y\r\nz" + bytes({0x00});
        for (std::size_t cut = 0; cut <= wire.size(); ++cut) {
            TelnetCodec d(TelnetCodec::Mode::Telnet);
            std::string data = decodeAll(d, wire.substr(0, cut));
            data += decodeAll(d, wire.substr(cut));
            QCOMPARE(data, "x\ry\r\nz" + bytes({0x00}));
        }
    }

    void comPortAnswersCounted()
    {
        TelnetCodec c(TelnetCodec::Mode::Rfc2217);
        c.start();
        // ser2net's answers to SET-BAUDRATE 9600 and SET-CONTROL BREAK ON, NOTIFY-MODEMSTATE.
        decodeAll(c,
                  bytes({0xff, 0xfa, 0x2c, 0x65, 0x00, 0x00, 0x25, 0x80, 0xff, 0xf0, 0xff, 0xfa,
                         0x2c, 0x69, 0x05, 0xff, 0xf0, 0xff, 0xfa, 0x2c, 0x6b, 0x00, 0xff, 0xf0}));
        QCOMPARE(*c.lastComPortReply(telnet::kSetBaudrate), bytes({0x00, 0x00, 0x25, 0x80}));
        QCOMPARE(*c.lastComPortReply(telnet::kSetControl), bytes({0x05}));
        QCOMPARE(c.comPortReplies(7), 1);
        QCOMPARE(c.comPortReplies(telnet::kSetParity), 0);
        QVERIFY(!c.lastComPortReply(telnet::kSetParity));
        // FLOWCONTROL-SUSPEND and RESUME.
        decodeAll(c, bytes({0xff, 0xfa, 0x2c, 108, 0xff, 0xf0}));
        QVERIFY(c.suspended());
        decodeAll(c, bytes({0xff, 0xfa, 0x2c, 109, 0xff, 0xf0}));
        QVERIFY(!c.suspended());
    }

    void notTelnetKeptAsData()
    {
        TelnetCodec c(TelnetCodec::Mode::Telnet);
        // IAC before a byte that is no command: both bytes are console data.
        QCOMPARE(decodeAll(c, bytes({'a', 0xff, 'A', 'b'})), bytes({'a', 0xff, 'A', 'b'}));
        QCOMPARE(c.protocolErrors(), std::int64_t(1));
        // A subnegotiation that never ends: past the limit, everything is data again.
        std::string endless = bytes({0xff, 0xfa});
        endless += std::string(2000, 'x');
        const std::string data = decodeAll(c, endless);
        QCOMPARE(data, endless);
        QCOMPARE(c.protocolErrors(), std::int64_t(2));
        // IAC <command> inside a subnegotiation ends it; the command is taken as one.
        TelnetCodec r(TelnetCodec::Mode::Rfc2217);
        r.start();
        QCOMPARE(decodeAll(r, bytes({0xff, 0xfa, 0x2c, 0x66, 0x08, 0xff, 0xf1, 'k'})),
                 std::string("k"));
        QCOMPARE(*r.lastComPortReply(telnet::kSetDatasize), bytes({0x08}));
    }

    void encodeEscapes()
    {
        TelnetCodec nvt(TelnetCodec::Mode::Telnet);
        const std::string typed = "a\rb\r\n" + bytes({0xff}) + "\r";
        QCOMPARE(nvt.encode(typed.data(), typed.size()),
                 "a\r" + bytes({0x00}) + "b\r\n" + bytes({0xff, 0xff}) + "\r" + bytes({0x00}));
        TelnetCodec bin(TelnetCodec::Mode::Telnet);
        bin.start();
        decodeAll(bin, bytes({0xff, 0xfd, 0x00}));
        QCOMPARE(bin.encode(typed.data(), typed.size()), "a\rb\r\n" + bytes({0xff, 0xff}) + "\r");
    }

    void comPortCommands()
    {
        QCOMPARE(TelnetCodec::setBaudrate(115200),
                 bytes({0xff, 0xfa, 0x2c, 0x01, 0x00, 0x01, 0xc2, 0x00, 0xff, 0xf0}));
        // A value byte 0xFF is doubled inside the subnegotiation.
        QCOMPARE(TelnetCodec::setBaudrate(0x00ff00ffu),
                 bytes({0xff, 0xfa, 0x2c, 0x01, 0x00, 0xff, 0xff, 0x00, 0xff, 0xff, 0xff, 0xf0}));
        QCOMPARE(TelnetCodec::setControl(telnet::kControlBreakOn),
                 bytes({0xff, 0xfa, 0x2c, 0x05, 0x05, 0xff, 0xf0}));
        QCOMPARE(TelnetCodec::breakCommand(), bytes({0xff, 0xf3}));
    }
};

QTEST_GUILESS_MAIN(TestTelnetCodec)
#include "tst_telnetcodec.moc"
