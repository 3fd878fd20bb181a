#include "sourcespanel.h"

#include "gate.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace tty {

namespace {

QVariant optionalNumber(const std::optional<double> &v, int decimals, int role)
{
    if (role == SourceModel::SortRole) {
        return v ? QVariant(*v) : QVariant(-1.0);
    }
    return v ? QVariant(QString::number(*v, 'f', decimals)) : QVariant(QStringLiteral("n/a"));
}

QString sourceText(const QString &key, bool kernel, SourceGrouping by)
{
    const QString none = by == SourceGrouping::Caller ? QStringLiteral("(no caller id)")
                                                      : QStringLiteral("(no prefix)");
    const QString k = key.isEmpty() ? none : key;
    return kernel ? k : QStringLiteral("[no timestamp] ") + k;
}

// The share column: a bar as long as the share, the percentage on it.
class ShareDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *p, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override
    {
        QStyleOptionViewItem o = option;
        initStyleOption(&o, index);
        const QVariant share = index.data(SourceModel::ShareRole);
        if (share.isValid()) {
            QRect bar = o.rect.adjusted(2, 3, -2, -3);
            bar.setWidth(std::max(1, int(bar.width() * std::clamp(share.toDouble(), 0.0, 1.0))));
            QColor c = o.palette.color(QPalette::Highlight);
            c.setAlpha(110);
            p->fillRect(bar, c);
        }
        QStyledItemDelegate::paint(p, o, index);
    }
};

} // namespace

SourceModel::SourceModel(QObject *parent) : QAbstractTableModel(parent) {}

void SourceModel::setTable(const SourceTable *table, const SourceComparison *comparison)
{
    beginResetModel();
    m_table = table;
    m_comparison = comparison;
    endResetModel();
}

int SourceModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid()) {
        return 0;
    }
    if (m_table) {
        return int(m_table->sources.size());
    }
    return m_comparison ? int(m_comparison->sources.size()) : 0;
}

int SourceModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : (comparing() ? int(DColumnCount) : int(ColumnCount));
}

QVariant SourceModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    if (comparing()) {
        static const char *const kDiff[] = {"Source",  "Mark", "A wire s", "B wire s",
                                            "B − A s", "×",    "A lines",  "B lines"};
        return tr(kDiff[section]);
    }
    static const char *const kNames[] = {"Source", "Wire s", "Share",   "Boot share",
                                         "Lines",  "Bytes",  "Lines/s", "Dropped"};
    return tr(kNames[section]);
}

QVariant SourceModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || (role != Qt::DisplayRole && role != SortRole && role != ShareRole &&
                             role != Qt::ToolTipRole && role != Qt::TextAlignmentRole)) {
        return {};
    }
    const int col = index.column();
    if (role == Qt::TextAlignmentRole) {
        const int last = comparing() ? int(DSource) : int(Source);
        return col == last ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                           : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (comparing()) {
        const SourceDiff &d = m_comparison->sources[std::size_t(index.row())];
        if (role == ShareRole) {
            return {};
        }
        if (role == Qt::ToolTipRole) {
            return d.templ;
        }
        std::optional<double> delta;
        if (d.wireA && d.wireB) {
            delta = *d.wireB - *d.wireA;
        }
        switch (DiffColumn(col)) {
        case DSource:
            return sourceText(d.key, d.kernel, m_comparison->by);
        case DWireA:
            return optionalNumber(d.wireA, 3, role);
        case DWireB:
            return optionalNumber(d.wireB, 3, role);
        case DDelta:
            return optionalNumber(delta, 3, role);
        case DRatio:
            return optionalNumber(d.ratio, 2, role);
        case DLinesA:
            return role == SortRole ? QVariant(d.linesA)
                                    : QVariant(QString::number(d.linesA, 'g', 6));
        case DLinesB:
            return role == SortRole ? QVariant(d.linesB)
                                    : QVariant(QString::number(d.linesB, 'g', 6));
        case DMark:
            return d.markText();
        case DColumnCount:
            break;
        }
        return {};
    }
    const SourceStat &s = m_table->sources[std::size_t(index.row())];
    if (role == ShareRole) {
        return col == Share && s.wireShare ? QVariant(*s.wireShare) : QVariant();
    }
    if (role == Qt::ToolTipRole) {
        return tr("%1\nexample: %2").arg(s.templ, s.example);
    }
    switch (Column(col)) {
    case Source:
        return sourceText(s.key, s.kernel, m_table->by);
    case Wire:
        return optionalNumber(s.wireSeconds, 3, role);
    case Share:
        if (role == SortRole) {
            return s.wireShare.value_or(-1);
        }
        return s.wireShare ? QVariant(QStringLiteral("%1 %").arg(*s.wireShare * 100, 0, 'f', 1))
                           : QVariant(QStringLiteral("n/a"));
    case BootShare:
        if (role == SortRole) {
            return s.bootShare.value_or(-1);
        }
        return s.bootShare ? QVariant(QStringLiteral("%1 %").arg(*s.bootShare * 100, 0, 'f', 1))
                           : QVariant(QStringLiteral("n/a"));
    case Lines:
        return role == SortRole ? QVariant(double(s.lines)) : QVariant(QString::number(s.lines));
    case Bytes:
        return role == SortRole ? QVariant(double(s.bytes)) : QVariant(QString::number(s.bytes));
    case Rate:
        return optionalNumber(s.rate, 1, role);
    case Dropped:
        if (!m_table->dropNote.isEmpty()) { // a kernel log: the console's drops are not in it
            return role == SortRole ? QVariant(-1.0) : QVariant(QStringLiteral("n/a"));
        }
        return role == SortRole ? QVariant(double(s.dropped))
                                : QVariant(QString::number(s.dropped));
    case ColumnCount:
        break;
    }
    return {};
}

