// Console text as a terminal prints it: serial consoles carry escape sequences (`ESC c`
// from firmware, `ESC[?7l`, `ESC[2J`, SGR colours) and control characters that a
// terminal acts on and never shows. The log view shows and searches this printed text,
// in the colours SGR sequences give it; the bytes in the run (and `ttyscope cat`) stay
// exactly as received.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tty {

// A stretch of the line that is an escape sequence or a control character (not printed).
struct ControlSpan
{
    std::size_t begin = 0, end = 0; // byte offsets in the line, end exclusive
};

// A foreground colour as SGR sets it (ESC[31m, ESC[38;5;208m, ESC[38;2;255;128;0m).
struct ConsoleColor
{
    enum Kind : std::uint8_t { Default, Indexed, Rgb };
    Kind kind = Default;
    // Indexed: 0..7 the normal colours, 8..15 the bright ones, 16..255 the xterm cube and
    // greys; Rgb: 0xRRGGBB.
    std::uint32_t value = 0;
    bool operator==(const ConsoleColor &o) const { return kind == o.kind && value == o.value; }
};

// What SGR sets for the text after it. Background colours are left out on purpose: a
// log view row keeps the theme's background, so that every line stays readable.
struct ConsoleStyle
{
    ConsoleColor fg;
    bool bold = false;
    bool plain() const { return fg.kind == ConsoleColor::Default && !bold; }
    bool operator==(const ConsoleStyle &o) const { return fg == o.fg && bold == o.bold; }
};

// A printed stretch of a line (between two control spans) and the style it is printed in.
struct TextPiece
{
    std::size_t begin = 0, end = 0; // byte offsets in the line, end exclusive
    ConsoleStyle style;
};

// True when the line holds a byte a terminal would not print (C0 controls but tab, DEL).
bool hasControls(std::string_view line);
// The escape sequences and control characters of a line, in order. A sequence cut off by
// the end of the line runs to the end.
std::vector<ControlSpan> controlSpans(std::string_view line);
// The line without them: what a terminal prints.
std::string printedText(std::string_view line);
// The printed stretches of a line in order, each with the style the SGR sequences before
// it set (a line starts plain: the log view does not carry colour from line to line).
// Empty stretches are left out; their concatenation is printedText(line).
std::vector<TextPiece> printedPieces(std::string_view line);
// The style after one SGR sequence's parameters ("1;31", "38;5;208", "" = reset).
ConsoleStyle applySgr(ConsoleStyle style, std::string_view params);

} // namespace tty
