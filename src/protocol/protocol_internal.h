/*
 * The wire protocols behind one interface (curl's struct Curl_protocol is
 * the model): each turns an operation's input into an HTTP request and an
 * HTTP response into the output or the error, and nothing above this layer
 * asks which protocol it runs. One file per protocol; what several share
 * (HTTP bindings, timestamps, the XML and form codecs) has its own file.
 *
 * Values on both sides are the Smithy data model as JSON: structure members
 * by member name, timestamps as epoch seconds (numbers; an input may also
 * give an RFC 3339 string), blobs as base64 strings, documents as JSON,
 * unions as one-member objects, absent members absent.
 */
#ifndef ANVIL_PROTOCOL_INTERNAL_H
#define ANVIL_PROTOCOL_INTERNAL_H

#include "anvil/base64.h"
#include "anvil/buffer.h"
#include "anvil/compress.h"
#include "anvil/diag.h"
#include "anvil/env.h"
#include "anvil/model.h"
#include "anvil/operation.h"
#include "anvil/traits.h"
#include "anvil/xml.h"
#include "core/core_internal.h"
#include <stdatomic.h>

/* Most headers one request may carry (bound members and prefix-header maps included). */
#define ANVIL__REQUEST_MAX_HEADERS 512
/* Longest host prefix (`@endpoint(hostPrefix)` expanded). */
#define ANVIL__HOST_PREFIX_MAX 255

/*
 * A request as a protocol builds it. `target` is the path and query as
 * sent (percent-encoded), relative to the endpoint's own path: "/" or
 * "/2015-03-31/functions/f?Qualifier=1". `host_prefix` goes in front of
 * the endpoint's host (`@endpoint(hostPrefix)`, expanded; "" when none).
 * Headers are exactly those the protocol wants sent (Content-Type,
 * Content-Length when there is a body, bound members, X-Amz-Target, ...);
 * the transport adds Host and the signature. Header names and values live
 * in `arena`; target and body in buffers from `allocator`.
 */
struct anvil__request {
    const char *method;
    struct anvil_buf target;
    struct anvil_buf body;
    struct anvil_http_header *headers;
    size_t header_count;
    size_t header_capacity;
    char host_prefix[ANVIL__HOST_PREFIX_MAX + 1];
    /* A URL that replaces the client's endpoint for this request (Machine Learning's Predict), or NULL. */
    const char *endpoint;
    /*
     * The URI's leading `/{Bucket}` is left out of the target (which may then
     * be empty or start with '?'): the endpoint holds the bucket, in its host
     * or its path (S3 with its endpoint rules).
     */
    bool bucket_in_endpoint;
    struct anvil_arena *arena;
};

/* A response as received. Header names are compared case-insensitively; a name may come more than once. */
struct anvil__response {
    int status;
    const struct anvil_http_header *headers;
    size_t header_count;
    const char *body;
    size_t body_len;
};

/* What a protocol may read besides the operation. */
struct anvil__protocol_context {
    const struct anvil_model *model;
    const struct anvil_shape *service;
    struct anvil_allocator *allocator;
    /* The random source of idempotency tokens (NULL = the system's). */
    const struct anvil_env *env;
    /* Request compression settings (NULL = compression enabled with the defaults). */
    const struct anvil_compression_settings *compression;
    /* The endpoint will hold the bucket: see anvil__request's bucket_in_endpoint. */
    bool bucket_in_endpoint;
};

struct anvil__protocol {
    /* Smithy's name: "awsJson1_0", "restXml", ... */
    const char *name;
    enum anvil_protocol id;
    /*
     * Builds the request for `input` (an object, or NULL for none) of
     * `operation`. ANVIL_EINVAL with `diag` naming the member for an input
     * the protocol cannot send (a missing label, a bad host label, a value
     * of the wrong type); ANVIL_ENOMEM, ANVIL_ELIMIT.
     */
    int (*serialize)(const struct anvil__protocol_context *ctx, const struct anvil_shape *operation,
                     const struct anvil_json *input, struct anvil__request *req, struct anvil_diag *diag);
    /*
     * Reads `res`. ANVIL_OK with the output in `reply->output` (null when
     * the operation has no output); ANVIL_ESERVICE with the error:
     * `reply->error.code` the code as the service named it, normalised
     * (anvil_error_code_normalize(); for the query protocols the
     * awsQueryError code), its message, and, when `error_data` is not NULL,
     * the members of the modelled error the code names in `*error_data`
     * (null when the code names none). A body the protocol cannot read is
     * ANVIL_ESYNTAX with the reason in reply->error.message. Values live in
     * `arena`.
     */
    int (*parse)(const struct anvil__protocol_context *ctx, const struct anvil_shape *operation,
                 const struct anvil__response *res, struct anvil_arena *arena, struct anvil_operation_reply *reply,
                 struct anvil_json *error_data);
};

