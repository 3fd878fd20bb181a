// The fast paths for big logs against their plain definitions on the same input: the
// block-parallel parse (and the one-thread parse of a small file) against a line-by-line
// parse, which grows the line table one line at a time, the block cutter against LineFramer,
// the vectorised substring search against std::string_view::find, and the sliced series
// and lag quantiles against a count and a sort, and the line index's packed columns
// against plain vectors of the same values, and the compressed text store against the
// plain one.
#include "bytesearch.h"
#include "consoletext.h"
#include "digits.h"
#include "inputfile.h"
#include "lagsummary.h"
#include "lineframer.h"
#include "lineloader.h"
#include "linematcher.h"
#include "lineoffsets.h"
#include "linesearch.h"
#include "linetable.h"
#include "packedcolumn.h"
#include "parallel.h"
#include "runbuilder.h"
#include "sourceindex.h"
#include "textreader.h"
#include "tst_helpers.h"

#include <QRandomGenerator>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>

using namespace tty;
using namespace testutil;

namespace {

// A host-timestamped log with what makes the in-order merge matter: lines without a stamp
// (also at the very start), CRLF endings, a host clock that steps back, a panic, drops,
// empty lines and a last line without LF. About 90 bytes a line.
QByteArray awkwardLog(int lines, quint32 seed)
{
    QRandomGenerator rng(seed);
    QByteArray b = "no stamp on the first line\n";
    double host = 1700000000.0;
    for (int i = 0; i < lines; ++i) {
        host += rng.bounded(1000) * 1e-6;
        if (i == lines / 2) {
            host -= 5.0; // the host clock steps back
        }
        // Three boots: the kernel clock starts again, behind a banner.
        const int boot = i * 3 / lines;
        const double kernel = (i - boot * lines / 3) * 0.0005;
        if (i > 0 && i * 3 % lines < 3 && (i - 1) * 3 / lines != boot) {
            b += QByteArray::number(host, 'f', 6) + "\t[    0.000000] Linux version 6.1." +
                 QByteArray::number(boot) + " (test)\n";
        }
        const int kind = int(rng.bounded(100));
        QByteArray text = "[" + QByteArray::number(kernel, 'f', 6).rightJustified(12, ' ') +
                          "] worker " + QByteArray::number(rng.bounded(64)) + " seq " +
                          QByteArray::number(i);
        if (kind == 0) {
            text = "** " + QByteArray::number(rng.bounded(500) + 1) + " printk messages dropped **";
        } else if (kind == 1) {
            text = "[" + QByteArray::number(kernel, 'f', 6).rightJustified(12, ' ') +
                   "] Kernel panic - not syncing: test " + QByteArray::number(i);
        } else if (kind == 2) {
            text.clear();
        }
        if (kind == 3) {
            b += text + "\n"; // no stamp
        } else {
            b += QByteArray::number(host, 'f', 6) + (kind == 4 ? " " : "\t") + text +
                 (kind == 5 ? "\r\n" : "\n");
        }
    }
    b += QByteArray::number(host + 1, 'f', 6) + "\tunterminated";
    return b;
}

// The definition: LineFramer over the whole text, each line's stamp parsed as hostts
// says, RunBuilder::addLine one line at a time.
std::unique_ptr<Run> parseLineByLine(const QByteArray &data)
{
    auto run = std::make_unique<Run>();
    run->hasArrival = true;
    static const RuleSet rules = RuleSet::builtin();
    RunBuilder builder(*run, rules);
    std::optional<HostNs> last;
    auto line = [&](const LineFramer::Line &l) {
        std::int64_t ns = 0;
        const std::size_t q = parseSeconds(l.text, 0, &ns, 1);
        std::string_view text = l.text;
        // An untimed line keeps the stamp before it; before the first there is none.
        std::optional<HostNs> arrival = last;
        if (q != std::string_view::npos && q < text.size() && (text[q] == '\t' || text[q] == ' ')) {
            text = text.substr(q + 1);
            arrival = HostNs(ns);
            last = arrival;
        }
        builder.addBytes(std::int64_t(text.size()) + 2);
        builder.addLine(text, arrival, l.newline ? 0 : (l.split ? Split : NoNewline));
    };
    LineFramer framer;
    framer.feed(data.constData(), std::size_t(data.size()), std::nullopt, line);
    framer.finish(line);
    builder.finish();
    return run;
}

} // namespace

class TstScale : public QObject
{
    Q_OBJECT
private slots:
    void parallelParseMatchesLineByLine_data();
    void parallelParseMatchesLineByLine();
    void cutterCutsLikeLineFramer();
    void findBytesMatchesFind();
    void slicedSeriesAndLagQuantiles();
    void slicesRunOnceEachInOrder();
    void packedColumnMatchesPlainValues();
    void lineIndexTwelveBytesALine();
    void lineStartsPastSixteenMiB();
    void compressedStoreMatchesPlain();
    void appendedTextIsPackedAsItGrows();
    void piecesOfEmptyLinesHaveText();
    void printedSearchWithEscapesAcrossPieces();
};

