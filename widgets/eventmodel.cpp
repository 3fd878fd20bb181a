#include "eventmodel.h"

#include "crashes.h"
#include "eventorder.h"
#include "logmodel.h"
#include "palette.h"
#include "runlabels.h"
#include "textreader.h"

#include <QCoreApplication>
#include <QPixmap>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <tuple>

namespace tty {

namespace {
EventSortKey sortKeyOf(int column)
{
    switch (column) {
    case EventModel::RunCol:
        return EventSortKey::Run;
    case EventModel::Kind:
        return EventSortKey::Kind;
    case EventModel::Arrival:
        return EventSortKey::Arrival;
    case EventModel::Kernel:
        return EventSortKey::Kernel;
    default:
        return EventSortKey::Text;
    }
}
} // namespace

EventModel::EventModel(QObject *parent) : QAbstractTableModel(parent)
{
    connect(m_sortTask.watcher(), &QFutureWatcherBase::finished, this, &EventModel::onSortDone);
}

EventModel::~EventModel()
{
    if (m_cancelSort) {
        m_cancelSort->store(true);
    }
}

bool EventModel::setRuns(const QVector<TimelineRun> &runs)
{
    bool sameRuns = runs.size() == m_runs.size();
    for (int r = 0; sameRuns && r < runs.size(); ++r) {
        sameRuns = runs[r].run == m_runs[r].run && runs[r].firstLine == m_runs[r].firstLine &&
                   runs[r].endLine == m_runs[r].endLine;
    }
    auto takeRuns = [&] {
        m_runs = runs;
        QStringList labels;
        for (const TimelineRun &tr : runs) {
            labels << tr.label;
        }
        m_runColumnLabels = distinctParts(labels);
        m_firstEvent.clear();
        m_endEvent.clear();
        m_firstRow.assign(1, 0);
        for (int r = 0; r < runs.size(); ++r) {
            m_firstEvent.push_back(runs[r].firstEvent());
            m_endEvent.push_back(runs[r].endLine ? std::optional(runs[r].endEvent())
                                                 : std::nullopt);
            m_firstRow.push_back(m_firstRow.back() + int(endEvent(r) - firstEvent(r)));
        }
    };
    if (!sameRuns) {
        beginResetModel();
        takeRuns();
        m_titles.reset();
        listRows(Sorting::OnAWorker);
        m_stable = stableEvents();
        endResetModel();
        sortAgainIfAsked();
        return false;
    }
    // A live run that grew: the rows keep their order and the new events are put in their
    // places, which costs the GUI thread a binary search per new row, not a sort of 10^6.
    // A sort running on a worker goes on: its rows are brought up to date when it is done
    // (restarted on each growth, it would never end). A new layout, not a reset, so that
    // the current row and the selection stay on their events while the capture runs.
    reorder(
        [&] {
            takeRuns();
            if (m_listed) {
                m_rows = withGrowth(std::move(m_rows), m_stable,
                                    m_rowsInEventsOrder ? -1 : m_sortColumn, m_sortOrder);
            }
            m_stable = stableEvents();
        },
        QAbstractItemModel::NoLayoutChangeHint);
    return true;
}

void EventModel::setCrashTitles(std::shared_ptr<const CrashTitles> titles)
{
    const bool titleFilter = m_filter.startsWith(QLatin1String("title:"));
    if (titleFilter) {
        beginResetModel();
    }
    m_titles = std::move(titles);
    if (titleFilter) {
        listRows(Sorting::OnAWorker); // the rows of the title filter are the titles' events
        endResetModel();
        sortAgainIfAsked();
    } else if (rowCount() > 0) {
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    }
}

void EventModel::setFilter(const QString &filter)
{
    if (filter == m_filter) {
        return; // listing 10^6 events of a big log again takes a while
    }
    beginResetModel();
    m_filter = filter;
    listRows(Sorting::OnAWorker);
    endResetModel();
    sortAgainIfAsked();
}

void EventModel::sort(int column, Qt::SortOrder order)
{
    if (column >= ColumnCount || (column < 0 && m_sortColumn < 0 && !isSorting())) {
        return;
    }
    if (m_cancelSort) {
        m_cancelSort->store(true);
    }
    ++m_listing; // a sort still running is for an order no longer asked for
    // The filter's rows, listed already when they wait in the events' order for this sort.
    std::vector<EventRef> rows = column < 0            ? std::vector<EventRef>()
                                 : m_rowsInEventsOrder ? m_rows
                                                       : filteredRows();
    if (rows.size() < std::size_t(kBackgroundSortRows)) {
        m_requested.reset();
        reorder([&] {
            m_sortColumn = column;
            m_sortOrder = order;
            if (column < 0) {
                listRows(Sorting::AtOnce); // the filter's rows in the events' order
            } else {
                m_listed = true; // the rows listed above, not listed again
                m_rows = orderEvents(std::move(rows), m_runs, sortKeyOf(column),
                                     order == Qt::AscendingOrder);
                m_rowsInEventsOrder = false;
            }
        });
        return;
    }
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancelSort = cancel;
    m_requested = {column, order};
    emit sortingChanged(true);
    m_sortTask.start([rows = std::move(rows), runs = m_runs, listing = m_listing, column, order,
                      stable = m_stable, cancel]() mutable -> std::shared_ptr<const SortResult> {
        auto r = std::make_shared<SortResult>();
        r->listing = listing;
        r->column = column;
        r->order = order;
        r->stable = std::move(stable);
        r->rows = orderEvents(std::move(rows), runs, sortKeyOf(column), order == Qt::AscendingOrder,
                              cancel.get());
        return r;
    });
}

void EventModel::sortAgainIfAsked()
{
    if (m_requested) {
        const auto [column, order] = *m_requested;
        sort(column, order);
    }
}

void EventModel::onSortDone()
{
    emit sortingChanged(false);
    const std::optional<std::shared_ptr<const SortResult>> done = m_sortTask.result();
    if (!done || !*done || (*done)->listing != m_listing) {
        return; // cancelled, or the rows were listed again meanwhile
    }
    const SortResult &r = **done;
    m_requested.reset();
    reorder([&] {
        m_sortColumn = r.column;
        m_sortOrder = r.order;
        m_rows = withGrowth(r.rows, r.stable, r.column, r.order); // a live run grew meanwhile
        m_rowsInEventsOrder = false;
        m_listed = true;
    });
}

void EventModel::waitForSort()
{
    m_sortTask.waitForFinished();
    if (m_sortTask.isPending()) {
        QCoreApplication::sendPostedEvents(m_sortTask.watcher());
    }
}

void EventModel::reorder(const std::function<void()> &change,
                         QAbstractItemModel::LayoutChangeHint hint)
{
    emit layoutAboutToBeChanged({}, hint);
    const QModelIndexList before = persistentIndexList();
    std::vector<EventRef> refs;
    for (const QModelIndex &i : before) {
        refs.push_back(eventAt(i.row()));
    }
    change();
    const std::vector<int> rows = rowsOf(refs);
    QModelIndexList after;
    for (int k = 0; k < before.size(); ++k) {
        const int row = rows[std::size_t(k)];
        after.append(row < 0 ? QModelIndex() : index(row, before[k].column()));
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, hint);
}

EventRef EventModel::eventAt(int row) const
{
    if (m_listed) {
        return m_rows[std::size_t(row)];
    }
    // The run whose rows hold `row`: the last with its first row at or before it.
    const auto it = std::upper_bound(m_firstRow.begin(), m_firstRow.end(), row);
    const int run = int(it - m_firstRow.begin()) - 1;
    return {run, int(firstEvent(run)) + row - m_firstRow[std::size_t(run)]};
}

std::size_t EventModel::endEvent(int run) const
{
    const std::optional<std::size_t> &end = m_endEvent[std::size_t(run)];
    return end ? *end : m_runs[run].run->events.size();
}

int EventModel::rowOf(int run, int event) const
{
    if (run < 0 || run >= m_runs.size() || event < int(firstEvent(run)) ||
        event >= int(endEvent(run))) {
        return -1;
    }
    if (!m_listed) {
        return m_firstRow[std::size_t(run)] + event - int(firstEvent(run));
    }
    const auto it = std::find(m_rows.begin(), m_rows.end(), EventRef(run, event));
    return it == m_rows.end() ? -1 : int(it - m_rows.begin());
}

std::vector<int> EventModel::rowsOf(const std::vector<EventRef> &events) const
{
    std::vector<int> rows(events.size(), -1);
    // A selection keeps a persistent index per selected row through a new layout: 10^5 of
    // them, each searched for in 10^6 rows, would hold the GUI thread for minutes.
    constexpr std::size_t kSearchedOneByOne = 16;
    if (!m_listed || events.size() <= kSearchedOneByOne) {
        for (std::size_t k = 0; k < events.size(); ++k) {
            rows[k] = rowOf(events[k].first, events[k].second);
        }
        return rows;
    }
    // Per run, the row of each of its events (a boot trial's only: 10^3 boot trials of
    // one run must not each take a table of all its events).
    std::vector<std::vector<int>> rowOfEvent(std::size_t(m_runs.size()));
    for (int run = 0; run < m_runs.size(); ++run) {
        rowOfEvent[std::size_t(run)].assign(endEvent(run) - firstEvent(run), -1);
    }
    auto slot = [&](const EventRef &e) -> int * {
        const auto [run, event] = e;
        if (run < 0 || std::size_t(run) >= rowOfEvent.size() || event < int(firstEvent(run)) ||
            std::size_t(event) - firstEvent(run) >= rowOfEvent[std::size_t(run)].size()) {
            return nullptr;
        }
        return &rowOfEvent[std::size_t(run)][std::size_t(event) - firstEvent(run)];
    };
    for (std::size_t row = 0; row < m_rows.size(); ++row) {
        if (int *s = slot(m_rows[row])) {
            *s = int(row);
        }
    }
    for (std::size_t k = 0; k < events.size(); ++k) {
        if (const int *s = slot(events[k])) {
            rows[k] = *s;
        }
    }
    return rows;
}

QString EventModel::titleOf(int run, int event) const
{
    return m_titles ? m_titles->titleOf(run, std::size_t(event)) : QString();
}

std::vector<EventRef> EventModel::filteredRows(const std::vector<std::size_t> *from) const
{
    auto firstOf = [&](int run) {
        return std::max(firstEvent(run), from ? (*from)[std::size_t(run)] : std::size_t(0));
    };
    std::vector<EventRef> rows;
    if (m_filter.startsWith(QLatin1String("title:"))) {
        if (m_titles) {
            for (const auto &[r, e] : m_titles->eventsOf(m_filter.mid(6))) {
                if (r < m_runs.size() && std::size_t(e) < endEvent(r) &&
                    std::size_t(e) >= firstOf(r)) {
                    rows.emplace_back(r, e);
                }
            }
        }
        return rows;
    }
    std::optional<EventKind> only;
    for (int k = 0; k < kEventKindCount && !m_filter.isEmpty(); ++k) {
        if (m_filter == QLatin1String(eventKindName(EventKind(k)))) {
            only = EventKind(k);
        }
    }
    if (m_filter.isEmpty() || only) {
        for (int r = 0; r < m_runs.size(); ++r) {
            const std::vector<Event> &events = m_runs[r].run->events;
            for (std::size_t e = firstOf(r); e < endEvent(r); ++e) {
                if (!only || events[e].kind == *only) {
                    rows.emplace_back(r, int(e));
                }
            }
        }
    }
    return rows;
}

std::vector<std::size_t> EventModel::stableEvents() const
{
    std::vector<std::size_t> stable;
    for (const TimelineRun &tr : m_runs) {
        const Run &run = *tr.run;
        stable.push_back(run.eventsBefore(run.lines.endIndex() - 1_lines));
    }
    return stable;
}

std::vector<EventRef> EventModel::withGrowth(std::vector<EventRef> rows,
                                             const std::vector<std::size_t> &stable, int column,
                                             Qt::SortOrder order) const
{
    rows.erase(std::remove_if(rows.begin(), rows.end(),
                              [&](const EventRef &r) {
                                  return std::size_t(r.second) >= stable[std::size_t(r.first)];
                              }),
               rows.end());
    std::vector<EventRef> added = filteredRows(&stable);
    if (column >= 0) {
        return mergeEvents(rows, std::move(added), m_runs, sortKeyOf(column),
                           order == Qt::AscendingOrder);
    }
    std::vector<EventRef> merged; // both in (run, event) order, as the filter lists them
    merged.reserve(rows.size() + added.size());
    std::merge(rows.begin(), rows.end(), added.begin(), added.end(), std::back_inserter(merged));
    return merged;
}

void EventModel::listRows(Sorting sorting)
{
    m_rows.clear();
    m_rowsInEventsOrder = false;
    m_listed = !m_filter.isEmpty() || m_sortColumn >= 0;
    if (!m_listed) {
        return;
    }
    m_rows = filteredRows();
    if (m_sortColumn < 0) {
        return;
    }
    if (sorting == Sorting::OnAWorker && m_rows.size() >= std::size_t(kBackgroundSortRows)) {
        // Shown in the events' order until sortAgainIfAsked() has them sorted.
        m_requested = {m_sortColumn, m_sortOrder};
        m_rowsInEventsOrder = true;
        return;
    }
    m_rows = orderEvents(std::move(m_rows), m_runs, sortKeyOf(m_sortColumn),
                         m_sortOrder == Qt::AscendingOrder);
}

QVector<int> EventModel::kindCounts() const
{
    QVector<int> counts(kEventKindCount, 0);
    for (int r = 0; r < m_runs.size(); ++r) {
        const Run &run = *m_runs[r].run;
        if (firstEvent(r) == 0 && !m_endEvent[std::size_t(r)]) {
            for (int k = 0; k < kEventKindCount; ++k) {
                counts[k] += int(run.eventsByKind.count(EventKind(k)));
            }
            continue;
        }
        for (std::size_t e = firstEvent(r); e < endEvent(r); ++e) { // a boot's events
            ++counts[int(run.events[e].kind)];
        }
    }
    return counts;
}

QVector<QPair<QString, int>> EventModel::crashTitles() const
{
    return m_titles ? m_titles->counts() : QVector<QPair<QString, int>>();
}

int EventModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid()) {
        return 0;
    }
    return m_listed ? int(m_rows.size()) : m_firstRow.empty() ? 0 : m_firstRow.back();
}
int EventModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QStringList EventModel::texts(const std::vector<int> &rows) const
{
    QStringList out(qsizetype(rows.size()));
    struct Read
    {
        int run;
        LineIndex line;
        std::size_t at; // in rows
    };
    std::vector<Read> reads;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        if (rows[k] < 0 || rows[k] >= rowCount()) {
            continue;
        }
        const auto [ri, ei] = eventAt(rows[k]);
        const Run &run = *m_runs[ri].run;
        const Event &e = run.events[std::size_t(ei)];
        const bool note = e.note && *e.note >= 0 && std::size_t(*e.note) < run.notes.size();
        if (note || e.line >= run.lines.endIndex()) {
            const LineText text = run.eventText(e);
            out[qsizetype(k)] = LogModel::displayText(text.view());
        } else {
            reads.push_back({ri, e.line, k});
        }
    }
    std::sort(reads.begin(), reads.end(), [](const Read &a, const Read &b) {
        return std::tie(a.run, a.line) < std::tie(b.run, b.line);
    });
    for (std::size_t k = 0; k < reads.size();) {
        TextReader reader(m_runs[reads[k].run].run->lines);
        for (const int run = reads[k].run; k < reads.size() && reads[k].run == run; ++k) {
            out[qsizetype(reads[k].at)] = LogModel::displayText(reader.text(reads[k].line));
        }
    }
    return out;
}

