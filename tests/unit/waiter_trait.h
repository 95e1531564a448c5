/* Waiters from the JSON text of a smithy.waiters#waitable trait, for the waiter tests. */
#ifndef ANVIL_TESTS_WAITER_TRAIT_H
#define ANVIL_TESTS_WAITER_TRAIT_H

#include <string.h>

#include "harness.h"

/* The waiters of `json` (polling "ex#Op"), allocated through the test's counting allocator. */
static inline int waiter_trait_set(struct anvil_test *t, const char *json, struct anvil_waiter_set **set) {
    struct anvil_json_doc *doc = NULL;
    int rc = anvil_json_parse(t->alloc, json, strlen(json), NULL, &doc, NULL);
    if (rc == ANVIL_OK) {
        rc = anvil_waiter_set_from_trait(t->alloc, anvil_json_doc_root(doc), ANVIL_SV("ex#Op"), set, NULL);
    }
    anvil_json_doc_destroy(doc);
    return rc;
}

#endif
