// Bounds the cost of a user's regex. It runs once per console line, and one with nested
// quantifiers ((a+)+$ on a line of a's) backtracks for seconds per line: a report on a
// 2000-line log took 85 s. PCRE2's match limit, lowered by a (*LIMIT_MATCH=) prefix, stops
// such a match; Qt then returns a match that is not valid (isValid() false), which the
// matchers note here, give the regex up for the rest of the pass, and the commands report.
#pragma once

#include <QString>
#include <QStringList>

namespace tty {

// Steps of PCRE2's backtracking per match: far beyond what a regex that is fit for console
// lines (at most a few KiB) needs, and a few milliseconds of work.
constexpr int kRegexMatchLimit = 1000000;

// The pattern to compile for a user's regex.
QString limitedPattern(const QString &pattern);
// A regex ran past the limit on some line (thread-safe).
void noteRegexOverLimit(const QString &pattern);
// The regexes that ran past the limit since the last call, in the order first seen.
QStringList takeRegexesOverLimit();
// The message a command prints for one of them.
QString regexOverLimitMessage(const QString &pattern);

} // namespace tty
