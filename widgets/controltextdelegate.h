// Draws the log text as a terminal shows it: stretches that SGR sequences colour in their
// colour (made readable on the view's background) or bold, and the escape sequences and
// control characters (when the View menu shows them) dim, so the printed text reads first.
#pragma once

#include <QStyledItemDelegate>
#include <QTextLayout>

namespace tty {

class ControlTextDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;

    // The formats drawn for a cell: colours and bold from StyleRunsRole (on `background`,
    // left out when `selected`: the selection's own colours read best), dim controls.
    static QList<QTextLayout::FormatRange> formats(const QModelIndex &index, const QFont &font,
                                                   const QColor &foreground,
                                                   const QColor &background, bool selected);
};

} // namespace tty
