// Does a loaded run look like console text at all? A user who opened the wrong file (a
// binary, a disk image, a log with CR-only line ends) gets every byte loaded, and a
// warning saying why the timeline looks odd.
#pragma once

#include "linetable.h"

#include <QString>

#include <cstdint>

namespace tty {

struct TextShape
{
    std::int64_t sampled = 0;     // bytes of line text looked at (the first kSampleBytes)
    std::int64_t nonText = 0;     // of those, control bytes a console does not send, and
                                  // bytes that are not part of valid UTF-8
    std::int64_t longestLine = 0; // bytes, pieces of a line cut for length joined again
};

// Looks at the first few MiB of text (enough to tell, and cheap on a 1 GiB log) and at
// the length of every line.
TextShape textShape(const LineTable &lines);
// A warning when the shape is not that of console text, else empty.
QString textShapeWarning(const TextShape &shape);

} // namespace tty
