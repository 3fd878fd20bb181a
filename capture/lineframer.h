// Cuts a byte stream into console lines by the console's rules: a line ends at LF, the CRs
// right before the LF belong to the line ending (`\r\n`, and `\r\r\n` from a tty with
// ONLCR), a CR inside a line stays in the text, and a final fragment without LF is a line.
// Lines longer than maxLineBytes are delivered in pieces flagged `Split` so that an endless
// line can neither exhaust memory nor be lost.
#pragma once

#include "types.h"

#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace tty {

class LineFramer
{
public:
    struct Line
    {
        std::string_view text;           // without the line ending
        std::optional<HostNs> firstByte; // arrival of the chunk that held the first byte
        bool newline;                    // false: final fragment, or a Split piece
        bool split;                      // an over-long line cut here; the next line continues it
    };

    static constexpr std::size_t kDefaultMaxLine = 64u << 20;
    explicit LineFramer(std::size_t maxLineBytes = kDefaultMaxLine) : m_max(maxLineBytes) {}

    // Feeds one chunk; `sink(const Line&)` is called for every completed line.
    template <typename Sink>
    void feed(const char *p, std::size_t n, std::optional<HostNs> chunkTime, Sink &&sink)
    {
        const char *end = p + n;
        while (p < end) {
            if (m_partial.empty()) {
                m_partialTime = chunkTime;
            }
            const char *nl = static_cast<const char *>(std::memchr(p, '\n', std::size_t(end - p)));
            if (!nl) {
                appendPartial(p, std::size_t(end - p), sink);
                return;
            }
            if (m_partial.empty()) {
                sink(Line{trimCr(p, nl), chunkTime, true, false});
            } else {
                appendPartial(p, std::size_t(nl - p), sink);
                sink(Line{trimCr(m_partial.data(), m_partial.data() + m_partial.size()),
                          m_partialTime, true, false});
                m_partial.clear();
            }
            p = nl + 1;
        }
    }

    // Delivers the unterminated tail, if any, as a line without newline.
    template <typename Sink> void finish(Sink &&sink)
    {
        if (!m_partial.empty()) {
            sink(Line{std::string_view(m_partial), m_partialTime, false, false});
            m_partial.clear();
        }
    }

    // The unterminated tail seen so far (live capture shows an idle prompt from it).
    std::string_view pending() const { return m_partial; }
    std::optional<HostNs> pendingTime() const { return m_partialTime; }

private:
    static std::string_view trimCr(const char *b, const char *e)
    {
        while (e > b && e[-1] == '\r') {
            --e;
        }
        return std::string_view(b, std::size_t(e - b));
    }

    template <typename Sink> void appendPartial(const char *p, std::size_t n, Sink &sink)
    {
        while (m_partial.size() + n > m_max) {
            const std::size_t take = m_max - m_partial.size();
            m_partial.append(p, take);
            sink(Line{std::string_view(m_partial), m_partialTime, false, true});
            m_partial.clear();
            p += take;
            n -= take;
        }
        m_partial.append(p, n);
    }

    std::size_t m_max;
    std::string m_partial;
    std::optional<HostNs> m_partialTime;
};

} // namespace tty
