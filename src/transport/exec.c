/*
 * The exec transport: posix_spawnp into a process group of its own, with
 * three pipes, one poll loop that feeds stdin and drains stdout and stderr
 * (so neither side can block the other), an output cap, a deadline and a
 * cancel flag that kill the whole group, and the child's exit watched in the
 * same loop, so nothing the command leaves behind can hold the caller past
 * the deadline.
 */

#define _DEFAULT_SOURCE /* syscall() */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "anvil/exec.h"

extern char **environ;

/* The longest single poll while a cancel flag may be set, so a flag set just before poll() is seen in time. */
#define S_CANCEL_SLICE_MS 50
/* Without a pidfd, how often at most the child's exit is checked while its pipes stay open (backing off from 1 ms). */
#define S_EXIT_CHECK_MAX_MS 50
/* After the command exited: at most what a pipe can hold (Linux's pipe-max-size), whatever keeps writing. */
#define S_LEFT_IN_PIPE_MAX ((size_t)1 << 20)
/* How long a killed group's leader gets to be reaped before it is left to the system. */
#define S_REAP_AFTER_KILL_MS 1000

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

/*
 * The command starts in a process group of its own (so the group can be
 * killed with everything it started), with the caller's signal mask from
 * before SIGPIPE was blocked, and with the signals a caller may ignore or
 * catch back at their defaults (an ignored SIGPIPE would survive exec and
 * break the command's own pipelines).
 */
static int s_spawn(char *const argv[], int fds[3][2], const sigset_t *mask, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    int err = posix_spawn_file_actions_init(&actions);
    if (err != 0) {
        return err;
    }
    err = posix_spawnattr_init(&attr);
    if (err != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return err;
    }
    sigset_t defaults;
    sigemptyset(&defaults);
    static const int signals[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        sigaddset(&defaults, signals[i]);
    }
    err = posix_spawn_file_actions_adddup2(&actions, fds[0][0], STDIN_FILENO);
    if (err == 0) {
        err = posix_spawn_file_actions_adddup2(&actions, fds[1][1], STDOUT_FILENO);
    }
    if (err == 0) {
        err = posix_spawn_file_actions_adddup2(&actions, fds[2][1], STDERR_FILENO);
    }
    if (err == 0) {
        err = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    }
    if (err == 0) {
        err = posix_spawnattr_setpgroup(&attr, 0);
    }
    if (err == 0) {
        err = posix_spawnattr_setsigmask(&attr, mask);
    }
    if (err == 0) {
        err = posix_spawnattr_setsigdefault(&attr, &defaults);
    }
    if (err == 0) {
        err = posix_spawnp(pid, argv[0], &actions, &attr, argv, environ);
    }
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    return err;
}

/* A descriptor that polls readable when `pid` exits (Linux 5.3+), or -1 where there is none. */
static int s_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
    long fd = syscall(SYS_pidfd_open, pid, 0);
    if (fd >= 0) {
        fcntl((int)fd, F_SETFD, FD_CLOEXEC);
        return (int)fd;
    }
#else
    (void)pid;
#endif
    return -1;
}

