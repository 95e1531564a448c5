/*
 * Compiling rule sets: every refusal with its position, versions, and the
 * limits (depth, nodes, variables, template parts) crossed cleanly.
 */

#include "endpoint/endpoint_internal.h"
#include "test_endpoint.h"
#include "json/json_internal.h"

struct s_bad {
    /* The rule set, quotes as in ep_q(). */
    const char *text;
    int status;
    /* The whole diag message. */
    const char *message;
};

#define RS(params, rules) "{'version':'1.0','parameters':{" params "},'rules':[" rules "]}"
#define RS11(params, rules) "{'version':'1.1','parameters':{" params "},'rules':[" rules "]}"
#define IN "'In':{'type':'string'},'B':{'type':'boolean'},'L':{'type':'stringArray'}"
#define COND(c) "{'type':'endpoint','conditions':[" c "],'endpoint':{'url':'https://x'}}"
#define URL(u) "{'type':'endpoint','conditions':[],'endpoint':{'url':" u "}}"

static bool s_check_bad(struct anvil_test *t, const struct s_bad *cases, size_t n) {
    for (size_t i = 0; i < n; i++) {
        struct anvil_endpoint_rules *rules = NULL;
        struct anvil_diag diag;
        int rc = ep_compile(t, NULL, &rules, &diag, "%s", cases[i].text);
        anvil_endpoint_rules_destroy(rules);
        if (rc == ANVIL_ENOMEM && anvil_test_injected(t)) {
            t->stopped_by_injection = true;
            return true;
        }
        char want[512];
        snprintf(want, sizeof want, "%s", cases[i].message);
        for (char *p = want; *p; p++) {
            *p = *p == '\'' ? '"' : *p;
        }
        if (rc != cases[i].status || strcmp(diag.message, want) != 0 || rules != NULL) {
            anvil_test_fail(t, __FILE__, __LINE__, "case %zu: %s\n  want %s \"%s\"\n  got  %s \"%s\"", i, cases[i].text,
                            anvil_status_name(cases[i].status), want, anvil_status_name(rc), diag.message);
            return false;
        }
    }
    return true;
}

