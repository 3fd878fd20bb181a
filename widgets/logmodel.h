// The log text as a table model: arrival, kernel time, lag, text. Rows are computed on
// demand from the run's compact line table, so millions of lines cost nothing up front.
#pragma once

#include "run.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace tty {

class LogModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Number, Arrival, Kernel, Lag, Text, ColumnCount };
    enum Roles {
        LineRole = Qt::UserRole + 1,
        // Text column, controls shown: [begin, end) pairs of the displayed string that are
        // escape sequences or control characters (QVector<int>).
        ControlRangesRole,
        // Text column: the stretches SGR sequences colour or embolden, four ints each
        // (begin, end, packColor(colour), bold) in the displayed string (QVector<int>).
        StyleRunsRole,
    };

    explicit LogModel(QObject *parent = nullptr);
    void setRun(std::shared_ptr<const Run> run);
    const Run *run() const { return m_run.get(); }
    // Shows only these lines (sorted); an empty optional shows all.
    void setFilter(std::shared_ptr<const std::vector<LineIndex>> lines);
    bool filtered() const { return bool(m_filter); }
    // Lines whose rows get the search highlight (sorted).
    void setMatches(std::shared_ptr<const std::vector<LineIndex>> lines);
    void setWallClock(bool on);
    bool wallClock() const { return m_wallClock; }
    // Escape sequences and control characters: hidden (default, as a terminal prints the
    // line) or shown in caret notation (^[[2J), drawn dim by the view.
    void setShowControls(bool on);
    bool showControls() const { return m_showControls; }
    // A line's own kernel timestamp (`[    4.129775] `, or netconsole's record header) in
    // the text column: hidden by default, since the kernel time column shows it and the
    // prefix took most of a narrow pane; shown on request. Copies keep it either way.
    void setTimesInText(bool on);
    bool timesInText() const { return m_timesInText; }
    // The rows' whole lines as shown with their timestamps, for the clipboard.
    QStringList copiedText(const std::vector<int> &rows) const;
    // How many leading bytes of `bytes` the text column leaves out when timestamps are
    // hidden: the kernel timestamp at the line's start (with the `<N>` level before it and
    // one space after it), or a record header; 0 for any other line. A caller id after the
    // time is kept (no column shows it), and so is a timestamp behind other text (a login
    // prompt, escape codes).
    static std::size_t timestampBytes(std::string_view bytes);
    // The run grew (live capture): rows are appended, the last old row may have changed
    // (a partial line completed).
    void linesChanged();

    std::optional<LineIndex> lineAt(int row) const; // none: not a row
    // The row showing `line`, or of the nearest line shown before it.
    int rowOf(LineIndex line) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    // Console text made safe to show: escape sequences and control characters left out
    // (or, `showControls`, in caret notation: ESC as ^[, CR as ^M), invalid UTF-8 as
    // replacement characters (the bytes themselves stay untouched in the run). `ranges`
    // gets the [begin, end) pairs of the shown controls, `styles` the styled stretches as
    // StyleRunsRole gives them.
    static QString displayText(std::string_view bytes, bool showControls = false,
                               QVector<int> *ranges = nullptr, QVector<int> *styles = nullptr);

private:
    int targetRows() const; // rows of the run or the filter
    const Event *eventOf(LineIndex line) const;
    std::string_view shownBytes(const LineText &text) const; // the text column's part
    std::shared_ptr<const Run> m_run;
    std::shared_ptr<const std::vector<LineIndex>> m_filter;
    std::shared_ptr<const std::vector<LineIndex>> m_matches;
    bool m_wallClock = false;
    bool m_showControls = false;
    bool m_timesInText = false;
    int m_rows = 0; // what the view was told; a live run grows between updates
};

} // namespace tty
