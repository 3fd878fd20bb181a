// `ttyscope report --sources` (issue 14, "who floods the console") as a user runs it, on
// the bundled captures: the figures are checked against their .truth.json (counted from the
// raw bytes by scripts of their own) and against awk/grep counts of the same files.
#include "../stoppedcapture.h"
#include "clirun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace clitest;

namespace {

QJsonObject truth(const QString &name)
{
    QFile f(sample(name + QStringLiteral(".truth.json")));
    f.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(f.readAll()).object();
}

QJsonObject reportJson(const QStringList &args)
{
    const Result r = ttyscope(QStringList{QStringLiteral("report"), QStringLiteral("-o"),
                                          QStringLiteral("json"), QStringLiteral("--sources")} +
                              args);
    if (r.code != 0) {
        qWarning("exit %d: %s", r.code, r.err.constData());
    }
    return QJsonDocument::fromJson(r.out).object();
}

const QString kFlood = QStringLiteral("spam_rmmod-k612rt-smp4-115200-t1");
const QString kQuiet = QStringLiteral("boot_login-quiet-smp2-115200-t1.hostts.log.zst");
const QString kVerbose = QStringLiteral("boot_login-default-smp2-115200-t1.hostts.log.zst");

// Rows of a text table section that starts with `title`: the lines up to the first line
// that is not indented.
QStringList section(const QByteArray &out, const QString &title)
{
    const QStringList lines = QString::fromUtf8(out).split(u'\n');
    QStringList rows;
    bool in = false;
    for (const QString &l : lines) {
        if (l.startsWith(title)) {
            in = true;
            continue;
        }
        if (in && !l.startsWith(QLatin1String("  "))) {
            break;
        }
        if (in) {
            rows << l;
        }
    }
    return rows;
}

} // namespace

class TstCliSources : public QObject
{
    Q_OBJECT
private slots:
    void floodTopSource_data();
    void floodTopSource();
    void floodFigures();
    void rawTimesAreKernelTimes();
    void kernelLogHasNoWireNorDrops();
    void textAndMarkdown();
    void byPrefix();
    void byCaller();
    void bootShare();
    void usageErrors();
    void aFloodStoppedInItsBacklog();
    void costOfOneMessage();
    void quietAgainstVerboseBoot();
};

// Seed question 1: the top source of a printk flood by wire time is the flood's template,
// with the truth's count of worker lines, and the dropped messages of the truth (all of
// them: the flood is on both sides of every drop).
void TstCliSources::floodTopSource_data()
{
    QTest::addColumn<QString>("name");
    for (const char *n :
         {"spam_rmmod-A_default-smp4-115200-t1", "spam_rmmod-A_default-smp4-115200-t2",
          "spam_rmmod-A_default-smp4-115200-t3", "spam_rmmod-k612rt-smp4-115200-t1",
          "spam_rmmod-k612rt-smp4-115200-t2", "spam_rmmod-k612rt-smp4-115200-t3"}) {
        QTest::newRow(n) << QString::fromLatin1(n);
    }
}

void TstCliSources::floodTopSource()
{
    QFETCH(QString, name);
    const QJsonObject t = truth(name);
    const QJsonObject j = reportJson({sample(name + QStringLiteral(".hostts.log.zst"))});
    const QJsonObject run = j[QLatin1String("runs")][0].toObject();
    const QJsonObject top = run[QLatin1String("sources")][0].toObject();
    QCOMPARE(top[QLatin1String("template")].toString(), QStringLiteral("noise: worker # seq #"));
    QCOMPARE(top[QLatin1String("prefix")].toString(), QStringLiteral("noise"));
    QCOMPARE(top[QLatin1String("lines")].toInteger(), t[QLatin1String("noise_lines")].toInteger());
    QCOMPARE(top[QLatin1String("dropped")].toInteger(),
             t[QLatin1String("dropped_messages_sum")].toInteger());
    const QJsonObject sum = run[QLatin1String("sources_summary")].toObject();
    QCOMPARE(sum[QLatin1String("dropped_unattributed")].toInteger(), 0);
    QCOMPARE(sum[QLatin1String("lines")].toInteger(), t[QLatin1String("lines")].toInteger());
    // 6.12-rt: the drop notices are the second source; they carry no kernel timestamp.
    if (name.contains(QLatin1String("k612rt"))) {
        const QJsonObject second = run[QLatin1String("sources")][1].toObject();
        QCOMPARE(second[QLatin1String("template")].toString(),
                 QStringLiteral("** # printk messages dropped **"));
        QCOMPARE(second[QLatin1String("kernel")].toBool(), false);
        QCOMPARE(second[QLatin1String("lines")].toInteger(),
                 t[QLatin1String("dropped_lines")].toInteger());
    }
}

