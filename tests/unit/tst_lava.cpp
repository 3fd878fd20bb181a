// LAVA job logs (log.yaml): entries parsed with YAML's escapes, LAVA's own entries as
// markers, and a bundled capture converted to a LAVA log giving the figures of the original.
#include "metrics.h"
#include "tst_helpers.h"

#include <QDateTime>
#include <QtTest>

using namespace tty;
using namespace testutil;

namespace {

// A YAML double-quoted scalar as LAVA's dumper writes it: printable ASCII as is, the rest
// escaped (\e for ESC, \x.. and \u.... for the others).
QByteArray yamlQuoted(const QByteArray &utf8)
{
    QByteArray out = "\"";
    for (const char32_t c : QString::fromUtf8(utf8).toUcs4()) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c == 0x1b) {
            out += "\\e";
        } else if (c < 0x20 || c == 0x7f) {
            out += "\\x" + QByteArray::number(uint(c), 16).rightJustified(2, '0');
        } else if (c < 0x80) {
            out += char(c);
        } else {
            out += "\\u" + QByteArray::number(uint(c), 16).rightJustified(4, '0');
        }
    }
    return out + '"';
}

QByteArray entry(qint64 ns, const char *lvl, const QByteArray &msgYaml)
{
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(ns / 1000000, Qt::UTC);
    const QByteArray dt = t.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss")).toLatin1() + '.' +
                          QByteArray::number((ns / 1000) % 1000000).rightJustified(6, '0');
    return "- {\"dt\": \"" + dt + "\", \"lvl\": \"" + lvl + "\", \"msg\": " + msgYaml + "}\n";
}

// A hostts capture ("<unix seconds, 6 decimals>\t<line>") as the log.yaml LAVA would have
// written for it, with the harness's own entries around the console lines.
QByteArray toLava(const QByteArray &hostts)
{
    QByteArray out;
    qint64 last = 0;
    bool first = true;
    for (const QByteArray &l : hostts.split('\n')) {
        const int tab = l.indexOf('\t');
        if (tab < 0) {
            continue;
        }
        const QList<QByteArray> sec = l.left(tab).split('.');
        last = sec[0].toLongLong() * 1000000000 + sec[1].leftJustified(9, '0').toLongLong();
        if (first) {
            out += entry(last, "info", "\"lava-dispatcher, installed at version: 2024.05\"");
            out += entry(last, "debug", "\"start: 2.4 bootloader-commands (timeout 00:04:00)\"");
            out += entry(last, "input", "\"boot\\n\"");
            first = false;
        }
        out += entry(last, "target", yamlQuoted(l.mid(tab + 1)));
    }
    out +=
        entry(last, "results",
              "{\"definition\": \"lava\", \"case\": \"auto-login-action\", \"result\": \"pass\"}");
    return out;
}

} // namespace

class TstLava : public QObject
{
    Q_OBJECT
private slots:
    void entries();
    void sameFiguresAsTheOriginal_data();
    void sameFiguresAsTheOriginal();
    void promptAnsweredByLava();
};

