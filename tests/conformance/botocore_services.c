/*
 * botocore service models as anvil models.
 *
 * 1. Every newest-version service-2.json under DATA_DIR (botocore's data
 *    folder: SERVICE/API-VERSION/service-2.json) must assemble with no ERROR
 *    event, and the model must equal the one its own JSON AST loads into.
 *    Counts services by protocol.
 * 2. Cross-check against the Smithy models of the same services in
 *    SMITHY_DIR (matched by SDK id): for every operation and member both
 *    have, the protocol-relevant traits must mean the same on the wire:
 *    @http, the HTTP bindings, the JSON and XML names (with xmlFlattened,
 *    xmlAttribute and the ec2Query name), timestamp formats, the errors'
 *    @error, @httpError and awsQuery codes, the protocol and the version.
 *    Walked from each operation's input, output and errors by member name,
 *    so shape names need not agree. Prints agreement counts.
 *
 * The Smithy models are from 2026 and Debian's botocore from 2022: services
 * changed in between. A difference is a failure unless KNOWN (a file of
 * "SERVICE OPERATION-OR-SHAPE.PATH CHECK" lines, each with its reason as a
 * `#` comment above it) explains it; a KNOWN line no difference needs is
 * reported too, so the file stays true.
 *
 * Usage: botocore_services DATA_DIR [SMITHY_DIR [KNOWN]]
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "anvil/anvil.h"
#include "model_same.h"
#include "read_file.h"

/* ---- part 1: load them all ---- */

struct s_service {
    char name[256]; /* botocore's folder name */
    char path[8192];
    struct anvil_model *model; /* kept for the cross-check */
    const struct anvil_shape *service;
};

struct s_run {
    struct s_service *services;
    size_t count, cap;
    size_t failed, shapes, operations;
    size_t by_protocol[16];
    size_t multi_protocol;
};

static const char *const s_protocol_traits[] = {
    "aws.protocols#awsJson1_0", "aws.protocols#awsJson1_1", "aws.protocols#restJson1",    "aws.protocols#restXml",
    "aws.protocols#awsQuery",   "aws.protocols#ec2Query",   "smithy.protocols#rpcv2Cbor",
};
#define S_PROTOCOLS (sizeof(s_protocol_traits) / sizeof(s_protocol_traits[0]))

static const struct anvil_shape *s_service_of(const struct anvil_model *model) {
    for (size_t i = 0; i < anvil_model_shape_count(model); i++) {
        const struct anvil_shape *s = anvil_model_shape_at(model, i);
        if (anvil_shape_type(s) == ANVIL_SHAPE_SERVICE) {
            return s;
        }
    }
    return NULL;
}

static int s_compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The greatest API-version folder of DATA_DIR/NAME that holds a service-2.json (botocore's rule), or "". */
static void s_newest(const char *dir, char *out, size_t cap) {
    out[0] = '\0';
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s/service-2.json", dir, e->d_name);
        FILE *f = e->d_name[0] != '.' ? fopen(path, "rb") : NULL;
        if (f) {
            fclose(f);
            if (strcmp(e->d_name, out) > 0) {
                snprintf(out, cap, "%s", e->d_name);
            }
        }
    }
    if (d) {
        closedir(d);
    }
}

