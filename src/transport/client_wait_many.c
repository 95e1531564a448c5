/*
 * Many waits on one thread: each wait's state (behavior/) queued in a wait
 * group by the time it next wants a poll; a due poll takes one of
 * max_in_flight slots, where a call's state machine (call_run.c) runs it,
 * its sends performed by curl's multi interface and its sleeps (rate
 * limiter, backoff) kept as the slot's wake time. The thread sleeps in
 * curl_multi_poll() while requests are on the wire, else through the
 * client's env (so a fake clock runs a fleet's hour in no time). Every call
 * goes through the client's one retry strategy: one quota, one limiter.
 */

#include <stdio.h>
#include <string.h>

#include "transport/call_internal.h"

#define S_DEFAULT_IN_FLIGHT 64
#define S_MAX_IN_FLIGHT 4096
/*
 * The first block of the arena a wait keeps its last answer in. Measured with
 * 10,000 CloudFormation stacks (an answer of about 450 bytes): 256 -> 40 MB
 * peak, 512 -> 37 MB, 1024 -> 52 MB (malloc's size classes), 2048 -> 41 MB.
 */
#define S_KEEP_BLOCK 512
/* The longest sleep between looks at the cancel flag. */
#define S_SLICE_MS 100

/* One wait: its state first, so the group's state pointer leads back to it. */
struct s_wait {
    struct anvil_wait_state state;
    /* The arena holding the state's last result (NULL when it holds none). */
    struct anvil_arena *held;
    size_t index;
    /* A slot is polling for it. */
    bool polling;
    /* Reported to the caller. */
    bool ended;
    /* A poll throttled to the end of the client's retries: its error, its strings in `throttled` (NULL: none). */
    struct anvil_arena *throttled;
    struct anvil_operation_error throttled_error;
};

/* A throttled poll due again (or due to expire) at `at_ms`. */
struct s_repoll {
    uint64_t at_ms;
    struct s_wait *wait;
};

/* A min-heap of them by time, room for one per wait. */
struct s_heap {
    struct s_repoll *at;
    size_t len;
};

/* A request slot: one call of one wait at a time. */
struct s_slot {
    struct anvil__call call;
    struct anvil_operation_reply reply;
    struct anvil_arena *arena;
    CURL *easy;
    struct anvil__transfer transfer;
    /* The wait whose poll this is; NULL when the slot is free. */
    struct s_wait *wait;
    bool on_wire;
    /* The call sleeps until then (0 = it can step now). */
    uint64_t wake_ms;
};

struct s_many {
    struct anvil_client *client;
    const struct anvil_waiter *waiter;
    const struct anvil_shape *operation;
    const struct anvil_json *const *inputs;
    const struct anvil_wait_many_options *options;
    const struct anvil_env *env;
    CURLM *multi;
    struct anvil_wait_group group;
    struct s_wait *waits;
    size_t count;
    struct s_slot *slots;
    size_t slot_count;
    /* The free slots, a stack of their indexes. */
    size_t *free_slots;
    size_t free_len;
    /* Arenas no wait holds, for the next polls. */
    struct anvil_arena **spare;
    size_t spare_len;
    struct anvil_wait_many_progress progress;
    uint64_t progress_at_ms;
    /* max_rps: when the next request may go, in µs of the client's clock. */
    uint64_t next_send_us;
    /*
     * Throttled polls waiting to be made again, and those whose wait ends
     * (timed out) at its deadline instead: two heaps, so one needing no slot
     * never waits behind one that does. A wait is in at most one, once.
     */
    struct s_heap repolls;
    struct s_heap expiries;
    /* Past this time no wait can still make its last attempt: those still queued end timed out. */
    uint64_t last_chance_ms;
    bool swept;
};

static uint64_t s_now(const struct s_many *m) {
    return anvil_env_now_ms(m->env);
}

static bool s_cancelled(const struct s_many *m) {
    const volatile sig_atomic_t *flag = m->options->wait.cancel;
    return flag && *flag;
}

