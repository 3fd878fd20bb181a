#include "lineloader.h"

#include "inputfile.h"
#include "lineframer.h"
#include "linetable.h"
#include "parallel.h"
#include "workqueue.h"

#include <algorithm>
#include <cerrno>
#include <map>
#include <memory>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

namespace tty {

LineBlockCutter::LineBlockCutter(std::size_t maxLine) : m_max(maxLine) {}

namespace {

struct RawBlock
{
    std::int64_t seq = 0;
    ByteOffset filePos;
    ByteBuffer data;
    bool endsSplit = false;
};

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
// clock steps are folded out, and block-local line numbers become the run's.
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
        if (m_format == LineFormat::HostTs) {
            for (std::size_t i = 0; i < b.lines(); ++i) {
                std::optional<HostNs> a = LineTable::unpackArrival(b.arrivals[i]);
                if (a) {
                    m_lastStamp = a;
                } else {
                    if (m_result.untimed++ == 0) {
                        m_result.firstUntimed = base + LineCount(std::int64_t(i));
                    }
                    a = m_lastStamp.value_or(HostNs(0));
                }
                b.arrivals[i] = LineTable::packArrival(
                    m_builder.repairArrival(a, base + LineCount(std::int64_t(i))));
            }
        }
        if (b.pieces.empty()) {
            m_run.lines.appendBlock(std::move(b.text), b.textSize, b.offsets.data(),
                                    b.arrivals.data(), b.kernelAndFlags.data(), b.lines());
        } else {
            m_run.lines.appendPackedBlock(std::move(b.pieces), b.pieceLines.data(),
                                          b.offsets.data(), b.arrivals.data(),
                                          b.kernelAndFlags.data(), b.lines());
        }
        for (Event e : b.events) {
            e.line += base - LineIndex(0); // block-local to the run's
            m_run.events.push_back(e);
        }
        m_builder.addBytes(b.bytes);
        m_builder.addSplitPieces(b.endsSplit ? 1 : 0);
        m_run.metaLines += b.metaLines;
        // Done here, a block at a time, the boot split is not left to the end of the load.
        m_run.splitBootsSoFar();
    }
    LineLoadResult &result() { return m_result; }

private:
    LineFormat m_format;
    RunBuilder &m_builder;
    Run &m_run;
    std::optional<HostNs> m_lastStamp;
    LineLoadResult m_result;
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
    auto deliver = [&](ByteBuffer &&data, bool endsSplit) {
        parser.parse(data.view(), endsSplit, &parsed);
        merger.merge(parsed);
        if (options.progress) {
            progress.bytesDone = input.compressedPos();
            progress.lines = run.lines.size().count();
            options.progress(progress);
        }
    };
    LineBlockCutter(LineFramer::kDefaultMaxLine).cut(all, 0, deliver, [] { return ByteBuffer(); });
    if (!all.empty()) {
        deliver(std::move(all), false); // the last line, without LF
    }
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
    BoundedQueue<RawBlock> work(std::size_t(2 * workers));
    // Every buffer in flight comes back to a pool, so that none is allocated twice.
    const int window = 4 * workers + 4;
    Pool<ByteBuffer> spares(std::size_t(window + 4));
    Pool<std::unique_ptr<ParsedBlock>> parsedPool(std::size_t(window + 4));
    MergeQueue merge(window);

    std::thread reader([&, buf = std::move(first)]() mutable {
        LineBlockCutter cutter(LineFramer::kDefaultMaxLine);
        std::int64_t seq = 0;
        bool ok = true;
        auto deliver = [&](ByteBuffer &&data, bool endsSplit) {
            ok = ok && merge.admit(seq) &&
                 work.push(RawBlock{seq, input.compressedPos(), std::move(data), endsSplit});
            seq += ok ? 1 : 0;
        };
        auto spare = [&] { return spares.take(); };
        std::size_t from = 0;
        for (;;) {
            cutter.cut(buf, from, deliver, spare);
            from = buf.size();
            if (!ok || !input.read(buf, from)) {
                break;
            }
        }
        if (ok && !buf.empty()) {
            deliver(std::move(buf), false); // the last line, without LF
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
            RawBlock raw;
            while (work.pop(&raw)) {
                std::unique_ptr<ParsedBlock> b = parsedPool.take();
                if (!b) {
                    b = std::make_unique<ParsedBlock>();
                }
                parser.parse(raw.data.view(), raw.endsSplit, b.get());
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
    return merger.result();
}

} // namespace tty