static void s_load(struct s_run *r, const char *root, const char *name) {
    char dir[4096], version[256];
    snprintf(dir, sizeof dir, "%s/%s", root, name);
    s_newest(dir, version, sizeof version);
    if (!version[0]) {
        return;
    }
    if (r->count == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 64;
        r->services = realloc(r->services, r->cap * sizeof(*r->services));
        if (!r->services) {
            abort();
        }
    }
    struct s_service *s = &r->services[r->count];
    memset(s, 0, sizeof(*s));
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->path, sizeof s->path, "%s/%s/service-2.json", dir, version);
    size_t len;
    char *text = anvil_test_read_file(s->path, &len);
    struct anvil_model_source src = {s->path, text, len, ANVIL_MODEL_FORMAT_AUTO};
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = text ? anvil_model_assemble(NULL, &src, 1, NULL, &s->model, &events, &diag) : ANVIL_EIO;
    free(text);
    if (rc != ANVIL_OK || anvil_events_count_at_least(events, ANVIL_SEVERITY_ERROR)) {
        printf("FAIL %s: %s\n", s->path, rc == ANVIL_EIO ? "cannot read" : diag.message);
        r->failed++;
        anvil_events_destroy(events);
        anvil_model_destroy(s->model);
        return;
    }
    anvil_events_destroy(events);
    char why[512];
    if (!anvil_test_model_same_as_ast(s->model, NULL, why, sizeof why)) {
        printf("FAIL %s: the model is not the one its AST loads into: %s\n", s->path, why);
        r->failed++;
    }
    s->service = s_service_of(s->model);
    /* Counted by the protocol it prefers: its protocol traits are in botocore's order. */
    size_t protocols = 0;
    const struct anvil_json *traits = s->service ? anvil_shape_traits(s->service) : NULL;
    for (size_t i = 0; i < anvil_json_len(traits); i++) {
        struct anvil_str_view id = anvil_json_member_key(anvil_json_object_at(traits, i));
        for (size_t p = 0; p < S_PROTOCOLS; p++) {
            if (anvil_sv_eq_cstr(id, s_protocol_traits[p])) {
                r->by_protocol[p] += protocols++ == 0;
            }
        }
    }
    if (!s->service || protocols == 0) {
        printf("FAIL %s: no service shape with a protocol\n", s->path);
        r->failed++;
    }
    r->multi_protocol += protocols > 1;
    r->shapes += anvil_model_shape_count(s->model);
    size_t ops = 0;
    anvil_service_operations(s->model, s->service, NULL, NULL, &ops);
    r->operations += ops;
    r->count++;
}

/* ---- part 2: the cross-check ---- */

enum s_check {
    C_PROTOCOL,
    C_VERSION,
    C_HTTP,
    C_BINDING, /* httpLabel, httpQuery(Params), httpHeader, httpPrefixHeaders, httpPayload, httpResponseCode */
    C_JSON_NAME,
    C_XML_NAME,
    C_XML_FLATTENED,
    C_XML_ATTRIBUTE,
    C_EC2_NAME,
    C_TIMESTAMP,
    C_IDEMPOTENCY_TOKEN,
    C_HOST_PREFIX,
    C_ERROR,
    C_HTTP_ERROR,
    C_QUERY_ERROR,
    C_COUNT
};

static const char *const s_check_names[] = {
    "protocol",         "version",      "http",         "binding",      "jsonName",
    "xmlName",          "xmlFlattened", "xmlAttribute", "ec2QueryName", "timestampFormat",
    "idempotencyToken", "hostPrefix",   "error",        "httpError",    "awsQueryError"};

struct s_known {
    char **lines;
    bool *used;
    size_t count;
};

struct s_cross {
    size_t agree[C_COUNT], differ[C_COUNT], explained[C_COUNT], silent[C_COUNT];
    size_t services, operations, members;
    size_t uri_rules; /* @http differences s_normal_uri explains */
    size_t failed;
    struct s_known known;
    /* The pair of services being compared. */
    const char *service;
    unsigned families;                    /* F_* of the Smithy service's protocol */
    const struct anvil_json *boto_shapes; /* the botocore file's `shapes`, for what it leaves unsaid */
    /* Shape pairs already compared (by the two shapes' addresses). */
    const void **seen;
    size_t seen_mask, seen_count;
    struct {
        const struct anvil_shape *smithy, *boto;
        char path[512];
    } * queue;
    size_t queued, queue_cap;
};

enum { F_JSON = 1, F_REST_JSON = 2, F_XML = 4, F_QUERY = 8, F_EC2 = 16, F_REST = 32 };

static void s_known_load(struct s_known *k, const char *path) {
    size_t len;
    char *text = path ? anvil_test_read_file(path, &len) : NULL;
    for (char *line = text ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || line[0] == '\0') {
            continue;
        }
        k->lines = realloc(k->lines, (k->count + 1) * sizeof(*k->lines));
        k->used = realloc(k->used, (k->count + 1) * sizeof(*k->used));
        if (!k->lines || !k->used) {
            abort();
        }
        k->lines[k->count] = strdup(line);
        k->used[k->count++] = false;
    }
    free(text);
}