static int s_take_arena(struct s_many *m, struct anvil_arena **out) {
    if (m->spare_len) {
        *out = m->spare[--m->spare_len];
        anvil_arena_reset(*out);
        return ANVIL_OK;
    }
    return anvil_arena_new(m->client->allocator, NULL, out);
}

/* Back to the pool (which has room for every arena there can be: one per slot and one more). */
static void s_give_arena(struct s_many *m, struct anvil_arena *arena) {
    if (arena) {
        m->spare[m->spare_len++] = arena;
    }
}

static void s_report_progress(struct s_many *m, uint64_t now, bool force) {
    if (!m->options->on_progress || (!force && now < m->progress_at_ms)) {
        return;
    }
    uint64_t every = m->options->progress_every_ms ? m->options->progress_every_ms : 1000;
    m->progress_at_ms = now + every;
    m->options->on_progress(m->options->ctx, &m->progress);
}

/*
 * What a wait keeps of an answer until its next (the outcome shows the last
 * one): the output, or the error's code and message, copied out of the
 * call's arena into a small one of their own, so a fleet holds each wait's
 * last answer and not each call's response, buffers and projections.
 */
static int s_keep_reply(struct s_many *m, int status, struct anvil_operation_reply *reply, struct anvil_arena **keep) {
    struct anvil_arena_options small = {.first_block_size = S_KEEP_BLOCK};
    int rc = anvil_arena_new(m->client->allocator, &small, keep);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (status == ANVIL_OK) {
        struct anvil_json copy;
        rc = anvil_json_copy(*keep, &reply->output, &copy);
        reply->output = copy;
        return rc;
    }
    struct anvil_str_view *texts[] = {&reply->error.code, &reply->error.message};
    for (size_t i = 0; i < 2 && rc == ANVIL_OK; i++) {
        char *copy = anvil_arena_strndup(*keep, texts[i]->ptr ? texts[i]->ptr : "", texts[i]->len);
        rc = copy ? ANVIL_OK : ANVIL_ENOMEM;
        *texts[i] = copy ? anvil_sv(copy, texts[i]->len) : anvil_sv("", 0);
    }
    return rc;
}

/* A wait that ended: its outcome to the caller; its memory back to the pool. */
static int s_finish(struct s_many *m, struct s_wait *w) {
    struct anvil_wait_result result;
    memset(&result, 0, sizeof result);
    anvil_wait_outcome(&w->state, &result.outcome);
    struct anvil_arena *scratch = NULL;
    int rc = s_take_arena(m, &scratch);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (anvil_wait_message(&w->state, scratch, &result.message) != ANVIL_OK) {
        result.message = anvil_sv("", 0);
    }
    result.arena = w->held;
    m->progress.waiting--;
    switch (result.outcome.reason) {
    case ANVIL_WAIT_REASON_SUCCESS:
        m->progress.succeeded++;
        break;
    case ANVIL_WAIT_REASON_TIMED_OUT:
        m->progress.timed_out++;
        break;
    default:
        m->progress.failed++;
        break;
    }
    w->ended = true;
    struct anvil_wait_many_done done = {w->index, &result};
    m->options->on_done(m->options->ctx, &done);
    s_give_arena(m, scratch);
    anvil_arena_destroy(w->held);
    anvil_arena_destroy(w->throttled);
    w->held = w->throttled = NULL;
    return ANVIL_OK;
}

/* The slot's poll is over: the slot back on the free stack; its wait, no longer polling, returned. */
static struct s_wait *s_release_slot(struct s_many *m, struct s_slot *s) {
    struct s_wait *w = s->wait;
    s->wait = NULL;
    w->polling = false;
    m->free_slots[m->free_len++] = (size_t)(s - m->slots);
    return w;
}

/* After a report: the wait is queued for its next poll, or it ended. */
static int s_settle(struct s_many *m, struct s_wait *w, uint64_t now) {
    uint64_t at = now;
    if (anvil_wait_next(&w->state, now, &at) == ANVIL_WAIT_DONE) {
        return s_finish(m, w);
    }
    return anvil_wait_group_schedule(&m->group, &w->state, now);
}

