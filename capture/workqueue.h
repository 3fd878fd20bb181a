// Small thread hand-over helpers for the loader: a bounded FIFO, and a pool that gives
// buffers back to the thread that fills them (fresh megabyte buffers would cost page
// faults and zeroing for every block of a gigabyte file).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <vector>

namespace tty {

template <typename T> class BoundedQueue
{
public:
    explicit BoundedQueue(std::size_t capacity) : m_capacity(capacity) {}
    // Blocks while full; false once stopped (the item is not taken).
    bool push(T item)
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_notFull.wait(lock, [&] { return m_queue.size() < m_capacity || m_stopped; });
        if (m_stopped) {
            return false;
        }
        m_queue.push_back(std::move(item));
        m_notEmpty.notify_one();
        return true;
    }
    // Blocks while empty; false once closed and drained, or stopped.
    bool pop(T *item)
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_notEmpty.wait(lock, [&] { return !m_queue.empty() || m_closed || m_stopped; });
        if (m_queue.empty() || m_stopped) {
            return false;
        }
        *item = std::move(m_queue.front());
        m_queue.pop_front();
        m_notFull.notify_one();
        return true;
    }
    // No more items will come: pop drains what is there, then returns false.
    void close()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_closed = true;
        m_notEmpty.notify_all();
    }
    // Abandon: push and pop return false from now on.
    void stop()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stopped = true;
        m_notFull.notify_all();
        m_notEmpty.notify_all();
    }

private:
    std::size_t m_capacity;
    std::deque<T> m_queue;
    std::mutex m_mutex;
    std::condition_variable m_notFull, m_notEmpty;
    bool m_closed = false;
    bool m_stopped = false;
};

template <typename T> class Pool
{
public:
    explicit Pool(std::size_t capacity) : m_capacity(capacity) {}
    void put(T item)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_free.size() < m_capacity) {
            m_free.push_back(std::move(item));
        }
    }
    // A recycled item, or a default-constructed one.
    T take()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_free.empty()) {
            return T();
        }
        T item = std::move(m_free.back());
        m_free.pop_back();
        return item;
    }

private:
    std::size_t m_capacity;
    std::vector<T> m_free;
    std::mutex m_mutex;
};

} // namespace tty
