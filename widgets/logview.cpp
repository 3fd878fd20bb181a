#include "logview.h"

#include "controltextdelegate.h"
#include "linematcher.h"
#include "linesearch.h"
#include "loglineview.h"

#include <QCheckBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tty {

LogView::LogView(QWidget *parent) : QWidget(parent), m_model(new LogModel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto *bar = new QHBoxLayout;
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search (regex), Enter = next"));
    m_search->setClearButtonEnabled(true);
    auto *prev = new QToolButton(this);
    prev->setText(QStringLiteral("▲"));
    prev->setToolTip(tr("Previous match (Shift+F3)"));
    auto *next = new QToolButton(this);
    next->setText(QStringLiteral("▼"));
    next->setToolTip(tr("Next match (F3)"));
    m_filter = new QCheckBox(tr("only matches"), this);
    m_status = new QLabel(this);
    bar->addWidget(m_search, 1);
    bar->addWidget(prev);
    bar->addWidget(next);
    bar->addWidget(m_filter);
    bar->addWidget(m_status);
    layout->addLayout(bar);

    m_lines = new LogLineView(m_model, LogModel::Text, this);
    m_lines->setItemDelegateForColumn(LogModel::Text, new ControlTextDelegate(m_lines));
    // A copy is for a mail or a bug report: whole lines, their timestamps in, as printed.
    m_lines->setRowsText(
        [this](const std::vector<int> &rows) { return m_model->copiedText(rows); });
    m_lines->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    fitColumns();
    layout->addWidget(m_lines, 1);

    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        if (m_pendingSearch != m_search->text() || !m_matches) {
            search(m_search->text());
        } else {
            findNext();
        }
    });
    connect(next, &QToolButton::clicked, this, &LogView::findNext);
    connect(prev, &QToolButton::clicked, this, &LogView::findPrevious);
    connect(m_filter, &QCheckBox::toggled, this, &LogView::setFilterToMatches);
    connect(m_searchTask.watcher(), &QFutureWatcherBase::finished, this, &LogView::onSearchDone);
    connect(m_lines->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &cur) {
                if (const std::optional<LineIndex> l =
                        cur.isValid() ? m_model->lineAt(cur.row()) : std::nullopt) {
                    emit currentLineChanged(*l);
                }
            });
    connect(m_lines->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        // From the ranges, not selectedRows(): a selection of millions of lines is a few
        // ranges, and an index per row would be millions.
        std::optional<LineIndex> lo, hi;
        for (const QItemSelectionRange &r : m_lines->selectionModel()->selection()) {
            for (int row : {r.top(), r.bottom()}) {
                if (const std::optional<LineIndex> l = m_model->lineAt(row)) {
                    lo = lo ? std::min(*lo, *l) : *l;
                    hi = hi ? std::max(*hi, *l) : *l;
                }
            }
        }
        if (lo) {
            emit selectionChanged(*lo, *hi);
        }
    });
}

LogView::~LogView()
{
    stopSearch();
}

void LogView::stopSearch()
{
    // A search over a big log takes a while: it is told to stop, which it notices within
    // a few milliseconds, rather than waited for.
    if (m_cancelSearch) {
        *m_cancelSearch = true;
    }
    m_searchTask.waitForFinished();
}

void LogView::setRun(std::shared_ptr<const Run> run)
{
    stopSearch();
    m_run = run;
    m_matches.reset();
    m_model->setRun(std::move(run));
    m_filter->setChecked(false);
    m_status->clear();
    fitColumns();
}

void LogView::setWallClock(bool on)
{
    m_model->setWallClock(on);
    fitColumns();
}

namespace {

int integerDigits(double v)
{
    int n = 1;
    for (double x = std::fabs(v); x >= 10 && n < 20; x /= 10) {
        ++n;
    }
    return n;
}

} // namespace

