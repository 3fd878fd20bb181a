// Strings -> dense ids, open addressing: the template and prefix tables of the sources
// (issue 14), looked up once per line, so no allocation on a hit.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tty {

class StringDictionary
{
public:
    // At most `limit` distinct strings; the ones after that all get the id of `overflow`.
    StringDictionary(std::uint32_t limit, std::string overflow)
        : m_slots(1024, 0), m_limit(limit), m_overflowKey(std::move(overflow))
    {
    }

    std::uint32_t idOf(std::string_view key)
    {
        const std::size_t h = std::hash<std::string_view>{}(key);
        std::size_t s = h & (m_slots.size() - 1);
        while (m_slots[s] != 0) {
            const std::uint32_t id = m_slots[s] - 1;
            if (m_hashes[id] == h && m_keys[id] == key) {
                return id;
            }
            s = (s + 1) & (m_slots.size() - 1);
        }
        if (m_keys.size() >= m_limit) {
            if (!m_overflow) {
                m_overflow = insertAt(s, h, m_overflowKey);
            }
            return *m_overflow;
        }
        return insertAt(s, h, std::string(key));
    }
    const std::vector<std::string> &keys() const { return m_keys; }
    std::size_t size() const { return m_keys.size(); }

private:
    std::uint32_t insertAt(std::size_t slot, std::size_t h, std::string key)
    {
        const std::uint32_t id = std::uint32_t(m_keys.size());
        m_keys.push_back(std::move(key));
        m_hashes.push_back(h);
        m_slots[slot] = id + 1;
        if (m_keys.size() * 2 > m_slots.size()) {
            grow();
        }
        return id;
    }
    void grow()
    {
        std::vector<std::uint32_t> table(m_slots.size() * 2, 0);
        for (std::uint32_t id = 0; id < m_keys.size(); ++id) {
            std::size_t s = m_hashes[id] & (table.size() - 1);
            while (table[s] != 0) {
                s = (s + 1) & (table.size() - 1);
            }
            table[s] = id + 1;
        }
        m_slots.swap(table);
    }

    std::vector<std::uint32_t> m_slots; // id + 1, 0 = empty
    std::vector<std::size_t> m_hashes;
    std::vector<std::string> m_keys;
    std::uint32_t m_limit;
    std::string m_overflowKey;
    std::optional<std::uint32_t> m_overflow;
};

} // namespace tty