void TstScale::parallelParseMatchesLineByLine_data()
{
    QTest::addColumn<bool>("compressed");
    QTest::addColumn<int>("lines");
    // About 5 blocks of 1 MiB: a reader thread and a parser per core.
    QTest::newRow("plain") << false << 100000;
    QTest::newRow("zstd") << true << 100000;
    // About 180 KB: parsed on the calling thread (a small file), the same way.
    QTest::newRow("plain, small") << false << 2000;
    QTest::newRow("zstd, small") << true << 2000;
}

void TstScale::parallelParseMatchesLineByLine()
{
    QFETCH(bool, compressed);
    QFETCH(int, lines);
    const QByteArray log = awkwardLog(lines, 11);
    QVERIFY(lines < 10000 ? log.size() < (256 << 10)
                          : log.size() > 4 * qsizetype(InputFile::kBlockBytes));
    QString error;
    const auto run = loadBytes(compressed ? zstdCompress(log) : log, withFormat("hostts"), &error);
    QVERIFY2(run, qPrintable(error));
    const auto ref = parseLineByLine(log);

    QCOMPARE(run->lines.size(), ref->lines.size());
    QCOMPARE(firstLineDifference(*run, *ref), QString());
    QCOMPARE(run->events.size(), ref->events.size());
    for (std::size_t e = 0; e < ref->events.size(); ++e) {
        QCOMPARE(run->events[e].line, ref->events[e].line);
        QCOMPARE(run->events[e].kind, ref->events[e].kind);
        QCOMPARE(run->events[e].count, ref->events[e].count);
    }
    QCOMPARE(run->bytes, ref->bytes);
    QCOMPARE(run->boots.size(), std::size_t(3));
    QCOMPARE(run->boots.size(), ref->boots.size());
    for (std::size_t k = 0; k < ref->boots.size(); ++k) {
        QCOMPARE(run->boots[k].first, ref->boots[k].first);
        QCOMPARE(run->boots[k].end, ref->boots[k].end);
        QCOMPARE(run->boots[k].kernelZero, ref->boots[k].kernelZero);
        QCOMPARE(run->boots[k].version, ref->boots[k].version);
    }
    QCOMPARE(run->kernelLines, ref->kernelLines);
    // The repairs were reported: the line before the first stamp, which has no time, the
    // later untimed lines with the first one, the clock step.
    QVERIFY(!run->lines.arrival(LineIndex(0)));
    QVERIFY(run->warnings.contains(
        QLatin1String("the first 1 line(s) had no host timestamp: when they came is not known")));
    QVERIFY(
        run->warnings.join('\n').contains(QLatin1String("had no host timestamp (first: line ")));
    QVERIFY(run->warnings.join('\n').contains(QLatin1String("host clock went back 1 time")));
    QCOMPARE(run->lines.flags(run->lines.endIndex() - 1_lines) & NoNewline, int(NoNewline));
}

void TstScale::cutterCutsLikeLineFramer()
{
    // Random text with long lines and CRs, fed in random chunk sizes, and a small maximum
    // line length so that over-long lines are cut: the blocks, parsed one by one, must
    // give LineFramer's lines, Split flags included.
    QRandomGenerator rng(5);
    QByteArray data;
    for (int i = 0; i < 3000; ++i) {
        const int len = rng.bounded(10) == 0 ? int(rng.bounded(400)) : int(rng.bounded(40));
        for (int k = 0; k < len; ++k) {
            data += char(rng.bounded(10) == 0 ? '\r' : 'a' + rng.bounded(26));
        }
        data += '\n';
    }
    data += "tail without newline";
    const std::size_t maxLine = 100;

    QList<QByteArray> expected;
    LineFramer framer(maxLine);
    auto keep = [&](const LineFramer::Line &l) {
        expected << QByteArray(l.text.data(), qsizetype(l.text.size())) + (l.split ? "|S" : "");
    };
    // In chunks smaller than the maximum, as the loader's megabyte blocks are smaller than
    // its 64 MiB maximum: LineFramer cuts only lines that span chunks.
    for (qsizetype at = 0; at < data.size();) {
        const qsizetype n = std::min<qsizetype>(data.size() - at, 1 + rng.bounded(50));
        framer.feed(data.constData() + at, std::size_t(n), std::nullopt, keep);
        at += n;
    }
    framer.finish(keep);

    QList<QByteArray> got;
    auto parseBlock = [&](std::string_view block, bool endsSplit) {
        std::size_t p = 0;
        while (p < block.size()) {
            const std::size_t nl = block.find('\n', p);
            if (nl == std::string_view::npos) {
                got << QByteArray(block.data() + p, qsizetype(block.size() - p)) +
                           (endsSplit ? "|S" : "");
                break;
            }
            std::size_t e = nl;
            while (e > p && block[e - 1] == '\r') {
                --e;
            }
            got << QByteArray(block.data() + p, qsizetype(e - p));
            p = nl + 1;
        }
    };
    LineBlockCutter cutter(maxLine);
    ByteBuffer buf;
    qsizetype at = 0;
    while (at < data.size()) {
        const qsizetype n = std::min<qsizetype>(data.size() - at, 1 + rng.bounded(100));
        const std::size_t from = buf.size();
        buf.resize(from + std::size_t(n));
        std::memcpy(buf.data() + from, data.constData() + at, std::size_t(n));
        at += n;
        cutter.cut(
            buf, from, [&](ByteBuffer &&b, bool split) { parseBlock(b.view(), split); },
            [] { return ByteBuffer(); });
    }
    parseBlock(buf.view(), false);
    QCOMPARE(got.size(), expected.size());
    QCOMPARE(got, expected);
}

