/*
 * The 26 built-in functions of the JMESPath specification. Argument types
 * are checked by the caller from each function's parameter masks; the
 * functions check only what depends on values (sort keys, for example).
 * Strings are measured and reversed by code point; sorts are stable merge
 * sorts with exact numeric order.
 */

#include <math.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "jmespath/jmespath_internal.h"

#define ARGS struct jp_eval *ev, const struct jp_node *call, struct jp_arg *args, size_t count, struct anvil_json *out

static int s_new_string(struct jp_eval *ev, const char *bytes, size_t len, struct anvil_json *out) {
    return anvil__json_string_value(ev->arena, bytes, len, out) == ANVIL_OK ? ANVIL_OK : jp_nomem(ev);
}

/* ---- numbers ---- */

static struct anvil_json s_integral(double d) {
    /* Whole doubles within int64 become integers, as jmespath.py's ints do. */
    if (d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
        return anvil_json_make_int((int64_t)d);
    }
    return anvil_json_make_double(d);
}

static int s_abs(ARGS) {
    (void)ev, (void)call, (void)count;
    const struct anvil_json *v = &args[0].value;
    if (anvil_json_is_int(v)) {
        int64_t i = anvil_json_int(v);
        *out = i == INT64_MIN ? anvil_json_make_double(9223372036854775808.0) : anvil_json_make_int(i < 0 ? -i : i);
    } else {
        *out = anvil_json_make_double(fabs(anvil_json_double(v)));
    }
    return ANVIL_OK;
}

static int s_ceil(ARGS) {
    (void)ev, (void)call, (void)count;
    *out = anvil_json_is_int(&args[0].value) ? args[0].value : s_integral(ceil(anvil_json_double(&args[0].value)));
    return ANVIL_OK;
}

static int s_floor(ARGS) {
    (void)ev, (void)call, (void)count;
    *out = anvil_json_is_int(&args[0].value) ? args[0].value : s_integral(floor(anvil_json_double(&args[0].value)));
    return ANVIL_OK;
}

static void s_sum(const struct anvil_json *array, struct anvil_json *out) {
    int64_t isum = 0;
    bool exact = true;
    double dsum = 0;
    for (size_t i = 0; i < anvil_json_len(array); i++) {
        const struct anvil_json *v = &array->u.items[i];
        dsum += anvil_json_double(v);
        if (exact && (!anvil_json_is_int(v) || __builtin_add_overflow(isum, anvil_json_int(v), &isum))) {
            exact = false;
        }
    }
    *out = exact ? anvil_json_make_int(isum) : anvil_json_make_double(dsum);
}

static int s_sum_fn(ARGS) {
    (void)ev, (void)call, (void)count;
    s_sum(&args[0].value, out);
    return ANVIL_OK;
}

static int s_avg(ARGS) {
    (void)ev, (void)call, (void)count;
    size_t n = anvil_json_len(&args[0].value);
    if (n == 0) {
        *out = anvil_json_make_null();
        return ANVIL_OK;
    }
    struct anvil_json sum;
    s_sum(&args[0].value, &sum);
    *out = anvil_json_make_double(anvil_json_double(&sum) / (double)n);
    return ANVIL_OK;
}

/* ---- strings ---- */

static size_t s_code_points(struct anvil_str_view s) {
    size_t n = 0;
    for (size_t i = 0; i < s.len; i++) {
        n += ((unsigned char)s.ptr[i] & 0xC0) != 0x80;
    }
    return n;
}

static int s_length(ARGS) {
    (void)ev, (void)call, (void)count;
    const struct anvil_json *v = &args[0].value;
    size_t n = anvil_json_is_string(v) ? s_code_points(anvil_json_string(v)) : anvil_json_len(v);
    *out = anvil_json_make_int((int64_t)n);
    return ANVIL_OK;
}

static int s_starts_with(ARGS) {
    (void)ev, (void)call, (void)count;
    *out = anvil_json_make_bool(
        anvil_sv_starts_with(anvil_json_string(&args[0].value), anvil_json_string(&args[1].value)));
    return ANVIL_OK;
}

static int s_ends_with(ARGS) {
    (void)ev, (void)call, (void)count;
    *out =
        anvil_json_make_bool(anvil_sv_ends_with(anvil_json_string(&args[0].value), anvil_json_string(&args[1].value)));
    return ANVIL_OK;
}

