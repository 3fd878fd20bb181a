#include "inputfile.h"

#include <QFileInfo>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

namespace tty {

namespace {
constexpr std::size_t kBlock = InputFile::kBlockBytes;
constexpr std::size_t kBlockHeader = 3; // zstd block header size

bool isZstdMagic(const std::string &b)
{
    return b.size() >= 4 && std::uint8_t(b[0]) == 0x28 && std::uint8_t(b[1]) == 0xb5 &&
           std::uint8_t(b[2]) == 0x2f && std::uint8_t(b[3]) == 0xfd;
}
bool isSkippableMagic(const std::string &b)
{
    return b.size() >= 4 && (std::uint8_t(b[0]) & 0xf0) == 0x50 && std::uint8_t(b[1]) == 0x2a &&
           std::uint8_t(b[2]) == 0x4d && std::uint8_t(b[3]) == 0x18;
}

// Containers that ttyscope does not read, known by their first bytes (and tar by "ustar" at
// 257): their bytes read as text would be garbage with made-up figures. What it is, and
// the command that gives ttyscope its text.
struct ForeignFormat
{
    std::string_view magic;
    std::size_t at;
    const char *name;
    const char *hint;
};
constexpr std::array<ForeignFormat, 7> kForeign{{
    {std::string_view("\x1f\x8b", 2), 0, "gzip-compressed", "zcat FILE | zstd > FILE.zst"},
    {std::string_view("\xfd\x37\x7a\x58\x5a\x00", 6), 0, "xz-compressed",
     "xzcat FILE | zstd > FILE.zst"},
    {std::string_view("BZh"), 0, "bzip2-compressed", "bzcat FILE | zstd > FILE.zst"},
    {std::string_view("\x04\x22\x4d\x18", 4), 0, "lz4-compressed", "lz4cat FILE | zstd > FILE.zst"},
    {std::string_view("PK\x03\x04", 4), 0, "a zip archive", "unzip -p FILE MEMBER > console.log"},
    {std::string_view("7z\xbc\xaf\x27\x1c", 6), 0, "a 7-Zip archive", "7z e FILE"},
    {std::string_view("ustar"), 257, "a tar archive", "tar -xf FILE, then open its logs"},
}};

const ForeignFormat *foreignFormat(std::string_view b)
{
    for (const ForeignFormat &f : kForeign) {
        if (b.size() >= f.at + f.magic.size() && b.substr(f.at, f.magic.size()) == f.magic) {
            // bzip2: "BZh", the block size digit and a block's or the end's magic number
            // (a console line may well start with "BZh").
            if (f.magic == "BZh" && (b.size() < 10 || b[3] < '1' || b[3] > '9' ||
                                     (b.substr(4, 6) != "\x31\x41\x59\x26\x53\x59" &&
                                      b.substr(4, 6) != "\x17\x72\x45\x38\x50\x90"))) {
                continue;
            }
            return &f;
        }
    }
    return nullptr;
}
} // namespace

struct InputFile::ZstdState
{
    ZSTD_DCtx *dctx = nullptr;
    std::vector<char> in;
    ZSTD_inBuffer input{nullptr, 0, 0};
    std::int64_t inputBase = 0; // file offset of in[0]
    std::int64_t frameStart = 0;
    bool midFrame = false;
    bool eof = false;
    // zstd's hint for the next input: the rest of the current block plus the next block's
    // 3-byte header. A call that fails does not report the output it made before failing,
    // so each call gets the hint minus that header: a block is decoded and delivered in
    // one call, and a damaged header or block fails a call of its own.
    std::size_t hint = 1;
};

InputFile::InputFile() = default;

InputFile::~InputFile()
{
    if (m_z) {
        ZSTD_freeDCtx(m_z->dctx);
        delete m_z;
    }
    if (m_file) {
        std::fclose(m_file);
    }
}

bool InputFile::open(const QString &given, QString *error)
{
    // "-" is the standard input, as for any Unix tool: `xzcat lab.log.xz | ttyscope report -`.
    const bool standardInput = given == QLatin1String("-");
    const QString path = standardInput ? QStringLiteral("/dev/stdin") : given;
    m_path = standardInput ? QStringLiteral("stdin") : given;
    QFileInfo fi(path);
    if (fi.isDir()) {
        *error = QStringLiteral("%1: is a directory").arg(m_path);
        return false;
    }
    m_file = std::fopen(QFile::encodeName(path).constData(), "rb");
    if (!m_file) {
        *error = QStringLiteral("%1: %2").arg(m_path, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    m_size = fi.size();
    struct stat st = {};
    m_regular = ::fstat(fileno(m_file), &st) != 0 || S_ISREG(st.st_mode);
    return sniff(error);
}

bool InputFile::openBytes(std::string_view bytes, const QString &name, QString *error)
{
    m_path = name;
    m_memory = true;
    m_bytes = bytes;
    m_size = std::int64_t(bytes.size());
    return sniff(error);
}

bool InputFile::sniff(QString *error)
{
    const QString &path = m_path;
    // Enough to tell the compression and, later, the format. A pipe may deliver less than
    // that per read, and its writer may stay open: once something came, a pause ends the
    // sniff, so that what was written so far is shown rather than held back.
    constexpr std::size_t kSniff = 64u << 10;
    constexpr int kPauseMs = 50;
    // A file of known size needs one byte more than it has to see its end (but a file may
    // claim a size of 0, as those in /proc do; bytes in memory have the size they have).
    const std::size_t known = std::size_t(std::max<std::int64_t>(m_size, 0)) + 1;
    const std::size_t want = m_memory    ? std::min(known, kBlock)
                             : m_regular ? std::clamp(known, kSniff, kBlock)
                                         : kBlock;
    m_pending.resize(want);
    std::size_t n = 0;
    bool end = false;
    do {
        const std::size_t got =
            readBytes(m_pending.data() + n, want - n, &end, n > 0 ? kPauseMs : -1);
        n += got;
        if (got == 0 && !end) {
            break; // a pause
        }
    } while (!m_regular && !end && n < kSniff);
    m_pending.resize(n);
    if ((m_file && std::ferror(m_file)) || !m_error.isEmpty()) {
        *error = QStringLiteral("%1: read error").arg(path);
        return false;
    }
    if (isZstdMagic(m_pending) || isSkippableMagic(m_pending)) {
        m_compression = Compression::Zstd;
        m_z = new ZstdState;
        m_z->dctx = ZSTD_createDCtx();
        m_z->in.assign(m_pending.begin(), m_pending.end());
        m_z->input = ZSTD_inBuffer{m_z->in.data(), m_z->in.size(), 0};
        m_pending.clear();
        m_pos = std::int64_t(m_z->in.size());
        m_z->eof = end;
    } else if (const ForeignFormat *f = foreignFormat(m_pending)) {
        *error = QStringLiteral("%1: %2; ttyscope reads plain text and zstd (try: %3)")
                     .arg(path, QLatin1String(f->name), QLatin1String(f->hint));
        return false;
    } else {
        m_pos = std::int64_t(m_pending.size());
    }
    return true;
}

QString InputFile::containerInsideZstd(std::string_view head) const
{
    const ForeignFormat *f = m_compression == Compression::Zstd ? foreignFormat(head) : nullptr;
    if (!f) {
        return {};
    }
    return QStringLiteral("%1: its zstd content is %2; ttyscope reads plain text and zstd (try: "
                          "zstd -dc FILE > DECODED, then %3)")
        .arg(m_path, QLatin1String(f->name),
             QString::fromLatin1(f->hint).replace(QLatin1String("FILE"), QLatin1String("DECODED")));
}

std::size_t InputFile::nextBlockBytes() const
{
    constexpr std::size_t kSmall = 64u << 10;
    if (!m_putBack.empty()) {
        return std::min(m_putBack.size(), kBlock);
    }
    if (!m_pending.empty()) {
        return m_pending.size();
    }
    if (!m_regular) {
        return kBlock;
    }
    // What is left of the file (it may still grow: then it takes more reads), or for zstd
    // a generous guess from the compressed size; either way a block at most.
    const std::int64_t left = std::max<std::int64_t>(m_size - m_pos, 0);
    const std::int64_t guess = m_compression == Compression::Zstd ? 8 * m_size : left + 1;
    // Bytes in memory do not grow: what is left is all there is (fuzzing runs thousands of
    // tiny inputs a second, and set up 64 KiB buffers for each).
    const std::int64_t floor = m_memory ? std::min<std::int64_t>(guess, kSmall) : kSmall;
    return std::size_t(std::clamp<std::int64_t>(guess, floor, std::int64_t(kBlock)));
}

std::size_t InputFile::readInto(char *dst, std::size_t capacity)
{
    capacity = std::min(capacity, kBlock);
    if (!m_putBack.empty()) {
        const std::size_t n = std::min(m_putBack.size(), capacity);
        std::memcpy(dst, m_putBack.data(), n);
        m_putBack.erase(0, n);
        return n;
    }
    if (m_done) {
        return 0;
    }
    std::size_t n = 0;
    while (n == 0) {
        const std::size_t got = m_utf16                              ? readDecoded(dst, capacity)
                                : m_compression == Compression::Zstd ? readZstd(dst, capacity)
                                                                     : readRaw(dst, capacity);
        if (got == 0 && !(m_utf16 && !m_wide.empty())) {
            m_done = true;
            return 0;
        }
        // A block that was only the LF of a CRLF, or half a UTF-16 code unit, converts to
        // nothing: read on.
        n = m_crEndsLines ? convertCr(dst, got) : got;
    }
    return n;
}

std::string InputFile::decodeUtf16From(std::string_view head, bool bigEndian)
{
    m_utf16 = std::make_unique<QStringDecoder>(bigEndian ? QStringConverter::Utf16BE
                                                         : QStringConverter::Utf16LE);
    const QString text = m_utf16->decode(QByteArrayView(head.data(), qsizetype(head.size())));
    return text.toUtf8().toStdString();
}

// Reads UTF-16 and delivers it as UTF-8: a code unit (2 bytes) is at most 3 bytes of UTF-8
// and a surrogate pair (4 bytes) 4, so two thirds of `capacity` read fit. m_wide is left
// non-empty while the input has not ended.
std::size_t InputFile::readDecoded(char *dst, std::size_t capacity)
{
    m_wide.resize(capacity / 3 * 2);
    const std::size_t got = m_compression == Compression::Zstd
                                ? readZstd(m_wide.data(), m_wide.size())
                                : readRaw(m_wide.data(), m_wide.size());
    m_wide.resize(got);
    const QString text = m_utf16->decode(QByteArrayView(m_wide.data(), qsizetype(got)));
    const QByteArray utf8 = text.toUtf8();
    std::memcpy(dst, utf8.constData(), std::size_t(utf8.size()));
    return std::size_t(utf8.size());
}

std::size_t InputFile::endLinesAtCr(char *head, std::size_t n)
{
    m_crEndsLines = true;
    return convertCr(head, n);
}

std::size_t InputFile::convertCr(char *p, std::size_t n)
{
    std::size_t w = 0;
    for (std::size_t r = 0; r < n; ++r) {
        const char c = p[r];
        if (c == '\n' && m_afterCr) {
            m_afterCr = false;
            continue;
        }
        m_afterCr = c == '\r';
        p[w++] = m_afterCr ? '\n' : c;
    }
    return w;
}

std::size_t InputFile::readRaw(char *dst, std::size_t capacity)
{
    if (!m_pending.empty()) {
        const std::size_t n = std::min(m_pending.size(), capacity); // read by open()
        std::memcpy(dst, m_pending.data(), n);
        m_pending.erase(0, n);
        return n;
    }
    bool end = false;
    const std::size_t n = readBytes(dst, capacity, &end);
    m_pos += std::int64_t(n);
    return n;
}

std::size_t InputFile::readBytes(char *dst, std::size_t n, bool *atEnd, int quietMs)
{
    if (cancelled()) {
        *atEnd = true; // what was read before is still decoded and delivered
        return 0;
    }
    if (m_memory) {
        const std::size_t at = std::size_t(std::min<std::int64_t>(m_pos, m_size));
        const std::size_t got = std::min(n, m_bytes.size() - at);
        std::memcpy(dst, m_bytes.data() + at, got);
        *atEnd = got < n;
        return got;
    }
    if (m_regular) {
        const std::size_t got = std::fread(dst, 1, n, m_file);
        *atEnd = got < n;
        if (got < n && std::ferror(m_file) && m_error.isEmpty()) {
            m_error = QStringLiteral("read error at byte %1").arg(m_pos + std::int64_t(got));
            m_errorOffset = ByteOffset(m_pos + std::int64_t(got));
        }
        return got;
    }
    const int fd = fileno(m_file);
    for (;;) {
        if (cancelled()) {
            *atEnd = true;
            return 0;
        }
        // In slices, so that a pipe gone quiet does not keep Cancel waiting.
        pollfd pfd{fd, POLLIN, 0};
        const int slice = quietMs >= 0 ? std::min(quietMs, 100) : 100;
        const int r = ::poll(&pfd, 1, slice);
        if (r == 0 && quietMs >= 0 && (quietMs -= slice) <= 0) {
            *atEnd = false;
            return 0;
        }
        if (r == 0 || (r < 0 && errno == EINTR)) {
            continue;
        }
        const ssize_t got = r < 0 ? -1 : ::read(fd, dst, n);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) {
            continue;
        }
        if (got < 0) {
            m_error = QStringLiteral("read error at byte %1: %2")
                          .arg(m_pos)
                          .arg(QString::fromLocal8Bit(std::strerror(errno)));
            m_errorOffset = ByteOffset(m_pos);
        }
        *atEnd = got <= 0;
        return got > 0 ? std::size_t(got) : 0;
    }
}

bool InputFile::fillInput()
{
    ZstdState &z = *m_z;
    if (z.eof) {
        return false;
    }
    // Keep the unconsumed tail, then append fresh bytes.
    const std::size_t left = z.input.size - z.input.pos;
    std::memmove(z.in.data(), z.in.data() + z.input.pos, left);
    z.inputBase += std::int64_t(z.input.pos);
    const std::size_t want =
        m_regular ? std::min(kBlock, std::size_t(std::max<std::int64_t>(m_size - m_pos, 0)) + 1)
                  : kBlock;
    z.in.resize(left + want);
    bool end = false;
    const std::size_t n = readBytes(z.in.data() + left, want, &end);
    z.in.resize(left + n);
    m_pos += std::int64_t(n);
    z.input = ZSTD_inBuffer{z.in.data(), z.in.size(), 0};
    z.eof = end;
    return n > 0;
}

std::size_t InputFile::readZstd(char *dst, std::size_t capacity)
{
    ZstdState &z = *m_z;
    ZSTD_outBuffer output{dst, capacity, 0};
    while (output.pos < output.size) {
        if (z.input.pos == z.input.size) {
            if (!m_regular && output.pos > 0) {
                break; // a pipe: deliver what its writer sent so far before waiting for more
            }
            fillInput();
        }
        // With no input left, one more call still drains output the decoder holds back.
        const bool noInput = z.input.pos == z.input.size;
        const std::size_t before = output.pos;
        if (!z.midFrame && !noInput) {
            z.frameStart = z.inputBase + std::int64_t(z.input.pos);
        }
        const std::size_t take = z.hint > kBlockHeader ? z.hint - kBlockHeader : z.hint;
        ZSTD_inBuffer slice{z.input.src, std::min(z.input.size, z.input.pos + take), z.input.pos};
        const std::size_t ret = ZSTD_decompressStream(z.dctx, &output, &slice);
        z.input.pos = slice.pos;
        z.hint = ZSTD_isError(ret) || ret == 0 ? 1 : ret;
        if (ZSTD_isError(ret)) {
            m_errorOffset =
                ByteOffset(z.midFrame ? z.frameStart : z.inputBase + std::int64_t(z.input.pos));
            m_error = QStringLiteral("corrupt zstd data in the frame at byte %1 of the file (%2); "
                                     "everything before it was kept")
                          .arg(m_errorOffset->value())
                          .arg(QString::fromLatin1(ZSTD_getErrorName(ret)));
            m_done = true;
            return output.pos;
        }
        if (noInput && output.pos == before) {
            break; // nothing left (a drain call's return value says nothing about frames)
        }
        z.midFrame = ret != 0;
    }
    if (output.pos == 0) {
        if (z.midFrame && !cancelled()) {
            m_warning = QStringLiteral("the file ends inside a zstd frame (truncated at byte %1): "
                                       "everything decoded before the cut was kept")
                            .arg(m_size);
        }
    }
    return output.pos;
}

} // namespace tty