void TstScale::findBytesMatchesFind()
{
    QRandomGenerator rng(3);
    for (int round = 0; round < 4000; ++round) {
        // A small alphabet, so that first and last bytes match often without a full match.
        const int n = int(rng.bounded(300));
        std::string hay(std::size_t(n), 'a');
        for (char &c : hay) {
            c = char('a' + rng.bounded(3));
        }
        const int k = 1 + int(rng.bounded(40));
        std::string needle(std::size_t(k), 'a');
        for (char &c : needle) {
            c = char('a' + rng.bounded(3));
        }
        if (round % 3 == 0 && k <= n) {
            hay.replace(std::size_t(n - k), std::size_t(k), needle); // a match at the very end
        }
        const std::size_t want = std::string_view(hay).find(needle);
        const char *got = findBytes(hay.data(), hay.size(), needle);
        QCOMPARE(got ? std::size_t(got - hay.data()) : std::string_view::npos, want);
    }
}

// runOnEveryCore: every slice once, none twice, whatever the count against the cores, on
// at most one thread per core; and forEachSlice's slices cover the range without a gap.
void TstScale::slicesRunOnceEachInOrder()
{
    for (const int count : {0, 1, 2, 3, 17, 200}) {
        std::mutex m;
        std::vector<int> taken;
        std::set<std::thread::id> threads;
        runOnEveryCore(count, [&](int k) {
            const std::lock_guard<std::mutex> l(m);
            taken.push_back(k);
            threads.insert(std::this_thread::get_id());
        });
        std::vector<int> sorted = taken;
        std::sort(sorted.begin(), sorted.end());
        std::vector<int> all(static_cast<std::size_t>(count));
        std::iota(all.begin(), all.end(), 0);
        QCOMPARE(sorted, all);
        QVERIFY(int(threads.size()) <= std::max(1, std::min(count, hardwareThreads())));
    }
    // Equal slices of a line range, each once, covering it without gaps.
    std::vector<std::pair<std::int64_t, std::int64_t>> bounds(7);
    forEachSlice(LineIndex(10), LineIndex(1010), 7, [&](int s, LineIndex from, LineIndex to) {
        bounds[std::size_t(s)] = {from.value(), to.value()};
    });
    QCOMPARE(bounds.front().first, std::int64_t(10));
    QCOMPARE(bounds.back().second, std::int64_t(1010));
    for (std::size_t s = 1; s < bounds.size(); ++s) {
        QCOMPARE(bounds[s].first, bounds[s - 1].second);
        QVERIFY(bounds[s].second - bounds[s].first >= 142);
    }
}

