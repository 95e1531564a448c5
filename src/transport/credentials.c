/*
 * Credential providers: a fetch function behind a cache that refreshes
 * ahead of expiry (one refresh in flight at a time), static credentials,
 * and chains. The default chain's providers live in credentials_*.c.
 */
#include "anvil/credentials.h"
#include "core/crypto.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core_internal.h"
#include "transport/credentials_internal.h"

/* How long a failed advisory refresh is not tried again (the current credentials are kept meanwhile). */
#define S_ADVISORY_RETRY_MS ((uint64_t)60 * 1000)

struct anvil_credentials_provider {
    struct anvil_allocator *allocator;
    char name[32];
    anvil_credentials_fetch_fn *fetch;
    void *ctx;
    void (*destroy)(void *ctx);
    atomic_uint refs;
    /* A chain keeps no cache of its own: its members do. */
    bool passthrough;
    pthread_mutex_t lock;
    pthread_cond_t done;
    bool refreshing;
    /* Bumped when a refresh ends; its status and diag stay for the callers that waited on it. */
    uint64_t generation;
    int last_rc;
    struct anvil_diag last_diag;
    bool have;
    struct anvil_credentials creds;
    uint64_t advisory_at;
    uint64_t mandatory_at;
    uint64_t next_advisory_try;
};

void anvil_credentials_clear(struct anvil_credentials *creds) {
    if (creds) {
        anvil__cleanse(creds, sizeof *creds);
    }
}

/* ---- an allocator that overwrites what it releases ---- */

/* Each block starts with its size, so release and realloc know how much to overwrite. */
#define S_SCRUB_HEADER (sizeof(max_align_t) > sizeof(size_t) ? sizeof(max_align_t) : sizeof(size_t))

static void *s_scrub_acquire(struct anvil_allocator *a, size_t size) {
    size_t total;
    if (anvil__size_add(size, S_SCRUB_HEADER, &total)) {
        return NULL;
    }
    unsigned char *block = anvil_mem_acquire(a->impl, total);
    if (!block) {
        return NULL;
    }
    memcpy(block, &size, sizeof size);
    return block + S_SCRUB_HEADER;
}

static void s_scrub_release(struct anvil_allocator *a, void *ptr) {
    unsigned char *block = (unsigned char *)ptr - S_SCRUB_HEADER;
    size_t size;
    memcpy(&size, block, sizeof size);
    anvil__cleanse(block, S_SCRUB_HEADER + size);
    anvil_mem_release(a->impl, block);
}

/* Never in place: the old block is overwritten once its bytes are copied. */
static void *s_scrub_realloc(struct anvil_allocator *a, void *ptr, size_t size) {
    void *grown = s_scrub_acquire(a, size);
    if (!grown) {
        return NULL;
    }
    size_t old;
    memcpy(&old, (unsigned char *)ptr - S_SCRUB_HEADER, sizeof old);
    memcpy(grown, ptr, old < size ? old : size);
    s_scrub_release(a, ptr);
    return grown;
}

struct anvil_allocator anvil__scrubber(struct anvil_allocator *parent) {
    struct anvil_allocator a = {s_scrub_acquire, s_scrub_realloc, s_scrub_release,
                                parent ? parent : anvil_allocator_default()};
    return a;
}

int anvil__read_small_file(const char *path, char *out, size_t size, size_t *len) {
    *len = 0;
    if (size < 2) {
        return ANVIL_ELIMIT;
    }
    out[0] = '\0';
    /* Non-blocking, and only a regular file: a FIFO would block the read forever. */
    int fd;
    int err = anvil__open_regular(path, &fd);
    if (err) {
        return err < 0 ? ANVIL_EINVAL : ANVIL_EIO;
    }
    size_t n = 0;
    ssize_t got;
    while (n < size - 1 && (got = read(fd, out + n, size - 1 - n)) > 0) {
        n += (size_t)got;
    }
    char extra;
    bool more = n == size - 1 && read(fd, &extra, 1) == 1;
    close(fd);
    out[n] = '\0';
    *len = n;
    return more ? ANVIL_ELIMIT : ANVIL_OK;
}

/* Printable ASCII only: the value goes into a header (or its signing scope). */
static bool s_header_safe(const char *s) {
    for (; *s; s++) {
        if ((unsigned char)*s < 0x21 || (unsigned char)*s > 0x7e) {
            return false;
        }
    }
    return true;
}

