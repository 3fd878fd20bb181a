#include "msgtemplate.h"

#include "crashlines.h"
#include "digits.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

namespace tty {

namespace {

// Byte classes, one table lookup a byte.
enum : std::uint8_t { kDigit = 1, kLetter = 2, kHex = 4 }; // kHex: 0-9, a-f, A-F
constexpr std::array<std::uint8_t, 256> kClass = [] {
    std::array<std::uint8_t, 256> t{};
    for (int c = '0'; c <= '9'; ++c) {
        t[std::size_t(c)] = kDigit | kHex;
    }
    for (int c = 'a'; c <= 'z'; ++c) {
        t[std::size_t(c)] = kLetter | (c <= 'f' ? kHex : 0);
        t[std::size_t(c - 'a' + 'A')] = kLetter | (c <= 'f' ? kHex : 0);
    }
    return t;
}();

std::uint8_t classOf(char c)
{
    return kClass[static_cast<unsigned char>(c)];
}

bool isHexLetter(char c)
{
    return (classOf(c) & (kLetter | kHex)) == (kLetter | kHex);
}

bool isLower(char c)
{
    return c >= 'a' && c <= 'z';
}

bool isAlnum(char c)
{
    return (classOf(c) & (kDigit | kLetter)) != 0;
}

// The template being written: appends with the masking rules for '#'.
struct Out
{
    char *p;
    std::size_t n = 0;
    // Bytes are written while n + 3 <= kTemplateMax (room for a quoted '"#"').
    bool full() const { return n + 3 > kTemplateMax; }
    void put(char c) { p[n++] = c; }
    void putRun(const char *b, std::size_t len)
    {
        const std::size_t room = n + 2 < kTemplateMax ? kTemplateMax - 2 - n : 0;
        len = std::min(len, room);
        std::memcpy(p + n, b, len);
        n += len;
    }
    // A masked value. Values joined by one '.', '-' or ':' are one value ("1-1.2",
    // "0000:00:1f.6", "12:34:56"), and "##" is "#".
    void mask()
    {
        if (n >= 2 && p[n - 2] == '#' && (p[n - 1] == '.' || p[n - 1] == '-' || p[n - 1] == ':')) {
            --n;
            return;
        }
        if (n >= 1 && p[n - 1] == '#') {
            return;
        }
        put('#');
    }
};

// An alphanumeric run [b, e) whose bytes' classes OR to `any` and AND to `all`: numbers,
// hex words with a digit (addresses) and 0x values are masked whole; in a word with other
// letters the digits at its start and end are masked (eth0 -> eth#, 4096K -> #K), the ones
// inside kept (i2c, nvme0n1 -> nvme0n#).
void putWord(const char *b, const char *e, std::uint8_t any, std::uint8_t all, Out *o)
{
    if (!(any & kDigit)) {
        o->putRun(b, std::size_t(e - b));
        return;
    }
    bool hexAfterX = e - b > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X');
    for (const char *c = b + 2; hexAfterX && c < e; ++c) {
        hexAfterX = (classOf(*c) & kHex) != 0;
    }
    if ((all & kHex) || hexAfterX) {
        o->mask();
        return;
    }
    const char *s = b;
    if (isDigit(*s)) {
        while (s < e && isDigit(*s)) {
            ++s;
        }
        o->mask();
    }
    const char *t = e;
    while (t > s && isDigit(t[-1])) {
        --t;
    }
    o->putRun(s, std::size_t(t - s));
    if (t < e) {
        o->mask();
    }
}

bool startsWith(std::string_view s, std::string_view p)
{
    return s.size() >= p.size() && std::memcmp(s.data(), p.data(), p.size()) == 0;
}

} // namespace

std::size_t maskMessage(std::string_view message, char *out)
{
    Out o{out};
    const char *c = message.data();
    const char *const e = c + message.size();
    while (c < e && !o.full()) {
        const char ch = *c;
        const std::uint8_t cls = classOf(ch);
        if (cls & (kDigit | kLetter)) {
            std::uint8_t any = cls, all = cls;
            const char *w = c + 1;
            for (; w < e; ++w) {
                const std::uint8_t k = classOf(*w);
                if (!(k & (kDigit | kLetter))) {
                    break;
                }
                any |= k;
                all &= k;
            }
            putWord(c, w, any, all, &o);
            c = w;
        } else if (ch == ' ' || ch == '\t') {
            if (o.n > 0 && out[o.n - 1] != ' ') {
                o.put(' ');
            } else if (o.n == 0) {
                o.put(' '); // an indented line stays indented
            }
            ++c;
        } else if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) {
            ++c;
        } else if (ch == '\'' && (c == message.data() || !isAlnum(c[-1]))) {
            // 'quoted' (not the apostrophe of "can't"): closed by a ' that ends a word.
            const char *q = c + 1;
            while (q < e && !(*q == '\'' && (q + 1 == e || !isAlnum(q[1])))) {
                ++q;
            }
            if (q >= e || q == c + 1) {
                o.put(ch);
                ++c;
                continue;
            }
            o.put('\'');
            o.put('#');
            o.put('\'');
            c = q + 1;
        } else if (ch == '"') {
            const void *close = std::memchr(c + 1, '"', std::size_t(e - c - 1));
            if (!close) {
                o.put('"');
                ++c;
                continue;
            }
            o.put('"');
            o.put('#');
            o.put('"');
            c = static_cast<const char *>(close) + 1;
        } else {
            o.put(ch);
            ++c;
        }
    }
    while (o.n > 1 && out[o.n - 1] == ' ') {
        --o.n;
    }
    return o.n;
}

