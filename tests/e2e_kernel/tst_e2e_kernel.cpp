// Issue 5, item 9: a real kernel, end to end. Debian's kernel boots under
// `qemu-system-x86_64 -serial pty` without a root file system and panics; the real ttyscope
// binary captures the console through its serial (pty/termios) source, and `ttyscope report`
// on the recording must find the boot banner and a complete panic trace.
//
// QEMU discards pty output while nobody holds the other end, so it starts paused (-S) and
// gets `cont` on its monitor socket once the capture has the pty open. `panic=0`: with a
// panic timeout 6.1 restarts before printing the `---[ end Kernel panic` line.
//
// Exit status 77 (ctest SKIP_RETURN_CODE) only when qemu-system-x86_64 is missing or the
// kernel cannot be fetched (fetch-kernel.sh exit 77 or a download that does not finish);
// everything else that goes wrong is a failure.
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUdpSocket>
#include <QtTest>

namespace {

bool g_skipped = false;

// Skips the test and makes the process exit with 77, which ctest reports as skipped.
#define SKIP_UNAVAILABLE(msg)                                                                      \
    do {                                                                                           \
        g_skipped = true;                                                                          \
        QSKIP(qPrintable(QStringLiteral("e2e_kernel_panic SKIPPED: ") + (msg)));                   \
    } while (0)

constexpr int kFetchTimeoutMs = 150'000; // download (~70 MB) and unpack
constexpr int kPanicTimeoutMs = 120'000; // `cont` to the end marker (~10 s seen with TCG)

// Kills a process still running when the test returns early.
struct Reaper
{
    QProcess *p;
    ~Reaper()
    {
        if (p->state() != QProcess::NotRunning) {
            p->kill();
            p->waitForFinished(5000);
        }
    }
};

QByteArray tail(const QByteArray &s, int n = 3000)
{
    return s.size() > n ? "..." + s.right(n) : s;
}

// One file of a cpio archive in the "newc" form the kernel unpacks as its initramfs.
QByteArray cpioEntry(const QByteArray &name, unsigned mode, const QByteArray &data, int ino)
{
    const auto hex = [](unsigned v) { return QByteArray::number(v, 16).rightJustified(8, '0'); };
    QByteArray e = "070701" + hex(unsigned(ino)) + hex(mode) + hex(0) + hex(0) + hex(1) + hex(0) +
                   hex(unsigned(data.size())) + hex(0) + hex(0) + hex(0) + hex(0) +
                   hex(unsigned(name.size() + 1)) + hex(0) + name + '\0';
    e.append(QByteArray((4 - e.size() % 4) % 4, '\0'));
    e += data;
    e.append(QByteArray((4 - e.size() % 4) % 4, '\0'));
    return e;
}

// What `ttyscope ARGS...` writes to its standard output; *ok false when it did not exit 0
// within a minute.
QByteArray ttyscopeOutput(const QStringList &args, bool *ok)
{
    QProcess p;
    p.start(QStringLiteral(TTYSCOPE_BIN), args);
    *ok = p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    return p.readAllStandardOutput();
}

// The "runs" of `ttyscope report --output json ARGS...`; *ok as for ttyscopeOutput.
QJsonArray reportRuns(const QStringList &args, bool *ok)
{
    const QByteArray out = ttyscopeOutput(
        QStringList{QStringLiteral("report"), QStringLiteral("--output"), QStringLiteral("json")} +
            args,
        ok);
    return QJsonDocument::fromJson(out).object().value(QLatin1String("runs")).toArray();
}

// A UDP port nobody listens on now (the capture binds it a moment later).
int freeUdpPort()
{
    QUdpSocket probe;
    if (!probe.bind(QHostAddress::LocalHost, 0)) {
        return 0;
    }
    return probe.localPort();
}

} // namespace

class TstE2eKernel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void panicNoRoot();
    void netconsole();

private:
    QString qemu, kernel;
};