int anvil__credentials_check(const struct anvil_credentials *c, const char *who, struct anvil_diag *diag) {
    if (!c->access_key_id[0] || !c->secret_access_key[0]) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: the credentials lack %s", who,
                              c->access_key_id[0] ? "a secret access key" : "an access key id");
    }
    if (!s_header_safe(c->access_key_id) || !s_header_safe(c->session_token) || !s_header_safe(c->account_id)) {
        /* The key id is not shown: it is what is broken, and may hold anything. */
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                              "%s: the access key id, session token or account id holds a space, a control "
                              "character or a byte outside ASCII",
                              who);
    }
    return ANVIL_OK;
}

static int s_new(struct anvil_allocator *allocator, const char *name, anvil_credentials_fetch_fn *fetch, void *ctx,
                 void (*destroy)(void *ctx), struct anvil_credentials_provider **out) {
    *out = NULL;
    if (!fetch || !name || !*name || strlen(name) >= sizeof((struct anvil_credentials_provider *)0)->name) {
        return ANVIL_EINVAL;
    }
    struct anvil_credentials_provider *p = anvil_mem_acquire(allocator, sizeof *p);
    if (!p) {
        return ANVIL_ENOMEM;
    }
    memset(p, 0, sizeof *p);
    if (pthread_mutex_init(&p->lock, NULL) != 0) {
        anvil_mem_release(allocator, p);
        return ANVIL_ENOMEM;
    }
    if (pthread_cond_init(&p->done, NULL) != 0) {
        pthread_mutex_destroy(&p->lock);
        anvil_mem_release(allocator, p);
        return ANVIL_ENOMEM;
    }
    p->allocator = allocator;
    snprintf(p->name, sizeof p->name, "%s", name);
    p->fetch = fetch;
    p->ctx = ctx;
    p->destroy = destroy;
    atomic_init(&p->refs, 1);
    *out = p;
    return ANVIL_OK;
}

int anvil_credentials_provider_new(struct anvil_allocator *allocator, const char *name,
                                   anvil_credentials_fetch_fn *fetch, void *ctx, void (*destroy)(void *ctx),
                                   struct anvil_credentials_provider **out) {
    if (!out) {
        return ANVIL_EINVAL;
    }
    return s_new(allocator, name, fetch, ctx, destroy, out);
}

void anvil_credentials_provider_retain(struct anvil_credentials_provider *p) {
    if (p) {
        atomic_fetch_add(&p->refs, 1);
    }
}

void anvil_credentials_provider_release(struct anvil_credentials_provider *p) {
    if (!p || atomic_fetch_sub(&p->refs, 1) != 1) {
        return;
    }
    if (p->destroy) {
        p->destroy(p->ctx);
    }
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    anvil_credentials_clear(&p->creds);
    anvil_mem_release(p->allocator, p);
}

/* ---- static ---- */

struct s_static {
    struct anvil_allocator *allocator;
    struct anvil_credentials creds;
};

static int s_static_fetch(void *ctx, uint64_t now_ms, struct anvil_credentials *out, struct anvil_diag *diag) {
    (void)now_ms;
    (void)diag;
    *out = ((struct s_static *)ctx)->creds;
    return ANVIL_OK;
}

static void s_static_destroy(void *ctx) {
    struct s_static *s = ctx;
    anvil_credentials_clear(&s->creds);
    anvil_mem_release(s->allocator, s);
}

int anvil_credentials_provider_static(struct anvil_allocator *allocator, const struct anvil_credentials *creds,
                                      struct anvil_credentials_provider **out) {
    if (!out) {
        return ANVIL_EINVAL;
    }
    *out = NULL;
    if (!creds || anvil__credentials_check(creds, "static", NULL) != ANVIL_OK) {
        return ANVIL_EINVAL;
    }
    struct s_static *s = anvil_mem_acquire(allocator, sizeof *s);
    if (!s) {
        return ANVIL_ENOMEM;
    }
    s->allocator = allocator;
    s->creds = *creds;
    if (!s->creds.provider[0] || memchr(s->creds.provider, '\0', sizeof s->creds.provider) == NULL) {
        snprintf(s->creds.provider, sizeof s->creds.provider, "static");
    }
    s->creds.source[sizeof s->creds.source - 1] = '\0';
    int rc = s_new(allocator, "static", s_static_fetch, s, s_static_destroy, out);
    if (rc != ANVIL_OK) {
        s_static_destroy(s);
    }
    return rc;
}

/* ---- the cache ---- */

