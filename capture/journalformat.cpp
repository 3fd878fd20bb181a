// journalctl's machine-readable outputs (journalentry.h says which field is which clock):
//  - `-o json` (also json-seq, json-pretty): one JSON object per line (json-pretty: from a
//    line "{" to a line "}"), binary fields as arrays of bytes,
//    fields of 4096 bytes or more as null unless --all, repeated fields as arrays;
//  - `-o export`: entries of "FIELD=value\n" lines ended by an empty line; a field that is
//    not printable text is "FIELD\n", its size as 64-bit little endian, the bytes, "\n".
#include "formats.h"

#include "journalentry.h"
#include "jsonrecord.h"
#include "lineframer.h"
#include "run.h"
#include "runbuilder.h"

#include <algorithm>
#include <cstring>

namespace tty {

namespace {

// The fields a console line needs; everything else in an entry is skipped.
void takeField(JournalEntry *e, std::string_view name, std::string value)
{
    if (name == "MESSAGE") {
        e->message = std::move(value);
    } else if (name == "__REALTIME_TIMESTAMP") {
        e->realtime = std::move(value);
    } else if (name == "_SOURCE_MONOTONIC_TIMESTAMP") {
        e->sourceMonotonic = std::move(value);
    } else if (name == "_SOURCE_BOOTTIME_TIMESTAMP") {
        if (!e->sourceMonotonic) {
            e->sourceMonotonic = std::move(value); // the same kernel stamp, newer name
        }
    } else if (name == "PRIORITY") {
        e->priority = std::move(value);
    } else if (name == "SYSLOG_IDENTIFIER") {
        e->identifier = std::move(value);
    } else if (name == "SYSLOG_PID") {
        e->pid = std::move(value);
    } else if (name == "_TRANSPORT") {
        e->transport = std::move(value);
    }
}

// ---- -o json: one object per line
class JournalJsonParser : public FormatParser
{
public:
    JournalJsonParser(Run &run, RunBuilder &b) : m_lines(run, b) {}
    bool feed(const char *p, std::size_t n) override
    {
        m_framer.feed(p, n, std::nullopt, [this](const LineFramer::Line &l) { line(l); });
        return true;
    }
    void finish() override
    {
        m_framer.finish([this](const LineFramer::Line &l) { line(l); });
        if (m_pretty) {
            m_pretty = false;
            object(m_gathered, m_gathered, NoNewline); // cut inside an object
        }
        m_lines.finish();
    }

private:
    // -o json-pretty spreads an object over lines from "{" to "}": gathered, then parsed.
    static constexpr std::size_t kMaxPretty = 1 << 20;

