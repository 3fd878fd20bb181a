// moreutils ts '%.s' logs (format `ts`): "<unix seconds> line", where ts stamps a line once it
// has read the line's end. The fixtures are real ts output of bundled captures replayed at
// their own pace (tests/fixtures/ts/replay.py). A login prompt has no newline, so its line
// is stamped when later text ends it, or when the input ends: read as a first byte's time
// (format hostts) that put boot to 'login:' 1.0 s late on boot_login-default, and at the
// capture's end on a capture stopped at the prompt.
#include "alignment.h"
#include "metrics.h"
#include "tst_helpers.h"

#include <QTest>

using namespace tty;
using namespace testutil;

class TstTs : public QObject
{
    Q_OBJECT
private slots:
    void detection_data();
    void detection();
    void floodAsTheCaptureCountedIt();
    void promptStampedWhenItsLineEnded();
    void promptAtTheInputsEnd();
};

namespace {
std::unique_ptr<Run> loadFixture(const QString &name, const LoadOptions &o = LoadOptions{})
{
    QString error;
    std::unique_ptr<Run> run = loadRun(QStringLiteral(TTYSCOPE_FIXTURES "/ts/") + name, o, &error);
    if (!run) {
        qWarning("%s", qPrintable(error));
    }
    return run;
}

std::int64_t at(const Run &run, qint64 line)
{
    const std::optional<RunSeconds> t = run.timeOf(LineIndex(line));
    return t ? micros(t->count()) : -1;
}

// Run seconds of an alignment over the whole run; -2 when there is no anchor.
std::int64_t aligned(const Run &run, const QString &spec)
{
    Alignment a;
    QString error;
    if (!Alignment::parse(spec, &a, &error)) {
        return -1;
    }
    const std::optional<RunSeconds> t = alignmentTime(run, a, LineIndex(0));
    return t ? micros(t->count()) : -2;
}
} // namespace

void TstTs::detection_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("format"); // --format; empty: detected
    QTest::addColumn<QString>("expected");
    QTest::addColumn<bool>("lineEnd");
    const QByteArray tab("1700000000.250000\t[    1.000000] one\r\n1700000001.5\t[    2.0] two\n");
    const QByteArray space("1700000000.250000 [    1.000000] one\r\n1700000001.5 [    2.0] two\n");
    QTest::newRow("tab: hostts") << tab << QString() << QStringLiteral("hostts") << false;
    QTest::newRow("space: ts") << space << QString() << QStringLiteral("ts") << true;
    QTest::newRow("--format moreutils")
        << tab << QStringLiteral("moreutils") << QStringLiteral("ts") << true;
    QTest::newRow("--format host")
        << space << QStringLiteral("host") << QStringLiteral("hostts") << false;
}

void TstTs::detection()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, format);
    QFETCH(QString, expected);
    QFETCH(bool, lineEnd);
    const auto run = format.isEmpty() ? loadBytes(text) : loadBytes(text, withFormat(format));
    QVERIFY(run);
    QCOMPARE(formatName(run->meta.format), expected);
    QCOMPARE(run->arrivalIsLineEnd, lineEnd);
    QVERIFY(run->arrivalIsWallClock);
    // Either separator is read by both.
    QCOMPARE(lineText(*run, 1), QByteArray("[    2.0] two"));
    QCOMPARE(at(*run, 1), qint64(1'250'000));
}

// A 6.12-rt flood with drops (spam_rmmod-k612rt t1): line ends are a line's transmission
// (5-9 ms at 115200 baud) after its first byte, so the figures are the capture's within
// that: truth.json counts 11365 lines, 1580 / 3881 drops, lag max 13.087589 s and the
// flush (rmmod produced to `all workers stopped` on the wire) 13.098033 s.
void TstTs::floodAsTheCaptureCountedIt()
{
    const std::unique_ptr<Run> run = loadFixture(QStringLiteral("spam_rmmod-k612rt-t1.ts.log.zst"));
    QVERIFY(run);
    QCOMPARE(formatName(run->meta.format), QStringLiteral("ts"));
    QVERIFY2(run->warnings.isEmpty(), qPrintable(run->warnings.join(u'\n')));
    MetricOptions o;
    o.spans = {{QStringLiteral("harness: rmmod"), QStringLiteral("all workers stopped")}};
    const Metrics m = computeMetrics(*run, o);
    QCOMPARE(m.lines, qint64(11365));
    QCOMPARE(m.dropNotices, qint64(1580));
    QCOMPARE(m.droppedMessages, qint64(3881));
    QCOMPARE(micros(m.lagMax.value()), qint64(13'087'569));
    QCOMPARE(m.spans.size(), std::size_t(1));
    QCOMPARE(micros(m.spans[0].seconds.value()), qint64(13'098'048));
    QCOMPARE(micros(m.duration.value()), qint64(48'389'934));
}