/* The refresh windows of credentials fetched at `now`: 15 and 5 minutes, or half and a quarter of a shorter life. */
static void s_windows(struct anvil_credentials_provider *p, uint64_t now) {
    uint64_t expires = p->creds.expires_ms;
    if (!expires) {
        p->advisory_at = p->mandatory_at = UINT64_MAX;
        return;
    }
    uint64_t life = expires > now ? expires - now : 0;
    uint64_t advisory = life / 2 < ANVIL_CREDENTIALS_ADVISORY_MS ? life / 2 : ANVIL_CREDENTIALS_ADVISORY_MS;
    uint64_t mandatory = life / 4 < ANVIL_CREDENTIALS_MANDATORY_MS ? life / 4 : ANVIL_CREDENTIALS_MANDATORY_MS;
    p->advisory_at = expires - advisory;
    p->mandatory_at = expires - mandatory;
}

/* Writes ms since the epoch as ISO-8601 UTC (for messages). */
void anvil__credentials_time(uint64_t ms, char *out, size_t size) {
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    if (!gmtime_r(&t, &tm) || strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) {
        snprintf(out, size, "%llu ms", (unsigned long long)ms);
    }
}

/* One refresh, the lock held on entry and on return (released around the fetch). */
static int s_refresh(struct anvil_credentials_provider *p, uint64_t now, struct anvil_credentials *fresh,
                     struct anvil_diag *diag) {
    p->refreshing = true;
    pthread_mutex_unlock(&p->lock);
    anvil_credentials_clear(fresh);
    struct anvil_diag d;
    anvil_diag_clear(&d);
    int rc = p->fetch(p->ctx, now, fresh, &d);
    if (rc == ANVIL_OK) {
        if (!fresh->provider[0]) {
            snprintf(fresh->provider, sizeof fresh->provider, "%s", p->name);
        }
        rc = anvil__credentials_check(fresh, fresh->source[0] ? fresh->source : fresh->provider, &d);
    }
    if (rc == ANVIL_OK && fresh->expires_ms && fresh->expires_ms <= now) {
        char when[40];
        anvil__credentials_time(fresh->expires_ms, when, sizeof when);
        rc = anvil_diag_set(&d, ANVIL_ECONFIG, 0, 0, 0, "%s gave credentials that expired at %s",
                            fresh->source[0] ? fresh->source : fresh->provider, when);
    }
    if (rc != ANVIL_OK && d.code == ANVIL_OK) {
        anvil_diag_set(&d, rc, 0, 0, 0, "%s: %s", p->name, anvil_status_str(rc));
    }
    pthread_mutex_lock(&p->lock);
    p->refreshing = false;
    p->generation++;
    p->last_rc = rc;
    p->last_diag = d;
    if (rc == ANVIL_OK) {
        anvil_credentials_clear(&p->creds);
        p->creds = *fresh;
        p->have = true;
        s_windows(p, now);
    }
    anvil_credentials_clear(fresh);
    pthread_cond_broadcast(&p->done);
    if (rc != ANVIL_OK && diag) {
        *diag = d;
    }
    return rc;
}

static int s_cached_get(struct anvil_credentials_provider *p, uint64_t now, struct anvil_credentials *out,
                        struct anvil_diag *diag) {
    /* Large (a session token is up to 8 KiB): one per provider, used under the lock only by the refresher. */
    struct anvil_credentials fresh;
    int rc = ANVIL_OK;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        bool usable = p->have && (p->creds.expires_ms == 0 || now < p->creds.expires_ms);
        if (usable && now < p->advisory_at) {
            break;
        }
        if (usable && now < p->mandatory_at) {
            /* Advisory: one caller refreshes; the others, and a failure, keep the current credentials. */
            if (p->refreshing || now < p->next_advisory_try) {
                break;
            }
            rc = s_refresh(p, now, &fresh, NULL);
            if (rc != ANVIL_OK) {
                /* Keep the current credentials, if they are still there (an invalidate may have come meanwhile). */
                p->next_advisory_try = now + S_ADVISORY_RETRY_MS;
                rc = ANVIL_OK;
                continue;
            }
            break;
        }
        if (p->refreshing) {
            /* Mandatory, or none yet: wait for the refresh in flight and take its outcome. */
            uint64_t generation = p->generation;
            while (p->refreshing && p->generation == generation) {
                pthread_cond_wait(&p->done, &p->lock);
            }
            if (p->last_rc != ANVIL_OK) {
                rc = p->last_rc;
                if (diag) {
                    *diag = p->last_diag;
                }
                break;
            }
            continue;
        }
        rc = s_refresh(p, now, &fresh, diag);
        break;
    }
    if (rc == ANVIL_OK) {
        *out = p->creds;
    }
    pthread_mutex_unlock(&p->lock);
    return rc;
}