void TstScale::slicedSeriesAndLagQuantiles()
{
    // Enough lines that the passes after loading run in slices (two or more on a machine
    // with as many cores). A line every millisecond of kernel time, arriving 0-2 ms after
    // the one before: the lag wanders in whole milliseconds, so each rank has its value.
    QRandomGenerator rng(9);
    QByteArray log;
    const int n = 2100000; // two slices or more wherever there are two cores
    log.reserve(qsizetype(n) * 48);
    std::int64_t hostMs = 0;
    for (int i = 0; i < n; ++i) {
        hostMs += rng.bounded(3);
        log += QByteArray::number(1700000000 + hostMs / 1000) + '.' +
               QByteArray::number(hostMs % 1000).rightJustified(3, '0') + "\t[" +
               QByteArray::number(i / 1000).rightJustified(5, ' ') + '.' +
               QByteArray::number(i % 1000).rightJustified(3, '0') + "000] x\n";
    }
    const auto run = loadBytes(log, withFormat("hostts"));
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(n));

    // Series: each line counted once in the bin of its arrival (lines, lags) and of its
    // production, and its bytes spread over the time they took on the wire (at 115200 baud
    // from its arrival, up to the next line's), as a plain pass over the lines computes them.
    const SeriesPyramid::Level &fine = run->series.level(0);
    std::vector<double> printed(fine.bins(), 0), produced(fine.bins(), 0), bytes(fine.bins(), 0),
        lagCount(fine.bins(), 0), lagSum(fine.bins(), 0), lagMax(fine.bins(), 0);
    const double start = run->series.start(), width = fine.width;
    for (LineIndex i{0}; i < run->lines.endIndex(); ++i) {
        const double at = run->timeOf(i).value().count();
        const std::size_t a = std::size_t(run->series.binAt(at));
        printed[a] += 1;
        const double lineBytes = double(run->lines.text(i).size() + 2);
        double sent = at + lineBytes * 10 / 115200;
        if (i + 1_lines < run->lines.endIndex()) {
            sent = std::min(sent, std::max(at, run->timeOf(i + 1_lines).value().count()));
        }
        const auto binOf = [&](double t) {
            return std::min(std::size_t(std::max(0.0, std::floor((t - start) / width))),
                            fine.bins() - 1);
        };
        for (std::size_t b = binOf(at); b <= binOf(sent); ++b) {
            const double lo = std::max(at, start + double(b) * width);
            const double hi = b == binOf(sent) ? sent : start + double(b + 1) * width;
            bytes[b] += sent > at ? lineBytes * (hi - lo) / (sent - at) : lineBytes;
        }
        produced[std::size_t(run->series.binAt(run->producedAt(i).value().count()))] += 1;
        const double lag = (run->timeOf(i).value() - run->producedAt(i).value()).count();
        lagCount[a] += 1;
        lagSum[a] += lag;
        lagMax[a] = std::max(lagMax[a], lag);
    }
    for (std::size_t b = 0; b < fine.bins(); ++b) {
        auto got = [&](Channel c) { return double(fine.ch[std::size_t(c)][b]); };
        if (got(Channel::Printed) != printed[b] || got(Channel::Produced) != produced[b] ||
            std::fabs(got(Channel::Bytes) - bytes[b]) > 1e-3 * (1 + bytes[b]) ||
            got(Channel::LagCount) != lagCount[b] ||
            std::fabs(got(Channel::LagSum) - lagSum[b]) > 1e-3 * (1 + lagCount[b]) ||
            std::fabs(got(Channel::LagMax) - lagMax[b]) > 1e-5) {
            QFAIL(qPrintable(QStringLiteral("bin %1 differs").arg(b)));
        }
    }
    // Each coarser level: four bins of the one below folded into one, from 0 and in order
    // (a sum, or for the lag maximum a maximum), exactly.
    QVERIFY(run->series.levels() >= 8);
    for (int l = 1; l < run->series.levels(); ++l) {
        const SeriesPyramid::Level &below = run->series.level(l - 1), &level = run->series.level(l);
        QCOMPARE(level.width, below.width * 4);
        QCOMPARE(level.bins(), (below.bins() + 3) / 4);
        for (int c = 0; c < kChannelCount; ++c) {
            const std::vector<float> &src = below.ch[std::size_t(c)];
            for (std::size_t b = 0; b < level.bins(); ++b) {
                float want = 0.0f;
                for (std::size_t i = 4 * b; i < 4 * b + 4 && i < src.size(); ++i) {
                    want = c == int(Channel::LagMax) ? std::max(want, src[i]) : want + src[i];
                }
                if (level.ch[std::size_t(c)][b] != want) {
                    QFAIL(qPrintable(
                        QStringLiteral("level %1 channel %2 bin %3 differs").arg(l).arg(c).arg(b)));
                }
            }
        }
    }

    // Lag quantiles: the nearest rank of the sorted lags.
    std::vector<double> lags;
    for (LineIndex i{0}; i < run->lines.endIndex(); ++i) {
        lags.push_back(run->lagOf(i).value().count());
    }
    std::sort(lags.begin(), lags.end());
    const LagSummary s = summariseLags(*run, LineIndex(0), run->lines.endIndex());
    QCOMPARE(s.count, qint64(n));
    QVERIFY(std::fabs(*s.p50 - lags[rankOf(lags.size(), 0.5)]) < 1e-5);
    QVERIFY(std::fabs(*s.p99 - lags[rankOf(lags.size(), 0.99)]) < 1e-5);
    QVERIFY(std::fabs(*s.max - lags.back()) < 1e-6);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.lagP50, s.p50);

    // Search: the bulk, sliced search finds what a line-by-line match finds; a cancelled
    // one returns nothing.
    for (const char *pattern : {"] x", "x$", "^\\[ *1[0-9]\\.5", "(17|20)\\.9.*x"}) {
        const LineMatcher m{QString::fromLatin1(pattern)};
        std::vector<LineIndex> want;
        for (LineIndex i{0}; i < run->lines.endIndex(); ++i) {
            if (m.matches(run->lines.text(i).str())) {
                want.push_back(i);
            }
        }
        const auto got = findMatchingLines(*run, QString::fromLatin1(pattern), nullptr);
        QVERIFY(got);
        QVERIFY2(*got == want, pattern);
    }
    const std::atomic<bool> stop{true};
    QVERIFY(!findMatchingLines(*run, QStringLiteral("x"), &stop));

    // The first line matching (--boot-pattern, --span) is the first of the whole range,
    // whichever slice finds one first: "999." is in both halves of the run, "1999." only
    // in the second.
    const LineIndex end = run->lines.endIndex();
    QCOMPARE(findFirst(*run, QStringLiteral("999\\."), LineIndex(0), end), LineIndex(999000));
    QCOMPARE(findFirst(*run, QStringLiteral("1999\\."), LineIndex(0), end), LineIndex(1999000));
    QCOMPARE(findFirst(*run, QStringLiteral("999\\."), LineIndex(999001), end), LineIndex(999001));
    QCOMPARE(findFirst(*run, QStringLiteral("x y"), LineIndex(0), end), std::nullopt);

    // A range that is not the whole run is summarised on its own, by slices as well.
    const LineIndex from{1000};
    std::vector<double> part;
    for (LineIndex i = from; i < run->lines.endIndex(); ++i) {
        part.push_back(run->lagOf(i).value().count());
    }
    std::sort(part.begin(), part.end());
    const LagSummary r = summariseLags(*run, from, run->lines.endIndex());
    QCOMPARE(r.count, qint64(part.size()));
    QCOMPARE(r.kernelLines, qint64(part.size()));
    QVERIFY(std::fabs(*r.p50 - part[rankOf(part.size(), 0.5)]) < 1e-5);
    QVERIFY(std::fabs(*r.p99 - part[rankOf(part.size(), 0.99)]) < 1e-5);
}

