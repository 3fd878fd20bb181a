// The event list's order (widgets/eventorder, EventModel::sort): by the printed text's
// bytes with ties of the 32-byte key settled by the whole text, and a big list (a 10 GiB
// log has 10^6 events) sorted on a worker while the GUI thread keeps answering.
#include "eventlist.h"
#include "eventorder.h"
#include "live/liverun.h"
#include "loglineview.h"
#include "runloader.h"

#include <QtTest>

#include <QClipboard>
#include <QElapsedTimer>

#include <algorithm>
#include <memory>
#include <numeric>
#include <vector>

using namespace tty;

class TstEvents : public QObject
{
    Q_OBJECT
private slots:
    void textOrderIsThePrintedBytes();
    void bigListSortsOnAWorker();
    void aBigSelectionFollowsItsEventsThroughASort();
    void bootTrialsListTheirOwnEvents();
    void aCopyOfRowsOutOfLineOrder();
    void aNewSortReplacesOneRunning();
    void aFilterDuringASortSortsTheNewRows();
    void aBigFilteredListIsSortedOnAWorker();
    void aLiveRunGrowsIntoItsOrder();
    void aLiveRunGrowsIntoTextTies();
    void aWorkerSortEndsWhileALiveRunGrows();
    void aFilteredLiveListGrowsWhileItWaitsForItsSort();
};

namespace {

std::shared_ptr<const Run> runOf(const QByteArray &text)
{
    QString error;
    std::shared_ptr<const Run> run = loadRunFromBytes(std::string_view(text.data(), text.size()),
                                                      QStringLiteral("events.log"), {}, &error);
    return run;
}

QVector<TimelineRun> timeline(std::shared_ptr<const Run> run)
{
    TimelineRun r;
    r.run = std::move(run);
    r.label = QStringLiteral("a");
    return {r};
}

// A log's events in an event list.
struct Listed
{
    std::shared_ptr<const Run> run;
    EventList list;
    explicit Listed(const QByteArray &log) : run(runOf(log))
    {
        if (run) {
            list.setRuns(timeline(run));
        }
    }
};

// The events' indexes in the rows' order.
std::vector<int> eventsInRows(const EventModel &m)
{
    std::vector<int> v;
    for (int r = 0; r < m.rowCount(); ++r) {
        v.push_back(m.index(r, 0).data(EventModel::EventRole).toInt());
    }
    return v;
}

// A log of `drops` drop notices, each at its own kernel time and with a count that jumps
// about (so no column's order is the events' own), and `warnings` WARNING lines after them.
QByteArray bigLog(int drops, int warnings)
{
    QByteArray log;
    for (int i = 0; i < drops; ++i) {
        log += QStringLiteral("[%1.%2] ** %3 printk messages dropped **\n")
                   .arg(1 + i / 1000, 5)
                   .arg((i % 1000) * 1000, 6, 10, QLatin1Char('0'))
                   .arg((i * 7919) % 1000 + 1)
                   .toLatin1();
    }
    for (int i = 0; i < warnings; ++i) {
        log += QStringLiteral("[ 9999.000000] WARNING: CPU: 0 PID: %1 at a.c:1 f+0x1/0x2\n")
                   .arg((i * 37) % 100)
                   .toLatin1();
    }
    return log;
}

std::vector<int> eventsOfKind(const Run &run, EventKind kind)
{
    std::vector<int> v;
    for (std::size_t e = 0; e < run.events.size(); ++e) {
        if (run.events[e].kind == kind) {
            v.push_back(int(e));
        }
    }
    return v;
}

// The order the test expects: the events' line texts (printed text: these have no escape
// sequences) sorted stably, apart from the code under test.
std::vector<int> byTextStable(const Run &run, const std::vector<int> &events, bool ascending)
{
    std::vector<int> v = events;
    auto text = [&](int e) { return run.lines.text(run.events[std::size_t(e)].line).str(); };
    std::stable_sort(v.begin(), v.end(), [&](int a, int b) {
        return ascending ? text(a) < text(b) : text(b) < text(a);
    });
    return v;
}

// A live capture's run, grown as model/livepump grows it: records added and the run
// finalized under its grow lock, then the list given the same run again.
class Capture
{
public:
    Capture() : m_run(&m_live.run(), [](const Run *) {}) {}
    std::shared_ptr<const Run> run() const { return m_run; }
    void add(const std::string &data)
    {
        m_mono += 1000000;
        const std::unique_lock<GrowLock> growing(*m_live.run().growLock);
        m_live.add(LiveRecord{'D', kWall0 + Nanoseconds(m_mono), m_mono, data});
        m_live.run().finalize();
    }
    // No byte for a while: a partial line at the end is shown.
    void idle()
    {
        const std::unique_lock<GrowLock> growing(*m_live.run().growLock);
        m_live.idle(m_mono + kIdleNs);
        m_live.run().finalize();
    }

private:
    static constexpr std::int64_t kIdleNs = 300'000'000;
    static constexpr HostNs kWall0{1796014814000000000};
    LiveRun m_live{nullptr, kIdleNs};
    std::shared_ptr<const Run> m_run; // the LiveRun owns it
    std::int64_t m_mono = 0;
};

std::vector<int> allEvents(const Run &run)
{
    std::vector<int> v(run.events.size());
    std::iota(v.begin(), v.end(), 0);
    return v;
}

std::string dropLine(int i)
{
    return QStringLiteral("[%1.%2] ** %3 printk messages dropped **\n")
        .arg(1 + i / 1000, 5)
        .arg((i % 1000) * 1000, 6, 10, QLatin1Char('0'))
        .arg((i * 7919) % 1000 + 1)
        .toStdString();
}

} // namespace

