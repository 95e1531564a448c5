/*
 * Eight threads share one retry partition. Built with -fsanitize=thread
 * (ctest retry.threads_tsan), so any data race fails the run. Each thread
 * runs operations whose net quota effect does not depend on interleaving:
 * retried-then-successful calls (the refund equals the debit) and one call
 * that runs out of attempts (-28). The quota never runs short, so the final
 * quota is exactly the sequential expectation, 500 - 8 * 28 = 276.
 */

#include <pthread.h>
#include <stdio.h>

#include "anvil/anvil.h"

enum { THREADS = 8, ROUNDS = 2000 };

static struct anvil_retry_strategy *s_strategy;

static int s_op(const struct anvil_retry_response *fail, int failures, bool succeed) {
    struct anvil_retry_token token;
    struct anvil_retry_call call = {.partition = "svc-region", .idempotent = true};
    if (anvil_retry_token_init(&token, s_strategy, &call) != ANVIL_OK) {
        return 1;
    }
    struct anvil_retry_decision d;
    int bad = 0;
    for (int i = 0; i < failures; i++) {
        anvil_retry_after_attempt(&token, 0, fail, &d);
        bad |= d.action != (i + 1 < 3 ? ANVIL_RETRY_AGAIN : ANVIL_RETRY_FAIL);
    }
    if (succeed) {
        struct anvil_retry_response ok = {.success = true, .retry_after_ms = -1};
        anvil_retry_after_attempt(&token, 0, &ok, &d);
        bad |= d.action != ANVIL_RETRY_SUCCEED;
    }
    anvil_retry_token_clean_up(&token);
    return bad;
}

static void *s_thread(void *arg) {
    (void)arg;
    struct anvil_retry_response server = {.http_status = 500, .retry_after_ms = -1};
    struct anvil_retry_response throttle = {.http_status = 400, .code = ANVIL_SV("Throttling"), .retry_after_ms = -1};
    int bad = 0;
    for (int i = 0; i < ROUNDS; i++) {
        bad |= s_op(&server, 1, true);   /* -14, then the refund +14 */
        bad |= s_op(&throttle, 1, true); /* -5, then +5 */
    }
    bad |= s_op(&server, 3, false); /* -14, -14, then max attempts: -28 */
    return bad ? (void *)1 : NULL;
}

int main(void) {
    struct anvil_retry_options o = {0};
    if (anvil_retry_strategy_new(NULL, &o, &s_strategy) != ANVIL_OK) {
        return 1;
    }
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) {
        pthread_create(&threads[i], NULL, s_thread, NULL);
    }
    int bad = 0;
    for (int i = 0; i < THREADS; i++) {
        void *r;
        pthread_join(threads[i], &r);
        bad |= r != NULL;
    }
    uint32_t want = 500 - THREADS * 28;
    uint32_t got = anvil_retry_quota(s_strategy, "svc-region");
    anvil_retry_strategy_release(s_strategy);
    printf("retry threads: %d threads x %d operations, final quota %u (want %u)\n", THREADS, ROUNDS * 2 + 1, got, want);
    return bad || got != want;
}
