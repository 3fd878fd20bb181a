// Load-and-analyse benchmark (run by hand, not a ctest).
//
//   bench_load [--runs N] [--plain] FILE.zst
//   bench_load --generate BYTES DIR      # genlog.py BYTES > DIR/big.log && zstd -q
//
// Measures, in the same run, `zstd -dc FILE > /dev/null` (the baseline) and ttyscope's
// loadRun + computeMetrics on the same file, N times each (medians), and prints the
// ratio, lines/s, peak RSS against the uncompressed size and the bytes per line of the
// line index and the time-series pyramid. --plain keeps the text decoded in memory (the
// store before issue 16), for an A/B in the same minutes.
#include "crashes.h"
#include "linesearch.h"
#include "metrics.h"
#include "run.h"
#include "runloader.h"
#include "sourcestats.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>

#include <algorithm>
#include <cstdio>
#include <sys/resource.h>
#include <vector>
#include <zstd.h>

using namespace tty;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double peakRssBytes()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_maxrss) * 1024.0;
}

// Decompressed size, by streaming (small buffers: it does not move the peak RSS).
std::int64_t uncompressedSize(const QString &path)
{
    std::FILE *f = std::fopen(QFile::encodeName(path).constData(), "rb");
    if (!f) {
        return -1;
    }
    ZSTD_DCtx *d = ZSTD_createDCtx();
    std::vector<char> in(ZSTD_DStreamInSize()), out(ZSTD_DStreamOutSize());
    std::int64_t total = 0;
    std::size_t n;
    while ((n = std::fread(in.data(), 1, in.size(), f)) > 0) {
        ZSTD_inBuffer ib{in.data(), n, 0};
        while (ib.pos < ib.size) {
            ZSTD_outBuffer ob{out.data(), out.size(), 0};
            if (ZSTD_isError(ZSTD_decompressStream(d, &ob, &ib))) {
                total = -1;
                break;
            }
            total += std::int64_t(ob.pos);
        }
    }
    ZSTD_freeDCtx(d);
    std::fclose(f);
    return total;
}

double timeShell(const QString &command)
{
    QElapsedTimer t;
    t.start();
    QProcess p;
    p.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command});
    p.waitForFinished(-1);
    const double s = double(t.nsecsElapsed()) * 1e-9;
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        std::fprintf(stderr, "bench_load: '%s' failed\n", qPrintable(command));
        std::exit(1);
    }
    return s;
}

