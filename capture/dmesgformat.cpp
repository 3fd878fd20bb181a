// util-linux dmesg's outputs (sys-utils/dmesg.c):
//  - `--json`: {"dmesg": [{"pri": 6, "time": 1.234567, "caller": "T1", "msg": "..."}, ...]}
//    pretty-printed over many lines; with -x "fac" and "pri" are names. "time" is the
//    kernel's printk timestamp: the line's kernel time.
//  - text with `-x` ("kern  :info  : " before the rest) or `-r` ("<6>": the syslog
//    priority, as a pstore dmesg-ramoops dump also prints it) and the time formats: the plain
//    "[    1.234567]" and "[    1.234567 <    0.000100>]" (-d) are the kernel's timestamp;
//    `-T`/ctime "[Tue Dec  1 20:10:49 2026]", `iso` "2026-12-01T20:10:49,123456+00:00" and
//    `reltime` "[Dec 1 20:10]" / "[  +0.000100]" are that timestamp moved to the wall clock
//    by dmesg's estimate of when the kernel booted (wrong after a suspend, whole seconds for
//    ctime): neither an arrival time nor a kernel time, so those lines have neither; and
//    `delta` "[<    0.000100>]" is only the time since the line before.
// dmesg prints no arrival times at all: that is when the line reached a serial port.
#include "formats.h"

#include "civiltime.h"
#include "jsonrecord.h"
#include "lineframer.h"
#include "run.h"
#include "runbuilder.h"

#include <algorithm>
#include <cstring>

namespace tty {

namespace {

// syslog(3) names as dmesg -x prints them.
std::optional<int> levelFromName(std::string_view n)
{
    static constexpr std::string_view kLevels[8] = {"emerg", "alert",  "crit", "err",
                                                    "warn",  "notice", "info", "debug"};
    for (int i = 0; i < 8; ++i) {
        if (n == kLevels[i]) {
            return i;
        }
    }
    return std::nullopt;
}

bool isFacilityName(std::string_view n)
{
    static constexpr std::string_view kFacilities[] = {
        "kern",   "user",   "mail",     "daemon", "auth",   "syslog", "lpr",    "news",
        "uucp",   "cron",   "authpriv", "ftp",    "res0",   "res1",   "res2",   "res3",
        "local0", "local1", "local2",   "local3", "local4", "local5", "local6", "local7"};
    for (std::string_view f : kFacilities) {
        if (n == f) {
            return true;
        }
    }
    return false;
}

// Where the message starts behind a caller id "[  T123] " or "[C1] " (kept in the text, as
// the console prints it with CONFIG_PRINTK_CALLER).
std::size_t afterCaller(std::string_view s)
{
    if (s.size() < 4 || s[0] != '[') {
        return 0;
    }
    std::size_t p = s.find_first_not_of(' ', 1);
    if (p == std::string_view::npos || (s[p] != 'T' && s[p] != 'C')) {
        return 0;
    }
    const std::size_t close = s.find(']', p);
    if (close == std::string_view::npos || close == p + 1 || close > 16) {
        return 0;
    }
    for (std::size_t i = p + 1; i < close; ++i) {
        if (!isDigit(s[i])) {
            return 0;
        }
    }
    return close + 1 < s.size() && s[close + 1] == ' ' ? close + 2 : close + 1;
}

// ---- --json
class DmesgJsonParser : public FormatParser
{
public:
    DmesgJsonParser(Run &run, RunBuilder &b) : m_run(run), m_b(b) {}
    bool feed(const char *p, std::size_t n) override
    {
        for (const char *e = p + n; p < e; ++p) {
            byte(*p);
        }
        return true;
    }
    void finish() override
    {
        if (m_inRecord) {
            m_run.load.truncate(QStringLiteral("the JSON ends inside a record (%1 bytes of it "
                                               "kept as text)")
                                    .arg(m_record.size()));
            keepAsText(m_record, "the JSON ends inside it");
        } else if (m_depth > 0 && m_records > 0) {
            m_run.load.truncate(
                QStringLiteral("the JSON ends before its closing brackets (cut short?)"));
        }
        if (m_bad > 0) {
            m_run.warnings << QStringLiteral("%1 record(s) were not dmesg JSON records (the "
                                             "first: %2); kept as console text")
                                  .arg(m_bad)
                                  .arg(QString::fromStdString(m_firstWhy));
        }
        if (m_stray > 0) {
            m_run.warnings << QStringLiteral("%1 byte(s) outside the records were not the JSON "
                                             "around them (\"dmesg\": [...]) and were skipped")
                                  .arg(m_stray);
        }
        if (m_badTime > 0) {
            m_run.warnings << QStringLiteral("%1 record(s) had a \"time\" that is not a kernel "
                                             "time (not seconds, or out of range); kept without "
                                             "kernel time")
                                  .arg(m_badTime);
        }
    }

private:
    // Records are the objects two levels down: {"dmesg": [ {record}, ... ]}.
    static constexpr int kRecordDepth = 2;
    static constexpr std::size_t kMaxRecord = 1 << 20; // a printk record is < 1 KiB

