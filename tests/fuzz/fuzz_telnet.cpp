// The telnet / RFC 2217 decoder of the network console sources (capture/telnetcodec.h) on
// whatever a console server, or something that only claims to be one, sends. Byte 0 picks
// the mode and the size of the pieces the rest arrives in. Checked: the console bytes do
// not depend on how the stream was cut, never outnumber the bytes received, and what the
// encoder sends decodes back to what was typed.
#include "telnetcodec.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {
std::string decodeInPieces(tty::TelnetCodec &c, const std::string &in, std::size_t piece,
                           std::string *output)
{
    std::string data;
    for (std::size_t i = 0; i < in.size(); i += piece) {
        c.decode(in.data() + i, std::min(piece, in.size() - i), &data);
        *output += c.takeOutput();
    }
    return data;
}

void check(bool ok)
{
    if (!ok) {
        std::abort();
    }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0) {
        return 0;
    }
    const auto mode =
        (data[0] & 1) ? tty::TelnetCodec::Mode::Rfc2217 : tty::TelnetCodec::Mode::Telnet;
    const bool asked = data[0] & 2;
    const std::size_t piece = std::size_t(data[0] >> 2) + 1;
    const std::string in(reinterpret_cast<const char *>(data + 1), size - 1);

    tty::TelnetCodec whole(mode), cut(mode);
    if (asked) {
        whole.start();
        cut.start();
    }
    std::string wholeOut, cutOut;
    const std::string a = decodeInPieces(whole, in, in.size() + 1, &wholeOut);
    const std::string b = decodeInPieces(cut, in, piece, &cutOut);
    check(a == b);
    check(wholeOut == cutOut);
    check(a.size() <= in.size());
    for (unsigned char cmd = 0; cmd < 13; ++cmd) {
        check(whole.comPortReplies(cmd) == cut.comPortReplies(cmd));
        check(whole.lastComPortReply(cmd) == cut.lastComPortReply(cmd));
    }

    // Typed bytes survive the wire, with and without BINARY.
    for (const bool binary : {false, true}) {
        tty::TelnetCodec tx(mode), rx(mode);
        if (binary) {
            tx.start();
            rx.start();
            std::string sink;
            const std::string doBinary{char(0xff), char(0xfd), char(0x00)};
            const std::string willBinary{char(0xff), char(0xfb), char(0x00)};
            tx.decode(doBinary.data(), doBinary.size(), &sink);
            rx.decode(willBinary.data(), willBinary.size(), &sink);
        }
        const std::string wire = tx.encode(in.data(), in.size());
        std::string back;
        rx.decode(wire.data(), wire.size(), &back);
        check(back == in);
        check(rx.protocolErrors() == 0);
    }
    return 0;
}