static bool s_contains_bytes(struct anvil_str_view hay, struct anvil_str_view needle) {
    if (needle.len == 0) {
        return true;
    }
    for (size_t i = 0; i + needle.len <= hay.len; i++) {
        if (hay.ptr[i] == needle.ptr[0] && memcmp(hay.ptr + i, needle.ptr, needle.len) == 0) {
            return true;
        }
    }
    return false;
}

static int s_contains(ARGS) {
    (void)ev, (void)call, (void)count;
    const struct anvil_json *subject = &args[0].value, *search = &args[1].value;
    bool found = false;
    if (anvil_json_is_string(subject)) {
        /* A non-string search in a string is simply not there (docs/jmespath.md). */
        found = anvil_json_is_string(search) && s_contains_bytes(anvil_json_string(subject), anvil_json_string(search));
    } else {
        for (size_t i = 0; i < anvil_json_len(subject) && !found; i++) {
            found = anvil_json_equal(&subject->u.items[i], search);
        }
    }
    *out = anvil_json_make_bool(found);
    return ANVIL_OK;
}

static int s_join(ARGS) {
    (void)call, (void)count;
    struct anvil_str_view glue = anvil_json_string(&args[0].value);
    const struct anvil_json *items = &args[1].value;
    struct anvil_buf buf;
    anvil_buf_init(&buf, ev->scratch, 0);
    int rc = ANVIL_OK;
    for (size_t i = 0; i < anvil_json_len(items) && rc == ANVIL_OK; i++) {
        if (i > 0) {
            rc = anvil_buf_append_sv(&buf, glue);
        }
        if (rc == ANVIL_OK) {
            rc = anvil_buf_append_sv(&buf, anvil_json_string(&items->u.items[i]));
        }
    }
    if (rc == ANVIL_OK) {
        rc = s_new_string(ev, buf.data ? buf.data : "", buf.len, out);
    } else {
        rc = rc == ANVIL_ELIMIT ? jp_error(ev, ANVIL_ELIMIT, call, "join() result is too long") : jp_nomem(ev);
    }
    anvil_buf_clean_up(&buf);
    return rc;
}

static int s_reverse(ARGS) {
    (void)call, (void)count;
    const struct anvil_json *v = &args[0].value;
    if (anvil_json_is_array(v)) {
        size_t mark = ev->stack_len;
        for (size_t i = anvil_json_len(v); i > 0; i--) {
            if (jp_push(ev, v->u.items[i - 1]) != ANVIL_OK) {
                return ANVIL_ENOMEM;
            }
        }
        return jp_pop_array(ev, mark, out);
    }
    /* Strings: reverse the code points, keeping each one's bytes in order. */
    struct anvil_str_view s = anvil_json_string(v);
    char *reversed = anvil_arena_alloc(ev->arena, s.len + 1, 1);
    if (!reversed) {
        return jp_nomem(ev);
    }
    size_t w = s.len;
    for (size_t i = 0; i < s.len;) {
        size_t n = 1;
        while (i + n < s.len && ((unsigned char)s.ptr[i + n] & 0xC0) == 0x80) {
            n++;
        }
        w -= n;
        memcpy(reversed + w, s.ptr + i, n);
        i += n;
    }
    reversed[s.len] = '\0';
    return s_new_string(ev, reversed, s.len, out);
}

/* ---- conversions and types ---- */

static int s_type(ARGS) {
    (void)call, (void)count;
    const char *name = anvil_json_type_name(anvil_json_type(&args[0].value));
    return s_new_string(ev, name, strlen(name), out);
}

static int s_to_string(ARGS) {
    (void)count;
    if (anvil_json_is_string(&args[0].value)) {
        *out = args[0].value;
        return ANVIL_OK;
    }
    struct anvil_buf buf;
    anvil_buf_init(&buf, ev->scratch, 0);
    int rc = anvil_json_write(&args[0].value, ANVIL_JSON_WRITE_COMPACT, &buf);
    if (rc == ANVIL_OK) {
        rc = s_new_string(ev, buf.data, buf.len, out);
    } else {
        rc = rc == ANVIL_ENOMEM ? jp_nomem(ev) : jp_error(ev, rc, call, "to_string(): %s", anvil_status_str(rc));
    }
    anvil_buf_clean_up(&buf);
    return rc;
}

