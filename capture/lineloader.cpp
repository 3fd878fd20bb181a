#include "lineloader.h"

#include "inputfile.h"
#include "lineframer.h"
#include "linetable.h"
#include "parallel.h"
#include "recordingblocks.h"
#include "stampedblocks.h"
#include "workqueue.h"

#include <algorithm>
#include <cerrno>
#include <functional>
#include <map>
#include <memory>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

namespace tty {

LineBlockCutter::LineBlockCutter(std::size_t maxLine) : m_max(maxLine) {}

namespace {

// Parsed blocks waiting for their turn to be merged, and the limit on blocks in flight
// (cut but not merged yet), which bounds memory when one worker falls behind.
class MergeQueue
{
public:
    explicit MergeQueue(std::int64_t window) : m_window(window) {}

    // Reader: waits until block `seq` may be cut; false once stopped.
    bool admit(std::int64_t seq)
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_room.wait(lock, [&] { return seq - m_merged < m_window || m_stopped; });
        return !m_stopped;
    }
    // Reader: no block after `count` blocks.
    void setTotal(std::int64_t count)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_total = count;
        m_ready.notify_all();
    }
    void put(std::unique_ptr<ParsedBlock> b)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        const std::int64_t seq = b->seq;
        m_parsed.emplace(seq, std::move(b));
        if (seq == m_merged) {
            m_ready.notify_all();
        }
    }
    // The next block in file order; null when all were merged, or once stopped.
    std::unique_ptr<ParsedBlock> next()
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_ready.wait(lock, [&] {
            return m_stopped || m_parsed.count(m_merged) || (m_total >= 0 && m_merged >= m_total);
        });
        const auto it = m_parsed.find(m_merged);
        if (m_stopped || it == m_parsed.end()) {
            return nullptr;
        }
        std::unique_ptr<ParsedBlock> b = std::move(it->second);
        m_parsed.erase(it);
        return b;
    }
    void merged()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        ++m_merged;
        m_room.notify_all();
    }
    void stop()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stopped = true;
        m_room.notify_all();
        m_ready.notify_all();
    }

private:
    const std::int64_t m_window;
    std::map<std::int64_t, std::unique_ptr<ParsedBlock>> m_parsed;
    std::int64_t m_merged = 0;
    std::int64_t m_total = -1;
    bool m_stopped = false;
    std::mutex m_mutex;
    std::condition_variable m_room, m_ready;
};

// The in-order part of parsing: lines without a host stamp take the one before, host
// clock steps are folded out, a recording's notes are placed among the lines, and
// block-local line numbers become the run's.
class BlockMerger
{
public:
    BlockMerger(LineFormat format, RunBuilder &builder, Run &run)
        : m_format(format), m_builder(builder), m_run(run)
    {
    }
    void merge(ParsedBlock &b)
    {
        const LineIndex base = m_run.lines.endIndex();
        m_noteEvents.clear();
        std::size_t nextNote = 0;
        // The notes placed before line i (of the block), in the order they were recorded:
        // taken up as the line's arrival is repaired, since a note moves with the clock
        // correction of its moment.
        auto notesBefore = [&](std::size_t i) {
            for (; nextNote < b.notes.size() && b.notes[nextNote].beforeLine <= i; ++nextNote) {
                note(b.notes[nextNote], base + LineCount(std::int64_t(i)));
            }
        };
        for (std::size_t i = 0; m_format != LineFormat::Raw && i < b.lines(); ++i) {
            const LineIndex line = base + LineCount(std::int64_t(i));
            std::optional<HostNs> a = LineTable::unpackArrival(b.arrivals[i]);
            if (m_format == LineFormat::HostTs) {
                if (a) {
                    m_lastStamp = a;
                } else {
                    m_result.untimed.count(m_lastStamp.has_value(), line);
                    a = m_lastStamp; // none before the first stamp
                }
            }
            notesBefore(i);
            b.arrivals[i] = LineTable::packArrival(m_builder.repairArrival(a, line));
        }
        notesBefore(b.lines());
        noteSequenceGaps(b, base);
        if (b.lines() == 0) {
            // Only notes (a recording's last markers): no lines to add.
        } else if (b.pieces.empty()) {
            m_run.lines.appendBlock(std::move(b.text), b.textSize, b.offsets.data(),
                                    b.arrivals.data(), b.kernelAndFlags.data(), b.lines());
        } else {
            m_run.lines.appendPackedBlock(std::move(b.pieces), b.pieceLines.data(),
                                          b.offsets.data(), b.arrivals.data(),
                                          b.kernelAndFlags.data(), b.lines());
        }
        // The lines' events and the notes' in line order, a note before the events of the
        // line it was placed before.
        auto n = m_noteEvents.begin();
        for (Event e : b.events) {
            e.line += base - LineIndex(0); // block-local to the run's
            for (; n != m_noteEvents.end() && n->line <= e.line; ++n) {
                m_run.events.push_back(*n);
            }
            m_run.events.push_back(e);
        }
        m_run.events.insert(m_run.events.end(), n, m_noteEvents.end());
        m_builder.addBytes(b.bytes);
        m_builder.addSplitPieces(b.splitPieces);
        if (b.damagedTimes > 0) {
            m_builder.addDamagedTimes(b.damagedTimes,
                                      base + LineCount(std::int64_t(b.firstDamagedTime)));
        }
        if (b.fragmented > 0) {
            m_builder.addFragmentedRecords(b.fragmented,
                                           base + LineCount(std::int64_t(b.firstFragmented)));
        }
        m_run.metaLines += b.metaLines;
        // Done here, a block at a time, the boot split is not left to the end of the load.
        m_run.splitBootsSoFar();
    }
    LineLoadResult &result() { return m_result; }

private:
    // The records missing before each line with a record header, among the notes in line order
    // (after the recorded notes placed at the same line).
    void noteSequenceGaps(const ParsedBlock &b, LineIndex base)
    {
        if (b.sequences.empty()) {
            return;
        }
        const std::size_t recorded = m_noteEvents.size();
        for (const auto &[i, sequence] : b.sequences) {
            const LineIndex line = base + LineCount(std::int64_t(i));
            const std::optional<HostNs> arrival = m_format == LineFormat::Raw
                                                      ? std::nullopt
                                                      : LineTable::unpackArrival(b.arrivals[i]);
            if (std::optional<Event> gap = m_builder.sequenceGap(sequence, line, arrival)) {
                m_noteEvents.push_back(*gap);
            }
        }
        std::inplace_merge(m_noteEvents.begin(), m_noteEvents.begin() + std::ptrdiff_t(recorded),
                           m_noteEvents.end(),
                           [](const Event &x, const Event &y) { return x.line < y.line; });
    }

