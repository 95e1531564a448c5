/*
 * The standard (and adaptive) retry strategy: partitions with a quota
 * bucket and a rate limiter each, under one mutex; per-operation tokens
 * that price each retry, debit all-or-nothing, refund the last retry's
 * cost on success (+1 on a first-try success), and compute the backoff.
 * research/retries.md B1 and B2; docs/retries.md.
 */

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "behavior/behavior_internal.h"
#include "behavior/rate_limiter.h"
#include "core/core_internal.h"

#define S_MAX_PARTITION_NAME 128

struct anvil_retry_partition {
    char name[S_MAX_PARTITION_NAME];
    uint32_t quota;
    bool limiter_started;
    struct anvil__rate_limiter limiter;
};

/* The layout behind struct anvil_retry_token (retry.h). */
struct ANVIL__MAY_ALIAS anvil__retry_token {
    struct anvil_retry_strategy *strategy;
    struct anvil_retry_partition *partition;
    struct anvil_retry_call call;
    uint32_t attempt;
    uint32_t max_attempts;
    uint32_t held_cost;
    bool holds_cost;
    bool started;
    uint64_t base_delay_ms;
    /* When the first attempt began (before_attempt's now_ms). */
    uint64_t start_ms;
};
ANVIL__OPAQUE_FITS(anvil__retry_token, anvil_retry_token);

static struct anvil__retry_token *s_token(struct anvil_retry_token *token) {
    return (struct anvil__retry_token *)(void *)token;
}

static const struct anvil__retry_token *s_token_const(const struct anvil_retry_token *token) {
    return (const struct anvil__retry_token *)(const void *)token;
}

struct anvil_retry_strategy {
    struct anvil_allocator *allocator;
    atomic_uint refs;
    struct anvil_retry_options options;
    pthread_mutex_t lock;
    struct anvil_retry_partition **partitions;
    size_t count, cap;
};

static void s_defaults(struct anvil_retry_options *o) {
    bool v21 = o->behavior == ANVIL_RETRY_BEHAVIOR_2_1;
    if (!o->capacity) {
        o->capacity = 500;
    } else if (o->capacity == ANVIL_RETRY_CAPACITY_NONE) {
        o->capacity = 0;
    }
    if (!o->retry_cost) {
        o->retry_cost = v21 ? 14 : 5;
    }
    if (!o->throttling_cost) {
        o->throttling_cost = 5;
    }
    if (!o->transient_cost) {
        o->transient_cost = v21 ? 14 : 10;
    }
    if (!o->base_delay_ms) {
        o->base_delay_ms = v21 ? 50 : 1000;
    }
    if (!o->throttling_base_delay_ms) {
        o->throttling_base_delay_ms = 1000;
    }
    if (!o->max_backoff_ms) {
        o->max_backoff_ms = 20000;
    }
}

int anvil_retry_strategy_new(struct anvil_allocator *allocator, const struct anvil_retry_options *options,
                             struct anvil_retry_strategy **out) {
    if (!out) {
        return ANVIL_EINVAL;
    }
    *out = NULL;
    struct anvil_retry_options o = options ? *options : (struct anvil_retry_options){0};
    if ((unsigned)o.mode > ANVIL_RETRY_ADAPTIVE || (unsigned)o.behavior > ANVIL_RETRY_BEHAVIOR_2_0) {
        return ANVIL_EINVAL;
    }
    s_defaults(&o);
    struct anvil_retry_strategy *s = anvil_mem_acquire(allocator, sizeof *s);
    if (!s) {
        return ANVIL_ENOMEM;
    }
    memset(s, 0, sizeof *s);
    s->allocator = allocator;
    s->options = o;
    atomic_init(&s->refs, 1);
    if (pthread_mutex_init(&s->lock, NULL) != 0) {
        anvil_mem_release(allocator, s);
        return ANVIL_ENOMEM;
    }
    *out = s;
    return ANVIL_OK;
}

struct anvil_retry_strategy *anvil_retry_strategy_acquire(struct anvil_retry_strategy *s) {
    if (s) {
        atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
    }
    return s;
}

void anvil_retry_strategy_release(struct anvil_retry_strategy *s) {
    if (!s || atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1) {
        return;
    }
    for (size_t i = 0; i < s->count; i++) {
        anvil_mem_release(s->allocator, s->partitions[i]);
    }
    anvil_mem_release(s->allocator, s->partitions);
    pthread_mutex_destroy(&s->lock);
    anvil_mem_release(s->allocator, s);
}

