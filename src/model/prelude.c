/*
 * The names and types of the Smithy prelude's shapes (namespace smithy.api),
 * as Smithy 2.0 defines them: relative shape ids fall back to these, and an
 * annotation trait's value is coerced by its shape's type. Sorted by name
 * (byte order) for binary search.
 */

#include <string.h>

#include "model/model_internal.h"

static const struct {
    const char *name;
    enum anvil_shape_type type;
} s_names[] = {
    {"AuthTraitReference", ANVIL_SHAPE_STRING},
    {"BigDecimal", ANVIL_SHAPE_BIG_DECIMAL},
    {"BigInteger", ANVIL_SHAPE_BIG_INTEGER},
    {"Blob", ANVIL_SHAPE_BLOB},
    {"Boolean", ANVIL_SHAPE_BOOLEAN},
    {"Byte", ANVIL_SHAPE_BYTE},
    {"ClosureId", ANVIL_SHAPE_STRING},
    {"CommonMark", ANVIL_SHAPE_STRING},
    {"Document", ANVIL_SHAPE_DOCUMENT},
    {"Double", ANVIL_SHAPE_DOUBLE},
    {"EnumConstantBodyName", ANVIL_SHAPE_STRING},
    {"EnumDefinition", ANVIL_SHAPE_STRUCTURE},
    {"Example", ANVIL_SHAPE_STRUCTURE},
    {"ExampleError", ANVIL_SHAPE_STRUCTURE},
    {"Float", ANVIL_SHAPE_FLOAT},
    {"HttpApiKeyLocations", ANVIL_SHAPE_ENUM},
    {"IdempotentErrors", ANVIL_SHAPE_LIST},
    {"Identifier", ANVIL_SHAPE_STRING},
    {"Integer", ANVIL_SHAPE_INTEGER},
    {"LocalMixinTrait", ANVIL_SHAPE_STRING},
    {"LocalMixinTraitList", ANVIL_SHAPE_LIST},
    {"Long", ANVIL_SHAPE_LONG},
    {"Namespaces", ANVIL_SHAPE_LIST},
    {"NonEmptyString", ANVIL_SHAPE_STRING},
    {"NonEmptyStringList", ANVIL_SHAPE_LIST},
    {"NonEmptyStringMap", ANVIL_SHAPE_MAP},
    {"PrimitiveBoolean", ANVIL_SHAPE_BOOLEAN},
    {"PrimitiveByte", ANVIL_SHAPE_BYTE},
    {"PrimitiveDouble", ANVIL_SHAPE_DOUBLE},
    {"PrimitiveFloat", ANVIL_SHAPE_FLOAT},
    {"PrimitiveInteger", ANVIL_SHAPE_INTEGER},
    {"PrimitiveLong", ANVIL_SHAPE_LONG},
    {"PrimitiveShort", ANVIL_SHAPE_SHORT},
    {"Reference", ANVIL_SHAPE_STRUCTURE},
    {"Renames", ANVIL_SHAPE_MAP},
    {"RequestCompressionEncodingsList", ANVIL_SHAPE_LIST},
    {"Severity", ANVIL_SHAPE_ENUM},
    {"ShapeClosure", ANVIL_SHAPE_STRUCTURE},
    {"ShapeClosures", ANVIL_SHAPE_LIST},
    {"Short", ANVIL_SHAPE_SHORT},
    {"String", ANVIL_SHAPE_STRING},
    {"StructurallyExclusive", ANVIL_SHAPE_ENUM},
    {"Timestamp", ANVIL_SHAPE_TIMESTAMP},
    {"TraitChangeType", ANVIL_SHAPE_ENUM},
    {"TraitDiffRule", ANVIL_SHAPE_STRUCTURE},
    {"TraitDiffRules", ANVIL_SHAPE_LIST},
    {"TraitShapeId", ANVIL_SHAPE_STRING},
    {"TraitShapeIdList", ANVIL_SHAPE_LIST},
    {"TraitValidator", ANVIL_SHAPE_STRUCTURE},
    {"Unit", ANVIL_SHAPE_STRUCTURE},
    {"addedDefault", ANVIL_SHAPE_STRUCTURE},
    {"auth", ANVIL_SHAPE_LIST},
    {"authDefinition", ANVIL_SHAPE_STRUCTURE},
    {"box", ANVIL_SHAPE_STRUCTURE},
    {"clientOptional", ANVIL_SHAPE_STRUCTURE},
    {"cors", ANVIL_SHAPE_STRUCTURE},
    {"default", ANVIL_SHAPE_DOCUMENT},
    {"deprecated", ANVIL_SHAPE_STRUCTURE},
    {"documentation", ANVIL_SHAPE_STRING},
    {"endpoint", ANVIL_SHAPE_STRUCTURE},
    {"enum", ANVIL_SHAPE_LIST},
    {"enumValue", ANVIL_SHAPE_DOCUMENT},
    {"error", ANVIL_SHAPE_ENUM},
    {"eventHeader", ANVIL_SHAPE_STRUCTURE},
    {"eventPayload", ANVIL_SHAPE_STRUCTURE},
    {"examples", ANVIL_SHAPE_LIST},
    {"externalDocumentation", ANVIL_SHAPE_MAP},
    {"hostLabel", ANVIL_SHAPE_STRUCTURE},
    {"http", ANVIL_SHAPE_STRUCTURE},
    {"httpApiKeyAuth", ANVIL_SHAPE_STRUCTURE},
    {"httpBasicAuth", ANVIL_SHAPE_STRUCTURE},
    {"httpBearerAuth", ANVIL_SHAPE_STRUCTURE},
    {"httpChecksumRequired", ANVIL_SHAPE_STRUCTURE},
    {"httpDigestAuth", ANVIL_SHAPE_STRUCTURE},
    {"httpError", ANVIL_SHAPE_INTEGER},
    {"httpHeader", ANVIL_SHAPE_STRING},
    {"httpLabel", ANVIL_SHAPE_STRUCTURE},
    {"httpPayload", ANVIL_SHAPE_STRUCTURE},
    {"httpPrefixHeaders", ANVIL_SHAPE_STRING},
    {"httpQuery", ANVIL_SHAPE_STRING},
    {"httpQueryParams", ANVIL_SHAPE_STRUCTURE},
    {"httpResponseCode", ANVIL_SHAPE_STRUCTURE},
    {"idRef", ANVIL_SHAPE_STRUCTURE},
    {"idempotencyToken", ANVIL_SHAPE_STRUCTURE},
    {"idempotent", ANVIL_SHAPE_STRUCTURE},
    {"input", ANVIL_SHAPE_STRUCTURE},
    {"internal", ANVIL_SHAPE_STRUCTURE},
    {"jsonName", ANVIL_SHAPE_STRING},
    {"length", ANVIL_SHAPE_STRUCTURE},
    {"longPoll", ANVIL_SHAPE_STRUCTURE},
    {"mediaType", ANVIL_SHAPE_STRING},
    {"metadata", ANVIL_SHAPE_STRUCTURE},
    {"mixin", ANVIL_SHAPE_STRUCTURE},
    {"nestedProperties", ANVIL_SHAPE_STRUCTURE},
    {"noReplace", ANVIL_SHAPE_STRUCTURE},
    {"notProperty", ANVIL_SHAPE_STRUCTURE},
    {"optionalAuth", ANVIL_SHAPE_STRUCTURE},
    {"output", ANVIL_SHAPE_STRUCTURE},
    {"paginated", ANVIL_SHAPE_STRUCTURE},
    {"pattern", ANVIL_SHAPE_STRING},
    {"private", ANVIL_SHAPE_STRUCTURE},
    {"property", ANVIL_SHAPE_STRUCTURE},
    {"protocolDefinition", ANVIL_SHAPE_STRUCTURE},
    {"range", ANVIL_SHAPE_STRUCTURE},
    {"readonly", ANVIL_SHAPE_STRUCTURE},
    {"recommended", ANVIL_SHAPE_STRUCTURE},
    {"references", ANVIL_SHAPE_LIST},
    {"requestCompression", ANVIL_SHAPE_STRUCTURE},
    {"required", ANVIL_SHAPE_STRUCTURE},
    {"requiresLength", ANVIL_SHAPE_STRUCTURE},
    {"resourceIdentifier", ANVIL_SHAPE_STRING},
    {"retryable", ANVIL_SHAPE_STRUCTURE},
    {"sensitive", ANVIL_SHAPE_STRUCTURE},
    {"since", ANVIL_SHAPE_STRING},
    {"sparse", ANVIL_SHAPE_STRUCTURE},
    {"streaming", ANVIL_SHAPE_STRUCTURE},
    {"suppress", ANVIL_SHAPE_LIST},
    {"tags", ANVIL_SHAPE_LIST},
    {"timestampFormat", ANVIL_SHAPE_ENUM},
    {"title", ANVIL_SHAPE_STRING},
    {"trait", ANVIL_SHAPE_STRUCTURE},
    {"traitValidators", ANVIL_SHAPE_MAP},
    {"uniqueItems", ANVIL_SHAPE_STRUCTURE},
    {"unitType", ANVIL_SHAPE_STRUCTURE},
    {"unstable", ANVIL_SHAPE_STRUCTURE},
    {"xmlAttribute", ANVIL_SHAPE_STRUCTURE},
    {"xmlFlattened", ANVIL_SHAPE_STRUCTURE},
    {"xmlName", ANVIL_SHAPE_STRING},
    {"xmlNamespace", ANVIL_SHAPE_STRUCTURE},
};

bool anvil__prelude_type(struct anvil_str_view name, enum anvil_shape_type *type) {
    size_t lo = 0, hi = sizeof(s_names) / sizeof(s_names[0]);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = anvil_sv_cmp(name, anvil_sv_from_cstr(s_names[mid].name));
        if (c == 0) {
            if (type) {
                *type = s_names[mid].type;
            }
            return true;
        }
        if (c < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return false;
}
