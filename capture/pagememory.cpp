#include "pagememory.h"

#include <cstdlib>
#include <new>
#include <sys/mman.h>

namespace tty {

namespace {
// Below this malloc's arenas serve better than a mapping per allocation.
constexpr std::size_t kMapBytes = 256u << 10;
} // namespace

void *allocatePages(std::size_t bytes, bool populate)
{
    if (bytes < kMapBytes) {
        void *p = std::malloc(bytes ? bytes : 1);
        if (!p) {
            throw std::bad_alloc();
        }
        return p;
    }
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0), -1, 0);
    if (p == MAP_FAILED) {
        throw std::bad_alloc();
    }
    return p;
}

void PageFree::operator()(void *p) const
{
    if (bytes < kMapBytes) {
        std::free(p);
    } else {
        munmap(p, bytes);
    }
}

} // namespace tty