// Every kind of sequence the clocks give, coded and read back exactly: dense and sparse
// stamps, steps back, values missing, the extremes of int64; then single values set out of
// their group's range, a rewrite of all lines in order, and lines taken back.
void TstScale::packedColumnMatchesPlainValues()
{
    QRandomGenerator rng(12);
    std::vector<std::optional<std::int64_t>> plain;
    std::int64_t v = 1700000000LL * 1000000000LL;
    const std::size_t n = 3 * PackedColumn::kChunkLines + 1234;
    for (std::size_t i = 0; i < n; ++i) {
        const int kind = int(rng.bounded(1000));
        if (i < 70000) {
            v += rng.bounded(100000); // dense: up to 0.1 ms apart
        } else if (i < 140000) {
            v += std::int64_t(rng.bounded(3000)) * 1000000; // sparse: up to 3 s apart
        } else {
            v += rng.bounded(2000000);
        }
        std::optional<std::int64_t> x = v;
        if (kind < 20) {
            x.reset();
        } else if (kind < 25) {
            x = v - std::int64_t(rng.bounded(400)) * 1000000; // up to 0.4 s back
        } else if (kind == 25) {
            x = std::numeric_limits<std::int64_t>::min();
        } else if (kind == 26) {
            x = std::numeric_limits<std::int64_t>::max();
        } else if (kind == 27) {
            x = -v;
        }
        plain.push_back(x);
    }
    const auto check = [&](const PackedColumn &c, int bits) {
        if (c.size() != plain.size()) {
            return QStringLiteral("%1 lines, not %2").arg(c.size()).arg(plain.size());
        }
        for (std::size_t i = 0; i < plain.size(); ++i) {
            if (c.value(i) != plain[i] ||
                c.payload(i) != (bits == 32 ? 0u : std::uint32_t(i % 200))) {
                return QStringLiteral("line %1 of %2 bits").arg(i).arg(bits);
            }
        }
        return QString();
    };
    for (const int bits : {32, 24}) {
        PackedColumn c(bits, bits == 32 ? 250000000 : 1000000);
        for (std::size_t i = 0; i < plain.size(); ++i) {
            c.append(plain[i], bits == 32 ? 0u : std::uint32_t(i % 200));
        }
        QCOMPARE(check(c, bits), QString());
        for (int k = 0; k < 300; ++k) {
            const std::size_t i = rng.bounded(quint32(plain.size()));
            plain[i] = k % 3 == 0 ? std::nullopt
                                  : std::optional<std::int64_t>(std::int64_t(rng.generate64()));
            c.set(i, plain[i]);
        }
        QCOMPARE(check(c, bits), QString());
        c.rewrite([&](std::size_t i) {
            plain[i] =
                i % 7 == 0 ? std::nullopt : std::optional<std::int64_t>(std::int64_t(i) * 999);
            return plain[i];
        });
        QCOMPARE(check(c, bits), QString());
        for (int k = 0; k < 1300; ++k) {
            c.popBack();
            plain.pop_back();
        }
        for (int k = 0; k < 500; ++k) {
            plain.push_back(std::int64_t(k) << 40);
            c.append(plain.back(), bits == 32 ? 0u : std::uint32_t((plain.size() - 1) % 200));
        }
        QCOMPARE(check(c, bits), QString());
    }
}

// At most 12 bytes a line for offsets, both times and the flags (issue 16): 11 and the
// groups' bases on a log as dense as a flood (2,000 lines/s host and kernel time), and as
// sparse as a quiet console (a line every 2 s: an arrival group every 2 lines, 17.3 bytes
// a line; such a log has few lines).
// A loaded log ends inside a chunk: the table is trimmed (as the loader does), and lines
// appended after it grow the chunk back, keeping every line before.
void TstScale::lineIndexTwelveBytesALine()
{
    for (const double gap : {0.0005, 2.0}) {
        LineTable t;
        const std::int64_t n = 4 * std::int64_t(PackedColumn::kChunkLines) + 1000;
        auto arrivalOf = [&](std::int64_t i) {
            return HostNs(1700000000000000000LL + std::int64_t(double(i) * gap * 1e9));
        };
        auto append = [&](std::int64_t i) {
            t.append("x", arrivalOf(i), KernelUs(std::int64_t(double(i) * gap * 1e6)),
                     std::uint16_t(i % 2 ? 7 : 0));
        };
        for (std::int64_t i = 0; i < n; ++i) {
            append(i);
        }
        const std::size_t untrimmed = t.indexBytes();
        t.trimToSize();
        // The last chunk's room for 64,536 more lines, at 11 bytes each, given back (and
        // the spare capacity of the columns' group vectors, which depends on how they grew).
        QVERIFY2(untrimmed - t.indexBytes() >= std::size_t(PackedColumn::kChunkLines - 1000) * 11,
                 qPrintable(QString::number(untrimmed - t.indexBytes())));
        QCOMPARE(t.arrival(LineIndex(n - 1)),
                 std::optional<HostNs>(
                     HostNs(1700000000000000000LL + std::int64_t(double(n - 1) * gap * 1e9))));
        QCOMPARE(t.flags(LineIndex(n - 1)), std::uint16_t(7));
        const double perLine = double(t.indexBytes()) / double(n);
        qInfo("gap %.4f s: %.4f index bytes a line", gap, perLine);
        // 3 bytes of offset and 8 of time codes a line, and the groups' bases and block
        // table: 0.006 a line.
        QVERIFY2(perLine <= (gap < 1 ? 11.01 : 17.5), qPrintable(QString::number(perLine)));
        // Growing back: two more chunks' worth, every line read back.
        const std::int64_t more = n + 2 * std::int64_t(PackedColumn::kChunkLines);
        for (std::int64_t i = n; i < more; ++i) {
            append(i);
        }
        for (std::int64_t i = n - 1100; i < more; i += 97) {
            QCOMPARE(t.arrival(LineIndex(i)), std::optional<HostNs>(arrivalOf(i)));
            QCOMPARE(t.flags(LineIndex(i)), std::uint16_t(i % 2 ? 7 : 0));
            QCOMPARE(t.textSize(LineIndex(i)), std::size_t(1));
        }
    }
}

