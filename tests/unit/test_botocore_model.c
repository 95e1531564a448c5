/*
 * botocore service models (service-2.json) as anvil models: small documents
 * per protocol, and the Smithy traits each botocore key becomes, read back
 * from the model's JSON AST; then documents that are wrong, each giving an
 * event or error that names the shape and member. The real services run in
 * tests/conformance/botocore_services.c.
 */

#include <stdio.h>
#include <string.h>

#include "harness.h"

/* Documents are written with ' for ": s_doc() turns them into JSON (two at a time). */
static const char *s_doc(int slot, const char *text) {
    static char buffers[2][16384];
    char *out = buffers[slot & 1];
    size_t n = 0;
    for (; text[n] && n + 1 < sizeof(buffers[0]); n++) {
        out[n] = text[n] == '\'' ? '"' : text[n];
    }
    out[n] = '\0';
    return out;
}

static int s_assemble(struct anvil_test *t, const char *text, enum anvil_model_format format,
                      struct anvil_model **model, struct anvil_events **events, struct anvil_diag *diag) {
    struct anvil_model_source src = {"service-2.json", text, strlen(text), format};
    return anvil_model_assemble(t->alloc, &src, 1, NULL, model, events, diag);
}

/* The botocore document (AUTO) assembles with no ERROR event, and `query` on its AST gives `want` (JSON). */
static void s_ast(struct anvil_test *t, int line, const char *doc, const char *query, const char *want) {
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_jmespath *expr = NULL;
    struct anvil_json_doc *want_doc = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    int rc = s_assemble(t, doc, ANVIL_MODEL_FORMAT_AUTO, &model, &events, &diag);
    if (rc != ANVIL_OK) {
        if (!anvil_test_status_mismatch(t, __FILE__, line, "assemble", rc, ANVIL_OK)) {
            anvil_test_fail(t, __FILE__, line, "diag: %s", diag.message);
        }
        goto done;
    }
    CHECK_OK(anvil_jmespath_compile(t->alloc, query, strlen(query), NULL, &expr, &diag));
    const char *wanted = s_doc(1, want);
    CHECK_OK(anvil_json_parse(t->alloc, wanted, strlen(wanted), NULL, &want_doc, &diag));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    const struct anvil_json *ast = anvil_model_ast(model);
    CHECK_ALLOC(ast);
    struct anvil_json got;
    CHECK_OK(anvil_jmespath_search(expr, ast, arena, &got, &diag));
    if (!anvil_json_equal(&got, anvil_json_doc_root(want_doc))) {
        struct anvil_buf text;
        anvil_buf_init(&text, t->alloc, 0);
        if (anvil_json_write(&got, 0, &text) == ANVIL_OK && anvil_buf_append(&text, "", 1) == ANVIL_OK) {
            anvil_test_fail(t, __FILE__, line, "%s gave %s, want %s", query, text.data, wanted);
        } else {
            anvil_test_fail(t, __FILE__, line, "%s: not %s", query, wanted);
        }
        anvil_buf_clean_up(&text);
    }
done:
    anvil_arena_destroy(arena);
    anvil_json_doc_destroy(want_doc);
    anvil_jmespath_destroy(expr);
    anvil_events_destroy(events);
    anvil_model_destroy(model);
}

/* Assembling `doc` gives an event of `severity` on `shape` whose message holds `message`. */
static void s_event(struct anvil_test *t, int line, const char *doc, enum anvil_severity severity, const char *shape,
                    const char *message) {
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    int rc = s_assemble(t, doc, ANVIL_MODEL_FORMAT_AUTO, &model, &events, &diag);
    if (rc == ANVIL_ENOMEM || !events) {
        anvil_test_status_mismatch(t, __FILE__, line, "assemble", rc, ANVIL_OK);
        goto done;
    }
    if (severity == ANVIL_SEVERITY_ERROR && (rc != ANVIL_EMODEL || model)) {
        anvil_test_fail(t, __FILE__, line, "an ERROR event must fail the assembly (rc %d)", rc);
    }
    for (size_t i = 0; i < anvil_events_count(events); i++) {
        const struct anvil_event *e = anvil_events_at(events, i);
        if (e->severity == severity && anvil_sv_eq_cstr(e->shape_id, shape) && strstr(e->message, message)) {
            goto done;
        }
    }
    anvil_test_fail(t, __FILE__, line, "no %s event on `%s` holding \"%s\" (rc %d, diag %s)",
                    anvil_severity_name(severity), shape, message, rc, diag.message);
    for (size_t i = 0; i < anvil_events_count(events); i++) {
        const struct anvil_event *e = anvil_events_at(events, i);
        fprintf(stderr, "    [%s] %.*s: %s | %s\n", anvil_severity_name(e->severity), (int)e->shape_id.len,
                e->shape_id.ptr, e->message, e->event_id);
    }
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
}

/* Assembling `doc` as `format` fails with `code` and a message holding `message`. */
static void s_fails(struct anvil_test *t, int line, const char *doc, enum anvil_model_format format, int code,
                    const char *message) {
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    int rc = s_assemble(t, doc, format, &model, &events, &diag);
    if (rc != code) {
        if (!anvil_test_status_mismatch(t, __FILE__, line, "assemble", rc, code)) {
            anvil_test_fail(t, __FILE__, line, "diag: %s", diag.message);
        }
        goto done;
    }
    if (!strstr(diag.message, message)) {
        anvil_test_fail(t, __FILE__, line, "diag \"%s\", want it to hold \"%s\"", diag.message, message);
    }
    CHECK(model == NULL);
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
}

/* ---- restJson1 ---- */