// Lines that tie on their first 32 bytes (one kernel time, "WARNING: CPU: 0 "), one of them
// coloured: it sorts by what is printed, not by its escape sequence (ESC, 0x1b, would sort
// it before its plain twin).
void TstEvents::textOrderIsThePrintedBytes()
{
    const QByteArray log =
        "[    1.500000] ** 5 printk messages dropped **\n"
        "[    2.000000] WARNING: CPU: 0 PID: 9 at a.c:1 f+0x1/0x2\n"
        "[    2.000000] WARNING: CPU: 0 PID: 10 at a.c:1 f+0x1/0x2\n"
        "[    2.000000] WARNING: CPU: 0 PID: 3 at \x1b[31mb.c:1 f+0x1/0x2\x1b[0m\n"
        "[    2.000000] WARNING: CPU: 0 PID: 3 at a.c:1 f+0x1/0x2\n";
    const std::shared_ptr<const Run> run = runOf(log);
    QVERIFY(run);
    QCOMPARE(run->events.size(), std::size_t(5));
    std::vector<int> lines;
    for (const Event &e : run->events) {
        lines.push_back(int(lineNumber(e.line)));
    }
    QCOMPARE(lines, (std::vector<int>{1, 2, 3, 4, 5})); // one event a line
    std::vector<EventRef> rows;
    for (int e = 0; e < 5; ++e) {
        rows.emplace_back(0, e);
    }
    const QVector<TimelineRun> runs = timeline(run);
    auto order = [&](bool ascending) {
        std::vector<int> v;
        for (const EventRef &r : orderEvents(rows, runs, EventSortKey::Text, ascending)) {
            v.push_back(r.second);
        }
        return v;
    };
    // "PID: 10" < "PID: 3" < "PID: 9" bytewise, "a.c" < "b.c"; the drop notice's earlier
    // time first. (Were the raw bytes compared, event 3's ESC would put it before event 4.)
    QCOMPARE(order(true), (std::vector<int>{0, 2, 4, 3, 1}));
    QCOMPARE(order(false), (std::vector<int>{1, 3, 4, 2, 0}));
}

