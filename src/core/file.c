/* Opening and reading files the library reads itself (models, config, credential files). */

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "anvil/buffer.h"
#include "anvil/status.h"
#include "core/core_internal.h"

int anvil__open_regular(const char *path, int *fd) {
    *fd = -1;
    /* O_NOCTTY: a terminal's path never becomes a session leader's controlling terminal. */
    int f = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (f < 0) {
        return errno ? errno : EIO;
    }
    struct stat st;
    if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(f);
        return -1;
    }
    *fd = f;
    return 0;
}

int anvil__read_fd(int fd, size_t max, struct anvil_buf *out) {
    char chunk[65536];
    for (;;) {
        ssize_t got = read(fd, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            return ANVIL_EIO;
        }
        if (got == 0) {
            return ANVIL_OK;
        }
        if (out->len > max || (size_t)got > max - out->len) {
            return ANVIL_ELIMIT;
        }
        int rc = anvil_buf_append(out, chunk, (size_t)got);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
}
