// Logs that end early. The counting window ("lines printed, first 30 s") of a log that ends
// inside it (a capture stopped at the login prompt, a cut file) counts at least (≥), unless
// the kernel said it stopped or another boot followed; a file read only in part counts at
// least what it shows, and what it did not show (no panic, a panic's end) is not known; a
// log that ends with the console behind (a capture stopped in a flood) never saw the
// console's queue: its lag max, drops and events are at least what it shows, and a crash
// may have been queued. Built from the bundled real captures.
#include "gate.h"
#include "report.h"
#include "tst_helpers.h"

#include <QJsonArray>
#include <QtTest>

using namespace tty;
using namespace testutil;

namespace {
const QString kBootLogin =
    QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-default-smp2-115200-t1.hostts.log.zst");

// The capture up to and including its first line holding `pattern`, as grabserial's
// --quitpat or a lab's "wait for the prompt, then stop" leaves it.
QByteArray upToFirst(const QByteArray &log, const QByteArray &pattern)
{
    const qsizetype at = log.indexOf(pattern);
    const qsizetype end = log.indexOf('\n', at);
    return at < 0 || end < 0 ? QByteArray() : log.left(end + 1);
}

// Each host stamp of a hostts log moved by `seconds`.
QByteArray shifted(const QByteArray &hostts, double seconds)
{
    QByteArray out;
    for (const QByteArray &line : hostts.split('\n')) {
        const qsizetype tab = line.indexOf('\t');
        if (tab < 0) {
            continue;
        }
        out +=
            QByteArray::number(line.left(tab).toDouble() + seconds, 'f', 6) + line.mid(tab) + '\n';
    }
    return out;
}

ReportColumn columnOf(const QString &label, const std::vector<const Run *> &runs,
                      const std::vector<std::optional<int>> &boots, const QStringList &files,
                      const MetricOptions &o = MetricOptions{})
{
    ReportColumn c;
    c.label = label;
    c.runs = runs;
    c.boots = boots;
    c.files = files;
    for (std::size_t k = 0; k < runs.size(); ++k) {
        if (boots[k]) {
            const auto &b = runs[k]->boots[std::size_t(*boots[k])];
            c.metrics.push_back(computeMetrics(*runs[k], o, b.first, b.end));
        } else {
            c.metrics.push_back(computeMetrics(*runs[k], o));
        }
    }
    return c;
}

// A report of one run alone, as `ttyscope report FILE` gives it.
Report reportOf(const Run &run, const QString &file)
{
    return Report({columnOf(QStringLiteral("6.1"), {&run}, {std::nullopt}, {file})},
                  MetricOptions{});
}

// An object of the report's first run in JSON ("window", "panic").
QJsonObject firstRunJson(const Report &rep, const char *key)
{
    return rep.json()
        .value(QLatin1String("runs"))
        .toArray()[0]
        .toObject()
        .value(QLatin1String(key))
        .toObject();
}

// The 6.1 flood capture's first 60000 bytes: its zstd frame cut, 6700 lines read.
std::unique_ptr<Run> cutFlood(Files *files, QString *error)
{
    QFile in(
        QStringLiteral(TTYSCOPE_SAMPLES "/spam_rmmod-A_default-smp4-115200-t1.hostts.log.zst"));
    if (!in.open(QIODevice::ReadOnly)) {
        *error = in.errorString();
        return nullptr;
    }
    return loadRun(files->write(QStringLiteral("cut.log.zst"), in.read(60000)), LoadOptions{},
                   error);
}

// The first `lines` lines of a bundled capture's hostts log, as a capture stopped there
// (Ctrl-C on grabserial) leaves it: whole lines, nothing read in part.
QByteArray firstLines(const QString &name, int lines)
{
    const QByteArray log = zstdDecompressFile(QStringLiteral(TTYSCOPE_SAMPLES "/") + name);
    qsizetype end = -1;
    for (int i = 0; i < lines && end + 1 < log.size(); ++i) {
        end = log.indexOf('\n', end + 1);
    }
    return log.left(end + 1);
}

// Each check of a gate as "CONDITION holds|fails|unchecked DETAIL".
QStringList gateOf(const Report &rep, const QStringList &specs)
{
    std::vector<GateCondition> conditions;
    QString error;
    std::vector<GateCheck> checks;
    if (!parseGateConditions(specs, &conditions, &error) ||
        !checkGate(rep, conditions, &checks, &error)) {
        return {error};
    }
    QStringList seen;
    for (const GateCheck &c : checks) {
        seen << QStringLiteral("%1 %2 %3")
                    .arg(c.condition->text,
                         c.unchecked ? QStringLiteral("unchecked")
                         : c.holds   ? QStringLiteral("holds")
                                     : QStringLiteral("fails"),
                         c.detail);
    }
    return seen;
}

const ReportRow &rowOf(const Report &rep, const QString &key)
{
    for (const ReportRow &r : rep.rows()) {
        if (r.key == key) {
            return r;
        }
    }
    qFatal("no row %s", qPrintable(key));
}
} // namespace

