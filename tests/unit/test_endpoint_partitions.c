/*
 * Partitions: the built-in ones through aws.partition(), loading a newer
 * file with per-region overrides, refusals, the regionRegex automaton, and
 * the embedded copy checked against the shared test data.
 */

#include "endpoint/endpoint_internal.h"
#include "test_endpoint.h"

#define PART_RULES                                                                                                     \
    "{'version':'1.1','parameters':{'R':{'type':'string','required':true}},'rules':[{'type':'endpoint',"               \
    "'conditions':[{'fn':'aws.partition','argv':[{'ref':'R'}],'assign':'p'},"                                          \
    "{'fn':'ite','argv':[{'fn':'getAttr','argv':[{'ref':'p'},'supportsFIPS']},'F','f'],'assign':'fips'},"              \
    "{'fn':'ite','argv':[{'fn':'getAttr','argv':[{'ref':'p'},'supportsDualStack']},'D','d'],'assign':'ds'}],"          \
    "'endpoint':{'url':'https://{p#name}/{p#dnsSuffix}/{p#dualStackDnsSuffix}/{p#implicitGlobalRegion}/{fips}{ds}'}}]}"

static bool s_partition_cases(struct anvil_test *t, const struct anvil_partitions *partitions,
                              const char *const (*cases)[2], size_t n) {
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    struct anvil_endpoint_rules_options opts = {.partitions = partitions};
    bool ok = false;
    int rc = ep_compile(t, &opts, &rules, &diag, PART_RULES);
    if (rc == ANVIL_OK) {
        rc = anvil_arena_new(t->alloc, NULL, &arena);
    }
    if (rc != ANVIL_OK) {
        anvil_test_status_mismatch(t, __FILE__, __LINE__, "compile", rc, ANVIL_OK);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        struct anvil_endpoint ep;
        rc = ep_resolve(t, rules, arena, &ep, &diag, "{'R':'%s'}", cases[i][0]);
        if (rc != ANVIL_OK || !ep_eq(ep.url, cases[i][1])) {
            if (!anvil_test_status_mismatch(t, __FILE__, __LINE__, "resolve", rc == ANVIL_OK ? ANVIL_EVALUE : rc,
                                            ANVIL_OK)) {
                fprintf(stderr, "  region %s: want %s, got %.*s %s\n", cases[i][0], cases[i][1], (int)ep.url.len,
                        ep.url.ptr, diag.message);
            }
            goto out;
        }
    }
    ok = true;
out:
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
    return ok || t->stopped_by_injection;
}

TEST(endpoint_partitions_builtin) {
    char long_region[520];
    memset(long_region, 'a', 500);
    strcpy(long_region + 500, "-east-1");
    const char *const cases[][2] = {
        {"us-west-2", "https://aws/amazonaws.com/api.aws/us-east-1/FD"},
        {"us-east-1", "https://aws/amazonaws.com/api.aws/us-east-1/FD"},
        /* the pseudo-regions are found by their exact names */
        {"aws-global", "https://aws/amazonaws.com/api.aws/us-east-1/FD"},
        {"aws-cn-global", "https://aws-cn/amazonaws.com.cn/api.amazonwebservices.com.cn/cn-northwest-1/FD"},
        {"aws-us-gov-global", "https://aws-us-gov/amazonaws.com/api.aws/us-gov-west-1/FD"},
        {"cn-north-1", "https://aws-cn/amazonaws.com.cn/api.amazonwebservices.com.cn/cn-northwest-1/FD"},
        {"us-gov-east-1", "https://aws-us-gov/amazonaws.com/api.aws/us-gov-west-1/FD"},
        {"us-iso-east-1", "https://aws-iso/c2s.ic.gov/api.aws.ic.gov/us-iso-east-1/FD"},
        {"us-isob-east-1", "https://aws-iso-b/sc2s.sgov.gov/api.aws.scloud/us-isob-east-1/FD"},
        {"eu-isoe-west-1", "https://aws-iso-e/cloud.adc-e.uk/api.cloud-aws.adc-e.uk/eu-isoe-west-1/FD"},
        {"us-isof-south-1", "https://aws-iso-f/csp.hci.ic.gov/api.aws.hci.ic.gov/us-isof-south-1/FD"},
        /* regions no file lists yet: by regionRegex */
        {"eusc-de-east-1", "https://aws-eusc/amazonaws.eu/api.amazonwebservices.eu/eusc-de-east-1/FD"},
        {"us-gov-north-9", "https://aws-us-gov/amazonaws.com/api.aws/us-gov-west-1/FD"},
        {"cn-south-7", "https://aws-cn/amazonaws.com.cn/api.amazonwebservices.com.cn/cn-northwest-1/FD"},
        {"mx-north-42", "https://aws/amazonaws.com/api.aws/us-east-1/FD"},
        {"us-isof-north-2", "https://aws-iso-f/csp.hci.ic.gov/api.aws.hci.ic.gov/us-isof-south-1/FD"},
        /* anything else falls back to aws */
        {"mars-east-1", "https://aws/amazonaws.com/api.aws/us-east-1/FD"},
        {"us-east-1/../x", "https://aws/amazonaws.com/api.aws/us-east-1/FD"},
        {"a..b", "https://aws/amazonaws.com/api.aws/us-east-1/FD"},
        {"", "https://aws/amazonaws.com/api.aws/us-east-1/FD"},
        {"cn-north-1-", "https://aws/amazonaws.com/api.aws/us-east-1/FD"},
        {"US-EAST-1", "https://aws/amazonaws.com/api.aws/us-east-1/FD"},
        {long_region, "https://aws/amazonaws.com/api.aws/us-east-1/FD"},
    };
    const struct anvil_partitions *builtin = anvil_partitions_builtin();
    CHECK(builtin != NULL && builtin == anvil_partitions_builtin());
    CHECK_EQ_U64(builtin->count, 8);
    CHECK(s_partition_cases(t, NULL, cases, ANVIL_ARRAY_LEN(cases)));
    /* the built-in partitions are never freed */
    anvil_partitions_destroy((struct anvil_partitions *)builtin);
    anvil_partitions_destroy(NULL);
    CHECK(s_partition_cases(t, builtin, cases, 1));
done:;
}

