#include "harness.h"

TEST(fake_env_clock_moves_only_by_sleep_and_advance) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 1000, 1);
    const struct anvil_env *env = &fake.env;
    CHECK_EQ_U64(anvil_env_now_ms(env), 1000);
    CHECK_EQ_U64(anvil_env_now_ms(env), 1000);
    CHECK_OK(anvil_env_sleep_ms(env, 250));
    CHECK_EQ_U64(anvil_env_now_ms(env), 1250);
    CHECK_OK(anvil_env_sleep_ms(env, 0)); /* a zero sleep is not a sleep */
    CHECK_EQ_U64(fake.sleep_calls, 1);
    CHECK_EQ_U64(fake.slept_ms, 250);
    anvil_fake_env_advance(&fake, 50);
    CHECK_EQ_U64(anvil_env_now_ms(env), 1300);
    /* A twenty-minute sleep costs nothing. */
    CHECK_OK(anvil_env_sleep_ms(env, 20 * 60 * 1000));
    CHECK_EQ_U64(anvil_env_now_ms(env), 1300 + 1200000);
    /* Wall time is origin + monotonic. */
    CHECK_EQ_U64(anvil_env_wall_ms(env), UINT64_C(1577836800000) + 1201300);
    anvil_fake_env_advance(&fake, UINT64_MAX);
    CHECK_EQ_U64(anvil_env_now_ms(env), UINT64_MAX);
    CHECK_EQ_U64(anvil_env_wall_ms(env), UINT64_MAX);
done:;
}

struct s_hook_state {
    int calls;
    uint64_t last;
};

static void s_hook(struct anvil_fake_env *fake, uint64_t slept_ms, void *user_data) {
    struct s_hook_state *state = user_data;
    state->calls++;
    state->last = slept_ms;
    (void)fake;
}

TEST(fake_env_sleep_hook_and_cancel) {
    struct anvil_fake_env fake;
    struct s_hook_state state = {0, 0};
    anvil_fake_env_init(&fake, 0, 1);
    fake.on_sleep = s_hook;
    fake.on_sleep_user_data = &state;
    CHECK_OK(anvil_env_sleep_ms(&fake.env, 5));
    CHECK_EQ_INT(state.calls, 1);
    CHECK_EQ_U64(state.last, 5);
    fake.cancel_sleeps = true;
    CHECK_STATUS(anvil_env_sleep_ms(&fake.env, 5), ANVIL_ECANCELED);
    CHECK_EQ_U64(fake.now_ms, 5);
    CHECK_EQ_INT(state.calls, 1);
done:;
}

TEST(fake_env_random_is_deterministic_per_seed) {
    struct anvil_fake_env a, b, c;
    anvil_fake_env_init(&a, 0, 42);
    anvil_fake_env_init(&b, 0, 42);
    anvil_fake_env_init(&c, 0, 43);
    unsigned char ra[37], rb[37], rc[37];
    CHECK_OK(anvil_env_random_bytes(&a.env, ra, sizeof(ra)));
    CHECK_OK(anvil_env_random_bytes(&b.env, rb, sizeof(rb)));
    CHECK_OK(anvil_env_random_bytes(&c.env, rc, sizeof(rc)));
    CHECK(memcmp(ra, rb, sizeof(ra)) == 0);
    CHECK(memcmp(ra, rc, sizeof(ra)) != 0);
    /* Known first value of splitmix64 seeded with 0, as a regression anchor. */
    struct anvil_fake_env z;
    anvil_fake_env_init(&z, 0, 0);
    uint64_t v;
    CHECK_OK(anvil_env_random_u64(&z.env, &v));
    CHECK_EQ_U64(v, UINT64_C(0xE220A8397B1DCDAF));
    a.fail_random = true;
    CHECK_STATUS(anvil_env_random_u64(&a.env, &v), ANVIL_EIO);
done:;
}

TEST(random_range_is_inclusive_and_unbiased) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 7);
    uint64_t counts[6] = {0};
    const int draws = 60000;
    for (int i = 0; i < draws; i++) {
        uint64_t v;
        CHECK_OK(anvil_env_random_range(&fake.env, 5, 10, &v));
        CHECK(v >= 5 && v <= 10);
        counts[v - 5]++;
    }
    for (int i = 0; i < 6; i++) {
        /* Each bucket expects 10000; 9500..10500 is > 5 sigma wide. */
        CHECK(counts[i] > 9500 && counts[i] < 10500);
    }
    uint64_t v;
    CHECK_OK(anvil_env_random_range(&fake.env, 3, 3, &v));
    CHECK_EQ_U64(v, 3);
    CHECK_OK(anvil_env_random_range(&fake.env, 0, UINT64_MAX, &v));
    CHECK_STATUS(anvil_env_random_range(&fake.env, 4, 3, &v), ANVIL_EINVAL);
done:;
}

TEST(random_unit_is_in_half_open_interval) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 9);
    double sum = 0;
    for (int i = 0; i < 10000; i++) {
        double d;
        CHECK_OK(anvil_env_random_unit(&fake.env, &d));
        CHECK(d >= 0.0 && d < 1.0);
        sum += d;
    }
    CHECK(sum > 4800 && sum < 5200);
done:;
}

TEST(system_env_reads_real_clocks_without_sleeping) {
    const struct anvil_env *env = anvil_env_system();
    uint64_t a = anvil_env_now_ms(env);
    uint64_t b = anvil_env_now_ms(NULL);
    CHECK(b >= a);
    /* After 2020-01-01. */
    CHECK(anvil_env_wall_ms(NULL) > UINT64_C(1577836800000));
    unsigned char bytes[64] = {0};
    CHECK_OK(anvil_env_random_bytes(NULL, bytes, sizeof(bytes)));
    int nonzero = 0;
    for (size_t i = 0; i < sizeof(bytes); i++) {
        nonzero += bytes[i] != 0;
    }
    CHECK(nonzero > 32);
    CHECK_OK(anvil_env_sleep_ms(NULL, 0));
done:;
}