// The flood's cost, by awk over the capture: 9397 lines of
// `^\[ *[0-9]+\.[0-9]+\] noise: worker [0-9]+ seq [0-9]+$`, 380837 bytes with \r\n; all
// 11365 lines 458896 bytes; 115200 baud, 10 bits a character.
void TstCliSources::floodFigures()
{
    const QJsonObject j = reportJson({sample(kFlood + QStringLiteral(".hostts.log.zst"))});
    const QJsonObject run = j[QLatin1String("runs")][0].toObject();
    const QJsonObject top = run[QLatin1String("sources")][0].toObject();
    QCOMPARE(top[QLatin1String("bytes")].toInteger(), 380837);
    QCOMPARE(top[QLatin1String("wire_s")].toDouble(), 380837 * 10 / 115200.0);
    QCOMPARE(top[QLatin1String("wire_share")].toDouble(), 380837 / 458896.0);
    QCOMPARE(top[QLatin1String("example")].toString(),
             QStringLiteral("[    4.315653] noise: worker 0 seq 0"));
    QCOMPARE(top[QLatin1String("first_line")].toInteger(), 382);
    QCOMPARE(top[QLatin1String("last_line")].toInteger(), 11359);
    // First and last arrival (host seconds minus the first line's 1796016925.254848).
    QCOMPARE(qRound64(top[QLatin1String("first_s")].toDouble() * 1e6), 5434888);
    QCOMPARE(qRound64(top[QLatin1String("last_s")].toDouble() * 1e6), 48383514);
    QCOMPARE(top[QLatin1String("rate")].toDouble(),
             9396 / (top[QLatin1String("last_s")].toDouble() -
                     top[QLatin1String("first_s")].toDouble()));
    const QJsonObject sum = run[QLatin1String("sources_summary")].toObject();
    QCOMPARE(sum[QLatin1String("bytes")].toInteger(), run[QLatin1String("bytes")].toInteger());
    QCOMPARE(sum[QLatin1String("wire_s")].toDouble(), run[QLatin1String("wire_s")].toDouble());
    QCOMPARE(sum[QLatin1String("by")].toString(), QStringLiteral("template"));
    QCOMPARE(sum[QLatin1String("count")].toInteger(), 314);
    // JSON lists the sources with at least 0.1 % of the wire time, and only those.
    const QJsonArray list = run[QLatin1String("sources")].toArray();
    QCOMPARE(sum[QLatin1String("listed")].toInteger(), list.size());
    for (const QJsonValue &s : list) {
        QVERIFY(s[QLatin1String("wire_share")].toDouble() >= 0.001);
    }
    QCOMPARE(list.size(), 5);
}