#define REST_JSON_META                                                                                                 \
    "'metadata':{'apiVersion':'2020-01-01','endpointPrefix':'things','protocol':'rest-json',"                          \
    "'serviceId':'Thing Maker','serviceFullName':'Thing Maker Service','signingName':'thingsign',"                     \
    "'signatureVersion':'v4','jsonVersion':'1.1','uid':'things-2020-01-01'}"

static const char s_rest_json[] =
    "{'version':'2.0'," REST_JSON_META ","
    "'operations':{"
    " 'GetThing':{'name':'GetThing','http':{'method':'GET','requestUri':'/things/{thing_id}/parts/{Path+}?list',"
    "   'responseCode':201},'input':{'shape':'GetThingRequest'},'output':{'shape':'GetThingResponse'},"
    "   'errors':[{'shape':'NotFound'},{'shape':'Throttled'},{'shape':'Broken'}],"
    "   'endpoint':{'hostPrefix':'{Account}.data-'},'idempotent':true,'documentation':'<p>Gets.</p>'},"
    " 'ListThings':{'name':'ListThings','http':{'method':'GET','requestUri':'/things'},"
    "   'output':{'shape':'ListThingsResponse'},'readonly':true,'deprecated':true,'deprecatedMessage':'use Find'}"
    "},"
    "'shapes':{"
    " 'GetThingRequest':{'type':'structure','required':['ThingId','Path','Account'],'members':{"
    "   'ThingId':{'shape':'Id','location':'uri','locationName':'thing_id'},"
    "   'Path':{'shape':'Id','location':'uri','locationName':'Path'},"
    "   'Limit':{'shape':'Int','location':'querystring','locationName':'max-items'},"
    "   'Tags':{'shape':'TagList','location':'querystring','locationName':'tag'},"
    "   'Extra':{'shape':'StringMap','location':'querystring'},"
    "   'Token':{'shape':'Id','location':'header','locationName':'X-Token'},"
    "   'Meta':{'shape':'StringMap','location':'headers','locationName':'x-amz-meta-'},"
    "   'Body':{'shape':'Id','locationName':'body'},"
    "   'Stamp':{'shape':'Time','timestampFormat':'iso8601'},"
    "   'ClientToken':{'shape':'Id','idempotencyToken':true},"
    "   'Account':{'shape':'Id','hostLabel':true,'contextParam':{'name':'AccountId'}}}},"
    " 'GetThingResponse':{'type':'structure','payload':'Data','members':{"
    "   'Status':{'shape':'Int','location':'statusCode'},"
    "   'Version':{'shape':'Id','location':'header','locationName':'ETag'},"
    "   'Data':{'shape':'Blob'}}},"
    " 'ListThingsResponse':{'type':'structure','members':{'Things':{'shape':'TagList'}}},"
    " 'NotFound':{'type':'structure','members':{'message':{'shape':'Id'}},'error':{'httpStatusCode':404,"
    "   'senderFault':true},'exception':true},"
    " 'Throttled':{'type':'structure','members':{},'error':{'httpStatusCode':429},'exception':true,"
    "   'retryable':{'throttling':true}},"
    " 'Broken':{'type':'structure','members':{},'exception':true,'fault':true},"
    " 'Id':{'type':'string','min':1,'max':64,'pattern':'.*'},"
    " 'Int':{'type':'integer','box':true},"
    " 'TagList':{'type':'list','member':{'shape':'Id'}},"
    " 'StringMap':{'type':'map','key':{'shape':'Id'},'value':{'shape':'Id'}},"
    " 'Time':{'type':'timestamp','timestampFormat':'unixTimestamp'},"
    " 'Blob':{'type':'blob'}"
    "}}";

#define NS "com.amazonaws.thingmaker#"

TEST(botocore_service_shape) {
    const char *doc = s_doc(0, s_rest_json);
    /* The namespace and name are the SDK id's (serviceId); the signing name is signingName's. */
    s_ast(t, __LINE__, doc, "shapes.\"" NS "ThingMaker\"",
          "{'type':'service','version':'2020-01-01',"
          "'operations':[{'target':'" NS "GetThing'},{'target':'" NS "ListThings'}],"
          "'traits':{'aws.api#service':{'sdkId':'Thing Maker','endpointPrefix':'things'},"
          "'aws.auth#sigv4':{'name':'thingsign'},'aws.protocols#restJson1':{},"
          "'smithy.api#title':'Thing Maker Service'}}");
    /* Documentation, min, max, pattern and box are not kept. */
    s_ast(t, __LINE__, doc, "[shapes.\"" NS "Id\", shapes.\"" NS "Int\"]", "[{'type':'string'},{'type':'integer'}]");
}

TEST(botocore_rest_json_operation) {
    const char *doc = s_doc(0, s_rest_json);
    /* Labels are renamed from botocore's locationName (thing_id) to the member's name, as Smithy binds them. */
    s_ast(t, __LINE__, doc, "shapes.\"" NS "GetThing\"",
          "{'type':'operation','input':{'target':'" NS "GetThingRequest'},"
          "'output':{'target':'" NS "GetThingResponse'},"
          "'errors':[{'target':'" NS "NotFound'},{'target':'" NS "Throttled'},{'target':'" NS "Broken'}],"
          "'traits':{'smithy.api#http':{'method':'GET','uri':'/things/{ThingId}/parts/{Path+}?list','code':201},"
          "'smithy.api#idempotent':{},'smithy.api#endpoint':{'hostPrefix':'{Account}.data-'}}}");
    s_ast(t, __LINE__, doc, "shapes.\"" NS "ListThings\".traits",
          "{'smithy.api#http':{'method':'GET','uri':'/things'},'smithy.api#readonly':{},"
          "'smithy.api#deprecated':{'message':'use Find'}}");
    s_ast(t, __LINE__, doc, "shapes.\"" NS "ListThings\".input", "{'target':'smithy.api#Unit'}");
}

