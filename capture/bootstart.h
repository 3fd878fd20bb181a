// Where a boot's own bytes begin on the host clock. A login prompt ends without a
// newline, so when a board is power-cycled at its prompt, the next system's first bytes
// (its kernel's, or its firmware's) end the prompt's line: "corpusvm login: [
// 0.000000] Linux version ...", "corpusvm login: ESC c ... SeaBIOS (version ...". That
// line is the new boot's first, and its arrival is the prompt's first byte, maybe minutes
// before the new system printed anything.
#pragma once

#include "run.h"

#include <QString>

#include <cstddef>

namespace tty {

// The length of the old system's prompt in front of `line` when `line` is its boot's
// first line and carries a login prompt before the new system's first output: before its
// timestamp when it is the boot's first kernel line, or before the firmware output found
// after the prompt (a power-cycled board's terminal reset, "corpusvm login: ESC c ...
// SeaBIOS"); 0 otherwise.
std::size_t promptBeforeBoot(const Run &run, LineIndex line);

// The line whose arrival stands for `line`'s own bytes in host-time figures and pictures
// that start there (a window, a duration, an alignment, an event): its own, except for a
// line with the system before's prompt in front (promptBeforeBoot), whose arrival is the
// prompt's: then the next line's, the first known arrival of the boot's own bytes, which
// came at most that line's transmission after them. Only a next line before `end` and in
// the same boot stands in.
LineIndex arrivalStandIn(const Run &run, LineIndex line, LineIndex end);

// Whether `line`'s time is only when its end arrived and its text may have come long
// before: in a run stamped at line ends (Run::arrivalIsLineEnd), a last line without a
// newline, which ts stamped when the input ended. Its first byte's time is not known.
bool onlyEndKnown(const Run &run, LineIndex line);

// In a run stamped at line ends, when the text in front on `line` (a login prompt) was
// seen: the first input sent to the console while the line was open (LAVA types the user
// name once it has read the prompt), which came after it; none without one.
std::optional<HostNs> frontAnswered(const Run &run, LineIndex line);

// When `line`'s kernel text (its timestamp and message) arrived on the host clock. That is
// the line's arrival, except on a line with other text before the timestamp, which came
// first: a boot loader's ("Probing EDD (edd=off to disable)... o ESC c [    0.000000]
// Linux version" arrives 3.4 s before the banner on the real captures), a prompt's, a
// shell's. Those bytes came no earlier than the line's first byte and than their own
// production time, and no later than the next line's first byte; the estimate is the next
// line's arrival less the kernel time between the two (a burst: about the next line's
// arrival; a quiet spell after the line: about its production), kept within those
// bounds. A line without a kernel time: arrivalStandIn's line's arrival. In a run stamped
// at line ends, the kernel text is the line's end: its stamp (none if onlyEndKnown).
std::optional<HostNs> kernelTextArrival(const Run &run, LineIndex line);

// Whether a user's pattern matches the text in front of `line`'s own: before its timestamp
// when that is behind other text, or the system before's prompt in front of firmware
// output (promptBeforeBoot). That text has no kernel time and came with the line's first
// byte. The matcher is only built for such lines.
bool matchInFront(const Run &run, LineIndex line, const QString &pattern);

// When the text a user's pattern found on `line` arrived: the line's arrival when the
// pattern matches the text in front of the line's timestamp (or of the output glued
// behind the system before's prompt), else kernelTextArrival (or arrivalStandIn's within
// `end`, for firmware glued behind a prompt). The matcher is only built for such lines. In
// a run stamped at line ends, a match in front has no known time, nor one on a line that
// onlyEndKnown.
std::optional<HostNs> matchArrival(const Run &run, LineIndex line, const QString &pattern,
                                   LineIndex end);

} // namespace tty
