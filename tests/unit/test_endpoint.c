/*
 * The endpoint rules engine: every library function at its edges, templates
 * and their escapes, endpoints (url, properties, headers), assign and its
 * scope, tree terminality, and every status resolution returns.
 */

#include "test_endpoint.h"

/* ---- the standard library ---- */

TEST(endpoint_substring) {
#define SUB(args) "{'fn':'substring','argv':[{'ref':'In'}," args "],'assign':'r'}"
    static const struct ep_case cases[] = {
        {SUB("0,3,false"), "https://{r}", "{'In':'abcdef'}", "https://abc"},
        {SUB("0,3,true"), "https://{r}", "{'In':'abcdef'}", "https://def"},
        {SUB("1,4,true"), "https://{r}", "{'In':'abcdef'}", "https://cde"},
        {SUB("3,5,true"), "https://{r}", "{'In':'abcdef'}", "https://bc"},
        {SUB("0,3,false"), "https://{r}", "{'In':'abc'}", "https://abc"},
        /* end past the length, start not before end, any non-ASCII byte: none */
        {SUB("0,4,false"), "https://{r}", "{'In':'abc'}", "!none"},
        {SUB("2,2,false"), "https://{r}", "{'In':'abc'}", "!none"},
        {SUB("3,2,false"), "https://{r}", "{'In':'abc'}", "!none"},
        {SUB("0,1,false"), "https://{r}", "{'In':'a\\u00e9'}", "!none"},
        {SUB("0,1,false"), "https://{r}", "{'In':''}", "!none"},
        /* the input must be set */
        {SUB("0,1,false"), "https://{r}", "{}", "=ANVIL_EINVAL"},
    };
#undef SUB
    CHECK(ep_run_cases(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_uri_encode) {
#define ENC "{'fn':'uriEncode','argv':[{'ref':'In'}],'assign':'r'}"
    static const struct ep_case cases[] = {
        {ENC, "https://x/{r}", "{'In':'a b/c'}", "https://x/a%20b%2Fc"},
        {ENC, "https://x/{r}", "{'In':'AZaz09-_.~'}", "https://x/AZaz09-_.~"},
        {ENC, "https://x/{r}", "{'In':'\\u00e9'}", "https://x/%C3%A9"},
        {ENC, "https://x/{r}", "{'In':'/:,?#[]{}|@! $&()*+;=%<>^`\\\"\\\\'}",
         "https://x/%2F%3A%2C%3F%23%5B%5D%7B%7D%7C%40%21%20%24%26%28%29%2A%2B%3B%3D%25%3C%3E%5E%60%22%5C"},
        {ENC, "https://x/{r}", "{'In':''}", "https://x/"},
    };
#undef ENC
    CHECK(ep_run_cases(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_parse_url) {
#define URL                                                                                                            \
    "{'fn':'parseURL','argv':[{'ref':'In'}],'assign':'u'},"                                                            \
    "{'fn':'ite','argv':[{'fn':'getAttr','argv':[{'ref':'u'},'isIp']},'ip','name'],'assign':'k'}"
#define OUT "https://x/{u#scheme}/{u#authority}/{k}/p{u#path}/n{u#normalizedPath}"
    static const struct ep_case cases[] = {
        {URL, OUT, "{'In':'https://example.com'}", "https://x/https/example.com/name/p/n/"},
        {URL, OUT, "{'In':'https://example.com/'}", "https://x/https/example.com/name/p//n/"},
        {URL, OUT, "{'In':'http://example.com:80/foo/bar'}", "https://x/http/example.com:80/name/p/foo/bar/n/foo/bar/"},
        {URL, OUT, "{'In':'https://127.0.0.1'}", "https://x/https/127.0.0.1/ip/p/n/"},
        {URL, OUT, "{'In':'http://192.168.1.1:1234/foo/'}", "https://x/http/192.168.1.1:1234/ip/p/foo//n/foo/"},
        {URL, OUT, "{'In':'https://[fe80::1]'}", "https://x/https/[fe80::1]/ip/p/n/"},
        {URL, OUT, "{'In':'https://[2001:db8::1]:443'}", "https://x/https/[2001:db8::1]:443/ip/p/n/"},
        {URL, OUT, "{'In':'https://1.2.3.256'}", "https://x/https/1.2.3.256/name/p/n/"},
        {URL, OUT, "{'In':'https://999.999.abc.blah'}", "https://x/https/999.999.abc.blah/name/p/n/"},
        {URL, OUT, "{'In':'http://99_ab-.com'}", "https://x/http/99_ab-.com/name/p/n/"},
        /* userinfo is dropped; a fragment is not part of the path */
        {URL, OUT, "{'In':'https://user:pw@host.example/p'}", "https://x/https/host.example/name/p/p/n/p/"},
        {URL, OUT, "{'In':'https://example.com/a/#frag'}", "https://x/https/example.com/name/p/a//n/a/"},
        /* a query, another scheme, no authority, a bad port, no scheme: none */
        {URL, OUT, "{'In':'https://example.com:8443?foo=bar&faz=baz'}", "!none"},
        {URL, OUT, "{'In':'https://example.com/path?'}", "!none"},
        {URL, OUT, "{'In':'ftp://example.com'}", "!none"},
        {URL, OUT, "{'In':'acbd://example.com'}", "!none"},
        {URL, OUT, "{'In':'https://'}", "!none"},
        {URL, OUT, "{'In':'https:///path'}", "!none"},
        {URL, OUT, "{'In':'http://abc.com:a/foo'}", "!none"},
        {URL, OUT, "{'In':'http://abc.com:99999'}", "!none"},
        {URL, OUT, "{'In':'http://[::1/x'}", "!none"},
        {URL, OUT, "{'In':'example.com'}", "!none"},
        {URL, OUT, "{'In':'https://exa mple.com'}", "!none"},
    };
#undef URL
#undef OUT
    CHECK(ep_run_cases(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_is_valid_host_label) {
#define HL "{'fn':'isValidHostLabel','argv':[{'ref':'In'},{'ref':'B'}]}"
    static const struct ep_case cases[] = {
        {HL, "https://ok", "{'In':'us-east-1','B':false}", "https://ok"},
        {HL, "https://ok", "{'In':'3aws4','B':false}", "https://ok"},
        {HL, "https://ok", "{'In':'A1','B':false}", "https://ok"},
        {HL, "https://ok", "{'In':'part1.part2','B':false}", "!none"},
        {HL, "https://ok", "{'In':'part1.part2','B':true}", "https://ok"},
        {HL, "https://ok", "{'In':'part1 part2','B':true}", "!none"},
        {HL, "https://ok", "{'In':'','B':false}", "!none"},
        {HL, "https://ok", "{'In':'','B':true}", "!none"},
        {HL, "https://ok", "{'In':'part1.','B':true}", "!none"},
        {HL, "https://ok", "{'In':'.part1','B':true}", "!none"},
        {HL, "https://ok", "{'In':'part1..part2','B':true}", "!none"},
        {HL, "https://ok", "{'In':'part1.-part2','B':true}", "!none"},
        {HL, "https://ok", "{'In':'-a','B':false}", "!none"},
        {HL, "https://ok", "{'In':'a-','B':false}", "!none"},
        {HL, "https://ok", "{'In':'a_b','B':false}", "!none"},
        {HL, "https://ok", "{'In':'us-east-1/../x','B':true}", "!none"},
        {HL, "https://ok", "{'In':'a..b','B':true}", "!none"},
        {HL, "https://ok", "{'In':'x','B':null}", "=ANVIL_EINVAL"},
    };
#undef HL
    CHECK(ep_run_cases(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

/* Labels of 63, 64 and 500 bytes, alone and among others. */
TEST(endpoint_host_label_lengths) {
    char l63[64], l64[65], l500[501], two[130];
    memset(l63, 'a', 63);
    l63[63] = '\0';
    memset(l64, 'b', 64);
    l64[64] = '\0';
    memset(l500, 'c', 500);
    l500[500] = '\0';
    snprintf(two, sizeof two, "%s.%s", l63, l63);
    char p[6][700];
    snprintf(p[0], sizeof p[0], "{'In':'%s','B':false}", l63);
    snprintf(p[1], sizeof p[1], "{'In':'%s','B':false}", l64);
    snprintf(p[2], sizeof p[2], "{'In':'%s','B':true}", l500);
    snprintf(p[3], sizeof p[3], "{'In':'%s','B':true}", two);
    snprintf(p[4], sizeof p[4], "{'In':'%s.%s','B':true}", l63, l64);
    snprintf(p[5], sizeof p[5], "{'In':'%s','B':false}", two);
    const char *hl = "{'fn':'isValidHostLabel','argv':[{'ref':'In'},{'ref':'B'}]}";
    const struct ep_case cases[] = {
        {hl, "https://ok", p[0], "https://ok"}, {hl, "https://ok", p[1], "!none"}, {hl, "https://ok", p[2], "!none"},
        {hl, "https://ok", p[3], "https://ok"}, {hl, "https://ok", p[4], "!none"}, {hl, "https://ok", p[5], "!none"},
    };
    CHECK(ep_run_cases(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_split) {
#define PART(i) ",{'fn':'coalesce','argv':[{'fn':'getAttr','argv':[{'ref':'p'},'[" #i "]']},'_'],'assign':'a" #i "'}"
#define SPLIT(limit)                                                                                                   \
    "{'fn':'split','argv':[{'ref':'In'},{'ref':'In2'}," #limit "],'assign':'p'}" PART(0) PART(1) PART(2) PART(3)
#define OUT "https://x/{a0}/{a1}/{a2}/{a3}"
    static const struct ep_case cases[] = {
        {SPLIT(0), OUT, "{'In':'a--b--c','In2':'--'}", "https://x/a/b/c/_"},
        {SPLIT(2), OUT, "{'In':'a--b--c','In2':'--'}", "https://x/a/b--c/_/_"},
        {SPLIT(1), OUT, "{'In':'a--b--c','In2':'--'}", "https://x/a--b--c/_/_/_"},
        {SPLIT(0), OUT, "{'In':'','In2':'--'}", "https://x//_/_/_"},
        {SPLIT(0), OUT, "{'In':'--','In2':'--'}", "https://x///_/_"},
        {SPLIT(0), OUT, "{'In':'----','In2':'--'}", "https://x////_"},
        {SPLIT(0), OUT, "{'In':'--b--','In2':'--'}", "https://x//b//_"},
        {SPLIT(0), OUT, "{'In':'--x-s3--azid--suffix','In2':'--'}", "https://x//x-s3/azid/suffix"},
        {SPLIT(2), OUT, "{'In':'--x-s3--azid--suffix','In2':'--'}", "https://x//x-s3--azid--suffix/_/_"},
        {SPLIT(0), OUT, "{'In':'abc','In2':'x'}", "https://x/abc/_/_/_"},
        {SPLIT(1), OUT, "{'In':'mybucket','In2':'--'}", "https://x/mybucket/_/_/_"},
        {SPLIT(0), OUT, "{'In':'a\\u00e9b','In2':'\\u00e9'}", "https://x/a/b/_/_"},
        /* the delimiter must not be empty */
        {SPLIT(0), OUT, "{'In':'abc','In2':''}", "=ANVIL_EINVAL"},
    };
#undef PART
#undef SPLIT
#undef OUT
    CHECK(ep_run_cases(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_coalesce_ite) {
    static const struct ep_case cases[] = {
        {"{'fn':'coalesce','argv':[{'ref':'In'},{'ref':'In2'},'d'],'assign':'c'}", "https://{c}", "{}", "https://d"},
        {"{'fn':'coalesce','argv':[{'ref':'In'},{'ref':'In2'},'d'],'assign':'c'}", "https://{c}", "{'In2':'b'}",
         "https://b"},
        {"{'fn':'coalesce','argv':[{'ref':'In'},{'ref':'In2'},'d'],'assign':'c'}", "https://{c}",
         "{'In':'a','In2':'b'}", "https://a"},
        /* all unset: none */
        {"{'fn':'coalesce','argv':[{'ref':'In'},{'ref':'In2'}],'assign':'c'}", "https://{c}", "{}", "!none"},
        /* false is a value */
        {"{'fn':'booleanEquals','argv':[{'fn':'coalesce','argv':[{'ref':'B'},true]},false]}", "https://ok",
         "{'B':false}", "https://ok"},
        {"{'fn':'booleanEquals','argv':[{'fn':'coalesce','argv':[{'ref':'B'},true]},false]}", "https://ok", "{}",
         "!none"},
        /* lazy: what follows the first set argument is not evaluated */
        {"{'fn':'coalesce','argv':[{'ref':'In'},{'fn':'uriEncode','argv':[{'ref':'In2'}]}],'assign':'c'}",
         "https://{c}", "{'In':'a'}", "https://a"},
        {"{'fn':'coalesce','argv':[{'ref':'In'},{'fn':'uriEncode','argv':[{'ref':'In2'}]}],'assign':'c'}",
         "https://{c}", "{}", "=ANVIL_EINVAL"},
        {"{'fn':'ite','argv':[{'ref':'B'},'-fips',''],'assign':'s'}", "https://svc{s}.x", "{'B':true}",
         "https://svc-fips.x"},
        {"{'fn':'ite','argv':[{'ref':'B'},'-fips',''],'assign':'s'}", "https://svc{s}.x", "{'B':false}",
         "https://svc.x"},
        {"{'fn':'ite','argv':[{'ref':'B'},{'ref':'In'},'z'],'assign':'s'}", "https://{s}", "{'B':true}", "!none"},
        {"{'fn':'ite','argv':[{'ref':'B'},{'fn':'uriEncode','argv':[{'ref':'In2'}]},'z'],'assign':'s'}", "https://{s}",
         "{'B':false}", "https://z"},
        {"{'fn':'ite','argv':[{'ref':'B'},'a','b'],'assign':'s'}", "https://{s}", "{}", "=ANVIL_EINVAL"},
    };
    CHECK(ep_run_cases(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_get_attr_and_logic) {
    static const struct ep_case cases[] = {
        {"{'fn':'getAttr','argv':[{'ref':'L'},'[1]'],'assign':'e'}", "https://{e}", "{'L':['a','b','c']}", "https://b"},
        {"{'fn':'getAttr','argv':[{'ref':'L'},'[-1]'],'assign':'e'}", "https://{e}", "{'L':['a','b','c']}",
         "https://c"},
        {"{'fn':'getAttr','argv':[{'ref':'L'},'[-3]'],'assign':'e'}", "https://{e}", "{'L':['a','b','c']}",
         "https://a"},
        {"{'fn':'getAttr','argv':[{'ref':'L'},'[3]'],'assign':'e'}", "https://{e}", "{'L':['a','b','c']}", "!none"},
        {"{'fn':'getAttr','argv':[{'ref':'L'},'[-4]'],'assign':'e'}", "https://{e}", "{'L':['a','b','c']}", "!none"},
        {"{'fn':'getAttr','argv':[{'ref':'L'},'[0]'],'assign':'e'}", "https://{e}", "{'L':[]}", "!none"},
        {"{'fn':'getAttr','argv':[{'ref':'L'},'[0]'],'assign':'e'}", "https://{e}", "{}", "=ANVIL_EINVAL"},
        /* isSet looks at optionality only: an empty string is set */
        {"{'fn':'isSet','argv':[{'ref':'In'}]}", "https://ok", "{'In':''}", "https://ok"},
        {"{'fn':'isSet','argv':[{'ref':'In'}]}", "https://ok", "{}", "!none"},
        {"{'fn':'isSet','argv':[{'fn':'getAttr','argv':[{'ref':'L'},'[9]']}]}", "https://ok", "{'L':['a']}", "!none"},
        {"{'fn':'not','argv':[{'fn':'isSet','argv':[{'ref':'In'}]}]}", "https://ok", "{}", "https://ok"},
        {"{'fn':'not','argv':[{'ref':'B'}]}", "https://ok", "{'B':false}", "https://ok"},
        {"{'fn':'not','argv':[{'ref':'B'}]}", "https://ok", "{'B':true}", "!none"},
        {"{'fn':'not','argv':[{'ref':'B'}]}", "https://ok", "{}", "=ANVIL_EINVAL"},
        {"{'fn':'stringEquals','argv':[{'ref':'In'},'x']}", "https://ok", "{'In':'x'}", "https://ok"},
        {"{'fn':'stringEquals','argv':['x',{'ref':'In'}]}", "https://ok", "{'In':'X'}", "!none"},
        {"{'fn':'stringEquals','argv':[{'ref':'In'},{'ref':'In2'}]}", "https://ok", "{'In':'q','In2':'q'}",
         "https://ok"},
        {"{'fn':'stringEquals','argv':[{'ref':'In'},'{In2}-x']}", "https://ok", "{'In':'q-x','In2':'q'}", "https://ok"},
        {"{'fn':'stringEquals','argv':[{'ref':'In'},'x']}", "https://ok", "{}", "=ANVIL_EINVAL"},
        {"{'fn':'booleanEquals','argv':[{'ref':'B'},true]}", "https://ok", "{'B':true}", "https://ok"},
        {"{'fn':'booleanEquals','argv':[false,{'ref':'B'}]}", "https://ok", "{'B':true}", "!none"},
        {"{'fn':'booleanEquals','argv':[{'ref':'B'},{'fn':'not','argv':[{'ref':'B'}]}]}", "https://ok", "{'B':true}",
         "!none"},
        {"{'fn':'booleanEquals','argv':[{'ref':'B'},true]}", "https://ok", "{}", "=ANVIL_EINVAL"},
        /* a condition that gives a string holds: only none and false fail */
        {"{'fn':'uriEncode','argv':[{'ref':'In'}]}", "https://ok", "{'In':''}", "https://ok"},
    };
    CHECK(ep_run_cases(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

/* ---- the AWS library ---- */

TEST(endpoint_parse_arn) {
#define ARN "{'fn':'aws.parseArn','argv':[{'ref':'In'}],'assign':'a'}"
#define OUT "https://x/{a#partition}/{a#service}/r{a#region}/c{a#accountId}/{a#resourceId[0]}"
#define RID(i) ARN ",{'fn':'getAttr','argv':[{'ref':'a'},'resourceId[" #i "]'],'assign':'z'}"
    static const struct ep_case cases[] = {
        {ARN, OUT, "{'In':'arn:aws:sns:us-west-2:012345678910:example-sns-topic-name'}",
         "https://x/aws/sns/rus-west-2/c012345678910/example-sns-topic-name"},
        {ARN, OUT, "{'In':'arn:aws:s3:::bucket_name'}", "https://x/aws/s3/r/c/bucket_name"},
        {ARN, OUT, "{'In':'arn:aws:ec2:us-east-1:012345678910:vpc/vpc-0e9801d129EXAMPLE'}",
         "https://x/aws/ec2/rus-east-1/c012345678910/vpc"},
        {ARN, OUT, "{'In':'arn:aws:iam::012345678910:user/johndoe'}", "https://x/aws/iam/r/c012345678910/user"},
        {RID(1), "https://{z}", "{'In':'arn:aws:ec2:us-east-1:012345678910:vpc/vpc-0e9801d129EXAMPLE'}",
         "https://vpc-0e9801d129EXAMPLE"},
        {RID(2), "https://{z}", "{'In':'arn:aws:s3:us-west-2:123:accesspoint:ap/x'}", "https://x"},
        {RID(-1), "https://{z}", "{'In':'arn:aws:s3:us-west-2:123:accesspoint:ap:x'}", "https://x"},
        {RID(3), "https://{z}", "{'In':'arn:aws:s3:us-west-2:123:accesspoint:ap/x'}", "!none"},
        {RID(-4), "https://{z}", "{'In':'arn:aws:s3:us-west-2:123:accesspoint:ap/x'}", "!none"},
        {RID(1), "https://x{z}", "{'In':'arn:aws:s3:::a/'}", "https://x"},
        /* not ARNs: none */
        {ARN, OUT, "{'In':'11111111-2222-3333-4444-555555555555'}", "!none"},
        {ARN, OUT, "{'In':'arn:aws:s3'}", "!none"},
        {ARN, OUT, "{'In':'arn:aws:s3:us-west-2:123'}", "!none"},
        {ARN, OUT, "{'In':'arn::s3:::x'}", "!none"},
        {ARN, OUT, "{'In':'arn:aws::::x'}", "!none"},
        {ARN, OUT, "{'In':'arn:aws:s3:::'}", "!none"},
        {ARN, OUT, "{'In':'ARN:aws:s3:::x'}", "!none"},
    };
#undef ARN
#undef OUT
#undef RID
    CHECK(ep_run_cases(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_is_virtual_hostable_s3_bucket) {
#define VH "{'fn':'aws.isVirtualHostableS3Bucket','argv':[{'ref':'In'},{'ref':'B'}]}"
    static const struct ep_case cases[] = {
        {VH, "https://ok", "{'In':'bucket-name','B':false}", "https://ok"},
        {VH, "https://ok", "{'In':'abc','B':false}", "https://ok"},
        {VH, "https://ok", "{'In':'ab','B':false}", "!none"},
        {VH, "https://ok", "{'In':'Bucket','B':false}", "!none"},
        {VH, "https://ok", "{'In':'bucket_name','B':false}", "!none"},
        {VH, "https://ok", "{'In':'bucket-','B':false}", "!none"},
        {VH, "https://ok", "{'In':'-bucket','B':false}", "!none"},
        {VH, "https://ok", "{'In':'a.b.c','B':false}", "!none"},
        {VH, "https://ok", "{'In':'a.b.c','B':true}", "https://ok"},
        {VH, "https://ok", "{'In':'a..b','B':true}", "!none"},
        {VH, "https://ok", "{'In':'abc.-d','B':true}", "!none"},
        {VH, "https://ok", "{'In':'abc-.d','B':true}", "!none"},
        {VH, "https://ok", "{'In':'192.168.5.4','B':true}", "!none"},
        {VH, "https://ok", "{'In':'192.168.5.256','B':true}", "https://ok"},
        {VH, "https://ok", "{'In':'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa','B':false}",
         "https://ok"},
        {VH, "https://ok", "{'In':'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa','B':false}",
         "!none"},
    };
#undef VH
    CHECK(ep_run_cases(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

/* ---- templates and endpoints ---- */

TEST(endpoint_templates_and_escapes) {
    static const struct ep_case cases[] = {
        {"", "https://x/{{a}}/{In}/}}", "{'In':'v'}", "https://x/{a}/v/}"},
        {"", "https://x/{{{In}}}", "{'In':'v'}", "https://x/{v}"},
        {"", "https://{In}{In2}{In}", "{'In':'a','In2':'b'}", "https://aba"},
        {"", "{In}", "{'In':'https://whole'}", "https://whole"},
        {"", "https://plain", "{}", "https://plain"},
        /* a template's reference must be set when it is expanded */
        {"", "https://{In}", "{}", "=ANVIL_EINVAL"},
        {"{'fn':'aws.partition','argv':[{'ref':'In'}],'assign':'p'}", "https://s.{In}.{p#dnsSuffix}",
         "{'In':'cn-north-1'}", "https://s.cn-north-1.amazonaws.com.cn"},
    };
    CHECK(ep_run_cases(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

TEST(endpoint_error_rules_are_templates) {
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    struct anvil_endpoint ep;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(ep_compile(t, NULL, &rules, &diag,
                        "{'version':'1.0','parameters':{'In':{'type':'string','required':true}},'rules':["
                        "{'type':'error','conditions':[{'fn':'stringEquals','argv':[{'ref':'In'},'ref']}],"
                        "'error':{'ref':'In'}},"
                        "{'type':'tree','conditions':[],'rules':["
                        "{'type':'error','conditions':[],'error':'Invalid ARN: `{In}` has {{braces}}'}]}]}"));
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'In':'my_bucket'}"), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "Invalid ARN: `my_bucket` has {braces}");
    CHECK(ep_eq(ep.error, "Invalid ARN: `my_bucket` has {braces}"));
    CHECK_EQ_U64(ep.rule, 2);
    char path[64];
    anvil_endpoint_rule_path(rules, ep.rule, path, sizeof path);
    CHECK_STR_EQ(path, "rules[1].rules[0]");
    CHECK(ep.url.len == 0 && anvil_json_len(&ep.properties) == 0);
    /* a reference as the message */
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'In':'ref'}"), ANVIL_ECONFIG);
    CHECK(ep_eq(ep.error, "ref"));
    CHECK_EQ_U64(ep.rule, 0);
    /* a message longer than the diag holds is whole in ep.error */
    char big[2100];
    memset(big, 'm', 2000);
    big[2000] = '\0';
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'In':'%s'}", big), ANVIL_ECONFIG);
    CHECK_EQ_U64(ep.error.len, 2000 + strlen("Invalid ARN: `` has {braces}"));
    CHECK_EQ_U64(strlen(diag.message), ANVIL_DIAG_MESSAGE_MAX - 1);
done:
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
}

TEST(endpoint_properties_and_headers) {
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    struct anvil_endpoint ep;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(ep_compile(
        t, NULL, &rules, &diag,
        "{'version':'1.0','parameters':{'Region':{'type':'String','required':true},'In2':{'type':'string'}},"
        "'rules':[{'type':'endpoint','conditions':[],'endpoint':{'url':'https://s.{Region}.example',"
        "'properties':{'authSchemes':[{'name':'sigv4','signingRegion':'{Region}','disableDoubleEncoding':true,"
        "'n':3,'f':1.5,'z':null}],'nested':{'deep':['{Region}-x','lit',{'a':{'b':'{{c}}'}}]},'empty':{},'none':[]},"
        "'headers':{'x-a':['{Region}','lit',{'ref':'In2'},{'fn':'uriEncode','argv':['a b']}],'x-b':[]}}}]}"));
    CHECK_OK(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':'us-west-2','In2':'w'}"));
    CHECK(ep_eq(ep.url, "https://s.us-west-2.example"));
    CHECK(ep.url.ptr[ep.url.len] == '\0');
    CHECK(ep_json_is(t, &ep.properties,
                     "{'authSchemes':[{'name':'sigv4','signingRegion':'us-west-2','disableDoubleEncoding':true,'n':3,"
                     "'f':1.5,'z':null}],'nested':{'deep':['us-west-2-x','lit',{'a':{'b':'{c}'}}]},'empty':{},"
                     "'none':[]}"));
    CHECK(ep_json_is(t, &ep.headers, "{'x-a':['us-west-2','lit','w','a%20b'],'x-b':[]}"));
    CHECK(anvil_json_object_get_cstr(&ep.properties, "authSchemes") != NULL);
    /* a header value that is not set */
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':'us-west-2'}"), ANVIL_EINVAL);
    CHECK(strstr(diag.message, "header value is not set") != NULL);
    CHECK(ep.url.len == 0 && anvil_json_len(&ep.headers) == 0);
done:
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
}

/* Objects of 16 members or more carry a hash index: the result's must work. */
TEST(endpoint_large_property_objects) {
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    struct anvil_endpoint ep;
    char members[2048] = "";
    for (int i = 0; i < 40; i++) {
        char one[64];
        snprintf(one, sizeof one, "%s'k%d':'{R}%d'", i ? "," : "", i, i);
        strcat(members, one);
    }
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(ep_compile(t, NULL, &rules, &diag,
                        "{'version':'1.0','parameters':{'R':{'type':'string','required':true}},"
                        "'rules':[{'type':'endpoint','conditions':[],'endpoint':{'url':'https://x',"
                        "'properties':{%s},'headers':{%s}}}]}",
                        members, "'h':['{R}']"));
    CHECK_OK(ep_resolve(t, rules, arena, &ep, &diag, "{'R':'r'}"));
    CHECK_EQ_U64(anvil_json_len(&ep.properties), 40);
    CHECK_STR_EQ(anvil_json_string_ptr(anvil_json_object_get_cstr(&ep.properties, "k0")), "r0");
    CHECK_STR_EQ(anvil_json_string_ptr(anvil_json_object_get_cstr(&ep.properties, "k39")), "r39");
    CHECK(anvil_json_object_get_cstr(&ep.properties, "k40") == NULL);
done:
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
}

TEST(endpoint_url_forms) {
    static const struct ep_case cases[] = {
        {"{'fn':'isSet','argv':[{'ref':'In'}]}", "{In}", "{'In':'https://from.param'}", "https://from.param"},
    };
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    struct anvil_endpoint ep;
    CHECK(ep_run_cases(t, cases, ANVIL_ARRAY_LEN(cases)));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    /* the url as a reference and as a function */
    CHECK_OK(ep_compile(t, NULL, &rules, &diag,
                        "{'version':'1.0','parameters':{'E':{'type':'string'}},'rules':["
                        "{'type':'endpoint','conditions':[{'fn':'isSet','argv':[{'ref':'E'}]}],"
                        "'endpoint':{'url':{'ref':'E'}}},"
                        "{'type':'endpoint','conditions':[],'endpoint':{'url':{'fn':'uriEncode','argv':['a b']}}}]}"));
    CHECK_OK(ep_resolve(t, rules, arena, &ep, &diag, "{'E':'http://localhost:8000'}"));
    CHECK(ep_eq(ep.url, "http://localhost:8000"));
    CHECK_EQ_U64(ep.rule, 0);
    CHECK_OK(ep_resolve(t, rules, arena, &ep, &diag, "{}"));
    CHECK(ep_eq(ep.url, "a%20b"));
    CHECK_EQ_U64(ep.rule, 1);
    CHECK(ep_json_is(t, &ep.properties, "{}"));
    CHECK(ep_json_is(t, &ep.headers, "{}"));
done:
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
}

/* ---- assign and scope ---- */

TEST(endpoint_assign_scope) {
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    struct anvil_endpoint ep;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    /*
     * `v` of the first tree is seen by later conditions and by the tree's
     * descendants; once the tree is left, a sibling may assign `v` again.
     */
    CHECK_OK(
        ep_compile(t, NULL, &rules, &diag,
                   "{'version':'1.0','parameters':{'In':{'type':'string','required':true}},'rules':["
                   "{'type':'tree','conditions':[{'fn':'substring','argv':[{'ref':'In'},0,1,false],'assign':'v'},"
                   "{'fn':'stringEquals','argv':[{'ref':'v'},'a']}],'rules':["
                   "{'type':'tree','conditions':[{'fn':'uriEncode','argv':['{v}/{In}'],'assign':'w'}],'rules':["
                   "{'type':'endpoint','conditions':[{'fn':'stringEquals','argv':[{'ref':'In'},'ab']}],"
                   "'endpoint':{'url':'https://{v}.{w}'}}]},"
                   "{'type':'endpoint','conditions':[],'endpoint':{'url':'https://never'}}]},"
                   "{'type':'endpoint','conditions':[{'fn':'substring','argv':[{'ref':'In'},0,2,false],'assign':'v'}],"
                   "'endpoint':{'url':'https://second.{v}'}}]}"));
    CHECK_OK(ep_resolve(t, rules, arena, &ep, &diag, "{'In':'ab'}"));
    CHECK(ep_eq(ep.url, "https://a.a%2Fab"));
    char path[64];
    anvil_endpoint_rule_path(rules, ep.rule, path, sizeof path);
    CHECK_STR_EQ(path, "rules[0].rules[0].rules[0]");
    /* the first tree fails its conditions: the sibling's own `v` */
    CHECK_OK(ep_resolve(t, rules, arena, &ep, &diag, "{'In':'xyz'}"));
    CHECK(ep_eq(ep.url, "https://second.xy"));
    anvil_endpoint_rule_path(rules, ep.rule, path, sizeof path);
    CHECK_STR_EQ(path, "rules[1]");
    /* an inner tree whose rules all fail ends resolution: no fallback to siblings */
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'In':'ac'}"), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "no endpoint rule matched");
    anvil_endpoint_rule_path(rules, ep.rule, path, sizeof path);
    CHECK_STR_EQ(path, "rules[0].rules[0]");
    CHECK(ep.error.len == 0);
done:
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
}

TEST(endpoint_assign_refused) {
    static const struct {
        const char *rules;
        const char *message;
    } cases[] = {
        /* a variable of a sibling rule is out of scope */
        {"{'type':'endpoint','conditions':[{'fn':'uriEncode','argv':['x'],'assign':'v'}],'endpoint':{'url':'https://a'}},"
         "{'type':'endpoint','conditions':[],'endpoint':{'url':'https://{v}'}}",
         "rules[1].endpoint.url: `v` is not a parameter or a variable in scope"},
        /* ... and so is one a later condition assigns */
        {"{'type':'endpoint','conditions':[{'fn':'isSet','argv':[{'ref':'v'}]},{'fn':'uriEncode','argv':['x'],"
         "'assign':'v'}],'endpoint':{'url':'https://a'}}",
         "rules[0].conditions[0].argv[0]: `v` is not a parameter or a variable in scope"},
        /* no shadowing of a parameter, or of a variable in scope */
        {"{'type':'endpoint','conditions':[{'fn':'uriEncode','argv':['x'],'assign':'In'}],'endpoint':{'url':'https://a'}}",
         "rules[0].conditions[0]: `assign`: `In` would shadow the parameter of that name"},
        {"{'type':'tree','conditions':[{'fn':'uriEncode','argv':['x'],'assign':'v'}],'rules':["
         "{'type':'endpoint','conditions':[{'fn':'uriEncode','argv':['y'],'assign':'v'}],'endpoint':{'url':'https://a'}}]}",
         "rules[0].rules[0].conditions[0]: `assign`: `v` would shadow the variable of that name in scope"},
        {"{'type':'endpoint','conditions':[{'fn':'uriEncode','argv':['x'],'assign':''}],'endpoint':{'url':'https://a'}}",
         "rules[0].conditions[0]: `assign` must be a non-empty name"},
        {"{'type':'endpoint','conditions':[{'fn':'uriEncode','argv':['x'],'assign':3}],'endpoint':{'url':'https://a'}}",
         "rules[0].conditions[0]: `assign` must be a non-empty name"},
    };
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(cases); i++) {
        struct anvil_endpoint_rules *rules = NULL;
        struct anvil_diag diag;
        CHECK_STATUS(ep_compile(t, NULL, &rules, &diag,
                                "{'version':'1.0','parameters':{'In':{'type':'string'}},'rules':[%s]}", cases[i].rules),
                     ANVIL_EMODEL);
        char want[256];
        snprintf(want, sizeof want, "%s", cases[i].message);
        for (char *p = want; *p; p++) {
            *p = *p == '\'' ? '"' : *p;
        }
        CHECK_STR_EQ(diag.message, want);
        CHECK(rules == NULL);
    }
done:;
}

/* An assignment of none fails its condition and leaves the variable out of the rule. */
TEST(endpoint_assign_none_fails_the_rule) {
    static const struct ep_case cases[] = {
        {"{'fn':'aws.parseArn','argv':[{'ref':'In'}],'assign':'a'}", "https://{a#service}", "{'In':'not-an-arn'}",
         "!none"},
        {"{'fn':'parseURL','argv':[{'ref':'In'}],'assign':'u'}", "https://{u#authority}", "{'In':'ftp://x'}", "!none"},
    };
    CHECK(ep_run_cases(t, cases, ANVIL_ARRAY_LEN(cases)));
done:;
}

/* ---- parameters and resolution statuses ---- */

#define PARAMS_RULES                                                                                                   \
    "{'version':'1.0','parameters':{"                                                                                  \
    "'Region':{'type':'string','builtIn':'AWS::Region','required':true,'documentation':'d'},"                          \
    "'UseFIPS':{'type':'Boolean','builtIn':'AWS::UseFIPS','default':false,'documentation':'d'},"                       \
    "'Names':{'type':'StringArray','default':['a','b']},"                                                              \
    "'Opt':{'type':'string','deprecated':{'message':'old','since':'2020'}}},"                                          \
    "'rules':[{'type':'endpoint','conditions':[{'fn':'booleanEquals','argv':[{'ref':'UseFIPS'},true]}],"               \
    "'endpoint':{'url':'https://fips.{Region}/{Names#[1]}'}},"                                                         \
    "{'type':'endpoint','conditions':[],'endpoint':{'url':'https://{Region}/{Names#[0]}'}}]}"

TEST(endpoint_params) {
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    struct anvil_endpoint ep;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(ep_compile(t, NULL, &rules, &diag, PARAMS_RULES));
    CHECK_EQ_U64(anvil_endpoint_rules_param_count(rules), 4);
    const struct anvil_endpoint_param *p = anvil_endpoint_rules_param_at(rules, 0);
    CHECK(p && ep_eq(p->name, "Region") && p->type == ANVIL_ENDPOINT_PARAM_STRING && p->required);
    CHECK(ep_eq(p->builtin, "AWS::Region") && p->default_value == NULL);
    p = anvil_endpoint_rules_param_at(rules, 1);
    CHECK(p && p->type == ANVIL_ENDPOINT_PARAM_BOOLEAN && p->required && ep_eq(p->builtin, "AWS::UseFIPS"));
    CHECK(anvil_json_is_bool(p->default_value) && !anvil_json_bool(p->default_value));
    p = anvil_endpoint_rules_param_at(rules, 2);
    CHECK(p && p->type == ANVIL_ENDPOINT_PARAM_STRING_ARRAY && p->required && p->builtin.len == 0);
    CHECK(ep_json_is(t, p->default_value, "['a','b']"));
    p = anvil_endpoint_rules_param_at(rules, 3);
    CHECK(p && !p->required && p->default_value == NULL);
    CHECK(anvil_endpoint_rules_param_at(rules, 4) == NULL);
    CHECK_EQ_INT(anvil_endpoint_rules_param_index(rules, ANVIL_SV("UseFIPS")), 1);
    CHECK_EQ_INT(anvil_endpoint_rules_param_index(rules, ANVIL_SV("usefips")), -1);
    CHECK_EQ_INT(anvil_endpoint_rules_param_index(rules, ANVIL_SV("")), -1);

    /* defaults apply to parameters not given, and to nulls */
    CHECK_OK(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':'r1'}"));
    CHECK(ep_eq(ep.url, "https://r1/a"));
    CHECK_OK(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':'r1','UseFIPS':null,'Names':['x','y']}"));
    CHECK(ep_eq(ep.url, "https://r1/x"));
    CHECK_OK(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':'r1','UseFIPS':true}"));
    CHECK(ep_eq(ep.url, "https://fips.r1/b"));

    /* required, and nothing evaluated without it */
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'UseFIPS':true}"), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "the endpoint parameter `Region` is required");
    CHECK_EQ_U64(ep.rule, SIZE_MAX);

    /* values of the wrong type, and names the rule set does not have */
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':5}"), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "the endpoint parameter `Region` must be a string, not number");
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':'r','UseFIPS':'true'}"), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "the endpoint parameter `UseFIPS` must be a boolean, not string");
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':'r','Names':'a'}"), ANVIL_EINVAL);
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':'r','Names':['a',1]}"), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "the endpoint parameter `Names` must be an array of strings, but item 1 is number");
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'Region':'r','Nope':1}"), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "`Nope` is not a parameter of the rule set");
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "['r']"), ANVIL_EINVAL);

    /* positional values */
    struct anvil_json values[4] = {anvil_json_make_null(), anvil_json_make_bool(true), anvil_json_make_null(),
                                   anvil_json_make_null()};
    CHECK_OK(anvil_json_new_string(arena, "us-east-9", 9, &values[0]));
    CHECK_OK(anvil_endpoint_resolve(rules, values, 4, arena, &ep, &diag));
    CHECK(ep_eq(ep.url, "https://fips.us-east-9/b"));
    CHECK_STATUS(anvil_endpoint_resolve(rules, values, 3, arena, &ep, &diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_endpoint_resolve(rules, NULL, 4, arena, &ep, &diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_endpoint_resolve(NULL, values, 4, arena, &ep, &diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_endpoint_resolve(rules, values, 4, NULL, &ep, &diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_endpoint_resolve(rules, values, 4, arena, NULL, &diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_endpoint_resolve_object(rules, NULL, arena, &ep, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "the endpoint parameter `Region` is required");
done:
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
}

TEST(endpoint_no_rule_matched) {
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    struct anvil_endpoint ep;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(ep_compile(t, NULL, &rules, &diag,
                        "{'version':'1.0','parameters':{'In':{'type':'string'}},'rules':["
                        "{'type':'tree','conditions':[{'fn':'isSet','argv':[{'ref':'In'}]},"
                        "{'fn':'stringEquals','argv':[{'ref':'In'},'empty']}],'rules':[]},"
                        "{'type':'endpoint','conditions':[{'fn':'isSet','argv':[{'ref':'In'}]}],"
                        "'endpoint':{'url':'https://{In}'}}]}"));
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{}"), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "no endpoint rule matched");
    CHECK_EQ_U64(ep.rule, SIZE_MAX);
    /* a tree without rules is exhausted at once */
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'In':'empty'}"), ANVIL_ECONFIG);
    CHECK_EQ_U64(ep.rule, 0);
    CHECK_OK(ep_resolve(t, rules, arena, &ep, &diag, "{'In':'x'}"));
    CHECK(ep_eq(ep.url, "https://x"));
    anvil_endpoint_rules_destroy(rules);
    rules = NULL;
    /* a rule set without rules */
    CHECK_OK(ep_compile(t, NULL, &rules, &diag, "{'version':'1.0','parameters':{},'rules':[]}"));
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{}"), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "no endpoint rule matched");
done:
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
}

/* A rule set that hands a function what it cannot take: EINVAL naming the rule and condition. */
TEST(endpoint_runtime_type_errors) {
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    struct anvil_endpoint ep;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(ep_compile(t, NULL, &rules, &diag,
                        "{'version':'1.0','parameters':{'In':{'type':'string'},'B':{'type':'boolean'}},'rules':["
                        "{'type':'tree','conditions':[],'rules':["
                        "{'type':'endpoint','conditions':[{'fn':'isSet','argv':[{'ref':'B'}]},"
                        "{'fn':'stringEquals','argv':[{'ref':'In'},'x']}],'endpoint':{'url':'https://a'}}]}]}"));
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'B':true}"), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "rules[0].rules[0].conditions[1]: `stringEquals`: argument 1 is not set, not a string");
    CHECK(ep.url.len == 0);
done:
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
}

/* The scratch area and the result's arena are bounded: past them, ELIMIT. */
TEST(endpoint_resolve_limits) {
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_arena *arena = NULL, *small = NULL;
    struct anvil_diag diag;
    struct anvil_endpoint ep;
    char *big = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    struct anvil_arena_options small_opts = {.first_block_size = 1024, .max_bytes = 4096};
    CHECK_OK(anvil_arena_new(t->alloc, &small_opts, &small));
    CHECK_OK(ep_compile(t, NULL, &rules, &diag,
                        "{'version':'1.0','parameters':{'In':{'type':'string','required':true}},'rules':["
                        "{'type':'endpoint','conditions':[{'fn':'uriEncode','argv':[{'ref':'In'}],'assign':'e'}],"
                        "'endpoint':{'url':'https://{In}','properties':{'e':'{e}'}}}]}"));
    big = anvil_mem_acquire(t->alloc, 8001);
    CHECK_ALLOC(big);
    memset(big, ' ', 8000);
    big[8000] = '\0';
    /* 8,000 spaces encode to 24,000 bytes: more than the scratch area */
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'In':'%s'}", big), ANVIL_ELIMIT);
    CHECK(strstr(diag.message, "rules[0].conditions[0]: the scratch area") == diag.message);
    /* 3,000 spaces fit the scratch area, but not an arena of 4 KiB with the parameters in it too */
    big[3000] = '\0';
    CHECK_OK(ep_resolve(t, rules, arena, &ep, &diag, "{'In':'%s'}", big));
    CHECK_EQ_U64(ep.url.len, 3008);
    CHECK_STATUS(ep_resolve(t, rules, small, &ep, &diag, "{'In':'%s'}", big), ANVIL_ELIMIT);
    CHECK(ep.url.len == 0);
    anvil_endpoint_rules_destroy(rules);
    rules = NULL;
    /* parseURL keeps views of its input: a 20,000-byte URL fits, unless its path needs a '/' added */
    CHECK_OK(ep_compile(t, NULL, &rules, &diag,
                        "{'version':'1.0','parameters':{'In':{'type':'string','required':true}},'rules':["
                        "{'type':'endpoint','conditions':[{'fn':'parseURL','argv':[{'ref':'In'}],'assign':'u'}],"
                        "'endpoint':{'url':'{u#scheme}://{u#authority}{u#normalizedPath}'}}]}"));
    anvil_mem_release(t->alloc, big);
    big = anvil_mem_acquire(t->alloc, 20001);
    CHECK_ALLOC(big);
    memcpy(big, "https://h/", 10);
    memset(big + 10, 'p', 19990);
    big[19999] = '/';
    big[20000] = '\0';
    CHECK_OK(ep_resolve(t, rules, arena, &ep, &diag, "{'In':'%s'}", big));
    CHECK_EQ_U64(ep.url.len, 20000);
    big[19999] = 'p';
    CHECK_STATUS(ep_resolve(t, rules, arena, &ep, &diag, "{'In':'%s'}", big), ANVIL_ELIMIT);
done:
    anvil_mem_release(t->alloc, big);
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
    anvil_arena_destroy(small);
}

TEST(endpoint_rule_path) {
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_diag diag;
    CHECK_OK(ep_compile(t, NULL, &rules, &diag,
                        "{'version':'1.0','parameters':{},'rules':["
                        "{'type':'error','conditions':[],'error':'a'},"
                        "{'type':'tree','conditions':[],'rules':[{'type':'error','conditions':[],'error':'b'},"
                        "{'type':'tree','conditions':[],'rules':[{'type':'error','conditions':[],'error':'c'}]},"
                        "{'type':'error','conditions':[],'error':'d'}]}]}"));
    static const char *const want[] = {
        "rules[0]",         "rules[1]", "rules[1].rules[0]", "rules[1].rules[1]", "rules[1].rules[1].rules[0]",
        "rules[1].rules[2]"};
    char path[64];
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(want); i++) {
        anvil_endpoint_rule_path(rules, i, path, sizeof path);
        CHECK_STR_EQ(path, want[i]);
    }
    anvil_endpoint_rule_path(rules, 6, path, sizeof path);
    CHECK_STR_EQ(path, "");
    anvil_endpoint_rule_path(rules, SIZE_MAX, path, sizeof path);
    CHECK_STR_EQ(path, "");
    /* cut to the size given, whole segments only */
    anvil_endpoint_rule_path(rules, 4, path, 20);
    CHECK_STR_EQ(path, "rules[1].rules[1]");
    anvil_endpoint_rule_path(rules, 4, path, 3);
    CHECK_STR_EQ(path, "");
    anvil_endpoint_rule_path(NULL, 0, path, sizeof path);
    CHECK_STR_EQ(path, "");
    anvil_endpoint_rule_path(rules, 0, NULL, 0);
    CHECK_EQ_U64(anvil_endpoint_rules_param_count(NULL), 0);
    CHECK(anvil_endpoint_rules_param_at(NULL, 0) == NULL);
    CHECK_EQ_INT(anvil_endpoint_rules_param_index(NULL, ANVIL_SV("x")), -1);
    anvil_endpoint_rules_destroy(NULL);
done:
    anvil_endpoint_rules_destroy(rules);
}

/* One compiled rule set, many resolutions into one arena, each result standing alone. */
TEST(endpoint_results_live_in_the_arena) {
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    struct anvil_endpoint a, b;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(ep_compile(t, NULL, &rules, &diag,
                        "{'version':'1.0','parameters':{'R':{'type':'string','required':true}},'rules':["
                        "{'type':'endpoint','conditions':[],'endpoint':{'url':'https://{R}.example',"
                        "'properties':{'authSchemes':[{'name':'sigv4','signingRegion':'{R}','signingName':'svc'}]},"
                        "'headers':{'x-r':['{R}']}}}]}"));
    CHECK_OK(ep_resolve(t, rules, arena, &a, &diag, "{'R':'region-one'}"));
    CHECK_OK(ep_resolve(t, rules, arena, &b, &diag, "{'R':'region-two'}"));
    anvil_endpoint_rules_destroy(rules);
    rules = NULL;
    CHECK(ep_eq(a.url, "https://region-one.example") && ep_eq(b.url, "https://region-two.example"));
    CHECK(ep_json_is(t, &a.properties,
                     "{'authSchemes':[{'name':'sigv4','signingRegion':'region-one','signingName':'svc'}]}"));
    CHECK(ep_json_is(t, &b.headers, "{'x-r':['region-two']}"));
done:
    anvil_endpoint_rules_destroy(rules);
    anvil_arena_destroy(arena);
}
