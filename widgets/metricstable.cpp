#include "metricstable.h"

#include "palette.h"
#include "runlabels.h"

#include <QHeaderView>
#include <QStyle>

#include <cmath>

namespace tty {

MetricsTable::MetricsTable(QWidget *parent) : QTableWidget(parent)
{
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    verticalHeader()->hide();
    horizontalHeader()->setStretchLastSection(false);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    // Metric names wrap onto a second line rather than being cut: "boot to 'login:' from
    // first byte" and "… from kernel start" must not both read "boot to 'login:' f…".
    setWordWrap(true);
    setAlternatingRowColors(true);
}

QString MetricsTable::trialsTooltip(const Report &report, const ReportRow &row, std::size_t column)
{
    const ReportColumn &c = report.columns()[column];
    const std::vector<std::optional<double>> &v = row.values[column];
    if (v.size() < 2) {
        return {};
    }
    auto line = [&](std::size_t i) {
        const QString val = v[i] && std::isfinite(*v[i])
                                ? QString::number(*v[i], 'f', row.integer ? 0 : row.decimals)
                                : QStringLiteral("–");
        const QString source = c.source(i);
        return QStringLiteral("%1: %2").arg(source.isEmpty() ? QString::number(i + 1) : source,
                                            val);
    };
    // A tooltip taller than the screen shows nothing: the first and last trials of a long
    // column, and how many are left out (the report and its JSON list them all). Built for
    // every cell when the table is set, so it must also stay cheap at 10^4 trials.
    constexpr std::size_t kEnds = 10;
    QStringList lines;
    if (v.size() <= 2 * kEnds + 1) {
        for (std::size_t i = 0; i < v.size(); ++i) {
            lines << line(i);
        }
    } else {
        for (std::size_t i = 0; i < kEnds; ++i) {
            lines << line(i);
        }
        lines << tr("… %1 more trials …").arg(v.size() - 2 * kEnds);
        for (std::size_t i = v.size() - kEnds; i < v.size(); ++i) {
            lines << line(i);
        }
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
    auto header = [this](int column, const QString &text, const QString &tip) {
        auto *h = new QTableWidgetItem(text);
        h->setData(FullTextRole, text);
        h->setToolTip(tip);
        setHorizontalHeaderItem(column, h);
        return h;
    };
    header(0, tr("metric"), QString());
    QStringList labels;
    for (const ReportColumn &rc : cols) {
        labels << rc.label;
    }
    const QStringList shortLabels = distinctParts(labels);
    for (int c = 0; c < int(cols.size()); ++c) {
        const ReportColumn &rc = cols[std::size_t(c)];
        QTableWidgetItem *h =
            header(c + 1, rc.label, rc.label + QLatin1Char('\n') + rc.sourcesSummary());
        h->setData(ShortTextRole, shortLabels[c]);
        // The trial count stays readable however much of the label is elided.
        h->setData(Qt::UserRole, rc.metrics.size() > 1
                                     ? QStringLiteral(" (n=%1)").arg(rc.metrics.size())
                                     : QString());
        if (c < colors.size()) {
            h->setForeground(colors[c]);
        }
        QFont f = horizontalHeader()->font();
        f.setBold(true);
        h->setFont(f);
    }
    if (report.hasDiff()) {
        header(ncol - 1, tr("B − A"), tr("B − A: the difference of the means"));
    }
    auto cell = [this](int r, int c, const QString &text, const QString &tip) {
        auto *it = new QTableWidgetItem(text);
        it->setData(FullTextRole, text);
        it->setToolTip(tip);
        it->setTextAlignment(c == 0 ? Qt::AlignLeft | Qt::AlignVCenter
                                    : Qt::AlignRight | Qt::AlignVCenter);
        setItem(r, c, it);
        return it;
    };
    int r = 0;
    for (const ReportRow &row : report.rows()) {
        cell(r, 0, row.title, row.title)->setData(Qt::UserRole, row.key);
        const int better = report.better(row);
        for (std::size_t c = 0; c < cols.size(); ++c) {
            const bool best = (better < 0 && c == 0) || (better > 0 && c == 1);
            QString text = report.cell(row, c, false);
            if (best) {
                text += QStringLiteral(" ✓");
            }
            QTableWidgetItem *it = cell(r, int(c) + 1, text, trialsTooltip(report, row, c));
            if (best) {
                QFont f = font();
                f.setBold(true);
                it->setFont(f);
            }
        }
        if (report.hasDiff()) {
            cell(r, ncol - 1, report.diffCell(row, false), report.diffTooltip(row));
        }
        ++r;
    }
    fitColumns();
}

int MetricsTable::textMargin() const
{
    // QStyledItemDelegate leaves the focus frame's margin plus one pixel on each side.
    return style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, this) + 1;
}

int MetricsTable::valueColumnsWidth() const
{
    return m_valueWidth;
}

int MetricsTable::minimumTableWidth() const
{
    const int names = fontMetrics().averageCharWidth() * 14;
    return m_valueWidth + names + 2 * frameWidth() +
           style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
}

QFontMetrics MetricsTable::headerMetrics(int column) const
{
    const QTableWidgetItem *h = horizontalHeaderItem(column);
    return QFontMetrics(h && h->data(Qt::FontRole).isValid() ? h->font()
                                                             : horizontalHeader()->font());
}

int MetricsTable::headerPad(int column) const
{
    // What the header view adds around a section's text (margins, room for a sort
    // indicator), measured from the view itself: a guess short by a few pixels made Qt
    // elide "qemu ttyS0" to "qem...yS0" in a column our sums said was wide enough.
    const QTableWidgetItem *h = horizontalHeaderItem(column);
    const int text = h ? headerMetrics(column).horizontalAdvance(h->text()) : 0;
    return std::max(horizontalHeader()->sectionSizeHint(column) - text,
                    2 * style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, this) + 4);
}

