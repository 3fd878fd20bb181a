#include "capturesession.h"

#include <QJsonDocument>

#include <chrono>

namespace tty {

namespace {
constexpr std::size_t kWakeWriterBytes = 256u << 10;
constexpr std::size_t kTrickleBytes = 256;
} // namespace

CaptureSession::CaptureSession(const CaptureOptions &options)
    : m_options(options), m_writer(options.limits)
{
}

CaptureSession::~CaptureSession()
{
    stop();
}

bool CaptureSession::start(QString *error)
{
    if (m_started) {
        *error = QStringLiteral("the capture is already running");
        return false;
    }
    QString msg;
    if (!checkSettings(m_options.settings, &msg)) {
        *error = QStringLiteral("%1: %2").arg(m_options.port, msg);
        return false;
    }
    m_source = makeSource(m_options.port, m_options.settings);
    if (!m_source->open(error)) {
        return false;
    }
    if (!m_options.output.isEmpty() && !m_writer.open(m_options.output, error)) {
        m_source->close();
        return false;
    }
    {
        std::lock_guard<std::mutex> l(m_statusMutex);
        m_status.state = State::Open;
        m_status.sourceKind = m_source->kind();
        m_status.path = m_options.output;
        m_status.message =
            QStringLiteral("capturing %1 (%2)").arg(m_options.port, m_source->kind());
    }
    const SerialSettings &s = m_options.settings;
    const HostNs wall = wallNowNs();
    const std::int64_t mono = monoNowNs();
    const int baud =
        m_source->setsLineRate() || (m_options.baudGiven && m_source->carriesSerialLine()) ? s.baud
                                                                                           : 0;
    {
        std::lock_guard<std::mutex> l(m_statusMutex);
        m_status.recordedBaud = baud;
    }
    QJsonObject header = RecordingWriter::headerJson(
        m_options.port, baud, s.dataBits, QLatin1String(parityName(s.parity)), s.stopBits,
        QLatin1String(flowName(s.flow)), m_options.label,
        QDateTime::fromMSecsSinceEpoch(wall.count() / 1000000, Qt::UTC));
    if (!m_source->carriesSerialLine()) {
        header.insert(QStringLiteral("line"), QStringLiteral("none")); // docs/format.md
    }
    emitRecord('H', wall, mono, QJsonDocument(header).toJson(QJsonDocument::Compact).toStdString());
    m_started = true;
    if (m_writer.isOpen()) {
        m_writerThread = std::thread([this] { writerLoop(); });
    }
    m_reader = std::thread([this] { readerLoop(); });
    return true;
}

bool CaptureSession::stop(QString *error)
{
    if (!m_started || m_stopped) {
        return true;
    }
    m_stopped = true;
    m_stopReader = true;
    m_spaceCv.notify_all();
    if (m_reader.joinable()) {
        m_reader.join();
    }
    // When the capture stopped: a reader learns that it ran on after its last line, and
    // nothing came in that time (docs/format.md).
    emitRecord('E', wallNowNs(), monoNowNs(), "stopped");
    {
        std::lock_guard<std::mutex> l(m_writeMutex);
        m_stopWriter = true;
    }
    m_writeCv.notify_all();
    if (m_writerThread.joinable()) {
        m_writerThread.join();
    }
    QString closeError;
    const bool ok = m_writer.close(&closeError);
    {
        std::lock_guard<std::mutex> l(m_statusMutex);
        m_status.state = State::Stopped;
        m_status.recording = m_writer.status();
        m_status.message =
            ok ? QStringLiteral("stopped %1 (%2)").arg(m_options.port, m_source->kind())
               : closeError;
    }
    if (!ok && error) {
        *error = closeError;
    }
    return ok;
}

void CaptureSession::emitRecord(char type, HostNs wall, std::int64_t mono, std::string data)
{
    const std::size_t size = data.size();
    if (m_writer.isOpen()) {
        std::unique_lock<std::mutex> l(m_writeMutex);
        if (type == 'D') {
            // Back-pressure instead of loss: the kernel holds the rest in the tty buffers.
            m_spaceCv.wait(
                l, [&] { return m_writeQueued < m_options.writerQueueLimit || m_stopReader; });
        }
        // The writer wakes every 100 ms on its own; waking it for every small read would
        // cost a context switch per read (a slow console is read a few bytes at a time).
        const bool wake = type != 'D' || m_writeQueued + size >= kWakeWriterBytes;
        if (!m_stopWriter) {
            m_writeUrgent = m_writeUrgent || type != 'D';
            m_writeQueued += size;
            m_writeQueue.push_back(
                LiveRecord{type, wall, mono, m_options.liveQueue ? data : std::move(data)});
        }
        l.unlock();
        if (wake) {
            m_writeCv.notify_one();
        }
    }
    if (!m_options.liveQueue) {
        return;
    }
    {
        std::lock_guard<std::mutex> l(m_liveMutex);
        if (type == 'D' && m_liveBytes + size > m_options.liveQueueLimit) {
            m_liveDroppedPending += std::int64_t(size);
            std::lock_guard<std::mutex> s(m_statusMutex);
            m_status.liveDropped += std::int64_t(size);
            return;
        }
        if (m_liveDroppedPending > 0) {
            const std::string w = QStringLiteral("the live view fell behind: %1 bytes are not "
                                                 "shown here (they are in the recording)")
                                      .arg(m_liveDroppedPending)
                                      .toStdString();
            m_live.push_back(LiveRecord{'W', wall, mono, w});
            m_liveDroppedPending = 0;
        }
        m_liveBytes += size;
        m_live.push_back(LiveRecord{type, wall, mono, std::move(data)});
    }
    if (m_notify) {
        m_notify();
    }
}

std::vector<LiveRecord> CaptureSession::takeLive()
{
    std::vector<LiveRecord> out;
    std::lock_guard<std::mutex> l(m_liveMutex);
    out.swap(m_live);
    m_liveBytes = 0;
    return out;
}

void CaptureSession::addMarker(const QString &text)
{
    emitRecord('M', wallNowNs(), monoNowNs(), text.toStdString());
}

void CaptureSession::send(const QByteArray &bytes)
{
    std::lock_guard<std::mutex> l(m_cmdMutex);
    m_commands.push_back(Command{bytes, false});
}

void CaptureSession::sendBreak(char key)
{
    std::lock_guard<std::mutex> l(m_cmdMutex);
    m_commands.push_back(Command{QByteArray(1, key), true});
}

CaptureSession::Status CaptureSession::status() const
{
    std::lock_guard<std::mutex> l(m_statusMutex);
    return m_status;
}

void CaptureSession::setState(State s, const QString &message)
{
    std::lock_guard<std::mutex> l(m_statusMutex);
    m_status.state = s;
    m_status.message = message;
}

void CaptureSession::runCommands()
{
    std::vector<Command> cmds;
    {
        std::lock_guard<std::mutex> l(m_cmdMutex);
        cmds.swap(m_commands);
    }
    for (const Command &c : cmds) {
        QString error;
        bool ok = m_source->isOpen();
        if (!ok) {
            error = QStringLiteral("the console is disconnected");
        }
        if (ok && c.brk) {
            ok = m_source->sendBreak(250, &error);
        }
        if (ok && !c.bytes.isEmpty()) {
            ok = m_source->write(c.bytes.constData(), std::size_t(c.bytes.size()), &error);
        }
        const std::string what = (c.brk ? QByteArray("<BREAK>") + c.bytes : c.bytes).toStdString();
        if (ok) {
            emitRecord('S', wallNowNs(), monoNowNs(), what);
        } else {
            emitRecord('W', wallNowNs(), monoNowNs(),
                       QStringLiteral("not sent (%1): %2")
                           .arg(QString::fromStdString(what), error)
                           .toStdString());
            setState(m_source->isOpen() ? State::Open : State::Disconnected, error);
        }
    }
}

void CaptureSession::readerLoop()
{
    std::vector<char> buf(m_options.readBufferBytes);
    const std::int64_t retryNs = std::int64_t(m_options.reconnectIntervalMs) * 1000000;
    std::int64_t nextRetry = 0;
    bool trickling = false; // the last read was small: poll without waiting next time
    while (!m_stopReader) {
        if (!m_source->isOpen()) {
            runCommands(); // fail them now rather than late
            const std::int64_t now = monoNowNs();
            if (now >= nextRetry) {
                nextRetry = now + retryNs;
                QString error;
                if (m_source->open(&error)) {
                    // A tty node can outlive its other side: only a source that does not
                    // hang up at once counts as back.
                    const ByteSource::ReadResult r = m_source->read(buf.data(), buf.size(), 0);
                    if (r.status == ByteSource::ReadStatus::HangUp ||
                        r.status == ByteSource::ReadStatus::Error) {
                        m_source->close();
                        continue;
                    }
                    const QString back =
                        QStringLiteral("%1 (%2)").arg(m_source->name(), m_source->kind());
                    emitRecord('R', wallNowNs(), monoNowNs(), back.toStdString());
                    setState(State::Open, QStringLiteral("resumed: %1").arg(back));
                    if (r.status == ByteSource::ReadStatus::Data) {
                        emitRecord('D', wallNowNs(), monoNowNs(), std::string(buf.data(), r.n));
                        std::lock_guard<std::mutex> l(m_statusMutex);
                        m_status.bytesIn += std::int64_t(r.n);
                        ++m_status.reads;
                    }
                    continue;
                }
                std::lock_guard<std::mutex> l(m_statusMutex);
                m_status.message = QStringLiteral("disconnected; retrying every %1 s: %2")
                                       .arg(m_options.reconnectIntervalMs / 1000.0)
                                       .arg(error);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(
                std::min<std::int64_t>(m_options.readTimeoutMs, (nextRetry - now) / 1000000 + 1)));
            continue;
        }
        runCommands();
        const ByteSource::ReadResult r =
            m_source->read(buf.data(), buf.size(), trickling ? 0 : m_options.readTimeoutMs);
        trickling = false;
        if (r.status == ByteSource::ReadStatus::Data) {
            const HostNs wall = wallNowNs();
            const std::int64_t mono = monoNowNs();
            emitRecord('D', wall, mono, std::string(buf.data(), r.n));
            {
                std::lock_guard<std::mutex> l(m_statusMutex);
                m_status.bytesIn += std::int64_t(r.n);
                ++m_status.reads;
            }
            if (m_options.coalesceUs > 0 && r.n < kTrickleBytes) {
                // A slow console arrives a few bytes at a time: let some gather instead of
                // waking for each (one timer wake-up instead of one wake-up per byte burst).
                std::this_thread::sleep_for(std::chrono::microseconds(m_options.coalesceUs));
                trickling = true;
            }
        } else if (r.status != ByteSource::ReadStatus::Timeout) {
            const QString reason = m_source->error();
            m_source->close();
            emitRecord('G', wallNowNs(), monoNowNs(), reason.toStdString());
            nextRetry = monoNowNs() + retryNs;
            std::lock_guard<std::mutex> l(m_statusMutex);
            ++m_status.gaps;
            m_status.state = State::Disconnected;
            m_status.message =
                QStringLiteral("disconnected (%1); retrying every %2 s")
                    .arg(reason, QString::number(m_options.reconnectIntervalMs / 1000.0));
        }
    }
    m_source->close();
}

void CaptureSession::writerLoop()
{
    for (;;) {
        std::deque<LiveRecord> batch;
        bool stopping = false;
        {
            std::unique_lock<std::mutex> l(m_writeMutex);
            m_writeCv.wait_for(l, std::chrono::milliseconds(100), [&] {
                return m_writeQueued >= kWakeWriterBytes || m_writeUrgent || m_stopWriter;
            });
            batch.swap(m_writeQueue);
            m_writeQueued = 0;
            m_writeUrgent = false;
            stopping = m_stopWriter;
        }
        m_spaceCv.notify_all();
        for (const LiveRecord &r : batch) {
            m_writer.append(r.type, r.wall, r.mono, r.data);
        }
        m_writer.tick(monoNowNs());
        {
            std::lock_guard<std::mutex> l(m_statusMutex);
            m_status.recording = m_writer.status();
        }
        if (stopping && batch.empty()) {
            break;
        }
    }
}

} // namespace tty