/* The poll's answer (`status`, the slot's reply) to its wait; the slot freed. */
static int s_report(struct s_many *m, struct s_slot *s, int status, uint64_t now) {
    struct s_wait *w = s_release_slot(m, s);
    struct anvil_operation_reply *reply = &s->reply;
    if (status == ANVIL_ETIMEDOUT && w->throttled && !reply->failed_status && !reply->error.code.len) {
        /* Cut off at the deadline before this call saw anything: the poll's answer was the throttling. */
        reply->error = w->throttled_error;
        reply->failed_status = ANVIL_ESERVICE;
    }
    struct anvil_arena *keep = NULL;
    bool kept = false;
    int rc = s_keep_reply(m, status, &s->reply, &keep);
    anvil_arena_destroy(w->throttled); /* the reply's strings are copied: a throttled poll's error is spent */
    w->throttled = NULL;
    rc = rc == ANVIL_OK ? anvil_wait_report_reply(&w->state, now, status, &s->reply, keep, s->arena, &kept) : rc;
    /* The call's arena (the response, the acceptors' projections) is done with; the answer kept is in `keep`. */
    s_give_arena(m, s->arena);
    s->arena = NULL;
    if (rc == ANVIL_OK && kept) {
        /* The state now points into `keep`: it replaces what held the previous answer. */
        struct anvil_arena *old = w->held;
        w->held = keep;
        keep = old;
    }
    anvil_arena_destroy(keep);
    return rc == ANVIL_OK ? s_settle(m, w, now) : rc;
}

static void s_heap_push(struct s_heap *h, struct s_wait *w, uint64_t at) {
    size_t i = h->len++;
    while (i > 0 && h->at[(i - 1) / 2].at_ms > at) {
        h->at[i] = h->at[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->at[i] = (struct s_repoll){at, w};
}

static struct s_repoll s_heap_pop(struct s_heap *h) {
    struct s_repoll top = h->at[0];
    struct s_repoll last = h->at[--h->len];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->len) {
            break;
        }
        if (c + 1 < h->len && h->at[c + 1].at_ms < h->at[c].at_ms) {
            c++;
        }
        if (h->at[c].at_ms >= last.at_ms) {
            break;
        }
        h->at[i] = h->at[c];
        i = c;
    }
    if (h->len) {
        h->at[i] = last;
    }
    return top;
}

static uint64_t s_heap_next(const struct s_heap *h) {
    return h->len ? h->at[0].at_ms : UINT64_MAX;
}

/*
 * The poll was throttled to the end of the client's retries: not the
 * resource's answer. Its slot is freed; the same poll is made again after the
 * waiter's minimum delay, or, that being past the wait's deadline, the wait
 * ends timed out at the deadline with this error (as a single wait's call
 * does). The error is kept with the wait meanwhile.
 */
static int s_throttled(struct s_many *m, struct s_slot *s, uint64_t now) {
    struct s_wait *w = s->wait;
    anvil_arena_destroy(w->throttled);
    w->throttled = NULL;
    struct anvil_operation_reply copy = s->reply;
    int rc = s_keep_reply(m, ANVIL_ESERVICE, &copy, &w->throttled);
    w->throttled_error = copy.error;
    s_give_arena(m, s->arena);
    s->arena = NULL;
    s_release_slot(m, s);
    if (rc != ANVIL_OK) {
        return rc;
    }
    uint64_t deadline = anvil_wait_deadline_ms(&w->state);
    uint64_t again_at = now + anvil_wait_min_delay_ms(&w->state);
    if (again_at >= deadline) {
        s_heap_push(&m->expiries, w, deadline > now ? deadline : now);
    } else {
        s_heap_push(&m->repolls, w, again_at);
    }
    return ANVIL_OK;
}