// A line that starts 16 MiB or more into its text chunk (an empty line after an over-long
// one in a live capture) does not fit the offsets' 3 bytes: its index chunk is widened to
// 4, every offset before it kept, and the table reads as before.
void TstScale::lineStartsPastSixteenMiB()
{
    LineOffsets o(4);
    o.set(0, 0, 0);
    o.set(1, 0xfffffe, 1);
    o.set(2, 0xffffff, 2);
    QVERIFY(!o.isWide());
    QCOMPARE(o.memoryBytes(), std::size_t(4 * 3 + 1));
    o.set(3, 0x1000000, 3);
    QVERIFY(o.isWide());
    QCOMPARE(o.memoryBytes(), std::size_t(4 * 4));
    QCOMPARE(o[0], 0u);
    QCOMPARE(o[1], 0xfffffeu);
    QCOMPARE(o[2], 0xffffffu);
    QCOMPARE(o[3], 0x1000000u);

    // A live capture: a 17 MiB line has a text chunk of its own, and an empty line after
    // it still fits there, starting at 17 MiB.
    LineTable t;
    const std::string big(17u << 20, 'b');
    t.append("first", std::nullopt, std::nullopt, 0);
    t.append(big, std::nullopt, std::nullopt, 0);
    t.append("", std::nullopt, std::nullopt, 0);
    t.append("last", std::nullopt, std::nullopt, 0);
    QCOMPARE(t.size(), LineCount(4));
    QCOMPARE(t.text(LineIndex(0)).str(), std::string("first"));
    QCOMPARE(t.textSize(LineIndex(1)), big.size());
    QVERIFY(t.text(LineIndex(1)).str() == big);
    QCOMPARE(t.textSize(LineIndex(2)), std::size_t(0));
    QCOMPARE(t.text(LineIndex(2)).str(), std::string());
    QCOMPARE(t.text(LineIndex(3)).str(), std::string("last"));

    // A load, its text plain or packed, of a 20 MiB line and lines after it (the loader
    // starts a block after such a line, so these start again near 0).
    QByteArray log = "[    1.000000] a\n[    2.000000] " + QByteArray(20 << 20, 'L') + "\n";
    for (int i = 0; i < 100; ++i) {
        log += "[    3.000000] after " + QByteArray::number(i) + "\n";
    }
    for (const bool pack : {false, true}) {
        LoadOptions o = withFormat("dmesg-text");
        o.packText = pack;
        const auto run = loadBytes(log, o);
        QVERIFY(run);
        QCOMPARE(run->lines.size(), LineCount(102));
        QCOMPARE(run->lines.textSize(LineIndex(1)), std::size_t(20 << 20)); // no time prefix
        for (int i = 0; i < 100; ++i) {
            QCOMPARE(run->lines.text(LineIndex(2 + i)).str(), "after " + std::to_string(i));
        }
        QCOMPARE(run->lines.kernelTime(LineIndex(101)), std::optional<KernelUs>(KernelUs(3000000)));
    }
}

