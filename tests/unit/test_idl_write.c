/*
 * The IDL writer against Smithy's own serializer: each case below is the JSON
 * AST of one of smithy-lang/smithy's idl-serialization golden files (what
 * Smithy assembles from it), and the writer must give that file back byte for
 * byte. Then the rules the golden files do not show (imports, escapes,
 * numbers, idRef values), what is not a model, and the limits.
 */

#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "model/idl_write.h"

#define S_GOLDEN                                                                                                       \
    ANVIL_TESTDATA_DIR "/smithy-lang/smithy-model/src/test/resources/software/amazon/smithy/model/shapes/"             \
                       "idl-serialization/"

/* ---- helpers ---- */

/* Reads a whole file with the test's allocator; NULL (and a failure when it is missing) otherwise. */
static char *s_read(struct anvil_test *t, const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        anvil_test_fail(t, __FILE__, __LINE__, "cannot open %s", path);
        return NULL;
    }
    char *text = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 > cap) {
            void *p = text;
            cap = cap ? cap * 2 : 65536;
            if (anvil_mem_realloc(t->alloc, &p, cap) != ANVIL_OK) {
                anvil_mem_release(t->alloc, text);
                fclose(f);
                return NULL;
            }
            text = p;
        }
        size_t got = fread(text + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) {
            break;
        }
    }
    fclose(f);
    text[n] = '\0';
    *len = n;
    return text;
}

/* Parses `json` and writes namespace `ns` of it into `out`. */
static int s_write(struct anvil_test *t, const char *json, size_t len, const char *ns, bool with_metadata,
                   struct anvil_buf *out, struct anvil_diag *diag) {
    struct anvil_json_doc *doc = NULL;
    int rc = anvil_json_parse(t->alloc, json, len, NULL, &doc, diag);
    if (rc == ANVIL_OK) {
        struct anvil_idl_write_options options = {with_metadata};
        rc = anvil__idl_write(anvil_json_doc_root(doc), anvil_sv_from_cstr(ns), &options, out, diag);
    }
    anvil_json_doc_destroy(doc);
    return rc;
}

/* Fails with the first line that differs. */
static bool s_same_text(struct anvil_test *t, int line, struct anvil_str_view got, struct anvil_str_view want) {
    if (anvil_sv_eq(got, want)) {
        return true;
    }
    size_t at = 0, line_no = 1, line_start = 0;
    while (at < got.len && at < want.len && got.ptr[at] == want.ptr[at]) {
        if (got.ptr[at++] == '\n') {
            line_no++;
            line_start = at;
        }
    }
    size_t got_end = anvil_sv_find_byte(got, line_start, '\n'), want_end = anvil_sv_find_byte(want, line_start, '\n');
    got_end = got_end == SIZE_MAX ? got.len : got_end;
    want_end = want_end == SIZE_MAX ? want.len : want_end;
    anvil_test_fail(t, __FILE__, line, "text differs at line %zu (byte %zu):\n  got:  \"%.*s\"\n  want: \"%.*s\"",
                    line_no, at, (int)(got_end - line_start), got.ptr + line_start, (int)(want_end - line_start),
                    want.ptr + line_start);
    return false;
}

/* Writes `ns` of `json` and compares it with golden file `file` (under S_GOLDEN). */
static void s_golden(struct anvil_test *t, const char *json, const char *ns, bool with_metadata, const char *file) {
    char path[1024];
    snprintf(path, sizeof(path), "%s%s", S_GOLDEN, file);
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    struct anvil_diag diag;
    size_t len = 0;
    char *want = s_read(t, path, &len);
    CHECK_ALLOC(want);
    CHECK_OK(s_write(t, json, strlen(json), ns, with_metadata, &out, &diag));
    CHECK(s_same_text(t, __LINE__, anvil_buf_view(&out), anvil_sv(want, len)));
done:
    anvil_mem_release(t->alloc, want);
    anvil_buf_clean_up(&out);
}

/* Writes `ns` of `json` and compares it with `want`. */
static void s_expect(struct anvil_test *t, int line, const char *json, const char *ns, bool with_metadata,
                     const char *want) {
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    struct anvil_diag diag;
    int rc = s_write(t, json, strlen(json), ns, with_metadata, &out, &diag);
    if (rc != ANVIL_OK) {
        if (!anvil_test_status_mismatch(t, __FILE__, line, "s_write", rc, ANVIL_OK)) {
            anvil_test_fail(t, __FILE__, line, "diag: %s", diag.message);
        }
        goto done;
    }
    CHECK(s_same_text(t, line, anvil_buf_view(&out), anvil_sv_from_cstr(want)));
done:
    anvil_buf_clean_up(&out);
}

/* Writing `ns` of `json` fails with `code` and exactly `message`. */
static void s_reject(struct anvil_test *t, int line, const char *json, const char *ns, int code, const char *message) {
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    struct anvil_diag diag;
    int rc = s_write(t, json, strlen(json), ns, false, &out, &diag);
    if (rc != code) {
        if (!anvil_test_status_mismatch(t, __FILE__, line, json, rc, code)) {
            anvil_test_fail(t, __FILE__, line, "diag: %s", diag.message);
        }
        goto done;
    }
    if (strcmp(diag.message, message) != 0) {
        anvil_test_fail(t, __FILE__, line, "diag: \"%s\", want \"%s\"", diag.message, message);
    }
    CHECK_EQ_U64(out.len, 0);
done:
    anvil_buf_clean_up(&out);
}

/* ---- Smithy's golden files (JSON ASTs as Smithy assembles them) ---- */