/* The protocol for `id`, or NULL when anvil does not speak it. */
const struct anvil__protocol *anvil__protocol_get(enum anvil_protocol id);

/* The names of the protocols anvil speaks, ", "-separated, into `out` (cut to `size`). */
void anvil__protocol_names(char *out, size_t size);

/* The first protocol of `service` anvil speaks (in the service's trait order), or NULL. */
const struct anvil__protocol *anvil__protocol_of(const struct anvil_shape *service);

/*
 * The whole request of one logical call, what every retry sends again: the
 * idempotency token filled (from ctx->env), the protocol's serialisation,
 * the host prefix (`@endpoint`), the service's customizations, request
 * compression (`@requestCompression`, ctx->compression), Content-MD5 for
 * `@httpChecksumRequired`, then Content-Length from the body as it is
 * (whatever a bound member said). Errors as serialize.
 */
int anvil__request_build(const struct anvil__protocol *protocol, const struct anvil__protocol_context *ctx,
                         const struct anvil_shape *operation, const struct anvil_json *input,
                         struct anvil__request *req, struct anvil_diag *diag);

/*
 * Reads a response with `protocol`: the protocol's parse, then what every
 * protocol shares: the request id and the headers kept in the reply, and a
 * capped, printable error code and message. Returns as parse.
 */
int anvil__response_read(const struct anvil__protocol *protocol, const struct anvil__protocol_context *ctx,
                         const struct anvil_shape *operation, const struct anvil__response *res,
                         struct anvil_arena *arena, struct anvil_operation_reply *reply, struct anvil_json *error_data);

/* ---- requests ---- */

void anvil__request_init(struct anvil__request *req, struct anvil_allocator *allocator, struct anvil_arena *arena);
void anvil__request_clean_up(struct anvil__request *req);

/* Adds a header (name and value copied into the request's arena). ANVIL_ENOMEM, ANVIL_ELIMIT. */
int anvil__request_add_header(struct anvil__request *req, struct anvil_str_view name, struct anvil_str_view value);

/* Sets a header: replaces every header of that name (case-insensitive), else adds it. */
int anvil__request_set_header(struct anvil__request *req, struct anvil_str_view name, struct anvil_str_view value);

/* Adds a header unless the request has one of that name (a bound member's Content-Type wins). */
int anvil__request_default_header(struct anvil__request *req, const char *name, struct anvil_str_view value);

/* Sets Content-Length to the body's size (none for a GET or HEAD without a body). */
int anvil__request_content_length(struct anvil__request *req);

/* The value of the first header named `name` (case-insensitive), or NULL. */
const struct anvil_str_view *anvil__request_header(const struct anvil__request *req, const char *name);

/* The first response header named `name` (case-insensitive), or NULL. */
const struct anvil_http_header *anvil__response_header(const struct anvil__response *res, const char *name);

/* ---- the model, as protocols read it ---- */

/* A member's trait value (absolute id), or NULL. */
const struct anvil_json *anvil__member_trait(const struct anvil_member *m, const char *id);

/* A string-valued trait of the member (e.g. smithy.api#jsonName): empty when absent. */
struct anvil_str_view anvil__member_trait_string(const struct anvil_member *m, const char *id);

/*
 * The modelled error of `operation` (its own, then the service's) whose
 * wire code is `code`: the awsQueryError code when `query_codes` and the
 * shape has one, else the shape's name. NULL when none.
 */
const struct anvil_shape *anvil__error_shape(const struct anvil__protocol_context *ctx,
                                             const struct anvil_shape *operation, struct anvil_str_view code,
                                             bool query_codes);

/* A body the protocol could not read: the reason (`why`) as the reply's message; ANVIL_ESYNTAX (or ANVIL_ENOMEM). */
int anvil__reply_unreadable(struct anvil_arena *arena, const struct anvil_buf *why, int status,
                            struct anvil_operation_reply *reply);

