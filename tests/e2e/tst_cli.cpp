// `ttyscope report` and `ttyscope cat` as a user runs them.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <zstd.h>

namespace {

struct Result
{
    int code = -1;
    QByteArray out, err;
};

Result ttyscope(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(TTYSCOPE_BIN), args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

QString sample(const char *name)
{
    return QStringLiteral(TTYSCOPE_SAMPLES "/") + name;
}

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
    void reportUnreadable();
    void catRecordingExact();
    void catTimes();
};

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
    QVERIFY(text.out.contains("panic trace complete"));
    QVERIFY(text.out.contains("370"));
}

void TstCli::reportUnreadable()
{
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("missing.log"));
    const Result r = ttyscope(
        {QStringLiteral("report"), missing, sample("boot_login-quiet-smp2-115200-t1.raw.zst")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("missing.log") && r.err.contains("No such file"), r.err.constData());
    QVERIFY(r.out.contains("console lines"));
    QVERIFY(r.out.contains("16")); // the readable file is still reported

    const Result bad = ttyscope(
        {QStringLiteral("report"), QStringLiteral("--window"), QStringLiteral("-3"), missing});
    QCOMPARE(bad.code, 2);
    QVERIFY(bad.err.contains("--window"));
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

QTEST_GUILESS_MAIN(TstCli)
#include "tst_cli.moc"