/* The slot's call ended: its answer goes to the wait, unless it was throttled to the end. */
static int s_call_ended(struct s_many *m, struct s_slot *s, uint64_t now) {
    int status = anvil__call_end(&s->call);
    m->progress.throttled += s->call.throttled;
    if (status == ANVIL_ESERVICE && s->call.last_throttled && !s_cancelled(m)) {
        return s_throttled(m, s, now);
    }
    return s_report(m, s, status, now);
}

/* With max_rps, whether a request may go at `now` (taking its turn), else when it may in `*wake`. */
static bool s_paced(struct s_many *m, uint64_t now, uint64_t *wake) {
    if (m->options->max_rps <= 0) {
        return true;
    }
    uint64_t now_us = now * 1000;
    if (m->next_send_us > now_us) {
        *wake = (m->next_send_us + 999) / 1000;
        return false;
    }
    uint64_t gap_us = (uint64_t)(1e6 / m->options->max_rps);
    m->next_send_us = (m->next_send_us + gap_us > now_us ? m->next_send_us : now_us) + gap_us;
    return true;
}

static void s_start_call(struct s_many *m, struct s_slot *s, uint64_t now);

/* Runs the slot's call until it is on the wire, asleep, or over. */
static int s_step(struct s_many *m, struct s_slot *s, uint64_t now) {
    for (;;) {
        uint64_t wake = 0;
        switch (anvil__call_next(&s->call, now, &wake)) {
        case ANVIL__CALL_DONE:
            return s_call_ended(m, s, now);
        case ANVIL__CALL_SLEEP:
            if (wake > now) {
                s->wake_ms = wake;
                return ANVIL_OK;
            }
            break;
        case ANVIL__CALL_SEND: {
            struct anvil__call *k = &s->call;
            uint64_t turn = 0;
            bool late = k->x.deadline_ms && now >= k->x.deadline_ms; /* cut off at once: no turn taken */
            if (!late && !s_paced(m, now, &turn)) {
                s->wake_ms = turn;
                return ANVIL_OK;
            }
            int rc = anvil__send_begin(m->client, s->easy, &k->ep, &k->req, &k->x, &s->transfer);
            if (rc != ANVIL_OK) {
                anvil__call_stop(k, rc);
                break;
            }
            /* Set after begin, which resets the handle: s_collect finds the slot by it. */
            curl_easy_setopt(s->easy, CURLOPT_PRIVATE, (void *)s);
            if (s->transfer.past_deadline) {
                struct anvil__attempt a;
                anvil__send_end(m->client, s->easy, &k->x, &s->transfer, CURLE_OK, &a);
                anvil__call_sent(k, &a, now);
                break;
            }
            if (curl_multi_add_handle(m->multi, s->easy) != CURLM_OK) {
                anvil__transfer_clean_up(&s->transfer);
                anvil__call_stop(k, ANVIL_ENOMEM);
                break;
            }
            s->on_wire = true;
            m->progress.in_flight++;
            m->progress.requests++;
            return ANVIL_OK;
        }
        }
    }
}

/* The slot's wait's poll as a new call. */
static void s_start_call(struct s_many *m, struct s_slot *s, uint64_t now) {
    struct s_wait *w = s->wait;
    uint64_t deadline = anvil_wait_attempt_deadline_ms(&w->state, now);
    anvil__call_start(&s->call, m->client, m->operation, m->inputs[w->index], deadline, m->waiter, s->arena, &s->reply);
}

/* Starts the poll of a due wait in the free slot on top of the stack (there is one). */
static int s_start_poll(struct s_many *m, struct s_wait *w, uint64_t now) {
    struct s_slot *s = &m->slots[m->free_slots[m->free_len - 1]];
    int rc = s_take_arena(m, &s->arena);
    if (rc != ANVIL_OK) {
        return rc;
    }
    m->free_len--;
    s->wait = w;
    w->polling = true;
    s->wake_ms = 0;
    s_start_call(m, s, now);
    return s_step(m, s, now);
}

