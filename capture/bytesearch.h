// Substring search over large regions of console text (metric patterns, log search).
#pragma once

#include <cstddef>
#include <string_view>

namespace tty {

// The first occurrence of `needle` in [hay, hay + n), or null. Compares the needle's first
// and last bytes 16 or 32 positions at a time, which runs several times faster than
// glibc's memmem on console text, where no byte of a pattern is rare.
const char *findBytes(const char *hay, std::size_t n, std::string_view needle);

} // namespace tty