class TstWindow : public QObject
{
    Q_OBJECT
private slots:
    void aCaptureStoppedAtTheLoginPrompt();
    void wholeCapturesAreExact();
    void aBootFollowedByAnother();
    void aCutFile();
    void noSideIsBetterAgainstALowerBound();
    void aGateOnALowerBound();
    void aFileReadOnlyInPart();
    void noPanicInWhatWasRead();
    void aCaptureStoppedInAFlood();
    void aCrashStillQueued();
};

void TstWindow::aCaptureStoppedAtTheLoginPrompt()
{
    // The real boot's capture ends at its login prompt 7.23 s in; the whole one goes on to
    // the harness's power-off.
    const QByteArray log = upToFirst(zstdDecompressFile(kBootLogin), "login: ");
    const auto run = loadBytes(log);
    QVERIFY(run);
    const Report rep = reportOf(*run, QStringLiteral("stop-at-login.log"));
    const Metrics &m = *rep.trialMetrics(0, 0);
    QCOMPARE(m.window.lines, 368);
    QCOMPARE(m.window.produced, 357);
    QVERIFY(m.window.printedSeenSeconds && m.window.producedSeenSeconds);
    QCOMPARE(QString::number(*m.window.printedSeenSeconds, 'f', 6), QStringLiteral("7.230468"));
    QCOMPARE(rep.cell(rowOf(rep, QStringLiteral("window.lines")), 0), QStringLiteral("≥368"));
    QCOMPARE(rep.cell(rowOf(rep, QStringLiteral("window.produced")), 0), QStringLiteral("≥357"));
    QCOMPARE(rep.cell(rowOf(rep, QStringLiteral("window.wire_s")), 0), QStringLiteral("≥≈2.083"));
    // Figures of the whole capture are what it holds, not bounds of a window.
    QCOMPARE(rep.cell(rowOf(rep, QStringLiteral("lines")), 0), QStringLiteral("368"));
    QCOMPARE(rep.footnotes().split(QLatin1Char('\n')).front(),
             QStringLiteral("≥: at least. stop-at-login.log ends inside the 30 s window (7.230 s "
                            "of it seen by arrival, 8.116 s by kernel time) without the kernel "
                            "saying it stopped (a power-off, reboot or end of a panic): what "
                            "came after was not seen."));
    const QJsonObject win = firstRunJson(rep, "window");
    QCOMPARE(win.value(QLatin1String("lines")).toDouble(), 368.0);
    QCOMPARE(win.value(QLatin1String("lines_at_least")), QJsonValue(true));
    QCOMPARE(win.value(QLatin1String("produced_at_least")), QJsonValue(true));
    QCOMPARE(win.value(QLatin1String("note")).toString(),
             QStringLiteral("the log ends inside the window without the kernel saying it "
                            "stopped (seen: 7.230 s by arrival, 8.116 s by kernel time): its "
                            "counts are lower bounds"));
}

void TstWindow::wholeCapturesAreExact()
{
    // Each bundled capture, in every format, ends with the kernel's power-off or the end of
    // its panic; the boots and the panic end inside the first 30 s: no bound.
    const QDir dir(QStringLiteral(TTYSCOPE_SAMPLES));
    const QStringList files = dir.entryList({QStringLiteral("*.zst")});
    QCOMPARE(files.size(), 24);
    for (const QString &f : files) {
        QString error;
        const auto run = loadRun(dir.filePath(f), LoadOptions{}, &error);
        QVERIFY2(run, qPrintable(error));
        const Report rep = reportOf(*run, f);
        const WindowResult &w = rep.trialMetrics(0, 0)->window;
        QVERIFY2(!w.printedSeenSeconds && !w.producedSeenSeconds, qPrintable(f));
        QVERIFY2(!rep.text().contains(QStringLiteral("≥")), qPrintable(f));
        QVERIFY2(!rep.trialMetrics(0, 0)->behindAtEnd, qPrintable(f));
    }
}

