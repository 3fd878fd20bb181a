#include "recordingdecoder.h"

#include <cstring>

namespace tty {

namespace {
constexpr std::size_t kMaxHeader = 128;

// A decimal int64; false for anything else, including a number out of its range (a
// corrupt header must be reported, not read as a wrapped time or length).
bool parseInt(std::string_view s, std::int64_t *out)
{
    const bool neg = !s.empty() && s[0] == '-';
    const std::size_t first = neg ? 1 : 0;
    if (s.size() <= first || s.size() - first > 19) {
        return false;
    }
    std::int64_t v = 0;
    for (std::size_t i = first; i < s.size(); ++i) {
        if (s[i] < '0' || s[i] > '9') {
            return false;
        }
        // Accumulated negatively, so that INT64_MIN is representable too.
        if (__builtin_mul_overflow(v, std::int64_t(10), &v) ||
            __builtin_sub_overflow(v, std::int64_t(s[i] - '0'), &v)) {
            return false;
        }
    }
    if (!neg && v == INT64_MIN) {
        return false;
    }
    *out = neg ? v : -v;
    return true;
}

bool parseWall(std::string_view s, HostNs *out)
{
    std::int64_t ns = 0;
    if (!parseInt(s, &ns)) {
        return false;
    }
    *out = HostNs(ns);
    return true;
}
} // namespace

bool RecordingDecoder::parseHeader()
{
    // "<type> <wall_ns> <mono_ns> <length>"
    const std::string_view h(m_line);
    std::string_view f[4];
    std::size_t start = 0;
    for (int i = 0; i < 4; ++i) {
        const std::size_t sp = i < 3 ? h.find(' ', start) : h.size();
        if (sp == std::string_view::npos) {
            return false;
        }
        f[i] = h.substr(start, sp - start);
        start = sp + 1;
    }
    if (f[0].size() != 1 || !(f[0][0] >= 'A' && f[0][0] <= 'Z')) {
        return false;
    }
    m_type = f[0][0];
    return parseWall(f[1], &m_wall) && parseInt(f[2], &m_mono) && parseInt(f[3], &m_length) &&
           m_length >= 0;
}

bool RecordingDecoder::feed(const char *p, std::size_t n)
{
    const char *end = p + n;
    while (p < end) {
        switch (m_state) {
        case State::Broken:
            return false;
        case State::Magic:
        case State::Header: {
            const char *nl = static_cast<const char *>(std::memchr(p, '\n', std::size_t(end - p)));
            const std::size_t take = std::size_t((nl ? nl : end) - p);
            m_line.append(p, take);
            m_streamPos += std::int64_t(take + (nl ? 1 : 0));
            p += take + (nl ? 1 : 0);
            if (m_line.size() > kMaxHeader) {
                nl = nullptr;
            } else if (!nl) {
                break;
            }
            if (m_state == State::Magic) {
                if (!nl || m_line + '\n' != kRecordingMagic) {
                    m_error = QStringLiteral("not a ttyscope recording of a known version "
                                             "(first line: '%1')")
                                  .arg(QString::fromUtf8(m_line.substr(0, 40).c_str()));
                    m_state = State::Broken;
                    return false;
                }
                m_line.clear();
                m_recordPos = m_streamPos;
                m_state = State::Header;
                break;
            }
            if (!nl || !parseHeader()) {
                m_error = QStringLiteral("unreadable record header at byte %1 of the decompressed "
                                         "recording; everything before it was kept")
                              .arg(m_recordPos);
                m_state = State::Broken;
                return false;
            }
            m_line.clear();
            m_remaining = m_length;
            m_state = State::Payload;
            if (m_length == 0) {
                m_sink(Piece{m_type, m_wall, m_mono, 0, {}, true, true});
                m_state = State::Terminator;
            }
            break;
        }
        case State::Payload: {
            const std::size_t take = std::size_t(std::min<std::int64_t>(m_remaining, end - p));
            const bool first = m_remaining == m_length;
            m_remaining -= std::int64_t(take);
            m_streamPos += std::int64_t(take);
            m_sink(Piece{m_type, m_wall, m_mono, m_length, std::string_view(p, take), first,
                         m_remaining == 0});
            p += take;
            if (m_remaining == 0) {
                m_state = State::Terminator;
            }
            break;
        }
        case State::Terminator:
            if (*p != '\n') {
                m_error = QStringLiteral("record at byte %1 of the decompressed recording is not "
                                         "terminated; everything before it was kept")
                              .arg(m_recordPos);
                m_state = State::Broken;
                return false;
            }
            ++p;
            ++m_streamPos;
            m_recordPos = m_streamPos;
            m_state = State::Header;
            break;
        }
    }
    return m_state != State::Broken;
}

void RecordingDecoder::finish()
{
    if (m_state == State::Payload) {
        m_warning = QStringLiteral("the recording ends inside a '%1' record: %2 of its %3 bytes "
                                   "were there and were kept")
                        .arg(QChar::fromLatin1(m_type))
                        .arg(m_length - m_remaining)
                        .arg(m_length);
    } else if (m_state == State::Header && !m_line.empty()) {
        m_warning = QStringLiteral("the recording ends inside a record header (%1 bytes ignored)")
                        .arg(m_line.size());
    } else if (m_state == State::Magic) {
        m_error = QStringLiteral("empty or cut before its first line: not a complete ttyscope "
                                 "recording");
    }
}

} // namespace tty