/* Exactly the JSON number grammar: no spaces, '+', hex, inf, nan, '.5' or '5.'. */
static bool s_json_number_text(struct anvil_str_view s) {
    size_t i = 0;
    if (i < s.len && s.ptr[i] == '-') {
        i++;
    }
    if (i >= s.len) {
        return false;
    }
    if (s.ptr[i] == '0') {
        i++;
    } else if (s.ptr[i] >= '1' && s.ptr[i] <= '9') {
        while (i < s.len && s.ptr[i] >= '0' && s.ptr[i] <= '9') {
            i++;
        }
    } else {
        return false;
    }
    if (i < s.len && s.ptr[i] == '.') {
        size_t digits = ++i;
        while (i < s.len && s.ptr[i] >= '0' && s.ptr[i] <= '9') {
            i++;
        }
        if (i == digits) {
            return false;
        }
    }
    if (i < s.len && (s.ptr[i] == 'e' || s.ptr[i] == 'E')) {
        i++;
        if (i < s.len && (s.ptr[i] == '+' || s.ptr[i] == '-')) {
            i++;
        }
        size_t digits = i;
        while (i < s.len && s.ptr[i] >= '0' && s.ptr[i] <= '9') {
            i++;
        }
        if (i == digits) {
            return false;
        }
    }
    return i == s.len;
}

static int s_to_number(ARGS) {
    (void)call, (void)count;
    const struct anvil_json *v = &args[0].value;
    *out = anvil_json_make_null();
    if (anvil_json_is_number(v)) {
        *out = *v;
    } else if (anvil_json_is_string(v) && s_json_number_text(anvil_json_string(v))) {
        struct anvil_json n;
        struct anvil_str_view s = anvil_json_string(v);
        /* Beyond the double range ('1e400') is not a number JMESPath can hold: null. */
        int rc = anvil_json_parse_into(ev->arena, ev->scratch, s.ptr, s.len, NULL, &n, NULL);
        if (rc == ANVIL_OK) {
            *out = n;
        } else if (rc == ANVIL_ENOMEM) {
            return jp_nomem(ev);
        }
    }
    return ANVIL_OK;
}

static int s_to_array(ARGS) {
    (void)call, (void)count;
    if (anvil_json_is_array(&args[0].value)) {
        *out = args[0].value;
        return ANVIL_OK;
    }
    size_t mark = ev->stack_len;
    if (jp_push(ev, args[0].value) != ANVIL_OK) {
        return ANVIL_ENOMEM;
    }
    return jp_pop_array(ev, mark, out);
}

static int s_not_null(ARGS) {
    (void)ev, (void)call;
    *out = anvil_json_make_null();
    for (size_t i = 0; i < count; i++) {
        if (!anvil_json_is_null(&args[i].value)) {
            *out = args[i].value;
            break;
        }
    }
    return ANVIL_OK;
}

/* ---- objects ---- */

static int s_keys(ARGS) {
    (void)call, (void)count;
    const struct anvil_json *o = &args[0].value;
    size_t mark = ev->stack_len;
    for (size_t i = 0; i < anvil_json_len(o); i++) {
        const struct anvil_json_key *k = o->u.members[i].key;
        if (jp_push(ev, anvil__json_borrowed_string(k->bytes, k->len)) != ANVIL_OK) {
            return ANVIL_ENOMEM;
        }
    }
    return jp_pop_array(ev, mark, out);
}

static int s_values(ARGS) {
    (void)call, (void)count;
    const struct anvil_json *o = &args[0].value;
    size_t mark = ev->stack_len;
    for (size_t i = 0; i < anvil_json_len(o); i++) {
        if (jp_push(ev, o->u.members[i].value) != ANVIL_OK) {
            return ANVIL_ENOMEM;
        }
    }
    return jp_pop_array(ev, mark, out);
}

