// Memory for the big tables of a run (line texts, the line index), taken from the kernel
// with its pages populated up front. Faulting a gigabyte in page by page costs about twice
// as much CPU on these VMs as one populating mmap (docs/benchmarks.md).
#pragma once

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

} // namespace tty
