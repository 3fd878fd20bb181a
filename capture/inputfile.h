// Reads a console log as a stream of decompressed blocks: plain text or zstd, recognised
// by content. Damage (truncation, corrupt frames) ends the stream with a message that says
// where, and everything decoded before it is still delivered.
#pragma once

#include "types.h"

#include <QString>
#include <QStringDecoder>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
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

    // A flag that, once set, stops reading the file (without a warning): what was read is
    // still delivered, then the stream ends. A pipe may wait for data indefinitely, and
    // Cancel does not wait with it. Set it before open().
    void setCancel(const std::atomic<bool> *cancel) { m_cancel = cancel; }
    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
    // Opens the file; false with a message when it cannot be read at all. A pipe or FIFO
    // is read once, so the bytes read to tell the compression stay here for readInto().
    bool open(const QString &path, QString *error);
    // The same on bytes in memory (kept by the caller until the end), named `name` in
    // messages: fuzzing and tests load without a file.
    bool openBytes(std::string_view bytes, const QString &name, QString *error);
    // Makes the next readInto() deliver `bytes` (decompressed data already read, at most
    // kBlockBytes) before anything else: one reader can sniff a pipe and hand it on.
    void putBack(std::string bytes) { m_putBack = std::move(bytes); }
    // A regular file (or memory) rather than a pipe, FIFO or device.
    bool isRegular() const { return m_regular; }
    Compression compression() const { return m_compression; }
    // The file's size as stored (compressed for zstd); 0 for a pipe.
    ByteCount compressedSize() const { return ByteCount(m_size); }
    // Where in the file reading has got to (for progress).
    ByteOffset compressedPos() const { return ByteOffset(m_pos); }

    static constexpr std::size_t kBlockBytes = std::size_t(1) << 20;

    // Decompresses the next block (at most kBlockBytes) to dst; returns its size, 0 at the
    // end of the stream; then warning()/error() tell why if the end was not a clean one.
    std::size_t readInto(char *dst, std::size_t capacity = kBlockBytes);
    // How much the next read() asks for: a block, or less when the input is known to be
    // small (setting up and clearing megabyte buffers dominated small loads).
    std::size_t nextBlockBytes() const;
    // The same into a buffer (std::string, ByteBuffer), after its first `keep` bytes; at
    // the end, false with the buffer cut to `keep` bytes.
    template <typename Buffer> bool read(Buffer &out, std::size_t keep = 0)
    {
        keep = keep < out.size() ? keep : out.size();
        const std::size_t capacity = nextBlockBytes();
        out.resize(keep + capacity);
        const std::size_t n = readInto(out.data() + keep, capacity);
        out.resize(keep + n);
        return n > 0;
    }

    // A zstd file whose decoded `head` (its first block) is a container (a .tar.zst, a
    // gzip file compressed again): the message that refuses it, as for the container
    // itself. Empty for anything else.
    QString containerInsideZstd(std::string_view head) const;

    // UTF-16 text (PowerShell's `>` writes it): from the next read on it is delivered as
    // UTF-8 (a code unit that is no character as U+FFFD). Returns `head`, bytes already
    // read, as UTF-8 (without its byte order mark).
    std::string decodeUtf16From(std::string_view head, bool bigEndian);

    // Lines that end in a CR alone (a terminal's log that kept CR as its line end, a
    // capture that dropped the LFs): from the next read on every CR is delivered as an LF,
    // and an LF right after a CR is dropped (a CRLF stays one line end). `head`, bytes
    // already read, is converted the same way in place; returns its new size.
    std::size_t endLinesAtCr(char *head, std::size_t n);

    // Truncated input: the data that was there was delivered.
    const QString &warning() const { return m_warning; }
    // Corrupt input: delivery stopped at errorOffset() (a byte offset in the file), which
    // is none while there was no error.
    const QString &error() const { return m_error; }
    std::optional<ByteOffset> errorOffset() const { return m_errorOffset; }

private:
    std::size_t readRaw(char *dst, std::size_t capacity);
    std::size_t readZstd(char *dst, std::size_t capacity);
    bool fillInput();
    // Reads up to n bytes of the file. A regular file: a short count means its end. A pipe
    // or a device: what is there once something is (0 at its end, or once cancelled).
    // A pipe waits for data without end (until cancelled), or at most `quietMs` when given:
    // then 0 with *atEnd false.
    std::size_t readBytes(char *dst, std::size_t n, bool *atEnd, int quietMs = -1);
    bool sniff(QString *error);
    std::size_t convertCr(char *p, std::size_t n);
    std::size_t readDecoded(char *dst, std::size_t capacity);

    std::FILE *m_file = nullptr;
    bool m_regular = true;
    const std::atomic<bool> *m_cancel = nullptr;
    QString m_path;
    Compression m_compression = Compression::None;
    std::int64_t m_size = 0;
    std::int64_t m_pos = 0;
    std::string m_pending; // bytes read for sniffing, not yet delivered
    std::string m_putBack; // decompressed bytes given back by putBack()
    bool m_memory = false; // openBytes(): m_bytes instead of m_file
    std::string_view m_bytes;
    // zstd state
    struct ZstdState;
    ZstdState *m_z = nullptr;
    bool m_done = false;
    std::unique_ptr<QStringDecoder> m_utf16; // decodeUtf16From()
    std::string m_wide;                      // UTF-16 bytes read, to be decoded
    bool m_crEndsLines = false;              // endLinesAtCr()
    bool m_afterCr = false;                  // the last byte delivered was a CR made an LF
    QString m_warning;
    QString m_error;
    std::optional<ByteOffset> m_errorOffset;
};

} // namespace tty