int anvil_credentials_get(struct anvil_credentials_provider *p, uint64_t now_ms, struct anvil_credentials *out,
                          struct anvil_diag *diag) {
    if (!p || !out) {
        return ANVIL_EINVAL;
    }
    anvil_credentials_clear(out);
    if (p->passthrough) {
        return p->fetch(p->ctx, now_ms, out, diag);
    }
    return s_cached_get(p, now_ms, out, diag);
}

void anvil_credentials_invalidate(struct anvil_credentials_provider *p) {
    if (!p) {
        return;
    }
    if (p->passthrough) {
        anvil__credentials_chain_invalidate(p->ctx);
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->have = false;
    p->next_advisory_try = 0;
    anvil_credentials_clear(&p->creds);
    pthread_mutex_unlock(&p->lock);
}

/* ---- chains ---- */

struct s_chain {
    struct anvil_allocator *allocator;
    pthread_mutex_t lock;
    /* The member that supplied credentials, or SIZE_MAX before one has. */
    size_t chosen;
    size_t count;
    struct anvil_credentials_provider *members[];
};

void anvil__credentials_chain_invalidate(void *ctx) {
    struct s_chain *c = ctx;
    pthread_mutex_lock(&c->lock);
    size_t chosen = c->chosen;
    pthread_mutex_unlock(&c->lock);
    if (chosen != SIZE_MAX) {
        anvil_credentials_invalidate(c->members[chosen]);
    }
}

static int s_chain_fetch(void *ctx, uint64_t now_ms, struct anvil_credentials *out, struct anvil_diag *diag) {
    struct s_chain *c = ctx;
    pthread_mutex_lock(&c->lock);
    size_t chosen = c->chosen;
    pthread_mutex_unlock(&c->lock);
    if (chosen != SIZE_MAX) {
        return anvil_credentials_get(c->members[chosen], now_ms, out, diag);
    }
    char tried[ANVIL_DIAG_MESSAGE_MAX];
    size_t len = (size_t)snprintf(tried, sizeof tried, "no credentials:");
    for (size_t i = 0; i < c->count; i++) {
        struct anvil_diag d;
        anvil_diag_clear(&d);
        int rc = anvil_credentials_get(c->members[i], now_ms, out, &d);
        if (rc == ANVIL_OK) {
            pthread_mutex_lock(&c->lock);
            if (c->chosen == SIZE_MAX) {
                c->chosen = i;
            }
            pthread_mutex_unlock(&c->lock);
            return ANVIL_OK;
        }
        if (rc != ANVIL_ENOTFOUND) {
            if (diag) {
                *diag = d;
            }
            return rc;
        }
        const char *why = d.message[0] ? d.message : c->members[i]->name;
        /* Each reason once (the profile's providers may all say it is not there). */
        if (len < sizeof tried && !strstr(tried, why)) {
            len += (size_t)snprintf(tried + len, sizeof tried - len, "%s %s", i ? ";" : "", why);
        }
    }
    return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s", tried);
}

static void s_chain_destroy(void *ctx) {
    struct s_chain *c = ctx;
    for (size_t i = 0; i < c->count; i++) {
        anvil_credentials_provider_release(c->members[i]);
    }
    pthread_mutex_destroy(&c->lock);
    anvil_mem_release(c->allocator, c);
}

int anvil_credentials_provider_chain(struct anvil_allocator *allocator,
                                     struct anvil_credentials_provider *const *providers, size_t count,
                                     struct anvil_credentials_provider **out) {
    if (!out) {
        return ANVIL_EINVAL;
    }
    *out = NULL;
    if (count == 0 || !providers || count > 64) {
        return ANVIL_EINVAL;
    }
    for (size_t i = 0; i < count; i++) {
        if (!providers[i]) {
            return ANVIL_EINVAL;
        }
    }
    struct s_chain *c = anvil_mem_acquire(allocator, sizeof *c + count * sizeof c->members[0]);
    if (!c) {
        return ANVIL_ENOMEM;
    }
    if (pthread_mutex_init(&c->lock, NULL) != 0) {
        anvil_mem_release(allocator, c);
        return ANVIL_ENOMEM;
    }
    c->allocator = allocator;
    c->chosen = SIZE_MAX;
    c->count = count;
    for (size_t i = 0; i < count; i++) {
        c->members[i] = providers[i];
        anvil_credentials_provider_retain(providers[i]);
    }
    int rc = s_new(allocator, "chain", s_chain_fetch, c, s_chain_destroy, out);
    if (rc != ANVIL_OK) {
        s_chain_destroy(c);
        return rc;
    }
    (*out)->passthrough = true;
    return ANVIL_OK;
}
