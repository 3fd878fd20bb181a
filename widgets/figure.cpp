#include "figure.h"

#include "palette.h"
#include "runlabels.h"
#include "timelineview.h"

#include <QFontDatabase>
#include <QPageSize>
#include <QPdfWriter>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace tty {

namespace {

constexpr int kBlockGap = 40; // between side-by-side blocks of a long table

struct TableLayout
{
    QStringList header;
    QVector<QStringList> rows;
    QVector<int> better; // per row: -1 A, 1 B, 0 none
    QVector<int> widths;
    QVector<int> valueWidths; // per column, without its header
    int runColumns = 0;       // the report's columns, after "metric" (then B - A)
    QFont font;               // what the table is drawn in (smaller if the picture is narrow)
    int lineHeight = 0;
    int blocks = 1;    // the rows split into side-by-side blocks when the table is long
    QString noteText;  // the report's notes, one a line
    QStringList notes; // ...wrapped to noteWidth
    int noteWidth = 0;
    QFont noteFont; // a little smaller than the table's
    int noteLineHeight = 0;
    int rowsPerBlock() const { return (int(rows.size()) + blocks - 1) / blocks; }
    int rowsHeight() const { return (rowsPerBlock() + 2) * lineHeight; }
    int height() const
    {
        return rows.isEmpty()    ? 0
               : notes.isEmpty() ? rowsHeight()
                                 : rowsHeight() + int(notes.size()) * noteLineHeight + lineHeight;
    }
    int allBlocksWidth() const { return blocks * blockWidth() + (blocks - 1) * kBlockGap; }
    int blockWidth() const
    {
        int w = 0;
        for (int x : widths) {
            w += x + 14;
        }
        return w;
    }
};

// The lanes keep at least this share of the picture; a long table is split into two
// blocks side by side if they fit, else the picture grows.
constexpr double kMinPlotShare = 0.6;

struct FigureGeometry
{
    TableLayout table;
    int plotHeight = 0;
    int totalHeight = 0;
};

// The picture is for a review thread: it leaves out the rows no column has a value for
// and the counts of housekeeping events (boot banners, console handovers); the text report
// keeps them all.
bool rowInFigure(const ReportRow &row)
{
    if (row.key.startsWith(QLatin1String("events."))) {
        EventKind k;
        if (eventKindFromName(row.key.mid(7), &k) && !isCrashKind(k)) {
            return false;
        }
    }
    for (const std::vector<std::optional<double>> &column : row.values) {
        for (const std::optional<double> &v : column) {
            if (v && std::isfinite(*v)) {
                return true;
            }
        }
    }
    return false;
}

TableLayout layoutTable(const FigureTable &t, const QFont &font)
{
    TableLayout l;
    if (!t.report) {
        return l;
    }
    const Report &r = *t.report;
    l.header << QStringLiteral("metric");
    for (const ReportColumn &c : r.columns()) {
        l.header
            << (c.metrics.size() > 1
                    ? QStringLiteral("%1 (n=%2)").arg(c.label, QString::number(c.metrics.size()))
                    : c.label);
    }
    l.runColumns = int(r.columns().size());
    if (r.hasDiff()) {
        l.header << QStringLiteral("B − A");
    }
    for (const ReportRow &row : r.rows()) {
        if (!rowInFigure(row)) {
            continue;
        }
        QStringList cells{row.title};
        for (std::size_t c = 0; c < r.columns().size(); ++c) {
            cells << r.cell(row, c, false);
        }
        if (r.hasDiff()) {
            cells << r.diffCell(row);
        }
        l.rows << cells;
        l.better << r.better(row);
    }
    // A picture goes to a review thread alone: what its marks mean, a side of one trial,
    // chance among many tests and the baud rates go with it, as under the text report.
    l.noteText = r.footnotes();
    const QFontMetrics fm(font);
    l.lineHeight = fm.height() + 3;
    l.widths.fill(0, l.header.size());
    QFont bold = font;
    bold.setBold(true);
    const QFontMetrics fmb(bold);
    l.valueWidths.fill(0, l.header.size());
    for (const QStringList &row : l.rows) {
        for (int i = 0; i < row.size(); ++i) {
            l.valueWidths[i] =
                std::max(l.valueWidths[i], fmb.horizontalAdvance(row[i] + QStringLiteral(" ✓")));
        }
    }
    for (int i = 0; i < l.header.size(); ++i) {
        l.widths[i] = std::max(l.valueWidths[i], fmb.horizontalAdvance(l.header[i]));
    }
    return l;
}

// A table wider than the picture, most often because its column headers are file names (the
// runs' default labels), has those headers shortened to what tells them apart and elided,
// never below the width of their column's values, rather than the columns on the right cut
// off at the picture's edge. The legend above names the runs in full, in the same colours.
void fitTableWidth(TableLayout &l, int width, const QFont &font)
{
    const int room = width - 20; // paintTable's margins
    if (l.widths.isEmpty() || l.blockWidth() <= room) {
        return;
    }
    QFont bold = font;
    bold.setBold(true);
    const QFontMetrics fmb(bold);
    // The widest header width W that fits: columns wider than their values shrink to W.
    auto widthWithCap = [&](int cap) {
        int w = 0;
        for (int i = 0; i < l.widths.size(); ++i) {
            w += (i == 0 ? l.widths[i] : std::max(l.valueWidths[i], std::min(l.widths[i], cap))) +
                 14;
        }
        return w;
    };
    int lo = 0, hi = *std::max_element(l.widths.begin(), l.widths.end());
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (widthWithCap(mid) <= room) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    const QStringList runs = distinctParts(l.header.mid(1, l.runColumns));
    for (int i = 1; i < l.widths.size(); ++i) {
        const int w = std::max(l.valueWidths[i], std::min(l.widths[i], lo));
        if (w < l.widths[i]) {
            const QString shorter = i - 1 < runs.size() ? runs[i - 1] : l.header[i];
            l.header[i] = fmb.elidedText(shorter, Qt::ElideMiddle, w);
            l.widths[i] = w;
        }
    }
}

// Greedy word wrap: a line as long as fits in `width`, a word longer than that on its own.
QStringList wrapText(const QString &text, const QFontMetrics &fm, int width)
{
    QStringList lines;
    for (const QString &paragraph : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        QString line;
        for (const QString &word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && fm.horizontalAdvance(longer) > width) {
                lines << line;
                line = word;
            } else {
                line = longer;
            }
        }
        lines << line;
    }
    return lines;
}

