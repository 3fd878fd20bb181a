// The event list's order (widgets/eventorder, EventModel::sort): by the printed text's
// bytes with ties of the 32-byte key settled by the whole text, and a big list (a 10 GiB
// log has 10^6 events) sorted on a worker while the GUI thread keeps answering.
#include "eventlist.h"
#include "eventorder.h"
#include "loglineview.h"
#include "runloader.h"

#include <QtTest>

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
    void aNewSortReplacesOneRunning();
    void aFilterDuringASortSortsTheNewRows();
    void aBigFilteredListIsSortedOnAWorker();
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

// A sort asked for while another runs on a worker: only the last one's order is taken.
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

QTEST_MAIN(TstEvents)
#include "tst_gui_events.moc"