// The same capture as raw text: first, last and rate are by kernel time (production), which
// must say so. acpiphp's 29 lines came in 2 ms of kernel time (13944 lines/s) and over
// 128 ms on the wire (218 lines/s); without the note the two read as one figure.
void TstCliSources::rawTimesAreKernelTimes()
{
    const QString clock = QStringLiteral("by kernel time, when the lines were produced (the "
                                         "format has no host times: when they were printed is "
                                         "not known)");
    for (const QString &format : {QStringLiteral(".raw.zst"), QStringLiteral(".hostts.log.zst")}) {
        const QJsonObject j = reportJson({sample(kFlood + format)});
        const QJsonObject run = j[QLatin1String("runs")][0].toObject();
        const QJsonValue note =
            run[QLatin1String("sources_summary")][QLatin1String("notes")][QLatin1String("clock")];
        if (format == QLatin1String(".hostts.log.zst")) {
            QVERIFY(note.isNull());
            continue;
        }
        QCOMPARE(note.toString(), clock);
        const QJsonObject top = run[QLatin1String("sources")][0].toObject();
        // The kernel times of its first and last line, [4.315653] and [34.336258].
        QCOMPARE(qRound64(top[QLatin1String("first_s")].toDouble() * 1e6), 4315653);
        QCOMPARE(qRound64(top[QLatin1String("last_s")].toDouble() * 1e6), 34336258);
    }
    Result r = ttyscope({QStringLiteral("report"), QStringLiteral("--sources"),
                         sample(kFlood + QStringLiteral(".raw.zst"))});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.split(u'\n').contains(QStringLiteral("  first/last/rate: ") + clock));
}

// dmesg --json of the same messages as a console that dropped five of them: the kernel's
// log has all seven and none of the console's drop notices, so its drops and wire times are
// n/a with the reason (they read 0 dropped and a time on the wire no console spent).
void TstCliSources::kernelLogHasNoWireNorDrops()
{
    QTemporaryDir dir;
    const QString console = dir.filePath(QStringLiteral("console.log"));
    const QString dmesg = dir.filePath(QStringLiteral("dmesg.json"));
    QFile c(console), d(dmesg);
    QVERIFY(c.open(QIODevice::WriteOnly) && d.open(QIODevice::WriteOnly));
    c.write("[    1.000000] noise: worker 0 seq 1\r\n** 5 printk messages dropped **\r\n"
            "[    1.600000] noise: worker 0 seq 7\r\n");
    d.write("{\n   \"dmesg\": [\n");
    for (int seq = 1; seq <= 7; ++seq) {
        d.write(QStringLiteral("      {\"pri\": 6, \"time\": 1.%1, \"msg\": \"noise: worker 0 seq "
                               "%2\"}%3\n")
                    .arg((seq - 1) * 100000, 6, 10, QLatin1Char('0'))
                    .arg(seq)
                    .arg(seq < 7 ? QStringLiteral(",") : QString())
                    .toUtf8());
    }
    d.write("   ]\n}\n");
    c.close();
    d.close();
    const QJsonObject j = reportJson({console, dmesg});
    const QJsonArray runs = j[QLatin1String("runs")].toArray();
    QCOMPARE(runs.size(), 2);
    const QJsonObject onConsole = runs[0].toObject(), inLog = runs[1].toObject();
    QCOMPARE(onConsole[QLatin1String("sources")][0][QLatin1String("dropped")].toInteger(), 5);
    QCOMPARE(inLog[QLatin1String("format")].toString(), QStringLiteral("dmesg-json"));
    const QJsonObject top = inLog[QLatin1String("sources")][0].toObject();
    QCOMPARE(top[QLatin1String("lines")].toInteger(), 7);
    QVERIFY(top[QLatin1String("dropped")].isNull());
    QVERIFY(top[QLatin1String("wire_s")].isNull());
    const QJsonObject sum = inLog[QLatin1String("sources_summary")].toObject();
    QVERIFY(sum[QLatin1String("wire_s")].isNull());
    QVERIFY(sum[QLatin1String("dropped_attributed")].isNull());
    const QString why = QStringLiteral("a kernel log, not console output");
    QCOMPARE(sum[QLatin1String("notes")][QLatin1String("dropped")].toString(), why);
    QCOMPARE(sum[QLatin1String("notes")][QLatin1String("wire")].toString(), why);
    QCOMPARE(inLog[QLatin1String("drops")][QLatin1String("note")].toString(), why);

    const Result r = ttyscope({QStringLiteral("report"), QStringLiteral("--sources"), dmesg});
    QCOMPARE(r.code, 0);
    const QStringList lines = QString::fromUtf8(r.out).split(u'\n');
    QVERIFY2(lines.contains(QStringLiteral("Sources of dmesg.json, by template: 1 sources, 7 "
                                           "lines")),
             r.out.constData());
    QVERIFY(lines.contains(QStringLiteral("  dropped messages n/a: ") + why));
    QVERIFY(lines.contains(QStringLiteral("  wire time n/a: ") + why));
}

