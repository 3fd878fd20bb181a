// A live run is read on worker threads (the log search, pattern lanes) while the thread that
// shows it appends to it. Run::growLock keeps readers from seeing a LineTable being grown:
// under ThreadSanitizer (scripts/sanitize.sh) a reader that skipped the lock is a reported
// race, and in any build a table reallocated under a reader may crash it.
#include "linesearch.h"
#include "live/liverun.h"

#include <QtTest>

#include <atomic>
#include <thread>

using namespace tty;

class TstLiveReaders : public QObject
{
    Q_OBJECT
private slots:
    void searchWhileGrowing();
};

void TstLiveReaders::searchWhileGrowing()
{
    LiveRun live;
    Run &run = live.run();
    QVERIFY(run.growLock);
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
        const std::unique_lock<GrowLock> growing(*run.growLock);
        live.add(recs);
        if (b % 50 == 0) {
            run.finalize();
        }
    }
    {
        const std::unique_lock<GrowLock> growing(*run.growLock);
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