#define CUSTOM                                                                                                         \
    "{'version':'1.1','partitions':["                                                                                  \
    "{'id':'p1','regionRegex':'^p1\\\\-\\\\w+$','regions':{'p1-special':{'dnsSuffix':'special.example',"               \
    "'supportsFIPS':false,'description':'ignored'},'p1-plain':{},'shared':{}},"                                        \
    "'outputs':{'name':'p1','dnsSuffix':'p1.example','dualStackDnsSuffix':'ds.p1.example','supportsFIPS':true,"        \
    "'supportsDualStack':false,'implicitGlobalRegion':'p1-global'}},"                                                  \
    "{'id':'p2','regionRegex':'^(p2|q2)\\\\-[a-z]+\\\\-\\\\d+$','regions':{'shared':{'dnsSuffix':'never'}},"           \
    "'outputs':{'dnsSuffix':'p2.example','dualStackDnsSuffix':'ds.p2.example','supportsFIPS':false,"                   \
    "'supportsDualStack':true}}]}"

TEST(endpoint_partitions_load) {
    struct anvil_partitions *parts = NULL;
    struct anvil_diag diag;
    char *text = ep_q(t, CUSTOM);
    CHECK_ALLOC(text);
    CHECK_OK(anvil_partitions_load(t->alloc, text, strlen(text), &parts, &diag));
    anvil_mem_release(t->alloc, text);
    text = NULL;
    const char *const cases[][2] = {
        /* a region's own outputs override its partition's */
        {"p1-special", "https://p1/special.example/ds.p1.example/p1-global/fd"},
        {"p1-plain", "https://p1/p1.example/ds.p1.example/p1-global/Fd"},
        {"p1-other", "https://p1/p1.example/ds.p1.example/p1-global/Fd"},
        /* a region two partitions list belongs to the first */
        {"shared", "https://p1/p1.example/ds.p1.example/p1-global/Fd"},
        /* the partition's id is its name when its outputs give none; no implicit global region: empty */
        {"q2-west-7", "https://p2/p2.example/ds.p2.example//fD"},
        /* without an "aws" partition, the first takes unknown regions */
        {"elsewhere", "https://p1/p1.example/ds.p1.example/p1-global/Fd"},
    };
    CHECK(s_partition_cases(t, parts, cases, ANVIL_ARRAY_LEN(cases)));
done:
    anvil_mem_release(t->alloc, text);
    anvil_partitions_destroy(parts);
}

/* Loading the shared test data's partitions.json gives what the built-in copy gives. */
TEST(endpoint_partitions_load_file) {
    struct anvil_partitions *parts = NULL;
    struct anvil_diag diag;
    CHECK_OK(anvil_partitions_load(t->alloc, anvil__partitions_json, anvil__partitions_json_len, &parts, &diag));
    CHECK_EQ_U64(parts->count, 8);
    const char *const cases[][2] = {
        {"us-west-2", "https://aws/amazonaws.com/api.aws/us-east-1/FD"},
        {"eusc-de-east-1", "https://aws-eusc/amazonaws.eu/api.amazonwebservices.eu/eusc-de-east-1/FD"},
    };
    CHECK(s_partition_cases(t, parts, cases, ANVIL_ARRAY_LEN(cases)));
done:
    anvil_partitions_destroy(parts);
}