// 60,000 events: sorting by text goes to a worker. Until it is done the list keeps its
// order and says it is not sorted yet; then it has exactly the expected order, and the
// current row is still on its event.
void TstEvents::bigListSortsOnAWorker()
{
    const int drops = 60000;
    Listed l(bigLog(drops, 0));
    QVERIFY(l.run);
    const std::shared_ptr<const Run> &run = l.run;
    EventList &list = l.list;
    EventModel *m = list.model();
    QCOMPARE(run->events.size(), std::size_t(drops));
    QCOMPARE(m->rowCount(), drops);
    std::vector<int> own(static_cast<std::size_t>(drops));
    std::iota(own.begin(), own.end(), 0);
    QCOMPARE(eventsInRows(*m), own);
    list.selectEvent(0, 123);
    QCOMPARE(list.table()->currentIndex().data(EventModel::EventRole).toInt(), 123);

    list.table()->sortByColumn(EventModel::Text, Qt::DescendingOrder);
    QVERIFY(m->isSorting());
    QVERIFY(!m->isSortedBy(EventModel::Text));
    QCOMPARE(m->index(0, 0).data(EventModel::EventRole).toInt(), 0);
    QCOMPARE(list.table()->viewport()->cursor().shape(), Qt::BusyCursor);
    QTRY_VERIFY_WITH_TIMEOUT(m->isSortedBy(EventModel::Text), 60000);
    QCOMPARE(list.table()->viewport()->cursor().shape(), Qt::ArrowCursor);
    QCOMPARE(eventsInRows(*m), byTextStable(*run, own, false));
    QCOMPARE(list.table()->currentIndex().data(EventModel::EventRole).toInt(), 123);
    // The largest kernel time first: "[   60.999000]" (event 59,999).
    QCOMPARE(m->index(0, 0).data(EventModel::EventRole).toInt(), drops - 1);
}

// 40,000 of 60,000 rows selected (Shift+click over a long stretch), then a sort on a worker:
// the selection stays on the same events, the current row too. The view's selection keeps a
// persistent index per selected row through the new layout, so each must find its event's
// new row without a search of the whole list (40,000 searches of 60,000 rows froze the
// window for a second here, minutes at 10 GiB; docs/benchmarks.md).
void TstEvents::aBigSelectionFollowsItsEventsThroughASort()
{
    const int drops = 60000;
    Listed l(bigLog(drops, 0));
    QVERIFY(l.run);
    EventList &list = l.list;
    EventModel *m = list.model();
    QCOMPARE(m->rowCount(), drops);
    list.selectEvent(0, 20000);
    QItemSelectionModel *selection = list.table()->selectionModel();
    selection->select(
        QItemSelection(m->index(10000, 0), m->index(49999, EventModel::ColumnCount - 1)),
        QItemSelectionModel::ClearAndSelect);
    auto selectedEvents = [&] {
        std::vector<int> v;
        for (const QModelIndex &i : selection->selectedRows()) {
            v.push_back(i.data(EventModel::EventRole).toInt());
        }
        std::sort(v.begin(), v.end());
        return v;
    };
    std::vector<int> chosen(40000);
    std::iota(chosen.begin(), chosen.end(), 10000);
    QCOMPARE(selectedEvents(), chosen);

    list.table()->sortByColumn(EventModel::Text, Qt::DescendingOrder);
    QTRY_VERIFY_WITH_TIMEOUT(m->isSortedBy(EventModel::Text), 60000);
    QCOMPARE(selectedEvents(), chosen);
    QCOMPARE(list.table()->currentIndex().data(EventModel::EventRole).toInt(), 20000);
    // The selected events are no longer one stretch of rows: the text order interleaves them.
    const int firstSelectedRow = selection->selectedRows().front().row();
    QVERIFY(firstSelectedRow > 0);
    QCOMPARE(m->index(0, 0).data(EventModel::EventRole).toInt(), drops - 1);

    // And back to the events' own order: the rows are again 10,000 to 49,999.
    list.table()->sortByColumn(-1, Qt::AscendingOrder);
    QTRY_VERIFY_WITH_TIMEOUT(!m->isSorting(), 60000);
    QCOMPARE(selectedEvents(), chosen);
    QCOMPARE(selection->selectedRows().front().row(), 10000);
}