// The same log loaded with its text compressed (the default) and plain: every line's text
// by random access through both readers, the literal and regex searches, and the memory.
void TstScale::compressedStoreMatchesPlain()
{
    QByteArray log = awkwardLog(100000, 23);
    // A line longer than a piece (kPackedPieceBytes) makes a piece of its own.
    log.insert(log.indexOf("\n", log.size() / 3) + 1,
               "1700000100.000000\t" + QByteArray(300000, 'L') + "ong\n");
    QString error;
    LoadOptions plainOptions = withFormat("hostts");
    plainOptions.packText = false;
    const auto packed = loadBytes(log, withFormat("hostts"), &error);
    QVERIFY2(packed, qPrintable(error));
    const auto plain = loadBytes(log, plainOptions, &error);
    QVERIFY2(plain, qPrintable(error));
    const LineTable &a = packed->lines, &b = plain->lines;
    QCOMPARE(a.size(), LineCount(100000 + 5)); // + first line, 2 banners, long, unterminated
    QCOMPARE(a.size(), b.size());
    QCOMPARE(a.textBytes(), b.textBytes());
    // Compressed: the 9.6 MB of text take about a fifth; plain: exactly the text.
    QCOMPARE(b.textMemoryBytes(), b.textBytes());
    QVERIFY2(a.textMemoryBytes() * 3 < a.textBytes(),
             qPrintable(QString::number(a.textMemoryBytes())));

    // Random access: lines far apart, so each read is in another piece.
    TextReader ra(a), rb(b);
    QRandomGenerator rng(5);
    for (int k = 0; k < 3000; ++k) {
        const LineIndex i(std::int64_t(rng.bounded(quint32(a.size().count()))));
        const LineText t = a.text(i);
        const std::string viaReader(ra.text(i));
        const std::string want(rb.text(i));
        if (t.view() != want || viaReader != want || a.textSize(i) != want.size()) {
            QFAIL(qPrintable(QStringLiteral("line %1 differs").arg(i.value())));
        }
    }
    // In order, every line (the way passes over a run read).
    for (LineIndex i{0}; i < a.endIndex(); ++i) {
        if (ra.text(i) != rb.text(i)) {
            QFAIL(qPrintable(QStringLiteral("line %1 differs in order").arg(i.value())));
        }
    }
    const std::optional<LineIndex> longLine =
        ra.findContaining("LLLLong", LineIndex(0), a.endIndex());
    QVERIFY(longLine);
    QCOMPARE(ra.text(*longLine).size(), std::size_t(300003));

    // Literal search, hit by hit, and across a piece's end (a needle that is not there).
    for (const char *needle :
         {"seq 4242", "not syncing", "printk messages dropped", "Linux version", "no such text"}) {
        std::vector<LineIndex> hitsA, hitsB;
        for (LineIndex i{0}; i < a.endIndex(); ++i) {
            const std::optional<LineIndex> h = ra.findContaining(needle, i, a.endIndex());
            if (!h) {
                break;
            }
            hitsA.push_back(*h);
            i = *h;
        }
        for (LineIndex i{0}; i < b.endIndex(); ++i) {
            if (rb.text(i).find(needle) != std::string_view::npos) {
                hitsB.push_back(i);
            }
        }
        QCOMPARE(hitsA, hitsB);
    }
    // Printed text: a literal found in bulk, then matched per line.
    const auto panicA =
        findMatchingLines(*packed, QStringLiteral("panic - not"), nullptr, MatchText::Printed);
    const auto panicB =
        findMatchingLines(*plain, QStringLiteral("panic - not"), nullptr, MatchText::Printed);
    QVERIFY(panicA && panicB);
    QCOMPARE(*panicA, *panicB);
    QVERIFY(panicA->size() > 500);
    const auto regexA = findMatchingLines(*packed, QStringLiteral("worker (1|22) seq \\d+7$"),
                                          nullptr, MatchText::Bytes);
    const auto regexB = findMatchingLines(*plain, QStringLiteral("worker (1|22) seq \\d+7$"),
                                          nullptr, MatchText::Bytes);
    QVERIFY(regexA && regexB);
    QCOMPARE(*regexA, *regexB);
    QVERIFY(regexA->size() > 100);
}

// A log loaded a line at a time (the record formats, a live run's lines): with packing on,
// each full chunk is compressed when the next starts; the last stays plain, so that a live
// capture's last line can still be completed (replaceLast), also after a packed block.
void TstScale::appendedTextIsPackedAsItGrows()
{
    LineTable packed, plain;
    packed.setPackText(true);
    std::vector<std::string> want;
    for (int i = 0; i < 60000; ++i) {
        want.push_back("[" + std::to_string(i) + "] line of text number " + std::to_string(i * 7));
        packed.append(want.back(), HostNs(i), KernelUs(i), 0);
        plain.append(want.back(), HostNs(i), KernelUs(i), 0);
    }
    QCOMPARE(packed.textBytes(), plain.textBytes());
    QVERIFY2(packed.textMemoryBytes() * 3 < packed.textBytes(),
             qPrintable(QString::number(packed.textMemoryBytes())));
    packed.replaceLast("completed last line", 0);
    want.back() = "completed last line";
    TextReader reader(packed);
    for (std::size_t i = 0; i < want.size(); i += 97) {
        const LineText t = packed.text(LineIndex(std::int64_t(i)));
        QCOMPARE(std::string(t.view()), want[i]);
        QCOMPARE(std::string(reader.text(LineIndex(std::int64_t(i)))), want[i]);
    }
    QCOMPARE(packed.text(LineIndex(59999)).str(), std::string("completed last line"));

    // A block compressed on a parser's thread, then a live line completing its last one.
    LineTable table;
    const std::string text = "first\nsecond\nthird";
    std::vector<PackedText> pieces;
    pieces.push_back(packText("firstsecond"));
    pieces.push_back(packText("third"));
    const std::size_t pieceLines[] = {2, 1};
    const std::uint32_t offsets[] = {0, 5, 0};
    const std::int64_t arrivals[] = {1, 2, 3};
    const std::int64_t kf[] = {0, 0, 0};
    table.appendPackedBlock(std::move(pieces), pieceLines, offsets, arrivals, kf, 3);
    QCOMPARE(table.text(LineIndex(1)).str(), std::string("second"));
    QCOMPARE(table.text(LineIndex(2)).str(), std::string("third"));
    table.replaceLast("third, completed", NoNewline);
    table.append("fourth", HostNs(4), std::nullopt, 0);
    QCOMPARE(table.text(LineIndex(0)).str(), std::string("first"));
    QCOMPARE(table.text(LineIndex(2)).str(), std::string("third, completed"));
    QCOMPARE(table.text(LineIndex(3)).str(), std::string("fourth"));
    QCOMPARE(table.textSize(LineIndex(2)), std::size_t(16));
}

