// Every format through loadRun on plain bytes: the first byte picks the format (detection
// or one forced), the rest is the log.
#include "fuzz_common.h"

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
    if (size < 1) {
        return 0;
    }
    tty::LoadOptions o;
    o.format = QString::fromLatin1(kFormats[data[0] % kCount]);
    QString error;
    const auto run = tty::loadRunFromBytes(fuzz::bytes(data + 1, size - 1),
                                           QStringLiteral("fuzz.log"), o, &error);
    if (!run) {
        if (fuzz::isRefusedContainer(error)) {
            return 0;
        }
        std::abort();
    }
    fuzz::exercise(*run, size);
    return 0;
}
