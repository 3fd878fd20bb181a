// LAVA job logs (log.yaml): a YAML list with one flow mapping per line,
//   - {"dt": "2024-05-04T10:25:38.367185", "lvl": "target", "msg": "[    1.234] ..."}
// `dt` is when LAVA received the message (UTC): the arrival time. `target` and `feedback`
// entries are console lines; `input` is what LAVA typed, `results` a test result, the
// other levels LAVA's own words: those become markers, never console lines.
#include "formats.h"

#include "lineframer.h"
#include "runbuilder.h"

#include <QDate>
#include <QDateTime>
#include <QString>

#include <cstring>
#include <string>
#include <vector>

namespace tty {

namespace {

// A value of the flow mapping: a scalar's text, or for a mapping or sequence its items
// (mapping items as "key: value").
struct FlowValue
{
    std::string text;
    std::vector<std::string> items;
    bool isCollection = false;
};

// A tiny reader of the YAML flow subset LAVA writes: double- and single-quoted scalars
// (with YAML's escapes: \e, \x.., \u...., \N ...), plain scalars, nested mappings and
// sequences. Anything else fails the line, which is then kept as text.
class FlowReader
{
public:
    explicit FlowReader(std::string_view s) : m_s(s) {}

    bool mapping(std::vector<std::pair<std::string, FlowValue>> *out)
    {
        skipSpace();
        if (!eat('{')) {
            return false;
        }
        skipSpace();
        if (eat('}')) {
            return true;
        }
        for (int guard = 0; guard < 64; ++guard) {
            std::string key;
            FlowValue v;
            skipSpace();
            if (!scalar(&key, ":")) {
                return false;
            }
            skipSpace();
            if (!eat(':')) {
                return false;
            }
            if (!value(&v, 0)) {
                return false;
            }
            out->emplace_back(std::move(key), std::move(v));
            skipSpace();
            if (eat('}')) {
                return true;
            }
            if (!eat(',')) {
                return false;
            }
        }
        return false;
    }
    bool atEnd()
    {
        skipSpace();
        return m_p >= m_s.size();
    }

private:
    bool value(FlowValue *v, int depth)
    {
        skipSpace();
        if (depth > 8) {
            return false; // LAVA nests one level (results); deeper is not its log
        }
        if (peek('{') || peek('[')) {
            const char close = m_s[m_p] == '{' ? '}' : ']';
            ++m_p;
            v->isCollection = true;
            skipSpace();
            if (eat(close)) {
                return true;
            }
            for (int guard = 0; guard < 4096; ++guard) {
                FlowValue item;
                std::string key;
                if (close == '}') {
                    skipSpace();
                    if (!scalar(&key, ":") || (skipSpace(), !eat(':'))) {
                        return false;
                    }
                }
                if (!value(&item, depth + 1)) {
                    return false;
                }
                std::string text = item.isCollection ? join(item.items) : item.text;
                v->items.push_back(key.empty() ? text : key + ": " + text);
                skipSpace();
                if (eat(close)) {
                    return true;
                }
                if (!eat(',')) {
                    return false;
                }
            }
            return false;
        }
        return scalar(&v->text, ",}]");
    }
    static std::string join(const std::vector<std::string> &items)
    {
        std::string s;
        for (const std::string &i : items) {
            s += s.empty() ? i : ", " + i;
        }
        return s;
    }
    bool scalar(std::string *out, const char *stops)
    {
        if (eat('"')) {
            return doubleQuoted(out);
        }
        if (eat('\'')) {
            while (m_p < m_s.size()) {
                const char c = m_s[m_p++];
                if (c == '\'') {
                    if (!eat('\'')) {
                        return true;
                    }
                    out->push_back('\'');
                } else {
                    out->push_back(c);
                }
            }
            return false;
        }
        const std::size_t start = m_p;
        while (m_p < m_s.size() && !std::strchr(stops, m_s[m_p])) {
            ++m_p;
        }
        std::string_view t = m_s.substr(start, m_p - start);
        while (!t.empty() && t.back() == ' ') {
            t.remove_suffix(1);
        }
        *out = std::string(t);
        return !t.empty();
    }
    static void utf8(std::string *out, char32_t c)
    {
        const QString s = QString::fromUcs4(&c, 1);
        out->append(s.toStdString());
    }
    bool hex(int digits, char32_t *v)
    {
        *v = 0;
        for (int i = 0; i < digits; ++i, ++m_p) {
            if (m_p >= m_s.size()) {
                return false;
            }
            const char c = m_s[m_p];
            const int d = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
            if (d < 0) {
                return false;
            }
            *v = *v * 16 + char32_t(d);
        }
        return true;
    }
    bool doubleQuoted(std::string *out)
    {
        while (m_p < m_s.size()) {
            const char c = m_s[m_p++];
            if (c == '"') {
                return true;
            }
            if (c != '\\') {
                out->push_back(c);
                continue;
            }
            if (m_p >= m_s.size()) {
                return false;
            }
            const char e = m_s[m_p++];
            char32_t v = 0;
            switch (e) {
            case '0':
                out->push_back('\0');
                break;
            case 'a':
                out->push_back('\a');
                break;
            case 'b':
                out->push_back('\b');
                break;
            case 't':
            case '\t':
                out->push_back('\t');
                break;
            case 'n':
                out->push_back('\n');
                break;
            case 'v':
                out->push_back('\v');
                break;
            case 'f':
                out->push_back('\f');
                break;
            case 'r':
                out->push_back('\r');
                break;
            case 'e':
                out->push_back('\x1b');
                break;
            case ' ':
            case '"':
            case '/':
            case '\\':
                out->push_back(e);
                break;
            case 'N':
                utf8(out, 0x85);
                break;
            case '_':
                utf8(out, 0xa0);
                break;
            case 'L':
                utf8(out, 0x2028);
                break;
            case 'P':
                utf8(out, 0x2029);
                break;
            case 'x':
                if (!hex(2, &v)) {
                    return false;
                }
                // \xNN in a YAML dump is a code point; below 0x80 it is the byte itself.
                if (v < 0x80) {
                    out->push_back(char(v));
                } else {
                    utf8(out, v);
                }
                break;
            case 'u':
            case 'U':
                if (!hex(e == 'u' ? 4 : 8, &v) || v > 0x10ffff) {
                    return false;
                }
                utf8(out, v);
                break;
            default:
                return false;
            }
        }
        return false;
    }
    void skipSpace()
    {
        while (m_p < m_s.size() && (m_s[m_p] == ' ' || m_s[m_p] == '\t')) {
            ++m_p;
        }
    }
    bool peek(char c) const { return m_p < m_s.size() && m_s[m_p] == c; }
    bool eat(char c)
    {
        if (peek(c)) {
            ++m_p;
            return true;
        }
        return false;
    }
    std::string_view m_s;
    std::size_t m_p = 0;
};

// "2024-05-04T10:25:38.367185" (UTC, fraction optional) as ns since the epoch.
std::optional<HostNs> lavaTime(const std::string &dt)
{
    if (dt.size() < 19 || dt[4] != '-' || dt[10] != 'T') {
        return std::nullopt;
    }
    const QDateTime t = QDateTime::fromString(QString::fromLatin1(dt.data(), 19), Qt::ISODate);
    if (!t.isValid()) {
        return std::nullopt;
    }
    std::int64_t ns = 0;
    if (__builtin_mul_overflow(t.toMSecsSinceEpoch(), std::int64_t(1000000), &ns)) {
        return std::nullopt;
    }
    if (dt.size() > 20 && dt[19] == '.') {
        std::int64_t frac = 0, scale = 100000000;
        for (std::size_t i = 20; i < dt.size() && i < 29; ++i) {
            if (dt[i] < '0' || dt[i] > '9') {
                return std::nullopt;
            }
            frac += (dt[i] - '0') * scale;
            scale /= 10;
        }
        ns += frac;
    }
    return HostNs(ns);
}

class LavaParser : public FormatParser
{
public:
    LavaParser(Run &run, RunBuilder &b) : m_run(run), m_b(b) { m_run.arrivalIsWallClock = true; }
    bool feed(const char *p, std::size_t n) override
    {
        m_framer.feed(p, n, std::nullopt, [this](const LineFramer::Line &l) { line(l); });
        return true;
    }
    void finish() override
    {
        m_framer.finish([this](const LineFramer::Line &l) { line(l); });
        if (m_bad > 0) {
            m_run.warnings << QStringLiteral("%1 line(s) were not LAVA log entries; kept as "
                                             "console lines with the time of the entry before")
                                  .arg(m_bad);
        }
    }

private:
    void console(std::string_view text, std::optional<HostNs> t)
    {
        m_b.addBytes(std::int64_t(text.size()) + 2);
        m_b.addLine(text, t ? t : m_last);
    }
    void line(const LineFramer::Line &l)
    {
        std::string_view s = l.text;
        if (s.empty() || s == "---" || s == "...") {
            return; // document markers and blank lines are the file's, not the console's
        }
        std::vector<std::pair<std::string, FlowValue>> fields;
        FlowReader r(s.substr(0, 2) == "- " ? s.substr(2) : std::string_view());
        if (s.substr(0, 2) != "- " || !r.mapping(&fields) || !r.atEnd()) {
            ++m_bad;
            console(s, std::nullopt);
            return;
        }
        const FlowValue *dt = nullptr, *lvl = nullptr, *msg = nullptr;
        for (const auto &[k, v] : fields) {
            if (k == "dt") {
                dt = &v;
            } else if (k == "lvl") {
                lvl = &v;
            } else if (k == "msg") {
                msg = &v;
            }
        }
        const std::optional<HostNs> t = dt ? lavaTime(dt->text) : std::nullopt;
        if (t) {
            m_last = t;
        }
        const std::string level = lvl ? lvl->text : std::string();
        if (!msg) {
            ++m_bad;
            console(s, t);
            return;
        }
        if (level == "target" || level == "feedback") {
            if (msg->isCollection) {
                for (const std::string &item : msg->items) {
                    console(item, t);
                }
            } else {
                console(msg->text, t);
            }
            return;
        }
        std::string text = msg->isCollection ? joinItems(msg->items) : msg->text;
        if (level == "input") {
            m_b.addNoteEvent(EventKind::Marker, "LAVA sent: " + text, t);
            m_run.events.back().sentToConsole = true;
        } else if (level == "results") {
            m_b.addNoteEvent(EventKind::Marker, "LAVA result: " + text, t);
        } else {
            m_b.addNoteEvent(EventKind::Marker,
                             "LAVA " + (level.empty() ? "?" : level) + ": " + text, t);
        }
    }
    static std::string joinItems(const std::vector<std::string> &items)
    {
        std::string s;
        for (const std::string &i : items) {
            s += s.empty() ? i : ", " + i;
        }
        return s;
    }
    Run &m_run;
    RunBuilder &m_b;
    LineFramer m_framer;
    std::optional<HostNs> m_last;
    std::int64_t m_bad = 0;
};

} // namespace

bool looksLava(std::string_view l)
{
    // Every entry starts alike; the order of the keys is LAVA's (dt, lvl, msg).
    return l.substr(0, 9) == "- {\"dt\": " || l.substr(0, 8) == "- {dt: '";
}

std::unique_ptr<FormatParser> makeLavaParser(Run &run, RunBuilder &builder)
{
    return std::make_unique<LavaParser>(run, builder);
}

} // namespace tty