static void s_result(struct s_cross *x, enum s_check check, const char *where, const char *smithy, const char *boto) {
    if (strcmp(smithy, boto) == 0) {
        x->agree[check]++;
        return;
    }
    char key[1024];
    snprintf(key, sizeof key, "%s %s %s", x->service, where, s_check_names[check]);
    for (size_t i = 0; i < x->known.count; i++) {
        if (strcmp(x->known.lines[i], key) == 0) {
            x->known.used[i] = true;
            x->explained[check]++;
            return;
        }
    }
    x->differ[check]++;
    x->failed++;
    printf("DIFF %s: smithy `%s`, botocore `%s`\n", key, smithy, boto);
}

static const char *s_string_trait(const struct anvil_json *traits, const char *id, char *buf, size_t cap) {
    const struct anvil_json *v = anvil_json_object_get_cstr(traits, id);
    if (!v) {
        return "";
    }
    struct anvil_str_view s = anvil_json_string(v);
    snprintf(buf, cap, "%.*s", (int)s.len, s.ptr);
    return buf;
}

/* How a member is bound in HTTP: "body", "label", "query:NAME", "header:name" (lower case), ... */
static void s_binding(const struct anvil_json *traits, char *out, size_t cap) {
    char v[256];
    if (anvil_json_object_get_cstr(traits, "smithy.api#httpLabel")) {
        snprintf(out, cap, "label");
    } else if (anvil_json_object_get_cstr(traits, "smithy.api#httpQueryParams")) {
        snprintf(out, cap, "queryParams");
    } else if (anvil_json_object_get_cstr(traits, "smithy.api#httpQuery")) {
        snprintf(out, cap, "query:%s", s_string_trait(traits, "smithy.api#httpQuery", v, sizeof v));
    } else if (anvil_json_object_get_cstr(traits, "smithy.api#httpHeader") ||
               anvil_json_object_get_cstr(traits, "smithy.api#httpPrefixHeaders")) {
        bool prefix = anvil_json_object_get_cstr(traits, "smithy.api#httpPrefixHeaders") != NULL;
        s_string_trait(traits, prefix ? "smithy.api#httpPrefixHeaders" : "smithy.api#httpHeader", v, sizeof v);
        for (char *p = v; *p; p++) {
            *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p); /* header names ignore case */
        }
        snprintf(out, cap, "%s:%s", prefix ? "prefixHeaders" : "header", v);
    } else if (anvil_json_object_get_cstr(traits, "smithy.api#httpPayload")) {
        snprintf(out, cap, "payload");
    } else if (anvil_json_object_get_cstr(traits, "smithy.api#httpResponseCode")) {
        snprintf(out, cap, "statusCode");
    } else {
        snprintf(out, cap, "body");
    }
}

static const char *s_timestamp(const struct anvil_member *m, char *buf, size_t cap) {
    const char *v = s_string_trait(&m->traits, "smithy.api#timestampFormat", buf, cap);
    if (!v[0] && m->target) {
        v = s_string_trait(anvil_shape_traits(m->target), "smithy.api#timestampFormat", buf, cap);
    }
    return v;
}

/* The name a member has in XML, or in an ec2Query request (ec2QueryName, else the XML name capitalised). */
static void s_names(const struct anvil_member *m, char *xml, char *ec2, size_t cap) {
    char v[256];
    const char *name = s_string_trait(&m->traits, "smithy.api#xmlName", v, sizeof v);
    snprintf(xml, cap, "%.*s", (int)(name[0] ? strlen(name) : m->name.len), name[0] ? name : m->name.ptr);
    const char *q = s_string_trait(&m->traits, "aws.protocols#ec2QueryName", v, sizeof v);
    snprintf(ec2, cap, "%s", q[0] ? q : xml);
    ec2[0] = (char)(ec2[0] >= 'a' && ec2[0] <= 'z' ? ec2[0] - 'a' + 'A' : ec2[0]);
}

