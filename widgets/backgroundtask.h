// One piece of work at a time on Qt's global thread pool, its result handed back to the
// GUI thread, in a way ThreadSanitizer can follow.
//
// Why not QtConcurrent::run and QFutureWatcher<T>: Debian's Qt is not built with TSan, and
// the pool's queue and QFuture's result store are guarded by Qt's futex-based QMutex inside
// libQt6Core, which TSan cannot see. The task's captures (written by the GUI thread,
// moved by QtConcurrent's inline templates on the pool thread) and the result (stored by
// QFutureInterface<T>'s inline templates on the pool thread, read by the GUI thread, and
// freed by whichever thread drops the last reference) then look like races, hundreds of
// them, and a real race beside them goes unseen (docs/testing.md, "Sanitizers").
//
// Here every hand-off is one TSan sees:
// - the GUI thread builds the runnable, then releases the hand-off edge below; the task
//   acquires it before it touches its captures;
// - the result goes into a slot guarded by a std::mutex (pthread, which TSan intercepts);
//   the slot and the captures are freed through std::shared_ptr's atomic counts;
// - a QFuture<void> only says "done" (QPromise<void> keeps no result store).
// Outside TSan all of this costs an atomic add and a lock per task.
#pragma once

#include <QFutureWatcher>
#include <QPromise>
#include <QRunnable>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

namespace tty {

namespace detail {
// The edge from the thread that queues a task to the pool thread that runs it. Its clock
// (a read-modify-write joins it) holds every queuing so far: an acquire may order a task
// after more than its own queuing, which hides nothing TSan could otherwise prove, since
// each task starts after its queuing in any case.
inline std::atomic<unsigned> g_taskQueued{0};
} // namespace detail

template <typename T> class BackgroundTask
{
    static_assert(!std::is_void_v<T>, "a task gives a result");

public:
    BackgroundTask()
    {
        // First among the finished() connections: handlers see the task as no longer pending.
        QObject::connect(&m_watcher, &QFutureWatcherBase::finished, &m_watcher,
                         [this] { m_pending = false; });
    }
    BackgroundTask(const BackgroundTask &) = delete;
    BackgroundTask &operator=(const BackgroundTask &) = delete;
    // The task holds what it captured; it ends before its owner goes.
    ~BackgroundTask() { waitForFinished(); }

    // Its finished() signal: the task started last has ended (the result is there, unless it
    // threw). A task started while another runs replaces it: only the last one signals.
    QFutureWatcherBase *watcher() { return &m_watcher; }

    // Runs task() -> T on the pool.
    template <typename F> void start(F &&task)
    {
        auto slot = std::make_shared<Slot>();
        auto promise = std::make_shared<QPromise<void>>();
        promise->start();
        auto fn = std::make_shared<std::decay_t<F>>(std::forward<F>(task));
        QRunnable *runnable = QRunnable::create([slot, promise, fn] {
            (void)detail::g_taskQueued.load(std::memory_order_acquire);
            try {
                T value = (*fn)();
                std::lock_guard<std::mutex> lock(slot->mutex);
                slot->value.emplace(std::move(value));
            } catch (...) {
                // As QtConcurrent::run: a task that throws gives no result.
            }
            promise->finish();
        });
        m_slot = slot;
        m_pending = true;
        m_watcher.setFuture(promise->future());
        detail::g_taskQueued.fetch_add(1, std::memory_order_release);
        QThreadPool::globalInstance()->start(runnable);
    }

    void waitForFinished() { m_watcher.waitForFinished(); }
    bool isRunning() const { return m_watcher.isRunning(); }
    // Started, and its finished() not delivered yet. What to wait on for what a task's
    // handlers do: a task stops running (isRunning) just before its finished() is posted.
    bool isPending() const { return m_pending; }

    // The result of the task started last, once it has ended with one.
    std::optional<T> result() const
    {
        if (!m_slot) {
            return std::nullopt;
        }
        std::lock_guard<std::mutex> lock(m_slot->mutex);
        return m_slot->value;
    }

private:
    struct Slot
    {
        std::mutex mutex;
        std::optional<T> value;
    };
    std::shared_ptr<Slot> m_slot;
    bool m_pending = false;
    QFutureWatcher<void> m_watcher;
};

} // namespace tty