QVariant EventModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const auto [ri, ei] = eventAt(index.row());
    const TimelineRun &tr = m_runs[ri];
    const Run &run = *tr.run;
    const Event &e = run.events[std::size_t(ei)];
    switch (role) {
    case RunRole:
        return ri;
    case EventRole:
        return ei;
    case KindRole:
        return QLatin1String(eventKindName(e.kind));
    case TitleRole:
        return titleOf(ri, ei);
    case Qt::ToolTipRole: {
        if (index.column() == RunCol) {
            return tr.label;
        }
        const QString title = titleOf(ri, ei);
        return title.isEmpty() ? QVariant() : QVariant(title);
    }
    case Qt::DecorationRole:
        if (index.column() == Kind) {
            QPixmap pm(10, 10);
            pm.fill(kindStyle(e.kind).color);
            return pm;
        }
        if (index.column() == RunCol) {
            QPixmap pm(10, 10);
            pm.fill(runColor(tr.group));
            return pm;
        }
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case RunCol:
            return m_runColumnLabels.value(ri, tr.label);
        case Kind: {
            QString k = QLatin1String(eventKindName(e.kind));
            if (e.kind == EventKind::Drop || e.kind == EventKind::Ratelimit) {
                k += e.count == kCountOutOfRange ? QStringLiteral(" (?)")
                                                 : QStringLiteral(" (%1)").arg(e.count);
            }
            return k;
        }
        case Arrival: {
            const std::optional<RunSeconds> t = run.eventTime(e);
            return t ? QString::number(tr.xOf(*t), 'f', 3) : QString();
        }
        case Kernel: {
            const std::optional<KernelUs> k = run.eventKernelTime(e);
            return k ? QString::number(toSeconds(*k), 'f', 6) : QString();
        }
        case Text: {
            const LineText text = run.eventText(e);
            return LogModel::displayText(text.view());
        }
        }
        return {};
    }
    return {};
}

QVariant EventModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (role != Qt::DisplayRole || o != Qt::Horizontal) {
        return {};
    }
    switch (section) {
    case RunCol:
        return tr("run");
    case Kind:
        return tr("kind");
    case Arrival:
        return tr("time (s)");
    case Kernel:
        return tr("kernel time");
    case Text:
        return tr("text");
    }
    return {};
}

} // namespace tty