void TstWindow::aBootFollowedByAnother()
{
    // Two boots in one file, each stopped at its prompt: the first was followed by the
    // second (a reset says no word), so nothing of its is missing; the second, the file's
    // last, ran on unseen.
    const QByteArray boot = upToFirst(zstdDecompressFile(kBootLogin), "login: ");
    const auto run = loadBytes(boot + shifted(boot, 100));
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(2));
    const Report rep({columnOf(QStringLiteral("6.1"), {run.get(), run.get()}, {0, 1},
                               {QStringLiteral("two.log"), QStringLiteral("two.log")})},
                     MetricOptions{});
    QVERIFY(!rep.trialMetrics(0, 0)->window.printedSeenSeconds);
    QVERIFY(!rep.trialMetrics(0, 0)->window.producedSeenSeconds);
    QVERIFY(rep.trialMetrics(0, 1)->window.printedSeenSeconds);
    QCOMPARE(rep.cell(rowOf(rep, QStringLiteral("window.lines")), 0),
             QStringLiteral("≥368.0 ± 0.0 (n=2)"));
    QVERIFY(rep.footnotes().startsWith(QStringLiteral("≥: at least. two.log (boot 2) ends")));
}

void TstWindow::aCutFile()
{
    // Cut 60000 bytes into its zstd frame, the spam run's log reaches 37.6 s of host time
    // but only 25.9 s of kernel time: its printed lines are counted over the whole window,
    // the lines produced in it are not.
    Files files;
    QString error;
    const auto run = cutFlood(&files, &error);
    QVERIFY2(run, qPrintable(error));
    QVERIFY(run->load.readInPart());
    const Report rep = reportOf(*run, QStringLiteral("cut.log.zst"));
    QCOMPARE(rep.cell(rowOf(rep, QStringLiteral("window.lines")), 0), QStringLiteral("5088"));
    QCOMPARE(rep.cell(rowOf(rep, QStringLiteral("window.produced")), 0), QStringLiteral("≥6691"));
    const QStringList notes = rep.footnotes().split(QLatin1Char('\n'));
    QVERIFY(notes[0].startsWith(QStringLiteral("cut.log.zst was read only in part")));
    QCOMPARE(notes[1], QStringLiteral("≥: at least. cut.log.zst ends inside the 30 s window "
                                      "(29.062 s of it seen by kernel time) without the kernel "
                                      "saying it stopped (a power-off, reboot or end of a panic): "
                                      "what came after was not seen."));
}

void TstWindow::noSideIsBetterAgainstALowerBound()
{
    // A throughput window (from the module's load) has a direction: more lines printed is
    // better. Three whole runs against the same three cut 20 s after the load print far
    // fewer lines, at least; that is the cut, not the kernel, and no side wins.
    MetricOptions o;
    o.windowStart = QStringLiteral("harness: insmod");
    std::vector<std::unique_ptr<Run>> whole, cut;
    Files files;
    for (int t = 1; t <= 3; ++t) {
        const QString name =
            QStringLiteral("spam_rmmod-A_default-smp4-115200-t%1.hostts.log.zst").arg(t);
        const QByteArray log = zstdDecompressFile(QStringLiteral(TTYSCOPE_SAMPLES "/") + name);
        QString error;
        whole.push_back(loadBytes(log));
        // 20 s of host time after the load.
        const qsizetype insmod = log.indexOf("harness: insmod");
        const double t0 = log.mid(log.lastIndexOf('\n', insmod) + 1, 17).toDouble();
        QByteArray kept;
        for (const QByteArray &line : log.split('\n')) {
            if (!line.isEmpty() && line.left(17).toDouble() <= t0 + 20) {
                kept += line + '\n';
            }
        }
        cut.push_back(loadBytes(kept));
        QVERIFY(whole.back() && cut.back());
    }
    auto column = [&](const QString &label, const std::vector<std::unique_ptr<Run>> &runs) {
        std::vector<const Run *> r;
        for (const auto &run : runs) {
            r.push_back(run.get());
        }
        return columnOf(label, r, {std::nullopt, std::nullopt, std::nullopt},
                        {QStringLiteral("t1"), QStringLiteral("t2"), QStringLiteral("t3")}, o);
    };
    const Report rep({column(QStringLiteral("whole"), whole), column(QStringLiteral("cut"), cut)},
                     o);
    const ReportRow &lines = rowOf(rep, QStringLiteral("window.lines"));
    QCOMPARE(lines.better, ReportRow::Better::Higher);
    QVERIFY(!lines.atLeast[0]);
    QVERIFY(lines.atLeast[1]);
    const Difference d = rep.difference(lines);
    QVERIFY(d.significant() && d.diff < 0);
    QCOMPARE(rep.better(lines), 0);
    QVERIFY2(!rep.diffCell(lines).contains(QStringLiteral("better")),
             qPrintable(rep.diffCell(lines)));
}