/* Takes every due wait it has a slot for; `*wake` gets the next queued wait's time when all due ones were taken. */
static int s_start_due(struct s_many *m, uint64_t now, uint64_t *wake) {
    /* Throttled polls whose wait's deadline has come: they end timed out with their error, needing no slot. */
    while (s_heap_next(&m->expiries) <= now) {
        struct s_wait *w = s_heap_pop(&m->expiries).wait;
        if (!w->ended) { /* else ended meanwhile (the cancel flag, the deadline's sweep) */
            anvil_wait_expire(&w->state, now, &w->throttled_error);
            int rc = s_finish(m, w);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
    }
    uint64_t soonest = s_heap_next(&m->expiries);
    /* Then throttled polls due again (they were due before the queued ones), then the group's. */
    for (;;) {
        uint64_t repoll_at = s_heap_next(&m->repolls);
        if (!m->free_len) {
            /* A re-poll due now waits for a slot, not for time: waking for it would spin. */
            uint64_t later = repoll_at > now ? repoll_at : UINT64_MAX;
            *wake = soonest < later ? soonest : later;
            return ANVIL_OK;
        }
        struct s_wait *w = NULL;
        if (repoll_at <= now) {
            w = s_heap_pop(&m->repolls).wait;
            if (w->ended) {
                continue;
            }
        } else {
            enum anvil_wait_action action;
            uint64_t next = UINT64_MAX;
            struct anvil_wait_state *state = anvil_wait_group_pop(&m->group, now, &action, &next);
            if (!state) {
                *wake = next < repoll_at ? next : repoll_at;
                *wake = soonest < *wake ? soonest : *wake;
                return ANVIL_OK;
            }
            w = (struct s_wait *)(void *)state;
            if (action == ANVIL_WAIT_DONE) {
                int rc = s_finish(m, w);
                if (rc != ANVIL_OK) {
                    return rc;
                }
                continue;
            }
        }
        int rc = s_start_poll(m, w, now);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
}

/* Reads curl's finished transfers into their calls. */
static int s_collect(struct s_many *m) {
    int left = 0;
    CURLMsg *msg;
    while ((msg = curl_multi_info_read(m->multi, &left)) != NULL) {
        if (msg->msg != CURLMSG_DONE) {
            continue;
        }
        void *slot = NULL;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &slot);
        struct s_slot *s = slot;
        if (!s) {
            continue;
        }
        CURLcode code = msg->data.result;
        curl_multi_remove_handle(m->multi, s->easy);
        s->on_wire = false;
        m->progress.in_flight--;
        struct anvil__attempt a;
        anvil__send_end(m->client, s->easy, &s->call.x, &s->transfer, code, &a);
        uint64_t now = s_now(m);
        anvil__call_sent(&s->call, &a, now);
        int rc = s_step(m, s, now);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    return ANVIL_OK;
}

/*
 * Ends every wait not being polled (queued in the group or waiting in a heap
 * of throttled polls; entries left in a heap are skipped once ended), and
 * reports it: as cancelled, or as timed out keeping its last answer (a
 * throttled poll's error, when it waits to be made again).
 */
static int s_end_queued(struct s_many *m, uint64_t now, bool cancel) {
    for (size_t i = 0; i < m->count; i++) {
        struct s_wait *w = &m->waits[i];
        if (w->ended || w->polling) {
            continue;
        }
        anvil_wait_group_remove(&m->group, &w->state);
        if (cancel) {
            anvil_wait_cancel(&w->state, now);
        } else {
            anvil_wait_expire(&w->state, now, w->throttled ? &w->throttled_error : NULL);
        }
        int rc = s_finish(m, w);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    return ANVIL_OK;
}

/* Ctrl-C: every request off the wire, every wait ended as cancelled, each reported. */
static int s_cancel_all(struct s_many *m, uint64_t now) {
    for (size_t i = 0; i < m->slot_count; i++) {
        struct s_slot *s = &m->slots[i];
        if (!s->wait) {
            continue;
        }
        if (s->on_wire) {
            curl_multi_remove_handle(m->multi, s->easy);
            anvil__transfer_clean_up(&s->transfer);
            s->on_wire = false;
            m->progress.in_flight--;
        }
        anvil__call_stop(&s->call, ANVIL_ECANCELED);
        int rc = s_call_ended(m, s, now);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    return s_end_queued(m, now, true);
}

/* Sleeps until `until` or until curl has something, whichever is first. */
static int s_idle(struct s_many *m, uint64_t now, uint64_t until) {
    uint64_t ms = until > now ? until - now : 0;
    ms = ms > S_SLICE_MS ? S_SLICE_MS : ms;
    if (m->progress.in_flight) {
        if (curl_multi_poll(m->multi, NULL, 0, (int)ms, NULL) != CURLM_OK) {
            return ANVIL_ETRANSPORT;
        }
        int running = 0;
        return curl_multi_perform(m->multi, &running) == CURLM_OK ? ANVIL_OK : ANVIL_ETRANSPORT;
    }
    int rc = anvil_env_sleep_ms(m->env, ms);
    return rc == ANVIL_ECANCELED ? ANVIL_OK : rc; /* the cancel flag says the rest */
}

static int s_loop(struct s_many *m) {
    while (m->progress.waiting) {
        uint64_t now = s_now(m);
        if (s_cancelled(m)) {
            return s_cancel_all(m, now);
        }
        if (!m->swept && now >= m->last_chance_ms) {
            /* Past the last attempt's grace (deadline + minimum delay) a wait still queued can make no attempt. */
            m->swept = true;
            int rc = s_end_queued(m, now, false);
            if (rc != ANVIL_OK || !m->progress.waiting) {
                return rc;
            }
        }
        uint64_t until = UINT64_MAX;
        int rc = s_start_due(m, now, &until);
        for (size_t i = 0; i < m->slot_count && rc == ANVIL_OK; i++) {
            struct s_slot *s = &m->slots[i];
            if (s->wait && !s->on_wire) {
                if (s->wake_ms <= now) {
                    s->wake_ms = 0;
                    rc = s_step(m, s, now);
                }
                if (s->wait && !s->on_wire && s->wake_ms && s->wake_ms < until) {
                    until = s->wake_ms;
                }
            }
        }
        rc = rc == ANVIL_OK ? s_collect(m) : rc;
        if (rc != ANVIL_OK) {
            return rc;
        }
        if (!m->swept && m->last_chance_ms < until) {
            until = m->last_chance_ms;
        }
        s_report_progress(m, now, false);
        if (m->progress.waiting) {
            if ((rc = s_idle(m, now, until)) != ANVIL_OK || (rc = s_collect(m)) != ANVIL_OK) {
                return rc;
            }
        }
    }
    return ANVIL_OK;
}

static void s_clean_up(struct s_many *m) {
    for (size_t i = 0; m->slots && i < m->slot_count; i++) {
        struct s_slot *s = &m->slots[i];
        if (s->on_wire) {
            curl_multi_remove_handle(m->multi, s->easy);
            anvil__transfer_clean_up(&s->transfer);
        }
        if (s->wait) {
            anvil__call_end(&s->call);
        }
        anvil_arena_destroy(s->arena);
        if (s->easy) {
            curl_easy_cleanup(s->easy);
        }
    }
    for (size_t i = 0; m->waits && i < m->count; i++) {
        anvil_arena_destroy(m->waits[i].held);
        anvil_arena_destroy(m->waits[i].throttled);
    }
    for (size_t i = 0; i < m->spare_len; i++) {
        anvil_arena_destroy(m->spare[i]);
    }
    if (m->multi) {
        curl_multi_cleanup(m->multi);
    }
    anvil_wait_group_clean_up(&m->group);
    struct anvil_allocator *a = m->client->allocator;
    anvil_mem_release(a, m->spare);
    anvil_mem_release(a, m->repolls.at);
    anvil_mem_release(a, m->expiries.at);
    anvil_mem_release(a, m->slots);
    anvil_mem_release(a, m->free_slots);
    anvil_mem_release(a, m->waits);
}

int anvil_client_wait_many(struct anvil_client *client, const char *waiter_name, const struct anvil_json *const *inputs,
                           size_t count, const struct anvil_wait_many_options *options, struct anvil_diag *diag) {
    if (!client || !options || (!waiter_name && !options->waiter) || (!inputs && count) || !options->on_done) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              "anvil_client_wait_many needs a client, a waiter's name, the inputs and options with "
                              "on_done");
    }
    if (!(options->max_rps >= 0) || options->max_rps > 1e6) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "max_rps must be from 0 (none) to 1,000,000");
    }
    if (options->max_in_flight > S_MAX_IN_FLIGHT) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "max_in_flight %zu is above %d", options->max_in_flight,
                              S_MAX_IN_FLIGHT);
    }
    struct s_many m;
    memset(&m, 0, sizeof m);
    m.client = client;
    m.inputs = inputs;
    m.count = count;
    m.options = options;
    m.env = client->options.env ? client->options.env : anvil_env_system();
    anvil_wait_group_init(&m.group, client->allocator);
    int rc = anvil__client_waiter(client, waiter_name, options->waiter, &m.waiter, &m.operation, diag);
    m.slot_count = options->max_in_flight ? options->max_in_flight : S_DEFAULT_IN_FLIGHT;
    m.slot_count = m.slot_count < count ? m.slot_count : count;
    struct anvil_allocator *a = client->allocator;
    if (rc == ANVIL_OK && count) {
        /* Many transfers at once go through libcurl's multi interface. */
        rc = anvil__curl_load(diag);
    }
    if (rc == ANVIL_OK && count) {
        m.waits = anvil_mem_calloc(a, count, sizeof *m.waits);
        m.slots = anvil_mem_calloc(a, m.slot_count, sizeof *m.slots);
        m.free_slots = anvil_mem_calloc(a, m.slot_count, sizeof *m.free_slots);
        m.repolls.at = anvil_mem_calloc(a, count, sizeof *m.repolls.at);
        m.expiries.at = anvil_mem_calloc(a, count, sizeof *m.expiries.at);
        /* Every pooled arena there can be: one per slot, one for a finished wait's message. */
        m.spare = anvil_mem_calloc(a, m.slot_count + 1, sizeof *m.spare);
        m.multi =
            m.waits && m.slots && m.free_slots && m.spare && m.repolls.at && m.expiries.at ? curl_multi_init() : NULL;
        rc = m.multi ? ANVIL_OK : ANVIL_ENOMEM;
    }
    for (size_t i = 0; rc == ANVIL_OK && i < m.slot_count; i++) {
        m.slots[i].easy = curl_easy_init();
        rc = m.slots[i].easy ? ANVIL_OK : ANVIL_ENOMEM;
        /* Highest index at the bottom, so polls fill slot 0 first. */
        m.free_slots[m.free_len++] = m.slot_count - 1 - i;
    }
    uint64_t now = s_now(&m);
    struct anvil_wait_options wait = options->wait;
    if (!wait.env) {
        wait.env = m.env;
    }
    for (size_t i = 0; rc == ANVIL_OK && i < count; i++) {
        struct s_wait *w = &m.waits[i];
        w->index = i;
        rc = anvil_wait_start(&w->state, m.waiter, inputs[i], &wait, now, diag);
        rc = rc == ANVIL_OK ? anvil_wait_group_schedule(&m.group, &w->state, now) : rc;
        m.progress.waiting += rc == ANVIL_OK;
        /* The last attempt's grace ends (the same for every wait: one start, one set of options). */
        uint64_t deadline = anvil_wait_deadline_ms(&w->state), grace = anvil_wait_min_delay_ms(&w->state);
        m.last_chance_ms = deadline > UINT64_MAX - grace ? UINT64_MAX : deadline + grace;
    }
    if (rc == ANVIL_OK) {
        rc = s_loop(&m);
        s_report_progress(&m, s_now(&m), true);
    }
    if (rc != ANVIL_OK && diag && !diag->message[0]) {
        anvil_diag_set(diag, rc, 0, 0, 0, "waiting on many: %s", anvil_status_str(rc));
    }
    s_clean_up(&m);
    return rc;
}
