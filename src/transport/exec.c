/*
 * The exec transport: posix_spawnp with three pipes, one poll loop that
 * feeds stdin and drains stdout and stderr (so neither side can block the
 * other), an output cap, and a deadline that kills the command.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "anvil/exec.h"

extern char **environ;

void anvil_exec_result_clean_up(struct anvil_exec_result *result) {
    if (result) {
        anvil_buf_clean_up(&result->out);
        anvil_buf_clean_up(&result->err);
    }
}

static void s_close(int *fd) {
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

/* Pipes for the child's stdin, stdout and stderr: [i][0] read end, [i][1] write end. */
static int s_pipes(int fds[3][2]) {
    for (int i = 0; i < 3; i++) {
        fds[i][0] = fds[i][1] = -1;
    }
    for (int i = 0; i < 3; i++) {
        if (pipe(fds[i]) != 0) {
            return errno;
        }
        /* No end leaks into the command (dup2 onto 0, 1 and 2 clears the flag there) or other children. */
        int ours = i == 0 ? fds[i][1] : fds[i][0];
        if (fcntl(fds[i][0], F_SETFD, FD_CLOEXEC) != 0 || fcntl(fds[i][1], F_SETFD, FD_CLOEXEC) != 0 ||
            fcntl(ours, F_SETFL, O_NONBLOCK) != 0) {
            return errno;
        }
    }
    return 0;
}

static int s_spawn(char *const argv[], int fds[3][2], pid_t *pid) {
    posix_spawn_file_actions_t actions;
    int err = posix_spawn_file_actions_init(&actions);
    if (err != 0) {
        return err;
    }
    err = posix_spawn_file_actions_adddup2(&actions, fds[0][0], STDIN_FILENO);
    if (err == 0) {
        err = posix_spawn_file_actions_adddup2(&actions, fds[1][1], STDOUT_FILENO);
    }
    if (err == 0) {
        err = posix_spawn_file_actions_adddup2(&actions, fds[2][1], STDERR_FILENO);
    }
    if (err == 0) {
        err = posix_spawnp(pid, argv[0], &actions, NULL, argv, environ);
    }
    posix_spawn_file_actions_destroy(&actions);
    return err;
}

/* Reads what is there from `*fd` into `buf`; closes it at end of file. */
static int s_drain(int *fd, struct anvil_buf *buf) {
    char chunk[16384];
    for (;;) {
        ssize_t n = read(*fd, chunk, sizeof chunk);
        if (n > 0) {
            int rc = anvil_buf_append(buf, chunk, (size_t)n);
            if (rc != ANVIL_OK) {
                return rc;
            }
            continue;
        }
        if (n == 0) {
            s_close(fd);
        } else if (errno == EINTR) {
            continue;
        } else if (errno != EAGAIN && errno != EWOULDBLOCK) {
            s_close(fd);
        }
        return ANVIL_OK;
    }
}