TEST(botocore_rest_json_members) {
    const char *doc = s_doc(0, s_rest_json);
    const char *in = "shapes.\"" NS "GetThingRequest\".members";
    char query[256];
    static const char *const cases[][2] = {
        {"ThingId", "{'smithy.api#required':{},'smithy.api#httpLabel':{}}"},
        {"Path", "{'smithy.api#required':{},'smithy.api#httpLabel':{}}"},
        {"Limit", "{'smithy.api#httpQuery':'max-items'}"},
        {"Tags", "{'smithy.api#httpQuery':'tag'}"},
        {"Extra", "{'smithy.api#httpQueryParams':{}}"},
        {"Token", "{'smithy.api#httpHeader':'X-Token'}"},
        {"Meta", "{'smithy.api#httpPrefixHeaders':'x-amz-meta-'}"},
        {"Body", "{'smithy.api#jsonName':'body'}"},
        {"Stamp", "{'smithy.api#timestampFormat':'date-time'}"},
        {"ClientToken", "{'smithy.api#idempotencyToken':{}}"},
        {"Account", "{'smithy.api#required':{},'smithy.api#hostLabel':{},'smithy.rules#contextParam':"
                    "{'name':'AccountId'}}"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        snprintf(query, sizeof query, "%s.%s.traits", in, cases[i][0]);
        s_ast(t, __LINE__, doc, query, cases[i][1]);
    }
    s_ast(t, __LINE__, doc, "shapes.\"" NS "GetThingResponse\".members.*.traits",
          "[{'smithy.api#httpResponseCode':{}},{'smithy.api#httpHeader':'ETag'},{'smithy.api#httpPayload':{}}]");
    s_ast(t, __LINE__, doc, "shapes.\"" NS "Time\"",
          "{'type':'timestamp','traits':{'smithy.api#timestampFormat':'epoch-seconds'}}");
    s_ast(t, __LINE__, doc, "shapes.\"" NS "StringMap\"",
          "{'type':'map','key':{'target':'" NS "Id'},'value':{'target':'" NS "Id'}}");
}

TEST(botocore_errors) {
    const char *doc = s_doc(0, s_rest_json);
    s_ast(t, __LINE__, doc, "shapes.\"" NS "NotFound\".traits",
          "{'smithy.api#error':'client','smithy.api#httpError':404}");
    s_ast(t, __LINE__, doc, "shapes.\"" NS "Throttled\".traits",
          "{'smithy.api#error':'client','smithy.api#httpError':429,'smithy.api#retryable':{'throttling':true}}");
    s_ast(t, __LINE__, doc, "shapes.\"" NS "Broken\".traits", "{'smithy.api#error':'server'}");
    /* A 5xx status is the service's fault, whatever senderFault says; error.code is the awsQuery code. */
    s_ast(t, __LINE__,
          s_doc(0, "{'metadata':{'protocol':'query','apiVersion':'2011-01-01','endpointPrefix':'q','serviceId':'Q',"
                   "'xmlNamespace':'http://q.amazonaws.com/doc/2011-01-01/'},'operations':{},'shapes':{"
                   "'Busy':{'type':'structure','members':{},'exception':true,"
                   "'error':{'code':'Busy.Now','httpStatusCode':500,'senderFault':true}}}}"),
          "shapes.\"com.amazonaws.q#Busy\".traits",
          "{'smithy.api#error':'server','smithy.api#httpError':500,"
          "'aws.protocols#awsQueryError':{'code':'Busy.Now','httpResponseCode':500}}");
}

/* ---- awsJson ---- */

static const char s_aws_json[] =
    "{'metadata':{'apiVersion':'2015-01-01','endpointPrefix':'widgets','protocol':'json','jsonVersion':'1.1',"
    "'serviceId':'Widgets','signatureVersion':'v4','targetPrefix':'WidgetService_20150101'},"
    "'operations':{'PutWidget':{'name':'PutWidget','http':{'method':'POST','requestUri':'/'},"
    "  'input':{'shape':'PutWidgetInput'},'authtype':'none','httpChecksumRequired':true,"
    "  'requestcompression':{'encodings':['gzip']}}},"
    "'shapes':{"
    " 'PutWidgetInput':{'type':'structure','members':{'Color':{'shape':'Color'},'Shape':{'shape':'Choice'},"
    "   'Doc':{'shape':'Free'},'Secret':{'shape':'Secret'},'Names':{'shape':'Names'}}},"
    " 'Color':{'type':'string','enum':['red','dark.blue','']},"
    " 'Choice':{'type':'structure','union':true,'members':{'Round':{'shape':'Secret'},'Square':{'shape':'Secret'}}},"
    " 'Free':{'type':'structure','document':true,'members':{}},"
    " 'Secret':{'type':'string','sensitive':true},"
    " 'Names':{'type':'list','member':{'shape':'Secret'},'sparse':true},"
    " 'Big':{'type':'bigdecimal'},'Char':{'type':'character'},'Byte':{'type':'byte'}"
    "}}";

TEST(botocore_aws_json) {
    const char *doc = s_doc(0, s_aws_json);
    /* awsJson's X-Amz-Target is {service shape name}.{operation}: the service is named for targetPrefix. */
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.widgets#WidgetService_20150101\".traits",
          "{'aws.api#service':{'sdkId':'Widgets','endpointPrefix':'widgets'},'aws.auth#sigv4':{'name':'widgets'},"
          "'aws.protocols#awsJson1_1':{}}");
    /* No @http on awsJson operations (the protocol ignores it); authtype none is @auth([]). */
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.widgets#PutWidget\".traits",
          "{'smithy.api#httpChecksumRequired':{},'smithy.api#requestCompression':{'encodings':['gzip']},"
          "'smithy.api#auth':[]}");
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.widgets#Color\"",
          "{'type':'string','traits':{'smithy.api#enum':[{'value':'red'},{'value':'dark.blue'},{'value':''}]}}");
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.widgets#Choice\".type", "'union'");
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.widgets#Free\"", "{'type':'document'}");
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.widgets#Secret\".traits", "{'smithy.api#sensitive':{}}");
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.widgets#Names\".traits", "{'smithy.api#sparse':{}}");
    s_ast(t, __LINE__, doc,
          "[shapes.\"com.amazonaws.widgets#Big\".type, shapes.\"com.amazonaws.widgets#Char\".type, "
          "shapes.\"com.amazonaws.widgets#Byte\".type]",
          "['bigDecimal','string','byte']");
}

