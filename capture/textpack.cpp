#include "textpack.h"

#include <cstring>
#include <zstd.h>

namespace tty {

namespace {
// Level 1: 5× on console text at about 350 MB/s a core, where the negative levels gain
// speed but keep a third more memory (docs/benchmarks.md, "Text kept compressed").
constexpr int kPackLevel = 1;

struct Contexts
{
    ZSTD_CCtx *c = nullptr;
    ZSTD_DCtx *d = nullptr;
    std::unique_ptr<char[]> scratch; // a frame is written here, then copied at its size
    std::size_t scratchSize = 0;
    ~Contexts()
    {
        ZSTD_freeCCtx(c);
        ZSTD_freeDCtx(d);
    }
};

Contexts &contexts()
{
    // Per thread: parsers pack on their own threads, searches decode on theirs.
    thread_local Contexts ctx;
    return ctx;
}
} // namespace

PackedText packText(std::string_view text)
{
    PackedText p;
    p.textSize = text.size();
    if (text.empty()) {
        return p;
    }
    Contexts &ctx = contexts();
    if (!ctx.c) {
        ctx.c = ZSTD_createCCtx();
    }
    const std::size_t bound = ZSTD_compressBound(text.size());
    if (ctx.scratchSize < bound) {
        ctx.scratch.reset(new char[bound]);
        ctx.scratchSize = bound;
    }
    const std::size_t n =
        ZSTD_compressCCtx(ctx.c, ctx.scratch.get(), bound, text.data(), text.size(), kPackLevel);
    if (ZSTD_isError(n) || n >= text.size()) {
        // Random bytes do not compress, and zstd failing (out of memory) must not lose
        // text: either way the text is kept as it is.
        p.bytes.reset(new char[text.size()]);
        std::memcpy(p.bytes.get(), text.data(), text.size());
        p.size = text.size();
        p.raw = true;
        return p;
    }
    // Exactly sized: the scratch buffer is bigger than the text.
    p.bytes.reset(new char[n]);
    std::memcpy(p.bytes.get(), ctx.scratch.get(), n);
    p.size = n;
    return p;
}

bool unpackText(const PackedText &p, char *out)
{
    if (!p.isPacked()) {
        return p.textSize == 0;
    }
    if (p.raw) {
        std::memcpy(out, p.bytes.get(), p.size);
        return true;
    }
    Contexts &ctx = contexts();
    if (!ctx.d) {
        ctx.d = ZSTD_createDCtx();
    }
    const std::size_t n = ZSTD_decompressDCtx(ctx.d, out, p.textSize, p.bytes.get(), p.size);
    return !ZSTD_isError(n) && n == p.textSize;
}

} // namespace tty