QString shellQuote(const QString &s)
{
    QString q = s;
    q.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + q + QLatin1Char('\'');
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments();
    args.removeFirst();
    int runs = 3;
    LoadOptions options;
    for (bool more = true; more;) {
        more = false;
        if (args.size() >= 2 && args[0] == QLatin1String("--runs")) {
            runs = std::max(1, args[1].toInt());
            args.remove(0, 2);
            more = true;
        }
        if (!args.isEmpty() && args[0] == QLatin1String("--plain")) {
            options.packText = false;
            args.removeFirst();
            more = true;
        }
    }
    if (args.size() == 3 && args[0] == QLatin1String("--generate")) {
        const QString log = args[2] + QStringLiteral("/big.log");
        const QString cmd = QStringLiteral(TTYSCOPE_GENLOG " %1 > %2 && zstd -q -f %2")
                                .arg(args[1].toLongLong())
                                .arg(shellQuote(log));
        std::printf("generating: %s\n", qPrintable(cmd));
        timeShell(cmd);
        args = {log + QStringLiteral(".zst")};
    }
    if (args.size() != 1) {
        std::fprintf(stderr, "usage: bench_load [--runs N] [--plain] FILE.zst | bench_load "
                             "--generate BYTES DIR\n");
        return 2;
    }
    const QString file = args[0];
    const double compressed = double(QFileInfo(file).size());

    std::vector<double> baseline, load, analyse, total, sources, sourceIndex, literal, regex,
        crashes, crashesOneSlice;
    double sourceBytes = 0;
    std::size_t templates = 0;
    std::int64_t lines = 0;
    double indexBytes = 0, seriesBytes = 0, textBytes = 0, textMemory = 0, eventBytes = 0;
    // The first run's peak is what a process that opens the log sees (a user's report or
    // window). Later runs load beside what glibc's per-thread arenas kept of the runs before
    // (freed, not returned), so the peak over all runs is higher (docs/benchmarks.md).
    double firstRunRss = 0;
    for (int r = 0; r < runs; ++r) {
        // Alternate so that both see the same machine state.
        baseline.push_back(
            timeShell(QStringLiteral("zstd -dc %1 > /dev/null").arg(shellQuote(file))));
        QElapsedTimer t;
        t.start();
        QString error;
        std::unique_ptr<Run> run = loadRun(file, options, &error);
        if (!run) {
            std::fprintf(stderr, "bench_load: %s\n", qPrintable(error));
            return 1;
        }
        const double loaded = double(t.nsecsElapsed()) * 1e-9;
        const Metrics m = computeMetrics(*run, MetricOptions{});
        const double done = double(t.nsecsElapsed()) * 1e-9;
        // What the window does next, in the background (issue 14): the template of every
        // line and the cost of each source.
        const SourceIndex index = SourceIndex::build(*run);
        const double indexed = double(t.nsecsElapsed()) * 1e-9;
        const SourceTable st = computeSources(*run, index, m, SourceGrouping::Template);
        const double sourced = double(t.nsecsElapsed()) * 1e-9;
        sources.push_back(sourced - done);
        sourceIndex.push_back(indexed - done);
        // A search over all text as the log view's filter runs it: a literal that is rare
        // (genlog's noise lines count seq up), and a regex with no one literal to skip by.
        QElapsedTimer sw;
        sw.start();
        const auto lit =
            findMatchingLines(*run, QStringLiteral("seq 4242424"), nullptr, MatchText::Printed);
        literal.push_back(double(sw.nsecsElapsed()) * 1e-9);
        sw.restart();
        const auto re =
            findMatchingLines(*run, QStringLiteral("(worker 13 seq 42424\\d+|eth7 link down)$"),
                              nullptr, MatchText::Printed);
        regex.push_back(double(sw.nsecsElapsed()) * 1e-9);
        // The metrics' share that assembles crash reports (findCrashes), timed again alone.
        // Once in slices on every core (as the metrics do), once in one slice: the baseline
        // of the parallel assembly, in the same run.
        sw.restart();
        int sliced = 0;
        const std::size_t reports =
            findCrashes(*run, LineIndex(0), std::nullopt, 0, &sliced).size();
        crashes.push_back(double(sw.nsecsElapsed()) * 1e-9);
        sw.restart();
        const std::size_t oneSlice = findCrashes(*run, LineIndex(0), std::nullopt, 1).size();
        crashesOneSlice.push_back(double(sw.nsecsElapsed()) * 1e-9);
        std::printf("crashes: %zu reports assembled in %.3f s (%d slices; one slice %.3f s, %zu "
                    "reports)\n",
                    reports, crashes.back(), sliced, crashesOneSlice.back(), oneSlice);
        std::printf("search: literal %.3f s (%zu lines), regex %.3f s (%zu lines)\n",
                    literal.back(), lit ? lit->size() : 0, regex.back(), re ? re->size() : 0);
        sourceBytes = double(index.memoryBytes());
        templates = st.sources.size();
        load.push_back(loaded);
        analyse.push_back(done - loaded);
        total.push_back(done);
        lines = m.lines;
        textBytes = double(run->lines.textBytes());
        textMemory = double(run->lines.textMemoryBytes());
        indexBytes = double(run->lines.indexBytes());
        seriesBytes = double(run->series.memoryBytes());
        eventBytes = double(run->events.capacity() * sizeof(Event));
        std::printf("run %d: zstd -dc %.3f s, load %.3f s + metrics %.3f s = %.3f s (%lld lines, "
                    "%lld drops, lag max %.3f s); sources %.3f s\n",
                    r + 1, baseline.back(), loaded, done - loaded, done, (long long)m.lines,
                    (long long)m.droppedMessages, m.lagMax.value_or(-1), sourced - done);
        std::fflush(stdout);
        if (r == 0) {
            firstRunRss = peakRssBytes();
        }
    }
    const double rss = peakRssBytes();
    const double raw = double(uncompressedSize(file));
    const double b = median(baseline), l = median(total);
    std::printf("\nfile                 %s\n", qPrintable(file));
    std::printf("compressed           %.1f MiB, uncompressed %.1f MiB (ratio %.2f)\n",
                compressed / 1048576, raw / 1048576, raw / compressed);
    std::printf("lines                %lld\n", (long long)lines);
    std::printf("zstd -dc (median)    %.3f s\n", b);
    std::printf("load (median)        %.3f s\n", median(load));
    std::printf("metrics (median)     %.3f s (crash assembly alone %.3f s; in one slice %.3f s, "
                "%.2f x)\n",
                median(analyse), median(crashes), median(crashesOneSlice),
                median(crashesOneSlice) / median(crashes));
    std::printf("load+metrics         %.3f s  ->  ratio %.2f (target <= 1.3)\n", l, l / b);
    std::printf("lines/s              %.2f M\n", double(lines) / l * 1e-6);
    std::printf("sources (median)     %.3f s (target <= 1.5; the index %.3f s, the costs the "
                "rest), %zu sources, index 4 B/line + %.1f KiB of templates and drop notices "
                "(target <= 4 B/line + the templates)\n",
                median(sources), median(sourceIndex), templates,
                (sourceBytes - 4.0 * double(lines)) / 1024);
    std::printf("search (median)      literal %.3f s (target <= 0.5), regex %.3f s\n",
                median(literal), median(regex));
    std::printf("peak RSS             %.1f MiB = %.2f x uncompressed in the first run (target "
                "<= 0.5); %.1f MiB = %.2f x over all %d runs\n",
                firstRunRss / 1048576, firstRunRss / raw, rss / 1048576, rss / raw, runs);
    std::printf("index + series       %.2f + %.2f = %.2f B/line (target <= 12 + the series); "
                "events %.2f B/line\n",
                indexBytes / double(lines), seriesBytes / double(lines),
                (indexBytes + seriesBytes) / double(lines), eventBytes / double(lines));
    std::printf("text                 %.1f MiB, in memory %.1f MiB (%s, x%.2f)\n",
                textBytes / 1048576, textMemory / 1048576,
                options.packText ? "compressed" : "plain", textBytes / std::max(1.0, textMemory));
    return 0;
}