TEST(endpoint_compile_refuses_documents) {
    static const struct s_bad cases[] = {
        {"[]", ANVIL_EMODEL, "a rule set must be an object, not an array"},
        {"{'parameters':{},'rules':[]}", ANVIL_EMODEL, "a rule set needs a `version` string"},
        {"{'version':1.0,'parameters':{},'rules':[]}", ANVIL_EMODEL, "a rule set needs a `version` string"},
        {"{'version':'2.0','parameters':{},'rules':[]}", ANVIL_EMODEL,
         "unsupported rules engine version `2.0` (anvil supports 1.x)"},
        {"{'version':'10.0','parameters':{},'rules':[]}", ANVIL_EMODEL,
         "unsupported rules engine version `10.0` (anvil supports 1.x)"},
        {"{'version':'1.x','parameters':{},'rules':[]}", ANVIL_EMODEL,
         "unsupported rules engine version `1.x` (anvil supports 1.x)"},
        {"{'version':'','parameters':{},'rules':[]}", ANVIL_EMODEL,
         "unsupported rules engine version `` (anvil supports 1.x)"},
        {"{'version':'1.0','parameters':[],'rules':[]}", ANVIL_EMODEL, "`parameters` must be an object, not an array"},
        {"{'version':'1.0','parameters':{}}", ANVIL_EMODEL, "a rule set needs a `rules` array"},
        {"{'version':'1.1','parameters':{},'conditions':[],'results':[],'root':1,'nodeCount':1,'nodes':''}",
         ANVIL_EMODEL, "a rule set needs a `rules` array (an endpointBdd is not supported)"},
    };
    CHECK(s_check_bad(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_compile_accepts_versions) {
    static const char *const versions[] = {"1.0", "1.1", "1.3", "1", "1.10", "1.1.2"};
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(versions); i++) {
        struct anvil_endpoint_rules *rules = NULL;
        struct anvil_diag diag;
        CHECK_OK(ep_compile(t, NULL, &rules, &diag, "{'version':'%s','parameters':{},'rules':[]}", versions[i]));
        anvil_endpoint_rules_destroy(rules);
    }
done:;
}

TEST(endpoint_compile_refuses_parameters) {
    static const struct s_bad cases[] = {
        {RS("'R':'string'", ""), ANVIL_EMODEL, "parameters.R: a parameter must be an object, not a string"},
        {RS("'R':{}", ""), ANVIL_EMODEL, "parameters.R: a parameter needs a `type` (string, boolean or stringArray)"},
        {RS("'R':{'type':'int'}", ""), ANVIL_EMODEL,
         "parameters.R: unknown parameter type `int` (string, boolean or stringArray)"},
        {RS("'R':{'type':'string','default':true}", ""), ANVIL_EMODEL,
         "parameters.R.default: the default must be a string, not a boolean"},
        {RS("'R':{'type':'boolean','default':'true'}", ""), ANVIL_EMODEL,
         "parameters.R.default: the default must be a boolean, not a string"},
        {RS("'R':{'type':'stringArray','default':['a',1]}", ""), ANVIL_EMODEL,
         "parameters.R.default: the default must be an array, not an array"},
        {RS("'R':{'type':'string','required':'yes'}", ""), ANVIL_EMODEL,
         "parameters.R: `required` must be a boolean, not a string"},
        {RS("'R':{'type':'string','builtIn':1}", ""), ANVIL_EMODEL,
         "parameters.R: `builtIn` must be a string, not a number"},
        {RS("'R':{'type':'string','deprecated':'yes'}", ""), ANVIL_EMODEL,
         "parameters.R: `deprecated` must be an object of strings {message, since}"},
        {RS("'R':{'type':'string','deprecated':{'since':1}}", ""), ANVIL_EMODEL,
         "parameters.R: `deprecated` must be an object of strings {message, since}"},
        {RS("'Region':{'type':'string'},'region':{'type':'string'}", ""), ANVIL_EMODEL,
         "parameters.region: the parameters `Region` and `region` differ only in case"},
        {RS("'1abc':{'type':'string'}", ""), ANVIL_EMODEL,
         "parameters.1abc: `1abc` is not a parameter name (a letter, then letters and digits)"},
        {RS("'a#b':{'type':'string'}", ""), ANVIL_EMODEL,
         "parameters.a#b: `a#b` is not a parameter name (a letter, then letters and digits)"},
        {RS("'':{'type':'string'}", ""), ANVIL_EMODEL, "parameters: a parameter needs a name"},
    };
    CHECK(s_check_bad(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_compile_refuses_rules) {
    static const struct s_bad cases[] = {
        {RS("", "3"), ANVIL_EMODEL, "rules[0]: a rule must be an object, not a number"},
        {RS("", "{}"), ANVIL_EMODEL, "rules[0]: a rule needs a `type` (endpoint, error or tree)"},
        {RS("", "{'type':'redirect'}"), ANVIL_EMODEL,
         "rules[0]: unknown rule type `redirect` (endpoint, error or tree)"},
        {RS("", "{'type':'tree','conditions':[]}"), ANVIL_EMODEL, "rules[0]: a tree rule needs a `rules` array"},
        {RS("", "{'type':'endpoint','conditions':{}}"), ANVIL_EMODEL,
         "rules[0]: `conditions` must be an array, not an object"},
        {RS("", "{'type':'endpoint','conditions':[]}"), ANVIL_EMODEL,
         "rules[0].endpoint: `endpoint` must be an object, not null"},
        {RS("", "{'type':'endpoint','conditions':[],'endpoint':{}}"), ANVIL_EMODEL,
         "rules[0].endpoint.url: an endpoint needs a `url`"},
        {RS("", URL("true")), ANVIL_EMODEL,
         "rules[0].endpoint.url: the url must be a string, a reference or a function, not a boolean"},
        {RS(IN, URL("{'ref':'B'}")), ANVIL_EMODEL, "rules[0].endpoint.url: the url must be a string, not a boolean"},
        {RS(IN, URL("{'fn':'isSet','argv':[{'ref':'In'}]}")), ANVIL_EMODEL,
         "rules[0].endpoint.url: the url must be a string, not a boolean"},
        {RS("", "{'type':'endpoint','conditions':[],'endpoint':{'url':'https://x','properties':[]}}"), ANVIL_EMODEL,
         "rules[0].endpoint.properties: must be an object, not an array"},
        {RS("", "{'type':'endpoint','conditions':[],'endpoint':{'url':'https://x','headers':[]}}"), ANVIL_EMODEL,
         "rules[0].endpoint.headers: must be an object, not an array"},
        {RS("", "{'type':'endpoint','conditions':[],'endpoint':{'url':'https://x','headers':{'h':'v'}}}"), ANVIL_EMODEL,
         "rules[0].endpoint.headers.h: the values of a header must be an array, not a string"},
        {RS(IN, "{'type':'endpoint','conditions':[],'endpoint':{'url':'https://x','headers':{'h':['a',{'ref':'B'}]}}}"),
         ANVIL_EMODEL, "rules[0].endpoint.headers.h[1]: a header value must be a string, not a boolean"},
        {RS("", "{'type':'endpoint','conditions':[],'endpoint':{'url':'https://x','properties':{'a':{'b':'{X}'}}}}"),
         ANVIL_EMODEL, "rules[0].endpoint.properties.a.b: `X` is not a parameter or a variable in scope"},
        {RS("", "{'type':'error','conditions':[]}"), ANVIL_EMODEL,
         "rules[0].error: an error rule needs an `error` message"},
        {RS("", "{'type':'error','conditions':[],'error':['x']}"), ANVIL_EMODEL,
         "rules[0].error: the error must be a string, a reference or a function, not an array"},
        {RS("", "{'type':'tree','conditions':[],'rules':[{'type':'error','conditions':[],'error':'{nope}'}]}"),
         ANVIL_EMODEL, "rules[0].rules[0].error: `nope` is not a parameter or a variable in scope"},
    };
    CHECK(s_check_bad(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_compile_refuses_functions) {
    static const struct s_bad cases[] = {
        {RS(IN, COND("{'ref':'B'}")), ANVIL_EMODEL,
         "rules[0].conditions[0]: a condition must be a function object {'fn', 'argv'}"},
        {RS(IN, COND("{'fn':'frobnicate','argv':[]}")), ANVIL_EMODEL,
         "rules[0].conditions[0]: unknown function `frobnicate`"},
        {RS(IN, COND("{'fn':'aws.unknown','argv':[]}")), ANVIL_EMODEL,
         "rules[0].conditions[0]: unknown function `aws.unknown`"},
        {RS(IN, COND("{'fn':3,'argv':[]}")), ANVIL_EMODEL,
         "rules[0].conditions[0]: `fn` must be a function name, not a number"},
        {RS(IN, COND("{'fn':'isSet','argv':{}}")), ANVIL_EMODEL,
         "rules[0].conditions[0]: `isSet`: `argv` must be an array, not an object"},
        {RS(IN, COND("{'fn':'isSet'}")), ANVIL_EMODEL,
         "rules[0].conditions[0]: `isSet`: `argv` must be an array, not null"},
        {RS(IN, COND("{'fn':'substring','argv':[{'ref':'In'},0,1]}")), ANVIL_EMODEL,
         "rules[0].conditions[0]: `substring` takes 4 arguments, not 3"},
        {RS(IN, COND("{'fn':'not','argv':[true,false]}")), ANVIL_EMODEL,
         "rules[0].conditions[0]: `not` takes 1 argument, not 2"},
        {RS11(IN, COND("{'fn':'coalesce','argv':[{'ref':'In'}]}")), ANVIL_EMODEL,
         "rules[0].conditions[0]: `coalesce` takes two or more arguments, not 1"},
        {RS(IN, COND("{'fn':'isSet','argv':[null]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[0]: an argument may not be null"},
        {RS(IN, COND("{'fn':'isSet','argv':[{'x':1}]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[0]: an object here must be a reference {'ref'} or a function {'fn'}"},
        {RS(IN, COND("{'fn':'isSet','argv':[{'ref':1}]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[0]: `ref` must be a string, not a number"},
        {RS(IN, COND("{'fn':'isSet','argv':[{'ref':'Nope'}]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[0]: `Nope` is not a parameter or a variable in scope"},
        {RS(IN, COND("{'fn':'substring','argv':[{'ref':'In'},0,1.5,false]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[2]: a number argument must be an integer that fits 32 bits"},
        {RS(IN, COND("{'fn':'substring','argv':[{'ref':'In'},0,4294967296,false]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[2]: a number argument must be an integer that fits 32 bits"},
        {RS(IN, COND("{'fn':'substring','argv':[{'ref':'In'},-1,2,false]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: `substring`: -1 must not be negative"},
        {RS(IN, COND("{'fn':'isSet','argv':[['a',1]]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[0]: an array argument may hold strings only, not a number"},
        /* argument types */
        {RS(IN, COND("{'fn':'not','argv':['x']}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[0]: `not` needs a boolean here, not a string"},
        {RS(IN, COND("{'fn':'stringEquals','argv':[{'ref':'B'},'x']}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[0]: `stringEquals` needs a string here, not a boolean"},
        {RS(IN, COND("{'fn':'booleanEquals','argv':[{'ref':'In'},true]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[0]: `booleanEquals` needs a boolean here, not a string"},
        {RS(IN, COND("{'fn':'substring','argv':[{'ref':'In'},'0',1,false]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: `substring` needs an integer here, not a string"},
        {RS(IN, COND("{'fn':'aws.partition','argv':[{'ref':'L'}]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[0]: `aws.partition` needs a string here, not an array"},
        {RS(IN, COND("{'fn':'isValidHostLabel','argv':[{'ref':'In'},'true']}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: `isValidHostLabel` needs a boolean here, not a string"},
        {RS(IN, COND("{'fn':'uriEncode','argv':[{'fn':'aws.parseArn','argv':['x']}]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[0]: `uriEncode` needs a string here, not an ARN"},
        {RS11(IN, COND("{'fn':'coalesce','argv':[{'ref':'In'},true]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: `coalesce` needs arguments of one type, not a string and a boolean"},
        {RS11(IN, COND("{'fn':'ite','argv':['x','a','b']}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[0]: `ite` needs a boolean here, not a string"},
        {RS11(IN, COND("{'fn':'ite','argv':[true,'a',false]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[2]: `ite` needs arguments of one type, not a string and a boolean"},
        {RS11(IN, COND("{'fn':'split','argv':[{'ref':'In'},'',0]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: `split`: the delimiter is empty"},
        {RS11(IN, COND("{'fn':'split','argv':[{'ref':'In'},'-',-1]}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[2]: `split`: -1 must not be negative"},
    };
    CHECK(s_check_bad(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_compile_refuses_get_attr) {
#define GA(target, path) COND("{'fn':'getAttr','argv':[" target "," path "]}")
#define PART "{'fn':'aws.partition','argv':['us-east-1']}"
    static const struct s_bad cases[] = {
        {RS(IN, GA("{'ref':'In'}", "'x'")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[0]: getAttr needs an object or an array, not a string"},
        {RS(IN, GA(PART, "{'ref':'In'}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: getAttr: the path must be a string, not an object"},
        {RS(IN, GA(PART, "''")), ANVIL_EMODEL, "rules[0].conditions[0].argv[1]: getAttr: the path is empty"},
        {RS(IN, GA(PART, "'nope'")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: getAttr: a partition has no field `nope`"},
        {RS(IN, GA(PART, "'name.x'")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: getAttr: cannot take `x` of a string"},
        {RS(IN, GA(PART, "'name..x'")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: getAttr: a path has an empty part"},
        {RS(IN, GA(PART, "'name[0]'")), ANVIL_EMODEL, "rules[0].conditions[0].argv[1]: getAttr: cannot index a string"},
        {RS(IN, GA("{'ref':'L'}", "'[x]'")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: getAttr: `[x]` is not an index"},
        {RS(IN, GA("{'ref':'L'}", "'[1'")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: getAttr: `[1` must end with `]`"},
        {RS(IN, GA("{'ref':'L'}", "'[]'")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: getAttr: `[]` must end with `]`"},
        {RS(IN, GA("{'ref':'L'}", "'[-1]'")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: getAttr: a negative index needs rules engine version 1.1, but the rule set says "
         "1.0"},
        {RS(IN, GA("{'fn':'parseURL','argv':['https://x']}", "'resourceId'")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: getAttr: a URL has no field `resourceId`"},
        {RS(IN, GA("{'fn':'aws.parseArn','argv':['x']}", "'resourceId.x'")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[1]: getAttr: cannot take `x` of an array"},
    };
#undef GA
#undef PART
    CHECK(s_check_bad(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_compile_refuses_templates) {
    static const struct s_bad cases[] = {
        {RS(IN, URL("'https://{In'")), ANVIL_EMODEL, "rules[0].endpoint.url: template: unmatched `{` in 'https://{In'"},
        {RS(IN, URL("'https://In}'")), ANVIL_EMODEL, "rules[0].endpoint.url: template: unmatched `}` in 'https://In}'"},
        {RS(IN, URL("'https://{{In}'")), ANVIL_EMODEL,
         "rules[0].endpoint.url: template: unmatched `}` in 'https://{{In}'"},
        {RS(IN, URL("'https://{a{b}}'")), ANVIL_EMODEL,
         "rules[0].endpoint.url: template: unmatched `{` in 'https://{a{b}}'"},
        {RS(IN, URL("'https://{}'")), ANVIL_EMODEL, "rules[0].endpoint.url: template: `{}` names nothing"},
        {RS(IN, URL("'https://{#x}'")), ANVIL_EMODEL, "rules[0].endpoint.url: template: `{#x}` names nothing"},
        {RS(IN, URL("'https://{Unknown}'")), ANVIL_EMODEL,
         "rules[0].endpoint.url: `Unknown` is not a parameter or a variable in scope"},
        {RS(IN, URL("'https://{B}'")), ANVIL_EMODEL,
         "rules[0].endpoint.url: template: `{B}` is a boolean, not a string"},
        {RS(IN, URL("'https://{L}'")), ANVIL_EMODEL,
         "rules[0].endpoint.url: template: `{L}` is an array, not a string"},
        {RS(IN, URL("'https://{In#x}'")), ANVIL_EMODEL, "rules[0].endpoint.url: getAttr: cannot take `x` of a string"},
        {RS(IN, "{'type':'endpoint','conditions':[{'fn':'aws.partition','argv':['{In}'],'assign':'p'}],"
                "'endpoint':{'url':'https://{p#supportsFIPS}'}}"),
         ANVIL_EMODEL, "rules[0].endpoint.url: template: `{p#supportsFIPS}` is a boolean, not a string"},
        {RS(IN, "{'type':'endpoint','conditions':[{'fn':'aws.partition','argv':['{In}'],'assign':'p'}],"
                "'endpoint':{'url':'https://{p#dnsSufix}'}}"),
         ANVIL_EMODEL, "rules[0].endpoint.url: getAttr: a partition has no field `dnsSufix`"},
        {RS(IN, COND("{'fn':'stringEquals','argv':['{In','x']}")), ANVIL_EMODEL,
         "rules[0].conditions[0].argv[0]: template: unmatched `{` in '{In'"},
    };
    CHECK(s_check_bad(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_compile_version_gates) {
    static const struct s_bad cases[] = {
        {RS(IN, COND("{'fn':'coalesce','argv':[{'ref':'In'},'x']}")), ANVIL_EMODEL,
         "rules[0].conditions[0]: `coalesce` needs rules engine version 1.1, but the rule set says 1.0"},
        {RS(IN, COND("{'fn':'ite','argv':[true,'a','b']}")), ANVIL_EMODEL,
         "rules[0].conditions[0]: `ite` needs rules engine version 1.1, but the rule set says 1.0"},
        {RS(IN, COND("{'fn':'split','argv':['a','-',0]}")), ANVIL_EMODEL,
         "rules[0].conditions[0]: `split` needs rules engine version 1.1, but the rule set says 1.0"},
        {RS(IN, URL("'https://{L#[-1]}'")), ANVIL_EMODEL,
         "rules[0].endpoint.url: getAttr: a negative index needs rules engine version 1.1, but the rule set says 1.0"},
    };
    CHECK(s_check_bad(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_compile_bad_arguments) {
    struct anvil_endpoint_rules *rules = (struct anvil_endpoint_rules *)&rules;
    struct anvil_diag diag;
    struct anvil_json v = anvil_json_make_null();
    CHECK_STATUS(anvil_endpoint_rules_compile(t->alloc, NULL, NULL, &rules, &diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_endpoint_rules_compile(t->alloc, &v, NULL, NULL, &diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_endpoint_rules_compile(t->alloc, &v, NULL, &rules, &diag), ANVIL_EMODEL);
    CHECK(rules == NULL);
done:;
}

/* ---- limits ---- */

/*
 * A JSON value nested `depth` times, built by hand (the parser stops at
 * ANVIL_JSON_MAX_DEPTH): `tree` makes rules[0] a tree whose rules[0] is a
 * tree..., else a condition not(not(...(true))).
 */
static int s_deep(struct anvil_arena *arena, size_t depth, bool tree, struct anvil_json *out) {
    struct anvil_json inner = anvil_json_make_bool(true);
    if (tree) {
        struct anvil_json_member m[2];
        m[0].key = anvil__json_key_new(arena, "type", 5 - 1, anvil_json_hash("type", 4));
        m[1].key = anvil__json_key_new(arena, "error", 5, anvil_json_hash("error", 5));
        if (!m[0].key || !m[1].key || anvil_json_new_string(arena, "error", 5, &m[0].value) != ANVIL_OK ||
            anvil_json_new_string(arena, "bottom", 6, &m[1].value) != ANVIL_OK) {
            return ANVIL_ENOMEM;
        }
        size_t unused;
        int rc = anvil__json_object_finish(arena, m, 2, false, &unused, &inner);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    for (size_t i = 0; i < depth; i++) {
        struct anvil_json *items;
        struct anvil_json list;
        if (anvil_json_new_array(arena, 1, &list, &items) != ANVIL_OK) {
            return ANVIL_ENOMEM;
        }
        items[0] = inner;
        struct anvil_json_member m[2];
        const char *k0 = tree ? "type" : "fn";
        const char *k1 = tree ? "rules" : "argv";
        const char *v0 = tree ? "tree" : "not";
        m[0].key = anvil__json_key_new(arena, k0, strlen(k0), anvil_json_hash(k0, strlen(k0)));
        m[1].key = anvil__json_key_new(arena, k1, strlen(k1), anvil_json_hash(k1, strlen(k1)));
        if (!m[0].key || !m[1].key || anvil_json_new_string(arena, v0, strlen(v0), &m[0].value) != ANVIL_OK) {
            return ANVIL_ENOMEM;
        }
        m[1].value = list;
        size_t unused;
        int rc = anvil__json_object_finish(arena, m, 2, false, &unused, &inner);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    *out = inner;
    return ANVIL_OK;
}

/* {'version':'1.0','parameters':{},'rules':[RULE]} around `rule`. */
static int s_rule_set(struct anvil_arena *arena, const struct anvil_json *rule, struct anvil_json *out) {
    struct anvil_json_member m[3];
    struct anvil_json *items;
    const char *keys[] = {"version", "parameters", "rules"};
    for (int i = 0; i < 3; i++) {
        m[i].key = anvil__json_key_new(arena, keys[i], strlen(keys[i]), anvil_json_hash(keys[i], strlen(keys[i])));
        if (!m[i].key) {
            return ANVIL_ENOMEM;
        }
    }
    if (anvil_json_new_string(arena, "1.0", 3, &m[0].value) != ANVIL_OK ||
        anvil_json_new_array(arena, 1, &m[2].value, &items) != ANVIL_OK) {
        return ANVIL_ENOMEM;
    }
    m[1].value = *anvil__json_empty_object();
    items[0] = *rule;
    size_t unused;
    return anvil__json_object_finish(arena, m, 3, false, &unused, out);
}

TEST(endpoint_compile_deep_trees) {
    struct anvil_arena *arena = NULL;
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_diag diag;
    struct anvil_json tree, rs;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(s_deep(arena, 10000, true, &tree));
    CHECK_OK(s_rule_set(arena, &tree, &rs));
    CHECK_STATUS(anvil_endpoint_rules_compile(t->alloc, &rs, NULL, &rules, &diag), ANVIL_ELIMIT);
    CHECK(strstr(diag.message, "tree rules nested more than 64 deep") != NULL);
    CHECK(strncmp(diag.message, "rules[0].rules[0]...rules[0].rules[0]", 37) == 0);
    /* even when asked for more than the cap */
    struct anvil_endpoint_rules_options opts = {.max_depth = 100000};
    CHECK_STATUS(anvil_endpoint_rules_compile(t->alloc, &rs, &opts, &rules, &diag), ANVIL_ELIMIT);
    CHECK(strstr(diag.message, "tree rules nested more than 1024 deep") != NULL);
    /* at the limit it compiles, and resolves to the error at the bottom */
    anvil_arena_reset(arena);
    CHECK_OK(s_deep(arena, 64, true, &tree));
    CHECK_OK(s_rule_set(arena, &tree, &rs));
    CHECK_OK(anvil_endpoint_rules_compile(t->alloc, &rs, NULL, &rules, &diag));
    struct anvil_endpoint ep;
    CHECK_STATUS(anvil_endpoint_resolve(rules, NULL, 0, arena, &ep, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "bottom");
    CHECK_EQ_U64(ep.rule, 64);
    char path[2000];
    anvil_endpoint_rule_path(rules, ep.rule, path, sizeof path);
    CHECK_EQ_U64(strlen(path), 65 * strlen("rules[0]") + 64);
    anvil_endpoint_rules_destroy(rules);
    rules = NULL;
    anvil_arena_reset(arena);
    CHECK_OK(s_deep(arena, 65, true, &tree));
    CHECK_OK(s_rule_set(arena, &tree, &rs));
    CHECK_STATUS(anvil_endpoint_rules_compile(t->alloc, &rs, NULL, &rules, &diag), ANVIL_ELIMIT);
done:
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
}

TEST(endpoint_compile_deep_functions) {
    struct anvil_arena *arena = NULL;
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_diag diag;
    struct anvil_json fn, rule, rs;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(s_deep(arena, 10000, false, &fn));
    /* {'type':'error','conditions':[fn],'error':'x'} */
    struct anvil_json_member m[3];
    struct anvil_json *items;
    m[0].key = anvil__json_key_new(arena, "type", 4, anvil_json_hash("type", 4));
    m[1].key = anvil__json_key_new(arena, "conditions", 10, anvil_json_hash("conditions", 10));
    m[2].key = anvil__json_key_new(arena, "error", 5, anvil_json_hash("error", 5));
    CHECK(m[0].key && m[1].key && m[2].key);
    CHECK_OK(anvil_json_new_string(arena, "error", 5, &m[0].value));
    CHECK_OK(anvil_json_new_array(arena, 1, &m[1].value, &items));
    items[0] = fn;
    CHECK_OK(anvil_json_new_string(arena, "x", 1, &m[2].value));
    size_t unused;
    CHECK_OK(anvil__json_object_finish(arena, m, 3, false, &unused, &rule));
    CHECK_OK(s_rule_set(arena, &rule, &rs));
    CHECK_STATUS(anvil_endpoint_rules_compile(t->alloc, &rs, NULL, &rules, &diag), ANVIL_ELIMIT);
    CHECK(strstr(diag.message, "functions nested more than 64 deep") != NULL);
    CHECK(strncmp(diag.message, "rules[0].conditions[0]...argv[0].argv[0]", 40) == 0);
done:
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
}

TEST(endpoint_compile_limits) {
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_diag diag;
    char *text = NULL;
    /* max_nodes */
    struct anvil_endpoint_rules_options few = {.max_nodes = 5};
    CHECK_STATUS(ep_compile(t, &few, &rules, &diag,
                            RS(IN, COND("{'fn':'isSet','argv':[{'ref':'In'}]},{'fn':'isSet','argv':[{'ref':'B'}]}"))),
                 ANVIL_ELIMIT);
    CHECK_STR_EQ(diag.message, "rules[0].conditions[1].argv[0]: more than 5 rules, conditions and expressions");
    /* max_depth counts tree rules */
    struct anvil_endpoint_rules_options shallow = {.max_depth = 1};
    CHECK_OK(
        ep_compile(t, &shallow, &rules, &diag,
                   RS("", "{'type':'tree','conditions':[],'rules':[{'type':'error','conditions':[],'error':'x'}]}")));
    anvil_endpoint_rules_destroy(rules);
    rules = NULL;
    CHECK_STATUS(
        ep_compile(t, &shallow, &rules, &diag,
                   RS("", "{'type':'tree','conditions':[],'rules':[{'type':'tree','conditions':[],'rules':[]}]}")),
        ANVIL_ELIMIT);
    CHECK_STR_EQ(diag.message, "rules[0].rules[0]: tree rules nested more than 1 deep");
    /* ... and properties */
    CHECK_STATUS(ep_compile(t, &shallow, &rules, &diag,
                            RS("", "{'type':'endpoint','conditions':[],'endpoint':{'url':'https://x',"
                                   "'properties':{'a':{'b':1}}}}")),
                 ANVIL_ELIMIT);
    CHECK_STR_EQ(diag.message, "rules[0].endpoint.properties.a: properties nested more than 1 deep");

    /* more than 256 variables in scope at once */
    size_t cap = 300 * 80 + 200;
    text = anvil_mem_acquire(t->alloc, cap);
    CHECK_ALLOC(text);
    size_t len =
        (size_t)snprintf(text, cap, "{'version':'1.0','parameters':{},'rules':[{'type':'error','conditions':[");
    for (int i = 0; i < 300; i++) {
        len += (size_t)snprintf(text + len, cap - len, "%s{'fn':'uriEncode','argv':['x'],'assign':'v%d'}", i ? "," : "",
                                i);
    }
    snprintf(text + len, cap - len, "],'error':'x'}]}");
    CHECK_STATUS(ep_compile(t, NULL, &rules, &diag, "%s", text), ANVIL_ELIMIT);
    CHECK_STR_EQ(diag.message, "rules[0].conditions[256]: more than 256 variables in scope");
    /* 256 are fine, and resolve */
    char *cut = strstr(text, ",{'fn':'uriEncode','argv':['x'],'assign':'v256'}");
    CHECK(cut != NULL);
    strcpy(cut, "],'error':'{v255}'}]}");
    CHECK_OK(ep_compile(t, NULL, &rules, &diag, "%s", text));
    struct anvil_arena *arena = NULL;
    struct anvil_endpoint ep;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    int rc = anvil_endpoint_resolve(rules, NULL, 0, arena, &ep, &diag);
    anvil_arena_destroy(arena);
    CHECK_STATUS(rc, ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "x");
done:
    anvil_mem_release(t->alloc, text);
    anvil_endpoint_rules_destroy(rules);
}

/* Array literals do not grow the string table's index: a hundred of them compile in little memory. */
TEST(endpoint_compile_array_literals) {
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_diag diag;
    char *text = NULL;
    size_t cap = 100 * 64 + 200;
    text = anvil_mem_acquire(t->alloc, cap);
    CHECK_ALLOC(text);
    size_t len =
        (size_t)snprintf(text, cap, "{'version':'1.0','parameters':{},'rules':[{'type':'error','conditions':[");
    for (int i = 0; i < 100; i++) {
        len += (size_t)snprintf(text + len, cap - len, "%s{'fn':'isSet','argv':[['a%d','b']]}", i ? "," : "", i);
    }
    snprintf(text + len, cap - len, "],'error':'x'}]}");
    CHECK_OK(ep_compile(t, NULL, &rules, &diag, "%s", text));
    CHECK(anvil_arena_bytes_reserved(rules->arena) < 65536);
done:
    anvil_mem_release(t->alloc, text);
    anvil_endpoint_rules_destroy(rules);
}

/* Huge templates and strings: a template of more than 65,535 parts is refused; long literals are fine. */
TEST(endpoint_compile_huge_strings) {
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    struct anvil_endpoint ep;
    size_t parts = 70000;
    char *url = anvil_mem_acquire(t->alloc, parts * 4 + 16);
    CHECK_ALLOC(url);
    size_t n = 0;
    for (size_t i = 0; i < parts; i++) {
        memcpy(url + n, "{R}-", 4);
        n += 4;
    }
    url[n] = '\0';
    CHECK_STATUS(ep_compile(t, NULL, &rules, &diag, RS("'R':{'type':'string','required':true}", URL("'%s'")), url),
                 ANVIL_ELIMIT);
    CHECK_STR_EQ(diag.message, "rules[0].endpoint.url: template: more than 65535 parts");
    /* one long literal */
    memset(url, 'a', n);
    CHECK_OK(ep_compile(t, NULL, &rules, &diag, RS("", URL("'%s'")), url));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_endpoint_resolve(rules, NULL, 0, arena, &ep, &diag));
    CHECK_EQ_U64(ep.url.len, n);
done:
    anvil_mem_release(t->alloc, url);
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
}

/* The rule set of a model of the shared test data, its document in `*doc` (NULL and a failure when missing). */
static const struct anvil_json *s_model_rules(struct anvil_test *t, const char *model, struct anvil_json_doc **doc) {
    *doc = NULL;
    char path[512];
    snprintf(path, sizeof path, "%s/smithy-models/aws/%s", ANVIL_TESTDATA_DIR, model);
    FILE *f = fopen(path, "rb");
    if (!f) {
        anvil_test_fail(t, __FILE__, __LINE__, "cannot open %s", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = size > 0 ? anvil_mem_acquire(t->alloc, (size_t)size) : NULL;
    size_t got = text ? fread(text, 1, (size_t)size, f) : 0;
    fclose(f);
    struct anvil_diag diag;
    int rc = text && got == (size_t)size ? anvil_json_parse(t->alloc, text, got, NULL, doc, &diag) : ANVIL_ENOMEM;
    anvil_mem_release(t->alloc, text);
    if (rc != ANVIL_OK) {
        anvil_test_status_mismatch(t, __FILE__, __LINE__, path, rc, ANVIL_OK);
        return NULL;
    }
    const struct anvil_json *shapes = anvil_json_object_get_cstr(anvil_json_doc_root(*doc), "shapes");
    for (size_t k = 0; k < anvil_json_len(shapes); k++) {
        const struct anvil_json *traits = anvil_json_object_get_cstr(&anvil_json_object_at(shapes, k)->value, "traits");
        const struct anvil_json *rs = anvil_json_object_get_cstr(traits, "smithy.rules#endpointRuleSet");
        if (rs) {
            return rs;
        }
    }
    anvil_test_fail(t, __FILE__, __LINE__, "%s has no endpointRuleSet", path);
    return NULL;
}

/* Every rule set of some AWS models in the shared test data compiles (conformance.endpoint_tests runs all 39). */
TEST(endpoint_compile_aws_models) {
    static const char *const models[] = {"s3-2006-03-01.json", "dynamodb-2012-08-10.json", "iam-2010-05-08.json",
                                         "kinesis-2013-12-02.json"};
    struct anvil_json_doc *doc = NULL;
    struct anvil_endpoint_rules *rules = NULL;
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(models); i++) {
        const struct anvil_json *rs = s_model_rules(t, models[i], &doc);
        CHECK_ALLOC(rs);
        struct anvil_diag diag;
        CHECK_OK(anvil_endpoint_rules_compile(t->alloc, rs, NULL, &rules, &diag));
        CHECK(anvil_endpoint_rules_param_count(rules) > 0);
        anvil_endpoint_rules_destroy(rules);
        rules = NULL;
        anvil_json_doc_destroy(doc);
        doc = NULL;
    }
done:
    anvil_json_doc_destroy(doc);
    anvil_endpoint_rules_destroy(rules);
}

/* S3's rule set with hostile values: its own errors, exactly, or EINVAL for a value of the wrong type. */
TEST(endpoint_s3_hostile_values) {
    struct anvil_json_doc *doc = NULL;
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    struct anvil_endpoint ep;
    char long_region[600];
    memset(long_region, 'a', 500);
    long_region[500] = '\0';
    const struct anvil_json *rs = s_model_rules(t, "s3-2006-03-01.json", &doc);
    CHECK_ALLOC(rs);
    CHECK_OK(anvil_endpoint_rules_compile(t->alloc, rs, NULL, &rules, &diag));
    anvil_json_doc_destroy(doc);
    doc = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    static const char *const bad_regions[] = {"us-east-1/../x", "a..b", "us-east-1.", "", "us east 1"};
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(bad_regions); i++) {
        CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':'%s','Bucket':'bucket'}", bad_regions[i]),
                     ANVIL_ECONFIG);
        CHECK(ep_eq(ep.error, "Invalid region: region was not a valid DNS name."));
    }
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':'%s','Bucket':'bucket'}", long_region),
                 ANVIL_ECONFIG);
    CHECK(ep_eq(ep.error, "Invalid region: region was not a valid DNS name."));
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag,
                            "{'Region':'us-west-2','Bucket':'arn:aws:s3:us-west-2:123456789012:accesspoint:ap_name'}"),
                 ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message,
                 "Invalid ARN: The access point name may only contain a-z, A-Z, 0-9 and `-`. Found: `ap_name`");
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'Bucket':'b'}"), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "A region must be set when sending requests to S3.");
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':5}"), ANVIL_EINVAL);
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':'us-west-2','ForcePathStyle':'yes'}"),
                 ANVIL_EINVAL);
    /* a bucket that cannot be a host name goes in the path, encoded */
    CHECK_OK(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':'us-west-2','Bucket':'my bucket'}"));
    CHECK(ep_eq(ep.url, "https://s3.us-west-2.amazonaws.com/my%20bucket"));
    CHECK_OK(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':'us-west-2','Bucket':'mybucket','Key':'a/b'}"));
    CHECK(ep_eq(ep.url, "https://mybucket.s3.us-west-2.amazonaws.com"));
    CHECK(ep_json_is(t, &ep.properties,
                     "{'authSchemes':[{'disableDoubleEncoding':true,'name':'sigv4','signingName':'s3',"
                     "'signingRegion':'us-west-2'}]}"));
done:
    anvil_json_doc_destroy(doc);
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
}