static void s_enqueue(struct s_cross *x, const struct anvil_shape *smithy, const struct anvil_shape *boto,
                      const char *path) {
    if (!smithy || !boto) {
        return;
    }
    if ((x->seen_count + 1) * 2 > x->seen_mask + 1) {
        size_t size = x->seen_mask ? (x->seen_mask + 1) * 2 : 1024;
        const void **slots = calloc(size * 2, sizeof(*slots));
        for (size_t i = 0; x->seen && i <= x->seen_mask; i++) {
            if (x->seen[2 * i]) {
                size_t j = (((uintptr_t)x->seen[2 * i] >> 4) ^ ((uintptr_t)x->seen[2 * i + 1] >> 3)) & (size - 1);
                while (slots[2 * j]) {
                    j = (j + 1) & (size - 1);
                }
                slots[2 * j] = x->seen[2 * i];
                slots[2 * j + 1] = x->seen[2 * i + 1];
            }
        }
        free(x->seen);
        x->seen = slots;
        x->seen_mask = size - 1;
    }
    size_t j = (((uintptr_t)smithy >> 4) ^ ((uintptr_t)boto >> 3)) & x->seen_mask;
    while (x->seen[2 * j]) {
        if (x->seen[2 * j] == smithy && x->seen[2 * j + 1] == boto) {
            return;
        }
        j = (j + 1) & x->seen_mask;
    }
    x->seen[2 * j] = smithy;
    x->seen[2 * j + 1] = boto;
    x->seen_count++;
    if (x->queued == x->queue_cap) {
        x->queue_cap = x->queue_cap ? x->queue_cap * 2 : 256;
        x->queue = realloc(x->queue, x->queue_cap * sizeof(*x->queue));
        if (!x->queue) {
            abort();
        }
    }
    x->queue[x->queued].smithy = smithy;
    x->queue[x->queued].boto = boto;
    snprintf(x->queue[x->queued].path, sizeof x->queue[x->queued].path, "%s", path);
    x->queued++;
}

/* Members both shapes have, compared; their targets queued. */
static void s_compare_members(struct s_cross *x, const struct anvil_shape *smithy, const struct anvil_shape *boto,
                              const char *path, bool top) {
    for (size_t i = 0; i < anvil_shape_member_count(smithy); i++) {
        const struct anvil_member *s = anvil_shape_member_at(smithy, i);
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)s->name.len, s->name.ptr);
        const struct anvil_member *b = anvil_shape_member(boto, name);
        if (!b) {
            continue;
        }
        x->members++;
        char where[1024], sv[256], bv[256], sx[256], bx[256];
        snprintf(where, sizeof where, "%s.%s", path, name);
        enum anvil_shape_type type = anvil_shape_type(smithy);
        bool element = type == ANVIL_SHAPE_LIST || type == ANVIL_SHAPE_SET || type == ANVIL_SHAPE_MAP;
        if (top && (x->families & F_REST)) {
            s_binding(&s->traits, sv, sizeof sv);
            s_binding(&b->traits, bv, sizeof bv);
            s_result(x, C_BINDING, where, sv, bv);
        }
        if ((x->families & F_REST_JSON) && !element) {
            const char *j = s_string_trait(&s->traits, "smithy.api#jsonName", sv, sizeof sv);
            const char *k = s_string_trait(&b->traits, "smithy.api#jsonName", bv, sizeof bv);
            s_result(x, C_JSON_NAME, where, j[0] ? j : name, k[0] ? k : name);
        }
        if (x->families & (F_XML | F_QUERY | F_EC2)) {
            char se[256], be[256];
            s_names(s, sx, se, sizeof sx);
            s_names(b, bx, be, sizeof bx);
            /* A list's member is named only when not flattened; Smithy says member, botocore often nothing. */
            if (!(element && strcmp(name, "member") == 0 && (x->families & F_EC2))) {
                s_result(x, C_XML_NAME, where, sx, bx);
            }
            if (!element) {
                bool fs = anvil_json_object_get_cstr(&s->traits, "smithy.api#xmlFlattened") != NULL;
                bool fb = anvil_json_object_get_cstr(&b->traits, "smithy.api#xmlFlattened") != NULL;
                s_result(x, C_XML_FLATTENED, where, fs ? "flattened" : "-", fb ? "flattened" : "-");
                fs = anvil_json_object_get_cstr(&s->traits, "smithy.api#xmlAttribute") != NULL;
                fb = anvil_json_object_get_cstr(&b->traits, "smithy.api#xmlAttribute") != NULL;
                s_result(x, C_XML_ATTRIBUTE, where, fs ? "attribute" : "-", fb ? "attribute" : "-");
            }
            if ((x->families & F_EC2) && !element) {
                s_result(x, C_EC2_NAME, where, se, be);
            }
        }
        if (!element) {
            bool ts = anvil_json_object_get_cstr(&s->traits, "smithy.api#idempotencyToken") != NULL;
            bool tb = anvil_json_object_get_cstr(&b->traits, "smithy.api#idempotencyToken") != NULL;
            s_result(x, C_IDEMPOTENCY_TOKEN, where, ts ? "token" : "-", tb ? "token" : "-");
        }
        if (s->target && anvil_shape_type(s->target) == ANVIL_SHAPE_TIMESTAMP) {
            s_result(x, C_TIMESTAMP, where, s_timestamp(s, sv, sizeof sv), s_timestamp(b, bv, sizeof bv));
        }
        s_enqueue(x, s->target, b->target, where);
    }
}