TEST(botocore_target_prefix_with_dots) {
    /* CloudTrail's: botocore sends all of it, the Smithy model names the service for the last part. */
    const char *doc = s_doc(0, "{'metadata':{'protocol':'json','jsonVersion':'1.1','serviceId':'CloudTrail',"
                               "'endpointPrefix':'cloudtrail','apiVersion':'2013-11-01',"
                               "'targetPrefix':'com.amazonaws.cloudtrail.v20131101.CloudTrail_20131101'},"
                               "'operations':{},'shapes':{}}");
    s_ast(t, __LINE__, doc,
          "shapes.\"com.amazonaws.cloudtrail#CloudTrail_20131101\".traits.\"anvil.botocore#targetPrefix\"",
          "'com.amazonaws.cloudtrail.v20131101.CloudTrail_20131101'");
}

/* ---- restXml ---- */

static const char s_rest_xml[] =
    "{'metadata':{'apiVersion':'2006-03-01','endpointPrefix':'s3','protocol':'rest-xml','serviceId':'S3',"
    "'signatureVersion':'s3'},"
    "'operations':{"
    " 'PutThing':{'name':'PutThing','http':{'method':'PUT','requestUri':'/{Bucket}'},"
    "   'input':{'shape':'PutThingRequest','locationName':'PutThingRequest',"
    "    'xmlNamespace':{'uri':'http://s3.amazonaws.com/doc/2006-03-01/'}},'output':{'shape':'PutThingOutput'}},"
    " 'GetBody':{'name':'GetBody','http':{'method':'GET','requestUri':'/{Bucket}/{Key+}'},"
    "   'input':{'shape':'GetBodyRequest'},'output':{'shape':'GetBodyOutput'}}},"
    "'shapes':{"
    " 'PutThingRequest':{'type':'structure','required':['Bucket'],'members':{"
    "   'Bucket':{'shape':'Name','location':'uri','locationName':'Bucket'},"
    "   'Items':{'shape':'ItemList','flattened':true},"
    "   'Rules':{'shape':'Rules','locationName':'RuleSet'},"
    "   'Who':{'shape':'Grantee'},"
    "   'Attrs':{'shape':'AttrMap'},"
    "   'Policy':{'shape':'Name','location':'header','locationName':'x-policy','jsonvalue':true}}},"
    " 'PutThingOutput':{'type':'structure','members':{'Flat':{'shape':'FlatList'}}},"
    " 'GetBodyRequest':{'type':'structure','members':{"
    "   'Bucket':{'shape':'Name','location':'uri','locationName':'Bucket'},"
    "   'Key':{'shape':'Name','location':'uri','locationName':'Key'},"
    "   'Upload':{'shape':'Body'}}},"
    " 'GetBodyOutput':{'type':'structure','payload':'Body','members':{'Body':{'shape':'Body','streaming':true}}},"
    " 'ItemList':{'type':'list','member':{'shape':'Name','locationName':'Item'}},"
    " 'FlatList':{'type':'list','member':{'shape':'Name','locationName':'Entry'},'flattened':true},"
    " 'Rules':{'type':'list','member':{'shape':'Name','locationName':'Rule'}},"
    " 'AttrMap':{'type':'map','key':{'shape':'Name','locationName':'Key'},"
    "   'value':{'shape':'Name','locationName':'Value'}},"
    " 'Grantee':{'type':'structure','members':{'Type':{'shape':'Name','locationName':'xsi:type',"
    "   'xmlAttribute':true}},'xmlNamespace':{'prefix':'xsi','uri':'http://www.w3.org/2001/XMLSchema-instance'}},"
    " 'Name':{'type':'string'},'Body':{'type':'blob'}"
    "}}";

#define S3 "com.amazonaws.s3#"

