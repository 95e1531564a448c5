/*
 * The calls credential providers make to STS, SSO and SSO OIDC: through
 * anvil's own client, from the models and rule sets compiled into the
 * library (auth_services_data.c), loaded once per process.
 */
#include <pthread.h>
#include <string.h>

#include "anvil/json.h"
#include "anvil/model.h"
#include "anvil/retry.h"
#include "transport/credentials_internal.h"

struct s_service {
    const char *name;
    const char *model_text;
    const char *rules_text;
    struct anvil_model *model;
    struct anvil_json_doc *rules;
    int rc;
};

static struct s_service s_services[] = {
    {"sts", anvil__sts_model, anvil__sts_rules, NULL, NULL, ANVIL_OK},
    {"sso", anvil__sso_model, anvil__sso_rules, NULL, NULL, ANVIL_OK},
    {"sso-oidc", anvil__sso_oidc_model, anvil__sso_oidc_rules, NULL, NULL, ANVIL_OK},
};
static pthread_once_t s_once = PTHREAD_ONCE_INIT;

/* Loads the three services (kept for the process's life: they are the library's own data). */
static void s_load(void) {
    for (size_t i = 0; i < sizeof s_services / sizeof s_services[0]; i++) {
        struct s_service *s = &s_services[i];
        struct anvil_model_source src = {s->name, s->model_text, strlen(s->model_text), ANVIL_MODEL_FORMAT_BOTOCORE};
        s->rc = anvil_model_assemble(NULL, &src, 1, NULL, &s->model, NULL, NULL);
        if (s->rc == ANVIL_OK) {
            s->rc = anvil_json_parse(NULL, s->rules_text, strlen(s->rules_text), NULL, &s->rules, NULL);
        }
    }
}

/*
 * Credential calls change nothing a repeat would harm (a second AssumeRole
 * gives other credentials as good), so whatever the default classification
 * retries is retried for them, as botocore does: 5xx, throttling,
 * transient codes, dropped connections; and STS's IDPCommunicationError.
 */
static void s_retry_policy(void *ctx, const struct anvil_retry_response *r, struct anvil_retry_verdict *verdict) {
    (void)ctx;
    if (r->success) {
        return;
    }
    struct anvil_retry_class k;
    anvil_retry_classify(r, &k);
    if (k.retryable || anvil_sv_eq_cstr(r->code, "IDPCommunicationError")) {
        verdict->directive = ANVIL_RETRY_DIRECTIVE_RETRY;
        verdict->type = k.retryable ? k.type : ANVIL_RETRY_ERROR_TRANSIENT;
        verdict->why = "a credential call is safe to repeat";
    }
}

int anvil__auth_call(const char *service, const char *region, const struct anvil_credentials *signer,
                     const struct anvil_credentials_options *o, const char *operation, const struct anvil_json *input,
                     struct anvil_arena *arena, struct anvil_operation_reply *reply, struct anvil_diag *diag) {
    pthread_once(&s_once, s_load);
    struct s_service *s = NULL;
    for (size_t i = 0; i < sizeof s_services / sizeof s_services[0]; i++) {
        if (strcmp(s_services[i].name, service) == 0) {
            s = &s_services[i];
        }
    }
    if (!s) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "no embedded service `%s`", service);
    }
    if (s->rc != ANVIL_OK) {
        return anvil_diag_set(diag, s->rc == ANVIL_ENOMEM ? ANVIL_ENOMEM : ANVIL_EINTERNAL, 0, 0, 0,
                              "the embedded %s model did not load: %s", service, anvil_status_str(s->rc));
    }
    struct anvil_credentials_provider *provider = NULL;
    int rc = signer ? anvil_credentials_provider_static(NULL, signer, &provider) : ANVIL_OK;
    if (rc != ANVIL_OK) {
        return anvil_diag_set(diag, rc, 0, 0, 0, "%s: the credentials to sign %s with are not usable", service,
                              operation);
    }
    struct anvil_client_options opts;
    memset(&opts, 0, sizeof opts);
    opts.region = region;
    opts.env = o->env;
    opts.getenv = o->getenv;
    opts.getenv_ctx = o->getenv_ctx;
    opts.ca_bundle = o->ca_bundle;
    opts.cancel = o->cancel;
    opts.debug = o->debug;
    opts.debug_ctx = o->debug_ctx;
    opts.endpoint_rule_set = anvil_json_doc_root(s->rules);
    opts.retry_policy = s_retry_policy;
    opts.credentials = provider;
    opts.no_sign = signer == NULL;
    opts.profile = o->profile;
    struct anvil_client *client = NULL;
    /* The client's buffers hold the answer's secrets: overwritten when released. */
    struct anvil_allocator scrub = anvil__scrubber(NULL);
    rc = anvil_client_new(&scrub, s->model, NULL, &opts, &client, diag);
    anvil_credentials_provider_release(provider);
    if (rc != ANVIL_OK) {
        return rc;
    }
    const struct anvil_shape *op = anvil_client_operation(client, operation);
    if (!op) {
        anvil_client_destroy(client);
        return anvil_diag_set(diag, ANVIL_EINTERNAL, 0, 0, 0, "%s has no operation %s", service, operation);
    }
    rc = anvil_client_call(client, op, input, 0, arena, reply);
    if (rc != ANVIL_OK && rc != ANVIL_ESERVICE) {
        anvil_diag_set(diag, rc, 0, 0, 0, "%s %s: %.*s", service, operation, (int)reply->error.message.len,
                       reply->error.message.ptr);
    }
    anvil_client_destroy(client);
    return rc;
}
