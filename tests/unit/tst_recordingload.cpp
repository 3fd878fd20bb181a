// A ttyscope recording's lines are parsed in blocks on every core (recordingblocks.h): the
// reader frames and stamps the lines, the markers, gaps, header and the recorder's
// warnings travel with the blocks, and the merge puts them back among the lines. Checked
// here against the plain definition (docs/format.md): the records decoded one by one, their
// data framed into lines and each line, marker and gap added to a RunBuilder as it comes.
// The recordings are written by hand: data cut at random places (inside lines, inside CRLF),
// notes inside partial lines, a wall clock that steps back with and without the monotonic
// clock, and files cut inside a record or broken by an unreadable header.
#include "inputfile.h"
#include "lineframer.h"
#include "metrics.h"
#include "recordingblocks.h"
#include "recordingdecoder.h"
#include "runbuilder.h"
#include "runloader.h"
#include "tst_helpers.h"

#include <QRandomGenerator>
#include <QtTest>

using namespace tty;
using namespace testutil;

namespace {

constexpr qint64 kWall0 = 1700000000000000000;

// About 80 bytes of console text a line: three boots, drops, panics, empty lines, CRLF,
// a CR inside a line; cut into data records of 1–400 bytes, with a note (of each type,
// and one from the future) after about one record in 30. Halfway, the wall clock steps
// back an hour: records with a monotonic time keep their order, those without one (mono 0,
// about one in 8) step back, and the run's clock repair folds the step out.
QByteArray awkwardRecording(int lines, quint32 seed)
{
    QRandomGenerator rng(seed);
    QByteArray text;
    for (int i = 0; i < lines; ++i) {
        const int boot = i * 3 / lines;
        const double kernel = (i - boot * lines / 3) * 0.0005;
        const QByteArray stamp = "[" + QByteArray::number(kernel, 'f', 6).rightJustified(12) + "] ";
        if (i > 0 && (i - 1) * 3 / lines != boot) {
            text += "[    0.000000] Linux version 6.1." + QByteArray::number(boot) + " (test)\r\n";
        }
        const int kind = int(rng.bounded(100));
        if (kind == 0) {
            text +=
                "** " + QByteArray::number(rng.bounded(500) + 1) + " printk messages dropped **";
        } else if (kind == 1) {
            text += stamp + "Kernel panic - not syncing: test " + QByteArray::number(i);
        } else if (kind == 2) {
            // an empty line
        } else if (kind == 3) {
            text += stamp + "progress\r50%\r100%";
        } else {
            text += stamp + "worker " + QByteArray::number(rng.bounded(64)) + " seq " +
                    QByteArray::number(i);
        }
        text += kind == 4 ? "\r\n" : "\n";
    }
    text += "login: \r"; // the last line: no LF, a CR at its end that is its text

    QByteArray r("TTYSCOPE-REC 1\n");
    r += recordingRecord('H', kWall0, 1000,
                         R"({"tool":"ttyscope","version":"0.9","host":"lab7",)"
                         R"("label":"awkward","baud":921600})");
    qint64 t = 0;
    qint64 step = 0;
    static const char kNotes[] = "MSGRWX";
    for (qsizetype at = 0; at < text.size();) {
        const qsizetype n = std::min<qsizetype>(text.size() - at, 1 + rng.bounded(400));
        t += rng.bounded(3000000);
        if (step == 0 && at > text.size() / 2) {
            step = -3600000000000; // the wall clock is set back an hour
        }
        const qint64 mono = rng.bounded(8) == 0 ? 0 : 1000 + t;
        r += recordingRecord('D', kWall0 + t + step, mono, text.mid(at, n));
        at += n;
        if (rng.bounded(30) == 0) {
            const char type = kNotes[rng.bounded(6)];
            r += recordingRecord(type, kWall0 + t + step, 1000 + t,
                                 QByteArray("note ") + type + ' ' + QByteArray::number(at));
        }
    }
    r += recordingRecord('M', kWall0 + t + step, 1000 + t, "after the last line");
    return r;
}

// The definition: each record as it is decoded; data framed into lines (a line's arrival is
// its first byte's record), each line and note added to the RunBuilder in stream order.
std::unique_ptr<Run> parseRecordByRecord(const QByteArray &data, QString *error, QString *warning)
{
    auto run = std::make_unique<Run>();
    run->hasArrival = true;
    static const RuleSet rules = RuleSet::builtin();
    RunBuilder builder(*run, rules);
    LineFramer framer;
    RecordingClock clock;
    std::string payload;
    auto line = [&](const LineFramer::Line &l) {
        builder.addLine(l.text, l.firstByte, l.newline ? 0 : (l.split ? Split : NoNewline));
    };
    RecordingDecoder decoder([&](const RecordingDecoder::Piece &p) {
        const HostNs t = clock.arrival(p.wall, p.mono);
        if (p.type == 'D') {
            builder.addBytes(std::int64_t(p.data.size()));
            framer.feed(p.data.data(), p.data.size(), t, line);
            return;
        }
        if (p.first) {
            payload.clear();
        }
        payload.append(p.data);
        if (!p.last) {
            return;
        }
        switch (p.type) {
        case 'H':
            applyRecordingHeader(payload, run->meta);
            break;
        case 'M':
            builder.addNoteEvent(EventKind::Marker, payload, t);
            break;
        case 'S':
            builder.addNoteEvent(EventKind::Marker, "sent: " + payload, t);
            break;
        case 'G':
            builder.addNoteEvent(EventKind::Gap, "capture gap: " + payload, t);
            break;
        case 'R':
            builder.addNoteEvent(EventKind::Gap, "capture resumed: " + payload, t);
            break;
        case 'W':
            builder.addRecorderWarning(payload);
            break;
        }
    });
    decoder.feed(data.constData(), std::size_t(data.size()));
    decoder.finish();
    framer.finish(line);
    *error = decoder.error();
    *warning = decoder.warning();
    builder.finish();
    return run;
}

} // namespace

