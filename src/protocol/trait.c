/*
 * Trait lookups on the codecs' hot paths (every member of every value
 * read): the key's hash is computed once per trait id, not once per
 * lookup; and the path a codec is at, kept as a stack of segments and
 * formatted only when a message needs it.
 */

#include <stdio.h>

#include "protocol/protocol_internal.h"
#include "json/json_internal.h"

struct anvil__trait_id anvil__t_xml_name = ANVIL__TRAIT_ID("smithy.api#xmlName");
struct anvil__trait_id anvil__t_xml_attribute = ANVIL__TRAIT_ID("smithy.api#xmlAttribute");
struct anvil__trait_id anvil__t_xml_flattened = ANVIL__TRAIT_ID("smithy.api#xmlFlattened");
struct anvil__trait_id anvil__t_xml_namespace = ANVIL__TRAIT_ID("smithy.api#xmlNamespace");
struct anvil__trait_id anvil__t_json_name = ANVIL__TRAIT_ID("smithy.api#jsonName");
struct anvil__trait_id anvil__t_timestamp_format = ANVIL__TRAIT_ID("smithy.api#timestampFormat");
struct anvil__trait_id anvil__t_sparse = ANVIL__TRAIT_ID("smithy.api#sparse");
struct anvil__trait_id anvil__t_default = ANVIL__TRAIT_ID("smithy.api#default");
struct anvil__trait_id anvil__t_client_optional = ANVIL__TRAIT_ID("smithy.api#clientOptional");
struct anvil__trait_id anvil__t_required = ANVIL__TRAIT_ID("smithy.api#required");
struct anvil__trait_id anvil__t_streaming = ANVIL__TRAIT_ID("smithy.api#streaming");
struct anvil__trait_id anvil__t_media_type = ANVIL__TRAIT_ID("smithy.api#mediaType");
struct anvil__trait_id anvil__t_http_header = ANVIL__TRAIT_ID("smithy.api#httpHeader");
struct anvil__trait_id anvil__t_http_prefix_headers = ANVIL__TRAIT_ID("smithy.api#httpPrefixHeaders");
struct anvil__trait_id anvil__t_http_payload = ANVIL__TRAIT_ID("smithy.api#httpPayload");
struct anvil__trait_id anvil__t_http_response_code = ANVIL__TRAIT_ID("smithy.api#httpResponseCode");
struct anvil__trait_id anvil__t_http_label = ANVIL__TRAIT_ID("smithy.api#httpLabel");
struct anvil__trait_id anvil__t_http_query = ANVIL__TRAIT_ID("smithy.api#httpQuery");
struct anvil__trait_id anvil__t_http_query_params = ANVIL__TRAIT_ID("smithy.api#httpQueryParams");

const struct anvil_json *anvil__trait(const struct anvil_json *traits, struct anvil__trait_id *id) {
    if (!anvil_json_len(traits)) {
        return NULL;
    }
    /* Threads racing here store the same value; a hash of 0 is just computed every time. */
    uint32_t hash = atomic_load_explicit(&id->hash, memory_order_relaxed);
    if (!hash) {
        hash = anvil_json_hash(id->name, id->len);
        atomic_store_explicit(&id->hash, hash, memory_order_relaxed);
    }
    return anvil__json_object_get_hashed(traits, id->name, id->len, hash);
}

const char *anvil__path_text(const struct anvil__path *p, const char *fallback, char *out, size_t size) {
    if (!p->depth) {
        return fallback;
    }
    size_t n = 0;
    out[0] = '\0';
    size_t depth = p->depth < ANVIL__PATH_MAX ? p->depth : ANVIL__PATH_MAX;
    for (size_t i = 0; i < depth && n + 1 < size; i++) {
        int w;
        if (p->seg[i].kind == ANVIL__PATH_INDEX) {
            w = snprintf(out + n, size - n, "[%zu]", p->seg[i].index);
        } else if (p->seg[i].kind == ANVIL__PATH_KEY) {
            w = snprintf(out + n, size - n, "{%.*s}", (int)p->seg[i].name.len, p->seg[i].name.ptr);
        } else {
            w = snprintf(out + n, size - n, "%s%.*s", n ? "." : "", (int)p->seg[i].name.len, p->seg[i].name.ptr);
        }
        n += w > 0 ? (size_t)w : 0;
    }
    if (n >= size) {
        n = size - 1;
    }
    if (p->depth > depth && n + 4 < size) {
        snprintf(out + n, size - n, "...");
    }
    return out;
}
