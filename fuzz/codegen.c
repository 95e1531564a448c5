/*
 * libFuzzer target: the input as a Smithy JSON AST model given to anvil
 * gen (prefix "fz", compiled and interpreted). Errors must be typed and
 * carry a message; generated text must be valid UTF-8 with no control or
 * bidirectional characters (strings escaped, comments cleaned), and laying
 * it out again must change nothing.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "codegen/codegen_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "codegen fuzz: %s\n", what);
        abort();
    }
}

static void s_check_text(const struct anvil_buf *b) {
    /* Valid UTF-8 (comments may quote the model), no control character but newlines, no bidirectional control. */
    struct anvil_buf valid;
    anvil_buf_init(&valid, NULL, 0);
    s_check(anvil_text_append_utf8(&valid, anvil_buf_view(b), SIZE_MAX) == ANVIL_OK, "utf8");
    s_check(valid.len == b->len && memcmp(valid.data, b->data, b->len) == 0, "generated text is not valid UTF-8");
    anvil_buf_clean_up(&valid);
    for (size_t i = 0; i < b->len; i++) {
        const unsigned char *c = (const unsigned char *)b->data + i;
        s_check(*c == '\n' || (*c >= 0x20 && *c != 0x7f), "generated text has a control character");
        s_check(!(i + 1 < b->len && c[0] == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f), "generated text has a C1 control");
        s_check(!(i + 2 < b->len && c[0] == 0xe2 && (c[1] == 0x80 || c[1] == 0x81) &&
                  ((c[1] == 0x80 && c[2] >= 0xaa && c[2] <= 0xae) || (c[1] == 0x81 && c[2] >= 0xa6 && c[2] <= 0xa9))),
                "generated text has a bidirectional control");
    }
    struct anvil_buf again;
    anvil_buf_init(&again, NULL, 0);
    s_check(anvil_buf_append(&again, b->data, b->len) == ANVIL_OK, "copy");
    s_check(anvil__c_rewrap(&again, 0) == ANVIL_OK, "rewrap failed");
    s_check(again.len == b->len && memcmp(again.data, b->data, b->len) == 0, "laying out again changed the text");
    anvil_buf_clean_up(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct anvil_model *model = NULL;
    if (anvil_model_load(NULL, (const char *)data, size, NULL, &model, NULL) != ANVIL_OK) {
        return 0;
    }
    for (int interpret = 0; interpret < 2; interpret++) {
        struct anvil_buf h, c;
        anvil_buf_init(&h, NULL, 0);
        anvil_buf_init(&c, NULL, 0);
        struct anvil_codegen_options o = {"fz", NULL, NULL, interpret == 1, NULL, NULL};
        struct anvil_codegen_stats stats;
        struct anvil_diag diag;
        anvil_diag_clear(&diag);
        int rc = anvil_codegen_generate(model, &o, &h, &c, &stats, &diag);
        if (rc == ANVIL_OK) {
            s_check(stats.matchers == stats.compiled + stats.fallbacks, "matcher counts");
            s_check_text(&h);
            s_check_text(&c);
        } else {
            s_check(rc == ANVIL_EMODEL || rc == ANVIL_ELIMIT || rc == ANVIL_EINVAL, "unexpected error code");
            s_check(diag.message[0] != '\0', "error without a message");
        }
        anvil_buf_clean_up(&h);
        anvil_buf_clean_up(&c);
    }
    anvil_model_destroy(model);
    return 0;
}