void TstCliSources::textAndMarkdown()
{
    const QString file = sample(kFlood + QStringLiteral(".hostts.log.zst"));
    const QString title = QStringLiteral("Sources of %1.hostts.log.zst, by template: 314 sources, "
                                         "11365 lines, 39.835 s on the wire")
                              .arg(kFlood);
    Result r = ttyscope({QStringLiteral("report"), QStringLiteral("--sources"), file});
    QCOMPARE(r.code, 0);
    QStringList rows = section(r.out, title);
    // The header, 10 sources (the default), the rest, the drops, the boot note.
    QCOMPARE(rows.size(), 1 + 10 + 3);
    QVERIFY(rows[0].contains(QLatin1String("bytes/line")));
    QVERIFY2(rows[1].contains(QLatin1String("33.059  83.0 %")), qPrintable(rows[1]));
    QVERIFY(rows[1].endsWith(QLatin1String("  noise: worker # seq #")));
    QVERIFY(rows[2].endsWith(QLatin1String("[no timestamp] ** # printk messages dropped **")));
    QCOMPARE(rows[11].trimmed(),
             QStringLiteral("304 more sources: 320 lines, 1.884 s on the wire"));
    QCOMPARE(rows[12].trimmed(),
             QStringLiteral("dropped messages: 3881 attributed, 0 not attributed "
                            "(the lines around the drop are of different "
                            "sources)"));
    QCOMPARE(rows[13].trimmed(), QStringLiteral("boot share n/a: no line matches the boot-done "
                                                "pattern (--boot-pattern)"));
    for (const QStringList &args : {QStringList{QStringLiteral("--sources"), QStringLiteral("3")},
                                    QStringList{QStringLiteral("--sources=3")}}) {
        r = ttyscope(QStringList{QStringLiteral("report")} + args + QStringList{file});
        QCOMPARE(r.code, 0);
        rows = section(r.out, title);
        QCOMPARE(rows.size(), 1 + 3 + 3);
        QCOMPARE(rows[4].trimmed(),
                 QStringLiteral("311 more sources: 359 lines, 2.135 s on the wire"));
    }
    r = ttyscope({QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("markdown"),
                  QStringLiteral("--sources"), QStringLiteral("2"), file});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("\n### " + title.toUtf8() + "\n\n| wire s | share |"));
    QVERIFY(r.out.contains("| 9397 | 380837 | 40.5 | 218.8 | 5.435 | 48.384 | 3881 | `noise: "
                           "worker # seq #` |\n"));
}

// By prefix: every kernel line whose message starts with "noise: " (awk: 9401, the 9397
// worker lines and 4 of the module's own).
void TstCliSources::byPrefix()
{
    const QJsonObject j = reportJson({QStringLiteral("--sources-by"), QStringLiteral("prefix"),
                                      sample(kFlood + QStringLiteral(".hostts.log.zst"))});
    const QJsonObject top = j[QLatin1String("runs")][0][QLatin1String("sources")][0].toObject();
    QCOMPARE(top[QLatin1String("prefix")].toString(), QStringLiteral("noise"));
    QCOMPARE(top[QLatin1String("lines")].toInteger(), 9401);
    QCOMPARE(top[QLatin1String("dropped")].toInteger(), 3881);
    QCOMPARE(j[QLatin1String("runs")][0][QLatin1String("sources_summary")][QLatin1String("by")]
                 .toString(),
             QStringLiteral("prefix"));
}

