// Console text kept compressed in memory: each piece of whole lines (about 256 KiB) is
// one independent zstd frame, so any piece decodes alone, on any thread, in about a
// quarter of a millisecond. Console text compresses about 5× at zstd's fastest levels
// (docs/benchmarks.md), which is what lets a log bigger than memory be opened.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

namespace tty {

// The decoded size a piece of text is cut at (whole lines, so a piece may be larger).
constexpr std::size_t kPackedPieceBytes = 256u << 10;

struct PackedText
{
    std::unique_ptr<char[]> bytes; // one zstd frame
    std::size_t size = 0;          // its compressed bytes
    std::size_t textSize = 0;      // the text's bytes when decoded
    bool raw = false;              // stored as it is: it did not compress (garbage, NULs)

    bool isPacked() const { return bool(bytes); }
};

// Compresses text into one frame (the calling thread's own context, kept for its next
// call). Empty text stays an empty, unpacked PackedText.
PackedText packText(std::string_view text);

// Decodes p into out, which holds p.textSize bytes. False when the frame does not decode
// to exactly that size: memory the process itself wrote is corrupt, and the caller shows
// no text rather than bytes it cannot vouch for.
bool unpackText(const PackedText &p, char *out);

} // namespace tty
