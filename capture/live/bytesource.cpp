#include "bytesource.h"

#include "sources.h"
#include "telnetsource.h"

#include <libserialport.h>

namespace tty {

namespace {
const char *const kParityNames[] = {"none", "odd", "even", "mark", "space"};
const char *const kFlowNames[] = {"none", "rtscts", "xonxoff", "dtrdsr"};
} // namespace

const char *parityName(Parity p)
{
    return kParityNames[int(p)];
}
const char *flowName(FlowControl f)
{
    return kFlowNames[int(f)];
}

bool parityFromName(const QString &name, Parity *out)
{
    const QString n = name.toLower();
    for (int i = 0; i < 5; ++i) {
        if (n == QLatin1String(kParityNames[i]) || n == QChar::fromLatin1(kParityNames[i][0])) {
            *out = Parity(i);
            return true;
        }
    }
    return false;
}

bool flowFromName(const QString &name, FlowControl *out)
{
    QString n = name.toLower();
    n.remove(QLatin1Char('/'));
    n.remove(QLatin1Char('-'));
    for (int i = 0; i < 4; ++i) {
        if (n == QLatin1String(kFlowNames[i])) {
            *out = FlowControl(i);
            return true;
        }
    }
    if (n == QLatin1String("hardware") || n == QLatin1String("rts")) {
        *out = FlowControl::RtsCts;
        return true;
    }
    if (n == QLatin1String("software") || n == QLatin1String("xon")) {
        *out = FlowControl::XonXoff;
        return true;
    }
    return false;
}

QString settingsSummary(const SerialSettings &s)
{
    QString r = QStringLiteral("%1 %2%3%4")
                    .arg(s.baud)
                    .arg(s.dataBits)
                    .arg(QChar::fromLatin1(char(parityName(s.parity)[0] - 'a' + 'A')))
                    .arg(s.stopBits);
    if (s.flow != FlowControl::None) {
        r += QLatin1Char(' ') + QLatin1String(flowName(s.flow));
    }
    return r;
}

bool checkSettings(const SerialSettings &s, QString *error)
{
    if (s.baud <= 0 || s.baud > 20000000) {
        *error = QStringLiteral("unsupported settings: %1 baud is not a usable rate").arg(s.baud);
        return false;
    }
    if (s.dataBits < 5 || s.dataBits > 8) {
        *error = QStringLiteral("unsupported settings: %1 data bits (5 to 8 are possible)")
                     .arg(s.dataBits);
        return false;
    }
    if (s.stopBits != 1 && s.stopBits != 2) {
        *error = QStringLiteral("unsupported settings: %1 stop bits (1 or 2 are possible)")
                     .arg(s.stopBits);
        return false;
    }
    return true;
}

std::unique_ptr<ByteSource> makeSource(const QString &path, const SerialSettings &settings)
{
    if (path.startsWith(QLatin1String("tcp://"))) {
        return std::make_unique<TcpSource>(path);
    }
    if (path.startsWith(QLatin1String("udp://"))) {
        return std::make_unique<UdpSource>(path);
    }
    if (path.startsWith(QLatin1String("rfc2217://"))) {
        return std::make_unique<TelnetSource>(path, TelnetSource::Mode::Rfc2217, settings);
    }
    if (path.startsWith(QLatin1String("telnet://"))) {
        return std::make_unique<TelnetSource>(path, TelnetSource::Mode::Telnet, settings);
    }
    if (path.startsWith(QLatin1String("/dev/pts/"))) {
        return std::make_unique<PtySource>(path, settings);
    }
    // SerialSource falls back to termios itself for ttys libserialport refuses, at every
    // (re)open, since a port that vanished may come back as something else.
    return std::make_unique<SerialSource>(path, settings);
}

QString PortInfo::usbIdText() const
{
    return usb ? QStringLiteral("%1:%2")
                     .arg(usb->vendor, 4, 16, QLatin1Char('0'))
                     .arg(usb->product, 4, 16, QLatin1Char('0'))
               : QString();
}

std::vector<PortInfo> listPorts(QString *error)
{
    std::vector<PortInfo> out;
    sp_port **ports = nullptr;
    if (sp_list_ports(&ports) != SP_OK) {
        char *m = sp_last_error_message();
        *error = QStringLiteral("cannot list serial ports: %1")
                     .arg(QString::fromLocal8Bit(m ? m : "unknown error"));
        sp_free_error_message(m);
        return out;
    }
    const auto str = [](const char *s) { return s ? QString::fromLocal8Bit(s) : QString(); };
    for (sp_port **p = ports; *p; ++p) {
        PortInfo i;
        i.name = str(sp_get_port_name(*p));
        i.description = str(sp_get_port_description(*p));
        switch (sp_get_port_transport(*p)) {
        case SP_TRANSPORT_USB: {
            i.transport = QStringLiteral("usb");
            int vid = -1, pid = -1;
            if (sp_get_port_usb_vid_pid(*p, &vid, &pid) == SP_OK) {
                i.usb = PortInfo::UsbId{vid, pid};
            }
            i.manufacturer = str(sp_get_port_usb_manufacturer(*p));
            i.product = str(sp_get_port_usb_product(*p));
            i.serial = str(sp_get_port_usb_serial(*p));
            break;
        }
        case SP_TRANSPORT_BLUETOOTH:
            i.transport = QStringLiteral("bluetooth");
            break;
        default:
            i.transport = QStringLiteral("native");
            break;
        }
        out.push_back(std::move(i));
    }
    sp_free_port_list(ports);
    return out;
}

} // namespace tty