// By caller id, on a 6.12 arm64 WARN with caller ids (grep: 18 lines of [  T123], 2 of
// [    C0]).
void TstCliSources::byCaller()
{
    const QJsonObject j =
        reportJson({QStringLiteral("--sources-by"), QStringLiteral("caller"),
                    QStringLiteral(TTYSCOPE_FIXTURES "/crashes/warn_arm64_612_caller.log")});
    const QJsonArray list = j[QLatin1String("runs")][0][QLatin1String("sources")].toArray();
    QCOMPARE(list.size(), 2);
    QCOMPARE(list[0][QLatin1String("caller")].toString(), QStringLiteral("T123"));
    QCOMPARE(list[0][QLatin1String("lines")].toInteger(), 18);
    QCOMPARE(list[0][QLatin1String("template")].toString(),
             QStringLiteral("------------[ cut here ]------------"));
    QCOMPARE(list[1][QLatin1String("caller")].toString(), QStringLiteral("C0"));
    QCOMPARE(list[1][QLatin1String("lines")].toInteger(), 2);
}

// Boot shares: the wire time of each source up to the boot-done line over the boot time;
// absent, with the reason, when the run has no boot-done line.
void TstCliSources::bootShare()
{
    QJsonObject j = reportJson({sample(kFlood + QStringLiteral(".hostts.log.zst"))});
    QJsonObject run = j[QLatin1String("runs")][0].toObject();
    QVERIFY(run[QLatin1String("sources")][0][QLatin1String("boot_share")].isNull());
    QCOMPARE(
        run[QLatin1String("sources_summary")][QLatin1String("notes")][QLatin1String("boot_share")]
            .toString(),
        QStringLiteral("no line matches the boot-done pattern (--boot-pattern)"));
    j = reportJson({QStringLiteral("--sources"), QStringLiteral("1000"), sample(kVerbose)});
    run = j[QLatin1String("runs")][0].toObject();
    const double bootTime = run[QLatin1String("boot_time_s")].toDouble();
    double wire = 0, share = 0;
    for (const QJsonValue &s : run[QLatin1String("sources")].toArray()) {
        wire += s[QLatin1String("boot_wire_s")].toDouble();
        share += s[QLatin1String("boot_share")].toDouble();
    }
    // The sources' boot wire times add up to the report's own boot_wire_s.
    QCOMPARE(qRound64(wire * 1e9), qRound64(run[QLatin1String("boot_wire_s")].toDouble() * 1e9));
    QCOMPARE(qRound64(share * 1e9), qRound64(wire / bootTime * 1e9));
    QVERIFY(
        run[QLatin1String("sources_summary")][QLatin1String("notes")][QLatin1String("boot_share")]
            .isNull());
}

void TstCliSources::usageErrors()
{
    const QString file = sample(kQuiet);
    for (const QStringList &args :
         {QStringList{QStringLiteral("--sources=0"), file},
          QStringList{QStringLiteral("--sources-by"), QStringLiteral("size"), file},
          QStringList{QStringLiteral("--sources"), QStringLiteral("-o"), QStringLiteral("jsonl"),
                      file},
          QStringList{QStringLiteral("--sources"), QStringLiteral("-o"), QStringLiteral("junit"),
                      file}}) {
        const Result r = ttyscope(QStringList{QStringLiteral("report")} + args);
        QVERIFY2(r.code == 2, qPrintable(args.join(u' ')));
        QVERIFY(r.err.startsWith("ttyscope report: "));
    }
    const Result help = ttyscope({QStringLiteral("report"), QStringLiteral("--help")});
    QVERIFY(help.out.contains("--sources"));
    QVERIFY(help.out.contains("--sources-by <WHAT>"));
}

