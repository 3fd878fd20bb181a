// The metrics of one run or of a comparison (columns per run or group, a difference
// column, the better value marked), as a table widget.
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
};

} // namespace tty
