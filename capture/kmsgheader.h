// The header the kernel puts before a record in /dev/kmsg and in netconsole's extended form
// (netconsole with '+', or its target's `extended` set to 1):
//   [<release>,]<prefix>,<sequence>,<microseconds>,<flag>[,<key>=<value>...];<text>
// e.g. "6,416,1758426,-;text", "6.12.0,6,416,1758426,-;text" (netconsole's `release`
// option), "4,1200,5012345,-,caller=T1;text" (CONFIG_PRINTK_CALLER in /dev/kmsg) and
// "6,416,1758426,-,ncfrag=0/1900;text" (a record longer than netconsole's 1000 bytes, sent in
// fragments). The prefix is facility * 8 + level; the sequence numbers records one by one.
#pragma once

#include "kernelprefix.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace tty {

struct KmsgHeader
{
    int level = 0; // the prefix's syslog level (0..7)
    std::uint64_t sequence = 0;
    // As written (up to 18 digits): a kmsg file's time past any uptime is placed at the
    // timeline's limit with a warning (RunBuilder); a line's is no time (kernelprefix.h).
    KernelUs time;
    std::optional<Caller> caller; // ",caller=T123"
    bool fragment = false;        // ",ncfrag=OFFSET/TOTAL": a piece of a longer record
    bool release = false;         // the kernel's release in front: netconsole's, not kmsg's
    std::size_t message = 0;      // where the text starts, after the ';'
};

// The header at the start of `line`; nullopt when the line does not start with one.
// Strict, since console text is tried against it: digits where digits go (no more than an
// int64 holds), one of the kernel's flags, the fields before ';' within 128 bytes.
std::optional<KmsgHeader> parseKmsgHeader(std::string_view line);

// A line of a record's dictionary, which the kernel sends after the record's text in
// netconsole's extended form (" SUBSYSTEM=pci", " DEVICE=+pci:0000:00:01.0", a target's
// userdata " key=value"): one space, a key, '='. The serial console prints none of it.
bool isRecordDictionaryLine(std::string_view line);

// Follows the sequence numbers of the records in order: how many records were lost before
// one. A number at or below the last is no loss (a fragment of the same record, the log
// replayed when a netconsole target is enabled, a board that rebooted).
class KmsgSequence
{
public:
    // The records lost before `sequence` (0: none), and it becomes the last.
    std::uint64_t lostBefore(std::uint64_t sequence)
    {
        const std::optional<std::uint64_t> last = m_last;
        m_last = sequence;
        return last && sequence > *last + 1 ? sequence - *last - 1 : 0;
    }
    std::optional<std::uint64_t> last() const { return m_last; }

private:
    std::optional<std::uint64_t> m_last;
};

} // namespace tty
