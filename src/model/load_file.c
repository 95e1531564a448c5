/* A model from a file: read whole, then assembled as one source whose format its name and text tell. */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "anvil/model.h"
#include "anvil/status.h"
#include "core/core_internal.h"

/* Larger than any service model AWS publishes (EC2's JSON AST is about 6 MB). */
#define S_MAX_BYTES (UINT64_C(256) << 20)

int anvil_model_load_file(struct anvil_allocator *allocator, const char *path,
                          const struct anvil_model_options *options, struct anvil_model **out,
                          struct anvil_diag *diag) {
    if (!path || !out) {
        return ANVIL_EINVAL;
    }
    *out = NULL;
    int fd;
    int err = anvil__open_regular(path, &fd);
    if (err) {
        return err < 0 ? anvil_diag_set(diag, ANVIL_EIO, 0, 0, 0, "%.200s: not a regular file", path)
                       : anvil_diag_set(diag, ANVIL_EIO, 0, 0, 0, "%.200s: %s", path, strerror(err));
    }
    struct anvil_buf text;
    anvil_buf_init(&text, allocator, 0);
    int rc = anvil__read_fd(fd, S_MAX_BYTES, &text);
    if (rc == ANVIL_EIO) {
        anvil_diag_set(diag, rc, 0, 0, 0, "%.200s: %s", path, strerror(errno));
    } else if (rc == ANVIL_ELIMIT) {
        anvil_diag_set(diag, rc, 0, 0, 0, "%.200s: larger than %llu bytes", path, (unsigned long long)S_MAX_BYTES);
    }
    close(fd);
    if (rc == ANVIL_OK) {
        struct anvil_model_source source = {path, text.data ? text.data : "", text.len, ANVIL_MODEL_FORMAT_AUTO};
        rc = anvil_model_assemble(allocator, &source, 1, options, out, NULL, diag);
    }
    anvil_buf_clean_up(&text);
    return rc;
}
