// `ttyscope report` and `ttyscope cat` as a user runs them.
#include "clirun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <zstd.h>

using namespace clitest;

namespace {

QByteArray record(char type, qint64 wall, qint64 mono, const QByteArray &payload)
{
    return QByteArray(1, type) + ' ' + QByteArray::number(wall) + ' ' + QByteArray::number(mono) +
           ' ' + QByteArray::number(payload.size()) + '\n' + payload + '\n';
}

QByteArray zstd(const QByteArray &in)
{
    QByteArray out(qsizetype(ZSTD_compressBound(std::size_t(in.size()))), Qt::Uninitialized);
    out.resize(qsizetype(ZSTD_compress(out.data(), std::size_t(out.size()), in.constData(),
                                       std::size_t(in.size()), 3)));
    return out;
}

} // namespace

class TstCli : public QObject
{
    Q_OBJECT
private slots:
    void reportJson();
    void reportRawAgainstHostts();
    void reportBootsOfOneCapture();
    void reportUnreadable();
    void reportPerColumnOptions();
    void reportBaudPerColumn();
    void catRecordingExact();
    void catTimes();
    void catConsoleBytesExact();
};

// The same capture in both formats: every figure of the raw one equals the hostts one or
// is null; none is a number from another clock.
void TstCli::reportRawAgainstHostts()
{
    const Result r = ttyscope({QStringLiteral("report"), QStringLiteral("-o"),
                               QStringLiteral("json"), QStringLiteral("--window-start"),
                               QStringLiteral("harness: insmod"), QStringLiteral("--window-match"),
                               QStringLiteral("noise: worker"), QStringLiteral("--span"),
                               QStringLiteral("harness: rmmod=>noise: all workers stopped"),
                               sample("spam_rmmod-k612rt-smp4-115200-t1.raw.zst"),
                               sample("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst")});
    QCOMPARE(r.code, 0);
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    const QJsonObject groups0 = j[QLatin1String("groups")][0][QLatin1String("metrics")].toObject();
    const QJsonObject groups1 = j[QLatin1String("groups")][1][QLatin1String("metrics")].toObject();
    const QJsonObject diff = j[QLatin1String("diff")].toObject();
    int same = 0, absent = 0;
    for (auto it = groups0.begin(); it != groups0.end(); ++it) {
        const QJsonValue raw = it.value()[QLatin1String("mean")];
        const QJsonValue hostts = groups1[it.key()][QLatin1String("mean")];
        if (raw.isNull()) {
            ++absent;
            QVERIFY2(!diff.contains(it.key()), qPrintable(it.key())); // no B - A, no better
            continue;
        }
        // Only bytes (and the wire time from them) may differ: hostts does not keep line
        // ends, so its figure is marked as an estimate.
        if (it.key() == QLatin1String("bytes") || it.key() == QLatin1String("wire_s")) {
            QVERIFY(std::fabs(raw.toDouble() - hostts.toDouble()) < 1e-4 * raw.toDouble());
            continue;
        }
        QVERIFY2(raw == hostts, qPrintable(QStringLiteral("%1: raw %2, hostts %3")
                                               .arg(it.key())
                                               .arg(raw.toDouble())
                                               .arg(hostts.toDouble())));
        ++same;
    }
    QVERIFY(same >= 12);
    QVERIFY(absent >= 8);
    for (const char *key :
         {"duration_s", "lag.max_s", "window.lines", "spans.0.seconds", "window.wire_s"}) {
        QVERIFY2(groups0[QLatin1String(key)][QLatin1String("mean")].isNull(), key);
        QVERIFY2(!groups1[QLatin1String(key)][QLatin1String("mean")].isNull(), key);
    }
    QCOMPARE(groups0[QLatin1String("window.produced")][QLatin1String("mean")].toInt(), 13258);
    QCOMPARE(groups0[QLatin1String("spans.0.kernel_seconds")][QLatin1String("mean")].toDouble(),
             34.34076 - 34.329956);
    const QJsonObject run0 = j[QLatin1String("runs")][0].toObject();
    QCOMPARE(run0[QLatin1String("bytes")].toInt(), 458892); // truth: bytes_total
    QCOMPARE(run0[QLatin1String("bytes_exact")].toBool(), true);
    QCOMPARE(j[QLatin1String("runs")][1][QLatin1String("bytes_exact")].toBool(), false);

    // The text says why, and a pattern that matches nothing is named.
    const Result t = ttyscope({QStringLiteral("report"), QStringLiteral("--window-start"),
                               QStringLiteral("no such line"),
                               sample("spam_rmmod-k612rt-smp4-115200-t1.raw.zst")});
    QCOMPARE(t.code, 0);
    QByteArray lagRow;
    for (const QByteArray &l : t.out.split('\n')) {
        lagRow = l.startsWith("console lag max") ? l.simplified() : lagRow;
    }
    QCOMPARE(lagRow, QByteArray("console lag max (s) n/a (no host times)"));
    QVERIFY2(t.err.contains("warning: --window-start 'no such line' matched no line"), t.err);
}

