#include "eventlist.h"

#include "crashes.h"
#include "logmodel.h"
#include "palette.h"

#include <QComboBox>
#include <QHeaderView>
#include <QPainter>
#include <QPixmap>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tty {

EventModel::EventModel(QObject *parent) : QAbstractTableModel(parent) {}

bool EventModel::setRuns(const QVector<TimelineRun> &runs)
{
    bool sameRuns = runs.size() == m_runs.size();
    for (int r = 0; sameRuns && r < runs.size(); ++r) {
        sameRuns = runs[r].run == m_runs[r].run;
    }
    beginResetModel();
    m_runs = runs;
    m_rows.clear();
    for (int r = 0; r < runs.size(); ++r) {
        for (int e = 0; e < int(runs[r].run->events.size()); ++e) {
            m_rows.append({r, e});
        }
    }
    if (!sameRuns) {
        m_titles = QVector<QHash<int, QString>>(runs.size());
    }
    endResetModel();
    return sameRuns;
}

void EventModel::setCrashes(const QVector<std::shared_ptr<const std::vector<Crash>>> &crashes)
{
    m_titles = QVector<QHash<int, QString>>(m_runs.size());
    for (int r = 0; r < m_runs.size() && r < crashes.size(); ++r) {
        if (crashes[r]) {
            for (const Crash &c : *crashes[r]) {
                m_titles[r].insert(int(c.event), c.title);
            }
        }
    }
    if (!m_rows.isEmpty()) {
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
    }
}

QVector<int> EventModel::kindCounts() const
{
    QVector<int> counts(kEventKindCount, 0);
    for (const TimelineRun &r : m_runs) {
        for (const Event &e : r.run->events) {
            ++counts[int(e.kind)];
        }
    }
    return counts;
}

QVector<QPair<QString, int>> EventModel::crashTitles() const
{
    QHash<QString, int> counts;
    for (const QHash<int, QString> &titles : m_titles) {
        for (const QString &t : titles) {
            ++counts[t];
        }
    }
    QVector<QPair<QString, int>> out;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        out.append({it.key(), it.value()});
    }
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    return out;
}

int EventModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}
int EventModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size()) {
        return {};
    }
    const auto [ri, ei] = m_rows[index.row()];
    const TimelineRun &tr = m_runs[ri];
    const Run &run = *tr.run;
    const Event &e = run.events[std::size_t(ei)];
    switch (role) {
    case RunRole:
        return ri;
    case EventRole:
        return ei;
    case KindRole:
        return QLatin1String(eventKindName(e.kind));
    case TitleRole:
        return m_titles.value(ri).value(ei);
    case Qt::ToolTipRole: {
        const QString title = m_titles.value(ri).value(ei);
        return title.isEmpty() ? QVariant() : QVariant(title);
    }
    case Qt::DecorationRole:
        if (index.column() == Kind) {
            QPixmap pm(10, 10);
            pm.fill(kindStyle(e.kind).color);
            return pm;
        }
        if (index.column() == RunCol) {
            QPixmap pm(10, 10);
            pm.fill(runColor(tr.group));
            return pm;
        }
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case RunCol:
            return tr.label;
        case Kind: {
            QString k = QLatin1String(eventKindName(e.kind));
            if (e.kind == EventKind::Drop || e.kind == EventKind::Ratelimit) {
                k += QStringLiteral(" (%1)").arg(e.count);
            }
            return k;
        }
        case Arrival: {
            const std::optional<RunSeconds> t = run.eventTime(e);
            return t ? QString::number(tr.xOf(*t), 'f', 3) : QString();
        }
        case Kernel: {
            if (e.note || e.line >= run.lines.endIndex()) {
                return {};
            }
            const std::optional<KernelUs> k = run.lines.kernelTime(e.line);
            return k ? QString::number(double(k->count()) * 1e-6, 'f', 6) : QString();
        }
        case Text: {
            const LineText text = run.eventText(e);
            return LogModel::displayText(text.view());
        }
        }
        return {};
    case Qt::UserRole: // sort key
        if (index.column() == Arrival) {
            // Events without an arrival sort as NaN, as QVariant compares doubles.
            const std::optional<RunSeconds> t = run.eventTime(e);
            return t ? tr.xOf(*t) : std::numeric_limits<double>::quiet_NaN();
        }
        return data(index, Qt::DisplayRole);
    }
    return {};
}

QVariant EventModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (role != Qt::DisplayRole || o != Qt::Horizontal) {
        return {};
    }
    switch (section) {
    case RunCol:
        return tr("run");
    case Kind:
        return tr("kind");
    case Arrival:
        return tr("time (s)");
    case Kernel:
        return tr("kernel time");
    case Text:
        return tr("text");
    }
    return {};
}

