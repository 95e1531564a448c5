#ifndef ANVIL_ENV_H
#define ANVIL_ENV_H

/**
 * The environment: every clock read, sleep and random draw in anvil goes
 * through a `struct anvil_env`, so tests can replace them (docs/time.md).
 * The sans-I/O layers (waiter, retry, paginator) never read a clock or
 * sleep: they are handed `now_ms`. Two draw randomness through an env: the
 * wait state its jitter (anvil_wait_options.env, random_bytes only) and a
 * retry strategy its backoff (anvil_retry_options.env, outside its lock).
 * The blocking drivers use the whole env.
 *
 * anvil_env_system() is the real one. struct anvil_fake_env is a fake for
 * tests: a clock that only moves when told or when something sleeps, and a
 * seeded, deterministic random source.
 */

#include "anvil/common.h"

ANVIL_EXTERN_C_BEGIN

/** Milliseconds on a monotonic clock (arbitrary origin, never goes back). */
typedef uint64_t anvil_now_ms_fn(void *ctx);

/** Milliseconds since 1970-01-01T00:00:00Z (for signing dates, not for measuring). */
typedef uint64_t anvil_wall_ms_fn(void *ctx);

/**
 * Blocks for `ms` milliseconds. Returns ANVIL_OK, or ANVIL_ECANCELED when the
 * implementation was asked to stop early.
 */
typedef int anvil_sleep_ms_fn(void *ctx, uint64_t ms);

/** Fills `out` with `len` random bytes. ANVIL_OK, or ANVIL_EIO when no source works. */
typedef int anvil_random_bytes_fn(void *ctx, void *out, size_t len);

struct anvil_env {
    anvil_now_ms_fn *now_ms;
    anvil_wall_ms_fn *wall_ms;
    anvil_sleep_ms_fn *sleep_ms;
    anvil_random_bytes_fn *random_bytes;
    /** Passed to each function. */
    void *ctx;
};

/**
 * The real environment: CLOCK_MONOTONIC, CLOCK_REALTIME, nanosleep(2) (resumed
 * after signals) and getrandom(2) with /dev/urandom as a fallback. Static
 * storage. Thread-safe.
 */
ANVIL_API const struct anvil_env *anvil_env_system(void);

/** env->now_ms(); a NULL env means anvil_env_system(). */
ANVIL_API uint64_t anvil_env_now_ms(const struct anvil_env *env);

/** env->wall_ms(); a NULL env means anvil_env_system(). */
ANVIL_API uint64_t anvil_env_wall_ms(const struct anvil_env *env);

/** env->sleep_ms(); a NULL env means anvil_env_system(). A 0 ms sleep returns at once. */
ANVIL_API int anvil_env_sleep_ms(const struct anvil_env *env, uint64_t ms);

/** env->random_bytes(); a NULL env means anvil_env_system(). */
ANVIL_API int anvil_env_random_bytes(const struct anvil_env *env, void *out, size_t len);

/** A uniformly random 64-bit integer from the env. */
ANVIL_API int anvil_env_random_u64(const struct anvil_env *env, uint64_t *out);

/**
 * A uniformly random integer in [lo, hi] (both inclusive), without modulo
 * bias. ANVIL_EINVAL when lo > hi.
 */
ANVIL_API int anvil_env_random_range(const struct anvil_env *env, uint64_t lo, uint64_t hi, uint64_t *out);

/** A uniformly random double in [0, 1), with 53 random bits. */
ANVIL_API int anvil_env_random_unit(const struct anvil_env *env, double *out);

struct anvil_fake_env;

/** Called by the fake's sleep after the clock moved, e.g. to change what a fake service answers. */
typedef void anvil_fake_sleep_hook_fn(struct anvil_fake_env *fake, uint64_t slept_ms, void *user_data);

/**
 * A fake environment for tests. Its `env` member is the vtable to hand to
 * anvil; the other fields may be read and written by the test at any time.
 * Not thread-safe.
 */
struct anvil_fake_env {
    struct anvil_env env;
    /** The monotonic clock. Only sleeps and anvil_fake_env_advance() move it. */
    uint64_t now_ms;
    /** The wall clock reads wall_origin_ms + now_ms. */
    uint64_t wall_origin_ms;
    /** State of the deterministic generator (splitmix64). */
    uint64_t rng_state;
    /** How many times sleep was called, and the total it slept. */
    uint64_t sleep_calls;
    uint64_t slept_ms;
    /** When set, sleep returns ANVIL_ECANCELED at once without moving the clock. */
    bool cancel_sleeps;
    /** When set, random_bytes fails with ANVIL_EIO. */
    bool fail_random;
    /** Optional hook run after every sleep. */
    anvil_fake_sleep_hook_fn *on_sleep;
    void *on_sleep_user_data;
};

/**
 * Makes `fake` a fake env whose clock reads `start_ms` and whose random source
 * is seeded with `seed` (the same seed always gives the same bytes). The wall
 * clock starts at 2020-01-01T00:00:00Z + start_ms. Cannot fail.
 */
ANVIL_API void anvil_fake_env_init(struct anvil_fake_env *fake, uint64_t start_ms, uint64_t seed);

/** Moves the fake clock forward by `ms`, saturating at UINT64_MAX. */
ANVIL_API void anvil_fake_env_advance(struct anvil_fake_env *fake, uint64_t ms);

ANVIL_EXTERN_C_END

#endif
