#include "recordingwriter.h"

#include "recordingdecoder.h"

#include <QJsonDocument>
#include <QRegularExpression>

#include <zstd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <ctime>

#include <fcntl.h>
#include <unistd.h>

namespace tty {

namespace {
constexpr std::size_t kCompressChunk = 128u << 10; // give zstd input in pieces of this size

std::int64_t clockNs(clockid_t id)
{
    timespec ts{};
    ::clock_gettime(id, &ts);
    return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}
} // namespace

HostNs wallNowNs()
{
    return HostNs(clockNs(CLOCK_REALTIME));
}
std::int64_t monoNowNs()
{
    return clockNs(CLOCK_MONOTONIC);
}

RecordingWriter::RecordingWriter(const RecordingLimits &limits) : m_limits(limits) {}

RecordingWriter::~RecordingWriter()
{
    if (m_fd >= 0) {
        QString ignored;
        close(&ignored);
    }
    ZSTD_freeCCtx(m_cctx);
}

bool RecordingWriter::open(const QString &path, QString *error)
{
    const int fd =
        ::open(path.toLocal8Bit().constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        *error = errno == EEXIST
                     ? QStringLiteral("%1: the file exists; ttyscope never overwrites a "
                                      "recording (choose another --output)")
                           .arg(path)
                     : QStringLiteral("%1: cannot create the recording: %2")
                           .arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    openFd(fd, path);
    return true;
}

void RecordingWriter::openFd(int fd, const QString &name)
{
    m_fd = fd;
    m_path = name;
    if (!m_cctx) {
        m_cctx = ZSTD_createCCtx();
    }
    ZSTD_CCtx_reset(m_cctx, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(m_cctx, ZSTD_c_compressionLevel, m_limits.level);
    ZSTD_CCtx_setParameter(m_cctx, ZSTD_c_checksumFlag, 1);
    m_lastFlushMono = m_frameStartMono = monoNowNs();
    m_in.append(kRecordingMagic);
    m_status.inputBytes += std::int64_t(kRecordingMagic.size());
}

void RecordingWriter::append(char type, HostNs wall, std::int64_t mono, const char *p,
                             std::size_t n)
{
    if (m_fd < 0) {
        return;
    }
    if (m_failing && m_out.size() - m_outPos > m_limits.memoryLimit) {
        // Out of memory budget while the file cannot take more: count what is lost and say
        // so in the recording once writes work again.
        if (type == 'D') {
            m_status.lostBytes += std::int64_t(n);
            m_lostSinceReport += std::int64_t(n);
        }
        return;
    }
    char head[96];
    const int h = std::snprintf(head, sizeof head, "%c %" PRId64 " %" PRId64 " %zu\n", type,
                                wall.count(), mono, n);
    m_in.append(head, std::size_t(h));
    m_in.append(p, n);
    m_in.push_back('\n');
    m_status.inputBytes += std::int64_t(h) + std::int64_t(n) + 1;
    if (m_in.size() >= kCompressChunk) {
        compress(ZSTD_e_continue);
        writeOut();
    }
}

void RecordingWriter::compress(int mode)
{
    const auto directive = ZSTD_EndDirective(mode);
    m_frameInput += std::int64_t(m_in.size());
    m_unflushed += std::int64_t(m_in.size());
    ZSTD_inBuffer in{m_in.data(), m_in.size(), 0};
    const std::size_t outStep = ZSTD_CStreamOutSize();
    for (;;) {
        const std::size_t old = m_out.size();
        m_out.resize(old + outStep);
        ZSTD_outBuffer out{m_out.data() + old, outStep, 0};
        const std::size_t rem = ZSTD_compressStream2(m_cctx, &out, &in, directive);
        m_out.resize(old + out.pos);
        if (ZSTD_isError(rem)) {
            m_status.error = QStringLiteral("zstd: %1").arg(QLatin1String(ZSTD_getErrorName(rem)));
            break;
        }
        if (directive == ZSTD_e_continue ? in.pos == in.size : rem == 0) {
            break;
        }
    }
    m_in.clear();
    if (directive == ZSTD_e_end) {
        ++m_status.frames;
        m_frameInput = 0;
        m_frameStartMono = monoNowNs();
    }
    if (directive != ZSTD_e_continue) {
        m_unflushed = 0;
        m_lastFlushMono = monoNowNs();
    }
    if (directive == ZSTD_e_continue && m_frameInput >= m_limits.frameBytes) {
        compress(ZSTD_e_end);
    }
}

void RecordingWriter::flush()
{
    if (m_fd < 0) {
        return;
    }
    if (!m_in.empty() || m_unflushed > 0) {
        compress(ZSTD_e_flush);
    }
    writeOut();
}

void RecordingWriter::tick(std::int64_t monoNow)
{
    if (m_fd < 0) {
        return;
    }
    if (m_failing && monoNow >= m_nextRetryMono) {
        writeOut();
    }
    const bool pending = !m_in.empty() || m_unflushed > 0;
    if (pending && m_frameInput + std::int64_t(m_in.size()) > 0 &&
        monoNow - m_frameStartMono >= m_limits.frameIntervalNs) {
        compress(ZSTD_e_end);
        writeOut();
    } else if (pending && monoNow - m_lastFlushMono >= m_limits.flushIntervalNs) {
        flush();
    }
}

void RecordingWriter::writeOut()
{
    if (m_fd < 0) {
        return;
    }
    while (m_outPos < m_out.size()) {
        const ssize_t w = ::write(m_fd, m_out.data() + m_outPos, m_out.size() - m_outPos);
        if (w > 0) {
            m_outPos += std::size_t(w);
            m_status.fileBytes += w;
            continue;
        }
        if (w < 0 && errno == EINTR) {
            continue;
        }
        noteWriteError(w < 0 ? errno : EIO);
        if (m_outPos > (1u << 20) && m_outPos > m_out.size() / 2) {
            m_out.erase(0, m_outPos);
            m_outPos = 0;
        }
        m_status.pendingBytes = std::int64_t(m_out.size() - m_outPos);
        return;
    }
    m_out.clear();
    m_outPos = 0;
    m_status.pendingBytes = 0;
    if (m_failing) {
        m_failing = false;
        m_status.error.clear();
        if (m_lostSinceReport > 0) {
            const std::string w = QStringLiteral("%1 bytes of console data were lost: the file "
                                                 "could not be written and the memory buffer "
                                                 "was full")
                                      .arg(m_lostSinceReport)
                                      .toStdString();
            m_lostSinceReport = 0;
            append('W', wallNowNs(), monoNowNs(), w);
        }
    }
}

void RecordingWriter::noteWriteError(int err)
{
    m_nextRetryMono = monoNowNs() + m_limits.retryIntervalNs;
    const QString reason = QString::fromLocal8Bit(std::strerror(err));
    m_status.error = QStringLiteral("writing %1 failed: %2; keeping the data in memory and "
                                    "retrying")
                         .arg(m_path, reason);
    if (!m_failing) {
        m_failing = true;
        // Goes into the stream, so it reaches the file with the data once writes work again.
        const std::string w = QStringLiteral("a write to the recording failed (%1); the data was "
                                             "kept in memory and written later")
                                  .arg(reason)
                                  .toStdString();
        append('W', wallNowNs(), monoNowNs(), w);
    }
}

bool RecordingWriter::close(QString *error)
{
    if (m_fd < 0) {
        return true;
    }
    if (m_frameInput > 0 || !m_in.empty() || m_unflushed > 0) {
        compress(ZSTD_e_end);
    }
    writeOut();
    bool ok = true;
    if (m_outPos < m_out.size()) {
        *error = QStringLiteral("%1: %2 compressed bytes could not be written (%3)")
                     .arg(m_path, QString::number(m_out.size() - m_outPos), m_status.error);
        ok = false;
    }
    if (::close(m_fd) != 0 && ok) {
        *error = QStringLiteral("%1: closing failed: %2")
                     .arg(m_path, QString::fromLocal8Bit(std::strerror(errno)));
        ok = false;
    }
    m_fd = -1;
    return ok;
}

QJsonObject RecordingWriter::headerJson(const QString &source, int baud, int dataBits,
                                        const QString &parity, int stopBits, const QString &flow,
                                        const QString &label, const QDateTime &startUtc)
{
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    QJsonObject o;
    o.insert(QStringLiteral("tool"), QStringLiteral("ttyscope"));
    o.insert(QStringLiteral("version"), QStringLiteral(TTYSCOPE_VERSION));
    o.insert(QStringLiteral("source"), source);
    o.insert(QStringLiteral("baud"), baud);
    o.insert(QStringLiteral("data_bits"), dataBits);
    o.insert(QStringLiteral("parity"), parity);
    o.insert(QStringLiteral("stop_bits"), stopBits);
    o.insert(QStringLiteral("flow"), flow);
    o.insert(QStringLiteral("start_utc"), startUtc.toUTC().toString(Qt::ISODateWithMs));
    o.insert(QStringLiteral("host"), QString::fromLocal8Bit(host));
    o.insert(QStringLiteral("label"), label);
    return o;
}

QString RecordingWriter::expandTemplate(const QString &tpl, const QString &label,
                                        const QDateTime &t)
{
    const QDateTime l = t.toLocalTime();
    QString safe = label;
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._+-]+"));
    safe.replace(unsafe, QStringLiteral("_"));
    QString out = tpl;
    if (safe.isEmpty()) {
        out.replace(QLatin1String("-{label}"), QString());
        out.replace(QLatin1String("_{label}"), QString());
    }
    out.replace(QLatin1String("{label}"), safe);
    out.replace(QLatin1String("%Y"), l.toString(QStringLiteral("yyyy")));
    out.replace(QLatin1String("%m"), l.toString(QStringLiteral("MM")));
    out.replace(QLatin1String("%d"), l.toString(QStringLiteral("dd")));
    out.replace(QLatin1String("%H"), l.toString(QStringLiteral("HH")));
    out.replace(QLatin1String("%M"), l.toString(QStringLiteral("mm")));
    out.replace(QLatin1String("%S"), l.toString(QStringLiteral("ss")));
    return out;
}

} // namespace tty
