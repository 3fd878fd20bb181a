// `ttyscope report --fail-on` and `--output junit` as a CI job runs them, on the bundled
// captures: exit statuses, the lines on stderr, and the JUnit XML read back.
#include "clirun.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <zstd.h>

using namespace clitest;

namespace {

QByteArray zstd(const QByteArray &in)
{
    QByteArray out(qsizetype(ZSTD_compressBound(std::size_t(in.size()))), Qt::Uninitialized);
    out.resize(qsizetype(ZSTD_compress(out.data(), std::size_t(out.size()), in.constData(),
                                       std::size_t(in.size()), 3)));
    return out;
}

QStringList errLines(const Result &r)
{
    return QString::fromUtf8(r.err).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

// A JUnit document read back: per suite its attributes and test cases.
struct JCase
{
    QString classname, name, outcome, message, type, body; // outcome: "", failure, skipped
};
struct JSuite
{
    QString name;
    int tests = -1, failures = -1, skipped = -1;
    QVector<JCase> cases;
};

QVector<JSuite> readJunit(const QByteArray &xml, QString *error)
{
    QVector<JSuite> suites;
    QXmlStreamReader r(xml);
    while (!r.atEnd()) {
        r.readNext();
        if (!r.isStartElement()) {
            continue;
        }
        const auto a = r.attributes();
        if (r.name() == QLatin1String("testsuite")) {
            suites.append(JSuite{a.value(QLatin1String("name")).toString(),
                                 a.value(QLatin1String("tests")).toInt(),
                                 a.value(QLatin1String("failures")).toInt(),
                                 a.value(QLatin1String("skipped")).toInt(),
                                 {}});
        } else if (r.name() == QLatin1String("testcase") && !suites.isEmpty()) {
            suites.back().cases.append(JCase{a.value(QLatin1String("classname")).toString(),
                                             a.value(QLatin1String("name")).toString(),
                                             {},
                                             {},
                                             {},
                                             {}});
        } else if ((r.name() == QLatin1String("failure") || r.name() == QLatin1String("skipped")) &&
                   !suites.isEmpty() && !suites.back().cases.isEmpty()) {
            JCase &c = suites.back().cases.back();
            c.outcome = r.name().toString();
            c.message = a.value(QLatin1String("message")).toString();
            c.type = a.value(QLatin1String("type")).toString();
            c.body = r.readElementText();
        }
    }
    if (r.hasError()) {
        *error = r.errorString();
    }
    return suites;
}

} // namespace

class TstCliGate : public QObject
{
    Q_OBJECT
private slots:
    void panicFailsTheGate();
    void cleanBootPasses();
    void dropsPerTrial();
    void absentFiguresAreNotCompared();
    void badConditions();
    void readInPart();
};

// The panic capture: the panic, the crash and the missing login hold; the junit output has
// one suite with the load, each condition and the crash with its 16 lines of text.
void TstCliGate::panicFailsTheGate()
{
    const QString file = sample("panic_noroot-smp2-115200-t1.hostts.log.zst");
    const Result r =
        ttyscope({QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("junit"),
                  QStringLiteral("--fail-on"), QStringLiteral("panic,crash,drops.messages>0"),
                  QStringLiteral("--fail-on"),
                  QStringLiteral("boot_time_s==null,lag.max_s>0.5,boot_time_s>30"), file});
    QCOMPARE(r.code, 4);
    const QString run = QStringLiteral("panic_noroot-smp2-115200-t1.hostts.log.zst");
    const QString title = QStringLiteral("kernel panic: VFS: Unable to mount root fs on "
                                         "unknown-block(0,0) in mount_block_root");
    QCOMPARE(errLines(r),
             QStringList({
                 QStringLiteral("ttyscope report: --fail-on 'panic' holds on %1: 1 panic event, "
                                "the first at line 355")
                     .arg(run),
                 QStringLiteral("ttyscope report: --fail-on 'crash' holds on %1: 1 crash report, "
                                "the first at line 355: %2")
                     .arg(run, title),
                 QStringLiteral("ttyscope report: --fail-on 'boot_time_s==null' holds on %1: "
                                "boot_time_s is n/a (no 'login:')")
                     .arg(run),
                 QStringLiteral("ttyscope report: --fail-on 'lag.max_s>0.5' holds on %1: "
                                "lag.max_s = 0.646")
                     .arg(run),
                 QStringLiteral("ttyscope report: --fail-on 'boot_time_s>30' not checked on %1: "
                                "boot_time_s is n/a (no 'login:')")
                     .arg(run),
             }));
    QString error;
    const QVector<JSuite> suites = readJunit(r.out, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(suites.size(), 1);
    const JSuite &s = suites[0];
    QCOMPARE(s.name, run);
    QCOMPARE(s.tests, 8);
    QCOMPARE(s.failures, 5);
    QCOMPARE(s.skipped, 1);
    QStringList names, outcomes;
    for (const JCase &c : s.cases) {
        names << c.classname + QLatin1Char('/') + c.name;
        outcomes << c.outcome;
    }
    QCOMPARE(names, QStringList({QStringLiteral("ttyscope.load/log read completely"),
                                 QStringLiteral("ttyscope.fail-on/panic"),
                                 QStringLiteral("ttyscope.fail-on/crash"),
                                 QStringLiteral("ttyscope.fail-on/drops.messages>0"),
                                 QStringLiteral("ttyscope.fail-on/boot_time_s==null"),
                                 QStringLiteral("ttyscope.fail-on/lag.max_s>0.5"),
                                 QStringLiteral("ttyscope.fail-on/boot_time_s>30"),
                                 QStringLiteral("ttyscope.crash/") + title}));
    QCOMPARE(outcomes, QStringList({QString(), QStringLiteral("failure"), QStringLiteral("failure"),
                                    QString(), QStringLiteral("failure"), QStringLiteral("failure"),
                                    QStringLiteral("skipped"), QStringLiteral("failure")}));
    const JCase &crash = s.cases.back();
    QCOMPARE(crash.type, QStringLiteral("panic"));
    QCOMPARE(crash.message, title + QStringLiteral(" at line 355"));
    const QStringList body = crash.body.split(QLatin1Char('\n'));
    QCOMPARE(body.size(), 16); // lines 355 to 370: the headline to the end marker
    QCOMPARE(body.front(), QStringLiteral("[    3.496041] Kernel panic - not syncing: VFS: Unable "
                                          "to mount root fs on unknown-block(0,0)"));
    QCOMPARE(body[5], QStringLiteral("[    3.499855]  dump_stack_lvl+0x44/0x5c"));
    QCOMPARE(body.back(), QStringLiteral("[    3.499855] ---[ end Kernel panic - not syncing: VFS: "
                                         "Unable to mount root fs on unknown-block(0,0) ]---"));
}

// A boot to login without crash or drop passes: exit 0, nothing on stderr, the report as
// without the gate.
void TstCliGate::cleanBootPasses()
{
    const QString file = sample("boot_login-default-smp2-115200-t1.hostts.log.zst");
    const Result plain = ttyscope({QStringLiteral("report"), file});
    const Result r = ttyscope({QStringLiteral("report"), QStringLiteral("--fail-on"),
                               QStringLiteral("crash,drops.messages>0,boot_time_s==null,"
                                              "boot_time_s>7.5,events.warning>0"),
                               file});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.err, QByteArray());
    QCOMPARE(r.out, plain.out);
    // 7.230468 s to login: a tighter limit holds.
    const Result slow = ttyscope({QStringLiteral("report"), QStringLiteral("--fail-on"),
                                  QStringLiteral("boot_time_s>7.2"), file});
    QCOMPARE(slow.code, 4);
    QCOMPARE(errLines(slow),
             QStringList(QStringLiteral("ttyscope report: --fail-on 'boot_time_s>7.2' holds on "
                                        "boot_login-default-smp2-115200-t1.hostts.log.zst: "
                                        "boot_time_s = 7.230")));
}

// A group of trials is checked trial by trial, each named with its file; the counts are the
// truth's (dropped_messages_sum 3881 in t1).
void TstCliGate::dropsPerTrial()
{
    const QString t1 = sample("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst");
    const QString t2 = sample("spam_rmmod-k612rt-smp4-115200-t2.hostts.log.zst");
    const Result r = ttyscope({QStringLiteral("report"), QStringLiteral("-o"),
                               QStringLiteral("junit"), QStringLiteral("--fail-on"),
                               QStringLiteral("drops.messages>3000"), t1 + QLatin1Char(',') + t2});
    QCOMPARE(r.code, 4);
    const QString label = QStringLiteral("spam_rmmod-k612rt-smp4-115200-t*.hostts.log.zst");
    QCOMPARE(errLines(r), QStringList(QStringLiteral("ttyscope report: --fail-on "
                                                     "'drops.messages>3000' holds on %1 [%2]: "
                                                     "drops.messages = 3881")
                                          .arg(label, t1)));
    QString error;
    const QVector<JSuite> suites = readJunit(r.out, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(suites.size(), 2);
    QCOMPARE(suites[1].name, QStringLiteral("%1 [%2]").arg(label, t2));
    QCOMPARE(suites[0].failures, 1);
    QCOMPARE(suites[1].failures, 0);
    QCOMPARE(suites[1].cases[1].name, QStringLiteral("drops.messages>3000"));
    QCOMPARE(suites[1].cases[1].outcome, QString());
}

// Raw console text has no host times: the lag is n/a, never compared as 0; the drops,
// which the kernel counted, are.
void TstCliGate::absentFiguresAreNotCompared()
{
    const QString file = sample("spam_rmmod-k612rt-smp4-115200-t1.raw.zst");
    const Result r = ttyscope({QStringLiteral("report"), QStringLiteral("--fail-on"),
                               QStringLiteral("lag.max_s<1,lag.max_s==null"), file});
    QCOMPARE(r.code, 4);
    const QString run = QStringLiteral("spam_rmmod-k612rt-smp4-115200-t1.raw.zst");
    QCOMPARE(errLines(r),
             QStringList({QStringLiteral("ttyscope report: --fail-on 'lag.max_s<1' not checked "
                                         "on %1: lag.max_s is n/a (no host times)")
                              .arg(run),
                          QStringLiteral("ttyscope report: --fail-on 'lag.max_s==null' holds on "
                                         "%1: lag.max_s is n/a (no host times)")
                              .arg(run)}));
    const Result unchecked = ttyscope({QStringLiteral("report"), QStringLiteral("--fail-on"),
                                       QStringLiteral("lag.max_s<1"), file});
    QCOMPARE(unchecked.code, 0);
}

void TstCliGate::badConditions()
{
    const QString file = sample("boot_login-default-smp2-115200-t1.hostts.log.zst");
    const struct
    {
        const char *condition, *message;
    } cases[] = {
        {"pancake", "--fail-on unknown condition 'pancake'"},
        {"lag.max_s>abc", "--fail-on 'lag.max_s>abc': 'abc' is not a number (or null)"},
        {"boot_time_s>null", "--fail-on 'boot_time_s>null': only == and != compare with null"},
        {"panic,,oops", "--fail-on empty condition in 'panic,,oops'"},
        {"nosuch.figure>1",
         "--fail-on 'nosuch.figure>1': the report has no figure "
         "'nosuch.figure' (it has: lines, kernel_lines, kernel_lines_behind_text, bytes"},
    };
    for (const auto &c : cases) {
        const Result r = ttyscope({QStringLiteral("report"), QStringLiteral("--fail-on"),
                                   QLatin1String(c.condition), file});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith(QByteArray("ttyscope report: ") + c.message), r.err.constData());
        QCOMPARE(r.out, QByteArray()); // no report before a bad gate
    }
}

// A log read only in part: 3 without a gate, 4 when a condition holds (the gate outranks
// it), and the JUnit load case fails with the outcome as its type.
void TstCliGate::readInPart()
{
    // Two zstd frames, the second cut in its middle: the first 300 lines are read, the
    // panic at line 355 is not.
    QFile in(sample("panic_noroot-smp2-115200-t1.hostts.log.zst"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray packed = in.readAll();
    const unsigned long long size = ZSTD_getFrameContentSize(packed.constData(), packed.size());
    QVERIFY(size != ZSTD_CONTENTSIZE_UNKNOWN && size != ZSTD_CONTENTSIZE_ERROR);
    QByteArray text(qsizetype(size), Qt::Uninitialized);
    QCOMPARE(ZSTD_decompress(text.data(), size, packed.constData(), packed.size()), size);
    qsizetype split = -1;
    for (int i = 0; i < 300; ++i) {
        split = text.indexOf('\n', split + 1);
    }
    const QByteArray second = zstd(text.mid(split + 1));
    QTemporaryDir dir;
    const QString cut = dir.filePath(QStringLiteral("cut.log.zst"));
    QFile out(cut);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(zstd(text.left(split + 1)) + second.left(second.size() / 2));
    out.close();
    QCOMPARE(ttyscope({QStringLiteral("report"), cut}).code, 3);
    const Result r =
        ttyscope({QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("junit"),
                  QStringLiteral("--fail-on"), QStringLiteral("lines>0,panic"), cut});
    QCOMPARE(r.code, 4);
    QString error;
    const QVector<JSuite> suites = readJunit(r.out, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(suites.size(), 1);
    QCOMPARE(suites[0].cases[0].name, QStringLiteral("log read completely"));
    QCOMPARE(suites[0].cases[0].outcome, QStringLiteral("failure"));
    QCOMPARE(suites[0].cases[0].type, QStringLiteral("truncated"));
    QCOMPARE(suites[0].cases[1].outcome, QStringLiteral("failure")); // lines>0
    // The panic was in the half cut off: none in what was read is not none, so the
    // condition is not checked (skipped), not passed.
    QCOMPARE(suites[0].cases[2].outcome, QStringLiteral("skipped"));
}

QTEST_GUILESS_MAIN(TstCliGate)
#include "tst_cli_gate.moc"