/* The partition named `name` (case-insensitive), created on first use. Call with the lock held. */
static struct anvil_retry_partition *s_partition(struct anvil_retry_strategy *s, const char *name) {
    name = name ? name : "";
    for (size_t i = 0; i < s->count; i++) {
        if (strncasecmp(s->partitions[i]->name, name, S_MAX_PARTITION_NAME - 1) == 0) {
            return s->partitions[i];
        }
    }
    if (s->count == s->cap &&
        anvil__mem_grow(s->allocator, (void **)&s->partitions, &s->cap, sizeof *s->partitions, s->count + 1)) {
        return NULL;
    }
    struct anvil_retry_partition *p = anvil_mem_acquire(s->allocator, sizeof *p);
    if (!p) {
        return NULL;
    }
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->quota = s->options.capacity;
    s->partitions[s->count++] = p;
    return p;
}

uint32_t anvil_retry_quota(struct anvil_retry_strategy *s, const char *partition) {
    pthread_mutex_lock(&s->lock);
    struct anvil_retry_partition *p = s_partition(s, partition);
    uint32_t quota = p ? p->quota : s->options.capacity;
    pthread_mutex_unlock(&s->lock);
    return quota;
}

static bool s_is_dynamodb(const char *service) {
    return service && (strcasecmp(service, "dynamodb") == 0 || strcasecmp(service, "dynamodb-streams") == 0);
}

int anvil_retry_token_init(struct anvil_retry_token *token, struct anvil_retry_strategy *s,
                           const struct anvil_retry_call *call) {
    if (!token || !s) {
        return ANVIL_EINVAL;
    }
    memset(token, 0, sizeof *token);
    struct anvil__retry_token *t = s_token(token);
    if (call) {
        t->call = *call;
    }
    pthread_mutex_lock(&s->lock);
    t->partition = s_partition(s, t->call.partition);
    pthread_mutex_unlock(&s->lock);
    if (!t->partition) {
        return ANVIL_ENOMEM;
    }
    const struct anvil_retry_options *o = &s->options;
    bool dynamodb = o->behavior == ANVIL_RETRY_BEHAVIOR_2_1 && s_is_dynamodb(t->call.service);
    t->max_attempts = o->max_attempts ? o->max_attempts : dynamodb ? 4 : 3;
    t->base_delay_ms = dynamodb && o->base_delay_ms == 50 ? 25 : o->base_delay_ms;
    t->attempt = 1;
    t->strategy = anvil_retry_strategy_acquire(s);
    return ANVIL_OK;
}

void anvil_retry_token_clean_up(struct anvil_retry_token *token) {
    struct anvil__retry_token *t = s_token(token);
    if (t && t->strategy) {
        anvil_retry_strategy_release(t->strategy);
        t->strategy = NULL;
    }
}

static struct anvil__rate_limiter *s_limiter(struct anvil_retry_partition *p, double now_s) {
    if (!p->limiter_started) {
        anvil__rate_limiter_init(&p->limiter, now_s);
        p->limiter_started = true;
    }
    return &p->limiter;
}

int anvil_retry_before_attempt(struct anvil_retry_token *token, uint64_t now_ms, uint64_t *wait_ms) {
    struct anvil__retry_token *t = s_token(token);
    *wait_ms = 0;
    if (!t->started) {
        t->started = true;
        t->start_ms = now_ms;
    }
    struct anvil_retry_strategy *s = t->strategy;
    if (!s || s->options.mode != ANVIL_RETRY_ADAPTIVE) {
        return ANVIL_OK;
    }
    double now_s = (double)now_ms / 1000.0;
    pthread_mutex_lock(&s->lock);
    double wait_s = anvil__rate_limiter_acquire(s_limiter(t->partition, now_s), now_s, 1.0);
    pthread_mutex_unlock(&s->lock);
    if (wait_s > 0 && s->options.adaptive_fail_fast) {
        return ANVIL_EQUOTA;
    }
    *wait_ms = (uint64_t)ceil(wait_s * 1000.0);
    return ANVIL_OK;
}