// Boots of one capture as the two columns, chosen by number and by regex.
void TstCli::reportBootsOfOneCapture()
{
    QTemporaryDir dir;
    const QString lab = dir.filePath(QStringLiteral("lab.log"));
    {
        QProcess z;
        z.setStandardOutputFile(lab);
        z.start(QStringLiteral("zstd"),
                {QStringLiteral("-dc"), sample("panic_noroot-smp2-115200-t1.raw.zst"),
                 sample("boot_login-default-smp2-115200-t1.raw.zst")});
        QVERIFY(z.waitForFinished(10000) && z.exitCode() == 0);
    }
    for (const QStringList &sel :
         {QStringList{QStringLiteral("1"), QStringLiteral("2")},
          QStringList{QStringLiteral("/Kernel panic/"), QStringLiteral("!/Kernel panic/")}}) {
        const Result r = ttyscope({QStringLiteral("report"), QStringLiteral("-o"),
                                   QStringLiteral("json"), QStringLiteral("--events"),
                                   QStringLiteral("crash"), QStringLiteral("--boots"), sel[0],
                                   QStringLiteral("--boots"), sel[1], lab, lab});
        QCOMPARE(r.code, 0);
        const QJsonArray runs = QJsonDocument::fromJson(r.out)[QLatin1String("runs")].toArray();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0][QLatin1String("boot")].toInt(), 1);
        QCOMPARE(runs[0][QLatin1String("lines")].toInt(), 370); // panic_noroot truth
        QCOMPARE(runs[1][QLatin1String("boot")].toInt(), 2);
        QCOMPARE(runs[1][QLatin1String("lines")].toInt(), 371); // boot_login-default truth
        // --events crash: the panic only; the others are counted as left out.
        const QJsonArray events = runs[0][QLatin1String("events")].toArray();
        QCOMPARE(events.size(), 1);
        QCOMPARE(events[0][QLatin1String("kind")].toString(), QStringLiteral("panic"));
        QVERIFY(runs[0][QLatin1String("events_omitted")].toInt() > 0);
    }
    const Result bad =
        ttyscope({QStringLiteral("report"), QStringLiteral("--boots"), QStringLiteral("3-1"), lab});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains("boot selector '3-1'"), bad.err);
}

void TstCli::reportJson()
{
    const Result r = ttyscope({QStringLiteral("report"), QStringLiteral("--output"),
                               QStringLiteral("json"), QStringLiteral("--span"),
                               QStringLiteral("harness: rmmod=>noise: all workers stopped"),
                               sample("spam_rmmod-A_default-smp4-115200-t1.hostts.log.zst"),
                               sample("spam_rmmod-k612rt-smp4-115200-t1.raw.zst")});
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    const QJsonArray runs = j.value(QLatin1String("runs")).toArray();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs[0].toObject().value(QLatin1String("lines")).toInt(), 9161);
    const QJsonObject b = runs[1].toObject();
    QCOMPARE(b.value(QLatin1String("format")).toString(), QStringLiteral("raw"));
    QCOMPARE(b.value(QLatin1String("lines")).toInt(), 11365);
    QCOMPARE(b.value(QLatin1String("drops")).toObject().value(QLatin1String("messages")).toInt(),
             3881);
    QVERIFY(b.value(QLatin1String("lag")).toObject().value(QLatin1String("max_s")).isNull());
    QVERIFY(j.value(QLatin1String("diff")).isObject());

    const Result text =
        ttyscope({QStringLiteral("report"), sample("panic_noroot-smp2-115200-t1.hostts.log.zst")});
    QCOMPARE(text.code, 0);
    QCOMPARE(rowValues(text.out, QStringLiteral("panic trace complete")),
             QStringList{QStringLiteral("yes")});
    QCOMPARE(rowValues(text.out, QStringLiteral("console lines")),
             QStringList{QStringLiteral("370")});
}

void TstCli::reportUnreadable()
{
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("missing.log"));
    const Result r = ttyscope(
        {QStringLiteral("report"), missing, sample("boot_login-quiet-smp2-115200-t1.raw.zst")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("missing.log") && r.err.contains("No such file"), r.err.constData());
    // The readable file is still reported, alone.
    QCOMPARE(rowValues(r.out, QStringLiteral("console lines")), QStringList{QStringLiteral("16")});

    const Result bad = ttyscope(
        {QStringLiteral("report"), QStringLiteral("--window"), QStringLiteral("-3"), missing});
    QCOMPARE(bad.code, 2);
    QVERIFY(bad.err.contains("--window"));
}