// The notes as wide as the table, but not so narrow that each takes many lines.
void wrapNotes(TableLayout &l, int width)
{
    l.noteWidth = std::min(width - 20, std::max(l.allBlocksWidth(), 480));
    l.notes = wrapText(l.noteText, QFontMetrics(l.noteFont), l.noteWidth);
}

QFont tableFont()
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::GeneralFont);
    font.setPointSizeF(std::max(font.pointSizeF(), 9.0));
    return font;
}

// minPlot: the least height the timeline needs at this width (TimelineView::
// minimumRenderHeight); a picture asked smaller grows rather than squeeze its lanes.
FigureGeometry figureGeometry(const FigureTable &table, int width, int height, int minPlot)
{
    FigureGeometry g;
    // Headers shortened first; if the figures themselves are wider than the picture (a narrow
    // picture of two groups: "≈376104.0 ± 14779.0"), a smaller type, down to 6 pt.
    QFont font = tableFont();
    for (;;) {
        g.table = layoutTable(table, font);
        fitTableWidth(g.table, width, font);
        if (g.table.blockWidth() <= width - 20 || font.pointSizeF() <= 6.0) {
            break;
        }
        font.setPointSizeF(std::max(6.0, font.pointSizeF() - 0.5));
    }
    g.table.font = font;
    g.table.noteFont = font;
    g.table.noteFont.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.9));
    g.table.noteLineHeight = QFontMetrics(g.table.noteFont).height() + 1;
    wrapNotes(g.table, width);
    minPlot = std::max(minPlot, int(height * kMinPlotShare));
    if (height - g.table.height() < minPlot && g.table.blockWidth() * 2 + kBlockGap <= width) {
        g.table.blocks = 2;
        wrapNotes(g.table, width);
    }
    g.plotHeight = std::max(minPlot, height - g.table.height());
    g.totalHeight = std::max(height, g.plotHeight + g.table.height());
    return g;
}

