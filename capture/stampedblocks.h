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

// Appends a line (its text, then the LF that separates it from the next) and its stamp.
inline void appendStampedLine(LineBlock &block, std::string_view text,
                              std::optional<HostNs> arrival, std::uint16_t flags)
{
    ByteBuffer &d = block.data;
    const std::size_t at = d.size();
    d.resize(at + text.size() + 1);
    if (!text.empty()) {
        std::memcpy(d.data() + at, text.data(), text.size());
    }
    d.data()[at + text.size()] = '\n';
    block.stamps.push_back(LineStamp{LineTable::packArrival(arrival), flags});
}

// grabserial's log (grabserialformat.cpp) and tio's (tioformat.cpp).
std::unique_ptr<StampedBlockMaker> makeGrabserialBlockMaker(std::size_t blockBytes,
                                                            StampedBlockMaker::Deliver deliver,
                                                            StampedBlockMaker::Spare spare);
std::unique_ptr<StampedBlockMaker> makeTioBlockMaker(std::size_t blockBytes,
                                                     StampedBlockMaker::Deliver deliver,
                                                     StampedBlockMaker::Spare spare);

} // namespace tty