TEST(botocore_rest_xml) {
    const char *doc = s_doc(0, s_rest_xml);
    /* S3's errors are not wrapped in <ErrorResponse>, as the Smithy model of S3 says. */
    s_ast(t, __LINE__, doc, "shapes.\"" S3 "S3\".traits.\"aws.protocols#restXml\"", "{'noErrorWrapping':true}");
    /* The input reference's locationName and xmlNamespace are the request's root element. */
    s_ast(t, __LINE__, doc, "shapes.\"" S3 "PutThingRequest\".traits",
          "{'smithy.api#xmlNamespace':{'uri':'http://s3.amazonaws.com/doc/2006-03-01/'}}");
    /* A flattened list's elements are named by its member's locationName: in Smithy, by the structure member. */
    s_ast(t, __LINE__, doc, "shapes.\"" S3 "PutThingRequest\".members.Items.traits",
          "{'smithy.api#xmlName':'Item','smithy.api#xmlFlattened':{}}");
    s_ast(t, __LINE__, doc, "shapes.\"" S3 "PutThingOutput\".members.Flat.traits",
          "{'smithy.api#xmlName':'Entry','smithy.api#xmlFlattened':{}}");
    s_ast(t, __LINE__, doc, "shapes.\"" S3 "PutThingRequest\".members.Rules.traits",
          "{'smithy.api#xmlName':'RuleSet'}");
    s_ast(t, __LINE__, doc, "shapes.\"" S3 "Rules\".member.traits", "{'smithy.api#xmlName':'Rule'}");
    s_ast(t, __LINE__, doc, "[shapes.\"" S3 "AttrMap\".key.traits, shapes.\"" S3 "AttrMap\".value.traits]",
          "[{'smithy.api#xmlName':'Key'},{'smithy.api#xmlName':'Value'}]");
    s_ast(t, __LINE__, doc, "shapes.\"" S3 "Grantee\"",
          "{'type':'structure','members':{'Type':{'target':'" S3 "Name','traits':{'smithy.api#xmlName':'xsi:type',"
          "'smithy.api#xmlAttribute':{}}}},'traits':{'smithy.api#xmlNamespace':"
          "{'uri':'http://www.w3.org/2001/XMLSchema-instance','prefix':'xsi'}}}");
}

TEST(botocore_member_traits_on_shapes) {
    const char *doc = s_doc(0, s_rest_xml);
    /* `streaming` is a member's in botocore, a shape's in Smithy: references that say it target a copy. */
    s_ast(t, __LINE__, doc, "shapes.\"" S3 "GetBodyOutput\".members.Body",
          "{'target':'" S3 "BodyStreaming','traits':{'smithy.api#httpPayload':{}}}");
    s_ast(t, __LINE__, doc, "shapes.\"" S3 "GetBodyRequest\".members.Upload.target", "'" S3 "Body'");
    s_ast(t, __LINE__, doc, "[shapes.\"" S3 "Body\", shapes.\"" S3 "BodyStreaming\"]",
          "[{'type':'blob'},{'type':'blob','traits':{'smithy.api#streaming':{}}}]");
    /* `jsonvalue`: a copy of Name with @mediaType, as other references to Name do not say it. */
    s_ast(t, __LINE__, doc, "shapes.\"" S3 "PutThingRequest\".members.Policy",
          "{'target':'" S3 "NameJsonValue','traits':{'smithy.api#httpHeader':'x-policy'}}");
    s_ast(t, __LINE__, doc, "shapes.\"" S3 "NameJsonValue\"",
          "{'type':'string','traits':{'smithy.api#mediaType':'application/json'}}");
    /* When every reference says it, the shape itself gets the trait. */
    s_ast(t, __LINE__,
          s_doc(0, "{'metadata':{'protocol':'rest-json','serviceId':'X'},'operations':{},'shapes':{"
                   "'A':{'type':'structure','members':{'B':{'shape':'Bytes','streaming':true}}},"
                   "'Bytes':{'type':'blob','requiresLength':true}}}"),
          "shapes.\"com.amazonaws.x#Bytes\".traits", "{'smithy.api#streaming':{},'smithy.api#requiresLength':{}}");
}

/* ---- awsQuery and ec2Query ---- */

static const char s_query[] =
    "{'metadata':{'apiVersion':'2010-03-31','endpointPrefix':'notify','protocol':'query','serviceId':'Notify',"
    "'xmlNamespace':'http://notify.amazonaws.com/doc/2010-03-31/'},"
    "'operations':{"
    " 'Publish':{'name':'Publish','http':{'method':'POST','requestUri':'/'},'input':{'shape':'PublishInput'},"
    "   'output':{'shape':'PublishResponse','resultWrapper':'PublishResult'},'errors':[{'shape':'TooMany'}]},"
    " 'Odd':{'name':'Odd','http':{'method':'POST','requestUri':'/'},"
    "   'output':{'shape':'PublishResponse','resultWrapper':'SomethingElse'}},"
    " 'Bare':{'name':'Bare','http':{'method':'POST','requestUri':'/'},'output':{'shape':'PublishResponse'}}},"
    "'shapes':{"
    " 'PublishInput':{'type':'structure','members':{'Attributes':{'shape':'Attrs','locationName':'Attribute'},"
    "   'Message':{'shape':'S','locationName':'Msg'}}},"
    " 'PublishResponse':{'type':'structure','members':{'Id':{'shape':'S'}}},"
    " 'Attrs':{'type':'map','key':{'shape':'S','locationName':'Name'},'value':{'shape':'S','locationName':'Value'},"
    "   'flattened':true},"
    " 'TooMany':{'type':'structure','members':{},'error':{'code':'Throttled','httpStatusCode':400,'senderFault':true},"
    "   'exception':true},"
    " 'S':{'type':'string'}"
    "}}";

TEST(botocore_query) {
    const char *doc = s_doc(0, s_query);
    s_ast(t, __LINE__, doc,
          "shapes.\"com.amazonaws.notify#Notify\".traits.[\"aws.protocols#awsQuery\", "
          "\"smithy.api#xmlNamespace\"]",
          "[{},{'uri':'http://notify.amazonaws.com/doc/2010-03-31/'}]");
    /* Smithy's awsQuery reads {Operation}Result: said only when botocore's resultWrapper is another. */
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.notify#Publish\".traits", "null");
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.notify#Odd\".traits",
          "{'anvil.botocore#resultWrapper':'SomethingElse'}");
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.notify#Bare\".traits", "{'anvil.botocore#resultWrapper':''}");
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.notify#PublishInput\".members.*.traits",
          "[{'smithy.api#xmlName':'Attribute','smithy.api#xmlFlattened':{}},{'smithy.api#xmlName':'Msg'}]");
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.notify#TooMany\".traits",
          "{'smithy.api#error':'client','smithy.api#httpError':400,"
          "'aws.protocols#awsQueryError':{'code':'Throttled','httpResponseCode':400}}");
}

