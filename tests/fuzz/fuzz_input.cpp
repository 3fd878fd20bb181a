// Raw bytes as a file: the decompressor (any bytes after a zstd magic) and the recording
// reader (as the loader and as `ttyscope cat` read it), with format detection.
#include "fuzz_common.h"

#include "inputfile.h"
#include "recordingdecoder.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    fuzz::initQt();
    const std::string_view in = fuzz::bytes(data, size);
    {
        // As `ttyscope cat` copies a recording: the decoder on decompressed blocks.
        tty::InputFile file;
        QString error;
        if (file.openBytes(in, QStringLiteral("fuzz.ttyrec.zst"), &error)) {
            std::size_t bytes = 0;
            tty::RecordingDecoder dec(
                [&](const tty::RecordingDecoder::Piece &p) { bytes += p.data.size(); });
            std::string block;
            while (file.read(block) && dec.feed(block.data(), block.size())) {
            }
            dec.finish();
        }
    }
    for (const char *format : {"auto", "ttyscope"}) {
        tty::LoadOptions o;
        o.format = QString::fromLatin1(format);
        QString error;
        const auto run = tty::loadRunFromBytes(in, QStringLiteral("fuzz.ttyrec.zst"), o, &error);
        if (run) {
            fuzz::exercise(*run, size);
        }
    }
    return 0;
}
