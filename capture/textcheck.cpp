#include "textcheck.h"

#include "textreader.h"

#include <algorithm>

namespace tty {

namespace {
constexpr std::int64_t kSampleBytes = std::int64_t(4) << 20;
// Kernel lines are at most about 1 KiB (printk's limit); user space rarely writes lines of
// 64 KiB to a console. A file with CR-only line ends, or none, is one huge line.
constexpr std::int64_t kLongLine = 64 << 10;
// Consoles send escape sequences, tabs, bells, backspaces and the odd noise byte from a
// baud mismatch; a tenth of the bytes being neither text nor those is a different file.
constexpr double kNonTextShare = 0.10;

bool isConsoleControl(unsigned char c)
{
    return c == '\t' || c == '\r' || c == '\n' || c == 0x1b || c == '\b' || c == '\a' ||
           c == '\f' || c == 0x0e || c == 0x0f; // SO/SI: terminal character set switches
}

// Bytes of `s` that are not text: C0 controls a console does not use, DEL, and bytes of
// invalid UTF-8 sequences.
std::int64_t countNonText(std::string_view s)
{
    std::int64_t bad = 0;
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const auto *const e = p + s.size();
    while (p < e) {
        const unsigned char c = *p;
        if (c < 0x80) {
            bad += (c < 0x20 && !isConsoleControl(c)) || c == 0x7f;
            ++p;
            continue;
        }
        // A UTF-8 lead byte and its continuation bytes (overlongs and surrogates are
        // rare enough in console noise not to matter to a share).
        const int more = c >= 0xc2 && c <= 0xdf   ? 1
                         : c >= 0xe0 && c <= 0xef ? 2
                         : c >= 0xf0 && c <= 0xf4 ? 3
                                                  : -1;
        int ok = more > 0 && e - p > more;
        for (int k = 1; ok && k <= more; ++k) {
            ok = (p[k] & 0xc0) == 0x80;
        }
        if (ok) {
            p += more + 1;
        } else {
            ++bad;
            ++p;
        }
    }
    return bad;
}
} // namespace

TextShape textShape(const LineTable &lines)
{
    TextShape t;
    std::int64_t run = 0; // the line being joined from Split pieces
    TextReader reader(lines);
    for (LineIndex i{0}; i < lines.endIndex(); ++i) {
        const std::int64_t len = std::int64_t(lines.textSize(i));
        run += len;
        t.longestLine = std::max(t.longestLine, run);
        if (!(lines.flags(i) & Split)) {
            run = 0;
        }
        if (t.sampled < kSampleBytes) {
            const std::string_view s = reader.text(i);
            const std::string_view part =
                s.substr(0, std::size_t(std::min<std::int64_t>(len, kSampleBytes - t.sampled)));
            t.sampled += std::int64_t(part.size());
            t.nonText += countNonText(part);
        }
    }
    return t;
}

QString textShapeWarning(const TextShape &t)
{
    const bool binary = t.sampled > 0 && double(t.nonText) > kNonTextShare * double(t.sampled);
    if (!binary && t.longestLine < kLongLine) {
        return {};
    }
    return QStringLiteral("this does not look like console text: %1% of the first %2 bytes are "
                          "not text, and the longest line is %3 bytes; everything was loaded as "
                          "it is (is it the right file?)")
        .arg(100.0 * double(t.nonText) / double(std::max<std::int64_t>(t.sampled, 1)), 0, 'f', 1)
        .arg(t.sampled)
        .arg(t.longestLine);
}

} // namespace tty
