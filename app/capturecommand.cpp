// `ttyscope capture`: records a serial port, pseudo-terminal or network console and prints
// the console events as they are detected. Headless for now: the GUI live view comes later.
#include "commands.h"

#include "live/bytesource.h"
#include "live/capturesession.h"
#include "live/liverun.h"
#include "live/recordingwriter.h"
#include "livepump.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>

#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <ctime>

#include <pthread.h>

namespace tty {

namespace {

int listPortsCommand()
{
    QString error;
    const std::vector<PortInfo> ports = listPorts(&error);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "ttyscope capture: %s\n", qPrintable(error));
        return 1;
    }
    if (ports.empty()) {
        std::printf(
            "no serial ports found (pseudo-terminals such as /dev/pts/N and network consoles "
            "such as rfc2217://HOST:PORT can still be given to --port)\n");
    }
    for (const PortInfo &p : ports) {
        QString line = QStringLiteral("%1\t%2\t%3").arg(p.name, p.description, p.transport);
        if (p.usb) {
            line += QLatin1Char(' ') + p.usbIdText();
        }
        QStringList parts;
        for (const QString &s : {p.manufacturer, p.product, p.serial}) {
            if (!s.isEmpty()) {
                parts << s;
            }
        }
        const QString extra = parts.join(QLatin1Char(' '));
        if (!extra.isEmpty()) {
            line += QStringLiteral(" (%1)").arg(extra);
        }
        std::printf("%s\n", qPrintable(line));
    }
    return 0;
}

// Console text made safe for a terminal: control characters become '.'.
std::string printable(std::string_view s)
{
    std::string out(s.substr(0, 400));
    for (char &c : out) {
        if ((unsigned char)c < 0x20 || c == 0x7f) {
            c = c == '\t' ? ' ' : '.';
        }
    }
    return out;
}

void printEvent(const Run &run, const Event &e)
{
    const std::optional<HostNs> arrival = run.eventArrival(e);
    char stamp[32] = "-";
    if (arrival) {
        const std::int64_t t = arrival->count();
        const std::time_t sec = std::time_t(t / 1000000000);
        std::tm tm{};
        localtime_r(&sec, &tm);
        const std::size_t n = std::strftime(stamp, sizeof stamp, "%H:%M:%S", &tm);
        std::snprintf(stamp + n, sizeof stamp - n, ".%03d", int((t / 1000000) % 1000));
    }
    const LineText held = run.eventText(e);
    std::string text = printable(held.view());
    if (e.count > 0 && e.kind == EventKind::Drop) {
        text += e.count == kCountOutOfRange ? std::string(" [count out of range]")
                                            : " [" + std::to_string(e.count) + " dropped]";
    }
    std::printf("%s  %-12s  %s\n", stamp, eventKindName(e.kind), text.c_str());
    std::fflush(stdout);
}

QString defaultLabel(const QString &port)
{
    const int scheme = port.indexOf(QLatin1String("://"));
    if (scheme > 0) {
        // tcp://, telnet://, rfc2217://: HOST:PORT; udp://[HOST]:PORT: a netconsole.
        return (port.startsWith(QLatin1String("udp://")) ? QStringLiteral("netconsole ")
                                                         : QString()) +
               port.mid(scheme + 3);
    }
    return QFileInfo(port).fileName();
}

} // namespace

