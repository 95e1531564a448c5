#ifndef ANVIL_BEHAVIOR_RATE_LIMITER_H
#define ANVIL_BEHAVIOR_RATE_LIMITER_H

/*
 * The adaptive retry mode's client-side rate limiter, one per retry
 * partition (retry_strategy.c); not installed. Its tests and conformance
 * vectors set and read its fields.
 */

#include <stdbool.h>
#include <stdint.h>

/** The CUBIC client rate limiter state (B3 of research/retries.md). Times in seconds. */
struct anvil__rate_limiter {
    double fill_rate;
    double max_capacity;
    double capacity;
    double last_refill;
    bool enabled;
    double measured_rate;
    double last_bucket;
    uint64_t bucket_count;
    double last_max_rate;
    double last_throttle;
};

/** A limiter created at `now_s`: disabled, fill rate 0.5, nothing measured. */
void anvil__rate_limiter_init(struct anvil__rate_limiter *limiter, double now_s);

/** Records an attempt's end at `now_s` (throttled or not) and recomputes the sending rate. */
void anvil__rate_limiter_update(struct anvil__rate_limiter *limiter, double now_s, bool throttled);

/**
 * Takes `amount` tokens at `now_s`: returns 0 when taken (or when the
 * limiter is not enabled yet), else the seconds to wait before asking again.
 * Never drives the capacity negative.
 */
double anvil__rate_limiter_acquire(struct anvil__rate_limiter *limiter, double now_s, double amount);

/** The CUBIC rate at `now_s` with the limiter's last maximum and throttle time (no state change). */
double anvil__rate_limiter_cubic_success(const struct anvil__rate_limiter *limiter, double now_s);

/** The rate after a throttle: rate * beta. */
double anvil__rate_limiter_cubic_throttle(double rate);

#endif