// Seed question 2: the cost of one message, per occurrence and per cycle. The flood's
// message: 380837 bytes in 9397 lines; a cycle of worker 0 (grep: 2359 lines of
// "noise: worker 0 seq") holds 9397 / 2359 of them.
void TstCliSources::costOfOneMessage()
{
    const QJsonObject j =
        reportJson({QStringLiteral("--interval"), QStringLiteral("noise: worker 0 seq"),
                    sample(kFlood + QStringLiteral(".hostts.log.zst"))});
    const QJsonObject top = j[QLatin1String("runs")][0][QLatin1String("sources")][0].toObject();
    QCOMPARE(top[QLatin1String("bytes_per_line")].toDouble(), 380837 / 9397.0);
    QCOMPARE(top[QLatin1String("wire_s_per_line")].toDouble(), 380837 * 10 / 115200.0 / 9397);
    const QJsonObject cycle = top[QLatin1String("per_cycle")].toObject();
    QCOMPARE(cycle[QLatin1String("pattern")].toString(), QStringLiteral("noise: worker 0 seq"));
    QCOMPARE(cycle[QLatin1String("cycles")].toInteger(), 2359);
    QCOMPARE(cycle[QLatin1String("lines")].toDouble(), 9397 / 2359.0);
    QCOMPARE(cycle[QLatin1String("bytes")].toDouble(), 380837 / 2359.0);
    QCOMPARE(cycle[QLatin1String("wire_s")].toDouble(), 380837 * 10 / 115200.0 / 2359);
}

// Seed question 3: what a verbose boot adds to a quiet one, and how much of its extra boot
// time those sources take on the wire. The quiet boot's 16 lines (read in the file) have
// 11 templates; one of them ("corpusvm login:" on a line of its own) the verbose boot does
// not print, where the prompt shares a line with a kernel message.
void TstCliSources::quietAgainstVerboseBoot()
{
    const QJsonObject j = reportJson(
        {QStringLiteral("--sources"), QStringLiteral("1000"), sample(kQuiet), sample(kVerbose)});
    const QJsonArray runs = j[QLatin1String("runs")].toArray();
    QStringList quiet;
    for (const QJsonValue &s : runs[0][QLatin1String("sources")].toArray()) {
        quiet << s[QLatin1String("template")].toString();
    }
    quiet.sort();
    QCOMPARE(quiet, (QStringList{QString(), QStringLiteral("Booting from ROM..."),
                                 QStringLiteral("Debian GNU/Linux # corpusvm ttyS#"),
                                 QStringLiteral("Press Ctrl-B to configure iPXE (PCI #)..."),
                                 QStringLiteral("c[?#l[#J[#mSeaBIOS (version #-debian-#)"),
                                 QStringLiteral("corpusvm login:"),
                                 QStringLiteral("harness: boot complete"),
                                 QStringLiteral("harness: init start scenario=boot_login ncpu=# "
                                                "kernel=#-amd#"),
                                 QStringLiteral("harness: poweroff"),
                                 QStringLiteral("iPXE (http://ipxe.org) # # PCI# PnP PMM+#+# #"),
                                 QStringLiteral("reboot: Power down")}));
    const int verbose = runs[1][QLatin1String("sources")].toArray().size();
    const QJsonObject diff = j[QLatin1String("sources_diff")].toObject();
    QCOMPARE(diff[QLatin1String("gone")].toInt(), 1);
    QCOMPARE(diff[QLatin1String("new")].toInt(), verbose - 10);
    QCOMPARE(verbose, 291);
    double newWire = 0, sharedWire = 0;
    for (const QJsonValue &d : diff[QLatin1String("list")].toArray()) {
        const QString mark = d[QLatin1String("mark")].toString();
        const double w = d[QLatin1String("b")][QLatin1String("boot_wire_s")].toDouble();
        if (mark == QLatin1String("new")) {
            newWire += w;
        } else {
            sharedWire += w;
        }
        if (mark == QLatin1String("gone")) {
            QCOMPARE(d[QLatin1String("template")].toString(), QStringLiteral("corpusvm login:"));
        }
    }
    // What the new sources took plus what the shared ones took is the verbose boot's whole
    // wire time to its login prompt (the metric boot_wire_s, computed apart from sources).
    const double bootWireB = runs[1][QLatin1String("boot_wire_s")].toDouble();
    QCOMPARE(qRound64((newWire + sharedWire) * 1e9), qRound64(bootWireB * 1e9));
    QCOMPARE(qRound64(diff[QLatin1String("new_boot_wire_s")].toDouble() * 1e9),
             qRound64(newWire * 1e9));
    const double extra = runs[1][QLatin1String("boot_time_s")].toDouble() -
                         runs[0][QLatin1String("boot_time_s")].toDouble();
    QCOMPARE(diff[QLatin1String("extra_boot_s")].toDouble(), extra);
    QCOMPARE(diff[QLatin1String("new_share_of_extra_boot")].toDouble(),
             diff[QLatin1String("new_boot_wire_s")].toDouble() / extra);
    // The figures themselves: 23487 bytes of new sources up to the prompt (2.039 s at 11520
    // bytes/s) against 1.960 s more boot time: the added output alone takes longer on the
    // wire than the boot grew, so it explains all of it.
    QCOMPARE(qRound64(newWire * 11520), 23487);
    QCOMPARE(qRound64(extra * 1e6), 1959885);
    const Result text = ttyscope(
        {QStringLiteral("report"), QStringLiteral("--sources"), sample(kQuiet), sample(kVerbose)});
    QVERIFY(text.out.contains("sources only in B: 281 (only in A: 1); up to boot-done they took "
                              "2.039 s on the wire, of the 1.960 s B took longer to boot "
                              "(104.0 %)"));
}

