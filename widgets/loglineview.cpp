#include "loglineview.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QStyledItemDelegate>
#include <QToolTip>

#include <algorithm>

namespace tty {

namespace {
// Copying more lines than this at once is refused (a beep): the clipboard is not how a
// log of millions of lines is exported (`ttyscope cat` is).
} // namespace

LogLineView::LogLineView(QAbstractItemModel *model, int textColumn, QWidget *parent)
    : QAbstractScrollArea(parent), m_model(model), m_textColumn(textColumn),
      m_selection(new QItemSelectionModel(model, this)),
      m_header(new QHeaderView(Qt::Horizontal, this)),
      m_defaultDelegate(new QStyledItemDelegate(this))
{
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setBackgroundRole(QPalette::Base);
    viewport()->setAutoFillBackground(true);
    viewport()->setMouseTracking(false);
    verticalScrollBar()->setSingleStep(1);

    m_header->setModel(model);
    m_header->setSectionsClickable(false);
    m_header->setHighlightSections(false);
    m_header->setSectionResizeMode(QHeaderView::Interactive);
    m_header->setStretchLastSection(true);
    connect(m_header, &QHeaderView::sectionResized, this, [this] {
        updateScrollBars();
        viewport()->update();
    });
    connect(m_header, &QHeaderView::geometriesChanged, this, &LogLineView::updateHeaderGeometry);

    auto refresh = [this] {
        updateScrollBars();
        viewport()->update();
    };
    connect(model, &QAbstractItemModel::modelReset, this, [this, refresh] {
        m_anchorRow = -1;
        refresh();
    });
    connect(model, &QAbstractItemModel::rowsInserted, this, refresh);
    connect(model, &QAbstractItemModel::rowsRemoved, this, refresh);
    connect(model, &QAbstractItemModel::layoutChanged, this, refresh);
    connect(model, &QAbstractItemModel::dataChanged, viewport(), qOverload<>(&QWidget::update));
    connect(m_selection, &QItemSelectionModel::selectionChanged, viewport(),
            qOverload<>(&QWidget::update));
    connect(m_selection, &QItemSelectionModel::currentChanged, viewport(),
            qOverload<>(&QWidget::update));
    updateRowHeight();
    updateHeaderGeometry();
}

void LogLineView::setItemDelegateForColumn(int column, QAbstractItemDelegate *delegate)
{
    if (column >= m_columnDelegates.size()) {
        m_columnDelegates.resize(column + 1, nullptr);
    }
    m_columnDelegates[column] = delegate;
    viewport()->update();
}

void LogLineView::setColumnElideMode(int column, Qt::TextElideMode mode)
{
    if (column >= m_columnElide.size()) {
        m_columnElide.resize(column + 1, Qt::ElideRight);
    }
    m_columnElide[column] = mode;
    viewport()->update();
}

QAbstractItemDelegate *LogLineView::delegateFor(int column) const
{
    QAbstractItemDelegate *d =
        column < m_columnDelegates.size() ? m_columnDelegates[column] : nullptr;
    return d ? d : m_defaultDelegate;
}

void LogLineView::setSortingEnabled(bool enabled)
{
    m_header->setSectionsClickable(enabled);
    m_header->setSortIndicatorShown(enabled);
    // A click flips the header's indicator, which sorts the model.
    if (enabled) {
        connect(m_header, &QHeaderView::sortIndicatorChanged, this, &LogLineView::applySort,
                Qt::UniqueConnection);
    } else {
        disconnect(m_header, &QHeaderView::sortIndicatorChanged, this, &LogLineView::applySort);
    }
}

void LogLineView::sortByColumn(int column, Qt::SortOrder order)
{
    {
        const QSignalBlocker quiet(m_header); // sorted once, below
        m_header->setSortIndicator(column, order);
    }
    applySort(column, order);
}

void LogLineView::applySort(int column, Qt::SortOrder order)
{
    m_model->sort(column, order);
    const QModelIndex cur = currentIndex();
    if (cur.isValid()) {
        scrollTo(cur); // the current row stays in sight wherever the sort put it
    }
}

void LogLineView::setColumnWidth(int column, int width)
{
    m_header->resizeSection(column, width);
}

int LogLineView::rowCount() const
{
    return m_model->rowCount();
}

int LogLineView::rowsInSight() const
{
    return std::max(1, viewport()->height() / m_rowHeight);
}

int LogLineView::firstVisibleRow() const
{
    return verticalScrollBar()->value();
}

int LogLineView::rowAtY(int y) const
{
    if (y < 0) {
        return -1;
    }
    const int row = firstVisibleRow() + y / m_rowHeight;
    return row < rowCount() ? row : -1;
}

QModelIndex LogLineView::indexAt(const QPoint &pos) const
{
    const int row = rowAtY(pos.y());
    const int column = m_header->logicalIndexAt(pos.x());
    return row < 0 || column < 0 ? QModelIndex() : m_model->index(row, column);
}

QRect LogLineView::visualRect(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != m_model) {
        return {};
    }
    const int y = (index.row() - firstVisibleRow()) * m_rowHeight;
    if (y + m_rowHeight <= 0 || y >= viewport()->height()) {
        return {};
    }
    return QRect(m_header->sectionViewportPosition(index.column()), y,
                 m_header->sectionSize(index.column()), m_rowHeight);
}

