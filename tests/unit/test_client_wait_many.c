/*
 * anvil_client_wait_many() without a service: its argument checks, an empty
 * fleet, and a fleet whose endpoint refuses every connection (127.0.0.1 port
 * 1), on a fake clock. Each wait must be reported exactly once whatever
 * fails, memory included (the allocation sweep runs the last test again
 * failing each allocation in turn). e2e.wait_many drives real fleets.
 */

#include "harness.h"

static const char s_idl[] = "$version: \"2\"\n"
                            "namespace example\n"
                            "use aws.protocols#awsJson1_0\n"
                            "@awsJson1_0\n"
                            "service Svc { version: \"2026-01-01\", operations: [GetThing] }\n"
                            "@smithy.waiters#waitable(ThingReady: {\n"
                            "  acceptors: [{state: \"success\", matcher: {output: {path: \"status\", expected: "
                            "\"READY\", comparator: \"stringEquals\"}}}]\n"
                            "})\n"
                            "@readonly\n"
                            "operation GetThing { input := { id: String } output := { status: String } }\n";

static const char *s_env(void *ctx, const char *name) {
    (void)ctx;
    if (strcmp(name, "AWS_ACCESS_KEY_ID") == 0) {
        return "AKIDEXAMPLE";
    }
    if (strcmp(name, "AWS_SECRET_ACCESS_KEY") == 0) {
        return "secret";
    }
    return NULL;
}

struct s_fleet {
    struct anvil_model *model;
    struct anvil_client *client;
    struct anvil_fake_env fake;
    struct anvil_diag diag;
};

/* A client of Svc whose endpoint refuses connections, on a fake clock. */
static int s_fleet(struct anvil_test *t, struct s_fleet *f) {
    memset(f, 0, sizeof *f);
    anvil_fake_env_init(&f->fake, 1000, 7);
    struct anvil_model_source src = {"svc.smithy", s_idl, strlen(s_idl), ANVIL_MODEL_FORMAT_IDL};
    int rc = anvil_model_assemble(t->alloc, &src, 1, NULL, &f->model, NULL, &f->diag);
    struct anvil_client_options o = {
        .region = "us-west-2", .getenv = s_env, .endpoint_url = "http://127.0.0.1:1", .env = &f->fake.env};
    return rc == ANVIL_OK ? anvil_client_new(t->alloc, f->model, NULL, &o, &f->client, &f->diag) : rc;
}

static void s_fleet_clean_up(struct s_fleet *f) {
    anvil_client_destroy(f->client);
    anvil_model_destroy(f->model);
}

struct s_seen {
    size_t reports[8];
    size_t count;
    enum anvil_wait_reason reasons[8];
};

static void s_done(void *ctx, const struct anvil_wait_many_done *done) {
    struct s_seen *seen = ctx;
    seen->count++;
    if (done->index < 8) {
        seen->reports[done->index]++;
        seen->reasons[done->index] = done->result->outcome.reason;
    }
}

TEST(wait_many_refuses_bad_arguments) {
    struct s_fleet f;
    struct s_seen seen = {0};
    CHECK_OK(s_fleet(t, &f));
    struct anvil_wait_many_options options = {.wait = {.max_wait_ms = 60000}, .on_done = s_done, .ctx = &seen};
    const struct anvil_json *none[1] = {NULL};
    CHECK_STATUS(anvil_client_wait_many(NULL, "ThingReady", none, 1, &options, &f.diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_client_wait_many(f.client, NULL, none, 1, &options, &f.diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_client_wait_many(f.client, "ThingReady", NULL, 1, &options, &f.diag), ANVIL_EINVAL);
    struct anvil_wait_many_options no_callback = options;
    no_callback.on_done = NULL;
    CHECK_STATUS(anvil_client_wait_many(f.client, "ThingReady", none, 1, &no_callback, &f.diag), ANVIL_EINVAL);
    struct anvil_wait_many_options too_many = options;
    too_many.max_in_flight = 5000;
    CHECK_STATUS(anvil_client_wait_many(f.client, "ThingReady", none, 1, &too_many, &f.diag), ANVIL_EINVAL);
    CHECK(strstr(f.diag.message, "max_in_flight") != NULL);
    CHECK_STATUS(anvil_client_wait_many(f.client, "NoSuchWaiter", none, 1, &options, &f.diag), ANVIL_ENOTFOUND);
    CHECK(strstr(f.diag.message, "NoSuchWaiter") != NULL);
    /* No max_wait_ms: the wait options are invalid, said before anything is sent. */
    struct anvil_wait_many_options no_deadline = options;
    no_deadline.wait.max_wait_ms = 0;
    CHECK_STATUS(anvil_client_wait_many(f.client, "ThingReady", none, 1, &no_deadline, &f.diag), ANVIL_EINVAL);
    /* An empty fleet is done at once. */
    CHECK_OK(anvil_client_wait_many(f.client, "ThingReady", NULL, 0, &options, &f.diag));
    CHECK(seen.count == 0);
done:
    s_fleet_clean_up(&f);
}

TEST(wait_many_reports_each_wait_once_when_nothing_answers) {
    struct s_fleet f;
    struct s_seen seen = {0};
    struct anvil_json_doc *docs[5] = {0};
    const struct anvil_json *inputs[5];
    CHECK_OK(s_fleet(t, &f));
    for (size_t i = 0; i < 5; i++) {
        char text[32];
        snprintf(text, sizeof text, "{\"id\": \"t%zu\"}", i);
        CHECK_OK(anvil_json_parse(t->alloc, text, strlen(text), NULL, &docs[i], NULL));
        inputs[i] = anvil_json_doc_root(docs[i]);
    }
    /* Two request slots for five waits: polls queue for a free one. */
    struct anvil_wait_many_options options = {
        .wait = {.max_wait_ms = 600000}, .max_in_flight = 2, .on_done = s_done, .ctx = &seen};
    int rc = anvil_client_wait_many(f.client, "ThingReady", inputs, 5, &options, &f.diag);
    if (rc == ANVIL_ENOMEM) {
        CHECK_OK(rc); /* the sweep's injected failure: a clean stop */
    }
    CHECK_OK(rc);
    CHECK(seen.count == 5);
    for (size_t i = 0; i < 5; i++) {
        CHECK(seen.reports[i] == 1);
        /* Connection refused, retried by the client, then an error no acceptor expects. */
        CHECK(seen.reasons[i] == ANVIL_WAIT_REASON_UNEXPECTED_ERROR);
    }
done:
    for (size_t i = 0; i < 5; i++) {
        anvil_json_doc_destroy(docs[i]);
    }
    s_fleet_clean_up(&f);
}