void paintBlock(QPainter *p, const FigureTable &t, const TableLayout &l, int x0, int first,
                int count, const QFont &font)
{
    const QColor fg = plotForeground();
    QFont bold = font;
    bold.setBold(true);
    const int pad = 14;
    const int total = l.blockWidth();
    int y = l.lineHeight;
    auto drawRow = [&](const QStringList &cells, bool header, int better) {
        int x = x0;
        for (int i = 0; i < cells.size(); ++i) {
            const bool isBetter = !header && ((better < 0 && i == 1) || (better > 0 && i == 2));
            p->setFont(header || isBetter ? bold : font);
            QColor c = fg;
            if (header && i >= 1 && i - 1 < t.colors.size()) {
                c = t.colors[i - 1];
            }
            p->setPen(c);
            const QString text = isBetter ? cells[i] + QStringLiteral(" ✓") : cells[i];
            const Qt::Alignment a = i == 0 ? Qt::AlignLeft : Qt::AlignRight;
            p->drawText(QRect(x, y, l.widths[i], l.lineHeight), a | Qt::AlignVCenter, text);
            x += l.widths[i] + pad;
        }
        y += l.lineHeight;
    };
    drawRow(l.header, true, 0);
    p->setPen(QPen(plotGrid(), 1));
    p->drawLine(x0, y, x0 + total - pad, y);
    for (int r = first; r < first + count && r < l.rows.size(); ++r) {
        drawRow(l.rows[r], false, l.better[r]);
    }
}

void paintTable(QPainter *p, const FigureTable &t, const TableLayout &l, int width,
                const QFont &font)
{
    if (l.rows.isEmpty()) {
        return;
    }
    int x = std::max(10, (width - l.allBlocksWidth()) / 2);
    for (int b = 0; b < l.blocks; ++b) {
        paintBlock(p, t, l, x, b * l.rowsPerBlock(), l.rowsPerBlock(), font);
        x += l.blockWidth() + kBlockGap;
    }
    p->setFont(l.noteFont);
    p->setPen(plotForeground());
    const int nx = std::max(10, (width - l.noteWidth) / 2);
    int y = l.rowsHeight() + l.lineHeight / 2;
    for (const QString &line : l.notes) {
        p->drawText(QRect(nx, y, l.noteWidth, l.noteLineHeight), Qt::AlignLeft | Qt::AlignVCenter,
                    line);
        y += l.noteLineHeight;
    }
}

void paintFigure(QCPPainter *painter, TimelineView *view, const FigureTable &table, int width,
                 const FigureGeometry &g)
{
    painter->fillRect(QRect(0, 0, width, g.totalHeight), plotBackground());
    view->renderTo(painter, width, g.plotHeight);
    painter->save();
    painter->translate(0, g.plotHeight);
    paintTable(painter, table, g.table, width, g.table.font);
    painter->restore();
}

} // namespace

QImage renderFigure(TimelineView *view, const FigureTable &table, int width, int height,
                    double scale)
{
    const FigureGeometry g = figureGeometry(table, width, height, view->minimumRenderHeight(width));
    QImage image(QSize(int(width * scale), int(g.totalHeight * scale)),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(plotBackground());
    QCPPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(scale, scale);
    paintFigure(&painter, view, table, width, g);
    painter.end();
    image.setDevicePixelRatio(1.0);
    return image;
}

bool saveFigurePng(TimelineView *view, const FigureTable &table, const QString &path, int width,
                   int height, double scale, QString *error)
{
    const QImage image = renderFigure(view, table, width, height, scale);
    if (!image.save(path, "PNG")) {
        *error = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    return true;
}

bool saveFigurePdf(TimelineView *view, const FigureTable &table, const QString &path, int width,
                   int height, QString *error)
{
    const FigureGeometry g = figureGeometry(table, width, height, view->minimumRenderHeight(width));
    QPdfWriter writer(path);
    writer.setResolution(96);
    writer.setPageSize(
        QPageSize(QSizeF(width * 72.0 / 96.0, g.totalHeight * 72.0 / 96.0), QPageSize::Point));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setCreator(QStringLiteral("ttyscope"));
    writer.setTitle(view->title());
    QCPPainter painter;
    if (!painter.begin(&writer)) {
        *error = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    paintFigure(&painter, view, table, width, g);
    painter.end();
    return true;
}

} // namespace tty
