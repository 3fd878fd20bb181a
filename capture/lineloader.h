// Loads the line formats (hostts, raw) with every core: a reader thread decompresses and
// cuts the text into blocks of whole lines, worker threads parse blocks independently
// (BlockParser), and the calling thread merges them in file order into the run.
#pragma once

#include "blockparser.h"
#include "bytebuffer.h"
#include "runbuilder.h"
#include "runloader.h"
#include "untimedlines.h"

#include <cstring>
#include <string>

namespace tty {

class InputFile;

// Cuts a decompressed stream into blocks of whole lines. A line longer than maxLine is
// cut into pieces of maxLine bytes, as LineFramer cuts it, whatever the block sizes.
class LineBlockCutter
{
public:
    explicit LineBlockCutter(std::size_t maxLine);

    // `buf` holds the unterminated line carried over, then new bytes from `from` on (at
    // most maxLine of them: a line inside them is not checked for length).
    // Calls deliver(ByteBuffer &&block, bool endsSplit) for each block that is ready and
    // leaves in `buf` the rest (an unterminated line shorter than maxLine), reusing
    // buffers from spare() for it.
    template <typename Deliver, typename Spare>
    void cut(ByteBuffer &buf, std::size_t from, Deliver &&deliver, Spare &&spare);

private:
    std::size_t m_max;
};

struct LineLoadResult
{
    UntimedLines untimed; // hostts lines without a stamp
};

// Parses the rest of `input` (its first block already read into `first`) into the run.
LineLoadResult loadLines(InputFile &input, ByteBuffer first, LineFormat format,
                         const RuleSet &rules, RunBuilder &builder, Run &run,
                         const LoadOptions &options);

template <typename Deliver, typename Spare>
void LineBlockCutter::cut(ByteBuffer &buf, std::size_t from, Deliver &&deliver, Spare &&spare)
{
    // The first line may be too long: cut off pieces. The carried part ([0, from)) holds
    // no LF, so the first LF in the new bytes ends the first line.
    for (;;) {
        const void *nl =
            from < buf.size() ? std::memchr(buf.data() + from, '\n', buf.size() - from) : nullptr;
        const std::size_t lineEnd =
            nl ? std::size_t(static_cast<const char *>(nl) - buf.data()) : buf.size();
        if (lineEnd <= m_max) {
            break;
        }
        ByteBuffer piece = spare();
        piece.assign(buf.data(), m_max);
        deliver(std::move(piece), true);
        buf.eraseFront(m_max);
        from = 0;
    }
    const void *last =
        from < buf.size() ? memrchr(buf.data() + from, '\n', buf.size() - from) : nullptr;
    if (!last) {
        return; // no line is complete yet: read on into the same buffer
    }
    const std::size_t cutAt = std::size_t(static_cast<const char *>(last) - buf.data()) + 1;
    ByteBuffer rest = spare();
    rest.assign(buf.data() + cutAt, buf.size() - cutAt);
    buf.resize(cutAt);
    deliver(std::move(buf), false);
    buf = std::move(rest);
}

} // namespace tty