    void note(const BlockNote &n, LineIndex before)
    {
        switch (n.type) {
        case BlockNote::Type::Event:
            m_noteEvents.push_back(m_builder.noteEvent(n.kind, n.text, n.arrival, 0, before));
            break;
        case BlockNote::Type::Header:
            applyRecordingHeader(n.text, m_run.meta);
            break;
        case BlockNote::Type::Warning:
            m_builder.addRecorderWarning(n.text);
            break;
        case BlockNote::Type::End:
            m_run.captureEnd = n.arrival;
            break;
        }
    }

    LineFormat m_format;
    RunBuilder &m_builder;
    Run &m_run;
    std::optional<HostNs> m_lastStamp;
    LineLoadResult m_result;
    std::vector<Event> m_noteEvents;
};

// What the reader does with the decompressed bytes: cut them into blocks at line ends
// (hostts, raw), or decode a recording's records and frame its lines.
class BlockReader
{
public:
    using Deliver = std::function<void(LineBlock &&)>;
    using Spare = std::function<ByteBuffer()>;
    BlockReader(LineFormat format, Deliver deliver, Spare spare)
        : m_cutter(LineFramer::kDefaultMaxLine), m_deliver(std::move(deliver)),
          m_spare(std::move(spare))
    {
        if (format == LineFormat::Recording) {
            m_stamped =
                std::make_unique<RecordingBlockMaker>(InputFile::kBlockBytes, m_deliver, m_spare);
        } else if (format == LineFormat::Tio) {
            m_stamped = makeTioBlockMaker(InputFile::kBlockBytes, m_deliver, m_spare);
        } else if (format == LineFormat::Grabserial) {
            m_stamped = makeGrabserialBlockMaker(InputFile::kBlockBytes, m_deliver, m_spare);
        }
    }
    // `buf` holds the bytes kept from before, then new ones from `from` on; what is not
    // delivered yet stays in it.
    void take(ByteBuffer &buf, std::size_t from)
    {
        if (m_stamped) {
            m_stamped->feed(buf.data(), buf.size()); // keeps its partial line itself
            buf.resize(0);
            return;
        }
        m_cutter.cut(
            buf, from,
            [&](ByteBuffer &&data, bool endsSplit) {
                LineBlock b;
                b.data = std::move(data);
                b.endsSplit = endsSplit;
                m_deliver(std::move(b));
            },
            m_spare);
    }
    // At the end of the input.
    void finish(ByteBuffer &buf)
    {
        if (m_stamped) {
            m_stamped->finish();
        } else if (!buf.empty()) {
            LineBlock b; // the last line, without LF
            b.data = std::move(buf);
            m_deliver(std::move(b));
        }
    }
    // What a stamped stream said of itself, once its blocks are merged.
    void report(Run &run) const
    {
        if (m_stamped) {
            m_stamped->report(run);
        }
    }

private:
    LineBlockCutter m_cutter;
    Deliver m_deliver;
    Spare m_spare;
    std::unique_ptr<StampedBlockMaker> m_stamped;
};