static const char s_boolean_traits[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"ns.foo#FalseBooleanTrait\":{\"type\":\"boolean\",\"traits\":{\"smithy.api#trait\":{},"
    "\"smithy.api#documentation\":\"This trait isn't an annotation trait since it doesn't extend BooleanTrait\"}},"
    "\"ns.foo#Foo\":{\"type\":\"string\",\"traits\":{\"ns.foo#FalseBooleanTrait\":true,"
    "\"smithy.api#private\":{}}}}}";

static const char s_collection_traits[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"ns.foo#ListTrait\":{\"type\":\"list\",\"member\":{\"target\":\"smithy.api#String\"},"
    "\"traits\":{\"smithy.api#trait\":{}}},"
    "\"ns.foo#UniqueItemsListTrait\":{\"type\":\"list\",\"member\":{\"target\":\"smithy.api#String\"},"
    "\"traits\":{\"smithy.api#trait\":{},\"smithy.api#uniqueItems\":{}}},"
    "\"ns.foo#Bar\":{\"type\":\"string\",\"traits\":{\"ns.foo#ListTrait\":[],"
    "\"ns.foo#UniqueItemsListTrait\":[]}},"
    "\"ns.foo#Foo\":{\"type\":\"string\",\"traits\":{\"ns.foo#ListTrait\":[\"first\",\"second\"],"
    "\"ns.foo#UniqueItemsListTrait\":[\"first\",\"second\"]}}}}";

static const char s_data_mixins[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"smithy.example#MixedList\":{\"type\":\"list\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinList\"}]},"
    "\"smithy.example#MixinList\":{\"type\":\"list\",\"member\":{\"target\":\"smithy.api#String\"},"
    "\"traits\":{\"smithy.api#internal\":{},\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixedMap\":{\"type\":\"map\",\"mixins\":[{\"target\":\"smithy.example#MixinMap\"}]},"
    "\"smithy.example#MixinMap\":{\"type\":\"map\",\"key\":{\"target\":\"smithy.api#String\"},"
    "\"value\":{\"target\":\"smithy.api#String\"},\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixedBigDecimal\":{\"type\":\"bigDecimal\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinBigDecimal\"}]},"
    "\"smithy.example#MixedBigInt\":{\"type\":\"bigInteger\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinBigInt\"}]},"
    "\"smithy.example#MixedBlob\":{\"type\":\"blob\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinBlob\"}]},"
    "\"smithy.example#MixedBoolean\":{\"type\":\"boolean\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinBoolean\"}]},"
    "\"smithy.example#MixedByte\":{\"type\":\"byte\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinByte\"}]},"
    "\"smithy.example#MixedDocument\":{\"type\":\"document\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinDocument\"}]},"
    "\"smithy.example#MixedDouble\":{\"type\":\"double\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinDouble\"}]},"
    "\"smithy.example#MixedFloat\":{\"type\":\"float\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinFloat\"}]},"
    "\"smithy.example#MixedInteger\":{\"type\":\"integer\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinInteger\"}]},"
    "\"smithy.example#MixedLong\":{\"type\":\"long\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinLong\"}]},"
    "\"smithy.example#MixedShort\":{\"type\":\"short\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinShort\"}]},"
    "\"smithy.example#MixedString\":{\"type\":\"string\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinString\"}]},"
    "\"smithy.example#MixedTimestamp\":{\"type\":\"timestamp\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinTimestamp\"}]},"
    "\"smithy.example#MixinBigDecimal\":{\"type\":\"bigDecimal\",\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixinBigInt\":{\"type\":\"bigInteger\",\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixinBlob\":{\"type\":\"blob\",\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixinBoolean\":{\"type\":\"boolean\",\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixinByte\":{\"type\":\"byte\",\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixinDocument\":{\"type\":\"document\",\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixinDouble\":{\"type\":\"double\",\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixinFloat\":{\"type\":\"float\",\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixinInteger\":{\"type\":\"integer\",\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixinLong\":{\"type\":\"long\",\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixinShort\":{\"type\":\"short\",\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixinString\":{\"type\":\"string\",\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixinTimestamp\":{\"type\":\"timestamp\",\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}}}}";

static const char s_default_traits[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"ns.foo#Foo\":{\"type\":\"structure\",\"members\":{\"bar\":{\"target\":\"smithy.api#String\","
    "\"traits\":{\"smithy.api#default\":\"\"}},\"baz\":{\"target\":\"smithy.api#String\","
    "\"traits\":{\"smithy.api#default\":\"hi\"}}}}}}";

static const char s_document_traits[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"ns.foo#DocumentTrait\":{\"type\":\"document\",\"traits\":{\"smithy.api#trait\":{}}},"
    "\"ns.foo#Boolean\":{\"type\":\"string\",\"traits\":{\"ns.foo#DocumentTrait\":false}},"
    "\"ns.foo#List\":{\"type\":\"string\",\"traits\":{\"ns.foo#DocumentTrait\":[\"foo\"]}},"
    "\"ns.foo#Map\":{\"type\":\"string\",\"traits\":{\"ns.foo#DocumentTrait\":{\"foo\":\"bar\"}}},"
    "\"ns.foo#Null\":{\"type\":\"string\",\"traits\":{\"ns.foo#DocumentTrait\":null}},"
    "\"ns.foo#Number\":{\"type\":\"string\",\"traits\":{\"ns.foo#DocumentTrait\":123}},"
    "\"ns.foo#String\":{\"type\":\"string\",\"traits\":{\"ns.foo#DocumentTrait\":\"foo\"}}}}";

static const char s_documentation_trait[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"ns.foo#Foo\":{\"type\":\"string\","
    "\"traits\":{\"smithy.api#documentation\":\"Documentation comments are used.\\n$ dollar\\n/// doesn't need to be escaped\"}}}}";

static const char s_enums[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"ns.foo#IntEnum\":{\"type\":\"intEnum\",\"members\":{\"FOO\":{\"target\":\"smithy.api#Unit\","
    "\"traits\":{\"smithy.api#enumValue\":1}},\"BAR\":{\"target\":\"smithy.api#Unit\","
    "\"traits\":{\"smithy.api#enumValue\":2}}}},"
    "\"ns.foo#StringEnum\":{\"type\":\"enum\",\"members\":{\"FOO\":{\"target\":\"smithy.api#Unit\","
    "\"traits\":{\"smithy.api#enumValue\":\"FOO\"}},\"BAR\":{\"target\":\"smithy.api#Unit\","
    "\"traits\":{\"smithy.api#enumValue\":\"BAR\"}}}},"
    "\"ns.foo#StringEnumWithExplicitValues\":{\"type\":\"enum\","
    "\"members\":{\"FOO\":{\"target\":\"smithy.api#Unit\",\"traits\":{\"smithy.api#enumValue\":\"foo\"}},"
    "\"BAR\":{\"target\":\"smithy.api#Unit\",\"traits\":{\"smithy.api#enumValue\":\"bar\"}}}}}}";

static const char s_inline_io[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"com.example#DerivedNames\":{\"type\":\"operation\","
    "\"input\":{\"target\":\"com.example#DerivedNamesInput\"},"
    "\"output\":{\"target\":\"com.example#DerivedNamesOutput\"}},"
    "\"com.example#DerivedNamesInput\":{\"type\":\"structure\","
    "\"members\":{\"id\":{\"target\":\"smithy.api#String\"}},\"traits\":{\"smithy.api#input\":{}}},"
    "\"com.example#DerivedNamesOutput\":{\"type\":\"structure\","
    "\"members\":{\"id\":{\"target\":\"smithy.api#String\"}},\"traits\":{\"smithy.api#output\":{}}},"
    "\"com.example#DoesNotInlineWithoutIOTrait\":{\"type\":\"operation\","
    "\"input\":{\"target\":\"com.example#DoesNotInlineWithoutIOTraitInput\"},"
    "\"output\":{\"target\":\"com.example#DoesNotInlineWithoutIOTraitOutput\"}},"
    "\"com.example#EmptyShapes\":{\"type\":\"operation\","
    "\"input\":{\"target\":\"com.example#EmptyShapesInput\"},"
    "\"output\":{\"target\":\"com.example#EmptyShapesOutput\"}},"
    "\"com.example#EmptyShapesInput\":{\"type\":\"structure\",\"members\":{},"
    "\"traits\":{\"smithy.api#input\":{}}},"
    "\"com.example#EmptyShapesOutput\":{\"type\":\"structure\",\"members\":{},"
    "\"traits\":{\"smithy.api#output\":{}}},"
    "\"com.example#HasDocComments\":{\"type\":\"operation\","
    "\"input\":{\"target\":\"com.example#HasDocCommentsInput\"},"
    "\"output\":{\"target\":\"com.example#HasDocCommentsOutput\"}},"
    "\"com.example#HasDocCommentsInput\":{\"type\":\"structure\",\"members\":{},"
    "\"traits\":{\"smithy.api#documentation\":\"The trait parser automagically handles these\","
    "\"smithy.api#input\":{}}},"
    "\"com.example#HasDocCommentsOutput\":{\"type\":\"structure\",\"members\":{},"
    "\"traits\":{\"smithy.api#documentation\":\"Here too\",\"smithy.api#output\":{}}},"
    "\"com.example#UsesMixins\":{\"type\":\"operation\","
    "\"input\":{\"target\":\"com.example#UsesMixinsInput\"},"
    "\"output\":{\"target\":\"com.example#UsesMixinsOutput\"}},"
    "\"com.example#UsesMixinsInput\":{\"type\":\"structure\","
    "\"mixins\":[{\"target\":\"com.example#NameBearer\"}],"
    "\"members\":{\"id\":{\"target\":\"smithy.api#String\"}},\"traits\":{\"smithy.api#input\":{}}},"
    "\"com.example#UsesMixinsOutput\":{\"type\":\"structure\","
    "\"mixins\":[{\"target\":\"com.example#NameBearer\"}],"
    "\"members\":{\"id\":{\"target\":\"smithy.api#String\"}},\"traits\":{\"smithy.api#output\":{}}},"
    "\"com.example#UsesTraits\":{\"type\":\"operation\","
    "\"input\":{\"target\":\"com.example#UsesTraitsInput\"},"
    "\"output\":{\"target\":\"com.example#UsesTraitsOutput\"}},"
    "\"com.example#UsesTraitsInput\":{\"type\":\"structure\","
    "\"members\":{\"id\":{\"target\":\"smithy.api#String\"}},\"traits\":{\"smithy.api#sensitive\":{},"
    "\"smithy.api#input\":{}}},"
    "\"com.example#UsesTraitsOutput\":{\"type\":\"structure\","
    "\"members\":{\"id\":{\"target\":\"smithy.api#String\"}},\"traits\":{\"smithy.api#sensitive\":{},"
    "\"smithy.api#output\":{}}},"
    "\"com.example#UsesTraitsAndMixins\":{\"type\":\"operation\","
    "\"input\":{\"target\":\"com.example#UsesTraitsAndMixinsInput\"},"
    "\"output\":{\"target\":\"com.example#UsesTraitsAndMixinsOutput\"}},"
    "\"com.example#UsesTraitsAndMixinsInput\":{\"type\":\"structure\","
    "\"mixins\":[{\"target\":\"com.example#NameBearer\"}],"
    "\"members\":{\"id\":{\"target\":\"smithy.api#String\"}},\"traits\":{\"smithy.api#sensitive\":{},"
    "\"smithy.api#input\":{}}},"
    "\"com.example#UsesTraitsAndMixinsOutput\":{\"type\":\"structure\","
    "\"mixins\":[{\"target\":\"com.example#NameBearer\"}],"
    "\"members\":{\"id\":{\"target\":\"smithy.api#String\"}},\"traits\":{\"smithy.api#sensitive\":{},"
    "\"smithy.api#output\":{}}},"
    "\"com.example#DoesNotInlineWithoutIOTraitInput\":{\"type\":\"structure\",\"members\":{}},"
    "\"com.example#DoesNotInlineWithoutIOTraitOutput\":{\"type\":\"structure\",\"members\":{}},"
    "\"com.example#NameBearer\":{\"type\":\"structure\","
    "\"members\":{\"name\":{\"target\":\"smithy.api#String\"}},\"traits\":{\"smithy.api#mixin\":{}}}}}";

static const char s_metadata[] =
    "{\"smithy\":\"2.0\",\"metadata\":{\"CaseSensitive\":true,\"bool2\":false,\"caseSensitive\":true,"
    "\"example.array\":[10,true,\"hello\"],\"example.bool1\":true,\"key must be quoted\":true,"
    "\"null\":null,\"number\":10,\"object\":{\"foo\":\"baz\"},\"string\":\"hello there\"},"
    "\"shapes\":{}}";

static const char s_mixins[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"smithy.example#A\":{\"type\":\"structure\",\"members\":{\"a\":{\"target\":\"smithy.api#String\","
    "\"traits\":{\"smithy.api#documentation\":\"A.a\"}}},\"traits\":{\"smithy.api#mixin\":{},"
    "\"smithy.api#sensitive\":{},\"smithy.api#documentation\":\"A\"}},"
    "\"smithy.example#B\":{\"type\":\"structure\",\"mixins\":[{\"target\":\"smithy.example#A\"}],"
    "\"members\":{\"b\":{\"target\":\"smithy.api#String\","
    "\"traits\":{\"smithy.api#documentation\":\"B.b\"}}},\"traits\":{\"smithy.api#deprecated\":{},"
    "\"smithy.api#mixin\":{},\"smithy.api#documentation\":\"B\"}},"
    "\"smithy.example#C\":{\"type\":\"structure\",\"members\":{\"c\":{\"target\":\"smithy.api#String\","
    "\"traits\":{\"smithy.api#documentation\":\"C.c\"}}},\"traits\":{\"smithy.api#mixin\":{},"
    "\"smithy.api#tags\":[\"a\"],\"smithy.api#documentation\":\"C\"}},"
    "\"smithy.example#D\":{\"type\":\"structure\",\"mixins\":[{\"target\":\"smithy.example#C\"}],"
    "\"members\":{\"d\":{\"target\":\"smithy.api#String\","
    "\"traits\":{\"smithy.api#documentation\":\"D.d\"}}},"
    "\"traits\":{\"smithy.api#externalDocumentation\":{\"web\":\"http://example.com\"},"
    "\"smithy.api#mixin\":{},\"smithy.api#documentation\":\"D\"}},"
    "\"smithy.example#E\":{\"type\":\"structure\",\"mixins\":[{\"target\":\"smithy.example#D\"}],"
    "\"members\":{\"e\":{\"target\":\"smithy.api#String\","
    "\"traits\":{\"smithy.api#documentation\":\"E.e\"}}},\"traits\":{\"smithy.api#mixin\":{},"
    "\"smithy.api#since\":\"X\",\"smithy.api#documentation\":\"E\"}},"
    "\"smithy.example#F\":{\"type\":\"structure\",\"mixins\":[{\"target\":\"smithy.example#B\"},"
    "{\"target\":\"smithy.example#E\"}],\"members\":{\"f\":{\"target\":\"smithy.api#String\","
    "\"traits\":{\"smithy.api#documentation\":\"F.f\"}}},\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#documentation\":\"F\"}},"
    "\"smithy.example#G\":{\"type\":\"structure\",\"mixins\":[{\"target\":\"smithy.example#B\"},"
    "{\"target\":\"smithy.example#E\"}],\"members\":{}},"
    "\"smithy.example#H\":{\"type\":\"structure\",\"mixins\":[{\"target\":\"smithy.example#B\"}],"
    "\"members\":{}},"
    "\"smithy.example#I\":{\"type\":\"structure\",\"members\":{}},"
    "\"smithy.example#D$c\":{\"type\":\"apply\",\"traits\":{\"smithy.api#documentation\":\"I've changed\","
    "\"smithy.api#internal\":{}}},"
    "\"smithy.example#F$a\":{\"type\":\"apply\",\"traits\":{\"smithy.api#documentation\":\"I've changed\","
    "\"smithy.api#internal\":{}}},"
    "\"smithy.example#F$e\":{\"type\":\"apply\",\"traits\":{\"smithy.api#internal\":{}}}}}";

static const char s_number_traits[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"ns.foo#BigDecimalTrait\":{\"type\":\"bigDecimal\",\"traits\":{\"smithy.api#trait\":{}}},"
    "\"ns.foo#BigIntegerTrait\":{\"type\":\"bigInteger\",\"traits\":{\"smithy.api#trait\":{}}},"
    "\"ns.foo#ByteTrait\":{\"type\":\"byte\",\"traits\":{\"smithy.api#trait\":{}}},"
    "\"ns.foo#DoubleTrait\":{\"type\":\"double\",\"traits\":{\"smithy.api#trait\":{}}},"
    "\"ns.foo#FloatTrait\":{\"type\":\"float\",\"traits\":{\"smithy.api#trait\":{}}},"
    "\"ns.foo#IntegerTrait\":{\"type\":\"integer\",\"traits\":{\"smithy.api#trait\":{}}},"
    "\"ns.foo#LongTrait\":{\"type\":\"long\",\"traits\":{\"smithy.api#trait\":{}}},"
    "\"ns.foo#ShortTrait\":{\"type\":\"short\",\"traits\":{\"smithy.api#trait\":{}}},"
    "\"ns.foo#Foo\":{\"type\":\"string\",\"traits\":{\"ns.foo#BigDecimalTrait\":3.14,"
    "\"ns.foo#BigIntegerTrait\":123,\"ns.foo#ByteTrait\":123,\"ns.foo#DoubleTrait\":1.234,"
    "\"ns.foo#FloatTrait\":-1.234,\"ns.foo#IntegerTrait\":-123,\"ns.foo#LongTrait\":321,"
    "\"ns.foo#ShortTrait\":12321}}}}";

static const char s_object_traits[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"ns.foo#MapTrait\":{\"type\":\"map\",\"key\":{\"target\":\"smithy.api#String\"},"
    "\"value\":{\"target\":\"smithy.api#String\"},\"traits\":{\"smithy.api#trait\":{}}},"
    "\"ns.foo#StructureTrait\":{\"type\":\"structure\","
    "\"members\":{\"collectionMember\":{\"target\":\"ns.foo#StringList\"},"
    "\"nestedMember\":{\"target\":\"ns.foo#NestedMember\"},"
    "\"shapeIdMember\":{\"target\":\"ns.foo#ShapeId\"},"
    "\"staticMember\":{\"target\":\"smithy.api#String\"}},\"traits\":{\"smithy.api#trait\":{}}},"
    "\"ns.foo#UnionTrait\":{\"type\":\"union\","
    "\"members\":{\"boolean\":{\"target\":\"smithy.api#Boolean\"},"
    "\"string\":{\"target\":\"smithy.api#String\"}},\"traits\":{\"smithy.api#trait\":{}}},"
    "\"ns.foo#NestedMember\":{\"type\":\"structure\","
    "\"members\":{\"shapeIds\":{\"target\":\"ns.foo#ShapeIdList\"}}},"
    "\"ns.foo#ShapeIdList\":{\"type\":\"list\",\"member\":{\"target\":\"ns.foo#ShapeId\"}},"
    "\"ns.foo#StringList\":{\"type\":\"list\",\"member\":{\"target\":\"smithy.api#String\"}},"
    "\"ns.foo#EmptyBody\":{\"type\":\"string\",\"traits\":{\"ns.foo#MapTrait\":{},"
    "\"ns.foo#StructureTrait\":{}}},"
    "\"ns.foo#NonEmptyBody\":{\"type\":\"string\",\"traits\":{\"ns.foo#MapTrait\":{\"bar\":\"baz\","
    "\"foo\":\"bar\",\"must be quoted\":\"bam1\",\"must.be.quoted\":\"bam2\",\"must.be#quoted\":\"bam3\","
    "\"must.be#quoted$too\":\"bam4\"},\"ns.foo#StructureTrait\":{\"collectionMember\":[\"foo\",\"bar\"],"
    "\"nestedMember\":{\"shapeIds\":[\"smithy.api#String\",\"ns.foo#EmptyBody\"]},"
    "\"shapeIdMember\":\"ns.foo#UnionTrait\",\"staticMember\":\"Foo\"},"
    "\"ns.foo#UnionTrait\":{\"boolean\":false}}},"
    "\"ns.foo#ShapeId\":{\"type\":\"string\",\"traits\":{\"smithy.api#idRef\":{}}}}}";

static const char s_operation_mixins[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"smithy.example#ConcreteOperation\":{\"type\":\"operation\","
    "\"mixins\":[{\"target\":\"smithy.example#InternalMixin\"}],"
    "\"input\":{\"target\":\"smithy.api#Unit\"},\"output\":{\"target\":\"smithy.api#Unit\"},"
    "\"errors\":[{\"target\":\"smithy.example#ConcreteError\"}]},"
    "\"smithy.example#InternalMixin\":{\"type\":\"operation\",\"input\":{\"target\":\"smithy.api#Unit\"},"
    "\"output\":{\"target\":\"smithy.api#Unit\"},\"errors\":[{\"target\":\"smithy.example#MixinError\"}],"
    "\"traits\":{\"smithy.api#internal\":{},\"smithy.api#mixin\":{}}},"
    "\"smithy.example#ConcreteError\":{\"type\":\"structure\",\"members\":{},"
    "\"traits\":{\"smithy.api#error\":\"client\"}},"
    "\"smithy.example#MixinError\":{\"type\":\"structure\",\"members\":{},"
    "\"traits\":{\"smithy.api#error\":\"server\"}}}}";

static const char s_optional_namespaces_are_stripped[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"ns.foo#Structure\":{\"type\":\"structure\","
    "\"members\":{\"localWithConflict\":{\"target\":\"ns.foo#String\"},"
    "\"prelude\":{\"target\":\"smithy.api#Blob\"},"
    "\"preludeWithConflict\":{\"target\":\"smithy.api#String\"}}},"
    "\"ns.foo#String\":{\"type\":\"string\"}}}";

static const char s_resource_mixins[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"smithy.example#MixedResource\":{\"type\":\"resource\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinResource\"}]},"
    "\"smithy.example#MixinResource\":{\"type\":\"resource\",\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}}}}";

static const char s_service_errors[] = "{\"smithy\":\"2.0\",\"shapes\":{"
                                       "\"ns.foo#EmptyService\":{\"type\":\"service\",\"version\":\"2020-02-18\","
                                       "\"errors\":[{\"target\":\"ns.foo#Common1\"},{\"target\":\"ns.foo#Common2\"}]},"
                                       "\"ns.foo#Common1\":{\"type\":\"structure\",\"members\":{},"
                                       "\"traits\":{\"smithy.api#error\":\"client\"}},"
                                       "\"ns.foo#Common2\":{\"type\":\"structure\",\"members\":{},"
                                       "\"traits\":{\"smithy.api#error\":\"server\"}}}}";

static const char s_service_mixins_with_merging[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"smithy.example#MixedService\":{\"type\":\"service\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinService\"}],\"version\":\"2022-01-01\","
    "\"operations\":[{\"target\":\"smithy.example#MixedOperation\"}],"
    "\"resources\":[{\"target\":\"smithy.example#MixedResource\"}],"
    "\"errors\":[{\"target\":\"smithy.example#MixedError\"}],"
    "\"rename\":{\"smithy.example#OverriddenRename\":\"Override\","
    "\"smithy.example#MixedRename\":\"LocalRename\"}},"
    "\"smithy.example#MixinService\":{\"type\":\"service\",\"version\":\"2021-12-31\","
    "\"operations\":[{\"target\":\"smithy.example#MixinOperation\"}],"
    "\"resources\":[{\"target\":\"smithy.example#MixinResource\"}],"
    "\"errors\":[{\"target\":\"smithy.example#MixinError\"}],"
    "\"rename\":{\"smithy.example#MixinRename\":\"ThisWillBeInherited\","
    "\"smithy.example#OverriddenRename\":\"ThisWillBeOverridden\"},\"traits\":{\"smithy.api#internal\":{},"
    "\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixedResource\":{\"type\":\"resource\"},"
    "\"smithy.example#MixinResource\":{\"type\":\"resource\"},"
    "\"smithy.example#MixedOperation\":{\"type\":\"operation\",\"input\":{\"target\":\"smithy.api#Unit\"},"
    "\"output\":{\"target\":\"smithy.api#Unit\"}},"
    "\"smithy.example#MixinOperation\":{\"type\":\"operation\",\"input\":{\"target\":\"smithy.api#Unit\"},"
    "\"output\":{\"target\":\"smithy.api#Unit\"}},"
    "\"smithy.example#MixedError\":{\"type\":\"structure\","
    "\"members\":{\"message\":{\"target\":\"smithy.example#MixedRename\"}},"
    "\"traits\":{\"smithy.api#error\":\"server\"}},"
    "\"smithy.example#MixinError\":{\"type\":\"structure\","
    "\"members\":{\"message\":{\"target\":\"smithy.example#MixinRename\"},"
    "\"state\":{\"target\":\"smithy.example#OverriddenRename\"}},"
    "\"traits\":{\"smithy.api#error\":\"client\"}},"
    "\"smithy.example#MixedRename\":{\"type\":\"string\"},"
    "\"smithy.example#MixinRename\":{\"type\":\"string\"},"
    "\"smithy.example#OverriddenRename\":{\"type\":\"string\"}}}";

static const char s_service_mixins[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"smithy.example#MixedService\":{\"type\":\"service\","
    "\"mixins\":[{\"target\":\"smithy.example#MixinService\"}]},"
    "\"smithy.example#MixinService\":{\"type\":\"service\",\"version\":\"2021-12-31\","
    "\"operations\":[{\"target\":\"smithy.example#MixinOperation\"}],"
    "\"resources\":[{\"target\":\"smithy.example#MixinResource\"}],"
    "\"errors\":[{\"target\":\"smithy.example#MixinError\"}],"
    "\"rename\":{\"smithy.example#ShapeToRename\":\"RenamedShape\"},"
    "\"traits\":{\"smithy.api#internal\":{},\"smithy.api#mixin\":{}}},"
    "\"smithy.example#MixinResource\":{\"type\":\"resource\"},"
    "\"smithy.example#MixinOperation\":{\"type\":\"operation\",\"input\":{\"target\":\"smithy.api#Unit\"},"
    "\"output\":{\"target\":\"smithy.api#Unit\"}},"
    "\"smithy.example#MixinError\":{\"type\":\"structure\","
    "\"members\":{\"message\":{\"target\":\"smithy.example#ShapeToRename\"}},"
    "\"traits\":{\"smithy.api#error\":\"client\"}},"
    "\"smithy.example#ShapeToRename\":{\"type\":\"string\"}}}";

static const char s_service_shapes[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"ns.foo#EmptyService\":{\"type\":\"service\",\"version\":\"2020-02-18\"},"
    "\"ns.foo#MyService\":{\"type\":\"service\",\"version\":\"2020-02-18\","
    "\"operations\":[{\"target\":\"ns.foo#MyOperation\"}],"
    "\"resources\":[{\"target\":\"ns.foo#MyResource\"}]},"
    "\"ns.foo#EmptyResource\":{\"type\":\"resource\"},"
    "\"ns.foo#MyResource\":{\"type\":\"resource\","
    "\"identifiers\":{\"id\":{\"target\":\"smithy.api#String\"}},"
    "\"properties\":{\"value\":{\"target\":\"smithy.api#String\"},"
    "\"other\":{\"target\":\"smithy.api#String\"}},\"put\":{\"target\":\"ns.foo#ResourceOperation\"},"
    "\"create\":{\"target\":\"ns.foo#EmptyOperation\"},"
    "\"read\":{\"target\":\"ns.foo#ReadonlyResourceOperation\"},"
    "\"update\":{\"target\":\"ns.foo#ResourceOperation\"},"
    "\"delete\":{\"target\":\"ns.foo#ResourceOperation\"},"
    "\"list\":{\"target\":\"ns.foo#CollectionResourceOperation\"},"
    "\"operations\":[{\"target\":\"ns.foo#CollectionResourceOperation\"}],"
    "\"collectionOperations\":[{\"target\":\"ns.foo#CollectionResourceOperation\"}],"
    "\"resources\":[{\"target\":\"ns.foo#SubResource\"}]},"
    "\"ns.foo#SubResource\":{\"type\":\"resource\","
    "\"identifiers\":{\"id\":{\"target\":\"smithy.api#String\"}}},"
    "\"ns.foo#CollectionResourceOperation\":{\"type\":\"operation\","
    "\"input\":{\"target\":\"ns.foo#CollectionResourceOperationInput\"},"
    "\"output\":{\"target\":\"ns.foo#CollectionResourceOperationOutput\"},"
    "\"errors\":[{\"target\":\"ns.foo#Error\"}],\"traits\":{\"smithy.api#readonly\":{}}},"
    "\"ns.foo#CollectionResourceOperationInput\":{\"type\":\"structure\",\"members\":{},"
    "\"traits\":{\"smithy.api#input\":{}}},"
    "\"ns.foo#CollectionResourceOperationOutput\":{\"type\":\"structure\",\"members\":{},"
    "\"traits\":{\"smithy.api#output\":{}}},"
    "\"ns.foo#EmptyOperation\":{\"type\":\"operation\",\"input\":{\"target\":\"smithy.api#Unit\"},"
    "\"output\":{\"target\":\"smithy.api#Unit\"}},"
    "\"ns.foo#MyOperation\":{\"type\":\"operation\",\"input\":{\"target\":\"ns.foo#MyOperationInput\"},"
    "\"output\":{\"target\":\"ns.foo#MyOperationOutput\"},\"errors\":[{\"target\":\"ns.foo#Error\"}]},"
    "\"ns.foo#MyOperationInput\":{\"type\":\"structure\",\"members\":{},"
    "\"traits\":{\"smithy.api#input\":{}}},"
    "\"ns.foo#MyOperationOutput\":{\"type\":\"structure\",\"members\":{},"
    "\"traits\":{\"smithy.api#output\":{}}},"
    "\"ns.foo#ReadonlyResourceOperation\":{\"type\":\"operation\","
    "\"input\":{\"target\":\"ns.foo#ReadonlyResourceOperationInput\"},"
    "\"output\":{\"target\":\"smithy.api#Unit\"},\"traits\":{\"smithy.api#readonly\":{}}},"
    "\"ns.foo#ReadonlyResourceOperationInput\":{\"type\":\"structure\","
    "\"members\":{\"id\":{\"target\":\"smithy.api#String\",\"traits\":{\"smithy.api#required\":{}}}},"
    "\"traits\":{\"smithy.api#input\":{}}},"
    "\"ns.foo#ResourceOperation\":{\"type\":\"operation\","
    "\"input\":{\"target\":\"ns.foo#ResourceOperationInput\"},"
    "\"output\":{\"target\":\"ns.foo#ResourceOperationOutput\"},"
    "\"traits\":{\"smithy.api#idempotent\":{}}},"
    "\"ns.foo#ResourceOperationInput\":{\"type\":\"structure\","
    "\"members\":{\"id\":{\"target\":\"smithy.api#String\",\"traits\":{\"smithy.api#required\":{}}}},"
    "\"traits\":{\"smithy.api#input\":{}}},"
    "\"ns.foo#ResourceOperationOutput\":{\"type\":\"structure\","
    "\"members\":{\"value\":{\"target\":\"smithy.api#String\"},"
    "\"other\":{\"target\":\"smithy.api#String\"}},\"traits\":{\"smithy.api#output\":{}}},"
    "\"ns.foo#Error\":{\"type\":\"structure\",\"members\":{},"
    "\"traits\":{\"smithy.api#error\":\"client\"}}}}";

static const char s_simple_shapes[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"ns.foo#StructureWithMembers\":{\"type\":\"structure\","
    "\"members\":{\"a\":{\"target\":\"ns.foo#String\"},\"b\":{\"target\":\"ns.foo#String\"}}},"
    "\"ns.foo#StructureWithoutMembers\":{\"type\":\"structure\",\"members\":{}},"
    "\"ns.foo#Union\":{\"type\":\"union\",\"members\":{\"byte\":{\"target\":\"ns.foo#Byte\"},"
    "\"double\":{\"target\":\"ns.foo#Double\"}}},"
    "\"ns.foo#List\":{\"type\":\"list\",\"member\":{\"target\":\"ns.foo#String\"}},"
    "\"ns.foo#Map\":{\"type\":\"map\",\"key\":{\"target\":\"ns.foo#String\"},"
    "\"value\":{\"target\":\"ns.foo#String\"}},"
    "\"ns.foo#BigDecimal\":{\"type\":\"bigDecimal\"},"
    "\"ns.foo#BigInteger\":{\"type\":\"bigInteger\"},"
    "\"ns.foo#Blob\":{\"type\":\"blob\"},"
    "\"ns.foo#Boolean\":{\"type\":\"boolean\"},"
    "\"ns.foo#Byte\":{\"type\":\"byte\"},"
    "\"ns.foo#Document\":{\"type\":\"document\"},"
    "\"ns.foo#Double\":{\"type\":\"double\"},"
    "\"ns.foo#Float\":{\"type\":\"float\"},"
    "\"ns.foo#Integer\":{\"type\":\"integer\"},"
    "\"ns.foo#Long\":{\"type\":\"long\"},"
    "\"ns.foo#Short\":{\"type\":\"short\"},"
    "\"ns.foo#String\":{\"type\":\"string\"}}}";

static const char s_string_traits[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"ns.foo#StringTrait\":{\"type\":\"string\",\"traits\":{\"smithy.api#trait\":{}}},"
    "\"ns.foo#Foo\":{\"type\":\"string\",\"traits\":{\"ns.foo#StringTrait\":\"foo\"}}}}";

static const char s_trailing_space_in_docs[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"com.example#TestString\":{\"type\":\"string\","
    "\"traits\":{\"smithy.api#documentation\":\"This line has trailing spaces  \\nThis line does not have trailing spaces\\nThis line has one trailing space \\nAddresses https://github.com/smithy-lang/smithy/issues/2115\"}}}}";

static const char s_enum_mixin_input[] =
    "{\"smithy\":\"2.0\",\"shapes\":{"
    "\"ns.foo#IntMixin\":{\"type\":\"intEnum\",\"members\":{\"FOO\":{\"target\":\"smithy.api#Unit\","
    "\"traits\":{\"smithy.api#enumValue\":1}},\"BAR\":{\"target\":\"smithy.api#Unit\","
    "\"traits\":{\"smithy.api#enumValue\":2}}},\"traits\":{\"smithy.api#mixin\":{}}},"
    "\"ns.foo#IntEnum\":{\"type\":\"intEnum\",\"mixins\":[{\"target\":\"ns.foo#IntMixin\"}],"
    "\"members\":{}},"
    "\"ns.foo#StringMixin\":{\"type\":\"enum\",\"members\":{\"BAZ\":{\"target\":\"smithy.api#Unit\","
    "\"traits\":{\"smithy.api#enumValue\":\"baz\"}}},\"traits\":{\"smithy.api#mixin\":{}}},"
    "\"ns.foo#StringEnum\":{\"type\":\"enum\",\"mixins\":[{\"target\":\"ns.foo#StringMixin\"}],"
    "\"members\":{}},"
    "\"ns.foo#IntEnum$FOO\":{\"type\":\"apply\",\"traits\":{\"smithy.api#enumValue\":1}},"
    "\"ns.foo#IntEnum$BAR\":{\"type\":\"apply\",\"traits\":{\"smithy.api#enumValue\":2}},"
    "\"ns.foo#StringEnum$BAZ\":{\"type\":\"apply\",\"traits\":{\"smithy.api#enumValue\":\"baz\"}}}}";

TEST(idl_write_golden_boolean_traits) {
    s_golden(t, s_boolean_traits, "ns.foo", false, "cases/boolean-traits.smithy");
}

TEST(idl_write_golden_collection_traits) {
    s_golden(t, s_collection_traits, "ns.foo", false, "cases/collection-traits.smithy");
}

TEST(idl_write_golden_data_mixins) {
    s_golden(t, s_data_mixins, "smithy.example", false, "cases/data-mixins.smithy");
}

TEST(idl_write_golden_default_traits) {
    s_golden(t, s_default_traits, "ns.foo", false, "cases/default-traits.smithy");
}

TEST(idl_write_golden_document_traits) {
    s_golden(t, s_document_traits, "ns.foo", false, "cases/document-traits.smithy");
}

TEST(idl_write_golden_documentation_trait) {
    s_golden(t, s_documentation_trait, "ns.foo", false, "cases/documentation-trait.smithy");
}

TEST(idl_write_golden_enums) {
    s_golden(t, s_enums, "ns.foo", false, "cases/enums.smithy");
}

TEST(idl_write_golden_inline_io) {
    s_golden(t, s_inline_io, "com.example", false, "cases/inline-io.smithy");
}

TEST(idl_write_golden_metadata) {
    s_golden(t, s_metadata, "", true, "cases/metadata.smithy");
}

TEST(idl_write_golden_mixins) {
    s_golden(t, s_mixins, "smithy.example", false, "cases/mixins.smithy");
}

TEST(idl_write_golden_number_traits) {
    s_golden(t, s_number_traits, "ns.foo", false, "cases/number-traits.smithy");
}

TEST(idl_write_golden_object_traits) {
    s_golden(t, s_object_traits, "ns.foo", false, "cases/object-traits.smithy");
}

TEST(idl_write_golden_operation_mixins) {
    s_golden(t, s_operation_mixins, "smithy.example", false, "cases/operation-mixins.smithy");
}

TEST(idl_write_golden_optional_namespaces_are_stripped) {
    s_golden(t, s_optional_namespaces_are_stripped, "ns.foo", false, "cases/optional-namespaces-are-stripped.smithy");
}

TEST(idl_write_golden_resource_mixins) {
    s_golden(t, s_resource_mixins, "smithy.example", false, "cases/resource-mixins.smithy");
}

TEST(idl_write_golden_service_errors) {
    s_golden(t, s_service_errors, "ns.foo", false, "cases/service-errors.smithy");
}

TEST(idl_write_golden_service_mixins_with_merging) {
    s_golden(t, s_service_mixins_with_merging, "smithy.example", false, "cases/service-mixins-with-merging.smithy");
}

TEST(idl_write_golden_service_mixins) {
    s_golden(t, s_service_mixins, "smithy.example", false, "cases/service-mixins.smithy");
}

TEST(idl_write_golden_service_shapes) {
    s_golden(t, s_service_shapes, "ns.foo", false, "cases/service-shapes.smithy");
}

TEST(idl_write_golden_simple_shapes) {
    s_golden(t, s_simple_shapes, "ns.foo", false, "cases/simple-shapes.smithy");
}

TEST(idl_write_golden_string_traits) {
    s_golden(t, s_string_traits, "ns.foo", false, "cases/string-traits.smithy");
}

TEST(idl_write_golden_trailing_space_in_docs) {
    s_golden(t, s_trailing_space_in_docs, "com.example", false, "cases/trailing-space-in-docs.smithy");
}

TEST(idl_write_golden_enum_mixins) {
    s_golden(t, s_enum_mixin_input, "ns.foo", false, "enum-mixin-output.smithy");
}

/* Smithy's multi-namespace case: one file per namespace, metadata in its own file. */
TEST(idl_write_golden_multiple_namespaces) {
    static const char *const files[][3] = {{"ns.primitives", "0", "multiple-namespaces/output/ns.primitives.smithy"},
                                           {"ns.structures", "0", "multiple-namespaces/output/ns.structures.smithy"},
                                           {"", "1", "multiple-namespaces/output/metadata.smithy"}};
    size_t len = 0;
    char *json = s_read(t, S_GOLDEN "multiple-namespaces/input.json", &len);
    CHECK_ALLOC(json);
    for (size_t i = 0; i < 3; i++) {
        s_golden(t, json, files[i][0], files[i][1][0] == '1', files[i][2]);
    }
done:
    anvil_mem_release(t->alloc, json);
}

/* ---- rules the golden files do not show ---- */

TEST(idl_write_imports_and_shadowing) {
    /* Same namespace: relative. Other namespaces: a `use` unless the name is
     * taken (a local shape, a public prelude shape, an earlier `use`). The
     * prelude: relative unless a local shape has the name; private prelude
     * shapes are imported like any other. */
    s_expect(t, __LINE__,
             "{\"smithy\":\"2.0\",\"shapes\":{"
             "\"a.b#S\":{\"type\":\"structure\",\"members\":{"
             "\"one\":{\"target\":\"x.y#Thing\"},\"two\":{\"target\":\"z.w#Thing\"},"
             "\"three\":{\"target\":\"x.y#String\"},\"four\":{\"target\":\"smithy.api#String\"},"
             "\"five\":{\"target\":\"smithy.api#Integer\"},\"six\":{\"target\":\"smithy.api#NonEmptyString\"},"
             "\"seven\":{\"target\":\"x.y#Local\"},\"eight\":{\"target\":\"smithy.api#Unit\"}}},"
             "\"a.b#Integer\":{\"type\":\"integer\"},\"a.b#Local\":{\"type\":\"string\"},"
             "\"x.y#Thing\":{\"type\":\"string\"},\"z.w#Thing\":{\"type\":\"string\"},"
             "\"x.y#String\":{\"type\":\"string\"},\"x.y#Local\":{\"type\":\"string\"}}}",
             "a.b", false,
             "$version: \"2.0\"\n"
             "\n"
             "namespace a.b\n"
             "\n"
             "use smithy.api#NonEmptyString\n"
             "use x.y#Thing\n"
             "\n"
             "structure S {\n"
             "    one: Thing\n"
             "    two: z.w#Thing\n"
             "    three: x.y#String\n"
             "    four: String\n"
             "    five: smithy.api#Integer\n"
             "    six: NonEmptyString\n"
             "    seven: x.y#Local\n"
             "    eight: Unit\n"
             "}\n"
             "\n"
             "integer Integer\n"
             "\n"
             "string Local\n");
}

/* A local trait no shape defines keeps its name: another namespace's trait of that name is written absolute. */
TEST(idl_write_never_lets_a_use_take_a_local_name) {
    s_expect(t, __LINE__,
             "{\"smithy\":\"2.0\",\"shapes\":{\"ex#A\":{\"type\":\"string\",\"traits\":{\"ex#t\":{}}},"
             "\"ex#B\":{\"type\":\"string\",\"traits\":{\"other#t\":{}}}}}",
             "ex", false, "$version: \"2.0\"\n\nnamespace ex\n\n@t\nstring A\n\n@other#t\nstring B\n");
    /* The other way round: imported first, then the local id is written absolute. */
    s_expect(t, __LINE__,
             "{\"smithy\":\"2.0\",\"shapes\":{\"ex#A\":{\"type\":\"string\",\"traits\":{\"other#t\":{}}},"
             "\"ex#B\":{\"type\":\"string\",\"traits\":{\"ex#t\":{}}}}}",
             "ex", false, "$version: \"2.0\"\n\nnamespace ex\n\nuse other#t\n\n@t\nstring A\n\n@ex#t\nstring B\n");
}

/* An @input structure two operations use is inline only in the one it is named after. */
TEST(idl_write_inlines_io_only_into_its_own_operation) {
    s_expect(t, __LINE__,
             "{\"smithy\":\"2.0\",\"shapes\":{\"ex#Foo\":{\"type\":\"operation\",\"input\":{\"target\":"
             "\"ex#FooInput\"}},\"ex#Bar\":{\"type\":\"operation\",\"input\":{\"target\":\"ex#FooInput\"}},"
             "\"ex#FooInput\":{\"type\":\"structure\",\"members\":{},\"traits\":{\"smithy.api#input\":{}}}}}",
             "ex", false,
             "$version: \"2.0\"\n\nnamespace ex\n\noperation Bar {\n    input: FooInput\n    output: Unit\n}\n\n"
             "operation Foo {\n    input := {}\n    output: Unit\n}\n");
}

TEST(idl_write_escapes_strings_and_docs) {
    /* Strings: Java escapes on one line (no text blocks); `= value`: compact
     * JSON as Smithy prints it. Docs: `///` lines, trailing spaces kept, but
     * a CR (or another control) cannot survive a comment, so the trait. */
    s_expect(t, __LINE__,
             "{\"smithy\":\"2.0\",\"metadata\":{\"ok\":[true,null],\"a b\":\"x\",\"_\":1},\"shapes\":{"
             "\"e.x#Doc\":{\"type\":\"string\",\"traits\":{\"smithy.api#documentation\":\"a\\r\\nb\"}},"
             "\"e.x#Doc2\":{\"type\":\"string\",\"traits\":{\"smithy.api#documentation\":\"x  \\n\\n  y\"}},"
             "\"e.x#Str\":{\"type\":\"string\",\"traits\":{"
             "\"smithy.api#tags\":[\"\\\"\\\"\\\"\",\"\"],"
             "\"smithy.api#pattern\":\"q\\\"b\\\\ c\\u0001\\u007f\\u0085\\u2028\"}},"
             "\"e.x#S\":{\"type\":\"structure\",\"members\":{"
             "\"d\":{\"target\":\"smithy.api#String\",\"traits\":{\"smithy.api#default\":\"a\\u2028\\b\"}},"
             "\"e\":{\"target\":\"smithy.api#Document\",\"traits\":{"
             "\"smithy.api#default\":{\"k\":[1,2.5,null],\"q\\\"\":true}}}}},"
             "\"e.x#E\":{\"type\":\"enum\",\"members\":{"
             "\"A\":{\"target\":\"smithy.api#Unit\",\"traits\":{\"smithy.api#enumValue\":\"a\\\"b\"}},"
             "\"B\":{\"target\":\"smithy.api#Unit\"},"
             "\"C\":{\"target\":\"smithy.api#Unit\",\"traits\":{\"smithy.api#enumValue\":\"C\"}}}}}}",
             "e.x", true,
             "$version: \"2.0\"\n"
             "\n"
             "metadata \"_\" = 1\n"
             "metadata \"a b\" = \"x\"\n"
             "metadata ok = [\n"
             "    true\n"
             "    null\n"
             "]\n"
             "\n"
             "namespace e.x\n"
             "\n"
             "structure S {\n"
             "    d: String = \"a\\u2028\\u0008\"\n"
             "    e: Document = {\"k\":[1,2.5,null],\"q\\\"\":true}\n"
             "}\n"
             "\n"
             "@documentation(\"a\\r\\nb\")\n"
             "string Doc\n"
             "\n"
             "/// x  \n"
             "/// \n"
             "///   y\n"
             "string Doc2\n"
             "\n"
             "enum E {\n"
             "    A = \"a\\\"b\"\n"
             "    B\n"
             "    C\n"
             "}\n"
             "\n"
             "@pattern(\"q\\\"b\\\\ c\\u0001\\u007f\\u0085\xe2\x80\xa8"
             "\")\n"
             "@tags([\n"
             "    \"\\\"\\\"\\\"\"\n"
             "    \"\"\n"
             "])\n"
             "string Str\n");
}

TEST(idl_write_numbers_like_java) {
    /* Integers exactly; other numbers as Java's Double.toString writes them. */
    s_expect(t, __LINE__,
             "{\"smithy\":\"2.0\",\"shapes\":{\"e.x#N\":{\"type\":\"string\",\"traits\":{\"e.x#nums\":"
             "[0.0,-0.0,100.0,1234567.5,1e7,0.001,0.0001,1557128360.711,1e300,0.30000000000000004,12,-7,"
             "9007199254740993]}}}}",
             "e.x", false,
             "$version: \"2.0\"\n"
             "\n"
             "namespace e.x\n"
             "\n"
             "@nums([\n"
             "    0.0\n"
             "    -0.0\n"
             "    100.0\n"
             "    1234567.5\n"
             "    1.0E7\n"
             "    0.001\n"
             "    1.0E-4\n"
             "    1.557128360711E9\n"
             "    1.0E300\n"
             "    0.30000000000000004\n"
             "    12\n"
             "    -7\n"
             "    9007199254740993\n"
             "])\n"
             "string N\n");
}

TEST(idl_write_applies_sets_and_empty_values) {
    /* `apply` to a member the shape defines is merged into it; a set is a
     * list with @uniqueItems; `{}` for a document trait is not bare. */
    s_expect(t, __LINE__,
             "{\"smithy\":\"2.0\",\"shapes\":{"
             "\"e.x#A\":{\"type\":\"structure\",\"members\":{\"m\":{\"target\":\"smithy.api#String\","
             "\"traits\":{\"smithy.api#documentation\":\"doc\"}}}},"
             "\"e.x#A$m\":{\"type\":\"apply\",\"traits\":{\"smithy.api#required\":{}}},"
             "\"e.x#L\":{\"type\":\"set\",\"member\":{\"target\":\"smithy.api#String\"}},"
             "\"e.x#D\":{\"type\":\"document\",\"traits\":{\"smithy.api#trait\":{}}},"
             "\"e.x#U\":{\"type\":\"string\",\"traits\":{\"e.x#D\":{},\"smithy.api#default\":{},"
             "\"e.x#unknown\":{},\"smithy.api#sensitive\":{}}}}}",
             "e.x", false,
             "$version: \"2.0\"\n"
             "\n"
             "namespace e.x\n"
             "\n"
             "@trait\n"
             "document D\n"
             "\n"
             "structure A {\n"
             "    /// doc\n"
             "    @required\n"
             "    m: String\n"
             "}\n"
             "\n"
             "@uniqueItems\n"
             "list L {\n"
             "    member: String\n"
             "}\n"
             "\n"
             "@D({})\n"
             "@unknown\n"
             "@default({})\n"
             "@sensitive\n"
             "string U\n");
}

TEST(idl_write_shape_id_values) {
    /* A string whose shape (or member) has @idRef is written as a shape id
     * when it names a shape the model has (the prelude's and AWS trait shapes
     * anvil knows included), else quoted. `true` cannot be relative. */
    s_expect(t, __LINE__,
             "{\"smithy\":\"2.0\",\"shapes\":{"
             "\"e.x#ref\":{\"type\":\"string\",\"traits\":{\"smithy.api#trait\":{},\"smithy.api#idRef\":{}}},"
             "\"e.x#true\":{\"type\":\"string\"},"
             "\"e.x#A\":{\"type\":\"string\",\"traits\":{\"e.x#ref\":\"e.x#true\"}},"
             "\"e.x#B\":{\"type\":\"string\",\"traits\":{\"e.x#ref\":\"e.x#Missing\"}},"
             "\"e.x#C\":{\"type\":\"string\",\"traits\":{\"e.x#ref\":\"o.p#Other\"}},"
             "\"o.p#Other\":{\"type\":\"string\"},"
             "\"e.x#D\":{\"type\":\"service\",\"traits\":{\"smithy.api#auth\":[\"aws.auth#sigv4\"],"
             "\"aws.auth#sigv4\":{\"name\":\"x\"}}}}}",
             "e.x", false,
             "$version: \"2.0\"\n"
             "\n"
             "namespace e.x\n"
             "\n"
             "use aws.auth#sigv4\n"
             "use o.p#Other\n"
             "\n"
             "@idRef\n"
             "@trait\n"
             "string ref\n"
             "\n"
             "@sigv4(\n"
             "    name: \"x\"\n"
             ")\n"
             "@auth([\n"
             "    sigv4\n"
             "])\n"
             "service D {\n"
             "}\n"
             "\n"
             "@ref(e.x#true)\n"
             "string A\n"
             "\n"
             "@ref(\"e.x#Missing\")\n"
             "string B\n"
             "\n"
             "@ref(Other)\n"
             "string C\n"
             "\n"
             "string true\n");
}

TEST(idl_write_headers_without_shapes) {
    static const char json[] = "{\"smithy\":\"2.0\",\"metadata\":{\"k\":1},\"shapes\":{\"a#X\":{\"type\":\"string\"}}}";
    s_expect(t, __LINE__, json, "", false, "$version: \"2.0\"\n");
    s_expect(t, __LINE__, json, "", true, "$version: \"2.0\"\n\nmetadata k = 1\n");
    s_expect(t, __LINE__, json, "b", false, "$version: \"2.0\"\n\nnamespace b\n\n");
    s_expect(t, __LINE__, json, "a", true, "$version: \"2.0\"\n\nmetadata k = 1\n\nnamespace a\n\nstring X\n");
}

TEST(idl_write_rejects_what_is_not_a_model) {
    static const struct {
        const char *json;
        const char *message;
    } cases[] = {
        {"[]", "a JSON AST model must be an object, not array"},
        {"{\"shapes\":[]}", "the model's `shapes` must be an object"},
        {"{\"metadata\":1}", "the model's `metadata` must be an object"},
        {"{\"shapes\":{\"NoHash\":{\"type\":\"string\"}}}", "`NoHash` is not an absolute shape id (no `#`)"},
        {"{\"shapes\":{\"a..b#X\":{\"type\":\"string\"}}}", "shape id `a..b#X`: the namespace is not valid"},
        {"{\"shapes\":{\"a#Bad-Name\":{\"type\":\"string\"}}}",
         "shape id `a#Bad-Name`: `Bad-Name` is not a valid IDL identifier"},
        {"{\"shapes\":{\"a#_\":{\"type\":\"string\"}}}", "shape id `a#_`: `_` is not a valid IDL identifier"},
        {"{\"shapes\":{\"a#X\":1}}", "shape `a#X`: the definition must be an object"},
        {"{\"shapes\":{\"a#X\":{\"type\":\"strin\"}}}", "shape `a#X`: unknown type `strin`"},
        {"{\"shapes\":{\"a#X$m\":{\"type\":\"string\"}}}", "shape `a#X$m`: only `apply` entries may name a member"},
        {"{\"shapes\":{\"a#X$m\":{\"type\":\"apply\",\"traits\":{}}}}", "apply targets `a#X`, which is not defined"},
        {"{\"shapes\":{\"a#X\":{\"type\":\"string\"},\"a#X$m\":{\"type\":\"apply\"}}}",
         "apply `a#X$m`: `traits` must be an object"},
        {"{\"shapes\":{\"a#S\":{\"type\":\"structure\",\"members\":{\"bad name\":{\"target\":\"smithy.api#String\"}}}}}",
         "shape `a#S`: member name `bad name` is not a valid IDL identifier"},
        {"{\"shapes\":{\"a#E\":{\"type\":\"enum\",\"members\":{\"1A\":{\"target\":\"smithy.api#Unit\"}}}}}",
         "shape `a#E`: member name `1A` is not a valid IDL identifier"},
        {"{\"shapes\":{\"a#S\":{\"type\":\"structure\",\"members\":{\"m\":{\"target\":1}}}}}",
         "shape `a#S`: member m must be an object with a string `target`"},
        {"{\"shapes\":{\"a#S\":{\"type\":\"structure\",\"members\":{\"m\":{\"target\":\"String\"}}}}}",
         "shape `a#S`: member m targets `String`, which is not an absolute shape id"},
        {"{\"shapes\":{\"a#S\":{\"type\":\"structure\",\"members\":{\"m\":[]}}}}",
         "shape `a#S`: member `m` must be an object"},
        {"{\"shapes\":{\"a#S\":{\"type\":\"structure\",\"members\":[]}}}", "shape `a#S`: `members` must be an object"},
        {"{\"shapes\":{\"a#S\":{\"type\":\"string\",\"traits\":{\"required\":{}}}}}",
         "shape `a#S`: trait `required` is not an absolute shape id"},
        {"{\"shapes\":{\"a#S\":{\"type\":\"string\",\"traits\":[]}}}", "shape `a#S`: `traits` must be an object"},
        {"{\"shapes\":{\"a#S\":{\"type\":\"string\",\"mixins\":{}}}}", "shape `a#S`: `mixins` must be an array"},
        {"{\"shapes\":{\"a#S\":{\"type\":\"string\",\"mixins\":[\"a#T\"]}}}",
         "shape `a#S`: a mixin must be an object with a string `target`"},
        {"{\"shapes\":{\"a#O\":{\"type\":\"operation\",\"input\":\"a#I\"}}}",
         "shape `a#O`: input must be an object with a string `target`"},
        {"{\"shapes\":{\"a#O\":{\"type\":\"operation\",\"errors\":{}}}}", "shape `a#O`: `errors` must be an array"},
        {"{\"shapes\":{\"a#V\":{\"type\":\"service\",\"version\":1}}}", "shape `a#V`: `version` must be a string"},
        {"{\"shapes\":{\"a#V\":{\"type\":\"service\",\"rename\":{\"a#X\":1}}}}",
         "shape `a#V`: `rename` values must be strings"},
        {"{\"shapes\":{\"a#R\":{\"type\":\"resource\",\"identifiers\":[]}}}",
         "shape `a#R`: `identifiers` must be an object"},
        {"{\"shapes\":{\"a#R\":{\"type\":\"resource\",\"read\":{\"target\":\"a#X$y\"}}}}",
         "shape `a#R`: read targets `a#X$y`, which is not an absolute shape id"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        s_reject(t, __LINE__, cases[i].json, "a", ANVIL_EMODEL, cases[i].message);
    }
}

TEST(idl_write_checks_its_arguments) {
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    struct anvil_diag diag;
    struct anvil_json null_value = anvil_json_make_null();
    CHECK_STATUS(anvil__idl_write(NULL, ANVIL_SV("a"), NULL, &out, &diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil__idl_write(&null_value, ANVIL_SV("a"), NULL, NULL, &diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil__idl_write(&null_value, ANVIL_SV("a..b"), NULL, &out, &diag), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "`a..b` is not a namespace");
    CHECK_STATUS(anvil__idl_write(&null_value, ANVIL_SV("a"), NULL, &out, NULL), ANVIL_EMODEL);
    CHECK_EQ_U64(out.len, 0);
done:
    anvil_buf_clean_up(&out);
}

TEST(idl_write_stops_at_the_buffer_cap) {
    static const char json[] = "{\"smithy\":\"2.0\",\"shapes\":{\"a#X\":{\"type\":\"string\"},"
                               "\"a#Y\":{\"type\":\"string\",\"traits\":{\"smithy.api#documentation\":\"why\"}}}}";
    static const char want[] = "$version: \"2.0\"\n\nnamespace a\n\nstring X\n\n/// why\nstring Y\n";
    struct anvil_diag diag;
    struct anvil_buf out;
    /* Room for all but the last byte: ELIMIT, and `out` keeps what it had. */
    anvil_buf_init(&out, t->alloc, 3 + sizeof(want) - 2);
    CHECK_OK(anvil_buf_append_cstr(&out, "abc"));
    CHECK_STATUS(s_write(t, json, sizeof(json) - 1, "a", false, &out, &diag), ANVIL_ELIMIT);
    CHECK_STR_EQ(diag.message, "the IDL text reached the output buffer's size limit");
    CHECK(anvil_sv_eq_cstr(anvil_buf_view(&out), "abc"));
    anvil_buf_clean_up(&out);
    /* Exactly enough room. */
    anvil_buf_init(&out, t->alloc, 3 + sizeof(want) - 1);
    CHECK_OK(anvil_buf_append_cstr(&out, "abc"));
    CHECK_OK(s_write(t, json, sizeof(json) - 1, "a", false, &out, &diag));
    CHECK(anvil_sv_starts_with(anvil_buf_view(&out), ANVIL_SV("abc")));
    CHECK(anvil_sv_eq(anvil_sv_slice(anvil_buf_view(&out), 3, SIZE_MAX), anvil_sv(want, sizeof(want) - 1)));
done:
    anvil_buf_clean_up(&out);
}

TEST(idl_write_limits_nesting) {
    /* Only a hand-made value nests deeper than ANVIL_JSON_MAX_DEPTH. */
    struct anvil_arena *arena = NULL;
    struct anvil_json_builder *b = NULL;
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    struct anvil_json deep = anvil_json_make_null(), *items = NULL;
    for (size_t i = 0; i <= ANVIL_JSON_MAX_DEPTH; i++) {
        struct anvil_json inner = deep;
        CHECK_OK(anvil_json_new_array(arena, 1, &deep, &items));
        items[0] = inner;
    }
    CHECK_OK(anvil_json_builder_new(t->alloc, arena, &b));
    anvil_json_builder_begin_object(b);
    anvil_json_builder_key(b, "shapes", 6);
    anvil_json_builder_begin_object(b);
    anvil_json_builder_key(b, "a#X", 3);
    anvil_json_builder_begin_object(b);
    anvil_json_builder_key(b, "type", 4);
    anvil_json_builder_string(b, "string", 6);
    anvil_json_builder_key(b, "traits", 6);
    anvil_json_builder_begin_object(b);
    anvil_json_builder_key(b, "a#t", 3);
    anvil_json_builder_value(b, &deep);
    anvil_json_builder_end_object(b);
    anvil_json_builder_end_object(b);
    anvil_json_builder_end_object(b);
    anvil_json_builder_end_object(b);
    struct anvil_json ast;
    CHECK_OK(anvil_json_builder_finish(b, &ast));
    struct anvil_diag diag;
    CHECK_STATUS(anvil__idl_write(&ast, ANVIL_SV("a"), NULL, &out, &diag), ANVIL_ELIMIT);
    CHECK_STR_EQ(diag.message, "`a#t`: a value nests deeper than 10000 levels");
    CHECK_EQ_U64(out.len, 0);
done:
    anvil_json_builder_destroy(b);
    anvil_arena_destroy(arena);
    anvil_buf_clean_up(&out);
}

TEST(idl_write_lists_namespaces) {
    static const char json[] =
        "{\"shapes\":{\"b.x#A\":{\"type\":\"string\"},\"a#B\":{\"type\":\"string\"},"
        "\"b.x#C\":{\"type\":\"string\"},\"smithy.api#String\":{\"type\":\"string\"},"
        "\"c#D$m\":{\"type\":\"apply\",\"traits\":{}},\"e#F\":{\"type\":\"apply\",\"traits\":{}},"
        "\"bad key\":{\"type\":\"string\"},\"a#E\":{\"type\":\"string\"}}}";
    struct anvil_json_doc *doc = NULL;
    struct anvil_str_view ns[4];
    CHECK_OK(anvil_json_parse(t->alloc, json, sizeof(json) - 1, NULL, &doc, NULL));
    CHECK_EQ_U64(anvil__idl_namespaces(anvil_json_doc_root(doc), ns, 4), 2);
    CHECK(anvil_sv_eq_cstr(ns[0], "a") && anvil_sv_eq_cstr(ns[1], "b.x"));
    ns[1] = ANVIL_SV("untouched");
    CHECK_EQ_U64(anvil__idl_namespaces(anvil_json_doc_root(doc), ns, 1), 2);
    CHECK(anvil_sv_eq_cstr(ns[0], "a") && anvil_sv_eq_cstr(ns[1], "untouched"));
    CHECK_EQ_U64(anvil__idl_namespaces(anvil_json_doc_root(doc), NULL, 0), 2);
    struct anvil_json not_a_model = anvil_json_make_int(3);
    CHECK_EQ_U64(anvil__idl_namespaces(&not_a_model, ns, 4), 0);
    CHECK_EQ_U64(anvil__idl_namespaces(NULL, ns, 4), 0);
done:
    anvil_json_doc_destroy(doc);
}

TEST(idl_write_lists_many_namespaces) {
    /* More than one round of the allocation-free listing, given in reverse. */
    enum { COUNT = 150 };
    struct anvil_buf json;
    anvil_buf_init(&json, t->alloc, 0);
    struct anvil_json_doc *doc = NULL;
    struct anvil_str_view *ns = NULL;
    CHECK_OK(anvil_buf_append_cstr(&json, "{\"shapes\":{"));
    for (int i = COUNT - 1; i >= 0; i--) {
        CHECK_OK(anvil_buf_appendf(&json, "\"n%03d#A\":{\"type\":\"string\"},\"n%03d#B\":{\"type\":\"string\"}%s", i, i,
                                   i ? "," : "}}"));
    }
    CHECK_OK(anvil_json_parse(t->alloc, json.data, json.len, NULL, &doc, NULL));
    ns = anvil_mem_calloc(t->alloc, COUNT, sizeof(*ns));
    CHECK_ALLOC(ns);
    CHECK_EQ_U64(anvil__idl_namespaces(anvil_json_doc_root(doc), ns, COUNT), COUNT);
    for (int i = 0; i < COUNT; i++) {
        char want[8];
        snprintf(want, sizeof(want), "n%03d", i);
        CHECK(anvil_sv_eq_cstr(ns[i], want));
    }
done:
    anvil_mem_release(t->alloc, ns);
    anvil_json_doc_destroy(doc);
    anvil_buf_clean_up(&json);
}

TEST(idl_write_writes_an_aws_model) {
    /* A real model: AWS traits are imported, and writing is deterministic. */
    size_t len = 0;
    struct anvil_buf a, b;
    anvil_buf_init(&a, t->alloc, 0);
    anvil_buf_init(&b, t->alloc, 0);
    struct anvil_diag diag;
    char *json = s_read(t, ANVIL_TESTDATA_DIR "/smithy-models/aws/dsql-2018-05-10.json", &len);
    CHECK_ALLOC(json);
    CHECK_OK(s_write(t, json, len, "com.amazonaws.dsql", false, &a, &diag));
    CHECK_OK(s_write(t, json, len, "com.amazonaws.dsql", false, &b, &diag));
    CHECK(anvil_sv_eq(anvil_buf_view(&a), anvil_buf_view(&b)));
    CHECK(anvil_sv_starts_with(anvil_buf_view(&a),
                               ANVIL_SV("$version: \"2.0\"\n\nnamespace com.amazonaws.dsql\n\nuse aws.api#")));
    CHECK(strstr(a.data, "\nuse aws.auth#sigv4\n") != NULL);
    CHECK(strstr(a.data, "\n@sigv4(\n    name: \"dsql\"\n)\n") != NULL);
    CHECK(anvil_sv_ends_with(anvil_buf_view(&a), ANVIL_SV("\n")) &&
          !anvil_sv_ends_with(anvil_buf_view(&a), ANVIL_SV("\n\n")));
done:
    anvil_mem_release(t->alloc, json);
    anvil_buf_clean_up(&a);
    anvil_buf_clean_up(&b);
}
