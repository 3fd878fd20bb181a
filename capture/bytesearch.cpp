#include "bytesearch.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tty {

namespace {

#if defined(__x86_64__)
// Positions i where hay[i] == first and hay[i + k - 1] == last are candidates, one bit each
// in `mask` for the positions from `at`; only those get a memcmp.
const char *checkCandidates(const char *hay, std::size_t at, unsigned mask, std::string_view needle)
{
    for (; mask; mask &= mask - 1) {
        const char *p = hay + at + std::size_t(__builtin_ctz(mask));
        if (std::memcmp(p + 1, needle.data() + 1, needle.size() - 2) == 0) {
            return p;
        }
    }
    return nullptr;
}

// The vector loops (the AVX2 one needs a function of its own for its target attribute)
// return the offset they scanned up to, so that the caller finishes the tail.
std::size_t scanSse2(const char *hay, std::size_t n, std::string_view needle, const char **hit)
{
    const std::size_t k = needle.size();
    const __m128i first = _mm_set1_epi8(needle[0]);
    const __m128i last = _mm_set1_epi8(needle[k - 1]);
    std::size_t i = 0;
    auto scanAt = [&](std::size_t at) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(hay + at));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(hay + at + k - 1));
        *hit = checkCandidates(hay, at,
                               unsigned(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first),
                                                                        _mm_cmpeq_epi8(b, last)))),
                               needle);
    };
    for (; i + k - 1 + 16 <= n && !*hit; i += 16) {
        scanAt(i);
    }
    // The tail: one more vector, ending at the last position (it overlaps positions seen).
    if (!*hit && i + k <= n && k - 1 + 16 <= n) {
        scanAt(n - (k - 1) - 16);
        i = n - k + 1;
    }
    return i;
}

// One vector of candidates at `at`.
__attribute__((target("avx2"))) inline const char *vectorAvx2(const char *hay, std::size_t at,
                                                              std::string_view needle)
{
    const std::size_t k = needle.size();
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(hay + at));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(hay + at + k - 1));
    return checkCandidates(hay, at,
                           unsigned(_mm256_movemask_epi8(_mm256_and_si256(
                               _mm256_cmpeq_epi8(a, _mm256_set1_epi8(needle[0])),
                               _mm256_cmpeq_epi8(b, _mm256_set1_epi8(needle[k - 1]))))),
                           needle);
}

__attribute__((target("avx2"))) std::size_t scanAvx2(const char *hay, std::size_t n,
                                                     std::string_view needle, const char **hit)
{
    const std::size_t k = needle.size();
    std::size_t i = 0;
    for (; i + k - 1 + 32 <= n && !*hit; i += 32) {
        *hit = vectorAvx2(hay, i, needle);
    }
    // The tail: one more vector, ending at the last position (it overlaps positions seen).
    if (!*hit && i + k <= n && k - 1 + 32 <= n) {
        *hit = vectorAvx2(hay, n - (k - 1) - 32, needle);
        i = n - k + 1;
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
    // A console line is often shorter than one AVX2 vector and the needle: SSE2 then.
    done = haveAvx2() && n >= k - 1 + 32 ? scanAvx2(hay, n, needle, &hit)
                                         : scanSse2(hay, n, needle, &hit);
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
