// The live view on a real pseudo-terminal: lines appear while they arrive, follow mode
// tracks the newest data and pauses when the user zooms, a panic raises an alert, markers
// and typed commands reach the timeline and the recording, and the recording loads.
#include "capturedialog.h"
#include "eventlist.h"
#include "guitest.h"
#include "inputfile.h"
#include "livebar.h"
#include "livecontroller.h"
#include "livetest.h"
#include "logpane.h"
#include "logview.h"
#include "mainwindow.h"
#include "metricspanel.h"
#include "noticebar.h"
#include "runloader.h"
#include "timelineview.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QtTest>
#include <array>

using namespace tty;

// A window capturing a real pseudo-terminal into a temporary recording.
struct Capturing
{
    livetest::Pty pty;
    QTemporaryDir dir;
    CaptureOptions o;
    MainWindow w;
    // False with the reason in `error`.
    bool start(QString *error, const QString &label = {})
    {
        if (!pty.open()) {
            *error = QStringLiteral("no pseudo-terminal");
            return false;
        }
        o.port = pty.name;
        o.label = label;
        o.output = dir.filePath(QStringLiteral("rec.ttyrec.zst"));
        w.resize(1400, 900);
        w.show();
        if (!w.startCapture(o, false, error)) {
            return false;
        }
        pty.releaseSlave();
        return true;
    }
    // Stops the capture; the window's run (the capture's, completed) and the recording as a
    // report reads it, or null with the reason in `error`.
    std::array<const Run *, 2> stopAndLoad(QString *error)
    {
        w.stopCapture();
        if (!w.waitForLoaded()) {
            *error = QStringLiteral("the window did not load the capture");
            return {};
        }
        recording = loadRun(o.output, {}, error);
        return {&*w.session().sides.front().trials.front().run, recording.get()};
    }
    std::unique_ptr<Run> recording;
};

// A file's bytes decompressed whole (empty with the reason in `error`).
static std::string readWhole(const QString &path, QString *error)
{
    InputFile in;
    std::string all;
    if (!in.open(path, error)) {
        return all;
    }
    for (;;) {
        std::string block(InputFile::kBlockBytes, '\0');
        block.resize(in.readInto(block.data(), block.size()));
        if (block.empty()) {
            return all;
        }
        all += block;
    }
}

class TestLive : public QObject
{
    Q_OBJECT
private:
    static bool waitFor(const std::function<bool()> &cond, int ms = 10000)
    {
        QElapsedTimer t;
        t.start();
        while (!cond() && t.elapsed() < ms) {
            QApplication::processEvents(QEventLoop::AllEvents, 20);
        }
        return cond();
    }
    static void put(int fd, const std::string &s)
    {
        QVERIFY(::write(fd, s.data(), s.size()) == ssize_t(s.size()));
    }
    // The metrics panel's value of a row (by key) for the first column.
    static QString metric(MainWindow &w, const QString &key)
    {
        const QTableWidget *t = w.metricsPanel()->table();
        for (int r = 0; r < t->rowCount(); ++r) {
            if (t->item(r, 0) && t->item(r, 0)->data(Qt::UserRole).toString() == key) {
                return t->item(r, 1)->text();
            }
        }
        return {};
    }

private slots:
    void liveCapture()
    {
        Capturing c;
        QString error;
        QVERIFY2(c.start(&error, QStringLiteral("live test")), qPrintable(error));
        livetest::Pty &pty = c.pty;
        MainWindow &w = c.w;
        QVERIFY(w.liveBar()->isVisible());
        const Run &run = *w.live()->run();

        for (int i = 0; i < 50; ++i) {
            put(pty.master, "[    1." + std::to_string(100000 + i) + "] noise: line " +
                                std::to_string(i) + "\r\n");
        }
        QVERIFY(waitFor([&] { return run.lines.size() >= 50_lines; }));
        QVERIFY(waitFor([&] { return w.logPane(0)->view()->model()->rowCount() >= 50; }));
        QCOMPARE(std::string(run.lines.text(LineIndex(49)).str()),
                 std::string("[    1.100049] noise: line 49"));

        // Follow mode keeps the newest line in view; zooming pauses it.
        QVERIFY(w.liveBar()->following());
        const double lastX = run.timeOf(run.lines.endIndex() - 1_lines).value().count();
        QVERIFY(w.timeline()->xUpper() >= lastX);
        QCPAxis *x = w.timeline()->laneRect(TimelineView::Printed)->axis(QCPAxis::atBottom);
        x->setRange(x->range().lower - 100, x->range().lower - 50); // what a drag does
        QVERIFY(!w.liveBar()->following());
        w.liveBar()->setFollowing(true);

        // A panic raises a visible alert.
        put(pty.master,
            "[    2.000000] Kernel panic - not syncing: VFS: Unable to mount root fs\r\n");
        QVERIFY(waitFor([&] {
            return w.notices()->isVisible() &&
                   w.notices()->text().contains(QStringLiteral("panic"));
        }));

        // A marker and a typed command are events on the timeline and records in the file.
        w.live()->addMarker(QStringLiteral("before rmmod"));
        w.liveBar()->input()->setText(QStringLiteral("echo t > /proc/sysrq-trigger"));
        QTest::keyClick(w.liveBar()->input(), Qt::Key_Return);
        std::string typed;
        QVERIFY(waitFor([&] {
            char buf[256];
            pollfd pfd{pty.master, POLLIN, 0};
            while (::poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLIN)) {
                const ssize_t n = ::read(pty.master, buf, sizeof buf);
                if (n <= 0) {
                    break;
                }
                typed.append(buf, std::size_t(n));
            }
            return typed.find("echo t > /proc/sysrq-trigger\r") != std::string::npos;
        }));
        put(pty.master, "[    2.100000] sysrq: Show State\r\n");
        QVERIFY(waitFor([&] {
            int markers = 0;
            for (const Event &e : run.events) {
                markers += e.kind == EventKind::Marker ? 1 : 0;
            }
            return markers >= 2;
        }));
        QVERIFY(w.timeline()->markerGraph(0, EventKind::Marker));

