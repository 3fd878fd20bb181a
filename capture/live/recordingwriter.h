// Writes a ttyscope recording (docs/format.md): records into a zstd stream that is flushed
// often enough that a killed process loses at most about a second, with restart points
// (frame ends) every 64 MiB or 60 s. A failed write (disk full) keeps the compressed data
// in memory, bounded, and retries: what reached the file stays a readable prefix.
// Not thread-safe: CaptureSession drives it from its writer thread.
#pragma once

#include "types.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <string>

typedef struct ZSTD_CCtx_s ZSTD_CCtx;

namespace tty {

struct RecordingLimits
{
    std::int64_t flushIntervalNs = 500'000'000;       // ZSTD_e_flush at least this often
    std::int64_t frameBytes = std::int64_t(64) << 20; // ZSTD_e_end after this much input
    std::int64_t frameIntervalNs = 60'000'000'000;    // ...or this much time
    std::int64_t retryIntervalNs = 1'000'000'000;     // retry a failed write this often
    std::size_t memoryLimit = std::size_t(256) << 20; // compressed bytes kept when writes fail
    int level = 3;                                    // zstd level
};

class RecordingWriter
{
public:
    struct Status
    {
        std::int64_t inputBytes = 0;   // uncompressed stream bytes accepted
        std::int64_t fileBytes = 0;    // compressed bytes in the file
        std::int64_t pendingBytes = 0; // compressed bytes kept in memory (write failed)
        std::int64_t lostBytes = 0;    // payload bytes dropped: memory limit reached
        std::int64_t frames = 0;       // frames ended
        QString error;                 // the current write problem, empty when fine
    };

    explicit RecordingWriter(const RecordingLimits &limits = {});
    ~RecordingWriter();
    RecordingWriter(const RecordingWriter &) = delete;
    RecordingWriter &operator=(const RecordingWriter &) = delete;

    // Creates the file (never overwrites one); writes the magic line.
    bool open(const QString &path, QString *error);
    // Takes over an open file descriptor (tests; stdout).
    void openFd(int fd, const QString &name);
    bool isOpen() const { return m_fd >= 0; }
    const QString &path() const { return m_path; }

    // One record; `type` is a letter of docs/format.md (H D M S G R W).
    void append(char type, HostNs wall, std::int64_t mono, const char *p, std::size_t n);
    void append(char type, HostNs wall, std::int64_t mono, std::string_view s)
    {
        append(type, wall, mono, s.data(), s.size());
    }
    // Flushes, ends frames and retries failed writes when due; call it often (~10 Hz).
    void tick(std::int64_t monoNow);
    // Makes everything appended so far decodable from the file (if writes succeed).
    void flush();
    // Ends the frame, writes what it can, closes. False with *error if data did not reach
    // the file (it is then lost).
    bool close(QString *error);

    const Status &status() const { return m_status; }

    // The header record's JSON (docs/format.md keys) for a capture.
    static QJsonObject headerJson(const QString &source, int baud, int dataBits,
                                  const QString &parity, int stopBits, const QString &flow,
                                  const QString &label, const QDateTime &startUtc);
    // Expands %Y %m %d %H %M %S (local time) and {label} (made file-name safe; an empty
    // label also drops the separator before it).
    static QString expandTemplate(const QString &tpl, const QString &label, const QDateTime &t);
    static constexpr const char *kDefaultTemplate = "ttyscope-%Y%m%d-%H%M%S-{label}.ttyrec.zst";

private:
    void compress(int mode); // ZSTD_EndDirective
    void writeOut();
    void noteWriteError(int err);

    RecordingLimits m_limits;
    ZSTD_CCtx *m_cctx = nullptr;
    int m_fd = -1;
    QString m_path;
    std::string m_in;  // records not yet given to zstd
    std::string m_out; // compressed bytes not yet in the file, from m_outPos
    std::size_t m_outPos = 0;
    std::int64_t m_unflushed = 0;  // bytes given to zstd since the last flush
    std::int64_t m_frameInput = 0; // bytes in the current frame
    std::int64_t m_lastFlushMono = 0;
    std::int64_t m_frameStartMono = 0;
    std::int64_t m_nextRetryMono = 0;
    std::int64_t m_lostSinceReport = 0;
    bool m_failing = false;
    Status m_status;
};

// CLOCK_REALTIME and CLOCK_MONOTONIC in nanoseconds.
HostNs wallNowNs();
std::int64_t monoNowNs();

} // namespace tty
