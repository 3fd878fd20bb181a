// Where live console bytes come from: a serial port (libserialport), a pseudo-terminal or
// other tty libserialport refuses (POSIX termios), a network console (raw TCP, telnet,
// telnet with RFC 2217: ser2net and other console servers), or the kernel's netconsole (UDP).
// One interface for all of them, used by the capture session's reader thread.
#pragma once

#include <QString>

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

namespace tty {

enum class Parity { None, Odd, Even, Mark, Space };
enum class FlowControl { None, RtsCts, XonXoff, DtrDsr };

struct SerialSettings
{
    int baud = 115200;
    int dataBits = 8;
    Parity parity = Parity::None;
    int stopBits = 1;
    FlowControl flow = FlowControl::None;
};

// Names as used on the command line and in recording headers.
const char *parityName(Parity p);    // none, odd, even, mark, space
const char *flowName(FlowControl f); // none, rtscts, xonxoff, dtrdsr
bool parityFromName(const QString &name, Parity *out);
bool flowFromName(const QString &name, FlowControl *out);
// "115200 8N1" style summary, with the flow control when there is one.
QString settingsSummary(const SerialSettings &s);

class ByteSource
{
public:
    enum class ReadStatus {
        Data,    // n bytes were read
        Timeout, // nothing arrived within the timeout
        HangUp,  // the device vanished or the peer closed: reopen later
        Error,   // a read error (error() says which); treated like a hang-up
    };
    struct ReadResult
    {
        ReadStatus status;
        std::size_t n;
    };

    virtual ~ByteSource() = default;

    // Opens and configures the source; false with a message meant for the user in *error.
    virtual bool open(QString *error) = 0;
    virtual bool isOpen() const = 0;
    // Waits up to timeoutMs for bytes; returns as soon as any are there.
    virtual ReadResult read(char *buf, std::size_t cap, int timeoutMs) = 0;
    // Writes all bytes (blocking briefly); false with a message in *error.
    virtual bool write(const char *p, std::size_t n, QString *error) = 0;
    // A serial BREAK of about `ms` milliseconds (magic SysRq over serial).
    virtual bool sendBreak(int ms, QString *error) = 0;
    virtual void close() = 0;

    // Why the last read returned HangUp or Error.
    virtual QString error() const = 0;
    // The path or URL as given (/dev/ttyUSB0, tcp://host:port).
    virtual QString name() const = 0;
    // What is used to talk to it: "serial (libserialport)", "tty (termios)", "tcp", "telnet",
    // "telnet, RFC 2217".
    virtual QString kind() const = 0;
    // Whether the baud rate of the settings paces the bytes: a serial port's, and the port
    // behind an RFC 2217 server. A pseudo-terminal takes a rate and sends at memory speed
    // (QEMU's -serial pty), and a TCP or telnet console's rate is the server's business.
    virtual bool setsLineRate() const = 0;
    // Whether the bytes crossed a serial line at all, whose rate --baud can state: not a
    // netconsole's (UDP from the kernel's network stack).
    virtual bool carriesSerialLine() const { return true; }
};

// Picks the source for a path: tcp://, telnet:// and rfc2217://HOST:PORT are network
// consoles, udp://[HOST]:PORT the kernel's netconsole, /dev/pts/* and ttys libserialport refuses
// (no sysfs entry, no modem lines) use termios, the rest libserialport.
std::unique_ptr<ByteSource> makeSource(const QString &path, const SerialSettings &settings);

// Validates settings independently of a device: false with a message naming the bad one.
bool checkSettings(const SerialSettings &s, QString *error);

struct PortInfo
{
    QString name;        // /dev/ttyUSB0
    QString description; // from libserialport ("FT232R USB UART", "ttyS0")
    QString transport;   // native, usb, bluetooth
    struct UsbId
    {
        int vendor = 0;
        int product = 0;
    };
    std::optional<UsbId> usb; // a USB adapter's vendor:product, when libserialport reads it
    QString manufacturer;
    QString product;
    QString serial;

    // "0403:6001", or empty without a USB id.
    QString usbIdText() const;
};

// The serial ports libserialport finds (sp_list_ports); an empty list with *error on failure.
std::vector<PortInfo> listPorts(QString *error);

} // namespace tty
