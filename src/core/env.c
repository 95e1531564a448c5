/* The system environment and the helpers every env shares. */

#include "anvil/env.h"

#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

#include "anvil/status.h"
#include "core/core_internal.h"

static uint64_t s_clock_ms(clockid_t clock) {
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) {
        return 0;
    }
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static uint64_t s_system_now_ms(void *ctx) {
    (void)ctx;
    return s_clock_ms(CLOCK_MONOTONIC);
}

static uint64_t s_system_wall_ms(void *ctx) {
    (void)ctx;
    return s_clock_ms(CLOCK_REALTIME);
}

static int s_system_sleep_ms(void *ctx, uint64_t ms) {
    (void)ctx;
    /* Split so tv_sec never overflows time_t; resume after signals. */
    const uint64_t max_chunk_ms = (uint64_t)1 << 40;
    while (ms > 0) {
        uint64_t chunk = ms < max_chunk_ms ? ms : max_chunk_ms;
        struct timespec req = {(time_t)(chunk / 1000u), (long)(chunk % 1000u) * 1000000L};
        struct timespec rem;
        while (nanosleep(&req, &rem) != 0 && errno == EINTR) {
            req = rem;
        }
        ms -= chunk;
    }
    return ANVIL_OK;
}

static int s_urandom(unsigned char *out, size_t len) {
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return ANVIL_EIO;
    }
    while (len > 0) {
        ssize_t n = read(fd, out, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            close(fd);
            return ANVIL_EIO;
        }
        out += n;
        len -= (size_t)n;
    }
    close(fd);
    return ANVIL_OK;
}

static int s_system_random_bytes(void *ctx, void *out, size_t len) {
    (void)ctx;
    unsigned char *p = out;
#if defined(__linux__)
    while (len > 0) {
        ssize_t n = getrandom(p, len, 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return s_urandom(p, len); /* e.g. ENOSYS under an old kernel or seccomp */
        }
        p += n;
        len -= (size_t)n;
    }
    return ANVIL_OK;
#else
    return s_urandom(p, len);
#endif
}

static const struct anvil_env s_system_env = {
    s_system_now_ms, s_system_wall_ms, s_system_sleep_ms, s_system_random_bytes, NULL,
};

const struct anvil_env *anvil_env_system(void) {
    return &s_system_env;
}

static const struct anvil_env *s_env(const struct anvil_env *env) {
    return env ? env : &s_system_env;
}

uint64_t anvil_env_now_ms(const struct anvil_env *env) {
    env = s_env(env);
    return env->now_ms(env->ctx);
}

uint64_t anvil_env_wall_ms(const struct anvil_env *env) {
    env = s_env(env);
    return env->wall_ms(env->ctx);
}

int anvil_env_sleep_ms(const struct anvil_env *env, uint64_t ms) {
    if (ms == 0) {
        return ANVIL_OK;
    }
    env = s_env(env);
    return env->sleep_ms(env->ctx, ms);
}

int anvil__env_sleep_sliced(const struct anvil_env *env, uint64_t ms, const volatile sig_atomic_t *cancel,
                            uint64_t slice_ms) {
    for (;;) {
        if (cancel && *cancel) {
            return ANVIL_ECANCELED;
        }
        if (ms == 0) {
            return ANVIL_OK;
        }
        uint64_t slice = ms > slice_ms ? slice_ms : ms;
        int rc = anvil_env_sleep_ms(env, slice);
        if (rc != ANVIL_OK) {
            return rc;
        }
        ms -= slice;
    }
}

int anvil_env_random_bytes(const struct anvil_env *env, void *out, size_t len) {
    if (len == 0) {
        return ANVIL_OK;
    }
    env = s_env(env);
    return env->random_bytes(env->ctx, out, len);
}

int anvil_env_random_u64(const struct anvil_env *env, uint64_t *out) {
    unsigned char bytes[8];
    int rc = anvil_env_random_bytes(env, bytes, sizeof(bytes));
    if (rc != ANVIL_OK) {
        return rc;
    }
    uint64_t value = 0;
    for (size_t i = 0; i < sizeof(bytes); i++) {
        value = (value << 8) | bytes[i];
    }
    *out = value;
    return ANVIL_OK;
}

int anvil_env_random_range(const struct anvil_env *env, uint64_t lo, uint64_t hi, uint64_t *out) {
    if (lo > hi) {
        return ANVIL_EINVAL;
    }
    uint64_t span = hi - lo; /* inclusive width minus one */
    if (span == UINT64_MAX) {
        return anvil_env_random_u64(env, out);
    }
    /* Reject draws in the short final bucket so every value is equally likely. */
    uint64_t width = span + 1;
    uint64_t limit = UINT64_MAX - (UINT64_MAX % width + 1) % width;
    for (;;) {
        uint64_t draw;
        int rc = anvil_env_random_u64(env, &draw);
        if (rc != ANVIL_OK) {
            return rc;
        }
        if (draw <= limit) {
            *out = lo + draw % width;
            return ANVIL_OK;
        }
    }
}

int anvil_env_random_unit(const struct anvil_env *env, double *out) {
    uint64_t draw;
    int rc = anvil_env_random_u64(env, &draw);
    if (rc != ANVIL_OK) {
        return rc;
    }
    *out = (double)(draw >> 11) * (1.0 / 9007199254740992.0); /* 2^-53 */
    return ANVIL_OK;
}