    void line(const LineFramer::Line &l)
    {
        std::string_view s = l.text;
        while (!s.empty() && (s.front() == '\x1e' || s.front() == ' ')) {
            s.remove_prefix(1); // json-seq's record separator
        }
        const std::uint16_t flags = l.newline ? 0 : (l.split ? Split : NoNewline);
        if (m_pretty) {
            m_gathered.append(s).push_back('\n');
            if (s == "}" || m_gathered.size() > kMaxPretty || !l.newline) {
                m_pretty = false;
                object(m_gathered, m_gathered, flags);
            }
            return;
        }
        if (s == "{") {
            m_pretty = true;
            m_gathered.assign("{\n");
            return;
        }
        if (!s.empty()) {
            object(s, l.text, flags);
        }
    }
    void object(std::string_view s, std::string_view original, std::uint16_t flags)
    {
        std::string error;
        if (!parseJsonObject(s, &m_fields, &error)) {
            // Kept as the lines it was.
            std::size_t p = 0;
            while (p < original.size()) {
                const std::size_t nl = std::min(original.find('\n', p), original.size());
                m_lines.notAnEntry(original.substr(p, nl - p), flags, "not JSON: " + error);
                p = nl + 1;
            }
            return;
        }
        m_entry.clear();
        for (auto &[k, v] : m_fields) {
            if (k == "MESSAGE" && v.type == JsonValue::Type::Null) {
                m_entry.messageOmitted = true;
                continue;
            }
            if (const std::optional<std::string_view> t = jsonFirstText(&v)) {
                takeField(&m_entry, k, std::string(*t));
            } else if (v.type == JsonValue::Type::Number) {
                takeField(&m_entry, k, v.text);
            }
        }
        m_lines.entry(m_entry);
    }
    JournalLines m_lines;
    LineFramer m_framer;
    bool m_pretty = false;
    std::string m_gathered;
    JsonFields m_fields;
    JournalEntry m_entry;
};

// ---- -o export
class JournalExportParser : public FormatParser
{
public:
    JournalExportParser(Run &run, RunBuilder &b) : m_run(run), m_lines(run, b) {}
    bool feed(const char *p, std::size_t n) override
    {
        m_buf.append(p, n);
        const bool ok = process();
        m_buf.erase(0, m_pos);
        m_consumed += m_pos;
        m_pos = 0;
        return ok;
    }
    void finish() override
    {
        if (!m_stopped) {
            if (m_binaryLeft) {
                const std::string part = m_buf.substr(m_pos);
                m_run.load.truncate(
                    QStringLiteral("the export stream ends inside its binary field %1 (%2 of "
                                   "%3 bytes); the entry was kept with what was there")
                        .arg(QString::fromStdString(m_name), QString::number(part.size()),
                             QString::number(*m_binaryLeft)));
                takeField(&m_entry, m_name, part);
            } else if (m_pos < m_buf.size()) {
                // A last line without its LF: a field, or text.
                std::string_view rest(m_buf.data() + m_pos, m_buf.size() - m_pos);
                m_pos = m_buf.size();
                textLine(rest, NoNewline);
            }
            if (m_inEntry) {
                if (!m_run.load.stoppedEarly()) {
                    m_run.load.truncate(QStringLiteral(
                        "the export stream ends inside an entry (no empty line after it); the "
                        "entry was kept"));
                }
                endEntry();
            }
        }
        if (m_badBinaryEnd > 0) {
            m_run.warnings << QStringLiteral("%1 binary field(s) of the export stream were not "
                                             "followed by a line end; read on after them")
                                  .arg(m_badBinaryEnd);
        }
        m_lines.finish();
    }

private:
    static constexpr std::size_t kMaxField = LineFramer::kDefaultMaxLine;

