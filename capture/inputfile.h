// Reads a console log as a stream of decompressed blocks: plain text or zstd, recognised
// by content. Damage (truncation, corrupt frames) ends the stream with a message that says
// where, and everything decoded before it is still delivered.
#pragma once

#include <QString>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace tty {

class InputFile
{
public:
    enum class Compression { None, Zstd };

    InputFile();
    ~InputFile();
    InputFile(const InputFile &) = delete;
    InputFile &operator=(const InputFile &) = delete;

    // Opens the file; false with a message when it cannot be read at all.
    bool open(const QString &path, QString *error);
    Compression compression() const { return m_compression; }
    std::int64_t compressedSize() const { return m_size; }
    // Bytes of the file consumed so far (for progress).
    std::int64_t compressedPos() const { return m_pos; }

    static constexpr std::size_t kBlockBytes = std::size_t(1) << 20;

    // Decompresses the next block (at most kBlockBytes) to dst; returns its size, 0 at the
    // end of the stream; then warning()/error() tell why if the end was not a clean one.
    std::size_t readInto(char *dst);
    // The same into a buffer (std::string, ByteBuffer), after its first `keep` bytes; at
    // the end, false with the buffer cut to `keep` bytes.
    template <typename Buffer> bool read(Buffer &out, std::size_t keep = 0)
    {
        keep = keep < out.size() ? keep : out.size();
        out.resize(keep + kBlockBytes);
        const std::size_t n = readInto(out.data() + keep);
        out.resize(keep + n);
        return n > 0;
    }

    // Truncated input: the data that was there was delivered.
    const QString &warning() const { return m_warning; }
    // Corrupt input: delivery stopped at errorOffset() (a byte offset in the file).
    const QString &error() const { return m_error; }
    std::int64_t errorOffset() const { return m_errorOffset; }

private:
    std::size_t readRaw(char *dst);
    std::size_t readZstd(char *dst);
    bool fillInput();

    std::FILE *m_file = nullptr;
    QString m_path;
    Compression m_compression = Compression::None;
    std::int64_t m_size = 0;
    std::int64_t m_pos = 0;
    std::string m_pending; // bytes read for sniffing, not yet delivered
    // zstd state
    struct ZstdState;
    ZstdState *m_z = nullptr;
    bool m_done = false;
    QString m_warning;
    QString m_error;
    std::int64_t m_errorOffset = -1;
};

} // namespace tty