void LogLineView::updateScrollBars()
{
    // The vertical bar counts rows (an int, as the model's rows): the position of any
    // line is a multiplication, whatever the number of lines.
    const int sight = rowsInSight();
    verticalScrollBar()->setPageStep(sight);
    verticalScrollBar()->setRange(0, std::max(0, rowCount() - sight));
    const int width = viewport()->width();
    horizontalScrollBar()->setPageStep(width);
    horizontalScrollBar()->setSingleStep(std::max(1, fontMetrics().horizontalAdvance('0') * 4));
    horizontalScrollBar()->setRange(0, std::max(0, m_header->length() - width));
}

void LogLineView::updateRowHeight()
{
    m_rowHeight = fontMetrics().height() + 4; // the height the rows had in a QTableView
    updateScrollBars();
}

void LogLineView::updateHeaderGeometry()
{
    const int height = m_header->isHidden() ? 0 : m_header->sizeHint().height();
    setViewportMargins(0, height, 0, 0);
    const QRect vg = viewport()->geometry();
    m_header->setGeometry(vg.left(), vg.top() - height, vg.width(), height);
}

void LogLineView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateHeaderGeometry();
    updateScrollBars();
}

void LogLineView::scrollContentsBy(int, int)
{
    m_header->setOffset(horizontalScrollBar()->value());
    viewport()->update();
}

void LogLineView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange) {
        updateRowHeight();
    }
    QAbstractScrollArea::changeEvent(event);
}

void LogLineView::focusInEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusInEvent(event);
    viewport()->update(); // the current cell's focus frame
}

void LogLineView::focusOutEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusOutEvent(event);
    viewport()->update();
}

