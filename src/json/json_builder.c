/* The event-driven builder: begin/end containers, keys and scalars. */

#include <math.h>

#include "anvil/status.h"
#include "json/json_internal.h"

struct s_frame {
    size_t start; /* first slot of this container */
    bool object;
    bool have_key; /* object: a key waits for its value */
};

struct anvil_json_builder {
    struct anvil_allocator *allocator;
    struct anvil_arena *arena;
    /* Finished values of open containers; for objects, with their keys. */
    struct anvil_json_member *slots;
    size_t slot_len, slot_cap;
    struct s_frame *frames;
    size_t depth, frame_cap;
    const struct anvil_json_key *pending_key;
    struct anvil_json result;
    bool have_result;
    int error;
};

int anvil_json_builder_new(struct anvil_allocator *allocator, struct anvil_arena *arena,
                           struct anvil_json_builder **out) {
    if (!arena || !out) {
        return ANVIL_EINVAL;
    }
    struct anvil_json_builder *b = anvil_mem_calloc(allocator, 1, sizeof(*b));
    if (!b) {
        *out = NULL;
        return ANVIL_ENOMEM;
    }
    b->allocator = allocator;
    b->arena = arena;
    *out = b;
    return ANVIL_OK;
}

void anvil_json_builder_destroy(struct anvil_json_builder *b) {
    if (b) {
        anvil_mem_release(b->allocator, b->slots);
        anvil_mem_release(b->allocator, b->frames);
        anvil_mem_release(b->allocator, b);
    }
}

static int s_fail(struct anvil_json_builder *b, int rc) {
    if (rc == ANVIL_ENOMEM && anvil_arena_exhausted(b->arena)) {
        rc = ANVIL_ELIMIT;
    }
    b->error = rc;
    return rc;
}

static int s_grow(struct anvil_json_builder *b, void **array, size_t *cap, size_t elem) {
    return anvil__mem_grow(b->allocator, array, cap, elem, *cap + 1);
}

/* Delivers a finished value to the open container, or makes it the result. */
static int s_add(struct anvil_json_builder *b, struct anvil_json v) {
    if (b->error) {
        return b->error;
    }
    if (b->depth == 0) {
        if (b->have_result) {
            return s_fail(b, ANVIL_EINVAL); /* a second top-level value */
        }
        b->result = v;
        b->have_result = true;
        return ANVIL_OK;
    }
    struct s_frame *f = &b->frames[b->depth - 1];
    if (f->object && !f->have_key) {
        return s_fail(b, ANVIL_EINVAL); /* a value in an object needs a key first */
    }
    if (b->slot_len == b->slot_cap) {
        int rc = s_grow(b, (void **)&b->slots, &b->slot_cap, sizeof(*b->slots));
        if (rc != ANVIL_OK) {
            return s_fail(b, rc);
        }
    }
    b->slots[b->slot_len].key = f->object ? b->pending_key : NULL;
    b->slots[b->slot_len].value = v;
    b->slot_len++;
    f->have_key = false;
    return ANVIL_OK;
}

static int s_begin(struct anvil_json_builder *b, bool object) {
    if (b->error) {
        return b->error;
    }
    if (b->depth == 0 && b->have_result) {
        return s_fail(b, ANVIL_EINVAL);
    }
    if (b->depth > 0 && b->frames[b->depth - 1].object && !b->frames[b->depth - 1].have_key) {
        return s_fail(b, ANVIL_EINVAL);
    }
    if (b->depth >= ANVIL_JSON_MAX_DEPTH) {
        return s_fail(b, ANVIL_ELIMIT);
    }
    if (b->depth == b->frame_cap) {
        int rc = s_grow(b, (void **)&b->frames, &b->frame_cap, sizeof(*b->frames));
        if (rc != ANVIL_OK) {
            return s_fail(b, rc);
        }
    }
    /* The parent's pending key is kept in the slot pushed when this container ends. */
    if (b->depth > 0 && b->frames[b->depth - 1].object) {
        if (b->slot_len == b->slot_cap) {
            int rc = s_grow(b, (void **)&b->slots, &b->slot_cap, sizeof(*b->slots));
            if (rc != ANVIL_OK) {
                return s_fail(b, rc);
            }
        }
        b->slots[b->slot_len].key = b->pending_key;
        b->slots[b->slot_len].value = anvil_json_make_null();
        b->slot_len++;
        b->frames[b->depth - 1].have_key = false;
    }
    b->frames[b->depth].start = b->slot_len;
    b->frames[b->depth].object = object;
    b->frames[b->depth].have_key = false;
    b->depth++;
    return ANVIL_OK;
}