TEST(botocore_query_compatible) {
    /* A service moved off awsQuery: every protocol it lists, in its order, and awsQueryCompatible. */
    const char *doc = s_doc(0, "{'metadata':{'apiVersion':'2012-11-05','endpointPrefix':'queue','protocol':'json',"
                               "'protocols':['json','query'],'jsonVersion':'1.0','awsQueryCompatible':{},"
                               "'serviceId':'Queue','targetPrefix':'AmazonQueue'},'operations':{},'shapes':{}}");
    /* awsQuery needs a service xmlNamespace: made from the endpoint prefix and version when botocore has none. */
    s_ast(t, __LINE__, doc, "keys(shapes.\"com.amazonaws.queue#AmazonQueue\".traits)",
          "['aws.api#service','aws.auth#sigv4','aws.protocols#awsJson1_0','aws.protocols#awsQuery',"
          "'aws.protocols#awsQueryCompatible','smithy.api#xmlNamespace']");
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.queue#AmazonQueue\".traits.\"smithy.api#xmlNamespace\"",
          "{'uri':'http://queue.amazonaws.com/doc/2012-11-05/'}");
}

TEST(botocore_ec2_names) {
    /* botocore's EC2 serializer: queryName, else locationName capitalised, else the member's name as it is;
     * Smithy's: ec2QueryName, else xmlName or the name, capitalised. ec2QueryName says it when they differ. */
    const char *doc = s_doc(0, "{'metadata':{'apiVersion':'2016-11-15','endpointPrefix':'ec2','protocol':'ec2',"
                               "'serviceId':'EC2','xmlNamespace':'http://ec2.amazonaws.com/doc/2016-11-15'},"
                               "'operations':{},'shapes':{"
                               "'Req':{'type':'structure','members':{"
                               " 'DryRun':{'shape':'B','locationName':'dryRun'},"
                               " 'InstanceIds':{'shape':'Ids','locationName':'InstanceId'},"
                               " 'Addresses':{'shape':'Ids','locationName':'addressesSet','queryName':'Address'},"
                               " 'lower':{'shape':'B'},"
                               " 'Plain':{'shape':'B'}}},"
                               "'Ids':{'type':'list','member':{'shape':'S','locationName':'item'}},"
                               "'B':{'type':'boolean'},'S':{'type':'string'}}}");
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.ec2#Req\".members.*.traits",
          "[{'smithy.api#xmlName':'dryRun'},{'smithy.api#xmlName':'InstanceId'},"
          "{'smithy.api#xmlName':'addressesSet','aws.protocols#ec2QueryName':'Address'},"
          "{'aws.protocols#ec2QueryName':'lower'}]");
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.ec2#Ids\".member.traits", "{'smithy.api#xmlName':'item'}");
}

/* ---- names ---- */

TEST(botocore_names_that_clash) {
    /* botocore keeps operations and shapes apart; Smithy does not: the shape is renamed, as the Smithy models do
     * (MediaLive's UpdateNodeState shape is UpdateNodeStateShape), and a made-up name that is taken gets a number.
     */
    const char *doc = s_doc(0, "{'metadata':{'protocol':'rest-json','serviceId':'Media'},"
                               "'operations':{'Update':{'http':{'method':'PUT','requestUri':'/'},"
                               " 'input':{'shape':'Req'}}},'shapes':{"
                               "'Req':{'type':'structure','members':{'State':{'shape':'Update'},"
                               "  'Again':{'shape':'Media'}}},"
                               "'Update':{'type':'string'},'UpdateShape':{'type':'integer'},"
                               "'Media':{'type':'long'}}}");
    s_ast(t, __LINE__, doc, "shapes.\"com.amazonaws.media#Req\".members.*.target",
          "['com.amazonaws.media#UpdateShape2','com.amazonaws.media#MediaShape']");
    s_ast(t, __LINE__, doc,
          "[shapes.\"com.amazonaws.media#UpdateShape2\".type, shapes.\"com.amazonaws.media#UpdateShape\".type, "
          "shapes.\"com.amazonaws.media#Update\".type, shapes.\"com.amazonaws.media#Media\".type]",
          "['string','integer','operation','service']");
}

/* ---- detection and mixing ---- */

TEST(botocore_detected_and_mixed) {
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_waiter_set *set = NULL;
    struct anvil_diag diag;
    /* A botocore model and an IDL file that gives one of its operations a waiter, assembled together. */
    const char *boto = s_doc(0, s_aws_json);
    const char *idl = "$version: \"2\"\nnamespace com.amazonaws.widgets\n"
                      "apply PutWidget @smithy.waiters#waitable(Done: {acceptors: [{state: \"success\", "
                      "matcher: {success: true}}]})\n";
    struct anvil_model_source sources[] = {{"widgets/service-2.json", boto, strlen(boto), ANVIL_MODEL_FORMAT_AUTO},
                                           {"waiter.smithy", idl, strlen(idl), ANVIL_MODEL_FORMAT_AUTO}};
    CHECK_OK(anvil_model_assemble(t->alloc, sources, 2, NULL, &model, &events, &diag));
    CHECK_OK(anvil_waiter_set_from_model(t->alloc, model, &set, &diag));
    CHECK_EQ_U64(anvil_waiter_set_count(set), 1);
    CHECK(anvil_model_find(model, "com.amazonaws.widgets#PutWidgetInput",
                           strlen("com.amazonaws.widgets#PutWidgetInput")));
    /* anvil_model_load() reads JSON ASTs only, and says what this is. */
    anvil_model_destroy(model);
    model = NULL;
    CHECK_STATUS(anvil_model_load(t->alloc, boto, strlen(boto), NULL, &model, &diag), ANVIL_EMODEL);
    CHECK(strstr(diag.message, "a botocore service model, not a Smithy JSON AST") != NULL);
done:
    anvil_waiter_set_destroy(set);
    anvil_events_destroy(events);
    anvil_model_destroy(model);
}

