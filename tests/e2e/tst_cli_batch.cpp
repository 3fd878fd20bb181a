// `ttyscope report --output jsonl` over many files: globs ttyscope expands, --files-from
// (a file and standard input), one JSON line per file in the order named, each the
// single-file report of that file alone, and the exit statuses of the report.
#include "clirun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using clitest::Result;

namespace {

// Every run of a batch test gets its standard input closed, given input or not.
Result ttyscope(const QStringList &args, const QByteArray &input = {})
{
    return clitest::ttyscope(args, input);
}

QList<QJsonObject> jsonLines(const QByteArray &out)
{
    QList<QJsonObject> lines;
    for (const QByteArray &l : out.split('\n')) {
        if (!l.isEmpty()) {
            QJsonParseError e;
            lines << QJsonDocument::fromJson(l, &e).object();
            if (e.error != QJsonParseError::NoError) {
                qWarning() << "bad JSON line" << e.errorString();
            }
        }
    }
    return lines;
}

const QString kSamples = QStringLiteral(TTYSCOPE_SAMPLES);

} // namespace

class TstCliBatch : public QObject
{
    Q_OBJECT
private slots:
    void linesInOrderAsSingleReports();
    void exitStatuses();
    void sameOutputOnOneCoreAndMany();
    void globIsOneColumnOutsideABatch();
    void columnOptionsRefused();
};

// A glob (quoted: ttyscope expands it, sorted by name), then --files-from standard input:
// every file gives one line in that order, and its runs are what `report -o json FILE`
// prints for it alone.
void TstCliBatch::linesInOrderAsSingleReports()
{
    const QByteArray list = (kSamples + "/panic_noroot-smp2-115200-t1.raw.zst\n\n" + kSamples +
                             "/boot_login-quiet-smp2-115200-t1.grabserial-T.log.zst\r\n")
                                .toUtf8();
    const Result r =
        ttyscope({QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("jsonl"),
                  QStringLiteral("--events"), QStringLiteral("crash"),
                  kSamples + "/spam_rmmod-k612rt-*.hostts.log.zst", QStringLiteral("--files-from"),
                  QStringLiteral("-")},
                 list);
    QCOMPARE(r.code, 0);
    const QList<QJsonObject> lines = jsonLines(r.out);
    QCOMPARE(lines.size(), 5);
    const QStringList expected = {kSamples + "/spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst",
                                  kSamples + "/spam_rmmod-k612rt-smp4-115200-t2.hostts.log.zst",
                                  kSamples + "/spam_rmmod-k612rt-smp4-115200-t3.hostts.log.zst",
                                  kSamples + "/panic_noroot-smp2-115200-t1.raw.zst",
                                  kSamples +
                                      "/boot_login-quiet-smp2-115200-t1.grabserial-T.log.zst"};
    for (int i = 0; i < lines.size(); ++i) {
        const QJsonObject &l = lines[i];
        QCOMPARE(l.value(QStringLiteral("seq")).toInt(), i);
        QCOMPARE(l.value(QStringLiteral("file")).toString(), expected[i]);
        QCOMPARE(l.value(QStringLiteral("status")).toString(), QStringLiteral("complete"));
        QCOMPARE(l.value(QStringLiteral("exit_status")).toInt(), 0);
        QCOMPARE(l.value(QStringLiteral("runs")).toArray().size(), 1);
        const Result single =
            ttyscope({QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("json"),
                      QStringLiteral("--events"), QStringLiteral("crash"), expected[i]});
        QCOMPARE(single.code, 0);
        const QJsonObject s = QJsonDocument::fromJson(single.out).object();
        QCOMPARE(l.value(QStringLiteral("runs")), s.value(QStringLiteral("runs")));
        QCOMPARE(l.value(QStringLiteral("groups")), s.value(QStringLiteral("groups")));
        QVERIFY(!l.contains(QStringLiteral("diff")));
    }
    // The figures of the bundled captures (their truth.json): lines and drops.
    const QJsonObject t1 = lines[0].value(QStringLiteral("runs")).toArray()[0].toObject();
    QCOMPARE(t1.value(QStringLiteral("lines")).toInt(), 11365);
    QCOMPARE(t1.value(QStringLiteral("drops")).toObject().value(QStringLiteral("messages")).toInt(),
             3881);
    QCOMPARE(lines[3]
                 .value(QStringLiteral("runs"))
                 .toArray()[0]
                 .toObject()
                 .value(QStringLiteral("lines")),
             QJsonValue(370));
}

