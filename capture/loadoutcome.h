// How a load ended, as one value with the message beside it: the command line derives its
// exit status from it, the GUI its notices, the JSON report its "error" field, and tests
// assert it instead of matching text.
#pragma once

#include <QString>

namespace tty {

// In rising severity: of several loads (or several things that went wrong in one), the
// greater value is the one that counts (worse()).
enum class LoadOutcome {
    Complete,  // every byte was read
    Truncated, // the file ends early (cut zstd frame, cut recording record): read in part
    Damaged,   // reading stopped at damage (corrupt zstd, broken recording, read error)
    Cancelled, // the user stopped the load; what was read by then is kept
    Unreadable // nothing could be read (loadRun returned null; the message is its *error)
};

// The stable name of an outcome: complete, truncated, damaged, cancelled, unreadable.
const char *loadOutcomeName(LoadOutcome o);

constexpr LoadOutcome worse(LoadOutcome a, LoadOutcome b)
{
    return int(a) >= int(b) ? a : b;
}

// The exit status of a command for the worst outcome of its loads (docs/report.md):
// 0 complete, 3 read only in part (truncated, damaged, cancelled), 1 unreadable.
int exitStatus(LoadOutcome worst);

struct LoadStatus
{
    LoadOutcome outcome = LoadOutcome::Complete;
    // Why, for every outcome but Complete. For Damaged and Cancelled it also says that the
    // lines before were kept (the JSON report's "error"); for Truncated it is the warning
    // that is also among the run's warnings.
    QString message;

    bool complete() const { return outcome == LoadOutcome::Complete; }
    // Read only in part: some lines are there, some may be missing.
    bool readInPart() const
    {
        return outcome == LoadOutcome::Truncated || outcome == LoadOutcome::Damaged ||
               outcome == LoadOutcome::Cancelled;
    }
    // Reading stopped before the end of the input (damage or cancel): the message is the
    // run's error.
    bool stoppedEarly() const
    {
        return outcome == LoadOutcome::Damaged || outcome == LoadOutcome::Cancelled;
    }
    // Reading stopped (Damaged or Cancelled): replaces what was there, as the later and
    // more specific cause is the one to report.
    void stop(LoadOutcome why, const QString &text)
    {
        outcome = why;
        message = text;
    }
    // The input ended early: counts only when nothing worse happened.
    void truncate(const QString &text)
    {
        if (outcome == LoadOutcome::Complete) {
            outcome = LoadOutcome::Truncated;
            message = text;
        }
    }
};

} // namespace tty