/* Keeps the code and message of an error in `arena` (capped, valid UTF-8), the code normalised. */
int anvil__reply_error(struct anvil_arena *arena, struct anvil_str_view code, struct anvil_str_view message,
                       int http_status, struct anvil_operation_reply *reply);

/* ---- traits looked up often: their key's hash computed once (trait.c) ---- */

struct anvil__trait_id {
    const char *name;
    size_t len;
    _Atomic uint32_t hash; /* 0 until first use */
};

#define ANVIL__TRAIT_ID(id)                                                                                            \
    { id, sizeof(id) - 1, 0 }

/* The value of trait `id` in `traits` (a shape's or member's traits object), or NULL. */
const struct anvil_json *anvil__trait(const struct anvil_json *traits, struct anvil__trait_id *id);

extern struct anvil__trait_id anvil__t_xml_name, anvil__t_xml_attribute, anvil__t_xml_flattened, anvil__t_xml_namespace,
    anvil__t_json_name, anvil__t_timestamp_format, anvil__t_sparse, anvil__t_default, anvil__t_client_optional,
    anvil__t_required, anvil__t_streaming, anvil__t_media_type, anvil__t_http_header, anvil__t_http_prefix_headers,
    anvil__t_http_payload, anvil__t_http_response_code, anvil__t_http_label, anvil__t_http_query,
    anvil__t_http_query_params;

/* ---- where a codec is in a value, for messages (pushed and popped, formatted only on failure) ---- */

enum anvil__path_kind { ANVIL__PATH_MEMBER, ANVIL__PATH_INDEX, ANVIL__PATH_KEY };

#define ANVIL__PATH_MAX 600

struct anvil__path {
    size_t depth;
    struct {
        struct anvil_str_view name;
        size_t index;
        enum anvil__path_kind kind;
    } seg[ANVIL__PATH_MAX];
};

static inline void anvil__path_push(struct anvil__path *p, enum anvil__path_kind kind, struct anvil_str_view name,
                                    size_t index) {
    if (p->depth < ANVIL__PATH_MAX) {
        p->seg[p->depth].kind = kind;
        p->seg[p->depth].name = name;
        p->seg[p->depth].index = index;
    }
    p->depth++;
}

static inline void anvil__path_pop(struct anvil__path *p) {
    p->depth--;
}

/* The path as text ("Foo.Bar[2]{key}"), or `fallback` when empty; cut to fit `size` (at least 1). */
const char *anvil__path_text(const struct anvil__path *p, const char *fallback, char *out, size_t size);

/* ---- timestamps (timestamp.c) ---- */

enum anvil__ts_format { ANVIL__TS_DATE_TIME, ANVIL__TS_HTTP_DATE, ANVIL__TS_EPOCH_SECONDS };

/* An IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT") in ms since the epoch, or -1 when it is not one. */
int64_t anvil__http_date_ms(struct anvil_str_view text);

/* Text in `format` as ms since the epoch: ANVIL_OK or ANVIL_EVALUE. */
int anvil__timestamp_parse(struct anvil_str_view text, enum anvil__ts_format format, int64_t *ms);

/* Text in any of the three formats (date-time, then epoch seconds, then http-date). */
int anvil__timestamp_parse_any(struct anvil_str_view text, int64_t *ms);

/* A data-model timestamp (epoch seconds as a number, or text in any format) as ms: ANVIL_EVALUE when not one. */
int anvil__timestamp_from_json(const struct anvil_json *v, int64_t *ms);

/* ms as the data model holds it: integer seconds when whole, else a double. */
struct anvil_json anvil__timestamp_json(int64_t ms);

/* Appends ms in `format` ("2019-12-16T23:48:18Z", "Mon, 16 Dec 2019 23:48:18 GMT", "1576540098.5"). */
int anvil__timestamp_write(struct anvil_buf *out, int64_t ms, enum anvil__ts_format format);

/* The member's @timestampFormat (on the member, else on its target), else `fallback`. */
enum anvil__ts_format anvil__timestamp_format_of(const struct anvil_member *m, enum anvil__ts_format fallback);

/* ---- building values (value_stack.c) ---- */

/*
 * Stacks of object members and array items shared by every nesting level
 * of a value being built: a level remembers the count when it starts and
 * turns what was pushed since into its object or array.
 */
