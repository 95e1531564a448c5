/*
 * libFuzzer target: the endpoint rules engine (include/anvil/endpoint.h).
 *
 * Input: one JSON document {"ruleSet": {...}, "params": {...}} (a document
 * with no "ruleSet" member is compiled as the rule set itself, with no
 * params, so a botocore endpoint-rule-set-1.json is an input as it is).
 * Not JSON: nothing to do.
 *
 * The rule set is compiled (small limits, so depth and size limits are
 * crossed too): it must compile or answer EMODEL, ELIMIT or ESYNTAX with a
 * message and no rules. Compiled, its parameter table must be consistent
 * (every parameter found again by its name), and it is resolved with the
 * params twice, by name (anvil_endpoint_resolve_object) and, for the
 * declared names, by index (anvil_endpoint_resolve): each must answer OK,
 * ECONFIG, EINVAL or ELIMIT. On OK the URL must be valid UTF-8, headers and
 * properties objects that the JSON writer accepts, and the rule's path
 * printable; an error's message must be valid UTF-8. When the params name
 * only declared parameters, both ways must give the same answer.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "anvil/endpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "endpoint_rules fuzz: %s\n", what);
        abort();
    }
}

/* Strict UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF. */
static bool s_utf8(const char *p, size_t len) {
    const unsigned char *s = (const unsigned char *)p;
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i], cp, min;
        size_t n;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            n = 1, cp = c & 0x1F, min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2, cp = c & 0x0F, min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3, cp = c & 0x07, min = 0x10000;
        } else {
            return false;
        }
        if (len - i <= n) {
            return false;
        }
        for (size_t k = 1; k <= n; k++) {
            if ((s[i + k] & 0xC0) != 0x80) {
                return false;
            }
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return false;
        }
        i += n + 1;
    }
    return true;
}

static bool s_message_ok(const struct anvil_diag *diag) {
    const char *end = memchr(diag->message, '\0', sizeof diag->message);
    size_t len = end ? (size_t)(end - diag->message) : sizeof diag->message;
    return len > 0 && len < sizeof diag->message && s_utf8(diag->message, len);
}

static bool s_writes(const struct anvil_json *v) {
    struct anvil_buf buf;
    anvil_buf_init(&buf, NULL, 0);
    int rc = anvil_json_write(v, ANVIL_JSON_WRITE_COMPACT, &buf);
    anvil_buf_clean_up(&buf);
    return rc == ANVIL_OK;
}

struct s_answer {
    int rc;
    struct anvil_endpoint ep;
    struct anvil_diag diag;
};

static void s_check_answer(const struct anvil_endpoint_rules *rules, const struct s_answer *a) {
    s_check(a->rc == ANVIL_OK || a->rc == ANVIL_ECONFIG || a->rc == ANVIL_EINVAL || a->rc == ANVIL_ELIMIT,
            "resolve answered a status it must not");
    if (a->rc != ANVIL_OK) {
        s_check(s_message_ok(&a->diag), "a resolve error without a valid UTF-8 message");
        return;
    }
    s_check(a->ep.url.ptr != NULL || a->ep.url.len == 0, "a URL of no bytes");
    s_check(s_utf8(a->ep.url.ptr, a->ep.url.len), "a URL that is not valid UTF-8");
    s_check(anvil_json_is_object(&a->ep.headers) && s_writes(&a->ep.headers), "headers not a writable object");
    s_check(anvil_json_is_object(&a->ep.properties) && s_writes(&a->ep.properties), "properties not a writable object");
    for (size_t i = 0; i < anvil_json_len(&a->ep.headers); i++) {
        const struct anvil_json *values = &anvil_json_object_at(&a->ep.headers, i)->value;
        s_check(anvil_json_is_array(values), "a header's values not an array");
        for (size_t k = 0; k < anvil_json_len(values); k++) {
            s_check(anvil_json_is_string(anvil_json_array_at(values, k)), "a header value not a string");
        }
    }
    char path[256];
    memset(path, 'x', sizeof path);
    anvil_endpoint_rule_path(rules, a->ep.rule, path, sizeof path);
    s_check(memchr(path, '\0', sizeof path) != NULL, "a rule path not NUL-terminated");
}

