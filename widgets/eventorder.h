// The order of the event list's rows by one column (EventModel::sort). A big log has 10^6
// events and more, so the order is computed from one 32-byte key per row, never a QString:
// a row's text is its first 32 printed bytes, and only rows whose 32 bytes are equal are
// compared in full. Thread-agnostic: it reads the runs under their read locks, so the list
// can be sorted on a worker while a live run grows.
#pragma once

#include "timelinedata.h"

#include <QVector>

#include <atomic>
#include <utility>
#include <vector>

namespace tty {

using EventRef = std::pair<int, int>; // (run, event index)

enum class EventSortKey {
    Run,     // the run's label
    Kind,    // the kind's name, then the event's count
    Arrival, // the time axis (x) of the event's arrival; none: last
    Kernel,  // the kernel time of its line; none (a note, an untimed line): last
    Text,    // the printed text (escape sequences left out), bytewise: code point order
};

// `rows` stably sorted by the key: equal keys keep their order, rows without a value go
// last in either direction. Returns the rows unsorted when `cancel` is set meanwhile.
std::vector<EventRef> orderEvents(std::vector<EventRef> rows, const QVector<TimelineRun> &runs,
                                  EventSortKey key, bool ascending,
                                  const std::atomic<bool> *cancel = nullptr);

// `sorted` (in orderEvents' order by this key, its rows given in (run, event) order) with
// `added` (rows not in it) put in their places: the order orderEvents gives all of them,
// without sorting `sorted` again. A live run's growth costs the added rows' sort and a
// binary search for each, not a sort of the whole list. On the thread that grows the runs.
std::vector<EventRef> mergeEvents(const std::vector<EventRef> &sorted, std::vector<EventRef> added,
                                  const QVector<TimelineRun> &runs, EventSortKey key,
                                  bool ascending);

} // namespace tty