    static bool validName(std::string_view n)
    {
        if (n.empty() || n.size() > 64) {
            return false;
        }
        for (const char c : n) {
            if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) {
                return false;
            }
        }
        return true;
    }
    void endEntry()
    {
        m_lines.entry(m_entry);
        m_entry.clear();
        m_inEntry = false;
    }
    // A line of the stream: a field, the end of an entry, or text that is neither.
    void textLine(std::string_view line, std::uint16_t flags)
    {
        if (line.empty()) {
            if (m_inEntry) {
                endEntry();
            }
            return;
        }
        const std::size_t eq = line.find('=');
        if (eq != std::string_view::npos && validName(line.substr(0, eq))) {
            m_inEntry = true;
            takeField(&m_entry, line.substr(0, eq), std::string(line.substr(eq + 1)));
            return;
        }
        m_lines.notAnEntry(line, flags, "neither FIELD=value nor a binary field");
    }
    bool process()
    {
        while (m_pos < m_buf.size()) {
            if (m_binaryLeft) {
                // The value and the LF after it.
                if (m_buf.size() - m_pos < *m_binaryLeft + 1) {
                    return true;
                }
                takeField(&m_entry, m_name, m_buf.substr(m_pos, *m_binaryLeft));
                m_pos += *m_binaryLeft;
                m_binaryLeft.reset();
                if (m_buf[m_pos] == '\n') {
                    ++m_pos;
                } else {
                    ++m_badBinaryEnd;
                }
                continue;
            }
            const char *nl = static_cast<const char *>(
                std::memchr(m_buf.data() + m_pos, '\n', m_buf.size() - m_pos));
            if (!nl) {
                if (m_buf.size() - m_pos > kMaxField) {
                    // An endless line: text, in pieces, as LineFramer cuts it.
                    textLine(std::string_view(m_buf.data() + m_pos, kMaxField), Split);
                    m_pos += kMaxField;
                    continue;
                }
                return true;
            }
            const std::size_t lineStart = m_pos;
            const std::string_view line(m_buf.data() + m_pos,
                                        std::size_t(nl - (m_buf.data() + m_pos)));
            if (line.find('=') == std::string_view::npos && validName(line)) {
                // A binary field: its name, then the size.
                if (m_buf.size() - (m_pos + line.size() + 1) < 8) {
                    return true; // wait for the size
                }
                m_pos += line.size() + 1;
                std::uint64_t size = 0;
                for (int i = 7; i >= 0; --i) {
                    size = (size << 8) | std::uint8_t(m_buf[m_pos + std::size_t(i)]);
                }
                if (size > kMaxField) {
                    m_stopped = true;
                    m_run.load.stop(
                        LoadOutcome::Damaged,
                        QStringLiteral("the binary field %1 at byte %2 of the export stream "
                                       "claims %3 bytes (more than %4 MiB): not an export "
                                       "stream from there on; everything before it was kept")
                            .arg(QString::fromLatin1(line.data(), qsizetype(line.size())))
                            .arg(m_consumed + lineStart)
                            .arg(size)
                            .arg(kMaxField >> 20));
                    if (m_inEntry) {
                        endEntry();
                    }
                    return false;
                }
                m_name = std::string(line);
                m_binaryLeft = std::size_t(size);
                m_inEntry = true;
                m_pos += 8;
                continue;
            }
            m_pos += line.size() + 1;
            textLine(line, 0);
        }
        return true;
    }

    Run &m_run;
    JournalLines m_lines;
    std::string m_buf;
    std::size_t m_pos = 0;
    std::size_t m_consumed = 0; // bytes of the stream before m_buf
    JournalEntry m_entry;
    bool m_inEntry = false;
    bool m_stopped = false;
    std::string m_name;
    std::optional<std::size_t> m_binaryLeft;
    std::int64_t m_badBinaryEnd = 0;
};

std::string_view skipWhite(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' ||
                          s.front() == '\r' || s.front() == '\x1e')) {
        s.remove_prefix(1);
    }
    return s;
}

} // namespace

bool looksJournalJson(std::string_view head)
{
    // An object whose first line names the realtime stamp journalctl always writes.
    const std::string_view s = skipWhite(head);
    if (s.empty() || s.front() != '{') {
        return false;
    }
    // -o json-pretty: "{" alone, the fields on the lines after it.
    const std::string_view first =
        s.substr(0, s.substr(0, 2) == "{\n" ? s.find("\n}") : s.find('\n'));
    return first.find("\"__REALTIME_TIMESTAMP\"") != std::string_view::npos;
}

bool looksJournalExport(std::string_view head)
{
    // journalctl starts every entry with __CURSOR=, __REALTIME_TIMESTAMP= follows.
    const std::string_view s = skipWhite(head);
    return s.substr(0, 9) == "__CURSOR=" || s.substr(0, 21) == "__REALTIME_TIMESTAMP=";
}

std::unique_ptr<FormatParser> makeJournalJsonParser(Run &run, RunBuilder &builder)
{
    return std::make_unique<JournalJsonParser>(run, builder);
}

std::unique_ptr<FormatParser> makeJournalExportParser(Run &run, RunBuilder &builder)
{
    return std::make_unique<JournalExportParser>(run, builder);
}

} // namespace tty