uint64_t anvil_retry_token_deadline_ms(const struct anvil_retry_token *token) {
    const struct anvil__retry_token *t = s_token_const(token);
    uint64_t limit = t && t->strategy ? t->strategy->options.max_total_ms : 0;
    if (!limit || !t->started) {
        return 0;
    }
    return t->start_ms + limit < t->start_ms ? UINT64_MAX : t->start_ms + limit;
}

uint32_t anvil_retry_token_attempt(const struct anvil_retry_token *token) {
    return token ? s_token_const(token)->attempt : 0;
}

static uint32_t s_cost(const struct anvil_retry_options *o, enum anvil_retry_error_type type) {
    switch (type) {
    case ANVIL_RETRY_ERROR_THROTTLING:
        return o->throttling_cost;
    case ANVIL_RETRY_ERROR_TRANSIENT:
        return o->transient_cost;
    default:
        return o->retry_cost;
    }
}

/* Full jitter: U[0,1) * min(base * 2^(attempt-1), max), then x-amz-retry-after clamped to [t, t + 5 s] (2.1). */
static uint64_t s_backoff(const struct anvil__retry_token *t, enum anvil_retry_error_type type, int64_t retry_after_ms,
                          double u) {
    const struct anvil_retry_options *o = &t->strategy->options;
    uint64_t base = type == ANVIL_RETRY_ERROR_THROTTLING ? o->throttling_base_delay_ms : t->base_delay_ms;
    if (o->behavior == ANVIL_RETRY_BEHAVIOR_2_0) {
        base = o->base_delay_ms;
    }
    double ceiling = (double)o->max_backoff_ms;
    uint32_t doublings = t->attempt > 1 ? t->attempt - 1 : 0;
    if (doublings < 64) {
        double grown = (double)base * ldexp(1.0, (int)doublings);
        ceiling = grown < ceiling ? grown : ceiling;
    }
    double delay = u * ceiling;
    if (o->behavior == ANVIL_RETRY_BEHAVIOR_2_1 && retry_after_ms >= 0) {
        double r = (double)retry_after_ms;
        delay = r < delay ? delay : r > delay + 5000 ? delay + 5000 : r;
    }
    return (uint64_t)llround(delay);
}

static const char *s_io_name(enum anvil_retry_io_error e) {
    switch (e) {
    case ANVIL_RETRY_IO_CONNECT_REFUSED:
        return "connection refused";
    case ANVIL_RETRY_IO_CONNECT_TIMEOUT:
        return "connect timeout";
    case ANVIL_RETRY_IO_DNS_TEMPORARY:
        return "host name not resolved";
    case ANVIL_RETRY_IO_DNS_NOT_FOUND:
        return "no such host";
    case ANVIL_RETRY_IO_TLS:
        return "TLS failure";
    case ANVIL_RETRY_IO_RESET:
        return "connection dropped";
    case ANVIL_RETRY_IO_READ_TIMEOUT:
        return "no answer in time";
    case ANVIL_RETRY_IO_CANCELLED:
        return "cancelled";
    case ANVIL_RETRY_IO_TOO_LARGE:
        return "answer too large";
    default:
        return "no answer";
    }
}

ANVIL_PRINTF(2, 3)
static void s_explain(struct anvil_retry_decision *d, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(d->explanation, sizeof d->explanation, fmt, args);
    va_end(args);
}

/* The class a policy's RETRY gives: retryable, of its type, and safe because the policy said so. */
static void s_policy_class(const struct anvil_retry_verdict *v, struct anvil_retry_class *c) {
    c->retryable = true;
    c->type = (unsigned)v->type <= ANVIL_RETRY_ERROR_TRANSIENT ? v->type : ANVIL_RETRY_ERROR_SERVER;
    c->safe_for_any_operation = true;
}

/*
 * A success, or a policy's "terminate and succeed": refund the last retry's
 * cost, or reward a first try with 1. Called with the strategy's lock held;
 * releases it.
 */
