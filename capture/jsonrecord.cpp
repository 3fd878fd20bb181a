#include "jsonrecord.h"

#include "digits.h"

namespace tty {

namespace {

class JsonReader
{
public:
    explicit JsonReader(std::string_view s) : m_s(s) {}

    bool object(JsonFields *out)
    {
        space();
        if (!eat('{')) {
            return fail("expected '{'");
        }
        space();
        if (eat('}')) {
            return true;
        }
        for (;;) {
            space();
            JsonValue key;
            if (!peek('"') || !string(&key)) {
                return fail("expected a key");
            }
            space();
            if (!eat(':')) {
                return fail("expected ':'");
            }
            JsonValue v;
            if (!value(&v, 1)) {
                return false;
            }
            out->emplace_back(std::move(key.text), std::move(v));
            space();
            if (eat('}')) {
                break;
            }
            if (!eat(',')) {
                return fail("expected ',' or '}'");
            }
        }
        space();
        return m_p == m_s.size() || fail("bytes after the object");
    }
    const std::string &error() const { return m_error; }

private:
    bool value(JsonValue *v, int depth)
    {
        space();
        if (depth > 16) {
            return fail("nested too deep");
        }
        if (m_p >= m_s.size()) {
            return fail("the record ends early");
        }
        const char c = m_s[m_p];
        if (c == '"') {
            return string(v);
        }
        if (c == '{') {
            v->type = JsonValue::Type::Object;
            return skipObject(depth);
        }
        if (c == '[') {
            return array(v, depth);
        }
        if (literal("null")) {
            v->type = JsonValue::Type::Null;
            return true;
        }
        if (literal("true") || literal("false")) {
            v->type = JsonValue::Type::Bool;
            v->text = m_s[m_p - 1] == 'e' && m_s[m_p - 2] == 'u' ? "true" : "false";
            return true;
        }
        return number(v);
    }
    bool number(JsonValue *v)
    {
        const std::size_t start = m_p;
        if (peek('-')) {
            ++m_p;
        }
        while (m_p < m_s.size() && (isDigit(m_s[m_p]) || m_s[m_p] == '.' || m_s[m_p] == 'e' ||
                                    m_s[m_p] == 'E' || m_s[m_p] == '+' || m_s[m_p] == '-')) {
            ++m_p;
        }
        if (m_p == start || !isDigit(m_s[m_p - 1])) {
            return fail("expected a value");
        }
        v->type = JsonValue::Type::Number;
        v->text = std::string(m_s.substr(start, m_p - start));
        return true;
    }
    bool array(JsonValue *v, int depth)
    {
        ++m_p; // '['
        v->type = JsonValue::Type::Array;
        space();
        if (eat(']')) {
            return true;
        }
        bool allBytes = true;
        for (;;) {
            JsonValue item;
            if (!value(&item, depth + 1)) {
                return false;
            }
            const std::optional<std::int64_t> b =
                item.type == JsonValue::Type::Number ? parseDecimal(item.text, 255) : std::nullopt;
            allBytes = allBytes && b.has_value();
            if (allBytes) {
                v->text.push_back(char(*b));
            }
            v->items.push_back(std::move(item));
            space();
            if (eat(']')) {
                break;
            }
            if (!eat(',')) {
                return fail("expected ',' or ']'");
            }
        }
        if (allBytes) {
            v->type = JsonValue::Type::Bytes; // journalctl's binary field: the bytes listed
            v->items.clear();
        } else {
            v->text.clear();
        }
        return true;
    }
    bool skipObject(int depth)
    {
        JsonFields ignored;
        ++m_p; // '{'
        space();
        if (eat('}')) {
            return true;
        }
        for (;;) {
            space();
            JsonValue key, v;
            if (!peek('"') || !string(&key)) {
                return fail("expected a key");
            }
            space();
            if (!eat(':') || !value(&v, depth + 1)) {
                return m_error.empty() ? fail("expected ':'") : false;
            }
            space();
            if (eat('}')) {
                return true;
            }
            if (!eat(',')) {
                return fail("expected ',' or '}'");
            }
        }
    }
    bool hex4(unsigned *out)
    {
        if (m_s.size() - m_p < 4) {
            return false;
        }
        unsigned v = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = m_s[m_p++];
            const int d = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
            if (d < 0) {
                return false;
            }
            v = v * 16 + unsigned(d);
        }
        *out = v;
        return true;
    }
    static void utf8(std::string *out, char32_t c)
    {
        if (c < 0x80) {
            out->push_back(char(c));
        } else if (c < 0x800) {
            out->push_back(char(0xc0 | (c >> 6)));
            out->push_back(char(0x80 | (c & 0x3f)));
        } else if (c < 0x10000) {
            out->push_back(char(0xe0 | (c >> 12)));
            out->push_back(char(0x80 | ((c >> 6) & 0x3f)));
            out->push_back(char(0x80 | (c & 0x3f)));
        } else {
            out->push_back(char(0xf0 | (c >> 18)));
            out->push_back(char(0x80 | ((c >> 12) & 0x3f)));
            out->push_back(char(0x80 | ((c >> 6) & 0x3f)));
            out->push_back(char(0x80 | (c & 0x3f)));
        }
    }
    bool string(JsonValue *v)
    {
        ++m_p; // '"'
        v->type = JsonValue::Type::String;
        std::string &out = v->text;
        for (;;) {
            const std::size_t run = m_s.find_first_of("\"\\", m_p);
            if (run == std::string_view::npos) {
                return fail("a string is not closed");
            }
            out.append(m_s.data() + m_p, run - m_p);
            m_p = run + 1;
            if (m_s[run] == '"') {
                return true;
            }
            if (m_p >= m_s.size()) {
                return fail("a string is not closed");
            }
            const char e = m_s[m_p++];
            unsigned u = 0;
            switch (e) {
            case '"':
            case '\\':
            case '/':
                out.push_back(e);
                break;
            case 'b':
                out.push_back('\b');
                break;
            case 'f':
                out.push_back('\f');
                break;
            case 'n':
                out.push_back('\n');
                break;
            case 'r':
                out.push_back('\r');
                break;
            case 't':
                out.push_back('\t');
                break;
            case 'u':
                if (!hex4(&u)) {
                    return fail("bad \\u escape");
                }
                if (u >= 0xd800 && u < 0xdc00) {
                    unsigned lo = 0;
                    if (m_s.substr(m_p, 2) == "\\u" && (m_p += 2, hex4(&lo)) && lo >= 0xdc00 &&
                        lo < 0xe000) {
                        utf8(&out, char32_t(0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00)));
                    } else {
                        return fail("bad surrogate pair");
                    }
                } else {
                    utf8(&out, char32_t(u));
                }
                break;
            default:
                return fail("bad escape");
            }
        }
    }
    bool literal(std::string_view w)
    {
        if (m_s.substr(m_p, w.size()) == w) {
            m_p += w.size();
            return true;
        }
        return false;
    }
    void space()
    {
        while (m_p < m_s.size() &&
               (m_s[m_p] == ' ' || m_s[m_p] == '\t' || m_s[m_p] == '\n' || m_s[m_p] == '\r')) {
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
    bool fail(const char *why)
    {
        if (m_error.empty()) {
            m_error = std::string(why) + " at byte " + std::to_string(m_p);
        }
        return false;
    }

    std::string_view m_s;
    std::size_t m_p = 0;
    std::string m_error;
};

} // namespace

bool parseJsonObject(std::string_view s, JsonFields *out, std::string *error)
{
    JsonReader r(s);
    out->clear();
    if (!r.object(out)) {
        *error = r.error();
        return false;
    }
    return true;
}

const JsonValue *jsonField(const JsonFields &fields, std::string_view name)
{
    for (const auto &[k, v] : fields) {
        if (k == name) {
            return &v;
        }
    }
    return nullptr;
}

std::optional<std::string_view> jsonFirstText(const JsonValue *v)
{
    if (!v) {
        return std::nullopt;
    }
    if (v->type == JsonValue::Type::String || v->type == JsonValue::Type::Bytes) {
        return std::string_view(v->text);
    }
    if (v->type == JsonValue::Type::Array && !v->items.empty()) {
        return jsonFirstText(&v->items.front());
    }
    return std::nullopt;
}

std::optional<std::int64_t> parseDecimal(std::string_view s, std::int64_t max)
{
    if (s.empty() || s.size() > 19) {
        return std::nullopt;
    }
    std::int64_t v = 0;
    for (const char c : s) {
        if (!isDigit(c) || v > (max - (c - '0')) / 10) {
            return std::nullopt;
        }
        v = v * 10 + (c - '0');
    }
    return v;
}

std::optional<KernelUs> parseKernelSeconds(std::string_view s)
{
    std::size_t p = 0;
    while (p < s.size() && s[p] == ' ') {
        ++p;
    }
    const std::size_t dot = s.find('.', p);
    if (dot == std::string_view::npos || dot == p || dot + 1 >= s.size() ||
        s.size() - dot - 1 > 6) {
        return std::nullopt;
    }
    // Bounded like printk's own prefix (kernelprefix.cpp): the boot offsets scale kernel
    // time to nanoseconds.
    const std::optional<std::int64_t> sec = parseDecimal(s.substr(p, dot - p), kMaxSecondsInNs);
    const std::optional<std::int64_t> frac = parseDecimal(s.substr(dot + 1), 999999);
    if (!sec || !frac) {
        return std::nullopt;
    }
    std::int64_t scale = 1;
    for (std::size_t i = s.size() - dot - 1; i < 6; ++i) {
        scale *= 10;
    }
    return KernelUs(*sec * 1000000 + *frac * scale);
}

} // namespace tty