void TstE2eKernel::initTestCase()
{
    // --- What is needed: qemu and the kernel.
    qemu = qEnvironmentVariable("TTYSCOPE_E2E_QEMU");
    if (qemu.isEmpty()) {
        qemu = QStandardPaths::findExecutable(QStringLiteral("qemu-system-x86_64"));
    }
    if (qemu.isEmpty()) {
        SKIP_UNAVAILABLE(QStringLiteral(
            "qemu-system-x86_64 not found (scripts/deps.sh installs qemu-system-x86)"));
    }
    kernel = qEnvironmentVariable("TTYSCOPE_E2E_KERNEL");
    if (kernel.isEmpty()) {
        QProcess fetch;
        fetch.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        fetch.start(QStringLiteral("/bin/sh"),
                    {QStringLiteral(FETCH_KERNEL), QStringLiteral(KERNEL_CACHE)});
        QVERIFY2(fetch.waitForStarted(), "cannot run /bin/sh " FETCH_KERNEL);
        if (!fetch.waitForFinished(kFetchTimeoutMs)) {
            fetch.kill();
            fetch.waitForFinished();
            SKIP_UNAVAILABLE(QStringLiteral("fetch-kernel.sh did not finish within %1 s (slow or "
                                            "no network)")
                                 .arg(kFetchTimeoutMs / 1000));
        }
        if (fetch.exitStatus() == QProcess::NormalExit && fetch.exitCode() == 77) {
            SKIP_UNAVAILABLE(QStringLiteral("the kernel could not be fetched (see the "
                                            "fetch-kernel.sh message above)"));
        }
        QVERIFY2(fetch.exitStatus() == QProcess::NormalExit && fetch.exitCode() == 0,
                 "fetch-kernel.sh failed");
        kernel = QString::fromLocal8Bit(fetch.readAllStandardOutput()).trimmed();
    }
    QVERIFY2(QFileInfo(kernel).isFile(), qPrintable(QStringLiteral("no kernel at ") + kernel));
    qInfo("kernel %s, %s", qPrintable(kernel), qPrintable(qemu));
}