    void byte(char c)
    {
        if (m_inRecord) {
            m_record.push_back(c);
            if (m_inString) {
                if (m_escape) {
                    m_escape = false;
                } else if (c == '\\') {
                    m_escape = true;
                } else if (c == '"') {
                    m_inString = false;
                }
            } else if (c == '"') {
                m_inString = true;
            } else if (c == '{' || c == '[') {
                ++m_depth;
            } else if (c == '}' || c == ']') {
                if (--m_depth == kRecordDepth) {
                    m_inRecord = false;
                    record(m_record);
                    m_record.clear();
                }
            }
            if (m_record.size() > kMaxRecord) {
                // Not a record any more: keep the bytes, and look for the next one.
                keepAsText(m_record, "over 1 MiB long");
                m_record.clear();
                m_inRecord = m_inString = m_escape = false;
                m_depth = kRecordDepth;
            }
            return;
        }
        // Outside records only the brackets count (the wrapper's key is skipped).
        if (m_inString) {
            if (m_escape) {
                m_escape = false;
            } else if (c == '\\') {
                m_escape = true;
            } else if (c == '"') {
                m_inString = false;
            }
        } else if (c == '"') {
            m_inString = true;
        } else if (c == '{' && m_depth == kRecordDepth) {
            m_inRecord = true;
            m_record.assign(1, c);
            ++m_depth;
        } else if (c == '{' || c == '[') {
            ++m_depth;
        } else if ((c == '}' || c == ']') && m_depth > 0) {
            --m_depth;
        } else if (!std::strchr(" \t\r\n,:", c) || c == '\0') {
            ++m_stray; // not JSON around the records: counted, never silently dropped
        }
    }
    void keepAsText(const std::string &s, const char *why)
    {
        if (m_bad++ == 0) {
            m_firstWhy = why;
        }
        std::string_view rest = s;
        while (!rest.empty()) {
            const std::size_t nl = rest.find('\n');
            const std::string_view l = rest.substr(0, nl);
            m_b.addBytes(std::int64_t(l.size()) + 2);
            m_b.addLine(l, std::nullopt);
            rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
        }
    }
    void record(const std::string &text)
    {
        ++m_records;
        std::string error;
        if (!parseJsonObject(text, &m_fields, &error)) {
            keepAsText(text, ("not JSON: " + error).c_str());
            return;
        }
        const JsonValue *msg = jsonField(m_fields, "msg");
        const std::optional<std::string_view> m = jsonFirstText(msg);
        if (!m) {
            keepAsText(text, "no \"msg\"");
            return;
        }
        std::optional<KernelUs> kernel;
        if (const JsonValue *t = jsonField(m_fields, "time")) {
            kernel = t->type == JsonValue::Type::Number || t->type == JsonValue::Type::String
                         ? parseKernelSeconds(t->text)
                         : std::nullopt;
            m_badTime += kernel ? 0 : 1;
        }
        std::optional<int> level;
        if (const JsonValue *pri = jsonField(m_fields, "pri")) {
            if (pri->type == JsonValue::Type::Number) {
                const auto v = parseDecimal(pri->text, 1023);
                if (v) {
                    level = int(*v & 7); // facility << 3 | level
                }
            } else if (pri->type == JsonValue::Type::String) {
                level = levelFromName(pri->text);
            }
        }
        std::string prefix;
        if (const auto caller = jsonFirstText(jsonField(m_fields, "caller"))) {
            prefix = "[" + std::string(*caller) + "] ";
        }
        // A record of several lines (a message with "\n") is several console lines.
        std::string_view rest = *m;
        while (!rest.empty() && rest.back() == '\n') {
            rest.remove_suffix(1);
        }
        do {
            const std::size_t nl = rest.find('\n');
            const std::string line = prefix + std::string(rest.substr(0, nl));
            rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
            m_b.addBytes(std::int64_t(line.size()) + 2);
            m_b.addRecordLine(line, std::nullopt, 0, kernel, level, afterCaller(line));
        } while (!rest.empty());
    }

