/*
 * The adaptive mode's client-side rate limiter (research/retries.md B3, the
 * same formula in botocore, go-v2, smithy-kotlin and smithy-rs): a send
 * token bucket whose fill rate CUBIC sets from the measured sending rate,
 * cut by beta on each throttle and growing back along the cubic curve.
 */

#include <math.h>

#include "behavior/rate_limiter.h"

#define S_BETA 0.7
#define S_SCALE 0.4
#define S_SMOOTH 0.8
#define S_BUCKET 0.5
#define S_MIN_FILL_RATE 0.5
#define S_MIN_CAPACITY 1.0

void anvil__rate_limiter_init(struct anvil__rate_limiter *l, double now_s) {
    l->fill_rate = S_MIN_FILL_RATE;
    l->max_capacity = S_MIN_CAPACITY;
    l->capacity = 0;
    l->last_refill = now_s;
    l->enabled = false;
    l->measured_rate = 0;
    l->last_bucket = floor(now_s / S_BUCKET) * S_BUCKET;
    l->bucket_count = 0;
    l->last_max_rate = 0;
    l->last_throttle = now_s;
}

static void s_refill(struct anvil__rate_limiter *l, double now_s) {
    if (now_s > l->last_refill) {
        double filled = l->capacity + (now_s - l->last_refill) * l->fill_rate;
        l->capacity = filled < l->max_capacity ? filled : l->max_capacity;
        l->last_refill = now_s;
    }
}

double anvil__rate_limiter_cubic_success(const struct anvil__rate_limiter *l, double now_s) {
    double k = cbrt(l->last_max_rate * (1 - S_BETA) / S_SCALE);
    double x = now_s - l->last_throttle - k;
    return S_SCALE * x * x * x + l->last_max_rate;
}

double anvil__rate_limiter_cubic_throttle(double rate) {
    return rate * S_BETA;
}

void anvil__rate_limiter_update(struct anvil__rate_limiter *l, double now_s, bool throttled) {
    /* The measured sending rate: attempts per half-second bucket, smoothed. */
    double bucket = floor(now_s / S_BUCKET) * S_BUCKET;
    l->bucket_count++;
    if (bucket > l->last_bucket) {
        double current = (double)l->bucket_count / (bucket - l->last_bucket);
        l->measured_rate = S_SMOOTH * current + (1 - S_SMOOTH) * l->measured_rate;
        l->bucket_count = 0;
        l->last_bucket = bucket;
    }
    double calculated;
    if (throttled) {
        double rate = l->enabled && l->fill_rate < l->measured_rate ? l->fill_rate : l->measured_rate;
        l->last_max_rate = rate;
        l->last_throttle = now_s;
        calculated = anvil__rate_limiter_cubic_throttle(rate);
        l->enabled = true;
    } else {
        calculated = anvil__rate_limiter_cubic_success(l, now_s);
    }
    double ceiling = 2 * l->measured_rate;
    double rate = calculated < ceiling ? calculated : ceiling;
    s_refill(l, now_s);
    l->fill_rate = rate > S_MIN_FILL_RATE ? rate : S_MIN_FILL_RATE;
    l->max_capacity = rate > S_MIN_CAPACITY ? rate : S_MIN_CAPACITY;
    if (l->capacity > l->max_capacity) {
        l->capacity = l->max_capacity;
    }
}

double anvil__rate_limiter_acquire(struct anvil__rate_limiter *l, double now_s, double amount) {
    if (!l->enabled) {
        return 0;
    }
    s_refill(l, now_s);
    if (amount <= l->capacity) {
        l->capacity -= amount;
        return 0;
    }
    /* Take nothing now: the caller waits for the shortfall and asks again. */
    return (amount - l->capacity) / l->fill_rate;
}