        if (qEnvironmentVariableIsSet(
                "TTYSCOPE_SHOT_DIR")) { // for looking at the live view by hand
            QApplication::processEvents();
            w.grab().save(qEnvironmentVariable("TTYSCOPE_SHOT_DIR") + QStringLiteral("/live.png"));
        }

        // A prompt without newline shows after a short idle time.
        put(pty.master, "corpusvm login: ");
        QVERIFY(waitFor([&] {
            return std::string(run.lines.text(run.lines.endIndex() - 1_lines).str()) ==
                   "corpusvm login: ";
        }));

        w.stopCapture();
        QVERIFY(!w.live()->running());
        QString lerr;
        auto loaded = loadRun(c.o.output, LoadOptions(), &lerr);
        QVERIFY2(loaded, qPrintable(lerr));
        QVERIFY2(!loaded->load.stoppedEarly(), qPrintable(loaded->load.message));
        QCOMPARE(loaded->lines.size(), run.lines.size());
        QCOMPARE(loaded->meta.label, QStringLiteral("live test"));
        int markers = 0, sent = 0;
        for (const Event &e : loaded->events) {
            if (e.kind == EventKind::Marker) {
                const std::string t = loaded->eventText(e).str();
                markers += t == "before rmmod" ? 1 : 0;
                sent += t.find("echo t > /proc/sysrq-trigger") != std::string_view::npos ? 1 : 0;
            }
        }
        QCOMPARE(markers, 1);
        QCOMPARE(sent, 1);
        pty.close();
    }

    void metricsFreshAfterDataStops()
    {
        Capturing c;
        QString error;
        QVERIFY2(c.start(&error), qPrintable(error));
        livetest::Pty &pty = c.pty;
        MainWindow &w = c.w;
        for (int i = 0; i < 40; ++i) {
            put(pty.master, "[    1." + std::to_string(100000 + i) + "] noise: line " +
                                std::to_string(i) + "\r\n");
        }
        QVERIFY(waitFor([&] { return metric(w, QStringLiteral("lines")) == QLatin1String("40"); }));
        // Right after a refresh, the panic and then nothing more: no update comes to
        // refresh the panel, yet it must show the panic within a second.
        put(pty.master,
            "[    2.000000] Kernel panic - not syncing: VFS: Unable to mount root fs\r\n");
        const Run &run = *w.live()->run();
        QVERIFY(waitFor([&] { return run.lines.size() >= 41_lines; }));
        QElapsedTimer since;
        since.start();
        QVERIFY(waitFor(
            [&] { return metric(w, QStringLiteral("panic.detected")) == QLatin1String("yes"); },
            1500));
        QCOMPARE(metric(w, QStringLiteral("lines")), QStringLiteral("41"));
        QVERIFY2(since.elapsed() <= 1500, qPrintable(QString::number(since.elapsed())));
        w.stopCapture();
        pty.close();
    }

    // Once a capture stops, its run is a file like any other: its figures (and the crash
    // titles of the event list, which only the background analysis gives) come from a
    // worker. Opening a log then lets the capture go, so that log's metrics are not taken
    // on the GUI thread, as a growing live run's are.
    void aStoppedCaptureGivesWayToAFile()
    {
        Capturing c;
        QString error;
        QVERIFY2(c.start(&error), qPrintable(error));
        livetest::Pty &pty = c.pty;
        MainWindow &w = c.w;
        put(pty.master, "[    3.000000] WARNING: CPU: 1 PID: 7 at drivers/a/b.c:12 "
                        "widget_init+0x1/0x2\r\n"
                        "[    3.000001] ---[ end trace 0000000000000000 ]---\r\n");
        const Run &run = *w.live()->run();
        QVERIFY(waitFor([&] { return run.lines.size() >= 2_lines; }));
        // While it runs, the event list titles the crash too (with the metrics, each second).
        const QVector<QPair<QString, int>> warning{{QStringLiteral("WARNING in widget_init"), 1}};
        QVERIFY(waitFor([&] { return w.eventList()->model()->crashTitles() == warning; }, 3000));
        w.stopCapture();
        QVERIFY(w.live() && !w.live()->running());
        QVERIFY(w.waitForLoaded());
        QCOMPARE(w.eventList()->model()->crashTitles(), warning);
        // The bar says it stopped (it went on saying "capturing"), with the final counts.
        QVERIFY2(w.liveBar()->statusText().startsWith(
                     QStringLiteral("stopped %1 (tty (termios)) — 2 lines, ").arg(pty.name)),
                 qPrintable(w.liveBar()->statusText()));
        QVERIFY2(w.liveBar()->statusText().endsWith(QStringLiteral(" — recorded to ") + c.o.output),
                 qPrintable(w.liveBar()->statusText()));

        const QString log = c.dir.filePath(QStringLiteral("gpf.log"));
        QFile f(log);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[   80.000000] Oops: general protection fault, probably for non-canonical "
                "address 0xdffffc0000000001: 0000 [#1] PREEMPT SMP KASAN NOPTI\n"
                "[   80.000004] RIP: 0010:qux_free+0x1b/0x60 net/qux/qux.c:120\n"
                "[   80.000007] Call Trace:\n"
                "[   80.000008]  <TASK>\n"
                "[   80.000013]  qux_release+0x44/0x90\n"
                "[   80.000016]  </TASK>\n"
                "[   80.000018] ---[ end trace 0000000000000000 ]---\n");
        f.close();
        w.openFiles({log});
        QVERIFY(w.waitForLoaded());
        QVERIFY(!w.live());
        QVERIFY(!w.liveBar()->isVisible());
        QCOMPARE(w.session().sides.front().trials.front().run->lines.size(), LineCount(7));
        QCOMPARE(w.eventList()->model()->crashTitles(),
                 (QVector<QPair<QString, int>>{
                     {QStringLiteral("general protection fault in qux_free"), 1}}));
        pty.close();
    }

    // File ▸ Capture… on a pseudo-terminal, which no rate paces (QEMU's -serial pty): the
    // default rate left as it is is not recorded, so the recording, loaded when the capture
    // stops, finds that 640 KiB that came at once outran 115200 and has no rate; a rate
    // chosen in the dialog is recorded and taken as given.
    void captureDialogRecordsTheRateChosen_data()
    {
        QTest::addColumn<QString>("chosen");
        QTest::addColumn<int>("recorded"); // the header's baud
        QTest::addColumn<int>("loaded");   // the loaded run's: 0, no rate
        QTest::newRow("default left") << "115200" << 0 << 0;
        QTest::newRow("1500000 chosen") << "1500000" << 1500000 << 1500000;
    }

    void captureDialogRecordsTheRateChosen()
    {
        QFETCH(QString, chosen);
        QFETCH(int, recorded);
        QFETCH(int, loaded);
        Capturing c;
        QString error;
        {
            CaptureDialog d(false);
            QComboBox *port = nullptr, *baud = nullptr;
            for (QComboBox *box : d.findChildren<QComboBox *>()) {
                if (box->findText(QStringLiteral("9600")) >= 0) {
                    baud = box;
                } else if (box->isEditable() && !port) {
                    port = box;
                }
            }
            QVERIFY(port && baud);
            port->setCurrentText(QStringLiteral("/dev/pts/0")); // Capturing sets its own
            baud->setCurrentText(chosen);
            QVERIFY2(d.options(&c.o, &error), qPrintable(error));
        }
        QCOMPARE(c.o.settings.baud, chosen.toInt());
        QVERIFY2(c.start(&error), qPrintable(error));
        const std::string sent = livetest::burstOfLines();
        QVERIFY(c.pty.write(sent));
        const Run &live = *c.w.live()->run();
        QVERIFY(waitFor([&] { return live.bytes >= std::int64_t(sent.size()); }));
        const std::array<const Run *, 2> both = c.stopAndLoad(&error);
        QVERIFY2(both[0] && both[1], qPrintable(error));
        for (const Run *r : both) {
            QCOMPARE(r->meta.extra.value(QStringLiteral("baud")).toInt(), recorded);
            QCOMPARE(r->meta.baud, loaded);
            QVERIFY2(livetest::outranTheDefaultRate(r->warnings) == (loaded == 0),
                     qPrintable(r->warnings.join(QLatin1Char('\n'))));
            QVERIFY(loaded == 0 || r->warnings.isEmpty());
        }
        // The stop says so.
        QVERIFY(c.w.notices()->isVisible());
        QVERIFY2(c.w.notices()->text().contains(QStringLiteral("Capture stopped")) &&
                     c.w.notices()->text().contains(QStringLiteral("faster than 115200")) ==
                         (loaded == 0),
                 qPrintable(c.w.notices()->text()));
        c.pty.close();
    }

    // A capture without a rate stated (a pty) of a boot whose kernel names its console's
    // rate: when the capture stops, the window takes that rate as the recording's report
    // does, and both say where it came from.
    void aStatedRateIsTakenWhenTheCaptureStops()
    {
        QString error;
        const std::string bytes = readWhole(
            QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-default-smp2-115200-t1.raw.zst"), &error);
        QCOMPARE(bytes.size(), std::size_t(24096)); // the truth file's bytes_total
        Capturing c;
        c.o.baudGiven = false; // File ▸ Capture… with its default rate left as it is
        QVERIFY2(c.start(&error), qPrintable(error));
        QVERIFY(c.pty.write(bytes));
        const Run &live = *c.w.live()->run();
        QVERIFY(waitFor([&] { return live.bytes >= std::int64_t(bytes.size()); }));
        const std::array<const Run *, 2> both = c.stopAndLoad(&error);
        QVERIFY2(both[0] && both[1], qPrintable(error));
        for (const Run *r : both) {
            QCOMPARE(r->meta.extra.value(QStringLiteral("baud")).toInt(), 0); // none recorded
            QCOMPARE(r->meta.baud, 115200);
            QCOMPARE(r->meta.baudSource, RunMeta::BaudSource::KernelCommandLine);
            QCOMPARE(r->meta.baudStatement, QStringLiteral("console=ttyS0,115200"));
            QCOMPARE(r->warnings, QStringList());
        }
        QVERIFY2(c.w.metricsPanel()->notes().contains(QStringLiteral(
                     "The wire figures' rate: 115200 baud (console=ttyS0,115200 on the kernel "
                     "command line).")),
                 qPrintable(c.w.metricsPanel()->notes()));
        c.pty.close();
    }

    void aStatedRateIsTakenWhileTheCaptureRuns()
    {
        // The real 6.1 boot at 38400 baud (tests/fixtures/slowbaud), its bytes as the UART
        // sent them, into a capture left at its default rate: the live view takes 38400 once
        // the kernel has printed its command line, not when the capture stops.
        QString error;
        const QByteArray hostts = QByteArray::fromStdString(readWhole(
            QStringLiteral(TTYSCOPE_FIXTURES "/slowbaud/6.1-38400.hostts.log.zst"), &error));
        QVERIFY2(!hostts.isEmpty(), qPrintable(error));
        QByteArray bytes;
        for (const QByteArray &line : hostts.split('\n')) {
            const qsizetype tab = line.indexOf('\t');
            if (tab >= 0) {
                bytes += line.mid(tab + 1) + "\r\n";
            }
        }
        // Its first 100 lines: the banner, the command line, the boot's first tenth of a second.
        qsizetype cut = 0;
        for (int i = 0; i < 100; ++i) {
            cut = bytes.indexOf('\n', cut) + 1;
        }
        Capturing c;
        c.o.baudGiven = false;
        QVERIFY2(c.start(&error), qPrintable(error));
        const Run &live = *c.w.live()->run();
        auto capacity = [&] {
            QCustomPlot *plot = c.w.timeline()->plot();
            for (int i = 0; i < plot->itemCount(); ++i) {
                if (auto *t = qobject_cast<QCPItemText *>(plot->item(i));
                    t && t->objectName() == QLatin1String("uart-capacity")) {
                    return t->text();
                }
            }
            return QString();
        };
        // The banner alone: the default.
        const qsizetype banner = bytes.indexOf('\n') + 1;
        QVERIFY(c.pty.write(bytes.left(banner).toStdString()));
        QVERIFY2(waitFor([&] {
                     return capacity() ==
                            QStringLiteral("UART capacity 11520 B/s (115200 baud, 8N1)");
                 }),
                 qPrintable(capacity()));
        QCOMPARE(live.meta.baudSource, RunMeta::BaudSource::Default);
        QVERIFY(c.pty.write(bytes.mid(banner, cut - banner).toStdString()));
        QVERIFY2(waitFor([&] {
                     return capacity() ==
                            QStringLiteral("UART capacity 3840 B/s (38400 baud, 8N1)");
                 }),
                 qPrintable(capacity()));
        QVERIFY(c.w.live()); // still capturing
        QCOMPARE(live.lines.size(), 100_lines);
        QCOMPARE(live.meta.baudSource, RunMeta::BaudSource::KernelCommandLine);
        QCOMPARE(live.meta.baudStatement, QStringLiteral("console=ttyS0,38400"));
        // Then a boot at 115200 (the bundled one): the two boots' rates differ, so the
        // stopped capture takes the default, with the warning, as its recording's report does.
        const std::string other = readWhole(
            QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-default-smp2-115200-t1.raw.zst"), &error);
        QCOMPARE(other.size(), std::size_t(24096));
        QVERIFY(c.pty.write(bytes.mid(cut).toStdString() + other));
        QVERIFY(waitFor(
            [&] { return live.bytes >= std::int64_t(bytes.size()) + std::int64_t(other.size()); }));
        const std::array<const Run *, 2> both = c.stopAndLoad(&error);
        QVERIFY2(both[0] && both[1], qPrintable(error));
        for (const Run *r : both) {
            QCOMPARE(r->meta.baud, 115200);
            QCOMPARE(r->meta.baudSource, RunMeta::BaudSource::Default);
            QCOMPARE(r->meta.baudStatement, QString());
            QVERIFY2(r->warnings.join(u'\n').contains(QStringLiteral(
                         "the kernel command lines name consoles at different rates, "
                         "console=ttyS0,38400 (line 2) and console=ttyS0,115200 (line ")),
                     qPrintable(r->warnings.join(u'\n')));
        }
        c.pty.close();
    }

    void badPortSaysWhy()
    {
        MainWindow w;
        CaptureOptions o;
        o.port = QStringLiteral("/dev/ttyDOESNOTEXIST9");
        QString error;
        QVERIFY(!w.startCapture(o, false, &error));
        QVERIFY2(error.contains(QStringLiteral("no such")) ||
                     error.contains(QStringLiteral("No such")),
                 qPrintable(error));
        QVERIFY(!w.live());
    }
};

QTEST_MAIN(TestLive)
#include "tst_gui_live.moc"