TEST(endpoint_partitions_refused) {
    static const struct {
        const char *text;
        int status;
        const char *message;
    } cases[] = {
        {"{", ANVIL_ESYNTAX, NULL},
        {"[]", ANVIL_EMODEL, "partitions: the document must be an object"},
        {"{'version':'2.0','partitions':[]}", ANVIL_EMODEL, "partitions: unsupported version (anvil reads 1.x)"},
        {"{'partitions':[]}", ANVIL_EMODEL, "partitions: `partitions` must be a non-empty array"},
        {"{'partitions':{}}", ANVIL_EMODEL, "partitions: `partitions` must be a non-empty array"},
        {"{'partitions':[{'outputs':{}}]}", ANVIL_EMODEL, "partitions: partitions[0] needs an `id` string"},
        {"{'partitions':[{'id':'a'}]}", ANVIL_EMODEL, "partitions: partition `a` needs an `outputs` object"},
        {"{'partitions':[{'id':'a','outputs':{}},{'id':'a','outputs':{}}]}", ANVIL_EMODEL,
         "partitions: partition `a` is listed twice"},
        {"{'partitions':[{'id':'a','outputs':{'dnsSuffix':1}}]}", ANVIL_EMODEL,
         "partitions: partition `a`: `dnsSuffix` must be a string"},
        {"{'partitions':[{'id':'a','outputs':{'supportsFIPS':'yes'}}]}", ANVIL_EMODEL,
         "partitions: partition `a`: `supportsFIPS` must be a boolean"},
        {"{'partitions':[{'id':'a','outputs':{},'regionRegex':3}]}", ANVIL_EMODEL,
         "partitions: partition `a`: `regionRegex` must be a string"},
        {"{'partitions':[{'id':'a','outputs':{},'regionRegex':'^a{2}$'}]}", ANVIL_EMODEL,
         "partitions: partition `a`: regionRegex: unsupported quantifier '{'"},
        {"{'partitions':[{'id':'a','outputs':{},'regions':[]}]}", ANVIL_EMODEL,
         "partitions: partition `a`: `regions` must be an object"},
        {"{'partitions':[{'id':'a','outputs':{},'regions':{'r':1}}]}", ANVIL_EMODEL,
         "partitions: region `r` must be an object"},
        {"{'partitions':[{'id':'a','outputs':{},'regions':{'r':{'dnsSuffix':false}}}]}", ANVIL_EMODEL,
         "partitions: region `r`: `dnsSuffix` must be a string"},
    };
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(cases); i++) {
        struct anvil_partitions *parts = (struct anvil_partitions *)&parts;
        struct anvil_diag diag;
        char *text = ep_q(t, "%s", cases[i].text);
        CHECK_ALLOC(text);
        int rc = anvil_partitions_load(t->alloc, text, strlen(text), &parts, &diag);
        anvil_mem_release(t->alloc, text);
        CHECK_STATUS(rc, cases[i].status);
        CHECK(parts == NULL);
        if (cases[i].message) {
            CHECK_STR_EQ(diag.message, cases[i].message);
        }
    }
    struct anvil_partitions *parts = NULL;
    CHECK_STATUS(anvil_partitions_load(t->alloc, "{}", 2, NULL, NULL), ANVIL_EINVAL);
    CHECK_STATUS(anvil_partitions_load(t->alloc, NULL, 2, &parts, NULL), ANVIL_EINVAL);
done:;
}

/* ---- the regionRegex automaton ---- */