static int s_merge(ARGS) {
    (void)call;
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        total += anvil_json_len(&args[i].value);
    }
    struct anvil_json_member *members = anvil_mem_acquire(ev->scratch, (total ? total : 1) * sizeof(*members));
    if (!members) {
        return jp_nomem(ev);
    }
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        const struct anvil_json *o = &args[i].value;
        if (anvil_json_len(o)) {
            memcpy(members + n, o->u.members, anvil_json_len(o) * sizeof(*members));
            n += anvil_json_len(o);
        }
    }
    size_t unused;
    /* Later objects win, in the position where the key first appeared. */
    int rc = anvil__json_object_finish(ev->arena, n ? members : NULL, n, false, &unused, out);
    anvil_mem_release(ev->scratch, members);
    return rc == ANVIL_OK ? ANVIL_OK : jp_nomem(ev);
}

/* ---- ordering ---- */

struct s_keyed {
    struct anvil_json key;
    struct anvil_json value;
};

/* Stable merge sort by key (exact numeric order, or UTF-8 byte = code point order). */
static void s_merge_sort(struct s_keyed *items, struct s_keyed *tmp, size_t n) {
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                /* <= keeps equal keys in their original order. */
                tmp[k++] = anvil_json_compare(&items[i].key, &items[j].key) <= 0 ? items[i++] : items[j++];
            }
            while (i < mid) {
                tmp[k++] = items[i++];
            }
            while (j < hi) {
                tmp[k++] = items[j++];
            }
        }
        memcpy(items, tmp, n * sizeof(*items));
    }
}

/*
 * Pairs each item of `array` with its key (the item itself, or `expref`
 * applied to it) and checks the keys are all numbers or all strings.
 */
static int s_keyed(struct jp_eval *ev, const struct jp_node *call, const struct anvil_json *array,
                   const struct jp_node *expref, struct s_keyed **out) {
    size_t n = anvil_json_len(array);
    struct s_keyed *items = anvil_mem_acquire(ev->scratch, (n ? n : 1) * 2 * sizeof(*items));
    if (!items) {
        return jp_nomem(ev);
    }
    for (size_t i = 0; i < n; i++) {
        items[i].value = array->u.items[i];
        if (!expref) {
            items[i].key = items[i].value;
        } else {
            int rc = jp_eval_node(ev, expref, &items[i].value, &items[i].key);
            if (rc != ANVIL_OK) {
                anvil_mem_release(ev->scratch, items);
                return rc;
            }
        }
        enum anvil_json_type t = anvil_json_type(&items[i].key);
        if ((t != ANVIL_JSON_NUMBER && t != ANVIL_JSON_STRING) || (i > 0 && t != anvil_json_type(&items[0].key))) {
            anvil_mem_release(ev->scratch, items);
            return jp_error(ev, ANVIL_ETYPE, call, "%s() needs keys that are all numbers or all strings",
                            call->function->name);
        }
    }
    *out = items;
    return ANVIL_OK;
}

static int s_sort_common(struct jp_eval *ev, const struct jp_node *call, const struct anvil_json *array,
                         const struct jp_node *expref, struct anvil_json *out) {
    struct s_keyed *items;
    int rc = s_keyed(ev, call, array, expref, &items);
    if (rc != ANVIL_OK) {
        return rc;
    }
    size_t n = anvil_json_len(array);
    s_merge_sort(items, items + n, n);
    size_t mark = ev->stack_len;
    for (size_t i = 0; i < n && rc == ANVIL_OK; i++) {
        rc = jp_push(ev, items[i].value);
    }
    anvil_mem_release(ev->scratch, items);
    return rc == ANVIL_OK ? jp_pop_array(ev, mark, out) : rc;
}

static int s_sort(ARGS) {
    (void)count;
    return s_sort_common(ev, call, &args[0].value, NULL, out);
}

static int s_sort_by(ARGS) {
    (void)count;
    return s_sort_common(ev, call, &args[0].value, args[1].expref, out);
}

/* The first item with the greatest (`sign` 1) or least (-1) key; null for []. */
static int s_extreme(struct jp_eval *ev, const struct jp_node *call, const struct anvil_json *array,
                     const struct jp_node *expref, int sign, struct anvil_json *out) {
    struct s_keyed *items;
    int rc = s_keyed(ev, call, array, expref, &items);
    if (rc != ANVIL_OK) {
        return rc;
    }
    size_t n = anvil_json_len(array);
    size_t best = 0;
    for (size_t i = 1; i < n; i++) {
        if (anvil_json_compare(&items[i].key, &items[best].key) * sign > 0) {
            best = i;
        }
    }
    *out = n ? items[best].value : anvil_json_make_null();
    anvil_mem_release(ev->scratch, items);
    return ANVIL_OK;
}

