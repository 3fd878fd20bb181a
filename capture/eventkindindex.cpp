// Events by kind in arrival order: one pass, then a sort only for a kind left out of order.
#include "eventkindindex.h"

#include <algorithm>
#include <numeric>

namespace tty {

void EventKindIndex::build(const std::vector<Event> &events,
                           const std::vector<std::optional<RunSeconds>> &times)
{
    for (Kind &k : m_kinds) {
        k = Kind{};
    }
    m_total = events.size();
    for (std::size_t i = 0; i < events.size(); ++i) {
        Kind &k = m_kinds[std::size_t(events[i].kind)];
        ++k.count;
        if (i < times.size() && times[i]) {
            k.seconds.push_back(times[i]->count());
            k.events.push_back(int(i));
        }
    }
    // Events come in line order, which is arrival order except for notes with times of
    // their own (recorded markers): a kind is sorted only when those left it out of order.
    for (Kind &k : m_kinds) {
        if (std::is_sorted(k.seconds.begin(), k.seconds.end())) {
            continue;
        }
        std::vector<std::size_t> order(k.seconds.size());
        std::iota(order.begin(), order.end(), std::size_t(0));
        std::stable_sort(order.begin(), order.end(), [&k](std::size_t a, std::size_t b) {
            return k.seconds[a] < k.seconds[b];
        });
        Kind sorted;
        sorted.count = k.count;
        sorted.seconds.reserve(order.size());
        sorted.events.reserve(order.size());
        for (const std::size_t o : order) {
            sorted.seconds.push_back(k.seconds[o]);
            sorted.events.push_back(k.events[o]);
        }
        k = std::move(sorted);
    }
}

} // namespace tty
