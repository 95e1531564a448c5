/*
 * The names and types of the Smithy prelude's shapes (namespace smithy.api),
 * as Smithy 2.0 defines them: relative shape ids fall back to these, and an
 * annotation trait's value is coerced by its shape's type. Sorted by name
 * (byte order) for binary search.
 */

#include <string.h>

#include "model/model_internal.h"

struct s_name {
    const char *name;
    size_t len;
    enum anvil_shape_type type;
};

#define S_NAME(name, type)                                                                                             \
    { name, sizeof(name) - 1, type }

static const struct s_name s_names[] = {
    S_NAME("AuthTraitReference", ANVIL_SHAPE_STRING),
    S_NAME("BigDecimal", ANVIL_SHAPE_BIG_DECIMAL),
    S_NAME("BigInteger", ANVIL_SHAPE_BIG_INTEGER),
    S_NAME("Blob", ANVIL_SHAPE_BLOB),
    S_NAME("Boolean", ANVIL_SHAPE_BOOLEAN),
    S_NAME("Byte", ANVIL_SHAPE_BYTE),
    S_NAME("ClosureId", ANVIL_SHAPE_STRING),
    S_NAME("CommonMark", ANVIL_SHAPE_STRING),
    S_NAME("Document", ANVIL_SHAPE_DOCUMENT),
    S_NAME("Double", ANVIL_SHAPE_DOUBLE),
    S_NAME("EnumConstantBodyName", ANVIL_SHAPE_STRING),
    S_NAME("EnumDefinition", ANVIL_SHAPE_STRUCTURE),
    S_NAME("Example", ANVIL_SHAPE_STRUCTURE),
    S_NAME("ExampleError", ANVIL_SHAPE_STRUCTURE),
    S_NAME("Float", ANVIL_SHAPE_FLOAT),
    S_NAME("HttpApiKeyLocations", ANVIL_SHAPE_ENUM),
    S_NAME("IdempotentErrors", ANVIL_SHAPE_LIST),
    S_NAME("Identifier", ANVIL_SHAPE_STRING),
    S_NAME("Integer", ANVIL_SHAPE_INTEGER),
    S_NAME("LocalMixinTrait", ANVIL_SHAPE_STRING),
    S_NAME("LocalMixinTraitList", ANVIL_SHAPE_LIST),
    S_NAME("Long", ANVIL_SHAPE_LONG),
    S_NAME("Namespaces", ANVIL_SHAPE_LIST),
    S_NAME("NonEmptyString", ANVIL_SHAPE_STRING),
    S_NAME("NonEmptyStringList", ANVIL_SHAPE_LIST),
    S_NAME("NonEmptyStringMap", ANVIL_SHAPE_MAP),
    S_NAME("PrimitiveBoolean", ANVIL_SHAPE_BOOLEAN),
    S_NAME("PrimitiveByte", ANVIL_SHAPE_BYTE),
    S_NAME("PrimitiveDouble", ANVIL_SHAPE_DOUBLE),
    S_NAME("PrimitiveFloat", ANVIL_SHAPE_FLOAT),
    S_NAME("PrimitiveInteger", ANVIL_SHAPE_INTEGER),
    S_NAME("PrimitiveLong", ANVIL_SHAPE_LONG),
    S_NAME("PrimitiveShort", ANVIL_SHAPE_SHORT),
    S_NAME("Reference", ANVIL_SHAPE_STRUCTURE),
    S_NAME("Renames", ANVIL_SHAPE_MAP),
    S_NAME("RequestCompressionEncodingsList", ANVIL_SHAPE_LIST),
    S_NAME("Severity", ANVIL_SHAPE_ENUM),
    S_NAME("ShapeClosure", ANVIL_SHAPE_STRUCTURE),
    S_NAME("ShapeClosures", ANVIL_SHAPE_LIST),
    S_NAME("Short", ANVIL_SHAPE_SHORT),
    S_NAME("String", ANVIL_SHAPE_STRING),
    S_NAME("StructurallyExclusive", ANVIL_SHAPE_ENUM),
    S_NAME("Timestamp", ANVIL_SHAPE_TIMESTAMP),
    S_NAME("TraitChangeType", ANVIL_SHAPE_ENUM),
    S_NAME("TraitDiffRule", ANVIL_SHAPE_STRUCTURE),
    S_NAME("TraitDiffRules", ANVIL_SHAPE_LIST),
    S_NAME("TraitShapeId", ANVIL_SHAPE_STRING),
    S_NAME("TraitShapeIdList", ANVIL_SHAPE_LIST),
    S_NAME("TraitValidator", ANVIL_SHAPE_STRUCTURE),
    S_NAME("Unit", ANVIL_SHAPE_STRUCTURE),
    S_NAME("addedDefault", ANVIL_SHAPE_STRUCTURE),
    S_NAME("auth", ANVIL_SHAPE_LIST),
    S_NAME("authDefinition", ANVIL_SHAPE_STRUCTURE),
    S_NAME("box", ANVIL_SHAPE_STRUCTURE),
    S_NAME("clientOptional", ANVIL_SHAPE_STRUCTURE),
    S_NAME("cors", ANVIL_SHAPE_STRUCTURE),
    S_NAME("default", ANVIL_SHAPE_DOCUMENT),
    S_NAME("deprecated", ANVIL_SHAPE_STRUCTURE),
    S_NAME("documentation", ANVIL_SHAPE_STRING),
    S_NAME("endpoint", ANVIL_SHAPE_STRUCTURE),
    S_NAME("enum", ANVIL_SHAPE_LIST),
    S_NAME("enumValue", ANVIL_SHAPE_DOCUMENT),
    S_NAME("error", ANVIL_SHAPE_ENUM),
    S_NAME("eventHeader", ANVIL_SHAPE_STRUCTURE),
    S_NAME("eventPayload", ANVIL_SHAPE_STRUCTURE),
    S_NAME("examples", ANVIL_SHAPE_LIST),
    S_NAME("externalDocumentation", ANVIL_SHAPE_MAP),
    S_NAME("hostLabel", ANVIL_SHAPE_STRUCTURE),
    S_NAME("http", ANVIL_SHAPE_STRUCTURE),
    S_NAME("httpApiKeyAuth", ANVIL_SHAPE_STRUCTURE),
    S_NAME("httpBasicAuth", ANVIL_SHAPE_STRUCTURE),
    S_NAME("httpBearerAuth", ANVIL_SHAPE_STRUCTURE),
    S_NAME("httpChecksumRequired", ANVIL_SHAPE_STRUCTURE),
    S_NAME("httpDigestAuth", ANVIL_SHAPE_STRUCTURE),
    S_NAME("httpError", ANVIL_SHAPE_INTEGER),
    S_NAME("httpHeader", ANVIL_SHAPE_STRING),
    S_NAME("httpLabel", ANVIL_SHAPE_STRUCTURE),
    S_NAME("httpPayload", ANVIL_SHAPE_STRUCTURE),
    S_NAME("httpPrefixHeaders", ANVIL_SHAPE_STRING),
    S_NAME("httpQuery", ANVIL_SHAPE_STRING),
    S_NAME("httpQueryParams", ANVIL_SHAPE_STRUCTURE),
    S_NAME("httpResponseCode", ANVIL_SHAPE_STRUCTURE),
    S_NAME("idRef", ANVIL_SHAPE_STRUCTURE),
    S_NAME("idempotencyToken", ANVIL_SHAPE_STRUCTURE),
    S_NAME("idempotent", ANVIL_SHAPE_STRUCTURE),
    S_NAME("input", ANVIL_SHAPE_STRUCTURE),
    S_NAME("internal", ANVIL_SHAPE_STRUCTURE),
    S_NAME("jsonName", ANVIL_SHAPE_STRING),
    S_NAME("length", ANVIL_SHAPE_STRUCTURE),
    S_NAME("longPoll", ANVIL_SHAPE_STRUCTURE),
    S_NAME("mediaType", ANVIL_SHAPE_STRING),
    S_NAME("metadata", ANVIL_SHAPE_STRUCTURE),
    S_NAME("mixin", ANVIL_SHAPE_STRUCTURE),
    S_NAME("nestedProperties", ANVIL_SHAPE_STRUCTURE),
    S_NAME("noReplace", ANVIL_SHAPE_STRUCTURE),
    S_NAME("notProperty", ANVIL_SHAPE_STRUCTURE),
    S_NAME("optionalAuth", ANVIL_SHAPE_STRUCTURE),
    S_NAME("output", ANVIL_SHAPE_STRUCTURE),
    S_NAME("paginated", ANVIL_SHAPE_STRUCTURE),
    S_NAME("pattern", ANVIL_SHAPE_STRING),
    S_NAME("private", ANVIL_SHAPE_STRUCTURE),
    S_NAME("property", ANVIL_SHAPE_STRUCTURE),
    S_NAME("protocolDefinition", ANVIL_SHAPE_STRUCTURE),
    S_NAME("range", ANVIL_SHAPE_STRUCTURE),
    S_NAME("readonly", ANVIL_SHAPE_STRUCTURE),
    S_NAME("recommended", ANVIL_SHAPE_STRUCTURE),
    S_NAME("references", ANVIL_SHAPE_LIST),
    S_NAME("requestCompression", ANVIL_SHAPE_STRUCTURE),
    S_NAME("required", ANVIL_SHAPE_STRUCTURE),
    S_NAME("requiresLength", ANVIL_SHAPE_STRUCTURE),
    S_NAME("resourceIdentifier", ANVIL_SHAPE_STRING),
    S_NAME("retryable", ANVIL_SHAPE_STRUCTURE),
    S_NAME("sensitive", ANVIL_SHAPE_STRUCTURE),
    S_NAME("since", ANVIL_SHAPE_STRING),
    S_NAME("sparse", ANVIL_SHAPE_STRUCTURE),
    S_NAME("streaming", ANVIL_SHAPE_STRUCTURE),
    S_NAME("suppress", ANVIL_SHAPE_LIST),
    S_NAME("tags", ANVIL_SHAPE_LIST),
    S_NAME("timestampFormat", ANVIL_SHAPE_ENUM),
    S_NAME("title", ANVIL_SHAPE_STRING),
    S_NAME("trait", ANVIL_SHAPE_STRUCTURE),
    S_NAME("traitValidators", ANVIL_SHAPE_MAP),
    S_NAME("uniqueItems", ANVIL_SHAPE_STRUCTURE),
    S_NAME("unitType", ANVIL_SHAPE_STRUCTURE),
    S_NAME("unstable", ANVIL_SHAPE_STRUCTURE),
    S_NAME("xmlAttribute", ANVIL_SHAPE_STRUCTURE),
    S_NAME("xmlFlattened", ANVIL_SHAPE_STRUCTURE),
    S_NAME("xmlName", ANVIL_SHAPE_STRING),
    S_NAME("xmlNamespace", ANVIL_SHAPE_STRUCTURE),
};

