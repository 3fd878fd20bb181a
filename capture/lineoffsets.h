// Where each line of one index chunk (64 Ki lines) starts in its text chunk: 3 bytes a line,
// since a line starts within 16 MiB of its chunk's start almost always (packed pieces are
// 256 KiB, a live capture's chunks at most 16 MiB, a loader's block a few MiB). A chunk
// where one starts further in (an empty line after an over-long one in a live capture) is
// widened to 4 bytes a line, so no offset is ever cut. With the two 4-byte time columns
// the index is 11 bytes a line and the groups' bases (issue 16: at most 12).
#pragma once

#include "pagememory.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace tty {

class LineOffsets
{
public:
    explicit LineOffsets(std::size_t capacity) { allocate(capacity, false); }

    // Read on every line of every pass over the text: no branch, one unaligned load (a
    // narrow array has a byte more than its slots, for the last slot's 4-byte load).
    std::uint32_t operator[](std::size_t slot) const
    {
        std::uint32_t v = 0;
        std::memcpy(&v, m_bytes.get() + slot * m_stride, 4);
        return v & m_mask;
    }
    // Sets slot's offset; the `used` slots before it are kept if the chunk must widen.
    void set(std::size_t slot, std::uint32_t offset, std::size_t used)
    {
        if (offset > m_mask) {
            widen(used);
        }
        unsigned char *p = m_bytes.get() + slot * m_stride;
        if (isWide()) {
            std::memcpy(p, &offset, 4);
        } else {
            std::memcpy(p, &offset, 3); // little-endian, as read
        }
    }
    // Sets n slots from `slot` on, the slots before it in use (a parsed block's lines).
    void setRange(std::size_t slot, const std::uint32_t *offsets, std::size_t n)
    {
        if (n == 0) {
            return;
        }
        if (*std::max_element(offsets, offsets + n) > m_mask) {
            widen(slot);
        }
        unsigned char *p = m_bytes.get() + slot * m_stride;
        if (isWide()) {
            std::memcpy(p, offsets, n * 4);
            return;
        }
        // 4 bytes a slot, each store's last byte overwritten by the next slot's (the last
        // one's falls in the array's spare byte): no store of a variable size.
        for (std::size_t k = 0; k < n; ++k, p += 3) {
            std::memcpy(p, &offsets[k], 4);
        }
    }
    std::size_t capacity() const { return m_capacity; }
    // Room for `needed` slots (<= most), keeping the first `used`: at least doubling.
    void reserve(std::size_t used, std::size_t needed, std::size_t most)
    {
        if (m_capacity < needed) {
            resize(used, std::min(most, std::max(needed, 2 * m_capacity)));
        }
    }
    // Storage for exactly `used` slots (a loaded log's last chunk).
    void trim(std::size_t used)
    {
        if (used > 0 && used < m_capacity) {
            resize(used, used);
        }
    }
    std::size_t memoryBytes() const { return capacityOf(m_bytes); }
    bool isWide() const { return m_stride == 4; }

private:
    static constexpr std::uint32_t kNarrowMask = 0xffffff;
    static_assert(sizeof(std::uint32_t) == 4, "offsets are 32-bit");

    void allocate(std::size_t capacity, bool wide)
    {
        m_stride = wide ? 4 : 3;
        m_mask = wide ? 0xffffffff : kNarrowMask;
        m_bytes = pageArray<unsigned char>(capacity * m_stride + (wide ? 0 : 1));
        m_capacity = capacity;
    }
    void resize(std::size_t used, std::size_t capacity)
    {
        LineOffsets next(0);
        next.allocate(capacity, isWide());
        std::memcpy(next.m_bytes.get(), m_bytes.get(), used * m_stride);
        *this = std::move(next);
    }
    void widen(std::size_t used)
    {
        if (isWide()) {
            return;
        }
        LineOffsets next(0);
        next.allocate(m_capacity, true);
        for (std::size_t s = 0; s < used; ++s) {
            const std::uint32_t v = (*this)[s];
            std::memcpy(next.m_bytes.get() + s * 4, &v, 4);
        }
        *this = std::move(next);
    }

    PageArray<unsigned char> m_bytes;
    std::size_t m_capacity = 0;
    std::size_t m_stride = 3;           // bytes a slot: 3, or 4 once widened
    std::uint32_t m_mask = kNarrowMask; // the slot's bits of a 4-byte load
};

} // namespace tty
