#include "crashlines.h"

#include "crashes.h"
#include "kernelprefix.h"

#include <algorithm>
#include <array>

namespace tty {

namespace crash {

namespace {

bool isIdentChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '$';
}

bool isHex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Skips "[<ffffffff81234567>]" / "[c000000000012345]" groups and the spaces after them.
std::size_t skipAddresses(std::string_view s, std::size_t p)
{
    p = skipSpaces(s, p);
    while (p < s.size() && s[p] == '[') {
        std::size_t q = p + 1;
        if (q < s.size() && s[q] == '<') {
            ++q;
        }
        const std::size_t digits = q;
        while (q < s.size() && isHex(s[q])) {
            ++q;
        }
        if (q == digits) {
            return p;
        }
        if (q < s.size() && s[q] == '>') {
            ++q;
        }
        if (q >= s.size() || s[q] != ']') {
            return p;
        }
        p = skipSpaces(s, q + 1);
    }
    return p;
}

// "foo+0x12/0x40" at p: the symbol, else empty.
std::string_view symbolAt(std::string_view s, std::size_t p)
{
    const std::size_t start = p;
    while (p < s.size() && isIdentChar(s[p])) {
        ++p;
    }
    if (p == start || !startsWith(s.substr(p), "+0x")) {
        return {};
    }
    std::size_t q = p + 3;
    const std::size_t hex = q;
    while (q < s.size() && isHex(s[q])) {
        ++q;
    }
    if (q == hex || !startsWith(s.substr(q), "/0x")) {
        return {};
    }
    // 64-bit big-endian powerpc (ELF ABI v1) names a function's text ".foo": the same
    // function as on other kernels, so that their crashes get the same titles.
    const std::size_t from = s[start] == '.' && p - start > 1 ? start + 1 : start;
    return s.substr(from, p - from);
}

// An identifier at p, else empty.
std::string_view identAt(std::string_view s, std::size_t p)
{
    std::size_t e = p;
    while (e < s.size() && isIdentChar(s[e])) {
        ++e;
    }
    return s.substr(p, e - p);
}

// arm's frames name the function first, then its caller: "%ps from %pS" since 5.17
// (" foo from bar+0x1/0x2", " foo [mod] from bar+0x1/0x2 [mod2]", " foo from 0x401018a0"),
// "[<addr>] (%ps) from [<addr>] (%pS)" before, with an offset in the first parentheses
// too in 3.x ("(foo+0x0/0x10) from").
std::string_view armFrameFunction(std::string_view s, std::size_t p)
{
    const bool paren = p < s.size() && s[p] == '(' && p > 0;
    const std::size_t start = paren ? p + 1 : p;
    const std::string_view fn = identAt(s, start);
    if (fn.empty()) {
        return {};
    }
    std::size_t q = start + fn.size();
    if (paren) {
        if (startsWith(s.substr(q), "+0x")) {
            const std::string_view withOffset = symbolAt(s, start);
            if (withOffset.empty()) {
                return {};
            }
            q = s.find(')', q);
            if (q == std::string_view::npos) {
                return {};
            }
        }
        if (q >= s.size() || s[q] != ')') {
            return {};
        }
        ++q;
    } else if (startsWith(s.substr(q), " [")) { // the module of a module's function
        q = s.find(']', q);
        q = q == std::string_view::npos ? s.size() : q + 1;
    }
    if (!startsWith(s.substr(q), " from ")) {
        return {};
    }
    q = skipAddresses(s, q + 6);
    if (paren && q < s.size() && s[q] == '(') {
        ++q;
    }
    const bool address = startsWith(s.substr(q), "0x") && q + 2 < s.size() && isHex(s[q + 2]);
    return address || !symbolAt(s, q).empty() ? fn : std::string_view();
}

} // namespace

// A symbol as a title shows it: compiler suffixes (.isra.0, .cold, .constprop.3) dropped.
QString baseName(const QString &sym)
{
    const qsizetype dot = sym.indexOf(u'.', 1);
    return dot > 0 ? sym.left(dot) : sym;
}

// The function of an instruction-pointer line: x86 `RIP: 0010:foo+0x1/0x2` (and the
// 4.x `RIP: 0010:[<addr>]  [<addr>] foo+...`, `IP: foo+...`), i386 `EIP:`, arm64
// `pc : foo+...`, arm `PC is at foo+...`, riscv `epc : `, powerpc `NIP [addr] foo+...`
// and `LR [addr] foo+...`, s390 `Krnl PSW : <mask> <addr> (foo+...)`, mips `epc   : <addr>
// foo+...`, loongarch `ERA: <addr> foo+...`.
QString ipFunction(std::string_view m)
{
    // mips' "epc   : 80123456 foo+0x12/0x34", loongarch's "  ERA: 9000000002cd2a28 foo+...".
    const std::string_view t = m.substr(std::min(m.size(), skipSpaces(m, 0)));
    if (startsWith(t, "epc   : ") || startsWith(t, "ERA: ")) {
        std::size_t q = skipSpaces(t, t.find(':') + 1);
        while (q < t.size() && isHex(t[q])) {
            ++q;
        }
        return toQ(symbolAt(t, skipSpaces(t, q)));
    }
    if (startsWith(m, "Krnl PSW : ")) {
        std::size_t q = skipSpaces(m, 11);
        for (int word = 0; word < 2; ++word) { // the PSW's mask and address
            while (q < m.size() && isHex(m[q])) {
                ++q;
            }
            q = skipSpaces(m, q);
        }
        return q < m.size() && m[q] == '(' ? toQ(symbolAt(m, q + 1)) : QString();
    }
    // powerpc's "LR [addr] foo+..." after its NIP: the interrupted function's caller
    // when that function is a leaf (a user copy, a string routine) that never saved it.
    static constexpr std::array<std::string_view, 8> kPrefixes{
        "RIP: ", "IP: ", "EIP: ", "pc : ", "PC is at ", "epc : ", "NIP ", "LR ["};
    for (std::string_view p : kPrefixes) {
        if (!startsWith(m, p)) {
            continue;
        }
        std::size_t q = p == "LR [" ? 3 : p.size();
        // The code segment of RIP/EIP lines: "0010:".
        if (q + 5 <= m.size() && isHex(m[q]) && isHex(m[q + 1]) && isHex(m[q + 2]) &&
            isHex(m[q + 3]) && m[q + 4] == ':') {
            q += 5;
        }
        q = skipAddresses(m, q);
        return toQ(symbolAt(m, q));
    }
    return {};
}

// The function after "at:" of a lockdep lock line ("..., at: foo+0x1/0x2").
QString atFunction(std::string_view m)
{
    const std::size_t at = m.find("at: ");
    if (at == std::string_view::npos) {
        return {};
    }
    return toQ(symbolAt(m, skipAddresses(m, at + 4)));
}

bool isSeparator(std::string_view m)
{
    // KASAN, KCSAN, KFENCE, KMSAN, UBSAN and slab reports are framed by lines of '='.
    return m.size() >= 20 && m.find_first_not_of('=') == std::string_view::npos;
}

// A row of arm's dump of an exception stack inside a trace: "1fa0: 00000000 c0100148 ...".
// A row that starts mid-dump is padded with spaces to its first word.
bool isStackDumpRow(std::string_view m)
{
    if (m.size() < 14 || m[4] != ':' || m[5] != ' ' ||
        !std::all_of(m.begin(), m.begin() + 4, isHex)) {
        return false;
    }
    const std::string_view words = m.substr(6);
    return std::all_of(words.begin(), words.end(), [](char c) { return c == ' ' || isHex(c); }) &&
           std::any_of(words.begin(), words.end(), isHex);
}

// A frame whose address has no symbol: s390's " [<0000000000000000>] 0x0" (a call through
// a NULL pointer), x86's " ? 0xffffffffc0a01234" (an unloaded module's text).
bool isAddressFrame(std::string_view m)
{
    std::size_t p = skipSpaces(m, 0);
    const bool paren = p < m.size() && m[p] == '(';
    p = skipAddresses(m, paren ? p + 1 : p);
    if (p + 1 < m.size() && m[p] == '?' && m[p + 1] == ' ') {
        p = skipAddresses(m, p + 2);
    }
    if (!startsWith(m.substr(p), "0x")) {
        return false;
    }
    p += 2;
    const std::size_t digits = p;
    while (p < m.size() && isHex(m[p])) {
        ++p;
    }
    if (p == digits) {
        return false;
    }
    if (paren && p < m.size() && m[p] == ')') {
        ++p;
    }
    const std::string_view rest = m.substr(skipSpaces(m, p));
    return rest.empty() || rest == "(unreliable)"; // powerpc's mark of a stale slot
}

// Lines that may stand inside a stack without ending it.
bool isTraceFiller(std::string_view m)
{
    if (isAddressFrame(m)) {
        return true;
    }
    m = m.substr(std::min(m.size(), skipSpaces(m, 0)));
    if (m.empty() || m[0] == '<') { // <TASK> </TASK> <IRQ> </IRQ> <NMI> <EOI>
        return true;
    }
    // x86's registers of an interrupted context, and powerpc's: its traces print the
    // registers of an interrupt frame ("--- interrupt: 300 at foo+0x1/0x2") between the
    // frames of the handler and the frames of the code it interrupted.
    static constexpr std::array<std::string_view, 30> kFill{
        "RIP: ",  "RSP: ", "RAX: ", "RDX: ", "RBP: ",       "R10: ",    "R13: ",  "Code: ",
        "FS: ",   "CS: ",  "CR2: ", "DR0: ", "DR3: ",       "DR6: ",    "EIP: ",  "---",
        "NIP:  ", "NIP [", "LR [",  "LR = ", "REGS: ",      "MSR: ",    "CFAR: ", "DAR: ",
        "GPR0",   "GPR1",  "GPR2",  "GPR3",  "interrupt: ", "IRQMASK: "};
    for (std::string_view f : kFill) {
        if (startsWith(m, f)) {
            return true;
        }
    }
    return startsWith(m, "Call Trace:") || startsWith(m, "Call trace:") ||
           startsWith(m, "Exception stack") || startsWith(m, "irq event stamp") ||
           startsWith(m, "hardirqs ") || startsWith(m, "softirqs ") || startsWith(m, "... ") ||
           isStackDumpRow(m);
}

LineInfo infoOf(std::string_view text)
{
    while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) {
        text.remove_suffix(1);
    }
    const KernelPrefix p = parseKernelPrefix(text);
    LineInfo li;
    li.msg = text.substr(std::min(p.message, text.size()));
    li.caller = p.caller;
    li.time = p.time;
    return li;
}

} // namespace crash