class TstRecordingLoad : public QObject
{
    Q_OBJECT
private slots:
    void blocksMatchRecordByRecord_data();
    void blocksMatchRecordByRecord();
    void netconsoleBothForms();
};

void TstRecordingLoad::blocksMatchRecordByRecord_data()
{
    QTest::addColumn<int>("lines");
    QTest::addColumn<bool>("compressed");
    QTest::addColumn<QString>("damage");
    // About 8 MB (7 blocks of 1 MiB of text): a reader thread and a parser per core.
    QTest::newRow("plain") << 200000 << false << "";
    QTest::newRow("zstd") << 200000 << true << "";
    // About 80 KB: parsed on the calling thread (a small file), the same way.
    QTest::newRow("small") << 2000 << false << "";
    QTest::newRow("cut inside a data record") << 200000 << false << "cut";
    QTest::newRow("broken header") << 200000 << true << "broken";
}

void TstRecordingLoad::blocksMatchRecordByRecord()
{
    QFETCH(int, lines);
    QFETCH(bool, compressed);
    QFETCH(QString, damage);
    QByteArray rec = awkwardRecording(lines, 23);
    QVERIFY(lines < 10000 ? rec.size() < (256 << 10)
                          : rec.size() > 4 * qsizetype(InputFile::kBlockBytes));
    if (damage == QLatin1String("cut")) {
        // Inside the payload of a data record two thirds in.
        const qsizetype d = rec.indexOf("\nD ", rec.size() * 2 / 3) + 1;
        rec.truncate(rec.indexOf('\n', d) + 2);
    } else if (damage == QLatin1String("broken")) {
        const qsizetype d = rec.indexOf("\nD ", rec.size() / 2) + 1;
        rec.insert(d, "D 12 what\n");
    }
    QString refError, refWarning;
    const auto ref = parseRecordByRecord(rec, &refError, &refWarning);
    QCOMPARE(!refError.isEmpty(), damage == QLatin1String("broken"));
    QCOMPARE(!refWarning.isEmpty(), damage == QLatin1String("cut"));

    QString error;
    const auto run = loadBytes(compressed ? zstdCompress(rec) : rec, {}, &error,
                               QStringLiteral("awkward.ttyrec"));
    QVERIFY2(run, qPrintable(error));
    QCOMPARE(run->meta.format, Format::Ttyscope);

    QVERIFY(ref->lines.size() > LineCount(lines / 2));
    QCOMPARE(run->lines.size(), ref->lines.size());
    QCOMPARE(firstLineDifference(*run, *ref), QString());
    // Markers and gaps in their places among the lines' events, with their times and texts.
    QCOMPARE(run->events.size(), ref->events.size());
    int notes = 0;
    for (std::size_t e = 0; e < ref->events.size(); ++e) {
        const Event &a = run->events[e], &b = ref->events[e];
        QCOMPARE(a.line, b.line);
        QCOMPARE(a.kind, b.kind);
        QCOMPARE(a.count, b.count);
        QCOMPARE(a.arrival, b.arrival);
        QCOMPARE(a.note.has_value(), b.note.has_value());
        QCOMPARE(run->eventText(a).str(), ref->eventText(b).str());
        notes += b.note ? 1 : 0;
    }
    QVERIFY(notes > (damage.isEmpty() && lines > 10000 ? 100 : 2));
    QCOMPARE(run->bytes, ref->bytes);
    QCOMPARE(run->boots.size(), ref->boots.size());
    for (std::size_t k = 0; k < ref->boots.size(); ++k) {
        QCOMPARE(run->boots[k].first, ref->boots[k].first);
        QCOMPARE(run->boots[k].end, ref->boots[k].end);
    }
    QCOMPARE(run->meta.host, QStringLiteral("lab7"));
    QCOMPARE(run->meta.baud, 921600);
    // The repairs and the recorder's warnings, in the order the plain parse gives them.
    for (const QString &w : ref->warnings) {
        QVERIFY2(run->warnings.contains(w), qPrintable(w));
    }
    QCOMPARE(run->warnings.filter(QStringLiteral("recorder: ")),
             ref->warnings.filter(QStringLiteral("recorder: ")));
    QVERIFY(run->warnings.join('\n').contains(QLatin1String("host clock went back")));
    // What the stream said of itself.
    if (damage == QLatin1String("broken")) {
        QCOMPARE(run->load.outcome, LoadOutcome::Damaged);
        QCOMPARE(run->load.message, refError);
    } else if (damage == QLatin1String("cut")) {
        QVERIFY(run->load.readInPart());
        QVERIFY(run->warnings.contains(refWarning));
    } else {
        QVERIFY(run->load.complete());
        QCOMPARE(run->lines.flags(run->lines.endIndex() - 1_lines) & NoNewline, int(NoNewline));
        QCOMPARE(lineText(*run, run->lines.endIndex() - 1_lines), QByteArray("login: \r"));
    }
}

