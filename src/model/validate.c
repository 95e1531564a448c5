/* Validation events: collecting, sorting, printing; and the `Target` rule. */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "anvil/status.h"
#include "anvil/text.h"
#include "core/core_internal.h"
#include "model/validate_internal.h"

void anvil__event_add(struct anvil_events *events, enum anvil_severity severity, struct anvil_str_view shape_id,
                      const char *event_id, const char *fmt, ...) {
    if (events->error) {
        return;
    }
    if (anvil__mem_grow(events->allocator, (void **)&events->items, &events->cap, sizeof(*events->items),
                        events->count + 1) != ANVIL_OK) {
        events->error = ANVIL_ENOMEM;
        return;
    }
    struct anvil_buf message;
    anvil_buf_init(&message, events->allocator, 0);
    va_list args;
    va_start(args, fmt);
    int rc = anvil_buf_vappendf(&message, fmt, args);
    va_end(args);
    size_t len = message.len;
    if (len > ANVIL__EVENT_MESSAGE_MAX) { /* a message quoting a hostile model's 10 MB id: cut, on a character */
        len = ANVIL__EVENT_MESSAGE_MAX;
        while (len > 0 && ((unsigned char)message.data[len] & 0xC0) == 0x80) {
            len--;
        }
        anvil_buf_truncate(&message, len);
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&message, "\xE2\x80\xA6") : rc; /* ... */
        len = message.len;
    }
    char *text = rc == ANVIL_OK ? anvil_arena_strndup(events->arena, message.data, len) : NULL;
    anvil_buf_clean_up(&message);
    char *id = anvil_arena_strndup(events->arena, shape_id.ptr, shape_id.len);
    char *eid = anvil_arena_strndup(events->arena, event_id, strlen(event_id));
    if (!text || !id || !eid) {
        events->error = ANVIL_ENOMEM;
        return;
    }
    struct anvil_event *e = &events->items[events->count++];
    e->severity = severity;
    e->shape_id = anvil_sv(id, shape_id.len);
    e->message = text;
    e->event_id = eid;
}

int anvil__member_id(struct anvil_buf *out, const struct anvil_shape *shape, struct anvil_str_view member) {
    int rc = anvil_buf_append_sv(out, anvil_shape_id(shape));
    if (rc == ANVIL_OK && member.len) {
        rc = anvil_buf_append_byte(out, '$');
        if (rc == ANVIL_OK) {
            rc = anvil_buf_append_sv(out, member);
        }
    }
    return rc;
}

static void s_targets(const struct anvil_model *model, struct anvil_events *events) {
    struct anvil_buf id;
    anvil_buf_init(&id, events->allocator, 0);
    for (size_t i = 0; i < model->unresolved_count && !events->error; i++) {
        const struct anvil__unresolved *u = &model->unresolved[i];
        /* The member's id, ns#Shape$member, however long the names are. */
        anvil_buf_clear(&id);
        if (anvil__member_id(&id, u->shape, u->member) != ANVIL_OK) {
            events->error = ANVIL_ENOMEM;
            break;
        }
        anvil__event_add(events, ANVIL_SEVERITY_ERROR, anvil_buf_view(&id), "Target",
                         "member shape targets an unresolved shape `%.*s`", (int)u->target.len, u->target.ptr);
    }
    anvil_buf_clean_up(&id);
}

int anvil_event_compare(const struct anvil_event *x, const struct anvil_event *y) {
    int c = anvil_sv_cmp(x->shape_id, y->shape_id);
    if (c == 0) {
        c = (int)y->severity - (int)x->severity;
    }
    if (c == 0) {
        c = strcmp(x->event_id, y->event_id);
    }
    return c != 0 ? c : strcmp(x->message, y->message);
}

static int s_by_shape(const void *a, const void *b) {
    return anvil_event_compare(a, b);
}

int anvil__events_new(struct anvil_allocator *allocator, struct anvil_events **out) {
    struct anvil_events *events = anvil_mem_calloc(allocator, 1, sizeof(*events));
    if (!events) {
        return ANVIL_ENOMEM;
    }
    events->allocator = allocator;
    if (anvil_arena_new(allocator, NULL, &events->arena) != ANVIL_OK) {
        anvil_mem_release(allocator, events);
        return ANVIL_ENOMEM;
    }
    *out = events;
    return ANVIL_OK;
}

void anvil__events_sort(struct anvil_events *events) {
    if (events->count > 1) {
        qsort(events->items, events->count, sizeof(*events->items), s_by_shape);
    }
}

int anvil_model_validate(const struct anvil_model *model, struct anvil_allocator *allocator,
                         struct anvil_events **out) {
    if (!model || !out) {
        return ANVIL_EINVAL;
    }
    *out = NULL;
    struct anvil_events *events;
    if (anvil__events_new(allocator, &events) != ANVIL_OK) {
        return ANVIL_ENOMEM;
    }
    s_targets(model, events);
    anvil__validate_paginated(model, events);
    anvil__validate_waitable(model, events);
    anvil__validate_traits(model, events);
    if (events->error) {
        int rc = events->error;
        anvil_events_destroy(events);
        return rc;
    }
    anvil__events_sort(events);
    *out = events;
    return ANVIL_OK;
}

void anvil_events_destroy(struct anvil_events *events) {
    if (events) {
        anvil_arena_destroy(events->arena);
        anvil_mem_release(events->allocator, events->items);
        anvil_mem_release(events->allocator, events);
    }
}

size_t anvil_events_count(const struct anvil_events *events) {
    return events ? events->count : 0;
}

const struct anvil_event *anvil_events_at(const struct anvil_events *events, size_t index) {
    return events && index < events->count ? &events->items[index] : NULL;
}

size_t anvil_events_count_at_least(const struct anvil_events *events, enum anvil_severity severity) {
    size_t n = 0;
    for (size_t i = 0; events && i < events->count; i++) {
        n += events->items[i].severity >= severity;
    }
    return n;
}

const char *anvil_severity_name(enum anvil_severity severity) {
    switch (severity) {
    case ANVIL_SEVERITY_ERROR:
        return "ERROR";
    case ANVIL_SEVERITY_DANGER:
        return "DANGER";
    case ANVIL_SEVERITY_WARNING:
        return "WARNING";
    default:
        return "NOTE";
    }
}

int anvil_event_format(const struct anvil_event *e, struct anvil_buf *out) {
    /* Shape ids, messages and event ids quote the model, which is anyone's: one line, nothing a terminal acts on. */
    int rc = anvil_buf_appendf(out, "[%s] ", anvil_severity_name(e->severity));
    /* An event about no shape reads `-`, as Smithy prints it. */
    rc = rc == ANVIL_OK ? anvil_text_append_escaped(out, e->shape_id.len ? e->shape_id : anvil_sv("-", 1)) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ": ") : rc;
    rc = rc == ANVIL_OK ? anvil_text_append_escaped(out, anvil_sv_from_cstr(e->message)) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, " | ") : rc;
    return rc == ANVIL_OK ? anvil_text_append_escaped(out, anvil_sv_from_cstr(e->event_id)) : rc;
}
