// The crash titles of the runs a view shows (the event list's titles and its "is it the
// same crash?" filter): found with the metrics, off the GUI thread, since a big log has
// 10^5 reports per GiB and counting their titles is a pass over all of them.
#pragma once

#include "crashes.h"

#include <QPair>
#include <QString>
#include <QVector>

#include <cstdint>
#include <memory>
#include <vector>

namespace tty {

class CrashTitles
{
public:
    CrashTitles() = default;
    // Per run (in the view's order): its crash reports; null: not known.
    explicit CrashTitles(QVector<std::shared_ptr<const std::vector<Crash>>> perRun);

    // The title of the report whose headline is event `event` of run `run`; empty if none.
    QString titleOf(int run, std::size_t event) const;
    // Every title with its count over all runs, most frequent first, then by title.
    const QVector<QPair<QString, int>> &counts() const { return m_counts; }
    // The headline events (run, event index) of a title's reports, by run then event.
    QVector<QPair<int, int>> eventsOf(const QString &title) const;
    int runCount() const { return int(m_runs.size()); }

private:
    struct RunCrashes
    {
        std::shared_ptr<const std::vector<Crash>> crashes;
        // Indices into *crashes by headline event, when the reports are not in event
        // order already (they are, as findCrashes gives them); empty: in order.
        std::vector<std::uint32_t> byEvent;
        std::size_t eventOf(std::size_t i) const
        {
            return (*crashes)[byEvent.empty() ? i : byEvent[i]].event;
        }
    };
    const Crash *find(int run, std::size_t event) const;

    std::vector<RunCrashes> m_runs;
    QVector<QPair<QString, int>> m_counts;
};

} // namespace tty