void TstLava::entries()
{
    const QByteArray log =
        "- {\"dt\": \"2026-01-04T12:00:00\", \"lvl\": \"info\", \"msg\": \"start: 2 "
        "uboot-action\"}\n"
        "- {\"dt\": \"2026-01-04T12:00:01.250000\", \"lvl\": \"target\", \"msg\": "
        "\"\\e[0mU-Boot 2026.01 \\\"rc\\\" \\xe9\\u00e9\\tend\"}\n"
        "- {\"dt\": \"2026-01-04T12:00:02\", \"lvl\": \"input\", \"msg\": \"bootm "
        "0x80000000\\n\"}\n"
        "- {\"dt\": \"2026-01-04T12:00:03\", \"lvl\": \"target\", \"msg\": \"[    0.000000] Linux "
        "version 6.12.9 (build@lab) #1 SMP\"}\n"
        "- {\"dt\": \"2026-01-04T12:00:04.5\", \"lvl\": \"target\", \"msg\": \"[    1.470000] "
        "Kernel "
        "panic - not syncing: VFS: Unable to mount root fs\"}\n"
        "- {\"dt\": \"2026-01-04T12:00:05\", \"lvl\": \"feedback\", \"msg\": \"from the other "
        "board\", \"ns\": \"other\"}\n"
        "- {\"dt\": \"2026-01-04T12:00:06\", \"lvl\": \"target\", \"msg\": [\"two\", \"lines\"]}\n"
        "- {\"dt\": \"2026-01-04T12:00:07\", \"lvl\": \"results\", \"msg\": {\"definition\": "
        "\"lava\", \"case\": \"job\", \"result\": \"fail\"}}\n"
        "not an entry\n";
    QString error;
    const auto run = loadBytes(log, LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    QCOMPARE(run->meta.format, Format::Lava);
    QVERIFY(run->hasArrival && run->arrivalIsWallClock);
    QCOMPARE(run->lines.size(), LineCount(7));
    QCOMPARE(lineText(*run, 0), QByteArray("\x1b[0mU-Boot 2026.01 \"rc\" \xc3\xa9\xc3\xa9\tend"));
    QCOMPARE(lineText(*run, 1),
             QByteArray("[    0.000000] Linux version 6.12.9 (build@lab) #1 SMP"));
    QCOMPARE(lineText(*run, 3), QByteArray("from the other board"));
    QCOMPARE(lineText(*run, 4), QByteArray("two"));
    QCOMPARE(lineText(*run, 5), QByteArray("lines"));
    QCOMPARE(lineText(*run, 6), QByteArray("not an entry")); // kept, with the time before
    QCOMPARE(run->lines.arrival(LineIndex(0)), std::optional(HostNs(1767528001250000000)));
    QCOMPARE(run->lines.arrival(LineIndex(2)), std::optional(HostNs(1767528004500000000)));
    QCOMPARE(run->lines.arrival(LineIndex(6)), std::optional(HostNs(1767528007000000000)));
    QCOMPARE(run->lines.kernelTime(LineIndex(2)), std::optional(KernelUs(1470000)));
    QStringList markers;
    int panics = 0;
    for (const Event &e : run->events) {
        if (e.kind == EventKind::Marker) {
            markers << QString::fromStdString(run->eventText(e).str());
        }
        panics += e.kind == EventKind::Panic ? 1 : 0;
    }
    QCOMPARE(markers, QStringList({QStringLiteral("LAVA info: start: 2 uboot-action"),
                                   QStringLiteral("LAVA sent: bootm 0x80000000\n"),
                                   QStringLiteral("LAVA result: definition: lava, case: job, "
                                                  "result: fail")}));
    QCOMPARE(panics, 1);
    QVERIFY2(
        run->warnings.join(QLatin1Char('\n')).contains(QLatin1String("1 line(s) were not LAVA")),
        qPrintable(run->warnings.join(QLatin1Char('\n'))));
}

void TstLava::sameFiguresAsTheOriginal_data()
{
    QTest::addColumn<QString>("sample");
    QTest::newRow("boot to login") << "boot_login-default-smp2-115200-t1";
    QTest::newRow("panic") << "panic_noroot-smp2-115200-t1";
    QTest::newRow("printk flood with drops") << "spam_rmmod-k612rt-smp4-115200-t1";
}

// The bundled capture, converted to log.yaml, gives the figures of its hostts original:
// lines, drops, lag, the window, the boot time and the panic. Only the markers differ.
void TstLava::sameFiguresAsTheOriginal()
{
    QFETCH(QString, sample);
    const QByteArray hostts =
        zstdDecompressFile(QStringLiteral(TTYSCOPE_SAMPLES "/%1.hostts.log.zst").arg(sample));
    QVERIFY(!hostts.isEmpty());
    QString error;
    const auto a = loadBytes(hostts, LoadOptions{}, &error);
    const auto b = loadBytes(toLava(hostts), LoadOptions{}, &error);
    QVERIFY2(a && b, qPrintable(error));
    QCOMPARE(a->meta.format, Format::HostTs);
    QCOMPARE(b->meta.format, Format::Lava);
    QCOMPARE(b->lines.size(), a->lines.size());
    QVERIFY(b->warnings.isEmpty());
    MetricOptions o;
    o.windowStart = QStringLiteral("harness: insmod");
    const Metrics ma = computeMetrics(*a, o), mb = computeMetrics(*b, o);
    QCOMPARE(mb.lines, ma.lines);
    QCOMPARE(mb.kernelLines, ma.kernelLines);
    QCOMPARE(mb.bytes, ma.bytes);
    QCOMPARE(mb.droppedMessages, ma.droppedMessages);
    QCOMPARE(mb.dropNotices, ma.dropNotices);
    QCOMPARE(mb.duration, ma.duration);
    QCOMPARE(mb.lagMax, ma.lagMax);
    QCOMPARE(mb.lagP99, ma.lagP99);
    QCOMPARE(mb.window.lines, ma.window.lines);
    if (sample.startsWith(QLatin1String("boot_login"))) {
        // LAVA logs a line once its newline came: the prompt glued in front of the
        // poweroff marker ("corpusvm login: [    4.884373] harness: poweroff") was logged
        // with the marker, and when it came is not known (promptAnsweredByLava).
        QVERIFY(ma.bootTime);
        QVERIFY(!mb.bootTime);
        QCOMPARE(mb.bootDoneNote,
                 QStringLiteral("LAVA stamped only the end of the line of 'login:'"));
    } else {
        QCOMPARE(mb.bootTime, ma.bootTime);
    }
    QCOMPARE(mb.panic.detected, ma.panic.detected);
    QCOMPARE(mb.panic.complete, ma.panic.complete);
    for (int k = 0; k < kEventKindCount; ++k) {
        if (EventKind(k) != EventKind::Marker) {
            QCOMPARE(mb.eventCounts[std::size_t(k)], ma.eventCounts[std::size_t(k)]);
        }
    }
    QCOMPARE(mb.eventCounts[std::size_t(EventKind::Marker)],
             ma.eventCounts[std::size_t(EventKind::Marker)] + 4);
}

// LAVA types the user name once it has read the login prompt; its ShellLogger logs the
// prompt's line when the echo's newline came, after the input entry: the input's time is
// the prompt's, within LAVA's reaction. The bundled boot, its prompt answered so.
void TstLava::promptAnsweredByLava()
{
    const QByteArray hostts = zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-default-smp2-115200-t1.hostts.log.zst"));
    QVERIFY(!hostts.isEmpty());
    // Up to the line before the prompt (367 lines); the prompt came at 1796014808.530784.
    const QList<QByteArray> rows = hostts.split('\n');
    QByteArray head;
    for (int i = 0; i < 367; ++i) {
        head += rows[i] + '\n';
    }
    QVERIFY(rows[367].startsWith("1796014808.530784\tcorpusvm login: "));
    const qint64 prompt = 1796014808530784000;
    const QByteArray answer = entry(prompt + 4'000'000, "input", "\"root\\n\"");
    const QByteArray echoed = entry(prompt + 12'000'000, "target", "\"corpusvm login: root\"");
    for (const bool answered : {true, false}) {
        const auto run = loadBytes(toLava(head) + (answered ? answer : QByteArray()) + echoed);
        QVERIFY(run);
        QCOMPARE(run->meta.format, Format::Lava);
        QVERIFY(run->arrivalIsLineEnd);
        const Metrics m = computeMetrics(*run, MetricOptions{});
        QCOMPARE(m.bootDoneLine, std::optional<LineIndex>(LineIndex(367)));
        if (answered) {
            // The capture's 7.230468 s from the first byte, and 4 ms of LAVA's reaction.
            QCOMPARE(qRound64(m.bootTimeFirstByte.value() * 1e6), qint64(7'234'468));
        } else {
            QVERIFY(!m.bootTime);
            QCOMPARE(m.bootDoneNote,
                     QStringLiteral("LAVA stamped only the end of the line of 'login:'"));
        }
    }
}

QTEST_GUILESS_MAIN(TstLava)
#include "tst_lava.moc"