TEST(botocore_format_choices) {
    /* A Smithy JSON AST that does not start with `smithy` is still one (read on its own, then copied). */
    s_ast(t, __LINE__, s_doc(0, "{'metadata':{'protocol':'x'},'shapes':{'ex#A':{'type':'string'}},'smithy':'2.0'}"),
          "shapes.\"ex#A\"", "{'type':'string'}");
    /* Declared JSON AST: a botocore document is not one. */
    s_fails(t, __LINE__, s_doc(0, s_aws_json), ANVIL_MODEL_FORMAT_JSON, ANVIL_EMODEL,
            "service-2.json: a botocore service model, given as a Smithy JSON AST");
    /* Declared botocore: a Smithy AST or anything else is not one. */
    s_fails(t, __LINE__, s_doc(0, "{'smithy':'2.0','shapes':{}}"), ANVIL_MODEL_FORMAT_BOTOCORE, ANVIL_EMODEL,
            "needs `metadata`, `operations` and `shapes` objects");
    s_fails(t, __LINE__, "[1]", ANVIL_MODEL_FORMAT_BOTOCORE, ANVIL_EMODEL, "must be a JSON object; found array");
    s_fails(t, __LINE__, "{\"metadata\": {", ANVIL_MODEL_FORMAT_BOTOCORE, ANVIL_ESYNTAX, "service-2.json");
    s_fails(t, __LINE__, s_doc(0, "{'metadata':{'protocol':'json'},'operations':[],'shapes':{}}"),
            ANVIL_MODEL_FORMAT_AUTO, ANVIL_EMODEL, "found object, array and object");
}

/* ---- what is wrong ---- */

#define BAD(shapes) "{'metadata':{'protocol':'rest-json','serviceId':'Bad'},'operations':{},'shapes':{" shapes "}}"
#define BAD_NS "com.amazonaws.bad#"

TEST(botocore_wrong_shapes) {
    s_event(t, __LINE__, s_doc(0, BAD("'A':[]")), ANVIL_SEVERITY_ERROR, BAD_NS "A", "must be an object; found array");
    s_event(t, __LINE__, s_doc(0, BAD("'A':{}")), ANVIL_SEVERITY_ERROR, BAD_NS "A", "needs a `type`");
    s_event(t, __LINE__, s_doc(0, BAD("'A':{'type':7}")), ANVIL_SEVERITY_ERROR, BAD_NS "A",
            "`type` must be a string; found number");
    s_event(t, __LINE__, s_doc(0, BAD("'A':{'type':'decimal'}")), ANVIL_SEVERITY_ERROR, BAD_NS "A",
            "type `decimal` is not one botocore knows");
    s_event(t, __LINE__, s_doc(0, BAD("'a-b':{'type':'string'}")), ANVIL_SEVERITY_ERROR, "",
            "botocore shape `a-b` cannot be a Smithy shape");
    s_event(t, __LINE__, s_doc(0, BAD("'A':{'type':'list'}")), ANVIL_SEVERITY_ERROR, BAD_NS "A", "needs a `member`");
    s_event(t, __LINE__, s_doc(0, BAD("'A':{'type':'structure','members':[]}")), ANVIL_SEVERITY_ERROR, BAD_NS "A",
            "`members` must be an object; found array");
    s_event(t, __LINE__, s_doc(0, BAD("'A':{'type':'structure','required':'x','members':{}}")), ANVIL_SEVERITY_ERROR,
            BAD_NS "A", "`required` must be an array");
    s_event(t, __LINE__, s_doc(0, BAD("'A':{'type':'structure','required':['Nope'],'members':{}}")),
            ANVIL_SEVERITY_WARNING, BAD_NS "A", "`required` names `Nope`, which is not a member");
    s_event(t, __LINE__, s_doc(0, BAD("'A':{'type':'structure','payload':'Nope','members':{}}")), ANVIL_SEVERITY_ERROR,
            BAD_NS "A", "`payload` names `Nope`, which is not a member");
    s_event(t, __LINE__, s_doc(0, BAD("'A':{'type':'string','enum':'red'}")), ANVIL_SEVERITY_ERROR, BAD_NS "A",
            "`enum` must be an array");
    s_event(t, __LINE__, s_doc(0, BAD("'A':{'type':'string','enum':[1]}")), ANVIL_SEVERITY_ERROR, BAD_NS "A",
            "`enum` must list strings; found number");
    s_event(t, __LINE__, s_doc(0, BAD("'A':{'type':'timestamp','timestampFormat':'rfc3339'}")), ANVIL_SEVERITY_ERROR,
            BAD_NS "A", "`timestampFormat` is `rfc3339`");
    s_event(t, __LINE__, s_doc(0, BAD("'A':{'type':'string','sensitive':'yes'}")), ANVIL_SEVERITY_ERROR, BAD_NS "A",
            "`sensitive` must be true or false; found string");
    s_event(t, __LINE__,
            s_doc(0, BAD("'A':{'type':'structure','members':{},'exception':true,'error':{"
                         "'httpStatusCode':'404'}}")),
            ANVIL_SEVERITY_ERROR, BAD_NS "A", "`error.httpStatusCode` must be an HTTP status code");
}