/* The prelude's @private shapes (prelude.smithy), sorted by bytes: never written relative from elsewhere. */
static const struct s_name s_private[] = {
    S_NAME("AuthTraitReference", ANVIL_SHAPE_STRING),
    S_NAME("ClosureId", ANVIL_SHAPE_STRING),
    S_NAME("CommonMark", ANVIL_SHAPE_STRING),
    S_NAME("EnumConstantBodyName", ANVIL_SHAPE_STRING),
    S_NAME("EnumDefinition", ANVIL_SHAPE_STRING),
    S_NAME("Example", ANVIL_SHAPE_STRING),
    S_NAME("ExampleError", ANVIL_SHAPE_STRING),
    S_NAME("HttpApiKeyLocations", ANVIL_SHAPE_STRING),
    S_NAME("IdempotentErrors", ANVIL_SHAPE_STRING),
    S_NAME("Identifier", ANVIL_SHAPE_STRING),
    S_NAME("LocalMixinTrait", ANVIL_SHAPE_STRING),
    S_NAME("LocalMixinTraitList", ANVIL_SHAPE_STRING),
    S_NAME("Namespaces", ANVIL_SHAPE_STRING),
    S_NAME("NonEmptyString", ANVIL_SHAPE_STRING),
    S_NAME("NonEmptyStringList", ANVIL_SHAPE_STRING),
    S_NAME("NonEmptyStringMap", ANVIL_SHAPE_STRING),
    S_NAME("Reference", ANVIL_SHAPE_STRING),
    S_NAME("Renames", ANVIL_SHAPE_STRING),
    S_NAME("RequestCompressionEncodingsList", ANVIL_SHAPE_STRING),
    S_NAME("Severity", ANVIL_SHAPE_STRING),
    S_NAME("ShapeClosure", ANVIL_SHAPE_STRING),
    S_NAME("ShapeClosures", ANVIL_SHAPE_STRING),
    S_NAME("StructurallyExclusive", ANVIL_SHAPE_STRING),
    S_NAME("TraitChangeType", ANVIL_SHAPE_STRING),
    S_NAME("TraitDiffRule", ANVIL_SHAPE_STRING),
    S_NAME("TraitDiffRules", ANVIL_SHAPE_STRING),
    S_NAME("TraitShapeId", ANVIL_SHAPE_STRING),
    S_NAME("TraitShapeIdList", ANVIL_SHAPE_STRING),
    S_NAME("TraitValidator", ANVIL_SHAPE_STRING),
};

/* The entry named `name` in a table sorted by bytes, or NULL: a binary search on lengths kept beside the names. */
static const struct s_name *s_find(const struct s_name *table, size_t count, struct anvil_str_view name) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct s_name *e = &table[mid];
        int c = memcmp(name.ptr, e->name, name.len < e->len ? name.len : e->len);
        if (c == 0) {
            c = name.len < e->len ? -1 : name.len > e->len ? 1 : 0;
        }
        if (c == 0) {
            return e;
        }
        if (c < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return NULL;
}

bool anvil__prelude_type(struct anvil_str_view name, enum anvil_shape_type *type) {
    const struct s_name *found = name.len ? s_find(s_names, sizeof(s_names) / sizeof(s_names[0]), name) : NULL;
    if (found && type) {
        *type = found->type;
    }
    return found != NULL;
}

bool anvil__prelude_private(struct anvil_str_view name) {
    return name.len && s_find(s_private, sizeof(s_private) / sizeof(s_private[0]), name) != NULL;
}
