#include "commands.h"

#include "formats.h"
#include "inputfile.h"
#include "recordingdecoder.h"
#include "runloader.h"

#include <QCommandLineParser>

#include <cinttypes>
#include <cstdio>

namespace tty {

namespace {
// A recording is written back as the bytes received, exactly: no line framing involved.
int catRecording(const QString &path, bool *damaged)
{
    InputFile in;
    QString error;
    if (!in.open(path, &error)) {
        std::fprintf(stderr, "ttyscope cat: %s\n", qPrintable(error));
        return 1;
    }
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
    }
    dec.finish();
    for (const QString &m : {in.warning(), in.error(), dec.warning(), dec.error()}) {
        if (!m.isEmpty()) {
            std::fprintf(stderr, "ttyscope cat: %s: %s\n", qPrintable(path), qPrintable(m));
            *damaged = true;
        }
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
    const bool times = p.isSet(QStringLiteral("times"));
    int rc = 0;
    bool damaged = false;
    for (const QString &f : files) {
        LoadOptions lo;
        lo.format = p.value(QStringLiteral("format"));
        if (!times) {
            // Sniff the format cheaply: recordings are copied without parsing lines.
            InputFile in;
            QString error;
            std::string head;
            if (in.open(f, &error) && in.read(head) &&
                (lo.format == QLatin1String("ttyscope") ||
                 ((lo.format.isEmpty() || lo.format == QLatin1String("auto")) &&
                  detectFormat(head) == QLatin1String("ttyscope")))) {
                rc = std::max(rc, catRecording(f, &damaged));
                continue;
            }
        }
        QString error;
        std::unique_ptr<Run> run = loadRun(f, lo, &error);
        if (!run) {
            std::fprintf(stderr, "ttyscope cat: %s\n", qPrintable(error));
            rc = 1;
            continue;
        }
        for (const QString &w : run->warnings) {
            std::fprintf(stderr, "ttyscope cat: %s: warning: %s\n", qPrintable(f), qPrintable(w));
        }
        if (!run->error.isEmpty()) {
            std::fprintf(stderr, "ttyscope cat: %s: %s\n", qPrintable(f), qPrintable(run->error));
            damaged = true;
        }
        for (LineIndex i = 0; i < run->lines.size(); ++i) {
            if (times) {
                const HostNs a = run->lines.arrival(i);
                if (run->hasArrival && hasHostTime(a)) {
                    std::printf("%" PRId64 ".%06" PRId64 "\t", a / 1000000000,
                                (a % 1000000000) / 1000);
                } else {
                    std::fputs("-\t", stdout);
                }
            }
            const std::string_view t = run->lines.text(i);
            std::fwrite(t.data(), 1, t.size(), stdout);
            if (!(run->lines.flags(i) & (NoNewline | Split))) {
                std::fputc('\n', stdout);
            }
        }
    }
    return rc != 0 ? rc : (damaged ? 3 : 0);
}

} // namespace tty