TEST(botocore_wrong_members) {
    s_event(t, __LINE__, s_doc(0, BAD("'A':{'type':'structure','members':{'M':7}}")), ANVIL_SEVERITY_ERROR,
            BAD_NS "A$M", "must be an object with a string `shape`; found number");
    s_fails(t, __LINE__, s_doc(0, BAD("'A':{'type':'structure','members':{'M':{'shape':'Missing'}}}")),
            ANVIL_MODEL_FORMAT_AUTO, ANVIL_EMODEL,
            "shape `" BAD_NS "A`: member `M` targets `" BAD_NS "Missing`, which is not defined");
    s_event(t, __LINE__,
            s_doc(0, BAD("'A':{'type':'structure','members':{'M':{'shape':'S','location':'cookie'}}},"
                         "'S':{'type':'string'}")),
            ANVIL_SEVERITY_ERROR, BAD_NS "A$M", "`location` `cookie` is not one botocore knows");
    s_event(t, __LINE__,
            s_doc(0, BAD("'A':{'type':'structure','members':{'M':{'shape':'S','locationName':5}}},"
                         "'S':{'type':'string'}")),
            ANVIL_SEVERITY_ERROR, BAD_NS "A$M", "`locationName` must be a string; found number");
    s_event(t, __LINE__,
            s_doc(0, BAD("'A':{'type':'structure','members':{'M':{'shape':'S','flattened':1}}},"
                         "'S':{'type':'string'}")),
            ANVIL_SEVERITY_ERROR, BAD_NS "A$M", "`flattened` must be true or false");
    s_event(t, __LINE__,
            s_doc(0, BAD("'A':{'type':'structure','members':{'M':{'shape':'S','xmlNamespace':[]}}},"
                         "'S':{'type':'string'}")),
            ANVIL_SEVERITY_ERROR, BAD_NS "A$M", "`xmlNamespace` must be a URI or an object");
    s_event(t, __LINE__, s_doc(0, BAD("'A':{'type':'structure','members':{'x-y':{'shape':'A'}}}")),
            ANVIL_SEVERITY_ERROR, BAD_NS "A", "Invalid shape ID: " BAD_NS "A$x-y");
}

TEST(botocore_wrong_service) {
    s_event(t, __LINE__, s_doc(0, "{'metadata':{'protocol':'soap','serviceId':'X'},'operations':{},'shapes':{}}"),
            ANVIL_SEVERITY_ERROR, "", "protocol `soap` is not one anvil knows");
    s_event(t, __LINE__, s_doc(0, "{'metadata':{'protocols':'json','serviceId':'X'},'operations':{},'shapes':{}}"),
            ANVIL_SEVERITY_ERROR, "", "`protocols` must be an array");
    s_event(t, __LINE__, s_doc(0, "{'metadata':{'serviceId':'X'},'operations':{},'shapes':{}}"), ANVIL_SEVERITY_ERROR,
            "", "metadata has no `protocol`");
    s_event(t, __LINE__,
            s_doc(0, "{'metadata':{'protocol':'rest-json','serviceId':'X'},'operations':{'Go':{}},'shapes':{}}"),
            ANVIL_SEVERITY_ERROR, "", "operation `Go` needs `http` with a `method` and a `requestUri`");
    s_event(t, __LINE__,
            s_doc(0, "{'metadata':{'protocol':'json','serviceId':'X'},'operations':{'Go':{'errors':{}}},"
                     "'shapes':{}}"),
            ANVIL_SEVERITY_ERROR, "", "operation `Go`: `errors` must be an array; found object");
    s_event(t, __LINE__,
            s_doc(0, "{'metadata':{'protocol':'json','serviceId':'X'},'operations':{'Go':{'input':'In'}},"
                     "'shapes':{}}"),
            ANVIL_SEVERITY_ERROR, "", "operation `Go`: `input` must be an object with a string `shape`");
    s_event(t, __LINE__, s_doc(0, "{'metadata':{'protocol':'json','serviceId':'X'},'operations':{'Go':7},'shapes':{}}"),
            ANVIL_SEVERITY_ERROR, "", "operation `Go` must be an object");
    /* An operation's own problem names the operation, even when a (renamed) shape has its name. */
    s_event(t, __LINE__,
            s_doc(0, "{'metadata':{'protocol':'json','serviceId':'X'},'operations':{'Go':{'idempotent':'yes'}},"
                     "'shapes':{'Go':{'type':'string','sensitive':1}}}"),
            ANVIL_SEVERITY_ERROR, "com.amazonaws.x#Go", "`idempotent` must be true or false; found string");
    s_event(t, __LINE__,
            s_doc(0, "{'metadata':{'protocol':'json','serviceId':'X'},'operations':{'Go':{'idempotent':'yes'}},"
                     "'shapes':{'Go':{'type':'string','sensitive':1}}}"),
            ANVIL_SEVERITY_ERROR, "com.amazonaws.x#GoShape", "`sensitive` must be true or false; found number");
    s_fails(t, __LINE__,
            s_doc(0, "{'metadata':{'protocol':'json','serviceId':'X'},'operations':{'Go':{'output':"
                     "{'shape':'Nowhere'}}},'shapes':{}}"),
            ANVIL_MODEL_FORMAT_AUTO, ANVIL_EMODEL,
            "shape `com.amazonaws.x#Go`: output targets `com.amazonaws.x#Nowhere`, which is not defined");
}

TEST(botocore_recursive_shapes_load) {
    /* Shapes naming themselves are models botocore has (a structure that holds a list of itself). */
    s_ast(t, __LINE__,
          s_doc(0, BAD("'Node':{'type':'structure','members':{'Kids':{'shape':'Nodes'},'Self':{'shape':'Node'}}},"
                       "'Nodes':{'type':'list','member':{'shape':'Node'}}")),
          "shapes.\"" BAD_NS "Node\".members.Self.target", "'" BAD_NS "Node'");
}
