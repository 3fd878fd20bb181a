// The log text beside the timeline: the lines in sight painted from the run (any number of
// lines scroll and jump without delay, see loglineview.h), regex search with next/previous and
// highlight, and a filter to matching lines.
#pragma once

#include "backgroundtask.h"
#include "logmodel.h"

#include <QWidget>

#include <atomic>
#include <memory>
#include <vector>

class QLineEdit;
class QLabel;
class QCheckBox;
class QToolButton;

namespace tty {
class LogLineView;
}

namespace tty {

class LogView : public QWidget
{
    Q_OBJECT
public:
    explicit LogView(QWidget *parent = nullptr);
    ~LogView() override;

    void setRun(std::shared_ptr<const Run> run);
    LogModel *model() const { return m_model; }
    LogLineView *lines() const { return m_lines; }
    QLineEdit *searchField() const { return m_search; }

    // Moves the current line (and scrolls it into view, centred).
    void showLine(LineIndex line);
    std::optional<LineIndex> currentLine() const; // none: no current row

    // Search: runs over all lines in the background; blocks until done when `wait`.
    void search(const QString &regex, bool wait = false);
    void findNext();
    void findPrevious();
    void setFilterToMatches(bool on);
    std::size_t matchCount() const { return m_matches ? m_matches->size() : 0; }
    void setWallClock(bool on);

signals:
    void currentLineChanged(LineIndex line);
    // The selected lines' first and last line (for the timeline's highlight).
    void selectionChanged(LineIndex first, LineIndex last);

private:
    void onSearchDone();
    void stopSearch();
    void step(int direction);
    // Sizes the number and time columns to the widest value the run holds (its last line's
    // number, its last arrival, its boots' last kernel times), at least their headers:
    // what they do not take is the console text's. A live run keeps room to grow.
    void fitColumns();

    LogModel *m_model;
    LogLineView *m_lines;
    QLineEdit *m_search;
    QCheckBox *m_filter;
    QLabel *m_status;
    std::shared_ptr<const Run> m_run;
    std::shared_ptr<const std::vector<LineIndex>> m_matches;
    BackgroundTask<std::shared_ptr<const std::vector<LineIndex>>> m_searchTask;
    QString m_pendingSearch;
    std::shared_ptr<std::atomic<bool>> m_cancelSearch; // of the search running, if any
};

} // namespace tty