SourcesPanel::SourcesPanel(QWidget *parent)
    : QWidget(parent), m_model(new SourceModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_tableView(new QTableView(this)), m_view(new QComboBox(this)), m_by(new QComboBox(this)),
      m_summary(new QLabel(this)), m_addLane(new QPushButton(tr("Add as lane"), this)),
      m_buttons(new QHBoxLayout)
{
    setObjectName(QStringLiteral("sourcesPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    // Two short rows rather than one long one: the dock is often narrow (1366x768).
    auto *row = new QHBoxLayout;
    row->addWidget(m_view, 1);
    m_view->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_view->setMinimumContentsLength(12);
    m_by->addItem(tr("by template"), int(SourceGrouping::Template));
    m_by->addItem(tr("by prefix"), int(SourceGrouping::Prefix));
    m_by->addItem(tr("by caller"), int(SourceGrouping::Caller));
    m_by->setToolTip(tr("Group the lines by message template, by prefix (the driver or "
                        "subsystem before the first \": \") or by caller id ([T123], [C1])"));
    row->addWidget(m_by);
    layout->addLayout(row);
    m_buttons->addWidget(m_addLane);
    m_buttons->addStretch(1);
    layout->addLayout(m_buttons);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    layout->addWidget(m_tableView, 1);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SourceModel::SortRole);
    m_tableView->setModel(m_proxy);
    m_tableView->setSortingEnabled(true);
    m_tableView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tableView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tableView->verticalHeader()->hide();
    m_tableView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_tableView->horizontalHeader()->setStretchLastSection(false);
    m_tableView->setItemDelegateForColumn(SourceModel::Share, new ShareDelegate(m_tableView));
    m_tableView->setWordWrap(false);
    m_addLane->setEnabled(false);
    m_summary->setText(tr("Sources are computed after the metrics."));
    connect(m_view, &QComboBox::currentIndexChanged, this, &SourcesPanel::showView);
    connect(m_tableView->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        m_addLane->setEnabled(!m_tableView->selectionModel()->selectedRows().isEmpty());
        if (!m_tableView->selectionModel()->selectedRows().isEmpty()) {
            emit sourceSelected();
        }
    });
    connect(m_addLane, &QPushButton::clicked, this, &SourcesPanel::addLaneRequested);
    connect(m_by, &QComboBox::currentIndexChanged, this,
            [this] { emit groupingChanged(grouping()); });
}

SourceGrouping SourcesPanel::grouping() const
{
    return SourceGrouping(m_by->currentData().toInt());
}

void SourcesPanel::setLaneAction(QAction *action)
{
    auto *b = new QToolButton(this);
    b->setDefaultAction(action);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_buttons->insertWidget(1, b);
}

void SourcesPanel::setSources(std::shared_ptr<const SourceReport> sources)
{
    m_model->setTable(nullptr, nullptr);
    m_sources = std::move(sources);
    const QSignalBlocker block(m_view);
    m_view->clear();
    m_views.clear();
    if (!m_sources) {
        m_summary->setText(tr("Sources are computed after the metrics."));
        return;
    }
    const Report &report = m_sources->report();
    if (m_sources->comparison()) {
        m_views.append({-1, 0});
        m_view->addItem(
            tr("A vs B: %1 → %2").arg(report.columns()[0].label, report.columns()[1].label));
    }
    for (std::size_t c = 0; c < report.columns().size(); ++c) {
        for (std::size_t t = 0; t < report.columns()[c].metrics.size(); ++t) {
            m_views.append({int(c), int(t)});
            m_view->addItem(trialName(report.columns()[c], t));
        }
    }
    m_view->setCurrentIndex(0);
    showView(0);
}

void SourcesPanel::showView(int index)
{
    if (!m_sources || index < 0 || index >= m_views.size()) {
        return;
    }
    const auto [c, t] = m_views[index];
    if (c < 0) {
        const SourceComparison &cmp = *m_sources->comparison();
        m_model->setTable(nullptr, &cmp);
        QString s =
            tr("Sources only in B: %1, only in A: %2.").arg(cmp.newSources).arg(cmp.goneSources);
        if (cmp.newShareOfExtraBoot) {
            s += tr(" Up to boot-done they took %1 s on the wire, %2 % of the %3 s B took longer "
                    "to boot.")
                     .arg(*cmp.newBootWireSeconds, 0, 'f', 3)
                     .arg(*cmp.newShareOfExtraBoot * 100, 0, 'f', 1)
                     .arg(*cmp.extraBootSeconds, 0, 'f', 3);
        }
        m_summary->setText(s);
        m_tableView->sortByColumn(SourceModel::DDelta, Qt::DescendingOrder);
    } else {
        const SourceTable &table = m_sources->tables()[std::size_t(c)][std::size_t(t)];
        m_model->setTable(&table, nullptr);
        QString s = tr("%1 sources, %2 lines").arg(table.sources.size()).arg(table.lines);
        if (table.wireSeconds) {
            s += tr(", %1 s on the wire").arg(*table.wireSeconds, 0, 'f', 3);
        }
        if (!table.wireNote.isEmpty()) {
            s += tr("; wire time n/a: %1").arg(table.wireNote);
        }
        if (table.dropNote.isEmpty()) {
            s += tr("; dropped messages%3: %1 attributed, %2 not")
                     .arg(table.droppedAttributed)
                     .arg(table.droppedUnattributed)
                     .arg(table.dropsAtLeast.isEmpty()
                              ? QString()
                              : tr(" (at least: %1)").arg(table.dropsAtLeast));
        } else {
            s += tr("; dropped messages n/a: %1").arg(table.dropNote);
        }
        if (!table.bootNote.isEmpty() && table.bootNote != table.wireNote) {
            s += tr("; boot share n/a: %1").arg(table.bootNote);
        }
        m_summary->setText(s + u'.');
        // Without wire times (no baud rate, a kernel log) the biggest sources by bytes.
        m_tableView->sortByColumn(table.wireSeconds ? SourceModel::Wire : SourceModel::Bytes,
                                  Qt::DescendingOrder);
    }
    // The figures at their width; the source as wide as the rest of the dock, at least
    // 200 px, long ones cut (the tooltip has the whole template and an example line).
    m_tableView->resizeColumnsToContents();
    const int sourceColumn =
        m_model->comparing() ? int(SourceModel::DSource) : int(SourceModel::Source);
    m_sourceWidth = m_tableView->columnWidth(sourceColumn);
    fitSourceColumn();
    m_tableView->horizontalScrollBar()->setValue(0);
    m_addLane->setEnabled(false);
}

void SourcesPanel::fitSourceColumn()
{
    // Again whenever the dock is resized: a narrow dock (1366x768) cuts the source at 200
    // px and scrolls the figures sideways; a wide one shows it whole.
    const int sourceColumn =
        m_model->comparing() ? int(SourceModel::DSource) : int(SourceModel::Source);
    if (m_sourceWidth <= 0 || m_model->columnCount() == 0) {
        return;
    }
    int used = 0;
    for (int c = 0; c < m_model->columnCount(); ++c) {
        used += c == sourceColumn ? 0 : m_tableView->columnWidth(c);
    }
    const int room = std::max(200, m_tableView->viewport()->width() - used - 4);
    m_tableView->setColumnWidth(sourceColumn, std::min(m_sourceWidth, room));
}

void SourcesPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitSourceColumn();
}

QPair<int, int> SourcesPanel::shown() const
{
    const int i = m_view->currentIndex();
    return i >= 0 && i < m_views.size() ? m_views[i] : QPair<int, int>(-1, -1);
}

int SourcesPanel::modelRow(int viewRow) const
{
    return m_proxy->mapToSource(m_proxy->index(viewRow, 0)).row();
}

const SourceStat *SourcesPanel::sourceAt(int row) const
{
    const auto [c, t] = shown();
    if (!m_sources || c < 0 || row < 0 || row >= m_proxy->rowCount()) {
        return nullptr;
    }
    return &m_sources->tables()[std::size_t(c)][std::size_t(t)].sources[std::size_t(modelRow(row))];
}

const SourceDiff *SourcesPanel::diffAt(int row) const
{
    if (!m_sources || shown().first >= 0 || !m_sources->comparison() || row < 0 ||
        row >= m_proxy->rowCount()) {
        return nullptr;
    }
    return &m_sources->comparison()->sources[std::size_t(modelRow(row))];
}

void SourcesPanel::selectRow(int row)
{
    m_tableView->selectRow(row);
}

} // namespace tty