void TstWindow::aGateOnALowerBound()
{
    // At least 368 lines: more than 300 for sure, not fewer than 300, and nothing known of
    // 400 or of exactly 368.
    const auto run = loadBytes(upToFirst(zstdDecompressFile(kBootLogin), "login: "));
    QVERIFY(run);
    const Report rep = reportOf(*run, QStringLiteral("stop-at-login.log"));
    const QStringList specs{
        QStringLiteral("window.lines>300"),   QStringLiteral("window.lines>400"),
        QStringLiteral("window.lines<300"),   QStringLiteral("window.lines<=400"),
        QStringLiteral("window.lines==368"),  QStringLiteral("window.lines!=100"),
        QStringLiteral("window.lines==null"), QStringLiteral("lines>=368")};
    const QStringList seen = gateOf(rep, specs);
    const QString bound = QStringLiteral("window.lines ≥ 368 (the log ends inside the window)");
    QCOMPARE(seen, (QStringList{QStringLiteral("window.lines>300 holds ") + bound,
                                QStringLiteral("window.lines>400 unchecked ") + bound,
                                QStringLiteral("window.lines<300 fails ") + bound,
                                QStringLiteral("window.lines<=400 unchecked ") + bound,
                                QStringLiteral("window.lines==368 unchecked ") + bound,
                                QStringLiteral("window.lines!=100 holds ") + bound,
                                QStringLiteral("window.lines==null fails window.lines = 368"),
                                QStringLiteral("lines>=368 holds lines = 368")}));
}

