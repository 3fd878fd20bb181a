// The Sources dock (issue 14, "who floods the console"): the sources of a trial's console
// output by wire time, with a bar for each one's share, sortable; with two columns the A/B
// table of `report --sources`. Selecting a source asks the window to filter the log to its
// lines and to highlight its time; "Add as lane" asks for a lane of its lines per second;
// the sources are grouped by template, prefix or caller (`--sources-by`).
#pragma once

#include "sourcereport.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <memory>

class QAction;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace tty {

class SourceModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Source, Wire, Share, BootShare, Lines, Bytes, Rate, Dropped, ColumnCount };
    // The mark (new, gone, grew xN) right after the source: it is the answer a reviewer
    // looks for, and must not be the column a narrow dock scrolls out of view.
    enum DiffColumn {
        DSource,
        DMark,
        DWireA,
        DWireB,
        DDelta,
        DRatio,
        DLinesA,
        DLinesB,
        DColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;  // the number a column sorts by
    static constexpr int ShareRole = Qt::UserRole + 2; // 0..1, for the bar
    explicit SourceModel(QObject *parent = nullptr);
    // A trial's table, or (table null) the comparison.
    void setTable(const SourceTable *table, const SourceComparison *comparison);
    bool comparing() const { return !m_table && m_comparison; }
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    const SourceTable *m_table = nullptr;
    const SourceComparison *m_comparison = nullptr;
};

class SourcesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SourcesPanel(QWidget *parent = nullptr);
    // Null: nothing computed (yet).
    void setSources(std::shared_ptr<const SourceReport> sources);
    const SourceReport *sources() const { return m_sources.get(); }
    QTableView *table() const { return m_tableView; }
    QComboBox *view() const { return m_view; }
    // How the sources are grouped (the window recomputes them when it changes).
    QComboBox *groupingBox() const { return m_by; }
    SourceGrouping grouping() const;
    // The window's action that shows the stacked lane, as a toggle beside "Add as lane".
    void setLaneAction(QAction *action);
    // What the table shows: (column, trial), or column -1 for the comparison.
    QPair<int, int> shown() const;
    // The source of a row of the table as shown (sorted); null for none.
    const SourceStat *sourceAt(int row) const;
    const SourceDiff *diffAt(int row) const;
    void selectRow(int row);

signals:
    // A source was selected (row of the shown table, in the model's order).
    void sourceSelected();
    void addLaneRequested();
    void groupingChanged(tty::SourceGrouping by);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void showView(int index);
    void fitSourceColumn();
    int modelRow(int viewRow) const;

    std::shared_ptr<const SourceReport> m_sources;
    SourceModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_tableView;
    QComboBox *m_view;
    QComboBox *m_by;
    QLabel *m_summary;
    QPushButton *m_addLane;
    QHBoxLayout *m_buttons;
    int m_sourceWidth = 0;            // the source column's width for its contents
    QVector<QPair<int, int>> m_views; // per combo entry: (column, trial) or (-1, 0)
};

} // namespace tty