// Two boots of one capture as two trials (boots as trials): each lists its boot's events;
// a selection of many of the second's rows follows its events through a sort too.
void TstEvents::bootTrialsListTheirOwnEvents()
{
    QByteArray log;
    for (int boot = 0; boot < 2; ++boot) {
        log += "[    0.000000] Linux version 6.1.0 (test)\n" + bigLog(3000, 0);
    }
    const std::shared_ptr<const Run> run = runOf(log);
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(2));
    QVector<TimelineRun> trials;
    for (const Boot &b : run->boots) {
        TimelineRun tr;
        tr.run = run;
        tr.firstLine = b.first;
        tr.endLine = b.end;
        trials.append(tr);
    }
    const std::size_t split = run->eventsBefore(run->boots[1].first);
    QVERIFY(split > 3000 && split < run->events.size());
    EventList list;
    list.setRuns(trials);
    EventModel *m = list.model();
    QCOMPARE(m->rowCount(), int(run->events.size()));
    QCOMPARE(m->index(0, 0).data(EventModel::RunRole).toInt(), 0);
    QCOMPARE(m->index(int(split), 0).data(EventModel::RunRole).toInt(), 1);
    QCOMPARE(m->index(int(split), 0).data(EventModel::EventRole).toInt(), int(split));
    QCOMPARE(m->rowOf(1, int(split) - 1), -1); // boot 1's last event is not trial 2's
    QCOMPARE(m->rowOf(0, int(split) - 1), int(split) - 1);

    QItemSelectionModel *selection = list.table()->selectionModel();
    const int from = int(split) + 100, to = int(split) + 2099;
    selection->select(QItemSelection(m->index(from, 0), m->index(to, EventModel::ColumnCount - 1)),
                      QItemSelectionModel::ClearAndSelect);
    auto selected = [&] {
        std::vector<std::pair<int, int>> v;
        for (const QModelIndex &i : selection->selectedRows()) {
            v.emplace_back(i.data(EventModel::RunRole).toInt(),
                           i.data(EventModel::EventRole).toInt());
        }
        std::sort(v.begin(), v.end());
        return v;
    };
    std::vector<std::pair<int, int>> chosen;
    for (int e = from; e <= to; ++e) {
        chosen.emplace_back(1, e);
    }
    QCOMPARE(selected(), chosen);
    list.table()->sortByColumn(EventModel::Text, Qt::AscendingOrder);
    QTRY_VERIFY_WITH_TIMEOUT(m->isSortedBy(EventModel::Text), 60000);
    QCOMPARE(m->rowCount(), int(run->events.size()));
    QCOMPARE(selected(), chosen);
}