void TstE2eKernel::panicNoRoot()
{
    QTemporaryDir tmp; // in /tmp: the monitor socket's path must stay under 108 bytes
    QVERIFY(tmp.isValid());
    const QString monitorPath = tmp.filePath(QStringLiteral("monitor.sock"));
    const QString rec = tmp.filePath(QStringLiteral("kernel.ttyrec.zst"));

    // --- QEMU, paused, with the serial port on a fresh pty.
    QProcess vm;
    Reaper vmReaper{&vm};
    vm.setProcessChannelMode(QProcess::MergedChannels);
    vm.start(qemu,
             {QStringLiteral("-nodefaults"), QStringLiteral("-no-user-config"),
              QStringLiteral("-display"), QStringLiteral("none"), QStringLiteral("-no-reboot"),
              QStringLiteral("-m"), QStringLiteral("512"), QStringLiteral("-smp"),
              QStringLiteral("1"), QStringLiteral("-kernel"), kernel, QStringLiteral("-append"),
              QStringLiteral("console=ttyS0,115200 panic=0"), QStringLiteral("-serial"),
              QStringLiteral("pty"), QStringLiteral("-monitor"),
              QStringLiteral("unix:%1,server=on,wait=off").arg(monitorPath), QStringLiteral("-S")});
    QVERIFY2(vm.waitForStarted(10000), qPrintable(vm.errorString()));
    QByteArray vmOut;
    QString pts;
    const QRegularExpression ptsRe(QStringLiteral("char device redirected to (/dev/pts/\\d+)"));
    QElapsedTimer clock;
    clock.start();
    while (pts.isEmpty() && clock.elapsed() < 20000 && vm.state() == QProcess::Running) {
        vm.waitForReadyRead(200);
        vmOut += vm.readAll();
        const QRegularExpressionMatch m = ptsRe.match(QString::fromLocal8Bit(vmOut));
        if (m.hasMatch()) {
            pts = m.captured(1);
        }
    }
    QVERIFY2(!pts.isEmpty(), "QEMU printed no pty name: " + tail(vmOut));

    // --- ttyscope capture on that pty, headless; --duration is only a safety net.
    QProcess cap;
    Reaper capReaper{&cap};
    cap.start(QStringLiteral(TTYSCOPE_BIN),
              {QStringLiteral("capture"), QStringLiteral("--port"), pts, QStringLiteral("--baud"),
               QStringLiteral("115200"), QStringLiteral("--headless"), QStringLiteral("--label"),
               QStringLiteral("qemu-noroot"), QStringLiteral("--output"), rec,
               QStringLiteral("--duration"), QString::number(kPanicTimeoutMs / 1000 + 60)});
    QVERIFY2(cap.waitForStarted(10000), qPrintable(cap.errorString()));
    QByteArray capOut, capErr;
    clock.restart();
    while (!capErr.contains("ttyscope capture: recording") && clock.elapsed() < 20000 &&
           cap.state() == QProcess::Running) {
        cap.waitForReadyRead(100);
        capOut += cap.readAllStandardOutput();
        capErr += cap.readAllStandardError();
    }
    capErr += cap.readAllStandardError();
    QVERIFY2(capErr.contains("ttyscope capture: recording"),
             "the capture did not start: " + tail(capErr));

    // --- Go: `cont` on the monitor.
    QLocalSocket monitor;
    monitor.connectToServer(monitorPath);
    QVERIFY2(monitor.waitForConnected(10000), qPrintable(monitor.errorString()));
    const qint64 contMs = QDateTime::currentMSecsSinceEpoch();
    monitor.write("cont\n");
    QVERIFY(monitor.waitForBytesWritten(5000));

    // --- Wait (bounded) until the capture reports the end of the panic.
    clock.restart();
    bool ended = false;
    while (clock.elapsed() < kPanicTimeoutMs && cap.state() == QProcess::Running) {
        cap.waitForReadyRead(200);
        capOut += cap.readAllStandardOutput();
        capErr += cap.readAllStandardError();
        if (capOut.contains(" panic_end ")) {
            ended = true;
            break;
        }
        // Without an event loop QProcess notices a child's death only when asked.
        if (vm.waitForFinished(0) || vm.state() != QProcess::Running) {
            break; // QEMU gone (it exits on a reboot): what the capture has is all there is
        }
    }
    const double waitedS = clock.elapsed() / 1000.0;
    vmOut += vm.readAll();

    // --- Stop the capture (SIGTERM finishes the recording), then QEMU.
    const bool capRunning = cap.state() == QProcess::Running;
    if (capRunning) {
        cap.terminate();
    }
    const bool capFinished = cap.waitForFinished(20000);
    capOut += cap.readAllStandardOutput();
    capErr += cap.readAllStandardError();
    if (monitor.state() == QLocalSocket::ConnectedState) {
        monitor.write("quit\n");
        monitor.waitForBytesWritten(2000);
    }
    if (!vm.waitForFinished(5000)) {
        vm.kill();
        vm.waitForFinished(5000);
    }

    const QByteArray capLog = "capture stdout:\n" + tail(capOut) + "\ncapture stderr:\n" +
                              tail(capErr) + "\nqemu:\n" + tail(vmOut);
    QVERIFY2(capRunning, "the capture ended on its own before the panic ended\n" + capLog);
    QVERIFY2(capFinished && cap.exitStatus() == QProcess::NormalExit && cap.exitCode() == 0,
             "the capture did not stop cleanly on SIGTERM\n" + capLog);
    QVERIFY2(
        ended,
        qPrintable(QStringLiteral("no end of kernel panic within %1 s of `cont`\n").arg(waitedS) +
                   QString::fromLocal8Bit(capLog)));

    // --- The recording, read back by `ttyscope report`.
    QProcess report;
    report.start(
        QStringLiteral(TTYSCOPE_BIN),
        {QStringLiteral("report"), QStringLiteral("--output"), QStringLiteral("json"), rec});
    QVERIFY(report.waitForFinished(60000));
    const QByteArray reportErr = report.readAllStandardError();
    QVERIFY2(report.exitStatus() == QProcess::NormalExit && report.exitCode() == 0,
             "ttyscope report failed: " + reportErr);
    QJsonParseError perr{};
    const QJsonDocument doc = QJsonDocument::fromJson(report.readAllStandardOutput(), &perr);
    QVERIFY2(perr.error == QJsonParseError::NoError, qPrintable(perr.errorString()));
    const QJsonArray runs = doc.object().value(QLatin1String("runs")).toArray();
    QCOMPARE(runs.size(), 1);
    const QJsonObject run = runs[0].toObject();
    QCOMPARE(run.value(QLatin1String("format")).toString(), QStringLiteral("ttyscope"));
    QVERIFY2(!run.contains(QLatin1String("error")),
             qPrintable(run.value(QLatin1String("error")).toString()));
    QCOMPARE(run.value(QLatin1String("warnings")).toArray().size(), 0);
    QCOMPARE(run.value(QLatin1String("label")).toString(), QStringLiteral("qemu-noroot"));

    const int lines = run.value(QLatin1String("lines")).toInt();
    QVERIFY2(lines > 200, qPrintable(QStringLiteral("only %1 lines").arg(lines)));
    // The capture's live view counted the same lines as the loader.
    QVERIFY2(capOut.contains(" " + QByteArray::number(lines) + " lines"),
             "capture summary disagrees with the report's " + QByteArray::number(lines) +
                 " lines: " + tail(capOut, 300));

    const QJsonObject counts = run.value(QLatin1String("event_counts")).toObject();
    QCOMPARE(counts.value(QLatin1String("boot")).toInt(), 1);
    QCOMPARE(counts.value(QLatin1String("panic")).toInt(), 1);
    QCOMPARE(counts.value(QLatin1String("panic_end")).toInt(), 1);
    QCOMPARE(counts.value(QLatin1String("gap")).toInt(), 0);

    const QJsonObject panic = run.value(QLatin1String("panic")).toObject();
    QVERIFY(panic.value(QLatin1String("detected")).toBool());
    QVERIFY2(panic.value(QLatin1String("trace_complete")).toBool(),
             QJsonDocument(panic).toJson().constData());
    QCOMPARE(panic.value(QLatin1String("missing")).toArray().size(), 0);
    QVERIFY2(panic.value(QLatin1String("reason"))
                 .toString()
                 .contains(QLatin1String("VFS: Unable to mount root fs")),
             qPrintable(panic.value(QLatin1String("reason")).toString()));

    double bootArrival = 0, panicArrival = 0, endArrival = 0, panicKernel = 0;
    int bootLine = 0, panicLine = 0, endLine = 0;
    for (const QJsonValue &v : run.value(QLatin1String("events")).toArray()) {
        const QJsonObject e = v.toObject();
        const QString kind = e.value(QLatin1String("kind")).toString();
        const double arrival = e.value(QLatin1String("arrival")).toDouble();
        const int line = e.value(QLatin1String("line")).toInt();
        if (kind == QLatin1String("boot")) {
            QVERIFY2(
                e.value(QLatin1String("text")).toString().contains(QLatin1String("Linux version")),
                qPrintable(e.value(QLatin1String("text")).toString()));
            bootArrival = arrival;
            bootLine = line;
        } else if (kind == QLatin1String("panic")) {
            QVERIFY2(e.value(QLatin1String("text"))
                         .toString()
                         .contains(QLatin1String("Kernel panic - not syncing")),
                     qPrintable(e.value(QLatin1String("text")).toString()));
            panicArrival = arrival;
            panicKernel = e.value(QLatin1String("kernel_time")).toDouble();
            panicLine = line;
        } else if (kind == QLatin1String("panic_end")) {
            endArrival = arrival;
            endLine = line;
        }
    }
    QVERIFY(bootLine > 0 && bootLine < panicLine && panicLine < endLine);
    QVERIFY(bootArrival * 1000 >= contMs - 1000 && bootArrival <= panicArrival &&
            panicArrival <= endArrival);
    qInfo("%d lines, %lld bytes; boot banner at line %d, %.1f s after cont; panic at line %d, "
          "%.1f s after cont (kernel time %.2f s); end marker at line %d, %.1f s after cont",
          lines, qint64(run.value(QLatin1String("bytes")).toDouble()), bootLine,
          bootArrival - contMs / 1000.0, panicLine, panicArrival - contMs / 1000.0, panicKernel,
          endLine, endArrival - contMs / 1000.0);
}

