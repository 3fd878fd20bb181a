// A live run is read on worker threads (the log search, pattern lanes) while the thread that
// shows it appends to it. Run::growLock keeps readers from seeing a LineTable being grown:
// under ThreadSanitizer (scripts/sanitize.sh) a reader that skipped the lock is a reported
// race, and in any build a table reallocated under a reader may crash it.
//
// That TSan does see such a race is checked too (plantedRaceIsReported, TSan builds only):
// the same readers and writer with the lock taken away, in a child process, must end with
// a TSan data-race report naming the search, not pass.
#include "linesearch.h"
#include "live/liverun.h"
#include "plantedrace.h"

#include <QtTest>

#include <atomic>
#include <thread>

using namespace tty;

class TstLiveReaders : public QObject
{
    Q_OBJECT
private slots:
    void searchWhileGrowing();
    void plantedRaceIsReported();
    void plantedRace();

private:
    static void growWhileSearching(bool locked);
};

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TTYSCOPE_TSAN 1
#endif
#endif

void TstLiveReaders::searchWhileGrowing()
{
    growWhileSearching(true);
}

// The child of plantedRaceIsReported: does nothing unless asked to, since without TSan an
// unlocked reader may crash (or, worse, pass).
void TstLiveReaders::plantedRace()
{
    if (qEnvironmentVariable("TTYSCOPE_PLANT_RACE") != QLatin1String("1")) {
        QSKIP("the child of plantedRaceIsReported, run by it");
    }
    growWhileSearching(false);
}

void TstLiveReaders::plantedRaceIsReported()
{
#ifndef TTYSCOPE_TSAN
    QSKIP("needs a ThreadSanitizer build (scripts/sanitize.sh)");
#else
    int status = 0;
    const QByteArray out = testutil::runPlantedRace(QStringLiteral("plantedRace"), &status);
    QVERIFY2(status == testutil::kTsanExit, out.right(4000).constData());
    QVERIFY2(out.contains("WARNING: ThreadSanitizer: data race"), out.right(4000).constData());
    // The race is the one planted: the search reading the table the writer grows.
    QVERIFY2(out.contains("findMatchingLines"), out.right(4000).constData());
    QVERIFY2(out.contains("tty::LineTable::"), out.right(4000).constData());
#endif
}

// Two threads search the live run while this one appends 100k lines to it; `locked`:
// with Run::growLock as the product takes it, else with none (the planted race).
void TstLiveReaders::growWhileSearching(bool locked)
{
    LiveRun live;
    Run &run = live.run();
    QVERIFY(run.growLock);
    std::shared_ptr<GrowLock> lock = run.growLock;
    if (!locked) {
        run.growLock.reset(); // readLock() gives no lock: the readers read unguarded
    }
    run.finalize();
    const HostNs wall0(1796014814000000000);
    std::atomic<bool> done{false};
    std::atomic<int> searches{0}, failed{0};
    std::vector<std::thread> readers;
    for (int r = 0; r < 2; ++r) {
        readers.emplace_back([&] {
            while (!done.load()) {
                const auto hits = findMatchingLines(run, QStringLiteral("tick 4242"), nullptr);
                failed += hits ? 0 : 1;
                ++searches;
            }
        });
    }
    // 100k lines: the line table grows past its first chunk (64 Ki lines) meanwhile.
    constexpr int kBatches = 100, kPerBatch = 1000;
    for (int b = 0; b < kBatches; ++b) {
        std::string data;
        for (int i = 0; i < kPerBatch; ++i) {
            data += "[" + std::to_string(b) + ".000000] tick " + std::to_string(b * kPerBatch + i) +
                    "\n";
        }
        const std::vector<LiveRecord> recs{
            LiveRecord{'D', wall0 + Nanoseconds(std::int64_t(b) * 1000000),
                       std::int64_t(b + 1) * 1000000, data}};
        std::unique_lock<GrowLock> growing(*lock, std::defer_lock);
        if (locked) {
            growing.lock();
        }
        live.add(recs);
        if (b % 50 == 0) {
            run.finalize();
        }
    }
    {
        const std::unique_lock<GrowLock> growing(*lock);
        live.finish();
        run.finalize();
    }
    const int atEnd = searches.load();
    while (searches.load() < atEnd + 2) {
        std::this_thread::yield(); // the readers search the finished run too
    }
    done = true;
    for (std::thread &t : readers) {
        t.join();
    }
    QCOMPARE(failed.load(), 0);
    QCOMPARE(run.lines.size(), LineCount(kBatches * kPerBatch));
    const auto hits = findMatchingLines(run, QStringLiteral("tick [0-9]*7$"), nullptr);
    QVERIFY(hits);
    QCOMPARE(hits->size(), std::size_t(kBatches * kPerBatch / 10));
    QCOMPARE(hits->front(), LineIndex(7));
}

QTEST_GUILESS_MAIN(TstLiveReaders)
#include "tst_live_readers.moc"