// --label names the column of its place. Trials given as separate arguments are columns of
// their own, so two labels over three files name the wrong ones: a warning says so and how
// to make a column of trials; the same trials joined with commas take the labels silently.
void TstCli::reportPerColumnOptions()
{
    const QString a1 = sample("spam_rmmod-A_default-smp4-115200-t1.hostts.log.zst");
    const QString a2 = sample("spam_rmmod-A_default-smp4-115200-t2.hostts.log.zst");
    const QString b1 = sample("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst");
    const Result apart =
        ttyscope({QStringLiteral("report"), QStringLiteral("--label"), QStringLiteral("6.1"), a1,
                  a2, QStringLiteral("--label"), QStringLiteral("6.12-rt"), b1});
    QCOMPARE(apart.code, 0);
    QCOMPARE(QString::fromUtf8(apart.err).trimmed(),
             QStringLiteral("ttyscope: warning: 2 --label values for 3 column(s) (one per FILE "
                            "argument): they apply to the first 2 column(s) only; to make one "
                            "column of several trials, join the files with commas "
                            "(a1.log,a2.log) or quote a glob ('a/*.log')"));
    // The 6.1 trials' and 6.12-rt's console lines (their truths: 9161, 9354, 11365).
    QCOMPARE(
        rowValues(apart.out, QStringLiteral("console lines")),
        (QStringList{QStringLiteral("9161"), QStringLiteral("9354"), QStringLiteral("11365")}));

    const Result joined =
        ttyscope({QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("json"),
                  QStringLiteral("--events"), QStringLiteral("none"), QStringLiteral("--label"),
                  QStringLiteral("6.1"), a1 + QLatin1Char(',') + a2, QStringLiteral("--label"),
                  QStringLiteral("6.12-rt"), b1});
    QCOMPARE(joined.code, 0);
    QCOMPARE(joined.err, QByteArray());
    const QJsonArray groups =
        QJsonDocument::fromJson(joined.out)[QLatin1String("groups")].toArray();
    QCOMPARE(groups.size(), 2);
    QCOMPARE(groups[0][QLatin1String("label")].toString(), QStringLiteral("6.1"));
    QCOMPARE(groups[0][QLatin1String("n")].toInt(), 2);
    QCOMPARE(groups[1][QLatin1String("label")].toString(), QStringLiteral("6.12-rt"));
    QCOMPARE(groups[1][QLatin1String("n")].toInt(), 1);

    const Result boots = ttyscope(
        {QStringLiteral("report"), QStringLiteral("--boots"), QStringLiteral("1"), a1, b1});
    QCOMPARE(boots.code, 0);
    QVERIFY2(boots.err.startsWith("ttyscope: warning: 1 --boots values for 2 column(s)"),
             boots.err.constData());
}

// Two boards: a rate per column, or one for both; a rate that is no number is an error,
// never 115200 in silence.
void TstCli::reportBaudPerColumn()
{
    const QString a = sample("spam_rmmod-A_default-smp4-115200-t1.hostts.log.zst");
    const QString b = sample("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst");
    const auto report = [&](const QStringList &bauds) {
        QStringList args{QStringLiteral("report")};
        for (const QString &rate : bauds) {
            args << QStringLiteral("--baud") << rate;
        }
        return ttyscope(args << a << b);
    };
    // 380281 and 458896 bytes (each line counted with a CR LF) at 10 bits a byte.
    const Result each = report({QStringLiteral("1500000"), QStringLiteral("115200")});
    QCOMPARE(each.code, 0);
    QCOMPARE(rowValues(each.out, QStringLiteral("time on the wire (s)")),
             (QStringList{QStringLiteral("≈2.535"), QStringLiteral("≈39.835"),
                          QStringLiteral("+37.300 (+1471.3%)")}));
    QVERIFY2(each.out.contains("\nThe wire figures are at different rates: "
                               "spam_rmmod-A_default-smp4-115200-t1.hostts.log.zst: 1500000 baud; "
                               "spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst: 115200 baud.\n"),
             each.out.constData());

    const Result both = report({QStringLiteral("1500000")});
    QCOMPARE(both.code, 0);
    QCOMPARE(rowValues(both.out, QStringLiteral("time on the wire (s)")),
             (QStringList{QStringLiteral("≈2.535"), QStringLiteral("≈3.059"),
                          QStringLiteral("+0.524 (+20.7%)")}));
    QVERIFY(!both.out.contains("different rates"));

    for (const QString &bad : {QStringLiteral("fast"), QStringLiteral("0"),
                               QStringLiteral("115200x"), QStringLiteral("-9600")}) {
        const Result r = report({bad});
        QCOMPARE(r.code, 2);
        QCOMPARE(QString::fromUtf8(r.err).trimmed(),
                 QStringLiteral("ttyscope: --baud: expected a rate in bits per second from 50 "
                                "to 100000000, got '%1'")
                     .arg(bad));
        QCOMPARE(r.out, QByteArray());
    }

    const Result jsonl =
        ttyscope({QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("jsonl"),
                  QStringLiteral("--baud"), QStringLiteral("1500000"), QStringLiteral("--baud"),
                  QStringLiteral("115200"), a, b});
    QCOMPARE(jsonl.code, 2);
    QCOMPARE(QString::fromUtf8(jsonl.err).trimmed(),
             QStringLiteral("ttyscope report: --output jsonl reports every file on its own: "
                            "give one --baud for all"));
}

