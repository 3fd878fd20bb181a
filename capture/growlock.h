// The lock of a run that grows while other threads read it (Run::growLock). Readers and
// one writer, the writer first: with std::shared_mutex (glibc's reader preference) two
// workers searching one after the other kept the GUI thread from appending for ever.
// Built on std::mutex and std::condition_variable, which ThreadSanitizer understands.
#pragma once

#include <condition_variable>
#include <mutex>

namespace tty {

class GrowLock
{
public:
    void lock_shared()
    {
        std::unique_lock<std::mutex> l(m_mutex);
        m_changed.wait(l, [this] { return !m_writing && m_waitingWriters == 0; });
        ++m_readers;
    }
    void unlock_shared()
    {
        const std::lock_guard<std::mutex> l(m_mutex);
        if (--m_readers == 0) {
            m_changed.notify_all();
        }
    }
    void lock()
    {
        std::unique_lock<std::mutex> l(m_mutex);
        ++m_waitingWriters;
        m_changed.wait(l, [this] { return !m_writing && m_readers == 0; });
        --m_waitingWriters;
        m_writing = true;
    }
    void unlock()
    {
        const std::lock_guard<std::mutex> l(m_mutex);
        m_writing = false;
        m_changed.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    int m_readers = 0;
    int m_waitingWriters = 0;
    bool m_writing = false;
};

} // namespace tty
