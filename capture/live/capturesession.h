// A live capture: a reader thread reads a ByteSource with a short timeout and stamps every
// chunk with the wall and monotonic clocks; a writer thread records it (RecordingWriter);
// consumers (the headless command, the GUI's live view) take the same records from a
// thread-safe hand-off. A source that hangs up is retried every second: the recording
// stays open and gets a `G` record at the disconnect and an `R` record at the reconnect.
#pragma once

#include "bytesource.h"
#include "recordingwriter.h"

#include <QString>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tty {

// One record as in docs/format.md (H D M S G R W), for consumers of the hand-off.
struct LiveRecord
{
    char type;
    HostNs wall;
    std::int64_t mono;
    std::string data;
};

struct CaptureOptions
{
    QString port; // /dev/ttyUSB0, /dev/pts/3, tcp://host:port
    SerialSettings settings;
    // Whether the user gave settings.baud (not ttyscope's default). A source that does not
    // set the line's rate (setsLineRate) records one only when it was given: else the
    // recording says 0, and a report takes the default and checks it against the bytes.
    bool baudGiven = true;
    QString label;
    QString output; // the recording's path; empty: no recording
    RecordingLimits limits;
    int readTimeoutMs = 50;
    // After a small read, wait this long before reading again so that a trickling console
    // costs one wake-up per interval rather than one per FIFO load; it bounds how late a
    // chunk can be stamped. 0: read as soon as anything is there.
    int coalesceUs = 2000;
    int reconnectIntervalMs = 1000;
    std::size_t readBufferBytes = 64u << 10;
    // Bytes queued for the writer before the reader waits (no data is dropped: a pty's
    // writer is then held back by the kernel; a real UART at its rate never gets here).
    std::size_t writerQueueLimit = 32u << 20;
    // Bytes held for consumers of takeLive(); beyond it data is left out of the live view
    // (never out of the recording) and a `W` record says how much.
    std::size_t liveQueueLimit = 64u << 20;
    bool liveQueue = true;
};

class CaptureSession
{
public:
    enum class State { Idle, Open, Disconnected, Stopped };
    struct Status
    {
        State state = State::Idle;
        QString message;          // the last connect/disconnect news or source error
        QString sourceKind;       // "serial (libserialport)", "tty (termios)", "tcp"
        int recordedBaud = 0;     // the rate the recording states; 0: none (setsLineRate)
        std::int64_t bytesIn = 0; // console bytes received
        std::int64_t reads = 0;
        int gaps = 0;
        std::int64_t liveDropped = 0; // bytes left out of the live view
        RecordingWriter::Status recording;
        QString path; // the recording
    };

    explicit CaptureSession(const CaptureOptions &options);
    ~CaptureSession();
    CaptureSession(const CaptureSession &) = delete;
    CaptureSession &operator=(const CaptureSession &) = delete;

    // Opens the source (a clear message in *error if it cannot be) and the recording, writes
    // the header and starts the threads.
    bool start(QString *error);
    // Stops reading, ends the zstd frame and closes the file; false with *error if the
    // recording could not be completed. Safe to call twice.
    bool stop(QString *error = nullptr);

    // A user marker (`M` record).
    void addMarker(const QString &text);
    // Sends bytes to the console (`S` record); done by the reader thread between reads.
    void send(const QByteArray &bytes);
    // BREAK then `key` (magic SysRq over serial); recorded as `<BREAK>key`.
    void sendBreak(char key);

    // Records since the last call, in order (the first one is the `H` header).
    std::vector<LiveRecord> takeLive();
    // Called from the reader thread when records are queued for takeLive() (e.g. to post a
    // queued call to the GUI thread). Set before start().
    void setNotify(std::function<void()> notify) { m_notify = std::move(notify); }

    Status status() const;
    const CaptureOptions &options() const { return m_options; }

private:
    struct Command
    {
        QByteArray bytes;
        bool brk = false;
    };
    void readerLoop();
    void writerLoop();
    void emitRecord(char type, HostNs wall, std::int64_t mono, std::string data);
    bool reopen();
    void runCommands();
    void setState(State s, const QString &message);

    CaptureOptions m_options;
    std::unique_ptr<ByteSource> m_source;
    RecordingWriter m_writer;
    std::function<void()> m_notify;

    std::thread m_reader;
    std::thread m_writerThread;
    std::atomic<bool> m_stopReader{false};
    bool m_stopWriter = false; // under m_writeMutex
    bool m_started = false;
    bool m_stopped = false;

    std::mutex m_writeMutex;
    std::condition_variable m_writeCv; // writer: records queued or stop
    std::condition_variable m_spaceCv; // reader: queue has room again
    std::deque<LiveRecord> m_writeQueue;
    std::size_t m_writeQueued = 0;
    bool m_writeUrgent = false; // a record other than data is queued: write it soon

    std::mutex m_liveMutex;
    std::vector<LiveRecord> m_live;
    std::size_t m_liveBytes = 0;
    std::int64_t m_liveDroppedPending = 0;

    std::mutex m_cmdMutex;
    std::vector<Command> m_commands;

    mutable std::mutex m_statusMutex;
    Status m_status;
};

} // namespace tty