struct anvil__values {
    struct anvil_allocator *allocator;
    struct anvil_arena *arena;
    struct anvil_json_member *members;
    size_t member_count, member_capacity;
    struct anvil_json *items;
    size_t item_count, item_capacity;
    /* Which structures have members with defaults or @required (anvil__values_fill_defaults). */
    struct {
        const struct anvil_shape *shape;
        bool needs;
    } fill_cache[64];
};

void anvil__values_init(struct anvil__values *v, struct anvil_allocator *allocator, struct anvil_arena *arena);
void anvil__values_clean_up(struct anvil__values *v);
/* A key record for `name` in the arena. */
int anvil__values_key(struct anvil__values *v, struct anvil_str_view name, const struct anvil_json_key **out);
int anvil__values_member(struct anvil__values *v, const struct anvil_json_key *key, struct anvil_json value);
int anvil__values_member_named(struct anvil__values *v, struct anvil_str_view name, struct anvil_json value);
/* The members pushed since `base` as an object (a later duplicate wins); pops them. */
int anvil__values_object(struct anvil__values *v, size_t base, struct anvil_json *out);
int anvil__values_item(struct anvil__values *v, struct anvil_json value);
/* The items pushed since `base` as an array; pops them. */
int anvil__values_array(struct anvil__values *v, size_t base, struct anvil_json *out);
/* A member's @default when a client applies it (set, not null, no @clientOptional), else NULL. */
const struct anvil_json *anvil__member_default(const struct anvil_member *m);

/*
 * Completes a structure being read (its members pushed since `base`) as
 * Smithy's clients do: a member the response left out gets its @default,
 * or, when it is @required, its type's zero value ("" false 0 [] {}).
 */
int anvil__values_fill_defaults(struct anvil__values *v, const struct anvil_shape *shape, size_t base);

/* A string value copied into the arena: ANVIL_EVALUE when `s` is not UTF-8. */
int anvil__values_string(struct anvil__values *v, struct anvil_str_view s, struct anvil_json *out);

/*
 * Text (a header, an XML element's content) as the data-model value of
 * `member`'s target: strings checked as UTF-8, booleans, integers,
 * floats ("NaN", "Infinity" and "-Infinity" kept as strings), timestamps
 * in the member's @timestampFormat else `ts_default` (else any format),
 * blobs as their base64 text. ANVIL_EVALUE when the text is not one.
 */
int anvil__text_value(struct anvil__values *values, const struct anvil_member *member, struct anvil_str_view text,
                      enum anvil__ts_format ts_default, struct anvil_json *out);

/* ---- HTTP bindings (http_bind.c): restJson1 and restXml ---- */

/* Whether a member of an input goes in the body (it has no HTTP binding trait). */
bool anvil__http_unbound(const struct anvil_member *m);

/* Whether a member of an output or error comes from the body (@httpLabel and @httpQuery mean nothing there). */
bool anvil__http_unbound_response(const struct anvil_member *m);

/* The member of `shape` with @httpPayload, or NULL. */
const struct anvil_member *anvil__http_payload_member(const struct anvil_shape *shape);

/* Whether `shape` has a member that goes in the body. */
bool anvil__http_has_body_members(const struct anvil_shape *shape);

/* Percent-encodes `s`, keeping RFC 3986's unreserved characters (and '/' when `keep_slash`). */
int anvil__percent_encode(struct anvil_buf *out, struct anvil_str_view s, bool keep_slash);

/*
 * A scalar of `member`'s target as text for a label, a query value or a
 * header (timestamps in the member's format, else `ts_default`). ANVIL_EINVAL
 * with `*why` for a value of the wrong type.
 */
int anvil__scalar_text(const struct anvil_member *member, const struct anvil_json *v, enum anvil__ts_format ts_default,
                       struct anvil_buf *out, const char **why);

/*
 * The request line and headers of a REST protocol from `@http` and the
 * input's bound members: method; target with labels (percent-encoded,
 * greedy ones keeping '/'), the URI's literal query, @httpQuery and then
 * @httpQueryParams (an @httpQuery of the same name wins); @httpPrefixHeaders
 * and then @httpHeader. ANVIL_EINVAL naming the member for a missing or
 * empty label or a value of the wrong type; ANVIL_EMODEL for an operation
 * without @http.
 */
