/* Credential providers: the cache and its refresh windows, static credentials, chains, the default chain's files. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "anvil/credentials.h"
#include "harness.h"

#define MIN_MS ((uint64_t)60 * 1000)
#define T0 ((uint64_t)1800000000000) /* 2027-01-15, a wall clock in ms */

/* A source whose credentials live `life_ms`; each fetch gives the next key id; fails while `failing`. */
struct s_source {
    uint64_t life_ms;
    atomic_int fetches;
    bool failing;
    int fail_status;
    /* Threads that called get (the 8-thread case); the fetch waits for all of them. */
    atomic_int arrived;
    int wait_for;
    bool expired;
};

static int s_fetch(void *ctx, uint64_t now, struct anvil_credentials *out, struct anvil_diag *diag) {
    struct s_source *s = ctx;
    int n = atomic_fetch_add(&s->fetches, 1) + 1;
    while (s->wait_for && atomic_load(&s->arrived) < s->wait_for) {
        sched_yield();
    }
    if (s->failing) {
        return anvil_diag_set(diag, s->fail_status ? s->fail_status : ANVIL_ECONFIG, 0, 0, 0, "source: down");
    }
    snprintf(out->access_key_id, sizeof out->access_key_id, "ASIA%04d", n);
    snprintf(out->secret_access_key, sizeof out->secret_access_key, "secret-%d", n);
    snprintf(out->session_token, sizeof out->session_token, "token-%d", n);
    out->expires_ms = s->expired ? now : now + s->life_ms;
    return ANVIL_OK;
}

static void s_creds(struct anvil_credentials *c, const char *key, const char *secret) {
    anvil_credentials_clear(c);
    snprintf(c->access_key_id, sizeof c->access_key_id, "%s", key);
    snprintf(c->secret_access_key, sizeof c->secret_access_key, "%s", secret);
}

TEST(credentials_static) {
    struct anvil_credentials c;
    s_creds(&c, "AKIDSTATIC", "s");
    struct anvil_credentials_provider *p = NULL;
    CHECK_OK(anvil_credentials_provider_static(t->alloc, &c, &p));
    struct anvil_credentials got;
    CHECK_OK(anvil_credentials_get(p, T0, &got, NULL));
    CHECK_STR_EQ(got.access_key_id, "AKIDSTATIC");
    CHECK_STR_EQ(got.provider, "static");
    CHECK_EQ_U64(got.expires_ms, 0);
    /* Keys a header cannot carry, or none, are refused. */
    struct anvil_credentials_provider *bad = NULL;
    s_creds(&c, "AKID WITH SPACE", "s");
    CHECK_STATUS(anvil_credentials_provider_static(t->alloc, &c, &bad), ANVIL_EINVAL);
    s_creds(&c, "AKID", "");
    CHECK_STATUS(anvil_credentials_provider_static(t->alloc, &c, &bad), ANVIL_EINVAL);
    CHECK(bad == NULL);
done:
    anvil_credentials_provider_release(p);
}

/* Two simulated hours of a get every 20 s over credentials that live 15 minutes: never an error, never expired. */
TEST(credentials_refresh_ahead_of_expiry) {
    struct s_source src = {.life_ms = 15 * MIN_MS};
    struct anvil_credentials_provider *p = NULL;
    CHECK_OK(anvil_credentials_provider_new(t->alloc, "test", s_fetch, &src, NULL, &p));
    struct anvil_credentials got;
    char last[128] = "";
    int changes = 0;
    for (uint64_t now = T0; now < T0 + 120 * MIN_MS; now += 20 * 1000) {
        CHECK_OK(anvil_credentials_get(p, now, &got, NULL));
        CHECK(got.expires_ms > now);
        /* Inside the mandatory window (a quarter of the life, 3.75 minutes) never. */
        CHECK(got.expires_ms - now > 15 * MIN_MS / 4);
        changes += strcmp(last, got.access_key_id) != 0;
        snprintf(last, sizeof last, "%s", got.access_key_id);
    }
    /* Refreshed at half life: every 7.5 minutes, 16 times in two hours. */
    CHECK_EQ_INT(atomic_load(&src.fetches), 16);
    CHECK_EQ_INT(changes, 16);
    CHECK_STR_EQ(got.provider, "test");
done:
    anvil_credentials_provider_release(p);
}

