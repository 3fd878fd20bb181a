// The metrics of one run or of a comparison (columns per run or group, a difference
// column, the better value marked), as a table widget.
// Every figure must be readable without scrolling sideways, at any dock width: value
// columns take the width of their values, run labels in the headers are elided in the
// middle to that width (whole in the tooltip; first cut to what tells them apart), and the metric
// names take what is left, wrapped onto more lines where they need them (never cut).
#pragma once

#include "report.h"

#include <QTableWidget>

namespace tty {

class MetricsTable : public QTableWidget
{
    Q_OBJECT
public:
    explicit MetricsTable(QWidget *parent = nullptr);
    // colors: one per column of the report.
    void setReport(const Report &report, const QVector<QColor> &colors);
    // Per-trial values of a row, for a tooltip ("one click away").
    static QString trialsTooltip(const Report &report, const ReportRow &row, std::size_t column);
    // Room the text of a cell needs on each side (the item delegate's margin).
    int textMargin() const;
    // Width of the value columns together (all but the metric names).
    int valueColumnsWidth() const;
    // The narrowest table that shows every value: value columns plus a short metric name.
    int minimumTableWidth() const;
    // The whole (not elided) text of a cell or header.
    static constexpr int FullTextRole = Qt::UserRole + 1;
    // A run header's label without what all run labels share (distinctParts), shown
    // instead of the whole label where that does not fit.
    static constexpr int ShortTextRole = Qt::UserRole + 2;

signals:
    void minimumTableWidthChanged(int width);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    // Sizes the columns to the viewport and elides names and headers to them.
    void fitColumns();
    QFontMetrics headerMetrics(int column) const;
    int headerPad(int column) const;
    // The label a run's header shows in `width` pixels, before eliding.
    QString headerLabel(int column, int width) const;
    void elideHeader(int column, int width);
    int m_valueWidth = 0;
};

} // namespace tty
