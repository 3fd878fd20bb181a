// Compact, append-only storage of a run's console lines.
#pragma once

#include "lineoffsets.h"
#include "packedcolumn.h"
#include "pagememory.h"
#include "textpack.h"
#include "types.h"

#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tty {

class DecodedPieces;

// A line's text, holding what keeps it readable: the decoded piece it lies in, when the
// table keeps that piece compressed (textpack.h). Read it through view() on a named
// LineText; the view of a temporary would dangle, so that does not compile.
class LineText
{
public:
    LineText() = default;
    explicit LineText(std::string_view text, std::shared_ptr<const std::string> piece = {},
                      std::size_t chunk = 0)
        : m_piece(std::move(piece)), m_view(text), m_chunk(chunk)
    {
    }
    std::string_view view() const & { return m_view; }
    std::string_view view() const && = delete;
    std::size_t size() const { return m_view.size(); }
    bool empty() const { return m_view.empty(); }
    std::string str() const { return std::string(m_view); } // a copy, safe on a temporary

private:
    friend class LineTable;
    std::shared_ptr<const std::string> m_piece;
    std::string_view m_view;
    std::size_t m_chunk = 0; // the table's text chunk that m_piece decodes
};

// Per-line flags kept beside the kernel time. The index keeps 8 bits of them
// (LineTable::kFlagBits): a new flag must stay below 0x100.
enum LineFlag : std::uint16_t {
    LevelMask = 0x000f,            // syslog level + 1, 0 = no level printed
    NoNewline = 0x0010,            // final fragment or idle partial line without LF
    Split = 0x0020,                // an over-long line cut into pieces; the next piece continues it
    KernelTimeNotAtStart = 0x0040, // timestamp found after garbage (escape codes, a prompt)
    // A timestamp at the start without printk's six fraction digits ("[    0.0400]": the
    // UART lost characters): the line has no kernel time, its prefix is skipped.
    KernelTimeDamaged = 0x0080,
};

// Lines are stored without their line ending. 12 bytes per line plus the text: a uint32
// offset into a text chunk, the arrival time as a 32-bit delta from its group's base, and
// the kernel time as a 24-bit delta with the flags in the other 8 bits (packedcolumn.h;
// a group is 16 bytes and starts every 4 s of host time, 15 s of kernel time, or where a
// clock jumps). Chunked storage so that growing never copies the whole table.
//
// A loaded log's text is kept compressed, a piece of about 256 KiB at a time (textpack.h):
// text() decodes through a small cache shared by all threads, for views that touch a few
// lines; passes over many lines read through a TextReader of their own (textreader.h).
// A live capture's text stays plain: it is appended to and read at once.
class LineTable
{
public:
    LineTable();
    ~LineTable();
    LineTable(LineTable &&) noexcept;
    LineTable &operator=(LineTable &&) noexcept;

    void append(std::string_view text, std::optional<HostNs> arrival,
                std::optional<KernelUs> kernel, std::uint16_t flags);
    // Appends n lines parsed elsewhere: their texts lie back to back in `text` (line i
    // starts at offsets[i]), which the table takes over; arrivals as packed by packArrival,
    // kernelAndFlags as packed by packKernelAndFlags.
    void appendBlock(PageArray<char> text, std::size_t textSize, const std::uint32_t *offsets,
                     const std::int64_t *arrivals, const std::int64_t *kernelAndFlags,
                     std::size_t n);
    // The same with the texts already compressed (on the parser's thread): piece k holds
    // the next pieceLines[k] lines, and a line's offset counts from the start of its piece.
    void appendPackedBlock(std::vector<PackedText> pieces, const std::size_t *pieceLines,
                           const std::uint32_t *offsets, const std::int64_t *arrivals,
                           const std::int64_t *kernelAndFlags, std::size_t n);
    // From now on, a text chunk filled by append() is compressed once the next one starts
    // (a log loaded a line at a time). Off for a live capture.
    void setPackText(bool on) { m_packText = on; }
    // The table's own encodings, for parsers that fill arrays for appendBlock: a plain
    // int64 per line, with a reserved value for "none", keeps 16 M lines small. The
    // reserved values never leave the table: the accessors below return std::optional.
    static std::int64_t packArrival(std::optional<HostNs> arrival)
    {
        return arrival ? arrival->count() : kNoArrival;
    }
    static std::optional<HostNs> unpackArrival(std::int64_t packed)
    {
        return packed == kNoArrival ? std::nullopt : std::optional<HostNs>(HostNs(packed));
    }
    // A negative kernel time counts as none (kmsg can carry one).
    static std::int64_t packKernelAndFlags(std::optional<KernelUs> kernel, std::uint16_t flags)
    {
        const std::int64_t k =
            kernel && kernel->count() >= 0 ? ((kernel->count() + 1) & kKernelMask) : 0;
        return k | (std::int64_t(flags) << kFlagShift);
    }