static int s_max(ARGS) {
    (void)count;
    return s_extreme(ev, call, &args[0].value, NULL, 1, out);
}

static int s_min(ARGS) {
    (void)count;
    return s_extreme(ev, call, &args[0].value, NULL, -1, out);
}

static int s_max_by(ARGS) {
    (void)count;
    return s_extreme(ev, call, &args[0].value, args[1].expref, 1, out);
}

static int s_min_by(ARGS) {
    (void)count;
    return s_extreme(ev, call, &args[0].value, args[1].expref, -1, out);
}

static int s_map(ARGS) {
    (void)call, (void)count;
    const struct anvil_json *array = &args[1].value;
    size_t mark = ev->stack_len;
    for (size_t i = 0; i < anvil_json_len(array); i++) {
        struct anvil_json r;
        int rc = jp_eval_node(ev, args[0].expref, &array->u.items[i], &r);
        if (rc != ANVIL_OK) {
            ev->stack_len = mark;
            return rc;
        }
        if ((rc = jp_push(ev, r)) != ANVIL_OK) {
            return rc;
        }
    }
    return jp_pop_array(ev, mark, out);
}

/* ---- the table ---- */

#define NUMBERS_OR_STRINGS (JP_T_ARRAY_NUMBER | JP_T_ARRAY_STRING)

static const struct jp_function s_functions[] = {
    {"abs", 1, 1, {JP_T_NUMBER}, s_abs},
    {"avg", 1, 1, {JP_T_ARRAY_NUMBER}, s_avg},
    {"ceil", 1, 1, {JP_T_NUMBER}, s_ceil},
    {"contains", 2, 2, {JP_T_ARRAY | JP_T_STRING, JP_T_ANY}, s_contains},
    {"ends_with", 2, 2, {JP_T_STRING, JP_T_STRING}, s_ends_with},
    {"floor", 1, 1, {JP_T_NUMBER}, s_floor},
    {"join", 2, 2, {JP_T_STRING, JP_T_ARRAY_STRING}, s_join},
    {"keys", 1, 1, {JP_T_OBJECT}, s_keys},
    {"length", 1, 1, {JP_T_STRING | JP_T_ARRAY | JP_T_OBJECT}, s_length},
    {"map", 2, 2, {JP_T_EXPREF, JP_T_ARRAY}, s_map},
    {"max", 1, 1, {NUMBERS_OR_STRINGS}, s_max},
    {"max_by", 2, 2, {JP_T_ARRAY, JP_T_EXPREF}, s_max_by},
    {"merge", 1, SIZE_MAX, {JP_T_OBJECT, JP_T_OBJECT, JP_T_OBJECT}, s_merge},
    {"min", 1, 1, {NUMBERS_OR_STRINGS}, s_min},
    {"min_by", 2, 2, {JP_T_ARRAY, JP_T_EXPREF}, s_min_by},
    {"not_null", 1, SIZE_MAX, {JP_T_ANY, JP_T_ANY, JP_T_ANY}, s_not_null},
    {"reverse", 1, 1, {JP_T_STRING | JP_T_ARRAY}, s_reverse},
    {"sort", 1, 1, {NUMBERS_OR_STRINGS}, s_sort},
    {"sort_by", 2, 2, {JP_T_ARRAY, JP_T_EXPREF}, s_sort_by},
    {"starts_with", 2, 2, {JP_T_STRING, JP_T_STRING}, s_starts_with},
    {"sum", 1, 1, {JP_T_ARRAY_NUMBER}, s_sum_fn},
    {"to_array", 1, 1, {JP_T_ANY}, s_to_array},
    {"to_number", 1, 1, {JP_T_ANY}, s_to_number},
    {"to_string", 1, 1, {JP_T_ANY}, s_to_string},
    {"type", 1, 1, {JP_T_ANY}, s_type},
    {"values", 1, 1, {JP_T_OBJECT}, s_values},
};

const struct jp_function *jp_function_find(const char *name, size_t len) {
    for (size_t i = 0; i < sizeof(s_functions) / sizeof(s_functions[0]); i++) {
        if (strlen(s_functions[i].name) == len && memcmp(s_functions[i].name, name, len) == 0) {
            return &s_functions[i];
        }
    }
    return NULL;
}