namespace {
class KindFilter : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    QString kind;
    void setKind(const QString &k)
    {
        if (k == kind) {
            return; // refiltering 10^5 events of a big log takes a while
        }
        kind = k;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override
    {
        if (kind.isEmpty()) {
            return true;
        }
        const QModelIndex i = sourceModel()->index(row, 0, parent);
        if (kind.startsWith(QLatin1String("title:"))) {
            return i.data(EventModel::TitleRole).toString() == QStringView(kind).mid(6);
        }
        return i.data(EventModel::KindRole).toString() == kind;
    }
};
} // namespace

EventList::EventList(QWidget *parent) : QWidget(parent), m_model(new EventModel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_kinds = new QComboBox(this);
    layout->addWidget(m_kinds);
    auto *proxy = new KindFilter(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(Qt::UserRole);
    m_proxy = proxy;
    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    // Events come in time order already; sorting a million rows through the proxy would
    // freeze the window, so no column is sorted until the user asks.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(QFontMetrics(font()).height() + 4);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    layout->addWidget(m_table, 1);
    connect(m_kinds, &QComboBox::currentIndexChanged, this,
            [this] { setKindFilter(m_kinds->currentData().toString()); });
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex &i) {
        emit eventActivated(i.data(EventModel::RunRole).toInt(),
                            i.data(EventModel::EventRole).toInt());
    });
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex &i) {
        emit eventActivated(i.data(EventModel::RunRole).toInt(),
                            i.data(EventModel::EventRole).toInt());
    });
}

void EventList::setRuns(const QVector<TimelineRun> &runs)
{
    const bool sameRuns = m_model->setRuns(runs);
    m_table->setColumnHidden(EventModel::RunCol, runs.size() < 2);
    fillKinds(sameRuns);
    // Wide enough for any kind with a count, measured on the names rather than on the rows
    // (resizeColumnToContents asks the proxy of 10^5 events of a big log for them).
    int width = 0;
    const QFontMetrics fm(m_table->font());
    for (int k = 0; k < kEventKindCount; ++k) {
        width = std::max(width, fm.horizontalAdvance(QLatin1String(eventKindName(EventKind(k))) +
                                                     QStringLiteral(" (000000)")));
    }
    m_table->setColumnWidth(EventModel::Kind, width + 2 * fm.averageCharWidth());
}

void EventList::setCrashes(const QVector<std::shared_ptr<const std::vector<Crash>>> &crashes)
{
    m_model->setCrashes(crashes);
    fillKinds(true);
}

void EventList::fillKinds(bool keepChoice)
{
    const QString chosen = keepChoice ? m_kinds->currentData().toString() : QString();
    const QVector<int> counts = m_model->kindCounts();
    m_kinds->blockSignals(true);
    m_kinds->clear();
    m_kinds->addItem(tr("all kinds (%1)").arg(m_model->rowCount()), QString());
    for (int k = 0; k < kEventKindCount; ++k) {
        if (counts[k] > 0) {
            QPixmap pm(10, 10);
            pm.fill(kindStyle(EventKind(k)).color);
            m_kinds->addItem(QIcon(pm),
                             QStringLiteral("%1 (%2)")
                                 .arg(QLatin1String(eventKindName(EventKind(k))))
                                 .arg(counts[k]),
                             QLatin1String(eventKindName(EventKind(k))));
        }
    }
    // Crashes grouped by title: one entry per title with its count over the runs shown.
    const QVector<QPair<QString, int>> titles = m_model->crashTitles();
    if (!titles.isEmpty()) {
        m_kinds->insertSeparator(m_kinds->count());
        for (const auto &[title, count] : titles) {
            m_kinds->addItem(tr("crash: %1 (%2)").arg(title).arg(count),
                             QStringLiteral("title:") + title);
            m_kinds->setItemData(m_kinds->count() - 1, title, Qt::ToolTipRole);
        }
    }
    const int keep = m_kinds->findData(chosen);
    m_kinds->setCurrentIndex(std::max(keep, 0));
    m_kinds->blockSignals(false);
    static_cast<KindFilter *>(m_proxy)->setKind(keep >= 0 ? chosen : QString());
}

void EventList::setKindFilter(const QString &kindName)
{
    const int i = m_kinds->findData(kindName);
    if (i >= 0 && m_kinds->currentIndex() != i) {
        m_kinds->setCurrentIndex(i); // comes back here through the signal
        return;
    }
    static_cast<KindFilter *>(m_proxy)->setKind(kindName);
}

void EventList::selectEvent(int run, int eventIndex)
{
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        const QModelIndex i = m_proxy->index(r, 0);
        if (i.data(EventModel::RunRole).toInt() == run &&
            i.data(EventModel::EventRole).toInt() == eventIndex) {
            m_table->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect |
                                                              QItemSelectionModel::Rows);
            m_table->scrollTo(i);
            return;
        }
    }
}

} // namespace tty
