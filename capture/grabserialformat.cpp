// grabserial's log (grabserial -t, -T): "[elapsed delta] line" or
// "[YYYY-MM-DDTHH:MM:SS.ffffff delta] line".
#include "digits.h"
#include "lineframer.h"
#include "run.h"
#include "stampedblocks.h"
#include "untimedlines.h"

#include <QDateTime>

#include <optional>
#include <string>
#include <utility>

namespace tty {

namespace {

// Its stamps are independent of each other, but untimed lines take the stamp before them:
// the reader thread takes the stamps in file order (stampedblocks.h), the block parsers
// analyse the lines on every core.
class GrabserialBlockMaker : public StampedBlockMaker
{
public:
    GrabserialBlockMaker(std::size_t blockBytes, Deliver deliver, Spare spare)
        : m_out(blockBytes, std::move(deliver), std::move(spare))
    {
    }
    bool feed(const char *p, std::size_t n) override
    {
        m_framer.feed(p, n, std::nullopt, [this](const LineFramer::Line &l) { line(l); });
        return true;
    }
    void finish() override
    {
        m_framer.finish([this](const LineFramer::Line &l) { line(l); });
        m_out.finish();
    }
    void report(Run &run) const override
    {
        if (m_wallClock) {
            run.arrivalIsWallClock = true; // -T
        }
        run.warnings << m_untimed.warnings(QStringLiteral("line(s)"), QStringLiteral("grabserial"));
    }

private:
    // Parses the "[... delta] " stamp; returns the text start or npos.
    std::size_t stamp(std::string_view s, HostNs *t)
    {
        if (s.empty() || s[0] != '[') {
            return std::string_view::npos;
        }
        std::size_t p = 1;
        std::int64_t ns = 0;
        if (s.size() > 20 && s[5] == '-' && s[11] == 'T') {
            const std::size_t sp = s.find(' ', 1);
            if (sp == std::string_view::npos) {
                return std::string_view::npos;
            }
            const std::string_view iso = s.substr(1, sp - 1);
            // Cache the date-to-minute part: parsing a QDateTime per line would be slow.
            const std::string_view minute = iso.substr(0, 16);
            if (minute != m_minuteKey) {
                const QDateTime dt = QDateTime::fromString(
                    QString::fromLatin1(minute.data(), 16) + QStringLiteral(":00"), Qt::ISODate);
                if (!dt.isValid()) {
                    return std::string_view::npos;
                }
                // A date outside 1678-2262 has no time in int64 nanoseconds: the line is
                // untimed rather than given a wrapped time.
                std::int64_t minuteNs = 0;
                if (__builtin_mul_overflow(dt.toMSecsSinceEpoch(), std::int64_t(1000000),
                                           &minuteNs)) {
                    return std::string_view::npos;
                }
                m_minuteKey = std::string(minute);
                m_minuteNs = minuteNs;
            }
            std::int64_t secNs = 0;
            if (iso.size() < 19 || parseSeconds(iso, 17, &secNs, 2) != iso.size() ||
                __builtin_add_overflow(m_minuteNs, secNs, &ns)) {
                return std::string_view::npos;
            }
            m_wallClock = true;
            p = sp;
        } else {
            p = parseSeconds(s, 1, &ns, 1);
            if (p == std::string_view::npos) {
                return std::string_view::npos;
            }
        }
        if (p >= s.size() || s[p] != ' ') {
            return std::string_view::npos;
        }
        std::int64_t delta = 0;
        p = parseSeconds(s, p + 1, &delta, 1);
        if (p == std::string_view::npos || p >= s.size() || s[p] != ']') {
            return std::string_view::npos;
        }
        *t = HostNs(ns);
        ++p;
        if (p < s.size() && s[p] == ' ') {
            ++p;
        }
        return p;
    }
    void line(const LineFramer::Line &l)
    {
        HostNs t;
        const std::size_t q = stamp(l.text, &t);
        std::string_view text = l.text;
        if (q != std::string_view::npos) {
            text = l.text.substr(q);
            m_last = t;
        } else {
            m_untimed.count(m_last.has_value());
        }
        const std::uint16_t flags = l.newline ? 0 : (l.split ? Split : NoNewline);
        // As sent: with its CR LF.
        m_out.line(text, m_last, flags, std::int64_t(text.size()) + 2);
    }
    StampedBlockWriter m_out;
    bool m_wallClock = false;
    LineFramer m_framer;
    std::optional<HostNs> m_last;
    UntimedLines m_untimed;
    std::string m_minuteKey;
    std::int64_t m_minuteNs = 0;
};

} // namespace

std::unique_ptr<StampedBlockMaker> makeGrabserialBlockMaker(std::size_t blockBytes,
                                                            StampedBlockMaker::Deliver deliver,
                                                            StampedBlockMaker::Spare spare)
{
    return std::make_unique<GrabserialBlockMaker>(blockBytes, std::move(deliver), std::move(spare));
}

} // namespace tty