static void s_drain(struct s_cross *x) {
    while (x->queued) {
        x->queued--;
        const struct anvil_shape *smithy = x->queue[x->queued].smithy, *boto = x->queue[x->queued].boto;
        char path[512];
        snprintf(path, sizeof path, "%s", x->queue[x->queued].path);
        s_compare_members(x, smithy, boto, path, false);
    }
}

/*
 * An error's kind, status and awsQuery code. botocore often leaves them unsaid (no `error` object for most
 * awsJson services, no `fault` on some server errors): what it does not say is counted apart, as silent.
 */
static void s_compare_error(struct s_cross *x, const struct anvil_shape *smithy, const struct anvil_shape *boto) {
    char where[512], sv[256], bv[256];
    struct anvil_str_view name = anvil_shape_name(smithy);
    snprintf(where, sizeof where, "%.*s", (int)name.len, name.ptr);
    const struct anvil_json *def = anvil_json_object_get(x->boto_shapes, name.ptr, name.len);
    const struct anvil_json *error = anvil_json_object_get_cstr(def, "error");
    bool says_status = anvil_json_object_get_cstr(error, "httpStatusCode") != NULL;
    bool says_kind =
        says_status || anvil_json_object_get_cstr(def, "fault") || anvil_json_object_get_cstr(error, "senderFault");
    if (says_kind) {
        s_result(x, C_ERROR, where, s_string_trait(anvil_shape_traits(smithy), "smithy.api#error", sv, sizeof sv),
                 s_string_trait(anvil_shape_traits(boto), "smithy.api#error", bv, sizeof bv));
    } else {
        x->silent[C_ERROR]++;
    }
    if (says_status) {
        snprintf(sv, sizeof sv, "%d", anvil_error_http_status(smithy));
        snprintf(bv, sizeof bv, "%d", anvil_error_http_status(boto));
        s_result(x, C_HTTP_ERROR, where, sv, bv);
    } else {
        x->silent[C_HTTP_ERROR]++;
    }
    if (x->families & (F_QUERY | F_EC2)) {
        struct anvil_str_view cs = anvil_error_query_code(smithy), cb = anvil_error_query_code(boto);
        cs = cs.len ? cs : anvil_shape_name(smithy);
        cb = cb.len ? cb : anvil_shape_name(boto);
        snprintf(sv, sizeof sv, "%.*s", (int)cs.len, cs.ptr);
        snprintf(bv, sizeof bv, "%.*s", (int)cb.len, cb.ptr);
        s_result(x, C_QUERY_ERROR, where, sv, bv);
    }
    s_compare_members(x, smithy, boto, where, true);
}

/*
 * An @http summary ("METHOD URI CODE") without what the two sources write differently for the same request:
 * botocore keeps a trailing '/' on some paths (Lambda's 2022 "/2015-03-31/functions/", Lex V2's
 * "/bots/{botId}/") that the Smithy models drop, and the Smithy model of S3 adds `x-id=OPERATION` to the
 * query of operations sharing a path, which botocore does not send. anvil keeps botocore's URI: it is what
 * botocore sends.
 */