void LogLineView::paintEvent(QPaintEvent *)
{
    QPainter painter(viewport());
    const int rows = rowCount();
    const int first = firstVisibleRow();
    const int last = std::min(rows - 1, first + viewport()->height() / m_rowHeight);
    if (first > last) {
        return;
    }
    // The option each cell starts from, as an item view builds it.
    QStyleOptionViewItem base;
    base.initFrom(this);
    base.state &= ~(QStyle::State_HasFocus | QStyle::State_MouseOver);
    base.font = font();
    base.fontMetrics = fontMetrics();
    base.widget = this;
    base.textElideMode = Qt::ElideRight;
    base.displayAlignment = Qt::AlignLeft | Qt::AlignVCenter;
    base.showDecorationSelected =
        style()->styleHint(QStyle::SH_ItemView_ShowDecorationSelected, nullptr, this);
    base.palette.setCurrentColorGroup(isActiveWindow() ? QPalette::Active : QPalette::Inactive);
    const QModelIndex current = currentIndex();
    const int width = viewport()->width();
    const int columns = m_header->count();
    for (int row = first; row <= last; ++row) {
        const int y = (row - first) * m_rowHeight;
        const bool selected = m_selection->isRowSelected(row, QModelIndex());
        for (int visual = 0; visual < columns; ++visual) {
            const int column = m_header->logicalIndex(visual);
            if (m_header->isSectionHidden(column)) {
                continue;
            }
            const int x = m_header->sectionViewportPosition(column);
            const int w = m_header->sectionSize(column);
            if (x + w <= 0 || x >= width) {
                continue;
            }
            QStyleOptionViewItem opt = base;
            opt.rect = QRect(x, y, w, m_rowHeight);
            if (column < m_columnElide.size()) {
                opt.textElideMode = m_columnElide[column];
            }
            if (selected) {
                opt.state |= QStyle::State_Selected;
            }
            if (hasFocus() && current.row() == row && current.column() == column) {
                opt.state |= QStyle::State_HasFocus;
            }
            opt.viewItemPosition = visual == 0             ? QStyleOptionViewItem::Beginning
                                   : visual == columns - 1 ? QStyleOptionViewItem::End
                                                           : QStyleOptionViewItem::Middle;
            delegateFor(column)->paint(&painter, opt, m_model->index(row, column));
        }
    }
}

QModelIndex LogLineView::currentIndex() const
{
    return m_selection->currentIndex();
}

void LogLineView::selectRange(int from, int to)
{
    const int top = std::min(from, to);
    const int bottom = std::max(from, to);
    m_selection->select(
        QItemSelection(m_model->index(top, 0), m_model->index(bottom, m_model->columnCount() - 1)),
        QItemSelectionModel::ClearAndSelect);
}

void LogLineView::moveCurrent(int row, bool extend)
{
    const int rows = rowCount();
    if (rows == 0) {
        return;
    }
    row = std::clamp(row, 0, rows - 1);
    const QModelIndex cur = currentIndex();
    const int column = cur.isValid() ? cur.column() : m_textColumn;
    if (!extend || m_anchorRow < 0) {
        m_anchorRow = extend && cur.isValid() ? cur.row() : row;
    }
    m_selection->setCurrentIndex(m_model->index(row, column), QItemSelectionModel::NoUpdate);
    selectRange(m_anchorRow, row);
    scrollTo(m_model->index(row, column));
}

void LogLineView::selectRow(int row)
{
    moveCurrent(row, false);
}

void LogLineView::clearSelection()
{
    m_selection->clearSelection();
}

void LogLineView::scrollTo(const QModelIndex &index, QAbstractItemView::ScrollHint hint)
{
    if (!index.isValid()) {
        return;
    }
    const int row = index.row();
    const int first = firstVisibleRow();
    const int sight = rowsInSight();
    int top = first;
    switch (hint) {
    case QAbstractItemView::EnsureVisible:
        if (row < first) {
            top = row;
        } else if (row >= first + sight) {
            top = row - sight + 1;
        }
        break;
    case QAbstractItemView::PositionAtTop:
        top = row;
        break;
    case QAbstractItemView::PositionAtBottom:
        top = row - sight + 1;
        break;
    case QAbstractItemView::PositionAtCenter:
        top = row - sight / 2;
        break;
    }
    verticalScrollBar()->setValue(top);
}