bool sameTemplate(std::string_view a, std::string_view b)
{
    const char *p = a.data(), *const pe = p + a.size();
    const char *q = b.data(), *const qe = q + b.size();
    for (;;) {
        // A stretch of equal bytes.
        const char *const stretch = p;
        while (p < pe && q < qe && *p == *q) {
            ++p;
            ++q;
        }
        if (p == pe && q == qe) {
            return true;
        }
        // A difference. It must lie in a whole number of both: back to the number's start
        // within the stretch (equal bytes in both), which is the message's start or follows
        // a byte that is not alphanumeric ...
        while (p > stretch && isDigit(p[-1])) {
            --p;
            --q;
        }
        if (p == pe || q == qe || !isDigit(*p) || !isDigit(*q) ||
            (p > a.data() && isAlnum(p[-1]))) {
            return false;
        }
        // ... and ends, in both, before a byte that is not alphanumeric (or the end).
        while (p < pe && isDigit(*p)) {
            ++p;
        }
        while (q < qe && isDigit(*q)) {
            ++q;
        }
        if ((p < pe && isAlnum(*p)) || (q < qe && isAlnum(*q))) {
            return false;
        }
    }
}

std::string messageTemplate(std::string_view message)
{
    std::string s(kTemplateMax, '\0');
    s.resize(maskMessage(message, s.data()));
    return s;
}

std::string_view messagePrefix(std::string_view message)
{
    const std::size_t limit = std::min(message.size(), kPrefixMax);
    if (limit == 0 || message[0] == ' ' || message[0] == '\t') {
        return {};
    }
    for (std::size_t i = 1; i < limit && i + 1 < message.size(); ++i) {
        if (message[i] == ':' && message[i + 1] == ' ') {
            return message.substr(0, i);
        }
    }
    return {};
}

// A frame that starts with its address in brackets: powerpc's "[sp] [addr] foo+0x1/0x2",
// riscv's and mips' "[<addr>] foo+0x1/0x2", arm's "[<addr>] (foo) from", s390's
// "([<addr>] foo+0x1/0x2)". Eight hex digits at least, so "[drm] ..." is none.
bool startsWithAddress(std::string_view m)
{
    std::size_t p = !m.empty() && m[0] == '(' ? 1 : 0;
    if (p >= m.size() || m[p] != '[') {
        return false;
    }
    ++p;
    if (p < m.size() && m[p] == '<') {
        ++p;
    }
    const std::size_t digits = p;
    while (p < m.size() && (isDigit(m[p]) || isHexLetter(m[p]))) {
        ++p;
    }
    if (p < m.size() && m[p] == '>') {
        ++p;
    }
    return p - digits >= 8 && p < m.size() && m[p] == ']';
}

// A row of an instruction or memory dump: four words or more of eight hex digits and
// nothing else ("7c0802a6 fbe1fff8 f8010010 f821ffc1 <0fe00000> ..."; the faulting word
// in angle brackets).
bool isHexRow(std::string_view m)
{
    int words = 0;
    std::size_t p = 0;
    while (p < m.size()) {
        const bool marked = m[p] == '<' || m[p] == '(';
        const std::size_t start = marked ? p + 1 : p;
        std::size_t q = start;
        while (q < m.size() && (isDigit(m[q]) || isHexLetter(m[q]))) {
            ++q;
        }
        if (q - start != 8) {
            return false;
        }
        if (marked) {
            if (q >= m.size() || (m[q] != '>' && m[q] != ')')) {
                return false;
            }
            ++q;
        }
        ++words;
        if (q < m.size() && m[q] != ' ') {
            return false;
        }
        while (q < m.size() && m[q] == ' ') {
            ++q;
        }
        p = q;
    }
    return words >= 4;
}

