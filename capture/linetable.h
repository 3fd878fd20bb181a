// Compact, append-only storage of a run's console lines.
#pragma once

#include "pagememory.h"
#include "types.h"

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace tty {

// Per-line flags kept beside the kernel time (16 bits).
enum LineFlag : std::uint16_t {
    LevelMask = 0x000f,            // syslog level + 1, 0 = no level printed
    NoNewline = 0x0010,            // final fragment or idle partial line without LF
    Split = 0x0020,                // an over-long line cut into pieces; the next piece continues it
    KernelTimeNotAtStart = 0x0040, // timestamp found after garbage (escape codes, a prompt)
};

// Lines are stored without their line ending. About 20 bytes per line plus the text:
// a uint32 offset into a text chunk, the arrival time and the kernel time with flags
// packed into one int64. Chunked storage so that growing never copies the whole table.
class LineTable
{
public:
    LineTable();
    ~LineTable();
    LineTable(LineTable &&) noexcept;
    LineTable &operator=(LineTable &&) noexcept;

    void append(std::string_view text, HostNs arrival, KernelUs kernel, std::uint16_t flags);
    // Appends n lines parsed elsewhere: their texts lie back to back in `text` (line i
    // starts at offsets[i]), which the table takes over; kernelAndFlags as packed by
    // packKernelAndFlags.
    void appendBlock(PageArray<char> text, std::size_t textSize, const std::uint32_t *offsets,
                     const HostNs *arrivals, const std::int64_t *kernelAndFlags, std::size_t n);
    static std::int64_t packKernelAndFlags(KernelUs kernel, std::uint16_t flags)
    {
        const std::int64_t k = hasKernelTime(kernel) ? ((kernel + 1) & kKernelMask) : 0;
        return k | (std::int64_t(flags) << kFlagShift);
    }

    LineIndex size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::string_view text(LineIndex i) const;
    // The text's length; cheaper than text(i).size() in passes over every line.
    std::size_t textSize(LineIndex i) const
    {
        if (i + 1 < m_size) {
            const std::uint32_t b = m_offset[chunk(i)][slot(i)];
            const std::uint32_t e = m_offset[chunk(i + 1)][slot(i + 1)];
            if (e > b) {
                return e - b; // same text chunk (a new chunk starts again at 0)
            }
        }
        return text(i).size();
    }
    HostNs arrival(LineIndex i) const { return m_arrival[chunk(i)][slot(i)]; }
    KernelUs kernelTime(LineIndex i) const
    {
        const std::int64_t k = m_kernelAndFlags[chunk(i)][slot(i)] & kKernelMask;
        return k == 0 ? kNoKernelTime : k - 1;
    }
    std::uint16_t flags(LineIndex i) const
    {
        return std::uint16_t(std::uint64_t(m_kernelAndFlags[chunk(i)][slot(i)]) >> kFlagShift);
    }
    int level(LineIndex i) const { return int(flags(i) & LevelMask) - 1; }

    // Used by the loader to repair arrival times after a host clock step.
    void setArrival(LineIndex i, HostNs t) { m_arrival[chunk(i)][slot(i)] = t; }
    // Used by live capture: an idle partial line that later got more bytes.
    void replaceLast(std::string_view text, std::uint16_t flags);
    // ...with the kernel time parsed from the completed text.
    void replaceLast(std::string_view text, std::uint16_t flags, KernelUs kernel);

    // The first line in [from, end) whose text contains `needle` (non-empty), or -1: one
    // one search over each text chunk instead of a search per line.
    LineIndex findContaining(std::string_view needle, LineIndex from, LineIndex end) const;

    std::size_t textBytes() const { return m_textBytes; }
    std::size_t memoryBytes() const;

private:
    // kernelAndFlags: kernel time + 1 (0 = none) in the low 48 bits, flags in the high 16.
    static constexpr int kFlagShift = 48;
    static constexpr std::int64_t kKernelMask = (std::int64_t(1) << kFlagShift) - 1;
    static constexpr int kChunkBits = 16;
    static constexpr LineIndex kChunkLines = LineIndex(1) << kChunkBits;
    static std::size_t chunk(LineIndex i) { return std::size_t(i >> kChunkBits); }
    static std::size_t slot(LineIndex i) { return std::size_t(i & (kChunkLines - 1)); }
    std::size_t textChunkOf(LineIndex i) const;
    void addIndexChunk();

    struct TextChunk
    {
        PageArray<char> data;
        std::size_t capacity = 0;
        std::size_t used = 0;
        LineIndex firstLine = 0;
    };

    std::vector<PageArray<std::uint32_t>> m_offset;
    std::vector<PageArray<HostNs>> m_arrival;
    std::vector<PageArray<std::int64_t>> m_kernelAndFlags;
    std::vector<TextChunk> m_text;
    LineIndex m_size = 0;
    std::size_t m_textBytes = 0;
};

} // namespace tty
