#include "commands.h"

#include "formatregistry.h"
#include "inputfile.h"
#include "interrupt.h"
#include "recordingdecoder.h"
#include "runloader.h"

#include <QCommandLineParser>

#include <cinttypes>
#include <cstdio>
#include <utility>

namespace tty {

namespace {
// A recording is written back as the bytes received, exactly: no line framing involved.
void catRecording(InputFile &in, const QString &path, LoadOutcome *worst)
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
    const std::pair<QString, LoadOutcome> messages[] = {{in.warning(), LoadOutcome::Truncated},
                                                        {in.error(), LoadOutcome::Damaged},
                                                        {dec.warning(), LoadOutcome::Truncated},
                                                        {dec.error(), LoadOutcome::Damaged}};
    for (const auto &[m, outcome] : messages) {
        if (!m.isEmpty()) {
            std::fprintf(stderr, "ttyscope cat: %s: %s\n", qPrintable(path), qPrintable(m));
            *worst = worse(*worst, outcome);
        }
    }
    if (in.cancelled()) {
        std::fprintf(stderr, "ttyscope cat: %s: interrupted: what was read was written\n",
                     qPrintable(path));
        *worst = worse(*worst, LoadOutcome::Cancelled);
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
        const LineText held = run.lines.text(i);
        const std::string_view t = held.view();
        std::fwrite(t.data(), 1, t.size(), stdout);
        if (!(run.lines.flags(i) & (NoNewline | Split))) {
            std::fputc('\n', stdout);
        }
    }
    return run.lines.endIndex();
}

// One file, opened once: a pipe or FIFO cannot be read twice, so the bytes read to tell
// the format are handed on to whichever reader writes them.
// The outcome of each file is folded into *worst (unreadable: LoadOutcome::Unreadable).
void catFile(const QString &path, LoadOptions lo, bool times, LoadOutcome *worst)
{
    InputFile in;
    in.setCancel(lo.cancel);
    QString error;
    if (!in.open(path, &error)) {
        std::fprintf(stderr, "ttyscope cat: %s\n", qPrintable(error));
        *worst = LoadOutcome::Unreadable;
        return;
    }
    std::string head;
    const bool any = in.read(head);
    const bool recording =
        !times && resolveFormat(lo.format, any ? head : std::string_view()) == Format::Ttyscope;
    in.putBack(std::move(head));
    if (recording) {
        catRecording(in, path, worst);
        return;
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
        *worst = LoadOutcome::Unreadable;
        return;
    }
    writeLines(*run, written, times);
    for (const QString &w : run->warnings) {
        std::fprintf(stderr, "ttyscope cat: %s: warning: %s\n", qPrintable(path), qPrintable(w));
    }
    if (run->load.stoppedEarly()) {
        std::fprintf(stderr, "ttyscope cat: %s: %s\n", qPrintable(path),
                     qPrintable(run->load.message));
    }
    *worst = worse(*worst, run->load.outcome); // read in part: exit 3, as report says
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
    LoadOutcome worst = LoadOutcome::Complete;
    for (const QString &f : files) {
        catFile(f, lo, times, &worst);
    }
    std::fflush(stdout);
    return exitStatus(worst);
}

} // namespace tty