    LineCount size() const { return m_size - LineIndex(0); }
    // One past the last line (an index, not an iterator): loops run `i < endIndex()`.
    LineIndex endIndex() const { return m_size; }
    bool empty() const { return m_size == LineIndex(0); }
    LineText text(LineIndex i) const;
    // The same, taking `near`'s piece when line i lies in it: a walk over nearby lines
    // (a crash report's) takes the shared cache's lock once a piece, not once a line.
    LineText text(LineIndex i, const LineText &near) const;
    // The text's length, without decoding it.
    std::size_t textSize(LineIndex i) const
    {
        if (i + 1_lines < m_size) {
            const std::uint32_t b = m_offset[chunk(i)][slot(i)];
            const std::uint32_t e = m_offset[chunk(i + 1_lines)][slot(i + 1_lines)];
            if (e > b) {
                return e - b; // same text chunk (a new chunk starts again at 0)
            }
        }
        const std::size_t tci = textChunkOf(i);
        return lineEnd(i, tci) - m_offset[chunk(i)][slot(i)];
    }
    // None for formats without host stamps before the first stamped line.
    std::optional<HostNs> arrival(LineIndex i) const
    {
        const std::optional<std::int64_t> v = m_arrival.value(std::size_t(i.value()));
        return v ? std::optional<HostNs>(HostNs(*v)) : std::nullopt;
    }
    std::optional<KernelUs> kernelTime(LineIndex i) const
    {
        const std::optional<std::int64_t> v = m_kernelAndFlags.value(std::size_t(i.value()));
        return v ? std::optional<KernelUs>(KernelUs(*v)) : std::nullopt;
    }
    // kernelTime(i).has_value(), without finding the time's group.
    bool hasKernelTime(LineIndex i) const
    {
        return m_kernelAndFlags.hasValue(std::size_t(i.value()));
    }
    std::uint16_t flags(LineIndex i) const
    {
        return std::uint16_t(m_kernelAndFlags.payload(std::size_t(i.value())));
    }
    // The syslog level printed with the line (<N> or a record's priority), if any.
    std::optional<int> level(LineIndex i) const
    {
        const int stored = int(flags(i) & LevelMask);
        return stored ? std::optional<int>(stored - 1) : std::nullopt;
    }

    // Sets one line's arrival time.
    void setArrival(LineIndex i, HostNs t) { m_arrival.set(std::size_t(i.value()), t.count()); }
    // Gives every line the arrival arrivalOf(i), called for each line in order: one pass
    // (the loader places lines of a log without host times on their kernel clock).
    template <typename F> void rewriteArrivals(F &&arrivalOf)
    {
        m_arrival.rewrite([&](std::size_t i) -> std::optional<std::int64_t> {
            const std::optional<HostNs> t = arrivalOf(LineIndex(std::int64_t(i)));
            return t ? std::optional<std::int64_t>(t->count()) : std::nullopt;
        });
    }
    // Used by live capture: an idle partial line that later got more bytes.
    void replaceLast(std::string_view text, std::uint16_t flags);
    // ...with the kernel time parsed from the completed text.
    void replaceLast(std::string_view text, std::uint16_t flags, std::optional<KernelUs> kernel);

    std::size_t textBytes() const { return m_textBytes; }
    // Of the text, what it takes in memory (compressed or not).
    std::size_t textMemoryBytes() const;
    std::size_t memoryBytes() const;
    // Bytes of the line index alone (offsets, times, flags), without the text.
    std::size_t indexBytes() const;
    // Gives back the room the index keeps for lines to come: a loaded log's last chunk
    // holds a fraction of its 64 Ki lines (0.04 bytes a line of a 1 GiB log's 12). Lines
    // appended after it grow the chunk back.
    void trimToSize();

    static constexpr int kFlagBits = 8;

private:
    friend class TextReader;

    // The blocks' packed kernelAndFlags: kernel time + 1 (0 = none) in the low 48 bits,
    // flags in the high 16.
    static constexpr std::int64_t kNoArrival = std::numeric_limits<std::int64_t>::min();
    static constexpr int kFlagShift = 48;
    static constexpr std::int64_t kKernelMask = (std::int64_t(1) << kFlagShift) - 1;
    static constexpr int kChunkBits = 16;
    static constexpr std::int64_t kChunkLines = std::int64_t(1) << kChunkBits;
    static std::size_t chunk(LineIndex i) { return std::size_t(i.value() >> kChunkBits); }
    static std::size_t slot(LineIndex i) { return std::size_t(i.value() & (kChunkLines - 1)); }
    std::size_t textChunkOf(LineIndex i) const;
    // One past line i's last byte in its text chunk tci.
    std::size_t lineEnd(LineIndex i, std::size_t tci) const;
    std::uint32_t offset(LineIndex i) const { return m_offset[chunk(i)][slot(i)]; }
    // Room in the index for `lines` lines from m_size on, inside m_size's chunk: a new
    // chunk, or the last one grown.
    void makeIndexRoom(std::size_t lines);
    void addIndexChunk();
    void appendIndex(const std::uint32_t *offsets, const std::int64_t *arrivals,
                     const std::int64_t *kernelAndFlags, std::size_t n,
                     const std::size_t *pieceLines);
    void dropChunkWithoutLines();
    void packChunk(std::size_t tci);
    void unpackLastChunk();

    // Plain (data, capacity) or packed (packed, capacity 0); `used` is the text's size.
    struct TextChunk
    {
        PageArray<char> data;
        PackedText packed;
        std::size_t capacity = 0;
        std::size_t used = 0;
        LineIndex firstLine;

        bool isPacked() const { return packed.isPacked(); }
        bool hasRoomFor(std::size_t n) const { return !isPacked() && capacity - used >= n; }
    };

    std::vector<LineOffsets> m_offset;         // per index chunk
    std::vector<std::size_t> m_firstTextChunk; // per index chunk: text chunk of its first line
    // Host ns; 0.25 s of slack below a group's first arrival.
    PackedColumn m_arrival{32, 250'000'000};
    // Kernel µs (none below 0) with the flags as payload; 1 s of slack for CPUs that
    // print slightly out of order.
    PackedColumn m_kernelAndFlags{32 - kFlagBits, 1'000'000};
    std::vector<TextChunk> m_text;
    LineIndex m_size; // one past the last line
    std::size_t m_textBytes = 0;
    bool m_packText = false;
    std::unique_ptr<DecodedPieces> m_decoded; // for text(); its own lock
};

} // namespace tty