    Run &m_run;
    RunBuilder &m_b;
    std::string m_record;
    JsonFields m_fields;
    int m_depth = 0;
    bool m_inRecord = false, m_inString = false, m_escape = false;
    std::int64_t m_records = 0, m_bad = 0, m_badTime = 0, m_stray = 0;
    std::string m_firstWhy;
};

// ---- text with -x and the time formats
struct DmesgStamps
{
    std::size_t text = 0; // where the rest of the line starts
    std::optional<int> level;
    std::optional<KernelUs> kernel;
    bool decoded = false;   // a -x prefix
    bool otherTime = false; // a stamp that is not the kernel's (ctime, iso, reltime, delta)
    bool withDelta = false; // "[time <delta>]": dmesg's, not the console's
    bool priority = false;  // "<6>": dmesg -r's syslog priority (a pstore dump's too)
};

// "<6>", "<30>": the priority (facility × 8 + level) `dmesg -r` prints in front of the
// time; the length, 0 if none.
std::size_t priorityPrefix(std::string_view s, std::optional<int> *level)
{
    if (s.size() < 3 || s[0] != '<') {
        return 0;
    }
    const std::size_t close = s.find('>');
    if (close == std::string_view::npos || close < 2 || close > 4) {
        return 0;
    }
    int v = 0;
    for (std::size_t i = 1; i < close; ++i) {
        if (!isDigit(s[i])) {
            return 0;
        }
        v = v * 10 + (s[i] - '0');
    }
    if (v > 191) { // facility 23 (local7), level 7
        return 0;
    }
    *level = v & 7;
    return close + 1;
}

// "kern  :info  : ".
std::size_t decodePrefix(std::string_view s, std::optional<int> *level)
{
    const std::size_t c1 = s.find(':');
    if (c1 == std::string_view::npos || c1 > 10) {
        return 0;
    }
    const std::string_view fac = s.substr(0, s.find(' ') < c1 ? s.find(' ') : c1);
    const std::size_t c2 = s.find(':', c1 + 1);
    if (!isFacilityName(fac) || c2 == std::string_view::npos || c2 > c1 + 8 || c2 + 1 >= s.size() ||
        s[c2 + 1] != ' ') {
        return 0;
    }
    std::string_view lvl = s.substr(c1 + 1, c2 - c1 - 1);
    lvl = lvl.substr(0, lvl.find(' '));
    *level = levelFromName(lvl);
    return *level ? c2 + 2 : 0;
}

// "[ <delta>]"-style numbers: "<    0.000100>" / "+0.000100" / "  +12.5".
bool signedSeconds(std::string_view s)
{
    std::size_t p = s.find_first_not_of(' ');
    if (p != std::string_view::npos && (s[p] == '+' || s[p] == '-')) {
        ++p;
    }
    return p != std::string_view::npos && parseKernelSeconds(s.substr(p)).has_value();
}

// One time stamp at s[0]; the length with its trailing space, 0 if none.
std::size_t timeStamp(std::string_view s, DmesgStamps *out)
{
    if (s.size() >= 31 && s[4] == '-' && s[10] == 'T' && s[19] == ',') {
        // "2026-12-01T20:10:49,123456+00:00 " (the space is the line's end when empty).
        const std::size_t sp = std::min(s.find(' '), s.size());
        if (sp >= 31 && sp <= 32 && fixedDigits(s, 0, 4) && fixedDigits(s, 20, 6)) {
            out->otherTime = true; // iso
            return std::min(sp + 1, s.size());
        }
        return 0;
    }
    if (s.empty() || s[0] != '[') {
        return 0;
    }
    const std::size_t close = s.find(']');
    if (close == std::string_view::npos || close > 48) {
        return 0;
    }
    const std::size_t len = close + 1 < s.size() && s[close + 1] == ' ' ? close + 2 : close + 1;
    std::string_view in = s.substr(1, close - 1);
    std::string_view delta;
    const std::size_t lt = in.find('<');
    if (lt != std::string_view::npos) {
        if (in.back() != '>') {
            return 0;
        }
        delta = in.substr(lt + 1, in.size() - lt - 2);
        in = in.substr(0, lt);
        while (!in.empty() && in.back() == ' ') {
            in.remove_suffix(1);
        }
        if (!signedSeconds(delta)) {
            return 0;
        }
    }
    if (in.empty() && !delta.empty()) {
        out->otherTime = true; // [<delta>]
        return len;
    }
    if (const std::optional<KernelUs> k = parseKernelSeconds(in);
        k && in.size() >= 8 && in[in.size() - 7] == '.') {
        out->kernel = k; // [time] or [time <delta>]
        out->withDelta = !delta.empty();
        return len;
    }
    // ctime "Tue Dec  1 20:10:49 2026"; reltime "Dec 1 20:10" / "Dec10 20:10" or "+0.000100".
    if (in.size() == 24 && in[3] == ' ' && monthFromAbbrev(in.substr(4, 3)) && in[13] == ':' &&
        fixedDigits(in, 20, 4)) {
        out->otherTime = true;
        return len;
    }
    if (in.size() >= 11 && in.size() <= 12 && monthFromAbbrev(in.substr(0, 3)) &&
        in[in.size() - 3] == ':' && fixedDigits(in, in.size() - 5, 2)) {
        out->otherTime = true;
        return len;
    }
    if (delta.empty() && in.find_first_of("+-") != std::string_view::npos && signedSeconds(in)) {
        out->otherTime = true;
        return len;
    }
    return 0;
}

DmesgStamps parseDmesgLine(std::string_view s)
{
    DmesgStamps st;
    const std::size_t x = decodePrefix(s, &st.level);
    st.decoded = x > 0;
    std::size_t p = x;
    if (!st.decoded) {
        p = priorityPrefix(s, &st.level);
        st.priority = p > 0;
    }
    // dmesg 2.40 prints several --time-format stamps one after the other.
    for (int i = 0; i < 4 && p < s.size(); ++i) {
        const std::size_t n = timeStamp(s.substr(p), &st);
        if (n == 0) {
            break;
        }
        p += n;
    }
    st.text = p;
    return st;
}

class DmesgTextParser : public FormatParser
{
public:
    DmesgTextParser(Run &run, RunBuilder &b) : m_run(run), m_b(b) {}
    bool feed(const char *p, std::size_t n) override
    {
        m_framer.feed(p, n, std::nullopt, [this](const LineFramer::Line &l) { line(l); });
        return true;
    }
    void finish() override
    {
        m_framer.finish([this](const LineFramer::Line &l) { line(l); });
        if (m_otherTime > 0) {
            m_run.warnings << QStringLiteral(
                                  "%1 line(s) had dmesg's wall-clock or relative stamps (-T, "
                                  "--time-format ctime|iso|reltime|delta): dmesg made them from "
                                  "the kernel's timestamp and its estimate of the boot time, so "
                                  "they are neither arrival nor kernel times and were not used "
                                  "as either (plain dmesg or -x keeps the kernel's timestamp)")
                                  .arg(m_otherTime);
        }
    }

private:
    void line(const LineFramer::Line &l)
    {
        const std::uint16_t flags = l.newline ? 0 : (l.split ? Split : NoNewline);
        const DmesgStamps st = parseDmesgLine(l.text);
        m_otherTime += st.otherTime && !st.kernel ? 1 : 0;
        const std::string_view text = l.text.substr(st.text);
        m_b.addBytes(std::int64_t(text.size()) + 2);
        if (st.text == 0) {
            // Nothing of dmesg's: a line of the text as it is (its prefix parsed).
            m_b.addLine(text, std::nullopt, flags);
            return;
        }
        m_b.addRecordLine(text, std::nullopt, flags, st.kernel, st.level, afterCaller(text));
    }
    Run &m_run;
    RunBuilder &m_b;
    LineFramer m_framer;
    std::int64_t m_otherTime = 0;
};

} // namespace

bool looksDmesgJson(std::string_view head)
{
    std::size_t p = head.find_first_not_of(" \t\r\n");
    if (p == std::string_view::npos || head[p] != '{') {
        return false;
    }
    p = head.find_first_not_of(" \t\r\n", p + 1);
    return p != std::string_view::npos && head.substr(p, 7) == "\"dmesg\"";
}

bool looksDmesgText(std::string_view l)
{
    const DmesgStamps st = parseDmesgLine(l);
    // "<6>[    1.234567] " is dmesg -r's; a console prints it too with
    // console_msg_format=syslog, but its lines end in \r\n (the serial driver's).
    const bool rawDmesg = st.priority && st.kernel && (l.empty() || l.back() != '\r');
    return st.decoded || st.otherTime || st.withDelta || rawDmesg;
}

std::unique_ptr<FormatParser> makeDmesgJsonParser(Run &run, RunBuilder &builder)
{
    return std::make_unique<DmesgJsonParser>(run, builder);
}

std::unique_ptr<FormatParser> makeDmesgTextParser(Run &run, RunBuilder &builder)
{
    return std::make_unique<DmesgTextParser>(run, builder);
}

} // namespace tty
