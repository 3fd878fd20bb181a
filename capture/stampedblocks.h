// The formats whose lines are stamped in file order by the reader thread (a ttyscope
// recording's records, tio's time-of-day stamps that wrap at midnight or add up as deltas,
// grabserial's, whose unstamped lines take the stamp before them):
// the reader frames and stamps the lines, and delivers blocks of whole lines with a stamp
// each (LineBlock::stamps) that the block parsers analyse on every core.
#pragma once

#include "blockparser.h"
#include "linetable.h"

#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace tty {

struct Run;

class StampedBlockMaker
{
public:
    using Deliver = std::function<void(LineBlock &&)>;
    using Spare = std::function<ByteBuffer()>;
    virtual ~StampedBlockMaker() = default;
    // Feeds decompressed bytes; false once the stream is broken (report() says where),
    // after which the rest is ignored.
    virtual bool feed(const char *p, std::size_t n) = 0;
    // At the end of input: the unterminated last line, and the last block.
    virtual void finish() = 0;
    // What the stream said of itself (damage, warnings, its clock), told to the run once
    // its blocks are merged: the run belongs to the merging thread until then.
    virtual void report(Run &run) const = 0;
};

// The block a StampedBlockMaker fills: lines with their stamps in, blocks of about
// blockBytes out, each new one in a buffer from `spare`.
class StampedBlockWriter
{
public:
    StampedBlockWriter(std::size_t blockBytes, StampedBlockMaker::Deliver deliver,
                       StampedBlockMaker::Spare spare)
        : m_blockBytes(blockBytes), m_deliver(std::move(deliver)), m_spare(std::move(spare))
    {
        start();
    }
    // The block being filled (a recording adds its notes and record bytes to it).
    LineBlock &block() { return m_block; }
    // Appends a line (its text, then the LF that separates it from the next), its stamp
    // and the console bytes it stands for; hands the block over once it is full.
    void line(std::string_view text, std::optional<HostNs> arrival, std::uint16_t flags,
              std::int64_t consoleBytes)
    {
        ByteBuffer &d = m_block.data;
        const std::size_t at = d.size();
        d.resize(at + text.size() + 1);
        if (!text.empty()) {
            std::memcpy(d.data() + at, text.data(), text.size());
        }
        d.data()[at + text.size()] = '\n';
        m_block.stamps.push_back(LineStamp{LineTable::packArrival(arrival), flags});
        m_block.recordedBytes += consoleBytes;
        if (d.size() >= m_blockBytes) {
            deliver();
        }
    }
    // At the end of input: the last block, if it holds anything.
    void finish()
    {
        if (!m_block.stamps.empty() || !m_block.notes.empty() || m_block.recordedBytes > 0) {
            m_deliver(std::move(m_block));
            m_block = LineBlock();
        }
    }

private:
    void deliver()
    {
        m_deliver(std::move(m_block));
        start();
    }
    void start()
    {
        m_block = LineBlock();
        m_block.data = m_spare();
        m_block.data.resize(0);
    }

    std::size_t m_blockBytes;
    StampedBlockMaker::Deliver m_deliver;
    StampedBlockMaker::Spare m_spare;
    LineBlock m_block;
};

// grabserial's log (grabserialformat.cpp) and tio's (tioformat.cpp).
std::unique_ptr<StampedBlockMaker> makeGrabserialBlockMaker(std::size_t blockBytes,
                                                            StampedBlockMaker::Deliver deliver,
                                                            StampedBlockMaker::Spare spare);
std::unique_ptr<StampedBlockMaker> makeTioBlockMaker(std::size_t blockBytes,
                                                     StampedBlockMaker::Deliver deliver,
                                                     StampedBlockMaker::Spare spare);

} // namespace tty
