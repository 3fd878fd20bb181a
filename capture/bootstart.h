// Where a boot's own bytes begin on the host clock. A login prompt ends without a
// newline, so when a board is power-cycled at its prompt, the next system's first bytes
// (its kernel's, or its firmware's) end the prompt's line: "corpusvm login: [
// 0.000000] Linux version ...", "corpusvm login: ESC c ... SeaBIOS (version ...". That
// line is the new boot's first, and its arrival is the prompt's first byte, maybe minutes
// before the new system printed anything.
#pragma once

#include "run.h"

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

} // namespace tty
