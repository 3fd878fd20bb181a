#include "bytesearch.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tty {

namespace {

#if defined(__x86_64__)
// Positions i where hay[i] == first and hay[i + k - 1] == last are candidates; only those
// get a memcmp. Returns the offset scanned up to when nothing was found, so the caller
// finishes the tail.
std::size_t scanSse2(const char *hay, std::size_t n, std::string_view needle, const char **hit)
{
    const std::size_t k = needle.size();
    const __m128i first = _mm_set1_epi8(needle[0]);
    const __m128i last = _mm_set1_epi8(needle[k - 1]);
    std::size_t i = 0;
    for (; i + k - 1 + 16 <= n; i += 16) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(hay + i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(hay + i + k - 1));
        unsigned mask = unsigned(
            _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, last))));
        while (mask) {
            const std::size_t at = i + std::size_t(__builtin_ctz(mask));
            if (std::memcmp(hay + at + 1, needle.data() + 1, k - 2) == 0) {
                *hit = hay + at;
                return i;
            }
            mask &= mask - 1;
        }
    }
    return i;
}

__attribute__((target("avx2"))) std::size_t scanAvx2(const char *hay, std::size_t n,
                                                     std::string_view needle, const char **hit)
{
    const std::size_t k = needle.size();
    const __m256i first = _mm256_set1_epi8(needle[0]);
    const __m256i last = _mm256_set1_epi8(needle[k - 1]);
    std::size_t i = 0;
    for (; i + k - 1 + 32 <= n; i += 32) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(hay + i));
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(hay + i + k - 1));
        unsigned mask = unsigned(_mm256_movemask_epi8(
            _mm256_and_si256(_mm256_cmpeq_epi8(a, first), _mm256_cmpeq_epi8(b, last))));
        while (mask) {
            const std::size_t at = i + std::size_t(__builtin_ctz(mask));
            if (std::memcmp(hay + at + 1, needle.data() + 1, k - 2) == 0) {
                *hit = hay + at;
                return i;
            }
            mask &= mask - 1;
        }
    }
    return i;
}

bool haveAvx2()
{
    static const bool yes = __builtin_cpu_supports("avx2");
    return yes;
}
#endif

} // namespace

const char *findBytes(const char *hay, std::size_t n, std::string_view needle)
{
    const std::size_t k = needle.size();
    if (k == 0) {
        return hay;
    }
    if (k > n) {
        return nullptr;
    }
    if (k == 1) {
        return static_cast<const char *>(std::memchr(hay, needle[0], n));
    }
    std::size_t done = 0;
#if defined(__x86_64__)
    const char *hit = nullptr;
    done = haveAvx2() ? scanAvx2(hay, n, needle, &hit) : scanSse2(hay, n, needle, &hit);
    if (hit) {
        return hit;
    }
#endif
    // The tail, shorter than a vector (or the whole region elsewhere than x86-64): the same
    // first-and-last test one position at a time. memmem's set-up would cost more than
    // the search on a console line.
    const char first = needle[0], last = needle[k - 1];
    for (std::size_t i = done; i + k <= n; ++i) {
        if (hay[i] == first && hay[i + k - 1] == last &&
            std::memcmp(hay + i + 1, needle.data() + 1, k - 2) == 0) {
            return hay + i;
        }
    }
    return nullptr;
}

} // namespace tty