// 1 for a file that cannot be read (its line says why) and for a glob that matches
// nothing; 4 when --fail-on holds on one file, which outranks them.
void TstCliBatch::exitStatuses()
{
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("gone.log"));
    const QString panic = kSamples + "/panic_noroot-smp2-115200-t1.hostts.log.zst";
    const QString boot = kSamples + "/boot_login-default-smp2-115200-t1.hostts.log.zst";
    Result r = ttyscope({QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("jsonl"),
                         boot, missing, dir.filePath(QStringLiteral("*.nothing"))});
    QCOMPARE(r.code, 1);
    QList<QJsonObject> lines = jsonLines(r.out);
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines[1].value(QStringLiteral("status")).toString(), QStringLiteral("unreadable"));
    QCOMPARE(lines[1].value(QStringLiteral("exit_status")).toInt(), 1);
    QCOMPARE(lines[1].value(QStringLiteral("runs")).toArray().size(), 0);
    QVERIFY(lines[1].value(QStringLiteral("error")).toString().contains(QLatin1String("gone.log")));
    QVERIFY2(r.err.contains("ttyscope report: no file matches '" +
                            dir.filePath(QStringLiteral("*.nothing")).toUtf8() + "'"),
             r.err.constData());

    r = ttyscope({QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("jsonl"),
                  QStringLiteral("--fail-on"), QStringLiteral("panic"), boot, panic, missing});
    QCOMPARE(r.code, 4);
    lines = jsonLines(r.out);
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0].value(QStringLiteral("exit_status")).toInt(), 0);
    QCOMPARE(lines[1].value(QStringLiteral("exit_status")).toInt(), 4);
    const QJsonObject check = lines[1].value(QStringLiteral("fail_on")).toArray()[0].toObject();
    QCOMPARE(check.value(QStringLiteral("condition")).toString(), QStringLiteral("panic"));
    QVERIFY(check.value(QStringLiteral("holds")).toBool());
    QCOMPARE(check.value(QStringLiteral("detail")).toString(),
             QStringLiteral("1 panic event, the first at line 355"));
    QVERIFY2(r.err.contains("ttyscope report: --fail-on 'panic' holds on "
                            "panic_noroot-smp2-115200-t1.hostts.log.zst: 1 panic event, the "
                            "first at line 355\n"),
             r.err.constData());

    // A cut zstd file: read in part, status 3, its line says so.
    QFile in(boot);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray z = in.readAll();
    QFile cut(dir.filePath(QStringLiteral("cut.log.zst")));
    QVERIFY(cut.open(QIODevice::WriteOnly));
    cut.write(z.left(z.size() / 2));
    cut.close();
    r = ttyscope(
        {QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("jsonl"), cut.fileName()});
    QCOMPARE(r.code, 3);
    lines = jsonLines(r.out);
    QCOMPARE(lines[0].value(QStringLiteral("status")).toString(), QStringLiteral("truncated"));
    QCOMPARE(lines[0].value(QStringLiteral("exit_status")).toInt(), 3);
}

// The lines do not depend on how many files run at once.
void TstCliBatch::sameOutputOnOneCoreAndMany()
{
    QTemporaryDir dir;
    QFile list(dir.filePath(QStringLiteral("list")));
    QVERIFY(list.open(QIODevice::WriteOnly));
    for (int i = 0; i < 6; ++i) {
        for (const char *s : {"/blast_crash-smp2-115200-t1.hostts.log.zst",
                              "/boot_login-quiet-smp2-115200-t1.raw.zst",
                              "/spam_rmmod-A_default-smp4-115200-t2.hostts.log.zst"}) {
            list.write((kSamples + s + "\n").toUtf8());
        }
    }
    list.close();
    const QStringList base = {QStringLiteral("report"), QStringLiteral("-o"),
                              QStringLiteral("jsonl"), QStringLiteral("--files-from"),
                              list.fileName()};
    const Result one = ttyscope(base + QStringList{QStringLiteral("--jobs"), QStringLiteral("1")});
    const Result many = ttyscope(base + QStringList{QStringLiteral("--jobs"), QStringLiteral("4")});
    QCOMPARE(one.code, 0);
    QCOMPARE(many.code, 0);
    QCOMPARE(jsonLines(one.out).size(), 18);
    QVERIFY(one.out == many.out);
}

// Outside a batch a glob is the trials of one column, as commas join them.
void TstCliBatch::globIsOneColumnOutsideABatch()
{
    const Result r =
        ttyscope({QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("json"),
                  QStringLiteral("--events"), QStringLiteral("none"),
                  kSamples + "/spam_rmmod-A_default-*.hostts.log.zst",
                  kSamples + "/spam_rmmod-k612rt-*.hostts.log.zst"});
    QCOMPARE(r.code, 0);
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    const QJsonArray groups = j.value(QStringLiteral("groups")).toArray();
    QCOMPARE(groups.size(), 2);
    QCOMPARE(groups[0].toObject().value(QStringLiteral("n")).toInt(), 3);
    QCOMPARE(groups[1].toObject().value(QStringLiteral("n")).toInt(), 3);
    QVERIFY(j.contains(QStringLiteral("diff")));
}

void TstCliBatch::columnOptionsRefused()
{
    const Result r =
        ttyscope({QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("jsonl"),
                  QStringLiteral("--label"), QStringLiteral("A"),
                  kSamples + "/boot_login-quiet-smp2-115200-t1.raw.zst"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--output jsonl reports every file on its own"), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

QTEST_GUILESS_MAIN(TstCliBatch)
#include "tst_cli_batch.moc"
