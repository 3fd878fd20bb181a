#include "eventlist.h"

#include "loglineview.h"
#include "palette.h"

#include <QComboBox>
#include <QHeaderView>
#include <QPixmap>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>

namespace tty {

EventList::EventList(QWidget *parent) : QWidget(parent), m_model(new EventModel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_kinds = new QComboBox(this);
    layout->addWidget(m_kinds);
    // A view that keeps nothing per row (a QTableView's vertical header, even hidden, held
    // and reset an entry per row: 60 ms for the million events of a 10 GiB log).
    m_table = new LogLineView(m_model, EventModel::Text, this);
    m_table->setRowsText([this](const std::vector<int> &rows) { return m_model->texts(rows); });
    // Events come in time order already; no column is sorted until the user asks (sorting
    // a million rows takes a while).
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    layout->addWidget(m_table, 1);
    // A trial's label ends with its source ("k61-t*.log [k61-t3.log]"): both ends stay.
    m_table->setColumnElideMode(EventModel::RunCol, Qt::ElideMiddle);
    // A big list sorts on a worker: the header shows the new column at once, the rows
    // follow when sorted; meanwhile the list says it is busy.
    connect(m_model, &EventModel::sortingChanged, this, [this](bool sorting) {
        if (sorting) {
            m_table->viewport()->setCursor(Qt::BusyCursor);
        } else {
            m_table->viewport()->unsetCursor();
        }
    });
    connect(m_kinds, &QComboBox::currentIndexChanged, this,
            [this] { setKindFilter(m_kinds->currentData().toString()); });
    connect(m_table, &LogLineView::activated, this, [this](const QModelIndex &i) {
        emit eventActivated(i.data(EventModel::RunRole).toInt(),
                            i.data(EventModel::EventRole).toInt());
    });
}

void EventList::setRuns(const QVector<TimelineRun> &runs)
{
    const bool sameRuns = m_model->setRuns(runs);
    m_table->horizontalHeader()->setSectionHidden(EventModel::RunCol, runs.size() < 2);
    fillKinds(sameRuns);
    // Wide enough for any kind with a count, measured on the names rather than on the rows
    // (measuring the rows would ask for 10^6 events of a big log).
    int width = 0;
    const QFontMetrics fm(m_table->font());
    for (int k = 0; k < kEventKindCount; ++k) {
        width = std::max(width, fm.horizontalAdvance(QLatin1String(eventKindName(EventKind(k))) +
                                                     QStringLiteral(" (000000)")));
    }
    m_table->setColumnWidth(EventModel::Kind, width + 2 * fm.averageCharWidth());
    // The run column as wide as the part of the labels that tells the runs apart, within
    // limits: a long label is elided, whole in its tooltip.
    int runWidth = 0;
    for (const QString &label : m_model->runColumnLabels()) {
        runWidth = std::max(runWidth, fm.horizontalAdvance(label));
    }
    const int decoration = m_table->style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_table->setColumnWidth(EventModel::RunCol,
                            std::clamp(runWidth + decoration + 3 * fm.averageCharWidth(),
                                       fm.averageCharWidth() * 8, fm.averageCharWidth() * 24));
}

void EventList::setCrashTitles(std::shared_ptr<const CrashTitles> titles)
{
    m_model->setCrashTitles(std::move(titles));
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
            m_kinds->addItem(tr("crash: %1 (%2)").arg(title, QString::number(count)),
                             QStringLiteral("title:") + title);
            m_kinds->setItemData(m_kinds->count() - 1, title, Qt::ToolTipRole);
        }
    }
    const int keep = m_kinds->findData(chosen);
    m_kinds->setCurrentIndex(std::max(keep, 0));
    m_kinds->blockSignals(false);
    m_model->setFilter(keep >= 0 ? chosen : QString());
}

void EventList::setKindFilter(const QString &kindName)
{
    const int i = m_kinds->findData(kindName);
    if (i >= 0 && m_kinds->currentIndex() != i) {
        m_kinds->setCurrentIndex(i); // comes back here through the signal
        return;
    }
    m_model->setFilter(kindName);
}

void EventList::selectEvent(int run, int eventIndex)
{
    const int row = m_model->rowOf(run, eventIndex);
    if (row >= 0) { // else it is filtered out
        m_table->selectRow(row);
    }
}

} // namespace tty
