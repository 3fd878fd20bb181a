// The event panel: every detected event (kind, arrival, kernel time, text), filterable by
// kind, linked to the timeline and the log.
#pragma once

#include "crashes.h"
#include "timelineview.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSortFilterProxyModel>
#include <QWidget>

class QTableView;
class QComboBox;

namespace tty {

class EventModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { RunCol, Kind, Arrival, Kernel, Text, ColumnCount };
    enum Roles { RunRole = Qt::UserRole + 1, EventRole, KindRole, TitleRole };
    explicit EventModel(QObject *parent = nullptr);
    // The crash titles of the runs before are kept when the runs are the same (a live run
    // that grew: then it returns true); else there are none until setCrashes.
    bool setRuns(const QVector<TimelineRun> &runs);
    // Per run: its crash reports (found with the metrics, off the GUI thread: assembling
    // them reads every report's lines); null: not known.
    void setCrashes(const QVector<std::shared_ptr<const std::vector<Crash>>> &crashes);
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    QVector<TimelineRun> m_runs;
    QVector<QPair<int, int>> m_rows;       // (run, event index)
    QVector<QHash<int, QString>> m_titles; // per run: crash title by headline event

public:
    // Events of each kind over all runs.
    QVector<int> kindCounts() const;
    // Crash titles with their count over all runs, most frequent first.
    QVector<QPair<QString, int>> crashTitles() const;
};

class EventList : public QWidget
{
    Q_OBJECT
public:
    explicit EventList(QWidget *parent = nullptr);
    void setRuns(const QVector<TimelineRun> &runs);
    // Per run (as setRuns'): its crashes, which title them in the list and in the filter.
    void setCrashes(const QVector<std::shared_ptr<const std::vector<Crash>>> &crashes);
    // Shows only this kind ("" = all), or with "title:TITLE" the crashes of one title
    // (the "is it the same crash?" view of a comparison).
    void setKindFilter(const QString &kindName);
    QTableView *table() const { return m_table; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    void selectEvent(int run, int eventIndex);

signals:
    void eventActivated(int run, int eventIndex);

private:
    // The kind filter's entries: each kind with a count, then each crash title; the filter
    // chosen stays when `keepChoice` and it still has an entry, else all kinds are shown.
    void fillKinds(bool keepChoice);

    EventModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QComboBox *m_kinds;
};

} // namespace tty
