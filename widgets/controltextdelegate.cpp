#include "controltextdelegate.h"

#include "consolecolors.h"
#include "logmodel.h"

#include <QApplication>
#include <QPainter>

namespace tty {

QList<QTextLayout::FormatRange>
ControlTextDelegate::formats(const QModelIndex &index, const QFont &font, const QColor &foreground,
                             const QColor &background, bool selected)
{
    QList<QTextLayout::FormatRange> out;
    const QVector<int> styles = index.data(LogModel::StyleRunsRole).value<QVector<int>>();
    for (int i = 0; i + 3 < styles.size(); i += 4) {
        QTextLayout::FormatRange f;
        f.start = styles[i];
        f.length = styles[i + 1] - styles[i];
        const QColor c = xtermColor(unpackColor(styles[i + 2]));
        if (c.isValid() && !selected) {
            f.format.setForeground(readableOn(c, background));
        }
        if (styles[i + 3]) {
            QFont bold = font;
            bold.setBold(true);
            f.format.setFont(bold);
        }
        out << f;
    }
    const QVector<int> ranges = index.data(LogModel::ControlRangesRole).value<QVector<int>>();
    QColor dim = foreground;
    dim.setAlphaF(0.4);
    for (int i = 0; i + 1 < ranges.size(); i += 2) {
        QTextLayout::FormatRange f;
        f.start = ranges[i];
        f.length = ranges[i + 1] - ranges[i];
        f.format.setForeground(dim);
        out << f;
    }
    return out;
}

void ControlTextDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                                const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const bool selected = opt.state & QStyle::State_Selected;
    const QColor fg = opt.palette.color(selected ? QPalette::HighlightedText : QPalette::Text);
    const QColor bg = opt.palette.color(QPalette::Base);
    const QList<QTextLayout::FormatRange> fmts = formats(index, opt.font, fg, bg, selected);
    if (fmts.isEmpty()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const QString text = opt.text;
    opt.text.clear(); // background, selection and focus as usual; the text below
    const QWidget *w = opt.widget;
    QStyle *style = w ? w->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, w);
    const QRect r = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, w);
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, w) + 1;
    QTextLayout layout(text, opt.font);
    layout.setFormats(fmts);
    layout.beginLayout();
    QTextLine line = layout.createLine();
    line.setLineWidth(1e6); // one line; the cell clips
    layout.endLayout();
    painter->save();
    painter->setClipRect(r);
    painter->setPen(fg);
    const qreal y = r.top() + (r.height() - line.height()) / 2;
    layout.draw(painter, QPointF(r.left() + margin, y));
    painter->restore();
}

} // namespace tty
