/*
 * Whole processes, paired and interleaved: start-up time and peak memory of
 * anvil's commands against a peer's, measured by this harness forking and
 * exec'ing each command in turn (the order rotating round by round), with
 * wall time around fork/exec/wait and the peak resident set from wait4().
 * Each run is `rounds` executions of each; per run the medians are compared,
 * and the ratio is printed as min-median-max over the runs.
 *
 * Usage: bench_process [--smoke] [--runs N] [--rounds N] [--stdin FILE]
 *            NAME -- CMD [ARG...] [--- NAME -- CMD [ARG...]]...
 * The first command is anvil's; each later one is compared with it.
 */
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_stats.h"

#define MAX_COMMANDS 4
#define MAX_RUNS 32
#define MAX_ROUNDS 1000

struct s_command {
    const char *name;
    char **argv;
    double ms[MAX_ROUNDS];
    double median_ms[MAX_RUNS];
    long peak_kb;
};

/* One execution: wall milliseconds, and the child's peak RSS into *peak_kb (the larger kept). */
static double s_run(struct s_command *c, const char *stdin_path) {
    double start = bench_now();
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(1);
    }
    if (pid == 0) {
        int in = open(stdin_path ? stdin_path : "/dev/null", O_RDONLY);
        int out = open("/dev/null", O_WRONLY);
        if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0) {
            _exit(127);
        }
        execvp(c->argv[0], c->argv);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) != pid) {
        perror("wait4");
        exit(1);
    }
    double ms = (bench_now() - start) * 1e3;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "%s: exited %d\n", c->name, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        exit(1);
    }
    c->peak_kb = usage.ru_maxrss > c->peak_kb ? usage.ru_maxrss : c->peak_kb;
    return ms;
}

int main(int argc, char **argv) {
    bool smoke = bench_take_smoke(&argc, argv);
    int runs = bench_take_int(&argc, argv, "--runs", 5, 3, MAX_RUNS);
    int rounds = bench_take_int(&argc, argv, "--rounds", 41, 1, MAX_ROUNDS);
    const char *stdin_path = NULL;
    int at = 1;
    if (at + 1 < argc && strcmp(argv[at], "--stdin") == 0) {
        stdin_path = argv[at + 1];
        at += 2;
    }
    if (smoke) {
        runs = 1;
        rounds = 1;
    }
    struct s_command commands[MAX_COMMANDS];
    int n = 0;
    while (at < argc && n < MAX_COMMANDS) {
        if (at + 2 >= argc || strcmp(argv[at + 1], "--") != 0) {
            fprintf(stderr, "usage: bench_process [--runs N] [--rounds N] [--stdin FILE] NAME -- CMD... [--- ...]\n");
            return 2;
        }
        memset(&commands[n], 0, sizeof commands[n]);
        commands[n].name = argv[at];
        commands[n].argv = &argv[at + 2];
        at += 2;
        while (at < argc && strcmp(argv[at], "---") != 0) {
            at++;
        }
        if (at < argc) {
            argv[at++] = NULL; /* ends this command's argv */
        }
        n++;
    }
    if (n == 0) {
        return 2;
    }
    for (int run = 0; run < runs; run++) {
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < n; k++) {
                int i = (round + k) % n; /* who goes first rotates */
                commands[i].ms[round] = s_run(&commands[i], stdin_path);
            }
        }
        for (int i = 0; i < n; i++) {
            commands[i].median_ms[run] = bench_median(commands[i].ms, (size_t)rounds);
        }
    }
    if (smoke) {
        printf("process: %d commands ran\n", n);
        return 0;
    }
    printf("| command | wall time per run (median of %d, min-median-max over %d runs) | peak RSS |\n", rounds, runs);
    printf("|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        double copy[MAX_RUNS];
        memcpy(copy, commands[i].median_ms, sizeof copy);
        struct bench_range r = bench_range_of(copy, (size_t)runs);
        printf("| %s | %.2f-%.2f-%.2f ms | %.1f MB |\n", commands[i].name, r.min, r.median, r.max,
               (double)commands[i].peak_kb / 1024.0);
    }
    for (int i = 1; i < n; i++) {
        double ratios[MAX_RUNS];
        for (int run = 0; run < runs; run++) {
            ratios[run] = commands[i].median_ms[run] / commands[0].median_ms[run];
        }
        char text[64];
        printf("%s over %s (time, per run): %s\n", commands[i].name, commands[0].name,
               bench_range_text(bench_range_of(ratios, (size_t)runs), text, sizeof text));
    }
    return 0;
}