int runCapture(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Captures a serial console losslessly into a recording (docs/format.md) and prints "
        "console events (panics, oopses, drops, ...) as they are detected, one line each: "
        "time, kind, text (--headless), or shows the capture live in the window (the default: "
        "timelines, log, events and metrics update several times a second; type to the "
        "console, send BREAK + SysRq keys, drop markers with M). Headless, it stops on "
        "SIGINT/SIGTERM, finishing the recording. A port that disappears is retried every "
        "second; the recording keeps a gap record."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("capture"), QStringLiteral("The command."));
    const QCommandLineOption port(
        QStringLiteral("port"),
        QStringLiteral("Serial port (/dev/ttyUSB0), pseudo-terminal (/dev/pts/N) or network "
                       "console: rfc2217://HOST:PORT (telnet with RFC 2217, e.g. ser2net's "
                       "telnet(rfc2217): the line settings below and BREAK are sent to the "
                       "server), telnet://HOST:PORT (plain telnet console port) or "
                       "tcp://HOST:PORT (raw TCP, e.g. ser2net's tcp), or the kernel's "
                       "netconsole received on a local UDP port: udp://:PORT or udp://HOST:PORT "
                       "(the first board that sends there; no line rate). Over telnet and TCP the "
                       "settings below only describe the line for the recording, and a "
                       "pseudo-terminal sends at any rate: without --baud such a recording "
                       "states no rate."),
        QStringLiteral("PORT"));
    const QCommandLineOption baud(QStringLiteral("baud"),
                                  QStringLiteral("Baud rate (default 115200)."),
                                  QStringLiteral("RATE"), QStringLiteral("115200"));
    const QCommandLineOption dataBits(QStringLiteral("data-bits"),
                                      QStringLiteral("5 to 8 (default 8)."), QStringLiteral("N"),
                                      QStringLiteral("8"));
    const QCommandLineOption parity(
        QStringLiteral("parity"), QStringLiteral("none, odd, even, mark or space (default none)."),
        QStringLiteral("P"), QStringLiteral("none"));
    const QCommandLineOption stopBits(QStringLiteral("stop-bits"),
                                      QStringLiteral("1 or 2 (default 1)."), QStringLiteral("N"),
                                      QStringLiteral("1"));
    const QCommandLineOption flow(QStringLiteral("flow"),
                                  QStringLiteral("none, rtscts, xonxoff or dtrdsr (default none)."),
                                  QStringLiteral("F"), QStringLiteral("none"));
    const QCommandLineOption label(
        QStringLiteral("label"),
        QStringLiteral("Free text kept in the recording (default: the port name)."),
        QStringLiteral("TEXT"));
    const QCommandLineOption output(
        QStringLiteral("output"),
        QStringLiteral("Recording file, or a directory for the default name, or a template with "
                       "%Y %m %d %H %M %S and {label} (default: %1 in the current directory). An "
                       "existing file is never overwritten.")
            .arg(QLatin1String(RecordingWriter::kDefaultTemplate)),
        QStringLiteral("FILE"));
    const QCommandLineOption headless(QStringLiteral("headless"),
                                      QStringLiteral("Record and print events; needs no display."));
    const QCommandLineOption markOnStart(
        QStringLiteral("mark-on-start"),
        QStringLiteral("Put a marker with this text at the start."), QStringLiteral("TEXT"));
    const QCommandLineOption duration(QStringLiteral("duration"),
                                      QStringLiteral("Stop after this many seconds."),
                                      QStringLiteral("SECONDS"));
    const QCommandLineOption list(QStringLiteral("list"),
                                  QStringLiteral("List the serial ports libserialport finds, with "
                                                 "description and USB VID:PID, and exit."));
    p.addOptions({port, baud, dataBits, parity, stopBits, flow, label, output, headless,
                  markOnStart, duration, list});
    p.process(args);

    if (p.isSet(list)) {
        return listPortsCommand();
    }
    if (!p.isSet(port)) {
        std::fprintf(stderr, "ttyscope capture: --port is required (see --list and --help)\n");
        return 2;
    }
    CaptureOptions o;
    o.port = p.value(port);
    bool ok1 = false, ok2 = false, ok3 = false;
    o.settings.baud = p.value(baud).toInt(&ok1);
    o.baudGiven = p.isSet(baud);
    o.settings.dataBits = p.value(dataBits).toInt(&ok2);
    o.settings.stopBits = p.value(stopBits).toInt(&ok3);
    if (!ok1 || !ok2 || !ok3 || !parityFromName(p.value(parity), &o.settings.parity) ||
        !flowFromName(p.value(flow), &o.settings.flow)) {
        std::fprintf(stderr, "ttyscope capture: bad serial settings (see --help)\n");
        return 2;
    }
    QString error;
    if (!checkSettings(o.settings, &error)) {
        std::fprintf(stderr, "ttyscope capture: %s\n", qPrintable(error));
        return 2;
    }
    const bool serialLine = makeSource(o.port, o.settings)->carriesSerialLine();
    if (o.baudGiven && !serialLine) {
        std::fprintf(stderr,
                     "ttyscope capture: %s is a netconsole: no serial line, no baud "
                     "rate (its wire figures are n/a); leave --baud out\n",
                     qPrintable(o.port));
        return 2;
    }
    double seconds = -1;
    if (p.isSet(duration)) {
        bool ok = false;
        seconds = p.value(duration).toDouble(&ok);
        if (!ok || seconds <= 0) {
            std::fprintf(stderr, "ttyscope capture: --duration needs a positive number\n");
            return 2;
        }
    }
    o.label = p.isSet(label) ? p.value(label) : defaultLabel(o.port);
    QString out = p.value(output);
    if (out.isEmpty() || QFileInfo(out).isDir()) {
        out = QDir(out.isEmpty() ? QStringLiteral(".") : out)
                  .filePath(QLatin1String(RecordingWriter::kDefaultTemplate));
    }
    o.output = RecordingWriter::expandTemplate(out, o.label, QDateTime::currentDateTime());

    if (!p.isSet(headless)) {
        return runCaptureGui(o, p.value(markOnStart));
    }

    // SIGINT/SIGTERM are taken synchronously with sigtimedwait: blocked here, before the
    // threads start, so that every thread inherits the mask. A failed write past a file size
    // limit returns EFBIG (kept in memory, retried) instead of killing the process.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    sigaddset(&stopSignals, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    std::signal(SIGXFSZ, SIG_IGN);

    CaptureSession session(o);
    if (!session.start(&error)) {
        std::fprintf(stderr, "ttyscope capture: %s\n", qPrintable(error));
        return 1;
    }
    // A source whose rate paces nothing, without --baud: the recording states no rate.
    const CaptureSession::Status started = session.status();
    const QString line = started.recordedBaud > 0 ? settingsSummary(o.settings)
                         : !serialLine
                             ? QStringLiteral("no serial line")
                             : QStringLiteral("rate not stated (give --baud), ") +
                                   settingsSummary(o.settings).section(QLatin1Char(' '), 1);
    std::fprintf(stderr, "ttyscope capture: recording %s (%s, %s) to %s; Ctrl-C stops\n",
                 qPrintable(o.port), qPrintable(started.sourceKind), qPrintable(line),
                 qPrintable(o.output));
    if (p.isSet(markOnStart)) {
        session.addMarker(p.value(markOnStart));
    }

    LiveRun live;
    LivePump pump(session, live, LivePump::Mode::EventsOnly);
    auto print = [&](const LivePump::Turn &t) {
        for (std::size_t e = t.eventsFrom; e < t.eventsTo; ++e) {
            printEvent(live.run(), live.run().events[e]);
        }
    };
    QString lastMessage, lastWriteError;
    const std::int64_t startMono = monoNowNs();
    int signal = 0;
    for (;;) {
        timespec wait{0, LivePump::kHeadlessIntervalMs * 1000 * 1000};
        signal = sigtimedwait(&stopSignals, nullptr, &wait);
        print(pump.turn(monoNowNs()));
        const CaptureSession::Status st = session.status();
        if (st.recording.error != lastWriteError) {
            lastWriteError = st.recording.error;
            std::fprintf(stderr, "ttyscope capture: %s\n",
                         lastWriteError.isEmpty() ? "writing the recording works again"
                                                  : qPrintable(lastWriteError));
        }
        if (st.state == CaptureSession::State::Disconnected && st.message != lastMessage) {
            std::fprintf(stderr, "ttyscope capture: %s\n", qPrintable(st.message));
        }
        lastMessage = st.message;
        if (signal > 0 || (seconds > 0 && double(monoNowNs() - startMono) * 1e-9 >= seconds)) {
            break;
        }
    }
    QString stopError;
    const bool stopped = session.stop(&stopError);
    print(pump.finish());
    const CaptureSession::Status st = session.status();
    std::printf("ttyscope capture: %s after %.1f s: %" PRId64 " bytes, %" PRId64
                " lines, %zu events, %d gap(s); recording %s (%" PRId64 " bytes)\n",
                signal > 0 ? "stopped by signal" : "stopped",
                double(monoNowNs() - startMono) * 1e-9, st.bytesIn, live.run().lines.size().count(),
                live.run().events.size(), st.gaps, qPrintable(o.output), st.recording.fileBytes);
    if (!stopped) {
        std::fprintf(stderr, "ttyscope capture: %s\n", qPrintable(stopError));
        return 1;
    }
    if (st.recording.lostBytes > 0) {
        std::fprintf(stderr, "ttyscope capture: %" PRId64 " bytes could not be recorded\n",
                     st.recording.lostBytes);
        return 1;
    }
    return 0;
}

} // namespace tty
