#include "formats.h"

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
        std::int64_t f[3] = {0, 0, 0};
        std::size_t p = 0;
        bool ok = true;
        for (int i = 0; i < 3 && ok; ++i) {
            const std::size_t start = p;
            std::int64_t v = 0;
            while (p < s.size() && isDigit(s[p])) {
                if (p - start == 18) {
                    p = start; // more digits than int64 holds: not a kmsg record (fuzz_load)
                    break;
                }
                v = v * 10 + (s[p++] - '0');
            }
            ok = p > start && p < s.size() && s[p] == ',';
            f[i] = v;
            ++p;
        }
        const std::size_t semi = ok ? s.find(';', p) : std::string_view::npos;
        m_b.addBytes(std::int64_t(s.size()) + 1);
        if (semi == std::string_view::npos) {
            ++m_bad;
            m_b.addLine(s, std::nullopt, 0, std::nullopt, std::nullopt, false);
            return;
        }
        const std::int64_t seq = f[1];
        if (m_lastSeq >= 0 && seq > m_lastSeq + 1) {
            const std::int64_t lost = seq - m_lastSeq - 1;
            m_b.addNoteEvent(EventKind::Drop,
                             QStringLiteral("%1 message(s) lost: /dev/kmsg sequence jumps from %2 "
                                            "to %3")
                                 .arg(lost)
                                 .arg(m_lastSeq)
                                 .arg(seq)
                                 .toStdString(),
                             std::nullopt,
                             lost < std::int64_t(kCountOutOfRange) ? std::uint32_t(lost)
                                                                   : kCountOutOfRange);
        }
        m_lastSeq = seq;
        m_b.addLine(s.substr(semi + 1), std::nullopt, 0, KernelUs(f[2]), int(f[0] & 7), false);
    }
    Run &m_run;
    RunBuilder &m_b;
    LineFramer m_framer;
    std::int64_t m_lastSeq = -1;
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
    static const QRegularExpression re(QStringLiteral(R"(^\d+,\d+,\d+,[-c+][^;]*;)"));
    return re.match(QString::fromLatin1(l.data(), qsizetype(std::min<std::size_t>(l.size(), 64))))
        .hasMatch();
}

std::unique_ptr<FormatParser> makeKmsgParser(Run &run, RunBuilder &builder)
{
    return std::make_unique<KmsgParser>(run, builder);
}

} // namespace tty