// One boot received by netconsole in both forms (tests/fixtures/netconsole, counted in its
// README): the same 605 lines with the same kernel times and the same panic; the extended form's
// dictionaries are no lines, its record numbers have five gaps (15 debug messages below the
// console's log level), which are no drops, and its long line came in two fragments.
void TstRecordingLoad::netconsoleBothForms()
{
    const QString dir = QStringLiteral(TTYSCOPE_FIXTURES "/netconsole/");
    QString error;
    const std::unique_ptr<Run> plain =
        loadRun(dir + QStringLiteral("plain.ttyrec.zst"), {}, &error);
    QVERIFY2(plain, qPrintable(error));
    const std::unique_ptr<Run> extended =
        loadRun(dir + QStringLiteral("extended.ttyrec.zst"), {}, &error);
    QVERIFY2(extended, qPrintable(error));
    QCOMPARE(plain->lines.size(), 605_lines);
    QCOMPARE(extended->lines.size(), 605_lines);
    for (LineIndex i(0); i < plain->lines.endIndex(); ++i) {
        QVERIFY(plain->lines.kernelTime(i));
        QCOMPARE(extended->lines.kernelTime(i), plain->lines.kernelTime(i));
    }
    QCOMPARE(lineText(*extended, 0).left(44),
             QByteArray("5,0,0,-;Linux version 6.1.0-57-amd64 (debian"));
    QCOMPARE(extended->lines.level(LineIndex(0)), std::optional<int>(5));
    QCOMPARE(extended->metaLines, 74);
    QCOMPARE(plain->metaLines, 0);

    QVERIFY(!plain->recordNumbers.seen);
    QVERIFY(extended->recordNumbers.seen);
    QCOMPARE(extended->recordNumbers.missing, 15);
    QCOMPARE(extended->recordNumbers.gaps, 5);
    std::vector<std::pair<std::int64_t, std::uint32_t>> gaps;
    for (const Event &e : extended->events) {
        QVERIFY(e.kind != EventKind::Drop);
        if (e.kind == EventKind::Gap) {
            gaps.emplace_back(e.line.value(), e.count);
        }
    }
    QCOMPARE(gaps, (std::vector<std::pair<std::int64_t, std::uint32_t>>{
                       {15, 2}, {69, 2}, {240, 3}, {249, 1}, {336, 7}}));

    QCOMPARE(plain->warnings, QStringList());
    QCOMPARE(extended->warnings,
             QStringList{QStringLiteral("1 record(s) longer than one of netconsole's datagrams "
                                        "came in fragments (first: line 566): each is one line, "
                                        "with the headers of its later fragments (\",ncfrag=\") "
                                        "inside its text")});
    // The panic, at the same kernel time in both.
    for (const Run *r : {plain.get(), extended.get()}) {
        const auto panic = std::find_if(r->events.begin(), r->events.end(),
                                        [](const Event &e) { return e.kind == EventKind::Panic; });
        QVERIFY(panic != r->events.end());
        QCOMPARE(r->lines.kernelTime(panic->line), std::optional(KernelUs(5613022)));
        QVERIFY(lineText(*r, panic->line)
                    .endsWith("Kernel panic - not syncing: sysrq triggered crash"));
    }
    const Metrics p = computeMetrics(*plain, MetricOptions{});
    const Metrics x = computeMetrics(*extended, MetricOptions{});
    QCOMPARE(p.dropsUnknown, QString());
    QCOMPARE(p.droppedMessages, 0);
    QCOMPARE(x.dropsUnknown,
             QStringLiteral("15 record(s) missing: below the log level, dropped or lost"));
    QCOMPARE(x.kernelDuration, p.kernelDuration);
}

QTEST_GUILESS_MAIN(TstRecordingLoad)
#include "tst_recordingload.moc"
