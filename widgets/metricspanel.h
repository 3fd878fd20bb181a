// The metrics dock: the table, the settings behind it (window, span, boot pattern,
// interval regex — editable in place) and, for multi-boot captures, a boot selector.
#pragma once

#include "metrics.h"
#include "metricstable.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLineEdit;
class QDoubleSpinBox;
class QLabel;

namespace tty {

class MetricsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit MetricsPanel(QWidget *parent = nullptr);
    MetricsTable *table() const { return m_table; }
    void setOptions(const MetricOptions &o);
    MetricOptions options() const;
    // Boots of a single run ("whole run" + one entry per boot), `selected` shown as chosen
    // (none: the whole run); 0 or 1 hides the selector.
    void setBoots(const QStringList &boots, std::optional<int> selected = std::nullopt);
    int selectedBoot() const; // -1 = whole run
    // The row that compares two selections of boots of a multi-boot capture as A and B
    // (selectors as in `report --boots`: 1-3,7  /REGEX/  !/REGEX/).
    void setBootComparison(bool available);
    QLineEdit *bootsA() const { return m_bootsA; }
    QLineEdit *bootsB() const { return m_bootsB; }
    void setReport(const Report &report, const QVector<QColor> &colors);
    // What the table's marks mean and what to keep in mind reading it (≈, the interval, a
    // side of one trial, chance among many tests, different baud rates): the report's notes.
    QString notes() const;
    // Wide enough for a comparison's columns: the dock takes its first width from this.
    QSize sizeHint() const override { return QSize(600, 600); }

signals:
    void optionsChanged();
    void bootSelected(std::optional<int> boot); // none: the whole run
    // Empty selectors: back to the whole capture.
    void bootsCompared(const QString &a, const QString &b);

private:
    MetricsTable *m_table;
    QComboBox *m_boot;
    QLabel *m_bootLabel;
    QWidget *m_compareRow;
    QLineEdit *m_bootsA, *m_bootsB;
    QString m_bootStart; // kept from setOptions: the panel has no field for it
    QLineEdit *m_windowStart, *m_windowMatch, *m_spanFrom, *m_spanTo, *m_bootPattern, *m_interval;
    QDoubleSpinBox *m_window;
    QLabel *m_error;
    QLabel *m_notes;
};

} // namespace tty
