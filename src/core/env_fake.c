/* The fake environment for tests: time moves only when told or slept. */

#include "anvil/env.h"

#include <string.h>

#include "anvil/status.h"
#include "core/core_internal.h"

/* 2020-01-01T00:00:00Z: a fixed, recognisable origin for fake wall time. */
#define S_FAKE_WALL_ORIGIN_MS UINT64_C(1577836800000)

static uint64_t s_fake_now_ms(void *ctx) {
    return ((struct anvil_fake_env *)ctx)->now_ms;
}

static uint64_t s_fake_wall_ms(void *ctx) {
    struct anvil_fake_env *fake = ctx;
    return anvil__u64_add_sat(fake->wall_origin_ms, fake->now_ms);
}

static int s_fake_sleep_ms(void *ctx, uint64_t ms) {
    struct anvil_fake_env *fake = ctx;
    if (fake->cancel_sleeps) {
        return ANVIL_ECANCELED;
    }
    fake->sleep_calls++;
    fake->slept_ms = anvil__u64_add_sat(fake->slept_ms, ms);
    anvil_fake_env_advance(fake, ms);
    if (fake->on_sleep) {
        fake->on_sleep(fake, ms, fake->on_sleep_user_data);
    }
    return ANVIL_OK;
}

/* splitmix64: tiny, fast, passes BigCrush; the stream depends only on the seed. */
static uint64_t s_splitmix64(uint64_t *state) {
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static int s_fake_random_bytes(void *ctx, void *out, size_t len) {
    struct anvil_fake_env *fake = ctx;
    if (fake->fail_random) {
        return ANVIL_EIO;
    }
    unsigned char *p = out;
    while (len > 0) {
        uint64_t word = s_splitmix64(&fake->rng_state);
        size_t n = len < sizeof(word) ? len : sizeof(word);
        for (size_t i = 0; i < n; i++) {
            p[i] = (unsigned char)(word >> (56 - 8 * i));
        }
        p += n;
        len -= n;
    }
    return ANVIL_OK;
}

void anvil_fake_env_init(struct anvil_fake_env *fake, uint64_t start_ms, uint64_t seed) {
    memset(fake, 0, sizeof(*fake));
    fake->env.now_ms = s_fake_now_ms;
    fake->env.wall_ms = s_fake_wall_ms;
    fake->env.sleep_ms = s_fake_sleep_ms;
    fake->env.random_bytes = s_fake_random_bytes;
    fake->env.ctx = fake;
    fake->now_ms = start_ms;
    fake->wall_origin_ms = S_FAKE_WALL_ORIGIN_MS;
    fake->rng_state = seed;
}

void anvil_fake_env_advance(struct anvil_fake_env *fake, uint64_t ms) {
    fake->now_ms = anvil__u64_add_sat(fake->now_ms, ms);
}
