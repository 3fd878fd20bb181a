// The events of each kind in arrival order, for the views that draw or count them (the
// timeline's event lane, the event list's filter). Run::finalize builds it, on the
// loader's thread for a loaded run, so that the GUI thread never walks the 10^6 events of
// a big log when it shows one.
#pragma once

#include "event.h"
#include "types.h"

#include <array>
#include <cstddef>
#include <optional>
#include <vector>

namespace tty {

class EventKindIndex
{
public:
    struct Kind
    {
        std::vector<double> seconds; // run seconds of the events with an arrival, sorted
        std::vector<int> events;     // their indices in Run::events, in the same order
        std::size_t count = 0;       // every event of the kind, with an arrival or not
    };

    // From a run's events and their arrival times (run seconds; none without one).
    void build(const std::vector<Event> &events,
               const std::vector<std::optional<RunSeconds>> &times);

    const Kind &of(EventKind kind) const { return m_kinds[std::size_t(kind)]; }
    std::size_t count(EventKind kind) const { return of(kind).count; }
    // The events it was built from (a live run may have more by now).
    std::size_t total() const { return m_total; }

private:
    std::array<Kind, kEventKindCount> m_kinds;
    std::size_t m_total = 0;
};

} // namespace tty
