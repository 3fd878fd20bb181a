// All lines of a run that match a pattern (the log view's search and filter): the literal
// every match must contain is found in bulk over the text, the regex runs only on the
// lines holding it, and a big run is searched in slices at once.
#pragma once

#include "run.h"

#include <QString>

#include <atomic>
#include <memory>
#include <vector>

namespace tty {

// What a pattern is matched against: the bytes as received (pattern lanes), or the text
// as a terminal prints it, without escape sequences (the log view's search and filter).
enum class MatchText { Bytes, Printed };

// The matching lines in order; null when `cancel` was set before the search ended (a new
// search replaces this one) or the pattern is not a valid regex.
std::shared_ptr<std::vector<LineIndex>> findMatchingLines(const Run &run, const QString &pattern,
                                                          const std::atomic<bool> *cancel,
                                                          MatchText on = MatchText::Bytes);

} // namespace tty