TEST(credentials_windows_for_long_lived) {
    struct s_source src = {.life_ms = 60 * MIN_MS};
    struct anvil_credentials_provider *p = NULL;
    CHECK_OK(anvil_credentials_provider_new(t->alloc, "test", s_fetch, &src, NULL, &p));
    struct anvil_credentials got;
    CHECK_OK(anvil_credentials_get(p, T0, &got, NULL));
    /* Cached until 15 minutes before expiry. */
    CHECK_OK(anvil_credentials_get(p, T0 + 45 * MIN_MS - 1, &got, NULL));
    CHECK_EQ_INT(atomic_load(&src.fetches), 1);
    /* Advisory: a refresh that fails keeps the current credentials, and is not tried again for a minute. */
    src.failing = true;
    CHECK_OK(anvil_credentials_get(p, T0 + 45 * MIN_MS, &got, NULL));
    CHECK_STR_EQ(got.access_key_id, "ASIA0001");
    CHECK_EQ_INT(atomic_load(&src.fetches), 2);
    CHECK_OK(anvil_credentials_get(p, T0 + 45 * MIN_MS + 30 * 1000, &got, NULL));
    CHECK_EQ_INT(atomic_load(&src.fetches), 2);
    /* Mandatory (5 minutes before): a failure is the caller's error. */
    struct anvil_diag diag;
    CHECK_STATUS(anvil_credentials_get(p, T0 + 55 * MIN_MS, &got, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "source: down");
    CHECK_STR_EQ(got.access_key_id, "");
    src.failing = false;
    CHECK_OK(anvil_credentials_get(p, T0 + 55 * MIN_MS, &got, NULL));
    CHECK_STR_EQ(got.access_key_id, "ASIA0004");
    /* Invalidated: the next get fetches. */
    anvil_credentials_invalidate(p);
    CHECK_OK(anvil_credentials_get(p, T0 + 55 * MIN_MS, &got, NULL));
    CHECK_STR_EQ(got.access_key_id, "ASIA0005");
done:
    anvil_credentials_provider_release(p);
}

struct s_source_with_provider {
    struct s_source src;
    struct anvil_credentials_provider *p;
};

/* A fetch during which the cache is invalidated (another thread), then fails: no empty credentials come out. */
static int s_fetch_invalidated(void *ctx, uint64_t now, struct anvil_credentials *out, struct anvil_diag *diag) {
    struct s_source_with_provider *x = ctx;
    if (atomic_load(&x->src.fetches) >= 1) {
        anvil_credentials_invalidate(x->p);
        x->src.failing = true;
    }
    return s_fetch(&x->src, now, out, diag);
}

TEST(credentials_invalidated_during_an_advisory_refresh) {
    struct s_source_with_provider x = {.src = {.life_ms = 60 * MIN_MS}};
    CHECK_OK(anvil_credentials_provider_new(t->alloc, "test", s_fetch_invalidated, &x, NULL, &x.p));
    struct anvil_credentials got;
    CHECK_OK(anvil_credentials_get(x.p, T0, &got, NULL));
    struct anvil_diag diag;
    /* Advisory window; the refresh fails after an invalidate emptied the cache: an error, never OK with no keys. */
    CHECK_STATUS(anvil_credentials_get(x.p, T0 + 50 * MIN_MS, &got, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(got.access_key_id, "");
    CHECK_STR_EQ(diag.message, "source: down");
done:
    anvil_credentials_provider_release(x.p);
}

TEST(credentials_expired_on_arrival) {
    struct s_source src = {.life_ms = 60 * MIN_MS, .expired = true};
    struct anvil_credentials_provider *p = NULL;
    CHECK_OK(anvil_credentials_provider_new(t->alloc, "stale", s_fetch, &src, NULL, &p));
    struct anvil_credentials got;
    struct anvil_diag diag;
    CHECK_STATUS(anvil_credentials_get(p, T0, &got, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "stale gave credentials that expired at 2027-01-15T08:00:00Z");
done:
    anvil_credentials_provider_release(p);
}

struct s_thread {
    struct anvil_credentials_provider *p;
    struct s_source *src;
    int rc;
    char key[128];
};

static void *s_thread_main(void *arg) {
    struct s_thread *th = arg;
    struct anvil_credentials got;
    atomic_fetch_add(&th->src->arrived, 1);
    th->rc = anvil_credentials_get(th->p, T0, &got, NULL);
    snprintf(th->key, sizeof th->key, "%s", got.access_key_id);
    return NULL;
}

/* Eight threads asking at once with nothing cached: one fetch, all eight get its credentials. */
TEST(credentials_one_refresh_for_many_threads) {
    struct s_source src = {.life_ms = 60 * MIN_MS, .wait_for = 8};
    struct anvil_credentials_provider *p = NULL;
    CHECK_OK(anvil_credentials_provider_new(t->alloc, "test", s_fetch, &src, NULL, &p));
    pthread_t threads[8];
    struct s_thread th[8];
    for (int i = 0; i < 8; i++) {
        th[i] = (struct s_thread){p, &src, -99, ""};
        CHECK(pthread_create(&threads[i], NULL, s_thread_main, &th[i]) == 0);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(threads[i], NULL);
        CHECK_OK(th[i].rc);
        CHECK_STR_EQ(th[i].key, "ASIA0001");
    }
    CHECK_EQ_INT(atomic_load(&src.fetches), 1);
done:
    anvil_credentials_provider_release(p);
}

static int s_not_here(void *ctx, uint64_t now, struct anvil_credentials *out, struct anvil_diag *diag) {
    (void)now, (void)out;
    return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "%s: not set", (const char *)ctx);
}

TEST(credentials_chain_order) {
    struct s_source good = {.life_ms = 60 * MIN_MS};
    struct s_source broken = {.life_ms = 60 * MIN_MS, .failing = true};
    struct anvil_credentials_provider *a = NULL, *b = NULL, *c = NULL, *d = NULL, *chain = NULL, *chain2 = NULL;
    CHECK_OK(anvil_credentials_provider_new(t->alloc, "first", s_not_here, "first", NULL, &a));
    CHECK_OK(anvil_credentials_provider_new(t->alloc, "second", s_not_here, "second", NULL, &b));
    CHECK_OK(anvil_credentials_provider_new(t->alloc, "good", s_fetch, &good, NULL, &c));
    CHECK_OK(anvil_credentials_provider_new(t->alloc, "broken", s_fetch, &broken, NULL, &d));
    struct anvil_credentials_provider *members[] = {a, b, c, d};
    CHECK_OK(anvil_credentials_provider_chain(t->alloc, members, 4, &chain));
    struct anvil_credentials got;
    CHECK_OK(anvil_credentials_get(chain, T0, &got, NULL));
    CHECK_STR_EQ(got.provider, "good");
    /* Chosen once: later gets go to it alone. */
    CHECK_OK(anvil_credentials_get(chain, T0 + 50 * MIN_MS, &got, NULL));
    CHECK_EQ_INT(atomic_load(&good.fetches), 2);
    /* A configured source that fails stops the chain; none configured lists every reason. */
    struct anvil_credentials_provider *members2[] = {a, d, c};
    CHECK_OK(anvil_credentials_provider_chain(t->alloc, members2, 3, &chain2));
    struct anvil_diag diag;
    CHECK_STATUS(anvil_credentials_get(chain2, T0, &got, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "source: down");
    anvil_credentials_provider_release(chain2);
    struct anvil_credentials_provider *members3[] = {a, b};
    CHECK_OK(anvil_credentials_provider_chain(t->alloc, members3, 2, &chain2));
    CHECK_STATUS(anvil_credentials_get(chain2, T0, &got, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "no credentials: first: not set; second: not set");
done:
    anvil_credentials_provider_release(chain);
    anvil_credentials_provider_release(chain2);
    anvil_credentials_provider_release(a);
    anvil_credentials_provider_release(b);
    anvil_credentials_provider_release(c);
    anvil_credentials_provider_release(d);
}

/* ---- the default chain, over files in a scratch HOME ---- */

struct s_env {
    const char *pairs[12][2];
    char home[256];
};

static const char *s_lookup(void *ctx, const char *name) {
    struct s_env *e = ctx;
    if (strcmp(name, "HOME") == 0) {
        return e->home;
    }
    if (strcmp(name, "AWS_EC2_METADATA_DISABLED") == 0) {
        return "true";
    }
    for (size_t i = 0; i < 12 && e->pairs[i][0]; i++) {
        if (strcmp(e->pairs[i][0], name) == 0) {
            return e->pairs[i][1];
        }
    }
    return NULL;
}

static bool s_write(const char *dir, const char *name, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        return false;
    }
    fputs(text, f);
    return fclose(f) == 0;
}

static bool s_home(struct s_env *e, const char *credentials, const char *config) {
    snprintf(e->home, sizeof e->home, "/tmp/anvil-creds-XXXXXX");
    if (!mkdtemp(e->home)) {
        return false;
    }
    char aws[300];
    snprintf(aws, sizeof aws, "%s/.aws", e->home);
    return mkdir(aws, 0700) == 0 && s_write(aws, "credentials", credentials) && s_write(aws, "config", config);
}

static void s_rm_home(struct s_env *e) {
    char path[400];
    snprintf(path, sizeof path, "%s/.aws/credentials", e->home);
    unlink(path);
    snprintf(path, sizeof path, "%s/.aws/config", e->home);
    unlink(path);
    snprintf(path, sizeof path, "%s/.aws", e->home);
    rmdir(path);
    rmdir(e->home);
}

static int s_default_get(struct anvil_test *t, struct s_env *e, const char *profile, struct anvil_credentials *got,
                         struct anvil_diag *diag) {
    struct anvil_credentials_options o = {.profile = profile, .getenv = s_lookup, .getenv_ctx = e};
    struct anvil_credentials_provider *p = NULL;
    int rc = anvil_credentials_provider_default(t->alloc, &o, &p);
    if (rc == ANVIL_OK) {
        anvil_diag_clear(diag);
        rc = anvil_credentials_get(p, T0, got, diag);
    }
    anvil_credentials_provider_release(p);
    return rc;
}

static const char s_files_credentials[] = "[default]\n"
                                          "aws_access_key_id = AKIDDEFAULT\n"
                                          "aws_secret_access_key = default-secret\n"
                                          "[half]\n"
                                          "aws_access_key_id = AKIDHALF\n";
static const char s_files_config[] = "[profile fromconfig]\n"
                                     "aws_access_key_id = AKIDCONFIG\n"
                                     "aws_secret_access_key = config-secret\n"
                                     "aws_account_id = 123456789012\n"
                                     "[profile loop-a]\n"
                                     "role_arn = arn:aws:iam::123456789012:role/a\n"
                                     "source_profile = loop-b\n"
                                     "[profile loop-b]\n"
                                     "role_arn = arn:aws:iam::123456789012:role/b\n"
                                     "source_profile = loop-a\n"
                                     "[profile both]\n"
                                     "role_arn = arn:aws:iam::123456789012:role/x\n"
                                     "source_profile = default\n"
                                     "credential_source = Environment\n"
                                     "[profile lonely-role]\n"
                                     "role_arn = arn:aws:iam::123456789012:role/x\n"
                                     "[profile mfa]\n"
                                     "role_arn = arn:aws:iam::123456789012:role/x\n"
                                     "source_profile = default\n"
                                     "mfa_serial = arn:aws:iam::123456789012:mfa/me\n"
                                     "[profile weird-source]\n"
                                     "role_arn = arn:aws:iam::123456789012:role/x\n"
                                     "credential_source = Laptop\n"
                                     "[profile empty-source]\n"
                                     "role_arn = arn:aws:iam::123456789012:role/x\n"
                                     "source_profile = nothing\n"
                                     "[profile nothing]\n"
                                     "region = eu-west-1\n"
                                     "[profile sso]\n"
                                     "sso_session = corp\n"
                                     "sso_account_id = 123456789012\n"
                                     "sso_role_name = Admin\n";

TEST(credentials_default_chain_files) {
    struct s_env e = {{{"AWS_ACCESS_KEY_ID", "AKIDENV"}, {"AWS_SECRET_ACCESS_KEY", "env-secret"}}, ""};
    CHECK(s_home(&e, s_files_credentials, s_files_config));
    struct anvil_credentials got;
    struct anvil_diag diag;
    /* The environment first, unless a profile is given. */
    CHECK_OK(s_default_get(t, &e, NULL, &got, &diag));
    CHECK_STR_EQ(got.access_key_id, "AKIDENV");
    CHECK_STR_EQ(got.provider, "environment");
    CHECK_OK(s_default_get(t, &e, "default", &got, &diag));
    CHECK_STR_EQ(got.access_key_id, "AKIDDEFAULT");
    CHECK_STR_EQ(got.provider, "profile");
    CHECK_OK(s_default_get(t, &e, "fromconfig", &got, &diag));
    CHECK_STR_EQ(got.access_key_id, "AKIDCONFIG");
    CHECK_STR_EQ(got.account_id, "123456789012");
    /* Every misconfiguration named, never a secret. */
    static const struct {
        const char *profile;
        const char *message;
    } bad[] = {
        {"half", "profile `half` in {{HOME}}/.aws/credentials: aws_access_key_id without aws_secret_access_key"},
        {"loop-a", "profile `loop-a`: source_profile loops: loop-a -> loop-b -> loop-a"},
        {"both", "profile `both`: both source_profile and credential_source; give one"},
        {"lonely-role", "profile `lonely-role`: role_arn needs source_profile, credential_source or "
                        "web_identity_token_file"},
        {"mfa", "profile `mfa`: its role needs an MFA code (mfa_serial), and anvil does not prompt for one; use "
                "credentials from `aws sts get-session-token` or `aws configure export-credentials`"},
        {"weird-source", "profile `weird-source`: credential_source `Laptop` is none of Environment, "
                         "Ec2InstanceMetadata, EcsContainer"},
        {"empty-source", "profile `empty-source`: its source_profile `nothing` has no keys, role, web identity, "
                         "credential_process or SSO settings"},
        {"missing", "the profile `missing` is in neither {{HOME}}/.aws/credentials nor {{HOME}}/.aws/config"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_STATUS(s_default_get(t, &e, bad[i].profile, &got, &diag), ANVIL_ECONFIG);
        char want[600];
        snprintf(want, sizeof want, "%s", bad[i].message);
        char *at;
        while ((at = strstr(want, "{{HOME}}")) != NULL) {
            char rest[600];
            snprintf(rest, sizeof rest, "%s", at + 8);
            snprintf(at, sizeof want - (size_t)(at - want), "%s%s", e.home, rest);
        }
        CHECK_STR_EQ(diag.message, want);
        CHECK(strstr(diag.message, "-secret") == NULL);
    }
    CHECK_STATUS(s_default_get(t, &e, "sso", &got, &diag), ANVIL_ECONFIG);
    char want[600];
    snprintf(want, sizeof want, "profile `sso`: no [sso-session corp] section in %s/.aws/config", e.home);
    CHECK_STR_EQ(diag.message, want);
    /* Only one of the environment's two keys. */
    e.pairs[1][0] = "AWS_SECRET_ACCESS_KEY_NOT";
    CHECK_STATUS(s_default_get(t, &e, NULL, &got, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "environment: AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not");
    /* AWS_PROFILE names a profile without outranking the environment; here the keys are gone. */
    e.pairs[0][0] = "AWS_PROFILE";
    e.pairs[0][1] = "fromconfig";
    CHECK_OK(s_default_get(t, &e, NULL, &got, &diag));
    CHECK_STR_EQ(got.access_key_id, "AKIDCONFIG");
done:
    s_rm_home(&e);
}