void LogLineView::scrollToBottom()
{
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

void LogLineView::keyPressEvent(QKeyEvent *event)
{
    if (event == QKeySequence::Copy) {
        copySelection();
        return;
    }
    if (event == QKeySequence::SelectAll) {
        if (rowCount() > 0) {
            m_anchorRow = 0;
            selectRange(0, rowCount() - 1);
        }
        return;
    }
    const QModelIndex cur = currentIndex();
    const int row = cur.isValid() ? cur.row() : firstVisibleRow() - 1;
    const bool extend = event->modifiers() & Qt::ShiftModifier;
    switch (event->key()) {
    case Qt::Key_Down:
        moveCurrent(row + 1, extend);
        return;
    case Qt::Key_Up:
        moveCurrent(row - 1, extend);
        return;
    case Qt::Key_PageDown:
        moveCurrent(row + rowsInSight(), extend);
        return;
    case Qt::Key_PageUp:
        moveCurrent(row - rowsInSight(), extend);
        return;
    case Qt::Key_Home:
        moveCurrent(0, extend);
        return;
    case Qt::Key_End:
        moveCurrent(rowCount() - 1, extend);
        return;
    case Qt::Key_Left:
        horizontalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepSub);
        return;
    case Qt::Key_Right:
        horizontalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepAdd);
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (cur.isValid()) {
            emit activated(cur);
        }
        return;
    default:
        QAbstractScrollArea::keyPressEvent(event);
    }
}

void LogLineView::mousePressEvent(QMouseEvent *event)
{
    const int row = rowAtY(event->position().toPoint().y());
    if (row < 0) {
        return;
    }
    setFocus(Qt::MouseFocusReason);
    if (event->button() == Qt::RightButton && m_selection->isRowSelected(row, QModelIndex())) {
        return; // a right click keeps a selection it falls into
    }
    const int column = std::max(0, m_header->logicalIndexAt(event->position().toPoint().x()));
    const QModelIndex at = m_model->index(row, column);
    if (event->modifiers() & Qt::ControlModifier) {
        m_anchorRow = row;
        m_selection->setCurrentIndex(at, QItemSelectionModel::NoUpdate);
        m_selection->select(at, QItemSelectionModel::Toggle | QItemSelectionModel::Rows);
        return;
    }
    const bool extend = (event->modifiers() & Qt::ShiftModifier) && m_anchorRow >= 0;
    if (!extend) {
        m_anchorRow = row;
    }
    m_selection->setCurrentIndex(at, QItemSelectionModel::NoUpdate);
    selectRange(m_anchorRow, row);
    if (event->button() == Qt::LeftButton && !extend) {
        emit activated(at);
    }
}

void LogLineView::mouseMoveEvent(QMouseEvent *event)
{
    if (!(event->buttons() & Qt::LeftButton) || m_anchorRow < 0 || rowCount() == 0) {
        return;
    }
    // Dragging past the top or bottom edge scrolls, a row per move event.
    const int y = event->position().toPoint().y();
    int row = firstVisibleRow() + y / m_rowHeight;
    if (y < 0) {
        row = firstVisibleRow() - 1;
    }
    moveCurrent(row, true);
}

bool LogLineView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QModelIndex at = indexAt(help->pos());
        const QString tip = at.isValid() ? at.data(Qt::ToolTipRole).toString() : QString();
        if (tip.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(help->globalPos(), tip, viewport(), visualRect(at));
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void LogLineView::copySelection() const
{
    // The selected lines' text as shown (controls left out), one per line, in order.
    QItemSelection ranges = m_selection->selection();
    std::sort(ranges.begin(), ranges.end(),
              [](const QItemSelectionRange &a, const QItemSelectionRange &b) {
                  return a.top() < b.top();
              });
    qint64 lines = 0;
    for (const QItemSelectionRange &r : ranges) {
        lines += r.bottom() - r.top() + 1;
    }
    if (lines == 0 || lines > kMaxCopiedLines) {
        QApplication::beep();
        return;
    }
    std::vector<int> rows;
    rows.reserve(std::size_t(lines));
    int last = -1;
    for (const QItemSelectionRange &r : ranges) {
        for (int row = std::max(r.top(), last + 1); row <= r.bottom(); ++row) {
            rows.push_back(row);
            last = row;
        }
    }
    const QStringList texts = m_rowsText ? m_rowsText(rows) : QStringList();
    QString text;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        text += m_rowsText ? texts.value(qsizetype(k))
                           : m_model->index(rows[k], m_textColumn).data().toString();
        text += QLatin1Char('\n');
    }
    QApplication::clipboard()->setText(text);
}

} // namespace tty