static bool s_same(const struct s_answer *a, const struct s_answer *b) {
    if (a->rc != b->rc) {
        return false;
    }
    if (a->rc == ANVIL_OK) {
        return anvil_sv_eq(a->ep.url, b->ep.url) && anvil_json_equal(&a->ep.headers, &b->ep.headers) &&
               anvil_json_equal(&a->ep.properties, &b->ep.properties) && a->ep.rule == b->ep.rule;
    }
    return a->rc != ANVIL_ECONFIG || strcmp(a->diag.message, b->diag.message) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct anvil_json_doc *doc = NULL;
    if (anvil_json_parse(NULL, (const char *)data, size, NULL, &doc, NULL) != ANVIL_OK) {
        return 0;
    }
    const struct anvil_json *root = anvil_json_doc_root(doc);
    const struct anvil_json *rule_set = anvil_json_object_get_cstr(root, "ruleSet");
    const struct anvil_json *params = anvil_json_object_get_cstr(root, "params");
    struct anvil_json empty_params = {ANVIL_JSON_OBJECT, {0}};
    if (!rule_set) {
        rule_set = root;
        params = NULL;
    }
    if (!params) {
        params = &empty_params;
    }

    struct anvil_endpoint_rules_options options = {.max_depth = 32, .max_nodes = 100000};
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_diag diag;
    int rc = anvil_endpoint_rules_compile(NULL, rule_set, &options, &rules, &diag);
    if (rc != ANVIL_OK) {
        s_check(rc == ANVIL_EMODEL || rc == ANVIL_ELIMIT || rc == ANVIL_ESYNTAX,
                "compile answered a status it must not");
        s_check(s_message_ok(&diag), "a compile error without a valid UTF-8 message");
        s_check(rules == NULL, "a compile error with rules");
        anvil_json_doc_destroy(doc);
        return 0;
    }
    s_check(rules != NULL, "compiled but no rules");

    /* The parameter table. */
    size_t count = anvil_endpoint_rules_param_count(rules);
    for (size_t i = 0; i < count; i++) {
        const struct anvil_endpoint_param *p = anvil_endpoint_rules_param_at(rules, i);
        s_check(p != NULL, "a parameter under the count missing");
        s_check(s_utf8(p->name.ptr, p->name.len), "a parameter name not valid UTF-8");
        s_check(anvil_endpoint_rules_param_index(rules, p->name) == (long)i, "a parameter not found by its name");
        s_check(p->type == ANVIL_ENDPOINT_PARAM_STRING || p->type == ANVIL_ENDPOINT_PARAM_BOOLEAN ||
                    p->type == ANVIL_ENDPOINT_PARAM_STRING_ARRAY,
                "a parameter of no type");
    }
    s_check(anvil_endpoint_rules_param_at(rules, count) == NULL, "a parameter past the count");

    /* By name, then by index. */
    struct anvil_arena *by_name = NULL, *by_index = NULL;
    struct anvil_arena_options arena_options = {.max_bytes = 64 << 20};
    if (anvil_arena_new(NULL, &arena_options, &by_name) != ANVIL_OK ||
        anvil_arena_new(NULL, &arena_options, &by_index) != ANVIL_OK) {
        abort();
    }
    static struct s_answer a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.rc = anvil_endpoint_resolve_object(rules, params, by_name, &a.ep, &a.diag);
    s_check_answer(rules, &a);

    struct anvil_json *values = calloc(count ? count : 1, sizeof *values);
    if (!values) {
        abort();
    }
    bool all_declared = anvil_json_is_object(params);
    for (size_t i = 0; i < anvil_json_len(params); i++) {
        const struct anvil_json_member *m = anvil_json_object_at(params, i);
        long at = anvil_endpoint_rules_param_index(rules, anvil_json_member_key(m));
        if (at < 0) {
            all_declared = false;
        } else {
            values[at] = m->value;
        }
    }
    b.rc = anvil_endpoint_resolve(rules, values, count, by_index, &b.ep, &b.diag);
    s_check_answer(rules, &b);
    if (all_declared) {
        s_check(s_same(&a, &b), "resolving by name and by index disagree");
    }
    free(values);
    anvil_arena_destroy(by_name);
    anvil_arena_destroy(by_index);
    anvil_endpoint_rules_destroy(rules);
    anvil_json_doc_destroy(doc);
    return 0;
}