// boot_login-default ends "corpusvm login: [    4.884373] harness: poweroff": the prompt
// came at 7.230 s (the capture), ts stamped the line when the marker's newline came.
void TstTs::promptStampedWhenItsLineEnded()
{
    const std::unique_ptr<Run> run = loadFixture(QStringLiteral("boot_login-default.ts.log"));
    QVERIFY(run);
    QCOMPARE(formatName(run->meta.format), QStringLiteral("ts"));
    const LineIndex prompt(367);
    QCOMPARE(lineText(*run, prompt),
             QByteArray("corpusvm login: [    4.884373] harness: poweroff"));
    QCOMPARE(at(*run, 367), qint64(8'206'821)); // 1796546104.982841 - 1796546096.776020
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.lines, qint64(371));
    QCOMPARE(m.kernelLines, qint64(359));
    QCOMPARE(m.bootDoneLine, std::optional<LineIndex>(prompt));
    QVERIFY(!m.bootTime);
    QVERIFY(!m.bootTimeKernel);
    QCOMPARE(m.bootDoneNote, QStringLiteral("ts stamped only the end of the line of 'login:'"));
    // Read as first bytes (hostts), the line's end was the prompt's time: 8.207 s, not the
    // capture's 7.230.
    const std::unique_ptr<Run> asHostTs = loadFixture(QStringLiteral("boot_login-default.ts.log"),
                                                      withFormat(QStringLiteral("hostts")));
    QVERIFY(asHostTs);
    QCOMPARE(micros(computeMetrics(*asHostTs, MetricOptions{}).bootTime.value()),
             qint64(8'206'821));

    // The kernel text behind other text is the line's end: the banner behind the loader's
    // "Probing EDD ... o" (line 8) and the marker behind the prompt take their lines' stamps.
    QCOMPARE(aligned(*run, QStringLiteral("boot")), at(*run, 8));
    QCOMPARE(at(*run, 8), qint64(3'434'633));
    QCOMPARE(aligned(*run, QStringLiteral("regex:harness: poweroff")), qint64(8'206'821));
    // The text in front of a timestamp came at a time not known.
    QCOMPARE(aligned(*run, QStringLiteral("regex:login:")), qint64(-2));
    QCOMPARE(aligned(*run, QStringLiteral("regex:Probing EDD")), qint64(-2));
    RuleSet rules = RuleSet::builtin();
    QString error;
    QVERIFY(rules.addMarker(QStringLiteral("login:"), &error));
    LoadOptions o;
    o.rules = &rules;
    const std::unique_ptr<Run> marked = loadFixture(QStringLiteral("boot_login-default.ts.log"), o);
    QVERIFY(marked);
    int markers = 0;
    for (const Event &e : marked->events) {
        if (e.kind == EventKind::Marker) {
            ++markers;
            QCOMPARE(e.line, prompt);
            QVERIFY(!marked->eventArrival(e));
            QVERIFY(!marked->eventKernelTime(e));
        }
    }
    QCOMPARE(markers, 1);
}

// The capture stopped at the prompt (as `timeout 60 picocom ... | ts` does): ts stamped the
// prompt, the last line without a newline, when its input ended, 2 s after it came.
void TstTs::promptAtTheInputsEnd()
{
    const std::unique_ptr<Run> run =
        loadFixture(QStringLiteral("boot_login-default-cut-at-prompt.ts.log"));
    QVERIFY(run);
    const LineIndex last = run->lines.endIndex() - 1_lines;
    QCOMPARE(last, LineIndex(367));
    QCOMPARE(lineText(*run, last), QByteArray("corpusvm login: "));
    QVERIFY(run->lines.flags(last) & NoNewline);
    // The line before it (an empty one) ended at 7.199308; the input 2.0 s later.
    QCOMPARE(at(*run, 366), qint64(7'199'308));
    QCOMPARE(at(*run, 367), qint64(9'199'955));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.bootDoneLine, std::optional<LineIndex>(last));
    QVERIFY(!m.bootTime);
    QCOMPARE(m.bootDoneNote, QStringLiteral("ts stamped only the end of the line of 'login:'"));
    // The capture lasted until the input ended.
    QCOMPARE(micros(m.duration.value()), qint64(9'199'955));
    QCOMPARE(aligned(*run, QStringLiteral("regex:corpusvm login")), qint64(-2));
}

QTEST_GUILESS_MAIN(TstTs)
#include "tst_ts.moc"
