// A column of optional 64-bit values, one per line, kept in 32 bits a line: each value is
// a small unsigned delta from the base of the group it belongs to. A group starts where a
// value does not fit the current one's range, so a dense log (thousands of lines a second)
// has a group every few seconds of its clock and a sparse one (a line a minute) a group
// every few lines: memory follows what the values need, and no value is ever rounded.
//
// The bits of a code above `codeBits` are a payload the column keeps untouched (the line
// flags beside the kernel time), so two quantities share one 32-bit word.
//
// Lines are appended in order; values can be rewritten anywhere (set) or for all lines in
// order (rewrite). Reads are const and touch no shared state, so any number of threads can
// read while nobody appends.
#pragma once

#include "pagememory.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace tty {

class PackedColumn
{
public:
    // codeBits: bits of a line's delta code (24..32); slack: how far below a group's first
    // value later values may still fall (clocks that step back a little, interleaved CPUs).
    PackedColumn(int codeBits, std::int64_t slack);

    static constexpr int kChunkBits = 16; // lines per chunk: 64 Ki
    static constexpr std::size_t kChunkLines = std::size_t(1) << kChunkBits;
    // The first chunk's room to start with (it doubles as lines come): a short log's
    // index is a few KiB (the line table's offsets follow the same rule).
    static constexpr std::size_t kFirstChunkLines = 1024;

    void append(std::optional<std::int64_t> value, std::uint32_t payload = 0);
    // Removes the last line (a live partial line that is appended again when completed).
    void popBack();
    // Gives back the room the last chunk keeps for lines to come (a loaded log's column):
    // memoryBytes() is then what the lines take. An append grows the chunk back.
    void trimToSize();
    std::optional<std::int64_t> value(std::size_t i) const
    {
        const Chunk &c = m_chunks[i >> kChunkBits];
        const std::size_t s = i & (kChunkLines - 1);
        const std::uint32_t code = c.codes[s] & m_codeMask;
        if (code == m_noneCode) {
            return std::nullopt;
        }
        return std::int64_t(std::uint64_t(c.bases[groupOf(c, s)]) + code);
    }
    bool hasValue(std::size_t i) const
    {
        return (m_chunks[i >> kChunkBits].codes[i & (kChunkLines - 1)] & m_codeMask) != m_noneCode;
    }
    std::uint32_t payload(std::size_t i) const
    {
        return m_codeBits >= 32
                   ? 0
                   : m_chunks[i >> kChunkBits].codes[i & (kChunkLines - 1)] >> m_codeBits;
    }

    // Changes one line's value (its payload stays). Cheap where the value fits the line's
    // group; otherwise the chunk is coded again (64 Ki lines).
    void set(std::size_t i, std::optional<std::int64_t> value);
    // Codes every line again from valueOf(i), called for i = 0, 1, ... in order: one pass,
    // for a caller that gives all lines new values.
    template <typename F> void rewrite(F &&valueOf)
    {
        for (std::size_t ci = 0; ci < m_chunks.size(); ++ci) {
            const std::size_t n = std::min(kChunkLines, m_size - ci * kChunkLines);
            Chunk next = newChunk(n);
            for (std::size_t s = 0; s < n; ++s) {
                const std::size_t i = ci * kChunkLines + s;
                appendTo(next, s, valueOf(i), payload(i));
            }
            m_chunks[ci] = std::move(next);
        }
    }

    std::size_t size() const { return m_size; }
    std::size_t memoryBytes() const;
    std::size_t groupCount() const; // for the tests and benchmarks

private:
    // Groups per chunk are found through the group of each block of 1024 slots. A group
    // costs 10 bytes: where it starts (a slot of the chunk) and its base.
    static constexpr int kBlockBits = 10;
    struct Chunk
    {
        PageArray<std::uint32_t> codes;
        std::vector<std::uint16_t> firstSlots;   // per group, ascending
        std::vector<std::int64_t> bases;         // per group
        std::vector<std::uint16_t> groupAtBlock; // group holding the block's first slot
    };
    static_assert(kChunkBits <= 16, "group slots are 16-bit");

    // The group of a slot: the block's group unless another starts inside the block (dense
    // logs: one group spans many blocks), then a search in the block's groups.
    std::size_t groupOf(const Chunk &c, std::size_t slot) const
    {
        const std::size_t block = slot >> kBlockBits;
        const std::size_t g = c.groupAtBlock[block];
        const std::size_t next =
            block + 1 < c.groupAtBlock.size() ? c.groupAtBlock[block + 1] : c.bases.size() - 1;
        return next == g ? g : searchGroup(c, slot, g, next + 1);
    }
    std::size_t searchGroup(const Chunk &c, std::size_t slot, std::size_t from,
                            std::size_t to) const;
    Chunk newChunk(std::size_t capacity) const;
    void appendTo(Chunk &c, std::size_t slot, std::optional<std::int64_t> value,
                  std::uint32_t payload) const;
    bool fits(std::int64_t value, std::int64_t base) const;

    int m_codeBits;
    std::uint32_t m_codeMask;
    std::uint32_t m_noneCode; // all code bits set
    std::int64_t m_slack;
    std::vector<Chunk> m_chunks;
    std::size_t m_size = 0;
};

} // namespace tty