/* Writes what the pipe takes; closes stdin once everything is written or the reader has gone. */
static void s_feed(int *fd, const char *in, size_t in_len, size_t *written) {
    while (*written < in_len) {
        ssize_t n = write(*fd, in + *written, in_len - *written);
        if (n > 0) {
            *written += (size_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        } else {
            break; /* EPIPE: the command does not read its input */
        }
    }
    s_close(fd);
}

struct s_io {
    int in, out, err;
    const char *data;
    size_t len, written;
};

/* Runs the poll loop until both outputs are closed, the deadline passes or a buffer is full. */
static int s_pump(struct s_io *io, struct anvil_exec_result *result, const struct anvil_exec_options *o) {
    const struct anvil_env *env = o->env;
    while (io->out >= 0 || io->err >= 0) {
        int timeout = 1000;
        if (o->deadline_ms) {
            uint64_t now = anvil_env_now_ms(env);
            if (now >= o->deadline_ms) {
                return ANVIL_ETIMEDOUT;
            }
            if (o->deadline_ms - now < (uint64_t)timeout) {
                timeout = (int)(o->deadline_ms - now);
            }
        }
        struct pollfd p[3] = {{io->in, POLLOUT, 0}, {io->out, POLLIN, 0}, {io->err, POLLIN, 0}};
        int n = poll(p, 3, timeout);
        if (n < 0 && errno != EINTR) {
            return ANVIL_EIO;
        }
        if (n <= 0) {
            continue;
        }
        if (io->in >= 0 && (p[0].revents & (POLLOUT | POLLERR | POLLHUP))) {
            s_feed(&io->in, io->data, io->len, &io->written);
        }
        int rc = ANVIL_OK;
        if (io->out >= 0 && (p[1].revents & (POLLIN | POLLERR | POLLHUP))) {
            rc = s_drain(&io->out, &result->out);
        }
        if (rc == ANVIL_OK && io->err >= 0 && (p[2].revents & (POLLIN | POLLERR | POLLHUP))) {
            rc = s_drain(&io->err, &result->err);
        }
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    return ANVIL_OK;
}

static void s_reap(pid_t pid, bool kill_first, struct anvil_exec_result *result) {
    if (kill_first) {
        kill(pid, SIGKILL);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) {
        result->exit_status = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        result->signal = WTERMSIG(status);
    }
}

int anvil_exec_run(struct anvil_allocator *allocator, char *const argv[], const char *in, size_t in_len,
                   const struct anvil_exec_options *options, struct anvil_exec_result *result,
                   struct anvil_diag *diag) {
    if (!result) {
        return ANVIL_EINVAL;
    }
    struct anvil_exec_options o = options ? *options : (struct anvil_exec_options){0};
    size_t cap = o.max_output_bytes ? o.max_output_bytes : ANVIL_EXEC_DEFAULT_MAX_OUTPUT;
    memset(result, 0, sizeof *result);
    result->exit_status = -1;
    anvil_buf_init(&result->out, allocator, cap);
    anvil_buf_init(&result->err, allocator, cap);
    if (!argv || !argv[0]) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "no command to run");
    }
    /* Writing to a command that stopped reading must give EPIPE, not kill us. */
    sigset_t pipe_set, old_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);

    int fds[3][2];
    pid_t pid = 0;
    int err = s_pipes(fds);
    if (err == 0) {
        err = s_spawn(argv, fds, &pid);
    }
    /* The child's ends belong to the child now. */
    s_close(&fds[0][0]);
    s_close(&fds[1][1]);
    s_close(&fds[2][1]);
    struct s_io io = {fds[0][1], fds[1][0], fds[2][0], in, in ? in_len : 0, 0};
    int rc = ANVIL_OK;
    if (err != 0) {
        rc = anvil_diag_set(diag, ANVIL_EIO, 0, 0, 0, "cannot run `%s`: %s", argv[0], strerror(err));
    } else {
        if (io.len == 0) {
            s_close(&io.in);
        }
        rc = s_pump(&io, result, &o);
        s_reap(pid, rc != ANVIL_OK, result);
        if (rc == ANVIL_ETIMEDOUT) {
            anvil_diag_set(diag, rc, 0, 0, 0, "`%s` was still running at the deadline and was killed", argv[0]);
        } else if (rc == ANVIL_ELIMIT) {
            anvil_diag_set(diag, rc, 0, 0, 0, "`%s` wrote more than %zu bytes and was killed", argv[0], cap);
        }
    }
    s_close(&io.in);
    s_close(&io.out);
    s_close(&io.err);

    /* Consume a SIGPIPE our writes raised (unless one was already pending), then restore the mask. */
    sigset_t pending;
    sigpending(&pending);
    if (sigismember(&pending, SIGPIPE) && !sigismember(&old_set, SIGPIPE)) {
        int sig;
        sigwait(&pipe_set, &sig);
    }
    pthread_sigmask(SIG_SETMASK, &old_set, NULL);
    return rc;
}