int anvil__http_bind_request(const struct anvil_shape *op, const struct anvil_json *input, struct anvil__request *req,
                             struct anvil_diag *diag);

/*
 * Pushes the members of `shape` bound to the response onto `values`:
 * @httpHeader (lists split on commas outside quotes, http-date lists on
 * every second comma), @httpPrefixHeaders, @httpResponseCode. ANVIL_ESYNTAX
 * with `why` for a header that is not its member's type.
 */
int anvil__http_bind_response(const struct anvil_shape *shape, const struct anvil__response *res,
                              struct anvil__values *values, struct anvil_buf *why);

/* A blob or string @httpPayload as the body's bytes (a blob's base64 decoded). ANVIL_EINVAL naming the member. */
int anvil__rest_payload_raw(const struct anvil_member *payload, const struct anvil_json *v, struct anvil__request *req,
                            struct anvil_diag *diag);

/* A blob or string @httpPayload from the body (a blob as base64). ANVIL_EVALUE for a string that is not UTF-8. */
int anvil__rest_payload_value(const struct anvil_member *payload, const struct anvil__response *res,
                              struct anvil__values *values, struct anvil_json *out);

/* ---- JSON bodies (json_codec.c): awsJson1_0/1_1 and restJson1 ---- */

/* Which members of a structure go in the body (restJson1: those not bound to the HTTP message). */
typedef bool anvil__member_filter_fn(const struct anvil_member *m);

struct anvil__json_codec {
    /* restJson1: `@jsonName` renames members (awsJson ignores it). */
    bool json_name;
};

/*
 * Writes `value` (the data model) of `shape` as a JSON body: members named
 * by jsonName when the codec says, timestamps in their @timestampFormat
 * (epoch seconds by default), the top-level structure's members filtered
 * by `keep` (NULL = all); NULL `value` writes `{}`. ANVIL_EINVAL with diag
 * naming the path ("`Foo.Bar[2]`: ...") for a value of the wrong type, an
 * unknown member, a union with other than one member; ANVIL_ELIMIT past
 * ANVIL__VALUE_MAX_DEPTH; ANVIL_ENOMEM.
 */
int anvil__json_encode(const struct anvil__json_codec *codec, const struct anvil_shape *shape,
                       const struct anvil_json *value, anvil__member_filter_fn *keep, struct anvil_buf *out,
                       struct anvil_diag *diag);

/*
 * Reads `wire` (a parsed JSON body) of `shape` into the data model in
 * `values`' arena: members by member name, timestamps as epoch seconds,
 * unknown members and nulls dropped (kept in @sparse lists and maps), a
 * union's `__type` ignored; the top-level members filtered by `keep`.
 * Scalars and documents are borrowed from `wire`. ANVIL_ESYNTAX with
 * `why` (static text and the member) for a value of the wrong type.
 */
int anvil__json_decode(const struct anvil__json_codec *codec, const struct anvil_shape *shape,
                       const struct anvil_json *wire, anvil__member_filter_fn *keep, struct anvil__values *values,
                       struct anvil_json *out, struct anvil_buf *why);

/* anvil__json_decode() that pushes the members onto `values` instead of making the object. */
int anvil__json_decode_members(const struct anvil__json_codec *codec, const struct anvil_shape *shape,
                               const struct anvil_json *wire, anvil__member_filter_fn *keep,
                               struct anvil__values *values, struct anvil_buf *why);

/* One value of `member`'s target (a payload, say), read as anvil__json_decode() reads members. */
int anvil__json_decode_value(const struct anvil__json_codec *codec, const struct anvil_member *member,
                             const struct anvil_json *wire, struct anvil__values *values, struct anvil_json *out,
                             struct anvil_buf *why);

/* A response body as JSON (an empty body is null). ANVIL_ESYNTAX with the reason in `why`; ANVIL_ENOMEM. */
int anvil__json_parse_body(struct anvil_arena *arena, const struct anvil__response *res, struct anvil_json *out,
                           struct anvil_buf *why);

/*
 * The error of a JSON protocol's response into `reply` (*rc the status of
 * keeping it): the code from X-Amzn-Errortype, else the body's `code`,
 * else `__type`, normalised; for an @awsQueryCompatible service the code of
 * x-amzn-query-error when sent; the message from `message`, `Message` or
 * `errorMessage`. Returns the modelled error the code names, or NULL.
 */
