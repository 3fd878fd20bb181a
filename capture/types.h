// Units that are easy to mix up get types of their own (see docs/format.md for the clocks
// and docs/architecture.md for the rules): a host time cannot be passed where a kernel
// time is expected, and only the arithmetic that means something compiles. The types are
// a single int64 (or double) with inline operators, so they cost nothing at run time.
// Where a value may be missing the core's interfaces say so with std::optional.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <type_traits>

namespace tty {

using Nanoseconds = std::chrono::nanoseconds;   // a span of host time
using Microseconds = std::chrono::microseconds; // a span of kernel time
using Seconds = std::chrono::duration<double>;  // a span of run time

// A point on one clock, counted in Duration since the clock's origin. Two points on the
// same clock subtract to a Duration; a Duration moves a point. Points on different clocks
// (different Tag) do not mix, and adding two points does not compile.
template <class Tag, class Duration> class ClockTime
{
public:
    using duration = Duration;
    using rep = typename Duration::rep;

    constexpr ClockTime() = default;
    constexpr explicit ClockTime(rep count) : m_count(count) {}
    constexpr explicit ClockTime(Duration sinceOrigin) : m_count(sinceOrigin.count()) {}

    constexpr rep count() const { return m_count; }
    constexpr Duration sinceOrigin() const { return Duration(m_count); }

    // Integer clocks saturate instead of wrapping: a corrupt log can carry any time, and
    // the difference of two such times must stay an extreme, not turn into a small or
    // negative number (or undefined behaviour). The builders warn about such times
    // (RunBuilder); this only keeps the arithmetic defined. One predictable branch.
    friend constexpr Duration operator-(ClockTime a, ClockTime b)
    {
        return Duration(sub(a.m_count, b.m_count));
    }
    friend constexpr ClockTime operator+(ClockTime a, Duration d)
    {
        return ClockTime(add(a.m_count, d.count()));
    }
    friend constexpr ClockTime operator+(Duration d, ClockTime a) { return a + d; }
    friend constexpr ClockTime operator-(ClockTime a, Duration d)
    {
        return ClockTime(sub(a.m_count, d.count()));
    }
    constexpr ClockTime &operator+=(Duration d)
    {
        m_count = add(m_count, d.count());
        return *this;
    }
    constexpr ClockTime &operator-=(Duration d)
    {
        m_count = sub(m_count, d.count());
        return *this;
    }

    friend constexpr bool operator==(ClockTime a, ClockTime b) { return a.m_count == b.m_count; }
    friend constexpr bool operator!=(ClockTime a, ClockTime b) { return a.m_count != b.m_count; }
    friend constexpr bool operator<(ClockTime a, ClockTime b) { return a.m_count < b.m_count; }
    friend constexpr bool operator<=(ClockTime a, ClockTime b) { return a.m_count <= b.m_count; }
    friend constexpr bool operator>(ClockTime a, ClockTime b) { return a.m_count > b.m_count; }
    friend constexpr bool operator>=(ClockTime a, ClockTime b) { return a.m_count >= b.m_count; }

private:
    static constexpr rep add(rep a, rep b)
    {
        if constexpr (std::is_integral_v<rep>) {
            rep r{};
            if (__builtin_add_overflow(a, b, &r)) {
                return b > 0 ? std::numeric_limits<rep>::max() : std::numeric_limits<rep>::min();
            }
            return r;
        } else {
            return a + b;
        }
    }
    static constexpr rep sub(rep a, rep b)
    {
        if constexpr (std::is_integral_v<rep>) {
            rep r{};
            if (__builtin_sub_overflow(a, b, &r)) {
                return b < 0 ? std::numeric_limits<rep>::max() : std::numeric_limits<rep>::min();
            }
            return r;
        } else {
            return a - b;
        }
    }

    rep m_count = 0;
};

struct HostClockTag;
struct KernelClockTag;
struct RunClockTag;

// Host arrival time: nanoseconds since the Unix epoch (or since an unknown origin for
// formats that only carry elapsed time).
using HostNs = ClockTime<HostClockTag, Nanoseconds>;
// Kernel printk timestamp: microseconds since the kernel's boot.
using KernelUs = ClockTime<KernelClockTag, Microseconds>;
// Seconds since the start of a run (its first arrival, or kernel time 0 without arrivals).
using RunSeconds = ClockTime<RunClockTag, Seconds>;

// A span in plain seconds, where a time leaves the typed world (figures, fits, plots).
// Multiplied, not divided, by the unit: the figures were always computed so, and a
// division can differ in the last bit.
constexpr double toSeconds(Nanoseconds d)
{
    return double(d.count()) * 1e-9;
}
constexpr double toSeconds(Microseconds d)
{
    return double(d.count()) * 1e-6;
}
// A kernel time as seconds since the kernel's boot.
constexpr double toSeconds(KernelUs k)
{
    return double(k.count()) * 1e-6;
}

// A position and a count of the same unit: position - position = count, position ± count
// = position, count ± count = count; position + position does not compile. Tag keeps
// lines apart from bytes.
template <class Tag> class Count
{
public:
    constexpr Count() = default;
    constexpr explicit Count(std::int64_t n) : m_n(n) {}
    constexpr std::int64_t count() const { return m_n; }

    friend constexpr Count operator+(Count a, Count b) { return Count(a.m_n + b.m_n); }
    friend constexpr Count operator-(Count a, Count b) { return Count(a.m_n - b.m_n); }
    constexpr Count &operator+=(Count b)
    {
        m_n += b.m_n;
        return *this;
    }
    constexpr Count &operator-=(Count b)
    {
        m_n -= b.m_n;
        return *this;
    }
    constexpr Count &operator++()
    {
        ++m_n;
        return *this;
    }
    // Scaling a count (slicing a range), and how many times one count fits in another.
    friend constexpr Count operator*(Count a, std::int64_t k) { return Count(a.m_n * k); }
    friend constexpr Count operator/(Count a, std::int64_t k) { return Count(a.m_n / k); }
    friend constexpr std::int64_t operator/(Count a, Count b) { return a.m_n / b.m_n; }
    friend constexpr bool operator==(Count a, Count b) { return a.m_n == b.m_n; }
    friend constexpr bool operator!=(Count a, Count b) { return a.m_n != b.m_n; }
    friend constexpr bool operator<(Count a, Count b) { return a.m_n < b.m_n; }
    friend constexpr bool operator<=(Count a, Count b) { return a.m_n <= b.m_n; }
    friend constexpr bool operator>(Count a, Count b) { return a.m_n > b.m_n; }
    friend constexpr bool operator>=(Count a, Count b) { return a.m_n >= b.m_n; }

private:
    std::int64_t m_n = 0;
};

template <class Tag> class Position
{
public:
    constexpr Position() = default;
    constexpr explicit Position(std::int64_t i) : m_i(i) {}
    constexpr std::int64_t value() const { return m_i; }

    friend constexpr Count<Tag> operator-(Position a, Position b)
    {
        return Count<Tag>(a.m_i - b.m_i);
    }
    friend constexpr Position operator+(Position a, Count<Tag> n)
    {
        return Position(a.m_i + n.count());
    }
    friend constexpr Position operator+(Count<Tag> n, Position a) { return a + n; }
    friend constexpr Position operator-(Position a, Count<Tag> n)
    {
        return Position(a.m_i - n.count());
    }
    constexpr Position &operator+=(Count<Tag> n)
    {
        m_i += n.count();
        return *this;
    }
    constexpr Position &operator-=(Count<Tag> n)
    {
        m_i -= n.count();
        return *this;
    }
    constexpr Position &operator++()
    {
        ++m_i;
        return *this;
    }
    constexpr Position &operator--()
    {
        --m_i;
        return *this;
    }
    constexpr Position operator++(int) { return Position(m_i++); }
    constexpr Position operator--(int) { return Position(m_i--); }

    friend constexpr bool operator==(Position a, Position b) { return a.m_i == b.m_i; }
    friend constexpr bool operator!=(Position a, Position b) { return a.m_i != b.m_i; }
    friend constexpr bool operator<(Position a, Position b) { return a.m_i < b.m_i; }
    friend constexpr bool operator<=(Position a, Position b) { return a.m_i <= b.m_i; }
    friend constexpr bool operator>(Position a, Position b) { return a.m_i > b.m_i; }
    friend constexpr bool operator>=(Position a, Position b) { return a.m_i >= b.m_i; }

private:
    std::int64_t m_i = 0;
};

struct LineTag;
struct ByteTag;
// 0-based index of a console line within a run, and a number of lines.
using LineIndex = Position<LineTag>;
using LineCount = Count<LineTag>;
// A byte position in a file or stream, and a number of bytes.
using ByteOffset = Position<ByteTag>;
using ByteCount = Count<ByteTag>;

constexpr LineCount operator""_lines(unsigned long long n)
{
    return LineCount(std::int64_t(n));
}
// The 1-based number users see for a line (messages, reports, `line` in JSON).
constexpr std::int64_t lineNumber(LineIndex i)
{
    return i.value() + 1;
}

// Zero cost: the same size as what they wrap, copied like it.
static_assert(sizeof(HostNs) == 8 && std::is_trivially_copyable_v<HostNs>);
static_assert(sizeof(KernelUs) == 8 && std::is_trivially_copyable_v<KernelUs>);
static_assert(sizeof(RunSeconds) == 8 && std::is_trivially_copyable_v<RunSeconds>);
static_assert(sizeof(LineIndex) == 8 && std::is_trivially_copyable_v<LineIndex>);
static_assert(sizeof(LineCount) == 8 && std::is_trivially_copyable_v<LineCount>);
static_assert(sizeof(ByteOffset) == 8 && std::is_trivially_copyable_v<ByteOffset>);

// For QHash/QSet keys (found by argument-dependent lookup).
template <class Tag, class D> inline std::size_t qHash(ClockTime<Tag, D> t, std::size_t seed = 0)
{
    return std::hash<typename D::rep>()(t.count()) ^ seed;
}
template <class Tag> inline std::size_t qHash(Position<Tag> p, std::size_t seed = 0)
{
    return std::hash<std::int64_t>()(p.value()) ^ seed;
}
template <class Tag> inline std::size_t qHash(Count<Tag> n, std::size_t seed = 0)
{
    return std::hash<std::int64_t>()(n.count()) ^ seed;
}

} // namespace tty

template <class Tag, class D> struct std::hash<tty::ClockTime<Tag, D>>
{
    std::size_t operator()(tty::ClockTime<Tag, D> t) const noexcept
    {
        return std::hash<typename D::rep>()(t.count());
    }
};
template <class Tag> struct std::hash<tty::Position<Tag>>
{
    std::size_t operator()(tty::Position<Tag> p) const noexcept
    {
        return std::hash<std::int64_t>()(p.value());
    }
};
