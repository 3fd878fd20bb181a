// One side's log text in the window: a header in the side's colour, a trial selector for
// groups, and the log view itself.
#pragma once

#include "logview.h"
#include "session.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace tty {

class LogPane : public QWidget
{
    Q_OBJECT
public:
    explicit LogPane(QWidget *parent = nullptr);
    void setSide(const Side &side, int sideIndex, int firstTimelineRun);
    LogView *view() const { return m_view; }
    int trial() const;
    void setTrial(int trial);
    // Index into the session's timeline runs of the trial shown.
    int timelineRun() const { return m_firstRun + trial(); }
    const Run *run() const;

signals:
    void trialChanged(int trial);

private:
    void showTrial(const Trial &trial);
    QLabel *m_header;
    QComboBox *m_trials;
    LogView *m_view;
    Side m_side;
    int m_firstRun = 0;
};

} // namespace tty