void LogView::fitColumns()
{
    // Characters of the widest value: a live run (or none yet) keeps room for ten million
    // lines and a day of seconds.
    int number = 8, arrival = 12, kernel = 12, lag = 9;
    if (m_run && !m_run->growLock) {
        const LineTable &lines = m_run->lines;
        number = integerDigits(double(lines.size().count()));
        double lastArrival = 0;
        if (lines.size().count() > 0) {
            if (const std::optional<RunSeconds> t =
                    m_run->timeOf(lines.endIndex() - LineCount(1))) {
                lastArrival = t->count();
            }
        }
        arrival = m_model->wallClock() && m_run->arrivalIsWallClock
                      ? 12 // HH:mm:ss.zzz
                      : integerDigits(lastArrival) + 7;
        // A boot's kernel times grow: its last kernel line has about the largest. Lines
        // are looked at back from each boot's end, a few at most; a console server's log of
        // many boots takes printk's own width (5 digits) instead.
        double maxKernel = 0;
        constexpr std::size_t kBootsLookedAt = 4096;
        if (m_run->boots.size() > kBootsLookedAt) {
            maxKernel = 99999;
        }
        for (std::size_t bi = 0; bi < m_run->boots.size() && bi < kBootsLookedAt; ++bi) {
            const Boot &b = m_run->boots[bi];
            int looked = 0;
            for (LineIndex i = b.end - LineCount(1); i >= b.first && looked < 64; --i, ++looked) {
                if (const std::optional<KernelUs> k = lines.kernelTime(i)) {
                    maxKernel = std::max(maxKernel, double(k->count()) / 1e6);
                    break;
                }
            }
        }
        kernel = integerDigits(maxKernel) + 7;
        // A line's lag is at most how long after its kernel's start it arrived: the capture's
        // length and the kernel's uptime when it began (a capture attached to a console
        // minutes behind has lags longer than itself). A number is never cut.
        lag = integerDigits(lastArrival + maxKernel) + 4;
    }
    const QFontMetrics values(m_lines->font());
    const QFontMetrics headers(m_lines->horizontalHeader()->font());
    const int margin = values.horizontalAdvance(QLatin1Char('0')) * 2;
    auto fit = [&](LogModel::Column column, int chars) {
        const QString header =
            m_model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        m_lines->setColumnWidth(column,
                                std::max(values.horizontalAdvance(QString(chars, QLatin1Char('0'))),
                                         headers.horizontalAdvance(header)) +
                                    margin);
    };
    fit(LogModel::Number, number);
    fit(LogModel::Arrival, arrival);
    fit(LogModel::Kernel, kernel);
    fit(LogModel::Lag, lag);
}

void LogView::showLine(LineIndex line)
{
    if (!m_run || m_model->rowCount() == 0) {
        return;
    }
    const int row = m_model->rowOf(line);
    const QModelIndex idx = m_model->index(row, LogModel::Text);
    m_lines->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect |
                                                        QItemSelectionModel::Rows);
    m_lines->scrollTo(idx, QAbstractItemView::PositionAtCenter);
}

std::optional<LineIndex> LogView::currentLine() const
{
    const QModelIndex cur = m_lines->currentIndex();
    return cur.isValid() ? m_model->lineAt(cur.row()) : std::nullopt;
}

void LogView::search(const QString &regex, bool wait)
{
    m_pendingSearch = regex;
    if (m_search->text() != regex) {
        m_search->setText(regex);
    }
    stopSearch();
    if (regex.isEmpty() || !m_run) {
        m_matches.reset();
        m_model->setMatches(nullptr);
        if (m_model->filtered()) {
            m_model->setFilter(nullptr);
        }
        m_status->clear();
        return;
    }
    auto matcher = std::make_shared<LineMatcher>(regex);
    if (!matcher->isValid()) {
        m_status->setText(tr("bad regex"));
        m_status->setToolTip(matcher->errorString());
        return;
    }
    m_status->setText(tr("searching…"));
    std::shared_ptr<const Run> run = m_run;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancelSearch = cancel;
    m_searchTask.start([run, regex, cancel]() -> std::shared_ptr<const std::vector<LineIndex>> {
        return findMatchingLines(*run, regex, cancel.get(), MatchText::Printed);
    });
    if (wait) {
        m_searchTask.waitForFinished();
        onSearchDone();
    }
}

void LogView::onSearchDone()
{
    const std::optional<std::shared_ptr<const std::vector<LineIndex>>> found =
        m_searchTask.result();
    if (!found) {
        return;
    }
    const std::shared_ptr<const std::vector<LineIndex>> &result = *found;
    if (!result || result == m_matches) { // cancelled, or nothing new
        return;
    }
    m_matches = result;
    m_model->setMatches(m_matches);
    m_status->setText(tr("%n match(es)", nullptr, int(m_matches->size())));
    m_status->setToolTip(QString());
    if (m_filter->isChecked()) {
        m_model->setFilter(m_matches);
    }
    findNext();
}

void LogView::step(int direction)
{
    if (!m_matches || m_matches->empty()) {
        return;
    }
    // No current line: the search starts before the first line.
    const LineIndex cur = currentLine().value_or(LineIndex(-1));
    LineIndex target;
    if (direction > 0) {
        auto it = std::upper_bound(m_matches->begin(), m_matches->end(), cur);
        target = it == m_matches->end() ? m_matches->front() : *it; // wraps around
    } else {
        auto it = std::lower_bound(m_matches->begin(), m_matches->end(), cur);
        target = it == m_matches->begin() ? m_matches->back() : *(it - 1);
    }
    showLine(target);
}

void LogView::findNext()
{
    step(1);
}
void LogView::findPrevious()
{
    step(-1);
}

void LogView::setFilterToMatches(bool on)
{
    if (m_filter->isChecked() != on) {
        m_filter->setChecked(on);
        return;
    }
    const std::optional<LineIndex> cur = currentLine();
    m_model->setFilter(on ? m_matches : nullptr);
    if (cur) {
        showLine(*cur);
    }
}

} // namespace tty
