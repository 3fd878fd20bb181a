#include "consoletext.h"

#include <algorithm>
#include <charconv>

namespace tty {

namespace {
bool isControl(unsigned char c)
{
    return (c < 0x20 && c != '\t') || c == 0x7f;
}

// End of the escape sequence starting at line[i] == ESC (ECMA-48).
std::size_t escapeEnd(std::string_view line, std::size_t i)
{
    const std::size_t n = line.size();
    if (i + 1 >= n) {
        return n;
    }
    const unsigned char k = static_cast<unsigned char>(line[i + 1]);
    if (k == '[') {
        // CSI: parameter and intermediate bytes, then one final byte 0x40..0x7e.
        std::size_t j = i + 2;
        while (j < n && static_cast<unsigned char>(line[j]) >= 0x20 &&
               static_cast<unsigned char>(line[j]) <= 0x3f) {
            ++j;
        }
        while (j < n && static_cast<unsigned char>(line[j]) >= 0x20 &&
               static_cast<unsigned char>(line[j]) <= 0x2f) {
            ++j;
        }
        return std::min(n, j + 1);
    }
    if (k == ']' || k == 'P' || k == '_' || k == '^' || k == 'X') {
        // OSC, DCS and the other strings: up to BEL or ST (ESC \).
        for (std::size_t j = i + 2; j < n; ++j) {
            if (line[j] == '\a') {
                return j + 1;
            }
            if (line[j] == '\x1b' && j + 1 < n && line[j + 1] == '\\') {
                return j + 2;
            }
        }
        return n;
    }
    // nF sequences (ESC ( B and the like): intermediates 0x20..0x2f, then a final byte.
    std::size_t j = i + 1;
    while (j < n && static_cast<unsigned char>(line[j]) >= 0x20 &&
           static_cast<unsigned char>(line[j]) <= 0x2f) {
        ++j;
    }
    return std::min(n, j + 1); // ESC c, ESC 7, ESC ( B ...
}
// The parameters of an SGR sequence (ESC [ params m), if the span is one.
bool sgrParams(std::string_view seq, std::string_view *params)
{
    if (seq.size() < 3 || seq[0] != '\x1b' || seq[1] != '[' || seq.back() != 'm') {
        return false;
    }
    const std::string_view p = seq.substr(2, seq.size() - 3);
    // Private sequences (ESC[?..m, ESC[>..m) are no SGR.
    if (!std::all_of(p.begin(), p.end(),
                     [](char c) { return (c >= '0' && c <= '9') || c == ';' || c == ':'; })) {
        return false;
    }
    *params = p;
    return true;
}
} // namespace

ConsoleStyle applySgr(ConsoleStyle style, std::string_view params)
{
    // ';' and ':' both separate (ESC[38:5:208m is the ITU form of ESC[38;5;208m); an empty
    // parameter is 0.
    std::vector<int> v;
    for (std::size_t at = 0;;) {
        const std::size_t sep = params.find_first_of(";:", at);
        const std::string_view f =
            params.substr(at, sep == std::string_view::npos ? std::string_view::npos : sep - at);
        int n = 0;
        std::from_chars(f.data(), f.data() + f.size(), n);
        v.push_back(n);
        if (sep == std::string_view::npos) {
            break;
        }
        at = sep + 1;
    }
    for (std::size_t i = 0; i < v.size(); ++i) {
        const int n = v[i];
        if (n == 0) {
            style = ConsoleStyle();
        } else if (n == 1) {
            style.bold = true;
        } else if (n == 22) {
            style.bold = false;
        } else if (n >= 30 && n <= 37) {
            style.fg = {ConsoleColor::Indexed, std::uint32_t(n - 30)};
        } else if (n >= 90 && n <= 97) {
            style.fg = {ConsoleColor::Indexed, std::uint32_t(n - 90 + 8)};
        } else if (n == 39) {
            style.fg = ConsoleColor();
        } else if (n == 38 || n == 48) {
            // Extended colour: 5;N (256 colours) or 2;R;G;B. The background's (48) is
            // skipped with its arguments, never read as other attributes.
            ConsoleColor c;
            if (i + 2 < v.size() && v[i + 1] == 5) {
                c = {ConsoleColor::Indexed, std::uint32_t(std::clamp(v[i + 2], 0, 255))};
                i += 2;
            } else if (i + 4 < v.size() && v[i + 1] == 2) {
                auto b = [&](std::size_t k) { return std::uint32_t(std::clamp(v[k], 0, 255)); };
                c = {ConsoleColor::Rgb, b(i + 2) << 16 | b(i + 3) << 8 | b(i + 4)};
                i += 4;
            } else {
                break; // malformed: the rest of the sequence means nothing certain
            }
            if (n == 38) {
                style.fg = c;
            }
        }
        // Anything else (backgrounds, underline, blink, ...) leaves the text as it is.
    }
    return style;
}

bool hasControls(std::string_view line)
{
    return std::any_of(line.begin(), line.end(),
                       [](char c) { return isControl(static_cast<unsigned char>(c)); });
}

std::vector<ControlSpan> controlSpans(std::string_view line)
{
    std::vector<ControlSpan> out;
    for (std::size_t i = 0; i < line.size();) {
        const unsigned char c = static_cast<unsigned char>(line[i]);
        if (!isControl(c)) {
            ++i;
            continue;
        }
        const std::size_t end = c == 0x1b ? escapeEnd(line, i) : i + 1;
        out.push_back({i, end});
        i = end;
    }
    return out;
}

std::string printedText(std::string_view line)
{
    std::string out;
    out.reserve(line.size());
    std::size_t at = 0;
    for (const ControlSpan &s : controlSpans(line)) {
        out.append(line.substr(at, s.begin - at));
        at = s.end;
    }
    out.append(line.substr(at));
    return out;
}

std::vector<TextPiece> printedPieces(std::string_view line)
{
    std::vector<TextPiece> out;
    ConsoleStyle style;
    std::size_t at = 0;
    auto piece = [&](std::size_t end) {
        if (end > at) {
            out.push_back({at, end, style});
        }
    };
    for (const ControlSpan &s : controlSpans(line)) {
        piece(s.begin);
        std::string_view params;
        if (sgrParams(line.substr(s.begin, s.end - s.begin), &params)) {
            style = applySgr(style, params);
        }
        at = s.end;
    }
    piece(line.size());
    return out;
}

} // namespace tty
