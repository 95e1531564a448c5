// The C++ JSON parsers bench_json measures anvil against (simdjson 3, RapidJSON 1.1), behind C
// functions with bench_json.c's parser signature. Built only for the benchmark; never linked into
// anvil. Each parses, checks that the root is an object and frees (the reused simdjson parser keeps
// its buffers, as a program that parses many documents would). Returns 0 on success.
#include <rapidjson/document.h>
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" {
int bench_simdjson_dom_reused(const char *text, size_t len, bool count);
int bench_simdjson_dom_new(const char *text, size_t len, bool count);
int bench_rapidjson_parse(const char *text, size_t len, bool count);
int bench_rapidjson_insitu(const char *text, size_t len, bool count);
size_t bench_simdjson_padding(void);
}

// The caller's buffer has simdjson::SIMDJSON_PADDING readable bytes after the text, so simdjson
// never copies it.
size_t bench_simdjson_padding(void) {
    return simdjson::SIMDJSON_PADDING;
}

static int s_simdjson(simdjson::dom::parser &parser, const char *text, size_t len) {
    simdjson::dom::element root;
    auto error = parser.parse(reinterpret_cast<const uint8_t *>(text), len, false).get(root);
    return error || !root.is_object();
}

int bench_simdjson_dom_reused(const char *text, size_t len, bool) {
    static simdjson::dom::parser parser;
    return s_simdjson(parser, text, len);
}

int bench_simdjson_dom_new(const char *text, size_t len, bool) {
    simdjson::dom::parser parser;
    return s_simdjson(parser, text, len);
}

int bench_rapidjson_parse(const char *text, size_t len, bool) {
    rapidjson::Document d;
    d.Parse(text, len);
    return d.HasParseError() || !d.IsObject();
}

// In situ needs a writable, NUL-terminated copy: the copy is part of what is timed.
int bench_rapidjson_insitu(const char *text, size_t len, bool) {
    std::vector<char> copy(text, text + len);
    copy.push_back('\0');
    rapidjson::Document d;
    d.ParseInsitu(copy.data());
    return d.HasParseError() || !d.IsObject();
}
