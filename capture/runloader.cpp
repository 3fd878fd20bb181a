#include "runloader.h"

#include "baudcheck.h"
#include "consolerate.h"
#include "formatregistry.h"
#include "formats.h"
#include "inputfile.h"
#include "lineloader.h"
#include "runbuilder.h"
#include "textcheck.h"
#include "workqueue.h"

#include <QFileInfo>

#include <optional>
#include <thread>

namespace tty {

namespace {

// The record formats (recordings, grabserial, kmsg) carry state from record to record:
// one thread decompresses while the calling thread parses.
void loadRecords(InputFile &input, std::string first, FormatParser &parser, Run &run,
                 const LoadOptions &options)
{
    struct Chunk
    {
        std::string data;
        ByteOffset filePos; // where the file was read to by then, for progress
    };
    LoadProgress progress;
    progress.bytesTotal = input.compressedSize();
    progress.run = &run;
    // A small file (most logs of a board's boot, every fuzzing input) is parsed without a
    // reader thread: starting it cost more. Not a pipe: a read may wait there, and what
    // came so far must be shown meanwhile (`cat` streams).
    constexpr std::size_t kOneThreadBytes = 256u << 10;
    bool ended = false;
    while (input.isRegular() && !ended && first.size() < kOneThreadBytes) {
        ended = !input.read(first, first.size());
    }
    if (ended) {
        parser.feed(first.data(), first.size());
        if (options.progress) {
            progress.bytesDone = input.compressedPos();
            progress.lines = run.lines.size().count();
            options.progress(progress);
        }
        parser.finish();
        return;
    }

    BoundedQueue<Chunk> queue(8);
    Pool<std::string> spares(8);
    std::thread reader([&, b = std::move(first)]() mutable {
        do {
            if (!queue.push(Chunk{std::move(b), input.compressedPos()})) {
                break;
            }
            b = spares.take();
        } while (input.read(b));
        queue.close();
    });

    bool broken = false;
    Chunk cur;
    // Cancel ends the input (InputFile::setCancel): what was read by then is still parsed.
    while (queue.pop(&cur)) {
        if (!broken && !parser.feed(cur.data.data(), cur.data.size())) {
            broken = true; // keep draining so the reader thread can finish
        }
        if (options.progress) {
            progress.bytesDone = cur.filePos;
            progress.lines = run.lines.size().count();
            options.progress(progress);
        }
        spares.put(std::move(cur.data));
    }
    queue.stop();
    reader.join();
    parser.finish();
}

// A head with line ends that are CRs alone: no LF at all, and CRs after text (three or
// more, so that one progress line's CRs are not taken for a log's line ends).
bool linesEndAtCr(std::string_view head)
{
    if (head.find('\n') != std::string_view::npos) {
        return false;
    }
    int ends = 0;
    for (std::size_t at = head.find('\r'); at != std::string_view::npos && ends < 3;
         at = head.find('\r', at + 1)) {
        ends += at > 0 && head[at - 1] != '\r';
    }
    return ends >= 3;
}

// UTF-16 by its byte order mark, or without one by its zeros: text that is mostly ASCII
// has a zero in every other byte (the high byte of each code unit). True: big-endian.
std::optional<bool> utf16Of(std::string_view head)
{
    if (head.size() >= 2 && head[0] == '\xff' && head[1] == '\xfe') {
        return false;
    }
    if (head.size() >= 2 && head[0] == '\xfe' && head[1] == '\xff') {
        return true;
    }
    if (head.size() < 16) {
        return std::nullopt;
    }
    std::size_t zeros[2] = {0, 0};
    for (std::size_t i = 0; i + 1 < head.size(); i += 2) {
        zeros[0] += head[i] == '\0';
        zeros[1] += head[i + 1] == '\0';
    }
    const std::size_t units = head.size() / 2;
    for (int odd = 0; odd < 2; ++odd) {
        if (zeros[odd] * 10 >= units * 9 && zeros[1 - odd] * 20 <= units) {
            return odd == 0; // zeros first: big-endian
        }
    }
    return std::nullopt;
}

// Formats whose arrival times are when the console's bytes came off the serial line (a
// journal's are journald's, at memory speed).
bool arrivalsFromTheWire(Format f)
{
    return f == Format::Ttyscope || f == Format::HostTs || f == Format::Ts || f == Format::Tio ||
           f == Format::Grabserial || f == Format::Lava;
}

} // namespace

std::unique_ptr<Run> loadRun(const QString &path, const LoadOptions &options, QString *error)
{
    InputFile input;
    input.setCancel(options.cancel);
    if (!input.open(path, error)) {
        return nullptr;
    }
    return loadRun(input, path, options, error);
}

std::unique_ptr<Run> loadRunFromBytes(std::string_view bytes, const QString &name,
                                      const LoadOptions &options, QString *error)
{
    InputFile input;
    input.setCancel(options.cancel);
    if (!input.openBytes(bytes, name, error)) {
        return nullptr;
    }
    return loadRun(input, name, options, error);
}

std::unique_ptr<Run> loadRun(InputFile &input, const QString &path, const LoadOptions &options,
                             QString *error)
{
    auto run = std::make_unique<Run>();
    run->lines.setPackText(options.packText);
    run->meta.source = path;
    run->meta.label =
        path == QLatin1String("-") ? QStringLiteral("stdin") : QFileInfo(path).fileName();

    const RuleSet &rules = options.rules ? *options.rules : RuleSet::builtinShared();
    RunBuilder builder(*run, rules);

    ByteBuffer block;
    const bool any = input.read(block);
    // Its headers read as lines would give a report of figures about no console at all.
    if (QString refused = input.containerInsideZstd(block.view()); !refused.isEmpty()) {
        *error = std::move(refused);
        return nullptr;
    }
    if (const std::optional<bool> bigEndian = utf16Of(block.view().substr(0, 4096))) {
        const std::string utf8 = input.decodeUtf16From(block.view(), *bigEndian);
        block.assign(utf8.data(), utf8.size());
        run->warnings << QStringLiteral("the file is UTF-16 text (%1): it was read as UTF-8")
                             .arg(*bigEndian ? QStringLiteral("big-endian")
                                             : QStringLiteral("little-endian, as Windows "
                                                              "PowerShell's `>` writes it"));
    } else if (block.view().substr(0, 3) == "\xef\xbb\xbf") {
        block.eraseFront(3); // a UTF-8 byte order mark is no text of the first line
    }
    if (linesEndAtCr(block.view().substr(0, 64 * 1024))) {
        block.resize(input.endLinesAtCr(block.data(), block.size()));
        run->warnings << QStringLiteral(
            "the lines end in a carriage return alone (CR, no LF: a terminal's log or a capture "
            "that dropped the LFs): each CR was read as a line end");
    }
    const std::optional<Format> format =
        resolveFormat(options.format, block.view().substr(0, 64 * 1024));
    if (!format) {
        *error = QStringLiteral("unknown format '%1' (known: %2)")
                     .arg(options.format, formatNames().join(QStringLiteral(", ")));
        return nullptr;
    }
    const FormatInfo &info = formatInfo(*format);
    run->meta.format = info.id;
    run->hasArrival = info.hasArrival;
    // A parser may still find a file's stamps are wall-clock times (grabserial -T).
    run->arrivalIsWallClock = info.arrivalIsWallClock;
    run->arrivalIsLineEnd = info.arrivalIsLineEnd;
    const bool detected = options.format.isEmpty() || options.format == QLatin1String("auto");
    if (detected && info.id == Format::Raw &&
        looksStampedButUnread(block.view().substr(0, 64 * 1024))) {
        run->unreadStamps = true;
        run->warnings << QStringLiteral(
            "the lines start with a date or a time that ttyscope does not read as the host's "
            "(ts's default or a custom format, a terminal's): they are kept as text, and the "
            "figures that need host times, and the bytes on the wire, are n/a; ts '%.s', tio, "
            "grabserial and ttyscope capture write stamps it reads");
    }
    if (!any) {
        // An empty file: nothing to parse.
    } else if (info.makeParser) {
        const std::unique_ptr<FormatParser> parser = info.makeParser(*run, builder);
        loadRecords(input, std::string(block.view()), *parser, *run, options);
    } else {
        const LineLoadResult r =
            loadLines(input, std::move(block), info.lineFormat, rules, builder, *run, options);
        // When lines before the first stamp came is not known: no time is made up for
        // them, and the figures that count from the first line say n/a.
        run->warnings << r.untimed.warnings(QStringLiteral("line(s)"), QStringLiteral("host"));
    }

    // A later cause replaces an earlier one: the input's error is more to the point than
    // the parser's view of it, and a cancel explains everything after it.
    if (input.cancelled()) {
        run->load.stop(LoadOutcome::Cancelled,
                       QStringLiteral("loading was cancelled after %1 lines; those were kept")
                           .arg(run->lines.size().count()));
    } else if (!input.error().isEmpty()) {
        run->load.stop(LoadOutcome::Damaged,
                       QStringLiteral("%1 (%2 lines before it were loaded)")
                           .arg(input.error(), QString::number(run->lines.size().count())));
    }
    if (!input.warning().isEmpty()) {
        run->warnings << QStringLiteral("%1 (%2 lines loaded)")
                             .arg(input.warning(), QString::number(run->lines.size().count()));
        run->load.truncate(run->warnings.back());
    }
    if (!options.label.isEmpty()) {
        run->meta.label = options.label;
    }
    // Taken at the default rate: no --baud, and none in a recording's header. A
    // netconsole's recording takes none: its bytes crossed no UART.
    const bool defaultBaud = options.baud <= 0 && run->meta.baud <= 0 && !run->meta.noSerialLine;
    if (options.baud > 0) {
        run->meta.baud = options.baud;
        run->meta.baudSource = RunMeta::BaudSource::Given;
    } else if (run->meta.baud > 0) {
        run->meta.baudSource = RunMeta::BaudSource::Recording;
    } else if (defaultBaud) {
        // Before the series are made: they spread each line's bytes over its time on the
        // wire at this rate.
        takeStatedOrDefaultRate(*run, true);
    }
    if (run->lines.empty() && !run->load.stoppedEarly()) {
        run->warnings << QStringLiteral("the file holds no console lines");
    }
    const QString shape = textShapeWarning(textShape(run->lines));
    if (!shape.isEmpty()) {
        run->warnings << shape;
    }
    builder.finish();
    if (defaultBaud && arrivalsFromTheWire(run->meta.format)) {
        checkDefaultBaud(*run);
    }
    run->lines.trimToSize(); // a loaded log gets no more lines
    return run;
}

} // namespace tty
