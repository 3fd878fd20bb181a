// The rows of a long table (the log's lines, the events): a scroll area that paints only
// the rows in sight, straight from the model, with fixed row heights. QTableView keeps
// state per row in its (even hidden) vertical header: at 160 M lines that is 1.3 GB, and
// every row count change recomputes it from the start, so a jump to a line took 0.4 s and
// taking the rows in steps stalled the window for half a minute. Here the cost of any
// jump, resize or growth does not depend on the number of rows. Column widths live in a
// horizontal QHeaderView; current row and selection in a QItemSelectionModel of whole
// rows, so what connects to them stays the same.
#pragma once

#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QPersistentModelIndex>
#include <QStringList>

#include <functional>
#include <vector>

class QAbstractItemDelegate;
class QHeaderView;
class QItemSelectionModel;
class QStyledItemDelegate;

namespace tty {

class LogLineView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    // `textColumn`: the column copied (Ctrl+C) and made current by the keys.
    LogLineView(QAbstractItemModel *model, int textColumn, QWidget *parent = nullptr);

    QAbstractItemModel *model() const { return m_model; }
    QItemSelectionModel *selectionModel() const { return m_selection; }
    QHeaderView *horizontalHeader() const { return m_header; }
    void setItemDelegateForColumn(int column, QAbstractItemDelegate *delegate);
    // Where a cell too narrow for its text is elided (Qt::ElideRight unless set).
    void setColumnElideMode(int column, Qt::TextElideMode mode);
    void setColumnWidth(int column, int width);
    int rowHeight() const { return m_rowHeight; }
    // A click on a header section sorts the model by it (QAbstractItemModel::sort);
    // column -1 asks for the model's own order.
    void setSortingEnabled(bool enabled);
    void sortByColumn(int column, Qt::SortOrder order);

    // The text copied for these rows (in their order), for a model that reads many rows
    // faster together than one by one: the event list sorted by text has its rows' lines
    // out of order, and reading them a row at a time decodes a piece of the log per row.
    // Without it, the text column's data of each row.
    using RowsText = std::function<QStringList(const std::vector<int> &rows)>;
    void setRowsText(RowsText rowsText) { m_rowsText = std::move(rowsText); }
    // Puts the selected rows' text on the clipboard, one per line in row order (Ctrl+C);
    // nothing (a beep) over kMaxCopiedLines.
    void copySelection() const;
    static constexpr int kMaxCopiedLines = 1000000;

    QModelIndex currentIndex() const;
    // Makes `row` current and the only selected row.
    void selectRow(int row);
    void clearSelection();
    void scrollTo(const QModelIndex &index,
                  QAbstractItemView::ScrollHint hint = QAbstractItemView::EnsureVisible);
    void scrollToBottom();
    int firstVisibleRow() const;
    // The rectangle of a cell in viewport coordinates (empty when out of sight).
    QRect visualRect(const QModelIndex &index) const;
    QModelIndex indexAt(const QPoint &viewportPos) const;

signals:
    // A row was clicked, or Enter pressed on the current one.
    void activated(const QModelIndex &index);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    void keyPressEvent(QKeyEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    int rowCount() const;
    int rowsInSight() const; // whole rows the viewport shows
    int rowAtY(int y) const; // -1: none
    void updateScrollBars();
    void updateRowHeight();
    void updateHeaderGeometry();
    // Moves the current row to `row` (clamped), selecting from the anchor when `extend`.
    void moveCurrent(int row, bool extend);
    void selectRange(int from, int to);
    void applySort(int column, Qt::SortOrder order);
    QAbstractItemDelegate *delegateFor(int column) const;

    QAbstractItemModel *m_model;
    int m_textColumn;
    QItemSelectionModel *m_selection;
    QHeaderView *m_header;
    QStyledItemDelegate *m_defaultDelegate;
    QList<QAbstractItemDelegate *> m_columnDelegates;
    QList<Qt::TextElideMode> m_columnElide; // per column; past its end, ElideRight
    int m_rowHeight = 16;
    int m_anchorRow = -1; // where a Shift selection starts
    RowsText m_rowsText;
};

} // namespace tty