static void s_normal_uri(const char *in, char *out, size_t cap, struct anvil_str_view op) {
    char xid[300];
    snprintf(xid, sizeof xid, "x-id=%.*s", (int)op.len, op.ptr);
    size_t n = 0;
    for (const char *p = in; *p && n + 1 < cap; p++) {
        if ((*p == '?' || *p == '&') && strncmp(p + 1, xid, strlen(xid)) == 0 &&
            (p[1 + strlen(xid)] == ' ' || p[1 + strlen(xid)] == '&')) {
            p += strlen(xid); /* drop "?x-id=Op" or "&x-id=Op"; a following '&' becomes the separator */
            if (p[1] == '&') {
                p++;
                out[n++] = in[p - in - strlen(xid) - 1] == '?' ? '?' : '&';
            }
            continue;
        }
        if (*p == '/' && (p[1] == ' ' || p[1] == '?') && n > 0 && out[n - 1] != ' ') {
            continue; /* a trailing '/' */
        }
        out[n++] = *p;
    }
    out[n] = '\0';
}

struct s_pair {
    struct s_cross *x;
    const struct anvil_model *boto_model;
    const struct anvil_shape *boto_service;
};

static const struct anvil_shape *s_boto_operation(const struct s_pair *p, struct anvil_str_view name) {
    struct anvil_str_view ns = anvil_shape_id(p->boto_service);
    size_t hash = 0;
    while (hash < ns.len && ns.ptr[hash] != '#') {
        hash++;
    }
    char id[1024];
    snprintf(id, sizeof id, "%.*s#%.*s", (int)hash, ns.ptr, (int)name.len, name.ptr);
    const struct anvil_shape *op = anvil_model_find(p->boto_model, id, strlen(id));
    return op && anvil_shape_type(op) == ANVIL_SHAPE_OPERATION ? op : NULL;
}

static bool s_visit(const struct anvil_shape *op, void *user_data) {
    struct s_pair *p = user_data;
    struct s_cross *x = p->x;
    struct anvil_str_view name = anvil_shape_name(op);
    const struct anvil_shape *boto = s_boto_operation(p, name);
    if (!boto) {
        return true;
    }
    x->operations++;
    char where[256];
    snprintf(where, sizeof where, "%.*s", (int)name.len, name.ptr);
    const struct anvil_json *hs = anvil_shape_trait(op, "smithy.api#http");
    const struct anvil_json *hb = anvil_shape_trait(boto, "smithy.api#http");
    if (hs && (x->families & F_REST)) {
        char sv[1024], bv[1024];
        struct anvil_str_view ms = anvil_json_string(anvil_json_object_get_cstr(hs, "method"));
        struct anvil_str_view us = anvil_json_string(anvil_json_object_get_cstr(hs, "uri"));
        struct anvil_str_view mb = anvil_json_string(anvil_json_object_get_cstr(hb, "method"));
        struct anvil_str_view ub = anvil_json_string(anvil_json_object_get_cstr(hb, "uri"));
        const struct anvil_json *cs = anvil_json_object_get_cstr(hs, "code");
        const struct anvil_json *cb = anvil_json_object_get_cstr(hb, "code");
        snprintf(sv, sizeof sv, "%.*s %.*s %lld", (int)ms.len, ms.ptr, (int)us.len, us.ptr,
                 (long long)(cs ? anvil_json_int(cs) : 200));
        snprintf(bv, sizeof bv, "%.*s %.*s %lld", (int)mb.len, mb.ptr, (int)ub.len, ub.ptr,
                 (long long)(cb ? anvil_json_int(cb) : 200));
        char ns[1024], nb[1024];
        s_normal_uri(sv, ns, sizeof ns, name);
        s_normal_uri(bv, nb, sizeof nb, name);
        if (strcmp(sv, bv) != 0 && strcmp(ns, nb) == 0) {
            x->explained[C_HTTP]++; /* the same request: see s_normal_uri */
            x->uri_rules++;
        } else {
            s_result(x, C_HTTP, where, sv, bv);
        }
    }
    struct anvil_str_view ps =
        anvil_json_string(anvil_json_object_get_cstr(anvil_shape_trait(op, "smithy.api#endpoint"), "hostPrefix"));
    struct anvil_str_view pb =
        anvil_json_string(anvil_json_object_get_cstr(anvil_shape_trait(boto, "smithy.api#endpoint"), "hostPrefix"));
    if (ps.len || pb.len) {
        char sv[256], bv[256];
        snprintf(sv, sizeof sv, "%.*s", (int)ps.len, ps.ptr);
        snprintf(bv, sizeof bv, "%.*s", (int)pb.len, pb.ptr);
        s_result(x, C_HOST_PREFIX, where, sv, bv);
    }
    char path[512];
    snprintf(path, sizeof path, "%s.input", where);
    s_compare_members(x, anvil_operation_input(op), anvil_operation_input(boto), path, true);
    s_drain(x);
    snprintf(path, sizeof path, "%s.output", where);
    s_compare_members(x, anvil_operation_output(op), anvil_operation_output(boto), path, true);
    s_drain(x);
    for (size_t i = 0; i < anvil_shape_error_count(op); i++) {
        const struct anvil_shape *e = anvil_shape_error_at(op, i);
        for (size_t k = 0; k < anvil_shape_error_count(boto); k++) {
            const struct anvil_shape *f = anvil_shape_error_at(boto, k);
            if (anvil_sv_eq(anvil_shape_name(e), anvil_shape_name(f))) {
                s_compare_error(x, e, f);
                s_drain(x);
            }
        }
    }
    return true;
}