using crash::armFrameFunction;
using crash::isIdentChar;
using crash::skipAddresses;
using crash::startsWith;
using crash::symbolAt;
using crash::toQ;

QString frameFunction(std::string_view m, bool *unreliable)
{
    // s390 puts a frame its unwinder could not vouch for in parentheses,
    // "([<addr>] foo+0x4a/0xc0)": the return register's function, the caller of a
    // function called through a bad pointer. It is a frame: x86's is a reliable one.
    if (startsWith(m, "([<")) {
        m.remove_prefix(1);
    }
    std::size_t p = skipAddresses(m, 0);
    bool q = false;
    if (p + 1 < m.size() && m[p] == '?' && m[p + 1] == ' ') {
        q = true;
        p = skipAddresses(m, p + 2);
    }
    // powerpc marks the first frame's saved link register, often stale, "(unreliable)".
    if (!q && m.size() > 13 && m.substr(m.size() - 13) == " (unreliable)") {
        q = true;
    }
    if (unreliable) {
        *unreliable = q;
    }
    const std::string_view arm = armFrameFunction(m, p);
    if (!arm.empty()) {
        return toQ(arm);
    }
    std::string_view sym = symbolAt(m, p);
    if (sym.empty()) {
        // Symbolized inline frames: " foo mm/bar.c:12 [inline]".
        std::size_t e = p;
        while (e < m.size() && isIdentChar(m[e])) {
            ++e;
        }
        if (e > p && e < m.size() && m[e] == ' ' &&
            m.find(" [inline]", e) != std::string_view::npos) {
            sym = m.substr(p, e - p);
        }
    }
    return toQ(sym);
}

} // namespace tty
