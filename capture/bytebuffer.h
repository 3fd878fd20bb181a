// A byte buffer that grows without zero-filling. The loader decompresses a gigabyte into
// recycled megabyte buffers; std::string::resize would clear each one before it is
// overwritten, on the one thread (decompression) that bounds the load time.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

namespace tty {

class ByteBuffer
{
public:
    ByteBuffer() = default;
    // A moved-from buffer is empty (not holding a size without storage).
    ByteBuffer(ByteBuffer &&o) noexcept { *this = std::move(o); }
    ByteBuffer &operator=(ByteBuffer &&o) noexcept
    {
        if (this == &o) {
            return *this;
        }
        m_data = std::move(o.m_data);
        m_size = o.m_size;
        m_capacity = o.m_capacity;
        o.m_size = o.m_capacity = 0;
        return *this;
    }
    char *data() { return m_data.get(); }
    const char *data() const { return m_data.get(); }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::string_view view() const { return std::string_view(m_data.get(), m_size); }

    // New bytes are left uninitialised; the contents up to the old size are kept.
    void resize(std::size_t n)
    {
        if (n > m_capacity) {
            const std::size_t capacity = n > 2 * m_capacity ? n : 2 * m_capacity;
            std::unique_ptr<char[]> bigger(new char[capacity]);
            if (m_size) {
                std::memcpy(bigger.get(), m_data.get(), m_size);
            }
            m_data = std::move(bigger);
            m_capacity = capacity;
        }
        m_size = n;
    }
    void assign(const char *p, std::size_t n)
    {
        m_size = 0;
        resize(n);
        if (n) {
            std::memcpy(m_data.get(), p, n);
        }
    }
    // Drops the first n bytes.
    void eraseFront(std::size_t n)
    {
        std::memmove(m_data.get(), m_data.get() + n, m_size - n);
        m_size -= n;
    }

private:
    std::unique_ptr<char[]> m_data;
    std::size_t m_size = 0;
    std::size_t m_capacity = 0;
};

} // namespace tty
