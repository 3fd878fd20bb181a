// The event panel: every detected event (kind, arrival, kernel time, text), filterable by
// kind or crash title, sortable by column, linked to the timeline and the log.
#pragma once

#include "crashtitles.h"
#include "eventmodel.h"
#include "timelineview.h"

#include <QWidget>

#include <memory>

class QComboBox;

namespace tty {
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