// A compressed piece of nothing but empty lines (a serial line held low, read as a run of
// line ends) holds no byte. Its lines are still views into memory, as callers hand them to
// memcpy and memcmp (fuzz_load_zstd found a null view reaching memcpy in
// SourceIndex::build: undefined behaviour even for 0 bytes).
void TstScale::piecesOfEmptyLinesHaveText()
{
    // A line longer than a piece ends one; the empty lines after it make the last piece.
    QByteArray log = "1700000000.000000\t[    0.000000] Linux version 6.1.0-9-amd64 (d@b)\n";
    log += "1700000000.500000\t" + QByteArray(300000, 'L') + "\n";
    log += QByteArray(1000, '\n');
    for (const QByteArray &input : {log, QByteArray(5, '\n')}) {
        QString error;
        const auto run = loadBytes(input, withFormat("hostts"), &error);
        QVERIFY2(run, qPrintable(error));
        const std::int64_t lines = run->lines.size().count();
        const std::int64_t firstEmpty = input.size() == 5 ? 0 : 2;
        QCOMPARE(lines, firstEmpty + (input.size() == 5 ? 5 : 1000));
        TextReader reader(run->lines);
        std::int64_t nullViews = 0, nonEmpty = 0;
        for (LineIndex i{firstEmpty}; i < LineIndex(lines); ++i) {
            const std::string_view t = reader.text(i);
            nullViews += t.data() == nullptr;
            nonEmpty += !t.empty();
        }
        QCOMPARE(nullViews, std::int64_t(0));
        QCOMPARE(nonEmpty, std::int64_t(0));
        // The empty lines are one source: no kernel time, no text.
        const SourceIndex sources = SourceIndex::build(*run);
        const std::optional<std::uint32_t> empty = sources.find("", false);
        QVERIFY(empty);
        QCOMPARE(sources.templateOf(LineIndex(firstEmpty)), *empty);
        QCOMPARE(sources.templateOf(LineIndex(lines - 1)), *empty);
        // (The index always holds the WARN splat's "cut here" template, with no line.)
        const auto &all = sources.templates();
        QCOMPARE(std::count_if(all.begin(), all.end(), [](const auto &t) { return t.example; }),
                 firstEmpty + 1);
    }
}

QTEST_GUILESS_MAIN(TstScale)

// The printed-text search finds a literal's lines and the lines with escape sequences in
// one pass over each piece: many hits of both in every piece, of three kinds (the literal
// in the bytes, in bytes with colours around it, and only in the printed text), against
// the definition line by line.
void TstScale::printedSearchWithEscapesAcrossPieces()
{
    QByteArray log;
    for (int i = 0; i < 60000; ++i) {
        log += "17000" + QByteArray::number(10000 + i / 100) + "." +
               QByteArray::number(100000 + i % 100) + "\t";
        const QByteArray n = QByteArray::number(i % 1000);
        switch (i % 4) {
        case 0:
            log += "worker seq " + n;
            break;
        case 1:
            log += "worker \x1b[1mseq " + n + "\x1b[0m";
            break;
        case 2:
            log += "worker se\x1b[0mq " + n; // "seq N" only once the escape is gone
            break;
        case 3:
            log += "\x1b[32mOK\x1b[0m " + n;
            break;
        }
        log += '\n';
    }
    QString error;
    const auto run = loadBytes(log, withFormat("hostts"), &error);
    QVERIFY2(run, qPrintable(error));
    QCOMPARE(run->lines.size(), LineCount(60000));
    QVERIFY(run->lines.endIndex() > TextReader(run->lines).pieceEnd(LineIndex(0)));
    TextReader reader(run->lines);
    for (const MatchText on : {MatchText::Printed, MatchText::Bytes}) {
        std::vector<LineIndex> want;
        for (LineIndex i{0}; i < run->lines.endIndex(); ++i) {
            const std::string_view bytes = reader.text(i);
            const std::string text =
                on == MatchText::Printed ? printedText(bytes) : std::string(bytes);
            if (text.find("seq 12") != std::string::npos) {
                want.push_back(i);
            }
        }
        const auto got = findMatchingLines(*run, QStringLiteral("seq 12"), nullptr, on);
        QVERIFY(got);
        QCOMPARE(*got, want);
        // N = i % 1000 starts with 12 for 11 values (12, 120-129), each on 60 lines, and
        // the kind is N % 4: 4 of the values in plain lines, 3 coloured, 2 split by an
        // escape, 2 "OK". The printed text has the first three, the bytes the first two.
        QCOMPARE(got->size(), std::size_t(on == MatchText::Printed ? 9 * 60 : 7 * 60));
    }
}

#include "tst_scale.moc"