QString MetricsTable::headerLabel(int column, int width) const
{
    // The whole label where it fits; else what tells it from the other runs' labels
    // (spam_rmmod-A_default-… and spam_rmmod-k612rt-…, elided each in its own middle, both
    // read "spam_…g.zst"), elided at its end where even that is too wide.
    const QTableWidgetItem *h = horizontalHeaderItem(column);
    if (!h) {
        return QString();
    }
    const QString full = h->data(FullTextRole).toString();
    const QVariant shorter = h->data(ShortTextRole);
    if (headerMetrics(column).horizontalAdvance(full) <= width || !shorter.isValid()) {
        return full;
    }
    return shorter.toString();
}

void MetricsTable::elideHeader(int column, int width)
{
    // The run label elided in the middle (its start and its trial number stay), the
    // trial count "(n=3)" kept whole.
    QTableWidgetItem *h = horizontalHeaderItem(column);
    if (!h) {
        return;
    }
    const QFontMetrics hfm = headerMetrics(column);
    const QString suffix = h->data(Qt::UserRole).toString();
    const int room = width - headerPad(column) - hfm.horizontalAdvance(suffix);
    const QString label = headerLabel(column, room);
    // What tells the runs apart starts where they differ: that start stays.
    const bool distinct = label != h->data(FullTextRole).toString();
    h->setText(hfm.elidedText(label, distinct ? Qt::ElideRight : Qt::ElideMiddle, room) + suffix);
}

void MetricsTable::resizeEvent(QResizeEvent *event)
{
    QTableWidget::resizeEvent(event);
    fitColumns();
}

void MetricsTable::fitColumns()
{
    if (columnCount() == 0) {
        return;
    }
    // Grid line and a little air, on top of the delegate's margins.
    const int pad = 2 * textMargin() + 6;
    auto textWidth = [this](const QTableWidgetItem *it, const QString &text) {
        const QFont f = it->data(Qt::FontRole).isValid() ? it->font() : font();
        return QFontMetrics(f).horizontalAdvance(text);
    };
    const int old = m_valueWidth;
    m_valueWidth = 0;
    QVector<int> widths(columnCount(), 0);
    for (int c = 1; c < columnCount(); ++c) {
        int w = 0;
        for (int r = 0; r < rowCount(); ++r) {
            if (const QTableWidgetItem *it = item(r, c)) {
                w = std::max(w, textWidth(it, it->data(FullTextRole).toString()));
            }
        }
        // Headers fit in at least a few characters (the label's start, "…", its end).
        QTableWidgetItem *h = horizontalHeaderItem(c);
        const QString full = h ? headerLabel(c, 0) : QString(); // the shortest it shows
        const QString suffix = h ? h->data(Qt::UserRole).toString() : QString();
        const QFontMetrics hfm = headerMetrics(c);
        const int headerMin =
            hfm.horizontalAdvance(full.left(3) + QStringLiteral("…") + full.right(4) + suffix);
        w = std::max({w + pad,
                      std::min(hfm.horizontalAdvance(full + suffix), headerMin) + headerPad(c),
                      40});
        widths[c] = w;
        m_valueWidth += w;
        elideHeader(c, w);
    }
    // The metric names take what is left, wrapped at spaces where they need more.
    // The vertical scroll bar's room is kept whether it shows or not: its coming and going
    // changes the viewport, not the table, and must not push the values out of view.
    const int avail = width() - 2 * frameWidth() -
                      style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this) -
                      m_valueWidth;
    int nameWidth = 0;
    for (int r = 0; r < rowCount(); ++r) {
        if (const QTableWidgetItem *it = item(r, 0)) {
            nameWidth = std::max(nameWidth, textWidth(it, it->data(FullTextRole).toString()));
        }
    }
    widths[0] = std::max(std::min(nameWidth + pad, avail), fontMetrics().averageCharWidth() * 8);
    // Room left over goes to the run labels of the headers, up to their whole width.
    // Shared out evenly, so that A and B are elided alike.
    int spare = avail - widths[0];
    for (int c = 1; c < columnCount() && spare > 0; ++c) {
        QTableWidgetItem *h = horizontalHeaderItem(c);
        if (!h) {
            continue;
        }
        const int share = spare / (columnCount() - c);
        const int want = headerMetrics(c).horizontalAdvance(h->data(FullTextRole).toString() +
                                                            h->data(Qt::UserRole).toString()) +
                         headerPad(c) + 2; // advances are rounded; elidedText measures exactly
        const int extra = std::clamp(want - widths[c], 0, share);
        widths[c] += extra;
        spare -= extra;
        elideHeader(c, widths[c]);
    }
    for (int c = 0; c < columnCount(); ++c) {
        setColumnWidth(c, widths[c]);
    }
    // Names too long for their column take a second line (or more): every name whole.
    resizeRowsToContents();
    if (m_valueWidth != old) {
        // The dock takes its minimum width from the table: never narrower than its values.
        setMinimumWidth(minimumTableWidth());
        emit minimumTableWidthChanged(minimumTableWidth());
    }
}

} // namespace tty