static unsigned s_families(const struct anvil_shape *service) {
    unsigned f = 0;
    f |=
        anvil_shape_trait(service, "aws.protocols#awsJson1_0") || anvil_shape_trait(service, "aws.protocols#awsJson1_1")
            ? F_JSON
            : 0;
    f |= anvil_shape_trait(service, "aws.protocols#restJson1") ? F_REST_JSON | F_REST : 0;
    f |= anvil_shape_trait(service, "aws.protocols#restXml") ? F_XML | F_REST : 0;
    f |= anvil_shape_trait(service, "aws.protocols#awsQuery") ? F_QUERY : 0;
    f |= anvil_shape_trait(service, "aws.protocols#ec2Query") ? F_EC2 : 0;
    return f;
}

/* A service shape's `version`, from its model's JSON AST. */
static void s_version(const struct anvil_model *model, const struct anvil_shape *service, char *out, size_t cap) {
    struct anvil_str_view id = anvil_shape_id(service);
    const struct anvil_json *shapes = anvil_json_object_get_cstr(anvil_model_ast(model), "shapes");
    struct anvil_str_view v =
        anvil_json_string(anvil_json_object_get_cstr(anvil_json_object_get(shapes, id.ptr, id.len), "version"));
    snprintf(out, cap, "%.*s", (int)v.len, v.ptr);
}

static void s_cross_one(struct s_cross *x, const struct anvil_model *smithy_model, const struct anvil_shape *smithy,
                        const struct s_service *boto) {
    x->service = boto->name;
    x->families = s_families(smithy);
    x->services++;
    size_t len;
    char *text = anvil_test_read_file(boto->path, &len);
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    if (!text || anvil_json_parse(NULL, text, len, NULL, &doc, &diag) != ANVIL_OK) {
        printf("FAIL %s: cannot read it again\n", boto->path);
        x->failed++;
        free(text);
        return;
    }
    free(text);
    x->boto_shapes = anvil_json_object_get_cstr(anvil_json_doc_root(doc), "shapes");
    /* The Smithy model's protocol must be one the botocore model says (newer botocore lists several). */
    for (size_t p = 0; p < S_PROTOCOLS; p++) {
        const struct anvil_json *ts = anvil_shape_trait(smithy, s_protocol_traits[p]);
        const struct anvil_json *tb = anvil_shape_trait(boto->service, s_protocol_traits[p]);
        if (ts) {
            char vs[128], vb[128];
            snprintf(vs, sizeof vs, "%s%s", s_protocol_traits[p],
                     anvil_json_bool(anvil_json_object_get_cstr(ts, "noErrorWrapping")) ? " noErrorWrapping" : "");
            snprintf(vb, sizeof vb, "%s%s", tb ? s_protocol_traits[p] : "-",
                     anvil_json_bool(anvil_json_object_get_cstr(tb, "noErrorWrapping")) ? " noErrorWrapping" : "");
            s_result(x, C_PROTOCOL, "service", vs, vb);
        }
    }
    char vs[64], vb[64];
    s_version(smithy_model, smithy, vs, sizeof vs);
    s_version(boto->model, boto->service, vb, sizeof vb);
    s_result(x, C_VERSION, "service", vs, vb);
    struct s_pair pair = {x, boto->model, boto->service};
    anvil_service_operations(smithy_model, smithy, s_visit, &pair, NULL);
    anvil_json_doc_destroy(doc);
    x->boto_shapes = NULL;
}

