/*
 * ilotoki_sha256.h — SHA-256 (FIPS 180-4) for verifying downloaded models.
 *
 * Linux has no CryptoKit and swift-crypto cannot be fetched in this project's builds, so
 * the hash is our own: portable C, with the x86 SHA extensions used when the CPU has them.
 * Always compiled with optimisation, so hashing a 1.4 GB model takes seconds in any build.
 */
#ifndef ILOTOKI_SHA256_H
#define ILOTOKI_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A running hash. Initialise with `ilotoki_sha256_init`; no other setup or cleanup. */
typedef struct ilotoki_sha256 {
    uint32_t state[8];
    uint64_t length;      /* bytes hashed so far */
    uint8_t buffer[64];   /* a partial block */
    size_t buffered;      /* bytes in `buffer` */
} ilotoki_sha256;

/** Starts a new hash. */
void ilotoki_sha256_init(ilotoki_sha256 *hash);

/** Adds `length` bytes. */
void ilotoki_sha256_update(ilotoki_sha256 *hash, const void *data, size_t length);

/** Finishes the hash and writes the 32-byte digest. `hash` must be initialised again before reuse. */
void ilotoki_sha256_final(ilotoki_sha256 *hash, uint8_t digest[32]);

/** Whether this CPU's SHA instructions are used. */
bool ilotoki_sha256_uses_cpu_extensions(void);

/** Tests only: with `false`, the portable code is used even where the CPU could do better
 *  (both give the same digests, so hashing that runs meanwhile is unaffected). */
void ilotoki_sha256_allow_cpu_extensions(bool allowed);

#ifdef __cplusplus
}
#endif

#endif /* ILOTOKI_SHA256_H */
