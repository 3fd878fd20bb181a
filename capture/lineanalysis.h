// What a console line's own text says — its kernel prefix, level and events — apart from
// when it arrived. Pure functions, shared by the sequential RunBuilder and the block
// parser that works on many blocks at once.
#pragma once

#include "event.h"
#include "rules.h"
#include "types.h"

#include <string_view>
#include <vector>

namespace tty {

struct LineFacts
{
    std::optional<KernelUs> kernel;
    std::uint16_t flags = 0; // LineFlag bits, the level included
    std::size_t message = 0; // where the message starts, after the prefix
    std::size_t front = 0;   // other text in front of a kernel timestamp (KernelTimeNotAtStart)
    // The record's number, when the line has a record header (netconsole's extended form):
    // a gap in the numbers is records lost on the way (KmsgSequence).
    std::optional<std::uint64_t> sequence;
    // A record longer than one of netconsole's datagrams: its fragments, glued on one line,
    // hold the later fragments' headers inside the text.
    bool fragment = false;
};

// `kernel`/`level` override the parsed prefix (kmsg records carry them outside the text);
// without parsePrefix they are taken as given, and the message starts at `message` (a
// caller id "[  T12] " the record left in the text).
LineFacts analyseLine(std::string_view text, std::uint16_t flags,
                      std::optional<KernelUs> kernel = std::nullopt,
                      std::optional<int> level = std::nullopt, bool parsePrefix = true,
                      std::size_t message = 0);

// Where the text after a login prompt in `text` starts ("corpusvm login: " and the
// spaces after it), when something follows the prompt; 0 without a prompt or with nothing
// after it.
std::size_t promptEnd(std::string_view text);

// Appends the events the rules find in the line, also those of line-anchored rules in
// the text after a login prompt on a line without a kernel prefix (promptEnd). `front`
// (LineFacts::front) or, on such a line, the prompt is the text in front: an event
// matched in it is marked Event::inFront.
void detectEvents(const RuleSet &rules, std::string_view text, const LineFacts &facts,
                  LineIndex line, std::vector<Event> *out);

} // namespace tty