// Decompression is the one step that cannot be split, so it must not wait for a CPU behind
// the parsers: they run a few nice levels below the thread that started the load.
void lowerThreadPriority(int by)
{
    const id_t tid = id_t(syscall(SYS_gettid));
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, tid);
    if (errno == 0) {
        setpriority(PRIO_PROCESS, tid, nice + by);
    }
}

// The whole input, already read, on the calling thread.
LineLoadResult loadLinesHere(ByteBuffer all, LineFormat format, const RuleSet &rules,
                             RunBuilder &builder, Run &run, const InputFile &input,
                             const LoadOptions &options)
{
    BlockMerger merger(format, builder, run);
    BlockParser parser(format, rules, options.packText);
    ParsedBlock parsed;
    LoadProgress progress;
    progress.bytesTotal = input.compressedSize();
    progress.run = &run;
    auto deliver = [&](LineBlock &&block) {
        parser.parse(block, &parsed);
        merger.merge(parsed);
        if (options.progress) {
            progress.bytesDone = input.compressedPos();
            progress.lines = run.lines.size().count();
            options.progress(progress);
        }
    };
    BlockReader reader(format, deliver, [] { return ByteBuffer(); });
    reader.take(all, 0);
    reader.finish(all);
    reader.report(run);
    return merger.result();
}

} // namespace

LineLoadResult loadLines(InputFile &input, ByteBuffer first, LineFormat format,
                         const RuleSet &rules, RunBuilder &builder, Run &run,
                         const LoadOptions &options)
{
    // A small file (a board's boot log, a fuzzing input) is parsed on the calling thread:
    // starting a reader and a parser per core cost more than parsing it. The blocks are
    // cut, parsed and merged as the threads below would: the same run. Not a pipe: a read
    // may wait there, and what came so far must be shown meanwhile (`cat` streams).
    constexpr std::size_t kOneThreadBytes = 256u << 10;
    bool ended = false;
    while (input.isRegular() && !ended && first.size() < kOneThreadBytes) {
        ended = !input.read(first, first.size());
    }
    if (ended) {
        return loadLinesHere(std::move(first), format, rules, builder, run, input, options);
    }
    const int workers = hardwareThreads();
    BoundedQueue<LineBlock> work(std::size_t(2 * workers));
    // Every buffer in flight comes back to a pool, so that none is allocated twice.
    const int window = 4 * workers + 4;
    Pool<ByteBuffer> spares(std::size_t(window + 4));
    Pool<std::unique_ptr<ParsedBlock>> parsedPool(std::size_t(window + 4));
    MergeQueue merge(window);

    std::int64_t seq = 0;
    bool ok = true;
    BlockReader blocks(
        format,
        [&](LineBlock &&b) {
            b.seq = seq;
            b.filePos = input.compressedPos();
            ok = ok && merge.admit(seq) && work.push(std::move(b));
            seq += ok ? 1 : 0;
        },
        [&] { return spares.take(); });
    std::thread reader([&, buf = std::move(first)]() mutable {
        std::size_t from = 0;
        for (;;) {
            blocks.take(buf, from);
            from = buf.size();
            if (!ok || !input.read(buf, from)) {
                break;
            }
        }
        if (ok) {
            blocks.finish(buf);
        }
        merge.setTotal(seq);
        work.close();
    });

    std::vector<std::thread> parsers;
    for (int w = 0; w < workers; ++w) {
        parsers.emplace_back([&] {
            lowerThreadPriority(4);
            const std::shared_ptr<const RuleSet> ownRules = rules.lendCopy();
            BlockParser parser(format, *ownRules, options.packText);
            LineBlock raw;
            while (work.pop(&raw)) {
                std::unique_ptr<ParsedBlock> b = parsedPool.take();
                if (!b) {
                    b = std::make_unique<ParsedBlock>();
                }
                parser.parse(raw, b.get());
                b->seq = raw.seq;
                b->filePos = raw.filePos;
                spares.put(std::move(raw.data));
                merge.put(std::move(b));
            }
        });
    }

    BlockMerger merger(format, builder, run);
    LoadProgress progress;
    progress.bytesTotal = input.compressedSize();
    progress.run = &run;
    // Cancel ends the input (InputFile::setCancel): what was read by then is still merged.
    while (std::unique_ptr<ParsedBlock> b = merge.next()) {
        merger.merge(*b);
        merge.merged();
        if (options.progress) {
            progress.bytesDone = b->filePos;
            progress.lines = run.lines.size().count();
            options.progress(progress);
        }
        parsedPool.put(std::move(b));
    }
    merge.stop();
    work.stop();
    reader.join();
    for (std::thread &t : parsers) {
        t.join();
    }
    blocks.report(run);
    return merger.result();
}

} // namespace tty
