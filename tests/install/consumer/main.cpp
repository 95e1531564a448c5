// A C++ consumer of the installed headers, built with -std=c++11 -pedantic -Werror: the headers are
// valid C++ (no flexible array members, no compound literals), and their inline functions work there.
#include <anvil/anvil.h>

#include <cstdio>
#include <cstring>

int main() {
    const char text[] = "{\"TableName\": \"orders\", \"ItemCount\": 42}";
    anvil_json_doc *doc = nullptr;
    if (anvil_json_parse(nullptr, text, sizeof text - 1, nullptr, &doc, nullptr) != ANVIL_OK) {
        std::puts("C++ consumer: parse failed");
        return 1;
    }
    const anvil_json *root = anvil_json_doc_root(doc);
    anvil_str_view key = anvil_json_member_key(anvil_json_object_at(root, 0));
    const anvil_json *count = anvil_json_object_get_cstr(root, "ItemCount");
    bool ok = key.len == 9 && std::memcmp(key.ptr, "TableName", 9) == 0 && key.ptr[9] == '\0' &&
              anvil_json_is_int(count) && anvil_json_int(count) == 42;
    // The static initialisers and the object constructor.
    static const anvil_json answer = ANVIL_JSON_INT_INIT(42);
    anvil_arena *arena = nullptr;
    anvil_json made;
    anvil_json_pair pairs[] = {{anvil_sv("ItemCount", 9), answer}, {anvil_sv("TableName", 9), ANVIL_JSON_NULL_INIT}};
    pairs[1].value = *anvil_json_object_get_cstr(root, "TableName");
    ok = ok && anvil_arena_new(nullptr, nullptr, &arena) == ANVIL_OK &&
         anvil_json_new_object(arena, pairs, 2, &made) == ANVIL_OK && anvil_json_equal(&made, root);
    anvil_arena_destroy(arena);
    anvil_json_doc_destroy(doc);
    std::printf("C++ consumer: anvil %s, %s\n", anvil_version_string(), ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
