#include "metricstable.h"

#include "palette.h"

#include <QHeaderView>

#include <cmath>

namespace tty {

MetricsTable::MetricsTable(QWidget *parent) : QTableWidget(parent)
{
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    verticalHeader()->hide();
    horizontalHeader()->setStretchLastSection(false);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    setWordWrap(false);
    setAlternatingRowColors(true);
}

QString MetricsTable::trialsTooltip(const Report &report, const ReportRow &row, std::size_t column)
{
    const ReportColumn &c = report.columns()[column];
    const std::vector<std::optional<double>> &v = row.values[column];
    if (v.size() < 2) {
        return {};
    }
    QStringList lines;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const QString val = v[i] && std::isfinite(*v[i])
                                ? QString::number(*v[i], 'f', row.integer ? 0 : row.decimals)
                                : QStringLiteral("–");
        lines << QStringLiteral("%1: %2").arg(
            i < std::size_t(c.sources.size()) ? c.sources[int(i)] : QString::number(i + 1), val);
    }
    return lines.join(QLatin1Char('\n'));
}

void MetricsTable::setReport(const Report &report, const QVector<QColor> &colors)
{
    clear();
    const auto &cols = report.columns();
    const int ncol = 1 + int(cols.size()) + (report.hasDiff() ? 1 : 0);
    setColumnCount(ncol);
    setRowCount(int(report.rows().size()));
    // Headers wrap at spaces so that long run labels do not widen the value columns.
    auto wrap = [](const QString &text) {
        QStringList lines{QString()};
        for (const QString &word : text.split(u' ', Qt::SkipEmptyParts)) {
            if (!lines.back().isEmpty() && lines.back().size() + word.size() > 16) {
                lines << QString();
            }
            lines.back() += (lines.back().isEmpty() ? QString() : QStringLiteral(" ")) + word;
        }
        return lines.join(u'\n');
    };
    QStringList headers{tr("metric")};
    // Run labels are often long file names without spaces: elided in the middle (the
    // trial counter and the end of the name stay readable), whole in the tooltip.
    const QFontMetrics fm(horizontalHeader()->font());
    for (const ReportColumn &c : cols) {
        const QString label = fm.elidedText(c.label, Qt::ElideMiddle, fm.averageCharWidth() * 22);
        headers << wrap(c.metrics.size() > 1
                            ? QStringLiteral("%1 (n=%2)").arg(label).arg(c.metrics.size())
                            : label);
    }
    if (report.hasDiff()) {
        headers << tr("B − A");
    }
    setHorizontalHeaderLabels(headers);
    for (int c = 0; c < int(cols.size()) && c < colors.size(); ++c) {
        if (QTableWidgetItem *h = horizontalHeaderItem(c + 1)) {
            h->setForeground(colors[c]);
            QFont f = h->font();
            f.setBold(true);
            h->setFont(f);
            h->setToolTip(cols[std::size_t(c)].label + QLatin1Char('\n') +
                          cols[std::size_t(c)].sources.join(QLatin1Char('\n')));
        }
    }
    int r = 0;
    for (const ReportRow &row : report.rows()) {
        auto *name = new QTableWidgetItem(row.title);
        name->setData(Qt::UserRole, row.key);
        setItem(r, 0, name);
        const int better = report.better(row);
        for (std::size_t c = 0; c < cols.size(); ++c) {
            auto *it = new QTableWidgetItem(report.cell(row, c, false));
            it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            it->setToolTip(trialsTooltip(report, row, c));
            if ((better < 0 && c == 0) || (better > 0 && c == 1)) {
                QFont f = it->font();
                f.setBold(true);
                it->setFont(f);
                it->setText(it->text() + QStringLiteral(" ✓"));
            }
            setItem(r, int(c) + 1, it);
        }
        if (report.hasDiff()) {
            auto *it = new QTableWidgetItem(report.diffCell(row, false));
            it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            it->setToolTip(report.diffTooltip(row));
            setItem(r, ncol - 1, it);
        }
        ++r;
    }
    resizeColumnsToContents();
    // Long metric names (they quote the user's regexes) must not push the values away.
    setColumnWidth(0, std::min(columnWidth(0), 200));
    for (int r = 0; r < rowCount(); ++r) {
        if (QTableWidgetItem *it = item(r, 0)) {
            it->setToolTip(it->text());
        }
    }
}

} // namespace tty
