// The event panel: every detected event (kind, arrival, kernel time, text), filterable by
// kind or crash title, sortable by column, linked to the timeline and the log.
#pragma once

#include "crashtitles.h"
#include "timelineview.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <utility>
#include <vector>

class QComboBox;

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
    // The crash titles of the runs before are kept when the runs are the same (a live run
    // that grew: then it returns true); else there are none until setCrashTitles.
    bool setRuns(const QVector<TimelineRun> &runs);
    // The runs' crash titles (found with the metrics, off the GUI thread), in setRuns' order.
    void setCrashTitles(std::shared_ptr<const CrashTitles> titles);
    // Only events of a kind (its name), or with "title:TITLE" the crashes of one title;
    // "" shows all.
    void setFilter(const QString &filter);
    QString filter() const { return m_filter; }
    // Column -1 restores the events' own order.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    // The row showing an event, -1 when it is filtered out.
    int rowOf(int run, int event) const;
    // Events of each kind over all runs.
    QVector<int> kindCounts() const;
    // Crash titles with their count over all runs, most frequent first.
    QVector<QPair<QString, int>> crashTitles() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    using EventRef = std::pair<int, int>; // (run, event index)
    EventRef eventAt(int row) const;
    // The rows of the filter in the events' order, then sorted by the sort column.
    void listRows();
    QString titleOf(int run, int event) const;

    QVector<TimelineRun> m_runs;
    std::vector<int> m_firstRow; // per run and one past: its first event's row when all show
    QString m_filter;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    bool m_listed = false; // a filter or a sort: the rows are m_rows
    std::vector<EventRef> m_rows;
    std::shared_ptr<const CrashTitles> m_titles;
};

class LogLineView;

class EventList : public QWidget
{
    Q_OBJECT
public:
    explicit EventList(QWidget *parent = nullptr);
    void setRuns(const QVector<TimelineRun> &runs);
    // The runs' crash titles (as setRuns'), which title them in the list and in the filter.
    void setCrashTitles(std::shared_ptr<const CrashTitles> titles);
    // Shows only this kind ("" = all), or with "title:TITLE" the crashes of one title
    // (the "is it the same crash?" view of a comparison).
    void setKindFilter(const QString &kindName);
    LogLineView *table() const { return m_table; }
    EventModel *model() const { return m_model; }
    void selectEvent(int run, int eventIndex);

signals:
    void eventActivated(int run, int eventIndex);

private:
    // The kind filter's entries: each kind with a count, then each crash title; the filter
    // chosen stays when `keepChoice` and it still has an entry, else all kinds are shown.
    void fillKinds(bool keepChoice);

    EventModel *m_model;
    LogLineView *m_table;
    QComboBox *m_kinds;
};

} // namespace tty