static void s_succeed(struct anvil__retry_token *t, struct anvil_retry_partition *p,
                      const struct anvil_retry_verdict *v, struct anvil_retry_decision *d) {
    const struct anvil_retry_options *o = &t->strategy->options;
    uint32_t refund = t->holds_cost ? t->held_cost : t->attempt == 1 ? 1 : 0;
    p->quota = p->quota + refund > o->capacity ? o->capacity : p->quota + refund;
    t->holds_cost = false;
    uint32_t quota = p->quota;
    pthread_mutex_unlock(&t->strategy->lock);
    d->action = ANVIL_RETRY_SUCCEED;
    if (v->directive == ANVIL_RETRY_DIRECTIVE_SUCCEED) {
        d->reason = ANVIL_RETRY_REASON_POLICY;
        s_explain(d, "a policy ended attempt %u as a success%s%s (quota %u)", t->attempt, v->why ? ": " : "",
                  v->why ? v->why : "", quota);
    } else {
        s_explain(d, "succeeded on attempt %u (quota %u)", t->attempt, quota);
    }
}

int anvil_retry_after_attempt(struct anvil_retry_token *token, uint64_t now_ms, const struct anvil_retry_response *r,
                              struct anvil_retry_decision *d) {
    struct anvil__retry_token *t = s_token(token);
    memset(d, 0, sizeof *d);
    d->action = ANVIL_RETRY_FAIL;
    struct anvil_retry_strategy *s = t->strategy;
    if (!s || !r) {
        return ANVIL_EINVAL;
    }
    if (!t->started) {
        t->started = true;
        t->start_ms = now_ms;
    }
    const struct anvil_retry_options *o = &s->options;
    /* The policy first (outside the lock: it is the caller's code), then the default classification. */
    struct anvil_retry_verdict v = {ANVIL_RETRY_DIRECTIVE_DEFAULT, ANVIL_RETRY_ERROR_SERVER, NULL};
    if (t->call.policy) {
        t->call.policy(t->call.policy_ctx, r, &v);
    }
    struct anvil_retry_class seen = {false, ANVIL_RETRY_ERROR_CLIENT, false};
    if (!r->success) {
        anvil_retry_classify(r, &seen);
    }
    struct anvil_retry_class c = seen;
    if (v.directive == ANVIL_RETRY_DIRECTIVE_RETRY) {
        s_policy_class(&v, &c);
    }
    d->type = c.type;
    bool success =
        v.directive == ANVIL_RETRY_DIRECTIVE_SUCCEED || (v.directive == ANVIL_RETRY_DIRECTIVE_DEFAULT && r->success);
    double now_s = (double)now_ms / 1000.0;
    /*
     * The jitter is drawn before the lock (the caller's random source runs
     * outside it), and only when the retry gets as far as a backoff: what
     * decides that is the token's own, so the draws are the same as if
     * they were made under the lock.
     */
    bool backs_off = !success && v.directive != ANVIL_RETRY_DIRECTIVE_FAIL && c.retryable &&
                     (t->call.idempotent || c.safe_for_any_operation) && t->attempt < t->max_attempts;
    double u = 0;
    int random_rc = backs_off ? anvil_env_random_unit(o->env, &u) : ANVIL_OK;
    pthread_mutex_lock(&s->lock);
    struct anvil_retry_partition *p = t->partition;
    if (o->mode == ANVIL_RETRY_ADAPTIVE) {
        /* The limiter learns of every throttle the service sent, whatever a policy did with it. */
        bool throttled = (seen.retryable && seen.type == ANVIL_RETRY_ERROR_THROTTLING) ||
                         (v.directive == ANVIL_RETRY_DIRECTIVE_RETRY && c.type == ANVIL_RETRY_ERROR_THROTTLING);
        anvil__rate_limiter_update(s_limiter(p, now_s), now_s, throttled);
    }
    if (success) {
        s_succeed(t, p, &v, d);
        return ANVIL_OK;
    }
    /* What failed, in words: "server error", or "transport error: connection refused" when no answer came. */
    char kind[96];
    if (r->io_error != ANVIL_RETRY_IO_NONE) {
        snprintf(kind, sizeof kind, "transport error: %s", s_io_name(r->io_error));
    } else {
        snprintf(kind, sizeof kind, "%s error", anvil_retry_error_type_name(c.type));
    }
    if (v.directive == ANVIL_RETRY_DIRECTIVE_FAIL) {
        pthread_mutex_unlock(&s->lock);
        d->reason = ANVIL_RETRY_REASON_POLICY;
        s_explain(d, "not retried: %s", v.why ? v.why : "a policy ended the call");
        return ANVIL_OK;
    }
    if (!c.retryable) {
        pthread_mutex_unlock(&s->lock);
        d->reason = ANVIL_RETRY_REASON_NOT_RETRYABLE;
        s_explain(d,
                  r->io_error == ANVIL_RETRY_IO_CANCELLED ? "not retried: the call was cancelled"
                                                          : "not retried: a %s is not retryable",
                  kind);
        return ANVIL_OK;
    }
    if (!t->call.idempotent && !c.safe_for_any_operation) {
        pthread_mutex_unlock(&s->lock);
        d->reason = ANVIL_RETRY_REASON_NOT_IDEMPOTENT;
        s_explain(d,
                  "not retried (%s): the operation is not idempotent and the request may have had an effect "
                  "(only throttling, modelled retryable errors, 429, 503 and unsent requests are retried)",
                  kind);
        return ANVIL_OK;
    }
    if (t->attempt >= t->max_attempts) {
        pthread_mutex_unlock(&s->lock);
        d->reason = ANVIL_RETRY_REASON_MAX_ATTEMPTS;
        s_explain(d, "max attempts exceeded: %u of %u", t->attempt, t->max_attempts);
        return ANVIL_OK;
    }
    uint32_t cost = s_cost(o, c.type);
    if (random_rc != ANVIL_OK) {
        pthread_mutex_unlock(&s->lock);
        d->reason = ANVIL_RETRY_REASON_NOT_RETRYABLE;
        s_explain(d, "not retried: the random source failed");
        return random_rc;
    }
    uint64_t delay = s_backoff(t, c.type, o->behavior == ANVIL_RETRY_BEHAVIOR_2_1 ? r->retry_after_ms : -1, u);
    /* No quota is spent on a retry that could not start in time: the loop's limit, then the call's deadline. */
    uint64_t limit = anvil_retry_token_deadline_ms(token);
    uint64_t start = now_ms + delay < now_ms ? UINT64_MAX : now_ms + delay;
    if (limit && start >= limit && (!t->call.deadline_ms || limit <= t->call.deadline_ms)) {
        pthread_mutex_unlock(&s->lock);
        d->reason = ANVIL_RETRY_REASON_MAX_TIME;
        s_explain(
            d, "max total time exceeded: a retry after %llu ms would start %llu ms into a loop limited to %llu ms",
            (unsigned long long)delay, (unsigned long long)((now_ms > t->start_ms ? now_ms - t->start_ms : 0) + delay),
            (unsigned long long)o->max_total_ms);
        return ANVIL_OK;
    }
    if (t->call.deadline_ms && start >= t->call.deadline_ms) {
        pthread_mutex_unlock(&s->lock);
        d->reason = ANVIL_RETRY_REASON_DEADLINE;
        s_explain(d, "not retried: a retry after %llu ms would start after the call's deadline, %llu ms away",
                  (unsigned long long)delay,
                  (unsigned long long)(t->call.deadline_ms > now_ms ? t->call.deadline_ms - now_ms : 0));
        return ANVIL_OK;
    }
    if (cost > p->quota) {
        /* All or nothing: no partial debit. A long-polling operation still backs off (2.1). */
        uint32_t quota = p->quota;
        pthread_mutex_unlock(&s->lock);
        d->reason = ANVIL_RETRY_REASON_QUOTA_EXCEEDED;
        bool long_poll = t->call.long_polling && o->behavior == ANVIL_RETRY_BEHAVIOR_2_1;
        d->delay_ms = long_poll ? delay : 0;
        s_explain(d, "retry quota exceeded: a %s costs %u, %u left%s", kind, cost, quota,
                  long_poll ? " (long polling: backing off first)" : "");
        return ANVIL_OK;
    }
    p->quota -= cost;
    uint32_t quota = p->quota;
    pthread_mutex_unlock(&s->lock);
    /* The previous retry's cost is forgotten, not refunded: only the last is returned on success. */
    t->held_cost = cost;
    t->holds_cost = true;
    t->attempt++;
    d->action = ANVIL_RETRY_AGAIN;
    d->reason = ANVIL_RETRY_REASON_RETRYING;
    d->delay_ms = delay;
    s_explain(d, "retrying a %s%s%s (cost %u, quota %u) after %llu ms, attempt %u of %u", kind, v.why ? ": " : "",
              v.why ? v.why : "", cost, quota, (unsigned long long)delay, t->attempt, t->max_attempts);
    return ANVIL_OK;
}
