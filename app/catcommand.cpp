#include "commands.h"

#include "formats.h"
#include "inputfile.h"
#include "interrupt.h"
#include "recordingdecoder.h"
#include "runloader.h"

#include <QCommandLineParser>

#include <cinttypes>
#include <cstdio>

namespace tty {

namespace {
// A recording is written back as the bytes received, exactly: no line framing involved.
void catRecording(InputFile &in, const QString &path, bool *damaged)
{
    RecordingDecoder dec([](const RecordingDecoder::Piece &p) {
        if (p.type == 'D') {
            std::fwrite(p.data.data(), 1, p.data.size(), stdout);
        }
    });
    std::string block;
    while (in.read(block)) {
        if (!dec.feed(block.data(), block.size())) {
            break;
        }
        if (!in.isRegular()) {
            std::fflush(stdout); // a pipe: show what came as it comes
        }
    }
    dec.finish();
    for (const QString &m : {in.warning(), in.error(), dec.warning(), dec.error()}) {
        if (!m.isEmpty()) {
            std::fprintf(stderr, "ttyscope cat: %s: %s\n", qPrintable(path), qPrintable(m));
            *damaged = true;
        }
    }
    if (in.cancelled()) {
        std::fprintf(stderr, "ttyscope cat: %s: interrupted: what was read was written\n",
                     qPrintable(path));
        *damaged = true;
    }
}

// Writes the lines [from, run.lines.size()) and returns the new end.
LineIndex writeLines(const Run &run, LineIndex from, bool times)
{
    for (LineIndex i = from; i < run.lines.endIndex(); ++i) {
        if (times) {
            const std::optional<HostNs> arrival = run.lines.arrival(i);
            if (run.hasArrival && arrival) {
                const std::int64_t a = arrival->count();
                std::printf("%" PRId64 ".%06" PRId64 "\t", a / 1000000000, (a % 1000000000) / 1000);
            } else {
                std::fputs("-\t", stdout);
            }
        }
        const std::string_view t = run.lines.text(i);
        std::fwrite(t.data(), 1, t.size(), stdout);
        if (!(run.lines.flags(i) & (NoNewline | Split))) {
            std::fputc('\n', stdout);
        }
    }
    return run.lines.endIndex();
}

// One file, opened once: a pipe or FIFO cannot be read twice, so the bytes read to tell
// the format are handed on to whichever reader writes them.
int catFile(const QString &path, LoadOptions lo, bool times, bool *damaged)
{
    InputFile in;
    in.setCancel(lo.cancel);
    QString error;
    if (!in.open(path, &error)) {
        std::fprintf(stderr, "ttyscope cat: %s\n", qPrintable(error));
        return 1;
    }
    std::string head;
    const bool any = in.read(head);
    const bool detect = lo.format.isEmpty() || lo.format == QLatin1String("auto");
    const bool recording =
        !times && (lo.format == QLatin1String("ttyscope") ||
                   (detect && any && detectFormat(head) == QLatin1String("ttyscope")));
    in.putBack(std::move(head));
    if (recording) {
        catRecording(in, path, damaged);
        return 0;
    }
    // Lines are written as they are loaded (a pipe's writer may stay open for hours).
    LineIndex written{0};
    lo.progress = [&](const LoadProgress &p) {
        if (p.run) {
            written = writeLines(*p.run, written, times);
            std::fflush(stdout);
        }
    };
    std::unique_ptr<Run> run = loadRun(in, path, lo, &error);
    if (!run) {
        std::fprintf(stderr, "ttyscope cat: %s\n", qPrintable(error));
        return 1;
    }
    writeLines(*run, written, times);
    for (const QString &w : run->warnings) {
        std::fprintf(stderr, "ttyscope cat: %s: warning: %s\n", qPrintable(path), qPrintable(w));
    }
    if (!run->error.isEmpty()) {
        std::fprintf(stderr, "ttyscope cat: %s: %s\n", qPrintable(path), qPrintable(run->error));
    }
    if (!run->error.isEmpty() || run->truncated) {
        *damaged = true; // read in part, as report says
    }
    return 0;
}
} // namespace

int runCat(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Writes the console text of logs to stdout without the format's own time stamps; "
        "for ttyscope recordings, the received bytes exactly."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("cat"), QStringLiteral("The command."));
    p.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Logs."),
                            QStringLiteral("FILE..."));
    p.addOption({QStringLiteral("times"),
                 QStringLiteral("Prefix each line with its arrival time as '<unix seconds>\\t'.")});
    p.addOption({QStringLiteral("format"), QStringLiteral("Input format (default: detect)."),
                 QStringLiteral("NAME"), QStringLiteral("auto")});
    p.process(args);
    QStringList files = p.positionalArguments();
    files.removeFirst();
    if (files.isEmpty()) {
        std::fprintf(stderr, "ttyscope cat: no files given\n");
        return 2;
    }
    LoadOptions lo;
    lo.format = p.value(QStringLiteral("format"));
    lo.cancel = interruptFlag();
    const bool times = p.isSet(QStringLiteral("times"));
    int rc = 0;
    bool damaged = false;
    for (const QString &f : files) {
        rc = std::max(rc, catFile(f, lo, times, &damaged));
    }
    std::fflush(stdout);
    return rc != 0 ? rc : (damaged ? 3 : 0);
}

} // namespace tty