// The 6.12-rt flood capture's first 6000 lines (a capture stopped in the flood, its console
// 7.369 s behind): grep counts 1518 messages dropped in them; more were dropped in the queue
// it never saw, so the sources' dropped messages are at least what they show.
void TstCliSources::aFloodStoppedInItsBacklog()
{
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("stopped.log")));
    QVERIFY(testcapture::writeFirstLines(sample(kFlood + QStringLiteral(".hostts.log.zst")), 6000,
                                         f.fileName()));
    const QString behind = QStringLiteral("the log ends with the console 7.369 s behind");
    const Result text = ttyscope(
        {QStringLiteral("report"), QStringLiteral("--sources"), QStringLiteral("3"), f.fileName()});
    QCOMPARE(text.code, 0);
    QVERIFY2(QString::fromUtf8(text.out).contains(
                 QStringLiteral("  dropped messages (at least: ") + behind +
                 QStringLiteral("): 1516 attributed, 2 not attributed")),
             text.out.constData());
    const QJsonObject sum = reportJson({f.fileName()})[QLatin1String("runs")][0]
                                .toObject()[QLatin1String("sources_summary")]
                                .toObject();
    QCOMPARE(sum[QLatin1String("dropped_attributed")].toInteger() +
                 sum[QLatin1String("dropped_unattributed")].toInteger(),
             1518);
    QCOMPARE(sum[QLatin1String("notes")][QLatin1String("dropped_at_least")].toString(), behind);
    // The whole capture's are exact.
    const QJsonObject whole1 =
        reportJson({sample(kFlood + QStringLiteral(".hostts.log.zst"))})[QLatin1String("runs")][0]
            .toObject()[QLatin1String("sources_summary")]
            .toObject();
    QVERIFY(whole1[QLatin1String("notes")][QLatin1String("dropped_at_least")].isNull());
}

QTEST_GUILESS_MAIN(TstCliSources)
#include "tst_cli_sources.moc"