TEST(endpoint_regex_matches) {
    static const struct {
        const char *pattern, *input;
        bool match;
    } cases[] = {
        {"^(us|eu|ap|sa|ca|me|af|il|mx)\\-\\w+\\-\\d+$", "us-east-1", true},
        {"^(us|eu|ap|sa|ca|me|af|il|mx)\\-\\w+\\-\\d+$", "ap-southeast-12", true},
        {"^(us|eu|ap|sa|ca|me|af|il|mx)\\-\\w+\\-\\d+$", "us-east-", false},
        {"^(us|eu|ap|sa|ca|me|af|il|mx)\\-\\w+\\-\\d+$", "us-east-1a", false},
        {"^(us|eu|ap|sa|ca|me|af|il|mx)\\-\\w+\\-\\d+$", "xus-east-1", false},
        {"^(us|eu|ap|sa|ca|me|af|il|mx)\\-\\w+\\-\\d+$", "us-gov-west-1", false},
        {"^(us|eu|ap|sa|ca|me|af|il|mx)\\-\\w+\\-\\d+$", "", false},
        {"^us\\-gov\\-\\w+\\-\\d+$", "us-gov-west-1", true},
        {"^eusc\\-(de)\\-\\w+\\-\\d+$", "eusc-de-east-1", true},
        {"^eusc\\-(de)\\-\\w+\\-\\d+$", "eusc-fr-east-1", false},
        /* what a backtracking-free greedy matcher gets wrong */
        {"^\\w+\\d+$", "abc1", true},
        {"^a*ab$", "aaab", true},
        {"^(a|ab)c$", "abc", true},
        {"^a*$", "", true},
        {"^a+$", "", false},
        {"^(?:ab|cd)+$", "abcdab", true},
        {"^(?:ab|cd)+$", "abcda", false},
        {"^[a-c]+[^a-c]?$", "abcz", true},
        {"^[a-c]+[^a-c]?$", "abcza", false},
        {"^[\\w.-]+$", "a.b-c_d", true},
        {"^\\D\\S\\W$", "x!.", true},
        {"^.b$", "ab", true},
        {"^a?b$", "b", true},
        /* without anchors, a match anywhere */
        {"a+b", "xxaab", true},
        {"^a", "abc", true},
        {"c$", "abc", true},
        {"x", "abc", false},
        {"", "abc", true},
    };
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(cases); i++) {
        struct anvil__ep_regex re;
        char why[120];
        CHECK_OK(anvil__ep_regex_compile(anvil_sv_from_cstr(cases[i].pattern), &re, why, sizeof why));
        if (anvil__ep_regex_match(&re, anvil_sv_from_cstr(cases[i].input)) != cases[i].match) {
            anvil_test_fail(t, __FILE__, __LINE__, "%s on '%s': want %d", cases[i].pattern, cases[i].input,
                            cases[i].match);
            goto done;
        }
    }
done:;
}

TEST(endpoint_regex_refused) {
    static const struct {
        const char *pattern, *why;
    } cases[] = {
        {"^a{2}$", "unsupported quantifier '{'"},
        {"^(a$", "'(' without ')'"},
        {"^a)$", "unexpected ')'"},
        {"^\\q$", "unsupported escape '\\q'"},
        {"^[a$", "'[' without ']'"},
        {"^[z-a]$", "a range runs backwards"},
        {"^a**$", "unsupported quantifier after '*'"},
        {"*a", "unexpected '*'"},
        {"^(?=a)$", "unsupported group '(?'"},
        {"^a$b", "unexpected '$'"},
        {"a\\", "the pattern ends in '\\'"},
        {"((((((((((((((((((a))))))))))))))))))", "groups nested more than 16 deep"},
        {"^aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa$", "more than 64 characters to match"},
    };
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(cases); i++) {
        struct anvil__ep_regex re;
        char why[120];
        CHECK_STATUS(anvil__ep_regex_compile(anvil_sv_from_cstr(cases[i].pattern), &re, why, sizeof why), ANVIL_EMODEL);
        CHECK_STR_EQ(why, cases[i].why);
    }
done:;
}

/* A long region runs the automaton once over its bytes: no backtracking blow-up. */
TEST(endpoint_regex_linear) {
    struct anvil__ep_regex re;
    char why[120];
    char *s = anvil_mem_acquire(t->alloc, 100001);
    CHECK_ALLOC(s);
    memset(s, 'a', 100000);
    s[100000] = '\0';
    CHECK_OK(anvil__ep_regex_compile(anvil_sv_from_cstr("^(a|aa)*(a|aa)*(a|aa)*b$"), &re, why, sizeof why));
    CHECK(!anvil__ep_regex_match(&re, anvil_sv(s, 100000)));
    s[99999] = 'b';
    CHECK(anvil__ep_regex_match(&re, anvil_sv(s, 100000)));
done:
    anvil_mem_release(t->alloc, s);
}

/* The copy compiled into the library is the shared test data's partitions.json (scripts/gen-partitions). */
TEST(partitions_current) {
    const char *path = ANVIL_TESTDATA_DIR "/smithy-lang/smithy-aws-endpoints/src/main/resources/software/amazon/"
                                          "smithy/rulesengine/aws/language/functions/partition/partitions.json";
    char *text = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        anvil_test_fail(t, __FILE__, __LINE__, "cannot open %s", path);
        goto done;
    }
    text = anvil_mem_acquire(t->alloc, anvil__partitions_json_len + 2);
    if (!text) {
        fclose(f);
        CHECK_ALLOC(text);
    }
    size_t got = fread(text, 1, anvil__partitions_json_len + 1, f);
    fclose(f);
    if (got != anvil__partitions_json_len || memcmp(text, anvil__partitions_json, got) != 0) {
        anvil_test_fail(t, __FILE__, __LINE__,
                        "the embedded partitions.json differs from %s: run scripts/gen-partitions and commit "
                        "src/endpoint/partitions_data.c",
                        path);
    }
done:
    anvil_mem_release(t->alloc, text);
}