// The kernel's netconsole, received by `ttyscope capture --port udp://...`: Debian's kernel
// boots under QEMU with its user network, its init (netconsole_init.c) loads netconsole,
// which sends the boot log again and then each line as it is logged, logs a burst of 200
// lines and crashes the kernel. The serial console goes to a file beside it. The recording
// must hold the serial console's text line for line, to the panic's end, take no baud rate
// (its wire figures n/a: no serial line), have nothing to warn about, and find the same
// crash as a report of the serial console.
void TstE2eKernel::netconsole()
{
    const QDir modules(QFileInfo(kernel).absolutePath() + QStringLiteral("/../modules"));
    for (const char *m : {"configfs.ko", "e1000.ko", "netconsole.ko"}) {
        if (!modules.exists(QLatin1String(m))) {
            SKIP_UNAVAILABLE(QStringLiteral("no %1 beside the kernel (%2): a kernel given by "
                                            "TTYSCOPE_E2E_KERNEL or cached offline without "
                                            "its modules")
                                 .arg(QLatin1String(m), modules.path()));
        }
    }
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    // --- The initramfs: a static init and the three modules.
    QProcess cc;
    cc.setProcessChannelMode(QProcess::MergedChannels);
    const QString init = tmp.filePath(QStringLiteral("init"));
    cc.start(QStringLiteral("cc"), {QStringLiteral("-static"), QStringLiteral("-O2"),
                                    QStringLiteral("-o"), init, QStringLiteral(NETCONSOLE_INIT)});
    QVERIFY2(cc.waitForFinished(60000) && cc.exitCode() == 0,
             "cannot build the init (cc -static needs libc6-dev): " + cc.readAll());
    QByteArray cpio;
    int ino = 1;
    for (const char *d : {"proc", "sys", "dev"}) {
        cpio += cpioEntry(d, 040755, {}, ino++);
    }
    const auto fileOf = [](const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    cpio += cpioEntry("init", 0100755, fileOf(init), ino++);
    for (const char *m : {"configfs.ko", "e1000.ko", "netconsole.ko"}) {
        const QByteArray module = fileOf(modules.filePath(QLatin1String(m)));
        QVERIFY(!module.isEmpty());
        cpio += cpioEntry(m, 0100644, module, ino++);
    }
    cpio += cpioEntry("TRAILER!!!", 0, {}, 0);
    const QString initrd = tmp.filePath(QStringLiteral("initrd.cpio"));
    {
        QFile f(initrd);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(cpio) == cpio.size());
    }

    // --- The captures, listening before the kernel sends: one for each target.
    const int port = freeUdpPort(), extPort = freeUdpPort();
    QVERIFY(port > 0 && extPort > 0 && port != extPort);
    const QString rec = tmp.filePath(QStringLiteral("netconsole.ttyrec.zst"));
    const QString extRec = tmp.filePath(QStringLiteral("extended.ttyrec.zst"));
    QProcess cap, extCap;
    Reaper capReaper{&cap}, extCapReaper{&extCap};
    const auto startCapture = [&](QProcess &p, int onPort, const QString &output) {
        const QString at = QStringLiteral("udp://127.0.0.1:%1").arg(onPort);
        p.start(QStringLiteral(TTYSCOPE_BIN),
                {QStringLiteral("capture"), QStringLiteral("--port"), at,
                 QStringLiteral("--headless"), QStringLiteral("--output"), output,
                 QStringLiteral("--duration"), QString::number(kPanicTimeoutMs / 1000 + 60)});
        QByteArray err;
        QElapsedTimer clock;
        clock.start();
        while (p.waitForStarted(10000) && !err.contains("ttyscope capture: recording") &&
               clock.elapsed() < 20000 && p.state() == QProcess::Running) {
            p.waitForReadyRead(100);
            err += p.readAllStandardError();
        }
        return err.contains("ttyscope capture: recording " + at.toUtf8() +
                            " (udp, netconsole, no serial line)")
                   ? QByteArray()
                   : "the capture did not start: " + tail(err);
    };
    QByteArray failed = startCapture(cap, port, rec);
    QVERIFY2(failed.isEmpty(), failed.constData());
    failed = startCapture(extCap, extPort, extRec);
    QVERIFY2(failed.isEmpty(), failed.constData());

    // --- The kernel, to its panic.
    const QString serial = tmp.filePath(QStringLiteral("serial.log"));
    QProcess vm;
    Reaper vmReaper{&vm};
    vm.setProcessChannelMode(QProcess::MergedChannels);
    vm.start(qemu, {QStringLiteral("-nodefaults"),
                    QStringLiteral("-no-user-config"),
                    QStringLiteral("-display"),
                    QStringLiteral("none"),
                    QStringLiteral("-no-reboot"),
                    QStringLiteral("-m"),
                    QStringLiteral("512"),
                    QStringLiteral("-smp"),
                    QStringLiteral("1"),
                    QStringLiteral("-kernel"),
                    kernel,
                    QStringLiteral("-initrd"),
                    initrd,
                    QStringLiteral("-append"),
                    QStringLiteral("console=ttyS0,115200 panic=0 printk.devkmsg=on nc_port=%1 "
                                   "nc_ext_port=%2")
                        .arg(port)
                        .arg(extPort),
                    QStringLiteral("-serial"),
                    QStringLiteral("file:") + serial,
                    QStringLiteral("-netdev"),
                    QStringLiteral("user,id=n0"),
                    QStringLiteral("-device"),
                    QStringLiteral("e1000,netdev=n0")});
    QVERIFY2(vm.waitForStarted(10000), qPrintable(vm.errorString()));
    // The kernel waits after its panic (panic=0): QEMU is stopped once the serial console
    // has printed the panic's end.
    static constexpr char kPanicEnd[] = "---[ end Kernel panic";
    QElapsedTimer clock;
    clock.start();
    bool panicEnded = false;
    while (!panicEnded && clock.elapsed() < kPanicTimeoutMs && !vm.waitForFinished(200)) {
        panicEnded = fileOf(serial).contains(kPanicEnd);
    }
    QThread::msleep(500); // the last datagrams on their way
    vm.kill();
    vm.waitForFinished(5000);
    const QByteArray vmOut = vm.readAll();
    QVERIFY2(panicEnded, "the kernel's panic did not end: " + tail(vmOut));
    for (QProcess *p : {&cap, &extCap}) {
        p->terminate();
        QVERIFY(p->waitForFinished(20000));
        QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0,
                 "the capture did not stop cleanly: " + tail(p->readAllStandardError()));
    }

    // --- The serial console's lines, up to the panic's end.
    QByteArray serialText = fileOf(serial);
    serialText.replace("\r", "");
    QList<QByteArray> serialLines;
    for (const QByteArray &l : serialText.split('\n')) {
        if (l.startsWith('[')) { // the kernel's lines (no firmware before them)
            serialLines << l;
            if (l.contains(kPanicEnd)) {
                break;
            }
        }
    }
    QVERIFY2(serialLines.size() > 500 && serialLines.back().contains(kPanicEnd),
             "the serial console: " + tail(serialText));

    // --- The recording: the same lines, as `ttyscope cat` gives them ...
    bool ok = false;
    QList<QByteArray> received = ttyscopeOutput({QStringLiteral("cat"), rec}, &ok).split('\n');
    QVERIFY(ok);
    if (!received.isEmpty() && received.back().isEmpty()) {
        received.removeLast();
    }
    QCOMPARE(received.size(), serialLines.size());
    for (int i = 0; i < received.size(); ++i) {
        QCOMPARE(received[i], serialLines[i]);
    }
    QVERIFY2(received[0].contains("] Linux version "), received[0].constData());

    // --- ... and the report: no rate, its reason, nothing to warn about.
    const QJsonObject run =
        reportRuns({QStringLiteral("--events"), QStringLiteral("none"), rec}, &ok).at(0).toObject();
    QVERIFY(ok);
    QCOMPARE(run.value(QLatin1String("label")).toString(),
             QStringLiteral("netconsole 127.0.0.1:%1").arg(port));
    QCOMPARE(run.value(QLatin1String("baud")).toInt(), 0);
    QCOMPARE(run.value(QLatin1String("lines")).toInt(), int(serialLines.size()));
    QCOMPARE(run.value(QLatin1String("warnings")).toArray().size(), 0);
    QVERIFY(run.value(QLatin1String("wire_s")).isNull());
    QCOMPARE(run.value(QLatin1String("wire_note")).toString(),
             QStringLiteral("a netconsole: no serial line"));

    // --- The extended form (netconsole=+...): a record for each of the serial console's
    // lines, its header where the serial line has its timestamp. The text escapes what is
    // not printable ("\x09" for a tab); the long line came in two fragments, glued on one
    // line with the second's header inside. Each line has its kernel time from the header,
    // and the dictionaries (" SUBSYSTEM=...") are no lines.
    // `cat` gives the recorded bytes: the dictionaries too, which the analysis leaves out.
    const QByteArray extText = ttyscopeOutput({QStringLiteral("cat"), extRec}, &ok);
    QVERIFY(ok);
    static const QRegularExpression dictionary(QStringLiteral("^ [A-Za-z0-9_.-]+="));
    QList<QByteArray> records;
    int dictionaryLines = 0;
    for (const QByteArray &l : extText.split('\n')) {
        if (dictionary.match(QString::fromUtf8(l)).hasMatch()) {
            QVERIFY2(!records.isEmpty(), l.constData()); // after a record
            ++dictionaryLines;
        } else if (!l.isEmpty()) {
            records << l;
        }
    }
    // dev_printk's messages carry one (SUBSYSTEM=, DEVICE=): 74 lines on 6.1.0-57.
    QVERIFY(dictionaryLines > 0);
    QCOMPARE(records.size(), serialLines.size());
    static const QRegularExpression header(QStringLiteral("^\\d+,\\d+,(\\d+),-(,[^;]*)?;"));
    static const QRegularExpression fragment(QStringLiteral("\\d+,\\d+,\\d+,-,ncfrag=\\d+/\\d+;"));
    static const QRegularExpression stamp(QStringLiteral("^\\[ *(\\d+)\\.(\\d{6})\\] "));
    // The kernel writes what is not printable, and the backslash, as "\xNN".
    const auto unescaped = [](QString text) {
        static const QRegularExpression escape(QStringLiteral("\\\\x([0-9a-f]{2})"));
        for (QRegularExpressionMatch m = escape.match(text); m.hasMatch();
             m = escape.match(text, m.capturedStart() + 1)) {
            text.replace(m.capturedStart(), 4, QChar(m.captured(1).toInt(nullptr, 16)));
        }
        return text;
    };
    int fragmented = -1;
    for (int i = 0; i < records.size(); ++i) {
        QString text = QString::fromUtf8(records[i]);
        const QString line = QString::fromUtf8(serialLines[i]);
        // The second fragment's header, after the first's text.
        if (const QRegularExpressionMatch f = fragment.match(text, text.indexOf(u';') + 1);
            f.hasMatch()) {
            QCOMPARE(fragmented, -1);
            fragmented = i;
            text.remove(f.capturedStart(), f.capturedLength());
        }
        const QRegularExpressionMatch h = header.match(text);
        const QRegularExpressionMatch t = stamp.match(line);
        QVERIFY2(h.hasMatch() && t.hasMatch(), qPrintable(text + QLatin1Char('|') + line));
        QCOMPARE(h.captured(1).toLongLong(),
                 t.captured(1).toLongLong() * 1000000 + t.captured(2).toLongLong());
        QCOMPARE(unescaped(text.mid(h.capturedLength())), line.mid(t.capturedLength()));
    }
    QVERIFY(fragmented > 0 && serialLines[fragmented].contains("harness: long line xxx"));

    const QJsonArray both =
        reportRuns({QStringLiteral("--events"), QStringLiteral("none"), rec, extRec}, &ok);
    QVERIFY(ok);
    QCOMPARE(both.size(), 2);
    const QJsonObject plain = both.at(0).toObject(), extended = both.at(1).toObject();
    QCOMPARE(extended.value(QLatin1String("lines")).toInt(), int(serialLines.size()));
    // Every line has its kernel time, in the plain form from its timestamp, in the extended
    // form from its header: the two cover the same kernel time.
    QCOMPARE(plain.value(QLatin1String("kernel_lines")).toInt(), int(serialLines.size()));
    QCOMPARE(extended.value(QLatin1String("kernel_lines")).toInt(), int(serialLines.size()));
    QCOMPARE(extended.value(QLatin1String("kernel_duration_s")).toDouble(),
             plain.value(QLatin1String("kernel_duration_s")).toDouble());
    // The console skips the records below its log level (debug messages), which the serial
    // console did not print either: the numbers have gaps, and the drops are unknown.
    const QJsonObject drops = extended.value(QLatin1String("drops")).toObject();
    QVERIFY(drops.value(QLatin1String("messages")).isNull());
    static const QRegularExpression missing(
        QStringLiteral("^[1-9]\\d* record\\(s\\) missing: below the log level, dropped or lost$"));
    QVERIFY2(missing.match(drops.value(QLatin1String("note")).toString()).hasMatch(),
             qPrintable(drops.value(QLatin1String("note")).toString()));
    QCOMPARE(
        plain.value(QLatin1String("drops")).toObject().value(QLatin1String("messages")).toInt(-1),
        0);
    QCOMPARE(extended.value(QLatin1String("warnings")).toArray(),
             QJsonArray{
                 QStringLiteral(
                     "1 record(s) longer than one of netconsole's datagrams came in fragments "
                     "(first: line %1): each is one line, with the headers of its later fragments "
                     "(\",ncfrag=\") inside its text")
                     .arg(fragmented + 1)});

    // --- The crash: the same in the serial console and in both netconsoles (title, kind,
    // kernel time, trace complete, frames).
    const QJsonArray three = reportRuns({serial, rec, extRec}, &ok);
    QVERIFY(ok);
    QCOMPARE(three.size(), 3);
    QJsonObject first;
    for (const QJsonValue &r : three) {
        const QJsonArray found = r.toObject().value(QLatin1String("crashes")).toArray();
        QCOMPARE(found.size(), 1);
        QJsonObject c = found.at(0).toObject();
        QVERIFY2(c.value(QLatin1String("title"))
                     .toString()
                     .contains(QLatin1String("sysrq triggered crash")),
                 qPrintable(c.value(QLatin1String("title")).toString()));
        QVERIFY(c.value(QLatin1String("trace_complete")).toBool());
        QVERIFY(!c.value(QLatin1String("frames")).toArray().isEmpty());
        // Where it stands differs (the extended form has no line of its own for a record's
        // dictionary); when, and what, do not.
        for (const char *k : {"line", "end_line", "arrival"}) {
            c.remove(QLatin1String(k));
        }
        if (first.isEmpty()) {
            first = c;
        } else {
            QCOMPARE(c, first);
        }
    }
    qInfo("netconsole: %lld lines received as the serial console printed them, in both forms; "
          "the crash: %s",
          qint64(serialLines.size()), qPrintable(first.value(QLatin1String("title")).toString()));
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    TstE2eKernel test;
    const int rc = QTest::qExec(&test, argc, argv);
    return rc == 0 && g_skipped ? 77 : rc;
}

#include "tst_e2e_kernel.moc"