static void s_cross(struct s_cross *x, struct s_run *r, const char *dir) {
    DIR *d = opendir(dir);
    if (!d) {
        printf("FAIL: cannot read %s\n", dir);
        x->failed++;
        return;
    }
    char **names = NULL;
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0) {
            names = realloc(names, (count + 1) * sizeof(*names));
            names[count++] = strdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, count, sizeof(*names), s_compare_names);
    for (size_t i = 0; i < count; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len;
        char *text = anvil_test_read_file(path, &len);
        struct anvil_model *model = NULL;
        struct anvil_diag diag;
        if (!text || anvil_model_load(NULL, text, len, NULL, &model, &diag) != ANVIL_OK) {
            printf("FAIL %s: does not load\n", path);
            x->failed++;
            free(text);
            free(names[i]);
            continue;
        }
        free(text);
        const struct anvil_shape *smithy = s_service_of(model);
        struct anvil_aws_service aws;
        anvil_service_aws(smithy, &aws);
        const struct s_service *match = NULL;
        for (size_t k = 0; k < r->count && !match; k++) {
            struct anvil_aws_service b;
            anvil_service_aws(r->services[k].service, &b);
            match = anvil_sv_eq(b.sdk_id, aws.sdk_id) ? &r->services[k] : NULL;
        }
        if (match) {
            s_cross_one(x, model, smithy, match);
        } else {
            printf("skip %s: no botocore service has SDK id `%.*s`\n", names[i], (int)aws.sdk_id.len, aws.sdk_id.ptr);
        }
        anvil_model_destroy(model);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s BOTOCORE_DATA_DIR [SMITHY_MODELS_DIR [KNOWN]]\n", argv[0]);
        return 2;
    }
    struct s_run r = {0};
    DIR *d = opendir(argv[1]);
    char **names = NULL;
    size_t count = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] != '.') {
            names = realloc(names, (count + 1) * sizeof(*names));
            names[count++] = strdup(e->d_name);
        }
    }
    if (d) {
        closedir(d);
    }
    qsort(names, count, sizeof(*names), s_compare_names);
    for (size_t i = 0; i < count; i++) {
        s_load(&r, argv[1], names[i]);
        free(names[i]);
    }
    free(names);
    if (r.count == 0) {
        printf("FAIL: no service-2.json under %s (scripts/deps installs python3-botocore)\n", argv[1]);
        r.failed++;
    }
    printf("botocore service-2: %zu services, %zu shapes, %zu operations\n", r.count, r.shapes, r.operations);
    printf("by protocol (the first the service lists):");
    for (size_t p = 0; p < S_PROTOCOLS; p++) {
        printf(" %s %zu", strchr(s_protocol_traits[p], '#') + 1, r.by_protocol[p]);
    }
    printf("; %zu list more than one\n", r.multi_protocol);
    struct s_cross x = {0};
    if (argc >= 3) {
        s_known_load(&x.known, argc >= 4 ? argv[3] : NULL);
        s_cross(&x, &r, argv[2]);
        printf("cross-check: %zu services, %zu operations, %zu members in both\n", x.services, x.operations, x.members);
        for (int c = 0; c < C_COUNT; c++) {
            printf("  %-16s %7zu agree, %zu differ, %zu explained", s_check_names[c], x.agree[c], x.differ[c],
                   x.explained[c]);
            printf(x.silent[c] ? ", %zu botocore does not say\n" : "\n", x.silent[c]);
        }
        printf("  (%zu @http differences are botocore's trailing '/' or the Smithy S3 model's x-id query)\n",
               x.uri_rules);
        for (size_t i = 0; i < x.known.count; i++) {
            if (!x.known.used[i]) {
                printf("UNUSED known difference: %s\n", x.known.lines[i]);
            }
            free(x.known.lines[i]);
        }
        free(x.known.lines);
        free(x.known.used);
        free((void *)x.seen);
        free(x.queue);
    }
    for (size_t i = 0; i < r.count; i++) {
        anvil_model_destroy(r.services[i].model);
    }
    free(r.services);
    printf("%zu failed\n", r.failed + x.failed);
    return r.failed + x.failed == 0 ? 0 : 1;
}