static int s_end(struct anvil_json_builder *b, bool object) {
    if (b->error) {
        return b->error;
    }
    if (b->depth == 0 || b->frames[b->depth - 1].object != object || b->frames[b->depth - 1].have_key) {
        return s_fail(b, ANVIL_EINVAL);
    }
    struct s_frame *f = &b->frames[b->depth - 1];
    size_t count = b->slot_len - f->start;
    struct anvil_json v;
    int rc;
    if (object) {
        size_t unused;
        rc = anvil__json_object_finish(b->arena, count ? b->slots + f->start : NULL, count, false, &unused, &v);
    } else {
        struct anvil_json *items;
        rc = anvil_json_new_array(b->arena, count, &v, &items);
        for (size_t i = 0; rc == ANVIL_OK && i < count; i++) {
            items[i] = b->slots[f->start + i].value;
        }
    }
    if (rc != ANVIL_OK) {
        return s_fail(b, rc);
    }
    b->slot_len = f->start;
    b->depth--;
    if (b->depth > 0 && b->frames[b->depth - 1].object) {
        b->slots[b->slot_len - 1].value = v; /* the slot s_begin reserved, with its key */
        return ANVIL_OK;
    }
    return s_add(b, v);
}

int anvil_json_builder_begin_array(struct anvil_json_builder *b) {
    return s_begin(b, false);
}

int anvil_json_builder_end_array(struct anvil_json_builder *b) {
    return s_end(b, false);
}

int anvil_json_builder_begin_object(struct anvil_json_builder *b) {
    return s_begin(b, true);
}

int anvil_json_builder_end_object(struct anvil_json_builder *b) {
    return s_end(b, true);
}

int anvil_json_builder_key(struct anvil_json_builder *b, const char *key, size_t len) {
    if (b->error) {
        return b->error;
    }
    if (b->depth == 0 || !b->frames[b->depth - 1].object || b->frames[b->depth - 1].have_key || (len > 0 && !key)) {
        return s_fail(b, ANVIL_EINVAL);
    }
    if (len > UINT32_MAX - 1) {
        return s_fail(b, ANVIL_ELIMIT);
    }
    if (!anvil__utf8_valid(key, len)) {
        return s_fail(b, ANVIL_EVALUE);
    }
    b->pending_key = anvil__json_key_new(b->arena, key, len, anvil_json_hash(key, len));
    if (!b->pending_key) {
        return s_fail(b, ANVIL_ENOMEM);
    }
    b->frames[b->depth - 1].have_key = true;
    return ANVIL_OK;
}

int anvil_json_builder_null(struct anvil_json_builder *b) {
    return s_add(b, anvil_json_make_null());
}

int anvil_json_builder_bool(struct anvil_json_builder *b, bool value) {
    return s_add(b, anvil_json_make_bool(value));
}

int anvil_json_builder_int(struct anvil_json_builder *b, int64_t value) {
    return s_add(b, anvil_json_make_int(value));
}

int anvil_json_builder_double(struct anvil_json_builder *b, double value) {
    if (b->error) {
        return b->error;
    }
    if (!isfinite(value)) {
        return s_fail(b, ANVIL_EVALUE);
    }
    return s_add(b, anvil_json_make_double(value));
}

int anvil_json_builder_string(struct anvil_json_builder *b, const char *s, size_t len) {
    if (b->error) {
        return b->error;
    }
    struct anvil_json v;
    int rc = anvil_json_new_string(b->arena, s, len, &v);
    if (rc != ANVIL_OK) {
        return s_fail(b, rc);
    }
    return s_add(b, v);
}

int anvil_json_builder_value(struct anvil_json_builder *b, const struct anvil_json *v) {
    if (!v) {
        return s_fail(b, ANVIL_EINVAL);
    }
    return s_add(b, *v);
}

int anvil_json_builder_finish(struct anvil_json_builder *b, struct anvil_json *out) {
    if (b->error) {
        return b->error;
    }
    if (b->depth != 0 || !b->have_result) {
        return ANVIL_EINVAL;
    }
    *out = b->result;
    return ANVIL_OK;
}
