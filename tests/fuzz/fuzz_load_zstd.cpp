// The same as fuzz_load on zstd-compressed bytes: the text is compressed here, so that the
// fuzzer explores the text and the decompressor path sees valid frames (fuzz_input feeds
// it damaged ones). Cut points and frame boundaries come from the input too.
#include "fuzz_common.h"

#include <string>
#include <zstd.h>

namespace {
std::string compress(std::string_view text, std::size_t frames)
{
    std::string out;
    const std::size_t step = frames > 1 ? text.size() / frames + 1 : text.size() + 1;
    for (std::size_t at = 0; at < text.size() || out.empty(); at += step) {
        const std::string_view part = text.substr(std::min(at, text.size()), step);
        std::string buf(ZSTD_compressBound(part.size()), '\0');
        const std::size_t n = ZSTD_compress(buf.data(), buf.size(), part.data(), part.size(), 1);
        if (ZSTD_isError(n)) {
            std::abort();
        }
        out.append(buf.data(), n);
        if (at >= text.size()) {
            break;
        }
    }
    return out;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    fuzz::initQt();
    // New formats go at the end, so that the seeds' first bytes keep their meaning.
    // clang-format off
    static const char *const kFormats[] = {
        "auto",       "hostts",     "grabserial",   "kmsg",           "raw",
        "ttyscope",   "lava",       "journal-json", "journal-export", "journal-short",
        "dmesg-json", "dmesg-text", "tio",          "ts"};
    // clang-format on
    constexpr std::size_t kCount = sizeof kFormats / sizeof kFormats[0];
    if (size < 2) {
        return 0;
    }
    // data[0]: format; data[1]: frames (low 2 bits: 1-4) and a cut (high bit: drop the
    // compressed tail, as a recorder killed in the middle of a frame leaves it).
    tty::LoadOptions o;
    o.format = QString::fromLatin1(kFormats[data[0] % kCount]);
    std::string z = compress(fuzz::bytes(data + 2, size - 2), std::size_t(data[1] & 3) + 1);
    if (data[1] & 0x80) {
        z.resize(z.size() - std::min<std::size_t>(z.size(), (data[1] >> 2 & 0x1f) + 1));
    }
    QString error;
    const auto run = tty::loadRunFromBytes(z, QStringLiteral("fuzz.log.zst"), o, &error);
    if (!run) {
        if (fuzz::isRefusedContainer(error)) {
            return 0;
        }
        std::abort();
    }
    fuzz::exercise(*run, size);
    return 0;
}
