#include "formats.h"

#include "kmsgheader.h"

#include "digits.h"
#include "lineframer.h"
#include "recordingdecoder.h"
#include "runbuilder.h"

#include <QDate>
#include <QDateTime>
#include <QRegularExpression>
#include <QTime>

#include <cstring>

namespace tty {

namespace {

// ---- /dev/kmsg records: "<pri>,<seq>,<usec>,<flags>[,...];<text>"
class KmsgParser : public FormatParser
{
public:
    KmsgParser(Run &run, RunBuilder &b) : m_run(run), m_b(b) {}
    bool feed(const char *p, std::size_t n) override
    {
        m_framer.feed(p, n, std::nullopt, [this](const LineFramer::Line &l) { line(l); });
        return true;
    }
    void finish() override
    {
        m_framer.finish([this](const LineFramer::Line &l) { line(l); });
        if (m_dict > 0) {
            m_run.warnings << QStringLiteral("%1 dictionary line(s) (KEY=value after a record) "
                                             "were not counted as console lines")
                                  .arg(m_dict);
        }
        if (m_bad > 0) {
            m_run.warnings << QStringLiteral("%1 line(s) were not /dev/kmsg records; kept as "
                                             "console lines without kernel time")
                                  .arg(m_bad);
        }
    }

private:
    void line(const LineFramer::Line &l)
    {
        const std::string_view s = l.text;
        if (!s.empty() && s[0] == ' ') {
            ++m_dict;
            return;
        }
        const std::optional<KmsgHeader> h = parseKmsgHeader(s);
        m_b.addBytes(std::int64_t(s.size()) + 1);
        if (!h) {
            ++m_bad;
            m_b.addLine(s, std::nullopt, 0, std::nullopt, std::nullopt, false);
            return;
        }
        if (!m_sequence.last()) {
            // The release in front is netconsole's option: its extended form received as a
            // file (`nc -ul 6666 > file`), a console's records, not a /dev/kmsg reader's.
            m_console = h->release;
        }
        const std::optional<std::uint64_t> last = m_sequence.last();
        const std::uint64_t lost = m_sequence.lostBefore(h->sequence);
        if (m_console) {
            // A console skips records below its log level: a gap is no known drop
            // (Run::RecordNumbers).
            if (std::optional<Event> gap =
                    m_b.sequenceGap(h->sequence, m_run.lines.endIndex(), std::nullopt)) {
                m_run.events.push_back(*gap);
            }
        } else if (lost > 0) {
            m_b.addNoteEvent(EventKind::Drop,
                             QStringLiteral("%1 message(s) lost: /dev/kmsg sequence jumps from %2 "
                                            "to %3")
                                 .arg(lost)
                                 .arg(*last)
                                 .arg(h->sequence)
                                 .toStdString(),
                             std::nullopt,
                             lost < kCountOutOfRange ? std::uint32_t(lost) : kCountOutOfRange);
        }
        if (h->fragment) {
            m_b.addFragmentedRecords(1, m_run.lines.endIndex());
        }
        m_b.addLine(s.substr(h->message), std::nullopt, 0, h->time, h->level, false);
    }
    Run &m_run;
    RunBuilder &m_b;
    LineFramer m_framer;
    KmsgSequence m_sequence;
    bool m_console = false; // netconsole's records, not a /dev/kmsg reader's
    std::int64_t m_dict = 0;
    std::int64_t m_bad = 0;
};

} // namespace

bool looksRecording(std::string_view head)
{
    return head.substr(0, kRecordingMagic.size()) == kRecordingMagic ||
           (head.size() < kRecordingMagic.size() &&
            kRecordingMagic.substr(0, head.size()) == head && !head.empty());
}

namespace {
// "<unix seconds>" followed by `separator`.
bool unixSecondsThen(std::string_view l, char separator)
{
    std::int64_t ns = 0;
    const std::size_t q = parseSeconds(l, 0, &ns, 9);
    return q != std::string_view::npos && q < l.size() && l[q] == separator;
}
} // namespace

bool looksHostTs(std::string_view l)
{
    return unixSecondsThen(l, '\t');
}

bool looksTs(std::string_view l)
{
    return unixSecondsThen(l, ' ');
}

bool looksUnreadStamp(std::string_view l)
{
    // "Dec 06 09:10:00" (ts's default, syslog), "2026-12-06 09:10:00", "09:10:00.5" (ts -s),
    // ISO 8601 with its zone ("2026-12-06T09:10:00.123456+00:00"), Tera Term's "[Sun Dec 06
    // 09:10:00.123 2026]", each maybe in brackets and with a fraction.
    static const QRegularExpression re(QStringLiteral(
        R"(^\[?(\d{4}[-/]\d\d[-/]\d\d[ T]|([A-Z][a-z]{2} )?[A-Z][a-z]{2} [ 0-3]\d )?)"
        R"(\d\d:\d\d:\d\d([.,]\d+)?(Z|[+-]\d\d:?\d\d)?( \d{4})?\]?[ \t])"));
    return re.match(QString::fromLatin1(l.data(), qsizetype(std::min<std::size_t>(l.size(), 48))))
        .hasMatch();
}

bool looksGrabserial(std::string_view l)
{
    static const QRegularExpression re(
        QStringLiteral(R"(^\[(\d+\.\d+|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?) +\d+\.\d+\] ?)"));
    return re.match(QString::fromLatin1(l.data(), qsizetype(std::min<std::size_t>(l.size(), 64))))
        .hasMatch();
}

bool looksKmsg(std::string_view l)
{
    return parseKmsgHeader(l).has_value();
}

std::unique_ptr<FormatParser> makeKmsgParser(Run &run, RunBuilder &builder)
{
    return std::make_unique<KmsgParser>(run, builder);
}

} // namespace tty
