// The event list's model: every detected event of the runs shown (kind, arrival, kernel
// time, text), filtered and sorted without a proxy (10^6 rows in a big log).
#pragma once

#include "backgroundtask.h"
#include "crashtitles.h"
#include "eventorder.h"
#include "timelineview.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace tty {

// The events of the runs shown. A big log has 10^6 of them, so the model holds no row of
// its own while they are shown all and in order (a row is an offset into a run's events),
// and filters and sorts itself: a proxy model would map every row whenever the runs came.
class EventModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { RunCol, Kind, Arrival, Kernel, Text, ColumnCount };
    enum Roles { RunRole = Qt::UserRole + 1, EventRole, KindRole, TitleRole };
    explicit EventModel(QObject *parent = nullptr);
    ~EventModel() override;
    // The crash titles of the runs before are kept when the runs are the same (a live run
    // that grew: then it returns true); else there are none until setCrashTitles.
    bool setRuns(const QVector<TimelineRun> &runs);
    // The runs' crash titles (found with the metrics, off the GUI thread), in setRuns' order.
    void setCrashTitles(std::shared_ptr<const CrashTitles> titles);
    // Only events of a kind (its name), or with "title:TITLE" the crashes of one title;
    // "" shows all.
    void setFilter(const QString &filter);
    QString filter() const { return m_filter; }
    // Column -1 restores the events' own order. A list of kBackgroundSortRows rows or more
    // is sorted on a worker (by text, a big log's takes seconds: its lines are decoded):
    // it keeps its order until the new one is there, then changes at once.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    static constexpr int kBackgroundSortRows = 50000;
    // The rows are in the order of this column (-1: the events' own order), no sort pending.
    bool isSortedBy(int column) const { return m_sortColumn == column && !isSorting(); }
    bool isSorting() const { return m_sortTask.isPending(); }
    // Waits for a sort on a worker and takes its order (tests, exports).
    void waitForSort();

    // The row showing an event, -1 when it is filtered out.
    int rowOf(int run, int event) const;
    // The Text column of these rows, as data() shows it. Their lines are read in line
    // order, each piece of a run's text decoded once: a list sorted by text has its rows'
    // lines out of order, and reading them row by row decoded a piece per row (copying
    // 10^5 rows took minutes).
    QStringList texts(const std::vector<int> &rows) const;
    // What the run column shows of each run's label (the whole label is its tooltip).
    const QStringList &runColumnLabels() const { return m_runColumnLabels; }
    // Events of each kind over all runs.
    QVector<int> kindCounts() const;
    // Crash titles with their count over all runs, most frequent first.
    QVector<QPair<QString, int>> crashTitles() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

signals:
    // A sort on a worker started (true) or ended (false).
    void sortingChanged(bool sorting);

private:
    EventRef eventAt(int row) const;
    // The rows showing these events (-1: filtered out), in one pass over the rows when
    // there are many: rowOf searches them all for each.
    std::vector<int> rowsOf(const std::vector<EventRef> &events) const;
    // The rows of the filter in the events' order, then sorted by the sort column: at once,
    // or (OnAWorker, a big list) by sortAgainIfAsked() on a worker.
    enum class Sorting { AtOnce, OnAWorker };
    void listRows(Sorting sorting);
    // With `from`, only the events at or after from[run] of each run.
    std::vector<EventRef> filteredRows(const std::vector<std::size_t> *from = nullptr) const;
    // Per run, the events a live run's growth leaves as they are: those before its last
    // line, which may still be completed (LiveRun::stableEvents); events are in line order.
    std::vector<std::size_t> stableEvents() const;
    // `rows`, listed when the runs' events [0, stable) were as they are now, brought up to
    // the runs' events now: rows of events after those dropped, the filter's events after
    // those put in their places of the order by `column` (-1: the events' own order).
    std::vector<EventRef> withGrowth(std::vector<EventRef> rows,
                                     const std::vector<std::size_t> &stable, int column,
                                     Qt::SortOrder order) const;
    // Sets the rows of a new order (and with NoLayoutChangeHint new rows), keeping the
    // persistent indexes on their events.
    void reorder(const std::function<void()> &change,
                 QAbstractItemModel::LayoutChangeHint hint = QAbstractItemModel::VerticalSortHint);
    void onSortDone();
    // After the rows were listed again: a sort asked for and still on a worker (it sorts
    // the old rows) starts again on the new ones.
    void sortAgainIfAsked();
    QString titleOf(int run, int event) const;

    // Its events, [first, end) of run->events: a boot's when the run is a boot trial.
    std::size_t firstEvent(int run) const { return m_firstEvent[std::size_t(run)]; }
    std::size_t endEvent(int run) const;

    QVector<TimelineRun> m_runs;
    // Per run: its label without what all labels share (runlabels.h), the run column's
    // text (two file names of one test, elided in a narrow column, read alike).
    QStringList m_runColumnLabels;
    std::vector<std::size_t> m_firstEvent;              // per run (see firstEvent)
    std::vector<std::optional<std::size_t>> m_endEvent; // per run; none: all (a live run grows)
    std::vector<int> m_firstRow; // per run and one past: its first event's row when all show
    QString m_filter;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    bool m_listed = false; // a filter or a sort: the rows are m_rows
    std::vector<EventRef> m_rows;
    // m_rows wait in the events' order for a sort by m_sortColumn on a worker (listRows).
    bool m_rowsInEventsOrder = false;
    std::vector<std::size_t> m_stable; // stableEvents() when the runs were last set
    std::shared_ptr<const CrashTitles> m_titles;
    // The sort on a worker: the order it computed, for the listing it was started on.
    struct SortResult
    {
        std::uint64_t listing = 0;
        int column = -1;
        Qt::SortOrder order = Qt::AscendingOrder;
        std::vector<EventRef> rows;
        std::vector<std::size_t> stable; // m_stable when its rows were listed
    };
    std::uint64_t m_listing = 0; // changes whenever a sort is asked for
    std::optional<std::pair<int, Qt::SortOrder>> m_requested; // the sort on a worker
    std::shared_ptr<std::atomic<bool>> m_cancelSort;
    BackgroundTask<std::shared_ptr<const SortResult>> m_sortTask;
};

} // namespace tty