// A row of general registers that names each one in front of its value, as loongarch
// prints them ("pc 9000000002cd2a28 ra 9000000002cd2a10 tp ... sp ...", "a0 ... a3 ..."):
// two or more pairs of a two-character lowercase name and 8 or 16 hex digits.
bool isNamedRegisterRow(std::string_view m)
{
    int pairs = 0;
    std::size_t p = 0;
    while (p < m.size()) {
        if (p + 3 > m.size() || !isLower(m[p]) || !(isLower(m[p + 1]) || isDigit(m[p + 1])) ||
            m[p + 2] != ' ') {
            return false;
        }
        std::size_t q = p + 3;
        while (q < m.size() && (isDigit(m[q]) || isHexLetter(m[q]))) {
            ++q;
        }
        if (q - (p + 3) != 8 && q - (p + 3) != 16) {
            return false;
        }
        ++pairs;
        if (q == m.size()) {
            break;
        }
        if (m[q] != ' ') {
            return false;
        }
        p = q + 1;
    }
    return pairs >= 2;
}

// mips' and loongarch's "Process cat (pid: 311, threadinfo=..., task=..., tls=...)".
bool isProcessLine(std::string_view m)
{
    return startsWith(m, "Process ") && m.find(" (pid: ") != std::string_view::npos &&
           m.find(", threadinfo=") != std::string_view::npos;
}

bool isReportBody(std::string_view m)
{
    // The first bytes a body line can start with (the lists below); most lines of a flood
    // are rejected by this alone.
    static constexpr auto kFirst = [] {
        std::array<bool, 256> t{};
        for (unsigned char c :
             std::string_view(" \t<-.([$0123456789BCDEFGHIKLMNPRSWabcdefhilprstx")) {
            t[c] = true;
        }
        return t;
    }();
    if (m.empty() || !kFirst[static_cast<unsigned char>(m[0])]) {
        return false;
    }
    if (m[0] == ' ' || m[0] == '\t') {
        // Frames (" foo+0x1/0x2", " ? foo"), " <TASK>", " stack:0 pid:..." of a task
        // line printed in two pieces, " ORIG_RAX: ...": everything indented but blanks.
        return m.find_first_not_of(" \t") != std::string_view::npos;
    }
    if (crash::isTraceFiller(m) || startsWithAddress(m)) {
        return true;
    }
    // Then powerpc's die() platform line, its fault's address and its instruction
    // dump's header (its rows are hex words: isHexRow); s390's registers and fault lines;
    // mips' registers (its general ones are "$ 0   : ..."); loongarch's ESTAT (its other
    // CSRs are indented) and its general registers (isNamedRegisterRow); the "Process"
    // line of both.
    static constexpr std::array<std::string_view, 33> kBody{"task:",
                                                            "Modules linked in:",
                                                            "Hardware name:",
                                                            "Workqueue:",
                                                            "RBX: ",
                                                            "R08: ",
                                                            "Stack:",
                                                            "Kernel Offset:",
                                                            "PKRU: ",
                                                            "pc : ",
                                                            "lr : ",
                                                            "sp : ",
                                                            "pstate: ",
                                                            "LE PAGE_SIZE=",
                                                            "BE PAGE_SIZE=",
                                                            "Faulting instruction address:",
                                                            "Instruction dump:",
                                                            "Krnl PSW : ",
                                                            "Krnl GPRS: ",
                                                            "Krnl Code:",
                                                            "Last Breaking-Event-Address:",
                                                            "Failing address: ",
                                                            "Fault in ",
                                                            "Hi    : ",
                                                            "Lo    : ",
                                                            "epc   : ",
                                                            "ra    : ",
                                                            "Status: ",
                                                            "Cause : ",
                                                            "BadVA : ",
                                                            "PrId  : ",
                                                            "Stack : ",
                                                            "ESTAT: "};
    for (std::string_view b : kBody) {
        if (startsWith(m, b)) {
            return true;
        }
    }
    // arm64 registers: "x29: ffff80008000bd50 x28: ..." (not "x86: Booting SMP ...").
    const std::size_t colon = m.size() > 3 && m[0] == 'x' && isDigit(m[1])
                                  ? (m[2] == ':' ? 2 : (isDigit(m[2]) && m[3] == ':' ? 3 : 0))
                                  : 0;
    if (colon > 0 && m.size() >= colon + 18 && m[colon + 1] == ' ') {
        bool hex = true;
        for (std::size_t k = colon + 2; k < colon + 18; ++k) {
            hex = hex && (isDigit(m[k]) || isHexLetter(m[k]));
        }
        if (hex) {
            return true;
        }
    }
    if (isHexRow(m) || isNamedRegisterRow(m) || isProcessLine(m) ||
        (m.size() > 7 && m[0] == '$' && isDigit(m[2]) && m.substr(3, 4) == "   :")) {
        return true;
    }
    // The dump_stack header "CPU: 1 PID: 42 Comm: ..." (6.12: "CPU: 1 UID: 0 PID: ..."),
    // not a message that starts with "CPU: " and a word.
    return startsWith(m, "CPU: ") && m.size() > 5 && isDigit(m[5]);
}

} // namespace tty