void TstWindow::aFileReadOnlyInPart()
{
    // The panic_noroot capture as two zstd frames, its first 360 lines and the other 10, the
    // second cut in its middle: the panic (line 355) was read, its end marker (370) not.
    const QByteArray log = zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/panic_noroot-smp2-115200-t1.hostts.log.zst"));
    qsizetype split = -1;
    for (int i = 0; i < 360; ++i) {
        split = log.indexOf('\n', split + 1);
    }
    const QByteArray second = zstdCompress(log.mid(split + 1));
    Files files;
    QString error;
    const auto run =
        loadRun(files.write(QStringLiteral("cut.log.zst"),
                            zstdCompress(log.left(split + 1)) + second.left(second.size() / 2)),
                LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    QVERIFY(run->load.readInPart());
    const Report rep = reportOf(*run, QStringLiteral("cut.log.zst"));
    QVERIFY(rep.trialMetrics(0, 0)->cutShort);
    const QStringList keys{QStringLiteral("lines"),
                           QStringLiteral("boots"),
                           QStringLiteral("drops.messages"),
                           QStringLiteral("lag.max_s"),
                           QStringLiteral("lag.p50_s"),
                           QStringLiteral("panic.detected"),
                           QStringLiteral("panic.trace_complete")};
    QStringList cells;
    for (const QString &k : keys) {
        cells << rep.cell(rowOf(rep, k), 0);
    }
    // A median is not a count: it may go either way past the cut.
    QCOMPARE(cells,
             (QStringList{QStringLiteral("≥360"), QStringLiteral("≥1"), QStringLiteral("≥0"),
                          QStringLiteral("≥0.646"), QStringLiteral("0.164"), QStringLiteral("yes"),
                          QStringLiteral("n/a (the file was read only in part, after it)")}));
    const QJsonObject panic = firstRunJson(rep, "panic");
    QVERIFY(panic.value(QLatin1String("trace_complete")).isNull());
    QCOMPARE(panic.value(QLatin1String("trace_note")).toString(),
             QStringLiteral("the file was read only in part, after the panic"));
    QCOMPARE(panic.value(QLatin1String("missing")).toArray(),
             QJsonArray{QStringLiteral("end marker")});

    // As one boot of two, boots as trials: the first boot, whole before the cut, is exact.
    const auto two = loadRun(files.write(QStringLiteral("two.log.zst"),
                                         zstdCompress(log) + zstdCompress(log.left(split + 1)) +
                                             second.left(second.size() / 2)),
                             LoadOptions{}, &error);
    QVERIFY2(two && two->boots.size() == 2, qPrintable(error));
    const Report boots({columnOf(QStringLiteral("A"), {two.get()}, {0}, {QStringLiteral("two")}),
                        columnOf(QStringLiteral("B"), {two.get()}, {1}, {QStringLiteral("two")})},
                       MetricOptions{});
    QCOMPARE(boots.cell(rowOf(boots, QStringLiteral("lines")), 0), QStringLiteral("370"));
    QCOMPARE(boots.cell(rowOf(boots, QStringLiteral("panic.trace_complete")), 0),
             QStringLiteral("yes"));
    QCOMPARE(boots.cell(rowOf(boots, QStringLiteral("lines")), 1), QStringLiteral("≥360"));
}

void TstWindow::noPanicInWhatWasRead()
{
    // The flood capture cut 60000 bytes into its frame has no panic in its 6700 lines: that
    // is not "no panic".
    Files files;
    QString error;
    const auto run = cutFlood(&files, &error);
    QVERIFY2(run, qPrintable(error));
    const Report rep = reportOf(*run, QStringLiteral("cut.log.zst"));
    QCOMPARE(rep.cell(rowOf(rep, QStringLiteral("panic.detected")), 0),
             QStringLiteral("n/a (none in what was read; the file was read only in part)"));
    QCOMPARE(rep.cell(rowOf(rep, QStringLiteral("panic.trace_complete")), 0),
             QStringLiteral("n/a (no panic in what was read)"));
    // So with a login prompt.
    QCOMPARE(rep.cell(rowOf(rep, QStringLiteral("boot_time_s")), 0),
             QStringLiteral("n/a (no 'login:' in what was read)"));
    const QJsonObject panic = firstRunJson(rep, "panic");
    QCOMPARE(panic.value(QLatin1String("detected")), QJsonValue(false));
    QCOMPARE(panic.value(QLatin1String("note")).toString(),
             QStringLiteral("none in what was read; the file was read only in part"));
    std::vector<GateCondition> conditions;
    QVERIFY(
        parseGateConditions({QStringLiteral("panic,crash,drops.messages>0")}, &conditions, &error));
    std::vector<GateCheck> checks;
    QVERIFY(checkGate(rep, conditions, &checks, &error));
    QCOMPARE(checks.size(), std::size_t(3));
    for (const GateCheck &c : checks) {
        QVERIFY2(c.unchecked && !c.holds, qPrintable(c.detail));
    }
    QCOMPARE(checks[0].detail, QStringLiteral("0 panic events in what was read; the file was "
                                              "read only in part"));
    QCOMPARE(checks[2].detail,
             QStringLiteral("drops.messages ≥ 0 (the file was read only in part)"));
    // In a group the trial is counted apart, not silently left out.
    const auto whole = loadRun(
        QStringLiteral(TTYSCOPE_SAMPLES "/spam_rmmod-A_default-smp4-115200-t2.hostts.log.zst"),
        LoadOptions{}, &error);
    QVERIFY2(whole, qPrintable(error));
    const Report group(
        {columnOf(QStringLiteral("A"), {whole.get(), run.get()}, {std::nullopt, std::nullopt},
                  {QStringLiteral("t2"), QStringLiteral("cut.log.zst")})},
        MetricOptions{});
    QCOMPARE(group.cell(rowOf(group, QStringLiteral("panic.detected")), 0),
             QStringLiteral("0/1 (1 read in part)"));
}

void TstWindow::aCaptureStoppedInAFlood()
{
    // The 6.12-rt flood capture stopped at its 6000th line, 19.5 s of kernel time into its
    // run, its console 7.369426 s behind (awk over the hostts: arrival − kernel time − the
    // smallest such difference, of its last stamped line). grep counts 621 drop notices and
    // 1518 messages in it, the whole capture 1580 and 3881: the rest came later.
    const auto run = loadBytes(
        firstLines(QStringLiteral("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst"), 6000));
    QVERIFY(run);
    const Report rep = reportOf(*run, QStringLiteral("stopped.log"));
    const Metrics &m = *rep.trialMetrics(0, 0);
    QVERIFY(!m.cutShort && m.behindAtEnd);
    QCOMPARE(QString::number(*m.behindAtEnd, 'f', 6), QStringLiteral("7.369426"));
    QStringList cells;
    for (const char *k : {"lines", "drops.notices", "drops.messages", "lag.max_s", "lag.p50_s",
                          "events.boot", "panic.detected", "panic.trace_complete"}) {
        cells << rep.cell(rowOf(rep, QLatin1String(k)), 0);
    }
    // The lines are the capture's own; a median of the lags seen is not a bound.
    QCOMPARE(cells,
             (QStringList{QStringLiteral("6000"), QStringLiteral("≥621"), QStringLiteral("≥1518"),
                          QStringLiteral("≥7.634"), QStringLiteral("4.170"), QStringLiteral("≥1"),
                          QStringLiteral("n/a (none seen; the log ends with the console behind)"),
                          QStringLiteral("n/a (no panic seen)")}));
    // After the window's note (it ends inside the window too), the sign explained once.
    const QStringList notes = rep.footnotes().split(QLatin1Char('\n'));
    QVERIFY(notes[0].startsWith(QStringLiteral("≥: at least. stopped.log ends inside the 30 s")));
    QCOMPARE(notes[1], QStringLiteral(
                           "stopped.log ends with its console 7.369 s behind (its last kernel line "
                           "came that long after it was produced) without the kernel saying it "
                           "stopped: the messages still queued, and the notices of any dropped "
                           "among them, were not seen. Its lag max and drops are at least what "
                           "they show, and a crash may have been queued."));
    const QJsonObject lag = firstRunJson(rep, "lag");
    QCOMPARE(lag.value(QLatin1String("behind_at_end_s")).toDouble(), 7.369426);
    QCOMPARE(lag.value(QLatin1String("max_s")).toDouble(), 7.633785);
    QCOMPARE(lag.value(QLatin1String("p50_s")).toDouble(), 4.169709);
    QCOMPARE(lag.value(QLatin1String("max_at_least")), QJsonValue(true));
    const QJsonObject drops = firstRunJson(rep, "drops");
    QCOMPARE(drops.value(QLatin1String("messages")).toDouble(), 1518.0);
    QCOMPARE(drops.value(QLatin1String("at_least")), QJsonValue(true));
    QCOMPARE(drops.value(QLatin1String("note")).toString(),
             QStringLiteral("the log ends with the console 7.369 s behind"));
    QVERIFY(firstRunJson(rep, "panic").value(QLatin1String("trace_complete")).isNull());

    // Against the three whole captures, the stopped one drops fewer and lags less: that is
    // the queue it never saw, and no side is called better.
    std::vector<std::unique_ptr<Run>> whole;
    std::vector<const Run *> runs;
    for (int t = 1; t <= 3; ++t) {
        whole.push_back(loadBytes(zstdDecompressFile(
            QStringLiteral(TTYSCOPE_SAMPLES "/spam_rmmod-k612rt-smp4-115200-t%1.hostts.log.zst")
                .arg(t))));
        QVERIFY(whole.back());
        QVERIFY(!computeMetrics(*whole.back(), MetricOptions{}).behindAtEnd);
        runs.push_back(whole.back().get());
    }
    std::vector<std::unique_ptr<Run>> stopped;
    for (int t = 2; t <= 3; ++t) {
        stopped.push_back(loadBytes(firstLines(
            QStringLiteral("spam_rmmod-k612rt-smp4-115200-t%1.hostts.log.zst").arg(t), 6000)));
        QVERIFY(stopped.back());
    }
    const Report cmp(
        {columnOf(QStringLiteral("whole"), runs, {std::nullopt, std::nullopt, std::nullopt},
                  {QStringLiteral("t1"), QStringLiteral("t2"), QStringLiteral("t3")}),
         columnOf(QStringLiteral("stopped"), {run.get(), stopped[0].get(), stopped[1].get()},
                  {std::nullopt, std::nullopt, std::nullopt},
                  {QStringLiteral("s1"), QStringLiteral("s2"), QStringLiteral("s3")})},
        MetricOptions{});
    for (const char *k : {"drops.messages", "lag.max_s"}) {
        const ReportRow &row = rowOf(cmp, QLatin1String(k));
        QVERIFY(!row.atLeast[0] && row.atLeast[1]);
        const Difference d = cmp.difference(row);
        QVERIFY2(d.significant() && d.diff < 0, k);
        QCOMPARE(cmp.better(row), 0);
    }
    QCOMPARE(cmp.cell(rowOf(cmp, QStringLiteral("panic.detected")), 1),
             QStringLiteral("n/a (none seen; the log ends with the console behind)"));
}

void TstWindow::aCrashStillQueued()
{
    // The crash capture stopped at its 8700th line, 0.24 s before its panic came out: the
    // sysrq crash (kernel time 30.699) had happened 12.7 s before, behind the queue of the
    // task-state floods. The whole capture ends with the panic's end, 13.179 s behind, and
    // is exact.
    const QString name = QStringLiteral("blast_crash-smp2-115200-t1.hostts.log.zst");
    const auto run = loadBytes(firstLines(name, 8700));
    QVERIFY(run);
    const Report rep = reportOf(*run, QStringLiteral("stopped.log"));
    QCOMPARE(QString::number(rep.trialMetrics(0, 0)->behindAtEnd.value_or(-1), 'f', 6),
             QStringLiteral("12.727974"));
    QCOMPARE(rep.cell(rowOf(rep, QStringLiteral("panic.detected")), 0),
             QStringLiteral("n/a (none seen; the log ends with the console behind)"));
    const QString behind = QStringLiteral("the log ends with the console 12.728 s behind");
    QCOMPARE(gateOf(rep, {QStringLiteral("panic,crash,drop,drops.messages>1000,lag.max_s>20,"
                                         "lag.max_s<5,lines>8000")}),
             (QStringList{QStringLiteral("panic unchecked 0 panic events seen; ") + behind +
                              QStringLiteral(", its queue unseen"),
                          QStringLiteral("crash unchecked 0 crash reports seen; ") + behind +
                              QStringLiteral(", its queue unseen"),
                          QStringLiteral("drop holds 319 drop events, the first at line 3978"),
                          QStringLiteral("drops.messages>1000 holds drops.messages ≥ 1330 (") +
                              behind + QStringLiteral(")"),
                          QStringLiteral("lag.max_s>20 unchecked lag.max_s ≥ 12.728 (") + behind +
                              QStringLiteral(")"),
                          QStringLiteral("lag.max_s<5 fails lag.max_s ≥ 12.728 (") + behind +
                              QStringLiteral(")"),
                          QStringLiteral("lines>8000 holds lines = 8700")}));

    QString error;
    const auto whole = loadRun(QStringLiteral(TTYSCOPE_SAMPLES "/") + name, LoadOptions{}, &error);
    QVERIFY2(whole, qPrintable(error));
    const Report full = reportOf(*whole, name);
    QVERIFY(!full.trialMetrics(0, 0)->behindAtEnd);
    QCOMPARE(full.cell(rowOf(full, QStringLiteral("lag.max_s")), 0), QStringLiteral("13.179"));
    QCOMPARE(full.cell(rowOf(full, QStringLiteral("panic.trace_complete")), 0),
             QStringLiteral("yes"));

    // Had its recording said that the capture ran 20 s more (its `E` record, as
    // tst_live_headless checks the real recorder writes it), the console stopped printing
    // with its queue: a kernel or console that hung, not a capture stopped too soon.
    std::unique_ptr<Run> hung = loadBytes(firstLines(name, 8700));
    QVERIFY(hung);
    hung->captureEnd =
        *hung->lines.arrival(hung->lines.endIndex() - 1_lines) + Nanoseconds(20'000'000'000);
    QCOMPARE(reportOf(*hung, QStringLiteral("hung.log")).footnotes().split(u'\n').front(),
             QStringLiteral("≥: at least. hung.log's console stopped printing 12.728 s behind "
                            "(its last kernel line came that long after it was produced), and "
                            "the capture ran 20.000 s more without a line: what was queued never "
                            "came out (the kernel hung, or its console did). Its lag max and "
                            "drops are at least what they show, and a crash may have been among "
                            "what was queued."));
    // Half a second more is a capture stopped in the flood, as before.
    hung->captureEnd =
        *hung->lines.arrival(hung->lines.endIndex() - 1_lines) + Nanoseconds(500'000'000);
    QVERIFY(reportOf(*hung, QStringLiteral("hung.log"))
                .footnotes()
                .startsWith(QStringLiteral("≥: at least. hung.log ends with its console 12.728 s "
                                           "behind")));
}

QTEST_GUILESS_MAIN(TstWindow)
#include "tst_window.moc"
