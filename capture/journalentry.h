// A systemd journal entry as journalctl writes it out (-o json, -o export), and how it
// becomes console lines. The clocks (systemd.journal-fields(7)):
//  - __REALTIME_TIMESTAMP: when journald processed the entry, on the host's wall clock (µs
//    since the epoch). journald read the message from the kernel's log, not from a
//    console: it is no arrival time and is not used (journaldTimesWarning);
//  - _SOURCE_MONOTONIC_TIMESTAMP (and _SOURCE_BOOTTIME_TIMESTAMP, its newer name) of a
//    kernel entry: the kernel's own printk timestamp (µs since boot): its kernel time;
//  - __MONOTONIC_TIMESTAMP: journald's monotonic clock at receipt. It is neither of the two
//    above (it is not the kernel's time of the message), so it is not used.
#pragma once

#include "types.h"

#include <QString>

#include <optional>
#include <string>
#include <string_view>

namespace tty {

class Run;
class RunBuilder;

struct JournalEntry
{
    std::optional<std::string> message; // MESSAGE; none: the entry has no MESSAGE
    bool messageOmitted = false;        // MESSAGE was null: journalctl left it out (≥ 4096 B)
    std::optional<std::string> realtime, sourceMonotonic, priority, identifier, pid, transport;
    void clear() { *this = JournalEntry{}; }
};

// Says that `lines` lines had journald's time of receipt, and that it is not used.
QString journaldTimesWarning(std::int64_t lines);

// Turns entries into console lines and counts what it could not use, for the warnings.
class JournalLines
{
public:
    JournalLines(Run &run, RunBuilder &builder) : m_run(run), m_b(builder) {}
    void entry(const JournalEntry &e);
    // A line of the file that is not an entry, kept as console text (without a time).
    void notAnEntry(std::string_view text, std::uint16_t flags, const std::string &why);
    // Adds the warnings.
    void finish();

    // The console text of an entry: a kernel entry's message as the kernel printed it
    // (journald split "name[pid]: " off the text of user-space writes to /dev/kmsg), other
    // entries' messages behind their syslog identifier, as journalctl shows them.
    static std::string consoleText(const JournalEntry &e);

private:
    Run &m_run;
    RunBuilder &m_b;
    std::int64_t m_noMessage = 0, m_omitted = 0, m_withRealtime = 0, m_badMonotonic = 0;
    std::int64_t m_notEntries = 0;
    std::string m_firstWhy;
};

} // namespace tty
