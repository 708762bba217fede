#include "ilotoki_sha256.h"

#include <stdatomic.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define ILOTOKI_SHA256_X86 1
#endif

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static inline uint32_t load_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/* The FIPS 180-4 compression function, one 64-byte block at a time. */
static void compress_portable(uint32_t state[8], const uint8_t *data, size_t blocks) {
    uint32_t w[64];
    while (blocks-- > 0) {
        for (int t = 0; t < 16; ++t) w[t] = load_be32(data + 4 * t);
        for (int t = 16; t < 64; ++t) {
            const uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
            const uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int t = 0; t < 64; ++t) {
            const uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
            const uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        state[5] += f;
        state[6] += g;
        state[7] += h;
        data += 64;
    }
}

#ifdef ILOTOKI_SHA256_X86
/* The same function with the SHA extensions: the state lives in two registers as (A,B,E,F)
 * and (C,D,G,H), each sha256rnds2 does two rounds, sha256msg1/msg2 extend the schedule. */
__attribute__((target("sha,sse4.1,ssse3")))
static void compress_x86(uint32_t state[8], const uint8_t *data, size_t blocks) {
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i badc = _mm_shuffle_epi32(dcba, 0xB1);
    hgfe = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(badc, hgfe, 8);
    __m128i cdgh = _mm_blend_epi16(hgfe, badc, 0xF0);

    while (blocks-- > 0) {
        const __m128i abef_start = abef;
        const __m128i cdgh_start = cdgh;
        __m128i m[4];
        for (int i = 0; i < 4; ++i) m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), byte_swap);
        for (int t = 0; t < 16; ++t) {
            if (t >= 4) {
                /* W[t..t+3] from W[t-16..], W[t-15..], W[t-7..] and W[t-2..]. */
                __m128i next = _mm_sha256msg1_epu32(m[t & 3], m[(t + 1) & 3]);
                next = _mm_add_epi32(next, _mm_alignr_epi8(m[(t + 3) & 3], m[(t + 2) & 3], 4));
                m[t & 3] = _mm_sha256msg2_epu32(next, m[(t + 3) & 3]);
            }
            __m128i wk = _mm_add_epi32(m[t & 3], _mm_loadu_si128((const __m128i *)&K[4 * t]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            wk = _mm_shuffle_epi32(wk, 0x0E);
            /* The first call left the new (A,B,E,F) in `cdgh`; the old (A,B,E,F) is now the
             * (C,D,G,H) of the second round, which leaves the result in `abef` again. */
            abef = _mm_sha256rnds2_epu32(abef, cdgh, wk);
        }
        abef = _mm_add_epi32(abef, abef_start);
        cdgh = _mm_add_epi32(cdgh, cdgh_start);
        data += 64;
    }

    const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

static int cpu_has_sha_extensions(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const int ssse3 = (ecx >> 9) & 1, sse41 = (ecx >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    const int sha = (ebx >> 29) & 1;
    return ssse3 && sse41 && sha;
}
#endif

typedef void (*compress_fn)(uint32_t state[8], const uint8_t *data, size_t blocks);

static atomic_int extensions_allowed = 1;

static compress_fn chosen_compress(void) {
#ifdef ILOTOKI_SHA256_X86
    // 0: not asked yet, 1: no, 2: yes. Asked once per process; threads that ask at the same
    // moment get the same answer, so a race to store it is harmless, but it is atomic.
    static atomic_int available = 0;
    int known = atomic_load_explicit(&available, memory_order_acquire);
    if (known == 0) {
        known = cpu_has_sha_extensions() ? 2 : 1;
        atomic_store_explicit(&available, known, memory_order_release);
    }
    if (known == 2 && atomic_load(&extensions_allowed)) return compress_x86;
#endif
    return compress_portable;
}

bool ilotoki_sha256_uses_cpu_extensions(void) { return chosen_compress() != compress_portable; }

void ilotoki_sha256_allow_cpu_extensions(bool allowed) { atomic_store(&extensions_allowed, allowed ? 1 : 0); }

void ilotoki_sha256_init(ilotoki_sha256 *hash) {
    static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(hash->state, initial, sizeof initial);
    hash->length = 0;
    hash->buffered = 0;
}

void ilotoki_sha256_update(ilotoki_sha256 *hash, const void *data, size_t length) {
    const compress_fn compress = chosen_compress();
    const uint8_t *bytes = (const uint8_t *)data;
    hash->length += length;
    if (hash->buffered > 0) {
        size_t take = 64 - hash->buffered;
        if (take > length) take = length;
        memcpy(hash->buffer + hash->buffered, bytes, take);
        hash->buffered += take;
        bytes += take;
        length -= take;
        if (hash->buffered < 64) return;
        compress(hash->state, hash->buffer, 1);
        hash->buffered = 0;
    }
    if (length >= 64) {
        compress(hash->state, bytes, length / 64);
        bytes += length - length % 64;
        length %= 64;
    }
    if (length > 0) {
        memcpy(hash->buffer, bytes, length);
        hash->buffered = length;
    }
}

void ilotoki_sha256_final(ilotoki_sha256 *hash, uint8_t digest[32]) {
    const uint64_t bits = hash->length * 8;
    uint8_t padding[72] = {0x80};
    const size_t pad = (hash->buffered < 56) ? 56 - hash->buffered : 120 - hash->buffered;
    for (int i = 0; i < 8; ++i) padding[pad + i] = (uint8_t)(bits >> (56 - 8 * i));
    const uint64_t length = hash->length;
    ilotoki_sha256_update(hash, padding, pad + 8);
    hash->length = length;
    for (int i = 0; i < 8; ++i) {
        digest[4 * i] = (uint8_t)(hash->state[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(hash->state[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(hash->state[i] >> 8);
        digest[4 * i + 3] = (uint8_t)hash->state[i];
    }
}
