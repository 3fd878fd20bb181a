// Crash titles by headline event (a binary search over each run's reports) and by count.
#include "crashtitles.h"

#include <QHash>

#include <algorithm>
#include <numeric>

namespace tty {

CrashTitles::CrashTitles(QVector<std::shared_ptr<const std::vector<Crash>>> perRun)
{
    QHash<QString, int> counts;
    for (std::shared_ptr<const std::vector<Crash>> &crashes : perRun) {
        RunCrashes rc;
        rc.crashes = std::move(crashes);
        if (rc.crashes) {
            const std::vector<Crash> &c = *rc.crashes;
            const bool inOrder =
                std::is_sorted(c.begin(), c.end(),
                               [](const Crash &a, const Crash &b) { return a.event < b.event; });
            if (!inOrder) {
                rc.byEvent.resize(c.size());
                std::iota(rc.byEvent.begin(), rc.byEvent.end(), std::uint32_t(0));
                std::stable_sort(
                    rc.byEvent.begin(), rc.byEvent.end(),
                    [&c](std::uint32_t a, std::uint32_t b) { return c[a].event < c[b].event; });
            }
            for (const Crash &crash : c) {
                ++counts[crash.title];
            }
        }
        m_runs.push_back(std::move(rc));
    }
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        m_counts.append({it.key(), it.value()});
    }
    std::sort(m_counts.begin(), m_counts.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
}

const Crash *CrashTitles::find(int run, std::size_t event) const
{
    if (run < 0 || std::size_t(run) >= m_runs.size() || !m_runs[std::size_t(run)].crashes) {
        return nullptr;
    }
    const RunCrashes &rc = m_runs[std::size_t(run)];
    std::size_t lo = 0, hi = rc.crashes->size();
    while (lo < hi) { // the first report whose headline event is not before `event`
        const std::size_t mid = lo + (hi - lo) / 2;
        if (rc.eventOf(mid) < event) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == rc.crashes->size() || rc.eventOf(lo) != event) {
        return nullptr;
    }
    return &(*rc.crashes)[rc.byEvent.empty() ? lo : rc.byEvent[lo]];
}

QString CrashTitles::titleOf(int run, std::size_t event) const
{
    const Crash *c = find(run, event);
    return c ? c->title : QString();
}

QVector<QPair<int, int>> CrashTitles::eventsOf(const QString &title) const
{
    QVector<QPair<int, int>> out;
    for (std::size_t r = 0; r < m_runs.size(); ++r) {
        const RunCrashes &rc = m_runs[r];
        if (!rc.crashes) {
            continue;
        }
        const std::size_t first = std::size_t(out.size());
        for (const Crash &c : *rc.crashes) {
            if (c.title == title) {
                out.append({int(r), int(c.event)});
            }
        }
        std::sort(out.begin() + qsizetype(first), out.end());
    }
    return out;
}

} // namespace tty