/* Reads what is there from `*fd` into `buf`, at most `limit` bytes; closes it at end of file. */
static int s_drain(int *fd, struct anvil_buf *buf, size_t limit) {
    char chunk[16384];
    for (size_t got = 0; got < limit;) {
        ssize_t n = read(*fd, chunk, sizeof chunk);
        if (n > 0) {
            int rc = anvil_buf_append(buf, chunk, (size_t)n);
            if (rc != ANVIL_OK) {
                return rc;
            }
            got += (size_t)n;
            continue;
        }
        if (n == 0) {
            s_close(fd);
        } else if (errno == EINTR) {
            continue;
        } else if (errno != EAGAIN && errno != EWOULDBLOCK) {
            s_close(fd);
        }
        break;
    }
    return ANVIL_OK;
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

struct s_run {
    pid_t pid;
    int pidfd;
    /* The child has been reaped (its status is in the result). */
    bool reaped;
    int in, out, err;
    const char *data;
    size_t len, written;
    /* The next wait for the child's exit without a pidfd (backs off while its pipes stay open). */
    int exit_check_ms;
};

static void s_record(int status, struct anvil_exec_result *result) {
    if (WIFEXITED(status)) {
        result->exit_status = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        result->signal = WTERMSIG(status);
    }
}

/* Reaps the child if it has exited: ANVIL_OK (see run->reaped), or ANVIL_EIO when it cannot be waited for. */
static int s_try_reap(struct s_run *run, struct anvil_exec_result *result) {
    int status = 0;
    pid_t got;
    while ((got = waitpid(run->pid, &status, WNOHANG)) < 0 && errno == EINTR) {
    }
    if (got == run->pid) {
        s_record(status, result);
        run->reaped = true;
    } else if (got < 0) {
        /* ECHILD: someone else reaped it (SIGCHLD ignored, or a foreign waitpid(-1)); its status is lost. */
        run->reaped = true;
        return ANVIL_EIO;
    }
    return ANVIL_OK;
}

/* Kills the command's whole group and reaps its leader, waiting at most S_REAP_AFTER_KILL_MS for it. */
static void s_kill(struct s_run *run, struct anvil_exec_result *result) {
    kill(-run->pid, SIGKILL);
    for (int waited = 0, step = 1; !run->reaped; waited += step, step = step < 64 ? step * 2 : step) {
        if (s_try_reap(run, result) != ANVIL_OK || run->reaped || waited >= S_REAP_AFTER_KILL_MS) {
            return; /* a process stuck in the kernel is left to the system rather than hold the caller */
        }
        poll(NULL, 0, step);
    }
}

/* How long the next poll may block: the deadline, a cancel flag's slice, the exit check without a pidfd. */
static int s_timeout(const struct s_run *run, const struct anvil_exec_options *o, uint64_t now) {
    int timeout = -1;
    if (o->deadline_ms) {
        uint64_t left = o->deadline_ms - now;
        timeout = left > INT32_MAX ? INT32_MAX : (int)left;
    }
    if (o->cancel && (timeout < 0 || timeout > S_CANCEL_SLICE_MS)) {
        timeout = S_CANCEL_SLICE_MS;
    }
    if (run->pidfd < 0 && (timeout < 0 || timeout > run->exit_check_ms)) {
        timeout = run->exit_check_ms;
    }
    return timeout;
}

/*
 * Runs until the command has exited and its outputs are read, the deadline
 * passes, the cancel flag is set or a buffer is full. Once the command has
 * exited, what it wrote is already in the pipes: that is read without
 * waiting for end of file, which anything it left running could hold off.
 */
static int s_pump(struct s_run *run, struct anvil_exec_result *result, const struct anvil_exec_options *o) {
    for (;;) {
        if (o->cancel && *o->cancel) {
            return ANVIL_ECANCELED;
        }
        uint64_t now = o->deadline_ms ? anvil_env_now_ms(o->env) : 0;
        if (o->deadline_ms && now >= o->deadline_ms) {
            return ANVIL_ETIMEDOUT;
        }
        if (!run->reaped && (run->pidfd < 0 || (run->out < 0 && run->err < 0))) {
            if (s_try_reap(run, result) != ANVIL_OK) {
                return ANVIL_EIO;
            }
        }
        if (run->reaped) {
            int rc = run->out >= 0 ? s_drain(&run->out, &result->out, S_LEFT_IN_PIPE_MAX) : ANVIL_OK;
            if (rc == ANVIL_OK && run->err >= 0) {
                rc = s_drain(&run->err, &result->err, S_LEFT_IN_PIPE_MAX);
            }
            return rc;
        }
        struct pollfd p[4] = {
            {run->in, POLLOUT, 0}, {run->out, POLLIN, 0}, {run->err, POLLIN, 0}, {run->pidfd, POLLIN, 0}};
        int n = poll(p, 4, s_timeout(run, o, now));
        if (n < 0 && errno != EINTR) {
            return ANVIL_EIO;
        }
        if (n <= 0) {
            if (run->exit_check_ms < S_EXIT_CHECK_MAX_MS) {
                run->exit_check_ms *= 2;
            }
            continue;
        }
        if (run->in >= 0 && (p[0].revents & (POLLOUT | POLLERR | POLLHUP))) {
            s_feed(&run->in, run->data, run->len, &run->written);
        }
        int rc = ANVIL_OK;
        if (run->out >= 0 && (p[1].revents & (POLLIN | POLLERR | POLLHUP))) {
            rc = s_drain(&run->out, &result->out, SIZE_MAX);
        }
        if (rc == ANVIL_OK && run->err >= 0 && (p[2].revents & (POLLIN | POLLERR | POLLHUP))) {
            rc = s_drain(&run->err, &result->err, SIZE_MAX);
        }
        if (rc != ANVIL_OK) {
            return rc;
        }
        if (p[3].revents && (rc = s_try_reap(run, result)) != ANVIL_OK) {
            return ANVIL_EIO;
        }
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
    if (o.cancel && *o.cancel) {
        return anvil_diag_set(diag, ANVIL_ECANCELED, 0, 0, 0, "cancelled before `%s` was started", argv[0]);
    }
    /* Writing to a command that stopped reading must give EPIPE, not kill us. */
    sigset_t pipe_set, old_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);

    int fds[3][2];
    struct s_run run = {.pid = 0, .pidfd = -1, .exit_check_ms = 1};
    int err = s_pipes(fds);
    if (err == 0) {
        err = s_spawn(argv, fds, &old_set, &run.pid);
    }
    /* The child's ends belong to the child now. */
    s_close(&fds[0][0]);
    s_close(&fds[1][1]);
    s_close(&fds[2][1]);
    run.in = fds[0][1];
    run.out = fds[1][0];
    run.err = fds[2][0];
    run.data = in;
    run.len = in ? in_len : 0;
    int rc = ANVIL_OK;
    if (err != 0) {
        rc = anvil_diag_set(diag, ANVIL_EIO, 0, 0, 0, "cannot run `%s`: %s", argv[0], strerror(err));
    } else {
        run.pidfd = s_pidfd(run.pid);
        if (run.len == 0) {
            s_close(&run.in);
        }
        rc = s_pump(&run, result, &o);
        if (!run.reaped) {
            s_kill(&run, result);
            /* What it said before it was killed (often why it hung) is kept. */
            if (run.out >= 0) {
                (void)s_drain(&run.out, &result->out, S_LEFT_IN_PIPE_MAX);
            }
            if (run.err >= 0) {
                (void)s_drain(&run.err, &result->err, S_LEFT_IN_PIPE_MAX);
            }
        }
        if (rc == ANVIL_ETIMEDOUT) {
            anvil_diag_set(diag, rc, 0, 0, 0, "`%s` was still running at the deadline and was killed", argv[0]);
        } else if (rc == ANVIL_ECANCELED) {
            anvil_diag_set(diag, rc, 0, 0, 0, "cancelled: `%s` was killed", argv[0]);
        } else if (rc == ANVIL_ELIMIT) {
            anvil_diag_set(diag, rc, 0, 0, 0, "`%s` wrote more than %zu bytes and was killed", argv[0], cap);
        } else if (rc == ANVIL_EIO) {
            anvil_diag_set(diag, rc, 0, 0, 0, "lost track of `%s` (is SIGCHLD ignored?)", argv[0]);
        }
    }
    s_close(&run.pidfd);
    s_close(&run.in);
    s_close(&run.out);
    s_close(&run.err);

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