const struct anvil_shape *anvil__json_error(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                                            const struct anvil__response *res, const struct anvil_json *body,
                                            struct anvil_arena *arena, struct anvil_operation_reply *reply, int *rc);

/* Nesting the codecs follow in a value (deeper is ANVIL_ELIMIT / ANVIL_ESYNTAX). */
#define ANVIL__VALUE_MAX_DEPTH 256

/* Whether `s` is base64 text (padded, standard alphabet). */
bool anvil__base64_valid(struct anvil_str_view s);

/* ---- XML bodies (xml_codec.c): restXml, and the responses of awsQuery and ec2Query ---- */

/* The element name of a member: its @xmlName, else its name. */
struct anvil_str_view anvil__xml_member_name(const struct anvil_member *m);

/*
 * Writes `value` (the data model) of structure `shape` as an XML document
 * whose root element is `root`, with an xmlns from `ns` (an @xmlNamespace
 * value, may be NULL); members filtered by `keep` (NULL = all). Errors as
 * anvil__json_encode().
 */
int anvil__xml_encode(const struct anvil_shape *shape, struct anvil_str_view root, const struct anvil_json *ns,
                      const struct anvil_json *value, anvil__member_filter_fn *keep, struct anvil_buf *out,
                      struct anvil_diag *diag);

/* Whether `input` sets a member that goes in the body (or one `shape` does not have). */
bool anvil__xml_has_body_values(const struct anvil_shape *shape, const struct anvil_json *input);

/* A structure or union @httpPayload as its document (root: the member's @xmlName, the target's, or its name). */
int anvil__xml_encode_payload(const struct anvil_member *payload, const struct anvil_json *value, struct anvil_buf *out,
                              struct anvil_diag *diag);

/* A response body as an XML tree in `arena` (borrowing from the body). ANVIL_ESYNTAX with `why`. */
int anvil__xml_parse_body(struct anvil_arena *arena, struct anvil_allocator *allocator,
                          const struct anvil__response *res, const struct anvil_xml_node **root, struct anvil_buf *why);

/*
 * Pushes the members of structure `shape` read from element `node` onto
 * `values` (attributes, child elements by local name, flattened lists and
 * maps gathered); elements the shape does not know are skipped. No
 * defaults are filled (the caller does, once every member is in).
 * ANVIL_ESYNTAX with `why` naming the member for text of the wrong type.
 */
int anvil__xml_decode_members(const struct anvil_shape *shape, const struct anvil_xml_node *node,
                              struct anvil__values *values, struct anvil_buf *why);

/* One element as the value of `member`'s target. */
int anvil__xml_decode_value(const struct anvil_member *member, const struct anvil_xml_node *node,
                            struct anvil__values *values, struct anvil_json *out, struct anvil_buf *why);

/*
 * The error of an XML protocol's response (awsQuery's `<ErrorResponse>`,
 * ec2Query's `<Response><Errors>`, restXml's either or a bare `<Error>`):
 * code and message into `reply`, the request id, and the modelled error's
 * members (read from `<Error>`) into `*error_data`. Returns ANVIL_ESERVICE,
 * or ANVIL_ENOMEM.
 */
int anvil__xml_error(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                     const struct anvil__response *res, const struct anvil_xml_node *root, bool query_codes,
                     struct anvil_arena *arena, struct anvil_operation_reply *reply, struct anvil__values *values,
                     struct anvil_json *error_data, struct anvil_buf *why);

/* ---- service customizations (customize.c) ---- */

/* The input as the service needs it before serialisation (Glacier's "-" account id): `*out` is `input` or a copy. */
int anvil__customize_input(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                           const struct anvil_json *input, struct anvil_arena *arena, const struct anvil_json **out);

/* What the service adds to a serialised request (Glacier's headers, API Gateway's Accept, ML's endpoint). */
int anvil__customize_request(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                             const struct anvil_json *input, struct anvil__request *req, struct anvil_diag *diag);

/* ---- the protocols ---- */

extern const struct anvil__protocol anvil__aws_json_1_0;
extern const struct anvil__protocol anvil__aws_json_1_1;
extern const struct anvil__protocol anvil__rest_json_1;
extern const struct anvil__protocol anvil__aws_query;
extern const struct anvil__protocol anvil__ec2_query;
extern const struct anvil__protocol anvil__rest_xml;

#endif