// A sort asked for while another runs on a worker: only the last one's order is taken.
// Ctrl+C on rows sorted by text whose lines are far out of line order (no kernel times,
// so the text order is not the time order), from two runs, some with escape sequences:
// the clipboard holds each selected row's text as the list shows it, in row order. The
// list reads them in line order (EventModel::texts); the view's plain path, a row at a
// time, is the reference.
void TstEvents::aCopyOfRowsOutOfLineOrder()
{
    QByteArray log;
    for (int i = 0; i < 3000; ++i) {
        log += QStringLiteral("WARNING: CPU: %1 PID: %2 at a.c:1 f+0x1/0x2%3\nuserspace\n")
                   .arg(i % 7)
                   .arg((i * 7919) % 10007)
                   .arg(i % 100 == 0 ? QStringLiteral("\x1b[31m red\x1b[0m") : QString())
                   .toLatin1();
    }
    const std::shared_ptr<const Run> a = runOf(log), b = runOf(log.left(log.size() / 3));
    QVERIFY(a && b);
    QCOMPARE(a->events.size(), std::size_t(3000));
    QCOMPARE(b->events.size(), std::size_t(1000));
    QVector<TimelineRun> runs = timeline(a) + timeline(b);
    runs[1].label = QStringLiteral("b");
    EventList list;
    list.setRuns(runs);
    EventModel *m = list.model();
    QCOMPARE(m->rowCount(), 4000);
    list.table()->sortByColumn(EventModel::Text, Qt::AscendingOrder);
    QTRY_VERIFY_WITH_TIMEOUT(m->isSortedBy(EventModel::Text), 60000);
    QItemSelectionModel *selection = list.table()->selectionModel();
    selection->select(QItemSelection(m->index(500, 0), m->index(3499, EventModel::Text)),
                      QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    selection->select(QItemSelection(m->index(3900, 0), m->index(3909, EventModel::Text)),
                      QItemSelectionModel::Select | QItemSelectionModel::Rows);

    QString expected;
    int runsSeen = 0, backwards = 0;
    for (int row = 500; row < 3910; row = row == 3499 ? 3900 : row + 1) {
        expected += m->index(row, EventModel::Text).data().toString() + QLatin1Char('\n');
        runsSeen |= 1 << m->index(row, 0).data(EventModel::RunRole).toInt();
        backwards += m->index(row, 0).data(EventModel::EventRole).toInt() <
                     m->index(row - 1, 0).data(EventModel::EventRole).toInt();
    }
    QCOMPARE(runsSeen, 3);                                         // rows of both runs
    QVERIFY(backwards > 1000);                                     // and far from line order
    QVERIFY(expected.contains(QStringLiteral("f+0x1/0x2 red\n"))); // escapes left out
    QTest::keySequence(list.table(), QKeySequence::Copy);
    QCOMPARE(QApplication::clipboard()->text().count(QLatin1Char('\n')), 3010);
    QCOMPARE(QApplication::clipboard()->text(), expected);
}

void TstEvents::aNewSortReplacesOneRunning()
{
    const int drops = 60000;
    Listed l(bigLog(drops, 0));
    QVERIFY(l.run);
    const std::shared_ptr<const Run> &run = l.run;
    EventList &list = l.list;
    EventModel *m = list.model();
    m->sort(EventModel::Text, Qt::AscendingOrder);
    QVERIFY(m->isSorting());
    m->sort(EventModel::Kind, Qt::AscendingOrder);
    QVERIFY(m->isSorting());
    m->waitForSort();
    QVERIFY(m->isSortedBy(EventModel::Kind));
    // One kind: by the count, equal counts in the events' order.
    std::vector<int> expected(static_cast<std::size_t>(drops));
    std::iota(expected.begin(), expected.end(), 0);
    std::stable_sort(expected.begin(), expected.end(), [&](int a, int b) {
        return run->events[std::size_t(a)].count < run->events[std::size_t(b)].count;
    });
    QCOMPARE(eventsInRows(*m), expected);
    QCOMPARE(run->events[std::size_t(expected.front())].count, 1u);
    QCOMPARE(run->events[std::size_t(expected.back())].count, 1000u);
}

// The kind filter changed while a sort ran: the new rows (few: sorted at once) come in the
// order asked for.
void TstEvents::aFilterDuringASortSortsTheNewRows()
{
    const int drops = 60000, warnings = 10;
    Listed l(bigLog(drops, warnings));
    QVERIFY(l.run);
    const std::shared_ptr<const Run> &run = l.run;
    EventList &list = l.list;
    EventModel *m = list.model();
    const std::vector<int> warningEvents = eventsOfKind(*run, EventKind::Warning);
    QCOMPARE(warningEvents.size(), std::size_t(warnings));
    m->sort(EventModel::Text, Qt::DescendingOrder);
    QVERIFY(m->isSorting());
    list.setKindFilter(QLatin1String(eventKindName(EventKind::Warning)));
    m->waitForSort();
    QVERIFY(m->isSortedBy(EventModel::Text));
    QCOMPARE(m->rowCount(), warnings);
    const std::vector<int> expected = byTextStable(*run, warningEvents, false);
    QCOMPARE(eventsInRows(*m), expected);
    QCOMPARE(run->lines.text(run->events[std::size_t(expected.front())].line).str(),
             std::string("[ 9999.000000] WARNING: CPU: 0 PID: 96 at a.c:1 f+0x1/0x2"));
    QCOMPARE(run->lines.text(run->events[std::size_t(expected.back())].line).str(),
             std::string("[ 9999.000000] WARNING: CPU: 0 PID: 0 at a.c:1 f+0x1/0x2"));
}

// A list already sorted, then filtered to rows still too many to sort at once: the filter
// shows them at once in the events' order, and the worker sorts them.
void TstEvents::aBigFilteredListIsSortedOnAWorker()
{
    const int drops = 60000, warnings = 10;
    Listed l(bigLog(drops, warnings));
    QVERIFY(l.run);
    const std::shared_ptr<const Run> &run = l.run;
    EventList &list = l.list;
    EventModel *m = list.model();
    m->sort(EventModel::Text, Qt::AscendingOrder);
    m->waitForSort();
    QVERIFY(m->isSortedBy(EventModel::Text));
    QCOMPARE(m->rowCount(), drops + warnings);
    const std::vector<int> dropEvents = eventsOfKind(*run, EventKind::Drop);
    QCOMPARE(dropEvents.size(), std::size_t(drops));
    list.setKindFilter(QLatin1String(eventKindName(EventKind::Drop)));
    QVERIFY(m->isSorting());
    QCOMPARE(eventsInRows(*m), dropEvents);
    m->waitForSort();
    QVERIFY(m->isSortedBy(EventModel::Text));
    QCOMPARE(eventsInRows(*m), byTextStable(*run, dropEvents, true));
}

// A live run grows while its list is sorted by text: the new events come in their places,
// and the event of its last line, shown while the line was partial, is replaced (not kept
// twice) when the line is completed.
void TstEvents::aLiveRunGrowsIntoItsOrder()
{
    Capture capture;
    capture.add("[    5.000000] WARNING: CPU: 0 PID: 5 at a.c:1 f+0x1/0x2\n"
                "[    2.000000] ** 4 printk messages dropped **\n"
                "[    8.000000] ** 2 printk messages dropped **\n");
    const Run &run = *capture.run();
    EventList list;
    list.setRuns(timeline(capture.run()));
    EventModel *m = list.model();
    m->sort(EventModel::Text, Qt::AscendingOrder);
    QVERIFY(m->isSortedBy(EventModel::Text));
    QCOMPARE(eventsInRows(*m), (std::vector<int>{1, 0, 2}));

    list.selectEvent(0, 0);
    auto current = [&] { return list.table()->currentIndex().data(EventModel::EventRole); };
    QCOMPARE(current(), QVariant(0));

    capture.add("[    1.000000] ** 3 printk messages dropped **\n"
                "[    6.000000] WARNING: CPU: 1 PID: 6 at b.c:1 f+0x1/0x2\n"
                "[    9.000000] ** 7 printk");
    capture.idle(); // the partial line is shown: one line more, no event yet
    QCOMPARE(run.lines.size(), LineCount(6));
    list.setRuns(timeline(capture.run()));
    QVERIFY(m->isSortedBy(EventModel::Text));
    QCOMPARE(eventsInRows(*m), (std::vector<int>{3, 1, 0, 4, 2}));
    QCOMPARE(current(), QVariant(0)); // the current row stays on its event
    QCOMPARE(list.table()->currentIndex().row(), 2);

    capture.add(" messages dropped ** x\n"
                "[    0.500000] ** 1 printk messages dropped **\n");
    QCOMPARE(run.lines.size(), LineCount(7));
    QCOMPARE(run.events.size(), std::size_t(7));
    QCOMPARE(run.events[5].kind, EventKind::Drop);
    QCOMPARE(run.events[5].count, 7u);
    list.setRuns(timeline(capture.run()));
    QCOMPARE(eventsInRows(*m), (std::vector<int>{6, 3, 1, 0, 4, 2, 5}));
    QCOMPARE(eventsInRows(*m), byTextStable(run, allEvents(run), true));
    QCOMPARE(current(), QVariant(0));
    QCOMPARE(list.table()->currentIndex().row(), 3);

    // Filtered and in the events' order: the new warning after the others.
    list.setKindFilter(QLatin1String(eventKindName(EventKind::Warning)));
    m->sort(-1);
    QCOMPARE(eventsInRows(*m), (std::vector<int>{0, 4}));
    capture.add("[   10.000000] WARNING: CPU: 0 PID: 1 at a.c:1 f+0x1/0x2\n");
    list.setRuns(timeline(capture.run()));
    QCOMPARE(eventsInRows(*m), (std::vector<int>{0, 4, 7}));

    // Neither filtered nor sorted (rows are not listed): the current row stays as well.
    list.setKindFilter(QString());
    list.selectEvent(0, 4);
    capture.add("[   11.000000] ** 2 printk messages dropped **\n");
    list.setRuns(timeline(capture.run()));
    QCOMPARE(m->rowCount(), 9);
    QCOMPARE(current(), QVariant(4));
    QCOMPARE(list.table()->currentIndex().row(), 4);
}

// Events added to a list sorted by text that tie with listed ones on their first 32 bytes
// (one kernel time, "WARNING: CPU: 0 P"): each new row is placed by its whole printed text,
// and a text equal to a listed one goes after it (events' order), both ways round.
void TstEvents::aLiveRunGrowsIntoTextTies()
{
    Capture capture;
    // The plain last line: rows of events on a run's last line are placed again at a
    // growth (it may still be completed), and these two must stay listed.
    capture.add("[    2.000000] WARNING: CPU: 0 PID: 9 at a.c:1 f+0x1/0x2\n"
                "[    2.000000] WARNING: CPU: 0 PID: 3 at a.c:1 f+0x1/0x2\n"
                "[    2.100000] random: crng init done\n");
    const Run &run = *capture.run();
    QCOMPARE(run.events.size(), std::size_t(2));
    EventList up, down;
    up.setRuns(timeline(capture.run()));
    down.setRuns(timeline(capture.run()));
    up.model()->sort(EventModel::Text, Qt::AscendingOrder);
    down.model()->sort(EventModel::Text, Qt::DescendingOrder);
    QCOMPARE(eventsInRows(*up.model()), (std::vector<int>{1, 0}));
    QCOMPARE(eventsInRows(*down.model()), (std::vector<int>{0, 1}));

    capture.add("[    2.000000] WARNING: CPU: 0 PID: 10 at a.c:1 f+0x1/0x2\n"
                "[    2.000000] WARNING: CPU: 0 PID: 5 at a.c:1 f+0x1/0x2\n"
                "[    2.000000] WARNING: CPU: 0 PID: 3 at a.c:1 f+0x1/0x2\n");
    QCOMPARE(run.events.size(), std::size_t(5));
    up.setRuns(timeline(capture.run()));
    down.setRuns(timeline(capture.run()));
    // "PID: 10" < "PID: 3" (events 1 and 4, the same text) < "PID: 5" < "PID: 9" bytewise.
    QCOMPARE(eventsInRows(*up.model()), (std::vector<int>{2, 1, 4, 3, 0}));
    QCOMPARE(eventsInRows(*down.model()), (std::vector<int>{0, 3, 1, 4, 2}));
    QCOMPARE(eventsInRows(*up.model()), byTextStable(run, allEvents(run), true));
    QCOMPARE(eventsInRows(*down.model()), byTextStable(run, allEvents(run), false));
}

// A big live list sorted on a worker while the run keeps growing, faster than one sort
// takes: the sort ends (it is not started again on each growth) and the rows added
// meanwhile are in their places.
void TstEvents::aWorkerSortEndsWhileALiveRunGrows()
{
    Capture capture;
    std::string log;
    for (int i = 0; i < 60000; ++i) {
        log += dropLine(i);
    }
    capture.add(log);
    const Run &run = *capture.run();
    EventList list;
    list.setRuns(timeline(capture.run()));
    EventModel *m = list.model();
    QSignalSpy sorting(m, &EventModel::sortingChanged);
    m->sort(EventModel::Text, Qt::DescendingOrder);
    QVERIFY(m->isSorting());
    int grown = 0;
    QElapsedTimer clock;
    clock.start();
    while (!m->isSortedBy(EventModel::Text) && clock.elapsed() < 60000) {
        capture.add(dropLine(60000 + grown++));
        list.setRuns(timeline(capture.run()));
        QCoreApplication::processEvents();
    }
    QVERIFY(m->isSortedBy(EventModel::Text));
    QVERIFY(grown > 0);
    // One sort, started once and ended once: growth did not start it again.
    QCOMPARE(sorting.count(), 2);
    QCOMPARE(sorting.at(0).at(0).toBool(), true);
    QCOMPARE(sorting.at(1).at(0).toBool(), false);
    QCOMPARE(run.events.size(), std::size_t(60000 + grown));
    QCOMPARE(eventsInRows(*m), byTextStable(run, allEvents(run), false));
    // And growth after it: in place as well.
    capture.add(dropLine(99999));
    list.setRuns(timeline(capture.run()));
    QCOMPARE(eventsInRows(*m), byTextStable(run, allEvents(run), false));
    QCOMPARE(m->index(0, 0).data(EventModel::EventRole).toInt(), int(run.events.size()) - 1);
}

// A sorted live list filtered to rows too many to sort at once: they wait in the events'
// order for the worker, and the run's growth meanwhile adds its rows in that order too.
void TstEvents::aFilteredLiveListGrowsWhileItWaitsForItsSort()
{
    Capture capture;
    std::string log;
    for (int i = 0; i < 60000; ++i) {
        log += dropLine(i);
    }
    capture.add(log + "[ 9999.000000] WARNING: CPU: 0 PID: 1 at a.c:1 f+0x1/0x2\n");
    const Run &run = *capture.run();
    EventList list;
    list.setRuns(timeline(capture.run()));
    EventModel *m = list.model();
    m->sort(EventModel::Text, Qt::AscendingOrder);
    m->waitForSort();
    QVERIFY(m->isSortedBy(EventModel::Text));
    list.setKindFilter(QLatin1String(eventKindName(EventKind::Drop)));
    QVERIFY(m->isSorting());
    capture.add(dropLine(0) + dropLine(60000));
    list.setRuns(timeline(capture.run()));
    std::vector<int> drops = eventsOfKind(run, EventKind::Drop);
    QCOMPARE(drops.size(), std::size_t(60002));
    QVERIFY(m->isSorting()); // its end is taken by the event loop, which did not run
    QCOMPARE(eventsInRows(*m), drops);
    m->waitForSort();
    QVERIFY(m->isSortedBy(EventModel::Text));
    QCOMPARE(eventsInRows(*m), byTextStable(run, drops, true));
}

QTEST_MAIN(TstEvents)
#include "tst_gui_events.moc"
