// Memory for the big tables of a run (line texts, the line index), taken from the kernel
// with its pages populated up front. Faulting a gigabyte in page by page costs about twice
// as much CPU on these VMs as one populating mmap (docs/benchmarks.md).
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>

namespace tty {

struct PageFree
{
    std::size_t bytes = 0;
    void operator()(void *p) const;
};

// Small sizes come from malloc; large ones are mapped (populated when asked).
void *allocatePages(std::size_t bytes, bool populate);

template <typename T> using PageArray = std::unique_ptr<T[], PageFree>;

// Uninitialised storage for n trivial values.
template <typename T> PageArray<T> pageArray(std::size_t n, bool populate = true)
{
    const std::size_t bytes = n * sizeof(T);
    return PageArray<T>(static_cast<T *>(allocatePages(bytes, populate)), PageFree{bytes});
}

// How many values an array holds room for.
template <typename T> std::size_t capacityOf(const PageArray<T> &a)
{
    return a.get_deleter().bytes / sizeof(T);
}

// Moves an array to storage for n values, keeping its first `keep` (<= n): a table trims
// its last chunk to the lines it holds once loaded, and grows it back if lines come.
template <typename T> void reallocatePageArray(PageArray<T> &a, std::size_t keep, std::size_t n)
{
    PageArray<T> next = pageArray<T>(n);
    std::copy_n(a.get(), keep, next.get());
    a = std::move(next);
}

// Makes room for `needed` values (<= most), keeping the first `keep`: at least doubling, so
// that a chunk that starts small (a short log's) costs a few copies as it fills.
template <typename T>
void growPageArray(PageArray<T> &a, std::size_t keep, std::size_t needed, std::size_t most)
{
    const std::size_t capacity = capacityOf(a);
    if (capacity < needed) {
        reallocatePageArray(a, keep, std::min(most, std::max(needed, 2 * capacity)));
    }
}

} // namespace tty