void TstCli::catRecordingExact()
{
    QByteArray data;
    for (int i = 0; i < 256; ++i) {
        data += char(i);
    }
    data += "\r\r\n[    1.000000] line\r\nlogin: ";
    QByteArray rec("TTYSCOPE-REC 1\n");
    rec += record('H', 1700000000000000000, 1, R"({"tool":"ttyscope","version":"0.1.0"})");
    rec += record('D', 1700000000000000001, 2, data.left(100));
    rec += record('M', 1700000000000000002, 3, "marker");
    rec += record('D', 1700000000000000003, 4, data.mid(100));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rec.ttyrec.zst"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(zstd(rec));
    f.close();
    const Result r = ttyscope({QStringLiteral("cat"), path});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.out, data);
}

void TstCli::catTimes()
{
    const Result r = ttyscope({QStringLiteral("cat"), QStringLiteral("--times"),
                               sample("boot_login-quiet-smp2-115200-t1.hostts.log.zst")});
    QCOMPARE(r.code, 0);
    const QList<QByteArray> lines = r.out.split('\n');
    QCOMPARE(lines.size(), 17); // 16 lines, each ending in a newline, and the empty tail
    QVERIFY2(lines[0].startsWith("1796014814.814171\t\x1b"
                                 "c"),
             lines[0].constData());
    QVERIFY(lines[15].startsWith("1796014822.130281\t[    4.033918] reboot: Power down"));

    const Result plain =
        ttyscope({QStringLiteral("cat"), sample("boot_login-quiet-smp2-115200-t1.hostts.log.zst")});
    QCOMPARE(plain.code, 0);
    QVERIFY(plain.out.startsWith("\x1b"
                                 "c\x1b[?7l"));
    QVERIFY(plain.out.contains("\ncorpusvm login: \n"));
    QVERIFY(!plain.out.contains("1796014814"));
}

// The log view hides escape sequences and colours the text; `cat` leaves every byte as it
// was: escapes, NULs, invalid UTF-8, CRs, a last line without a newline.
void TstCli::catConsoleBytesExact()
{
    const QByteArray console = QByteArray("\x1b"
                                          "c\x1b[?7l\x1b[2J\x1b[0mSeaBIOS (version 1.16.2)\r\n"
                                          "[    0.000000] Linux \x1b[1;31mFAI\x1b[0mLED\r\r\n"
                                          "[    0.100000] nul ") +
                               QByteArray(1, '\0') +
                               " bad \xff\xfe \xc3( utf8 \x7f\x1b]0;t\x07\r\n" + "corpusvm login: ";
    QTemporaryDir dir;
    // Raw bytes as a serial line gives them: written back as they came, but for the CRs the
    // tty layer puts before each newline (\r\n, \r\r\n), which line framing has always
    // dropped; a last line without a newline stays without one.
    QByteArray text = console;
    text.replace("\r\r\n", "\n").replace("\r\n", "\n");
    const QString raw = dir.filePath(QStringLiteral("console.raw"));
    QFile f(raw);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(console);
    f.close();
    const Result r = ttyscope({QStringLiteral("cat"), raw});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.out.toHex(' '), text.toHex(' '));
    // Host-timestamped lines: each line's bytes exactly, without the stamps.
    QByteArray hostts;
    QByteArray expected;
    int n = 0;
    for (const QByteArray &line : text.split('\n')) {
        hostts += "1700000000." + QByteArray::number(100000 + n++) + '\t' + line + '\n';
        expected += line + '\n';
    }
    const QString stamped = dir.filePath(QStringLiteral("console.hostts.log"));
    QFile g(stamped);
    QVERIFY(g.open(QIODevice::WriteOnly));
    g.write(hostts);
    g.close();
    const Result h = ttyscope({QStringLiteral("cat"), stamped});
    QVERIFY2(h.code == 0, h.err.constData());
    QCOMPARE(h.out.toHex(' '), expected.toHex(' '));
}

QTEST_GUILESS_MAIN(TstCli)
#include "tst_cli.moc"
