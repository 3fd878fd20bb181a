// BackgroundTask (widgets/backgroundtask.h): work handed to Qt's pool and its result handed
// back. The GUI tests run under TSan with only Qt's own accesses left out
// (tests/sanitizers/tsan_top.supp), so these hand-offs must be ones TSan can follow:
// handsOffWhatItCaptured passes there only if they are, and plantedRaceIsReported (TSan
// builds only) checks that a race across a task is still reported: a task that reads what
// the GUI thread writes after starting it must end a child process with TSan's report.
#include "backgroundtask.h"

#include "plantedrace.h"

#include <QSignalSpy>
#include <QtTest>

#include <memory>
#include <numeric>
#include <thread>
#include <vector>

using namespace tty;

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TTYSCOPE_TSAN 1
#endif
#endif

class TstBackground : public QObject
{
    Q_OBJECT
private slots:
    void handsOffWhatItCaptured();
    void onlyTheLastTaskSignals();
    void aTaskThatThrowsGivesNoResult();
    void plantedRaceIsReported();
    void plantedRace();
};

// The GUI thread fills a vector, the task sums it and gives a vector of its own back; the
// GUI thread reads that once finished() is delivered, and isPending() holds until then.
void TstBackground::handsOffWhatItCaptured()
{
    BackgroundTask<std::shared_ptr<const std::vector<long>>> task;
    QSignalSpy finished(task.watcher(), &QFutureWatcherBase::finished);
    QVERIFY(!task.isPending());
    QVERIFY(!task.result());
    auto input = std::make_shared<std::vector<long>>(100000);
    std::iota(input->begin(), input->end(), 1L);
    task.start([input]() -> std::shared_ptr<const std::vector<long>> {
        auto out = std::make_shared<std::vector<long>>();
        out->push_back(std::accumulate(input->begin(), input->end(), 0L));
        out->push_back(long(input->size()));
        return out;
    });
    QVERIFY(task.isPending());
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.count(), 1);
    QVERIFY(!task.isPending());
    QVERIFY(!task.isRunning());
    const std::optional<std::shared_ptr<const std::vector<long>>> r = task.result();
    QVERIFY(r && *r);
    QCOMPARE(**r, (std::vector<long>{5000050000L, 100000L}));
}

// A task started while another runs replaces it: one finished(), the second's result.
void TstBackground::onlyTheLastTaskSignals()
{
    BackgroundTask<int> task;
    QSignalSpy finished(task.watcher(), &QFutureWatcherBase::finished);
    auto gate = std::make_shared<std::atomic<bool>>(false);
    task.start([gate] {
        while (!gate->load()) {
            std::this_thread::yield();
        }
        return 1;
    });
    task.start([] { return 2; });
    gate->store(true);
    QVERIFY(finished.wait(30000));
    QTest::qWait(50); // a second finished() would have come by now
    QCOMPARE(finished.count(), 1);
    QCOMPARE(task.result(), std::optional<int>(2));
}

void TstBackground::aTaskThatThrowsGivesNoResult()
{
    BackgroundTask<int> task;
    QSignalSpy finished(task.watcher(), &QFutureWatcherBase::finished);
    task.start([]() -> int { throw std::bad_alloc(); });
    QVERIFY(finished.wait(30000));
    QCOMPARE(task.result(), std::optional<int>());
    QVERIFY(!task.isPending());
}

// The child of plantedRaceIsReported: the task reads `value`, which this thread writes after
// starting it, with nothing between the two.
void TstBackground::plantedRace()
{
    if (qEnvironmentVariable("TTYSCOPE_PLANT_RACE") != QLatin1String("1")) {
        QSKIP("the child of plantedRaceIsReported, run by it");
    }
    BackgroundTask<long> task;
    auto value = std::make_shared<long>(0);
    auto started = std::make_shared<std::atomic<bool>>(false);
    task.start([value, started] {
        started->store(true, std::memory_order_relaxed);
        long seen = 0;
        for (int i = 0; i < 1000; ++i) {
            seen += *value;
            std::this_thread::yield();
        }
        return seen;
    });
    while (!started->load(std::memory_order_relaxed)) {
        std::this_thread::yield();
    }
    for (int i = 0; i < 1000; ++i) {
        *value = i;
        std::this_thread::yield();
    }
    task.waitForFinished();
}

void TstBackground::plantedRaceIsReported()
{
#ifndef TTYSCOPE_TSAN
    QSKIP("needs a ThreadSanitizer build (scripts/sanitize.sh)");
#else
    int status = 0;
    const QByteArray out = testutil::runPlantedRace(QStringLiteral("plantedRace"), &status);
    QVERIFY2(status == testutil::kTsanExit, out.right(4000).constData());
    QVERIFY2(out.contains("WARNING: ThreadSanitizer: data race"), out.right(4000).constData());
    QVERIFY2(out.contains("TstBackground::plantedRace"), out.right(4000).constData());
#endif
}

QTEST_GUILESS_MAIN(TstBackground)
#include "tst_gui_background.moc"
