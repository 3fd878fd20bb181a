// Decodes the record stream of a ttyscope recording (docs/format.md) incrementally:
// bytes go in as they are decompressed, records come out, payloads possibly in pieces.
#pragma once

#include "types.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace tty {

inline constexpr std::string_view kRecordingMagic = "TTYSCOPE-REC 1\n";

// Arrival times of records (docs/format.md, Time): the monotonic clock anchored at the
// first record's wall time, so a wall-clock step reorders nothing. Shared by the loader
// and live capture so that both give a line the same time.
class RecordingClock
{
public:
    HostNs arrival(HostNs wall, std::int64_t mono)
    {
        if (mono == 0) {
            return wall;
        }
        if (!m_anchored) {
            m_anchored = true;
            m_wall0 = wall;
            m_mono0 = mono;
        }
        // Clocks far apart (a corrupt record) would wrap: such a record keeps its wall time.
        std::int64_t t = 0;
        if (__builtin_sub_overflow(mono, m_mono0, &t) ||
            __builtin_add_overflow(m_wall0.count(), t, &t)) {
            return wall;
        }
        return HostNs(t);
    }

private:
    bool m_anchored = false;
    HostNs m_wall0;
    std::int64_t m_mono0 = 0;
};

class RecordingDecoder
{
public:
    struct Piece
    {
        char type;
        HostNs wall;
        std::int64_t mono;
        std::int64_t length;   // the whole payload's length
        std::string_view data; // this piece of it
        bool first;            // first piece of the record
        bool last;             // last piece (the payload is complete)
    };
    using Sink = std::function<void(const Piece &)>;

    explicit RecordingDecoder(Sink sink) : m_sink(std::move(sink)) {}

    // Returns false once the stream is broken; error() says where.
    bool feed(const char *p, std::size_t n);
    // At the end of input: a warning if the stream was cut inside a record.
    void finish();

    const QString &error() const { return m_error; }
    const QString &warning() const { return m_warning; }

private:
    enum class State { Magic, Header, Payload, Terminator, Broken };
    bool parseHeader();

    Sink m_sink;
    State m_state = State::Magic;
    std::string m_line;
    char m_type = 0;
    HostNs m_wall;
    std::int64_t m_mono = 0;
    std::int64_t m_length = 0;
    std::int64_t m_remaining = 0;
    std::int64_t m_streamPos = 0; // decompressed bytes consumed
    std::int64_t m_recordPos = 0; // where the current record header started
    QString m_error;
    QString m_warning;
};

} // namespace tty
