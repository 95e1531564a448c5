/* Stopping on SIGINT, SIGTERM and SIGHUP: a flag the library polls, and the exit status the signal asks for. */

#include <string.h>

#include "cli.h"

volatile sig_atomic_t cli_cancel_signal;

static void s_on_signal(int sig) {
    cli_cancel_signal = sig;
}

static const int s_signals[CLI_CAUGHT_SIGNALS] = {SIGINT, SIGTERM, SIGHUP};

void cli_signals_catch(struct cli_signals *saved) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = s_on_signal;
    sigemptyset(&action.sa_mask);
    /* No SA_RESTART: a blocking call returns EINTR and the flag is looked at. */
    for (int i = 0; i < CLI_CAUGHT_SIGNALS; i++) {
        sigaction(s_signals[i], &action, &saved->old[i]);
    }
}

void cli_signals_restore(const struct cli_signals *saved) {
    for (int i = 0; i < CLI_CAUGHT_SIGNALS; i++) {
        sigaction(s_signals[i], &saved->old[i], NULL);
    }
}

int cli_exit_for_cancel(void) {
    int sig = cli_cancel_signal;
    return sig > 0 && sig < 64 ? 128 + sig : CLI_EXIT_CANCELLED;
}
