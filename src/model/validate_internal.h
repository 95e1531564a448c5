#ifndef ANVIL_VALIDATE_INTERNAL_H
#define ANVIL_VALIDATE_INTERNAL_H

#include "anvil/validate.h"
#include "model/model_internal.h"

struct anvil_events {
    struct anvil_allocator *allocator;
    struct anvil_arena *arena; /* messages, ids and member shape ids */
    struct anvil_event *items;
    size_t count, cap;
    int error; /* sticky ANVIL_ENOMEM */
};

/* An empty event list: ANVIL_ENOMEM. */
int anvil__events_new(struct anvil_allocator *allocator, struct anvil_events **out);
/* Sorts events as anvil_model_validate() returns them. */
void anvil__events_sort(struct anvil_events *events);

/* The longest event message kept: a longer one is cut (on a character) and ends in "...". */
#define ANVIL__EVENT_MESSAGE_MAX 4096

/* Adds an event; the shape id and texts are copied. Errors are sticky in `events->error`. */
void anvil__event_add(struct anvil_events *events, enum anvil_severity severity, struct anvil_str_view shape_id,
                      const char *event_id, const char *fmt, ...) ANVIL_PRINTF(5, 6);

/*
 * A sample value for a waiter matcher, as Smithy's linter sees it: the
 * output shape's sample, or {"input": ..., "output": ...}; documents and
 * recursion are the linter's "any" marker. Built in `arena`.
 */
int anvil__model_sample(struct anvil_arena *arena, struct anvil_allocator *scratch, const struct anvil_shape *input,
                        const struct anvil_shape *output, bool input_output, struct anvil_json *out);

/* Appends `ns#Shape` or, with a member, `ns#Shape$member` to `out`. */
int anvil__member_id(struct anvil_buf *out, const struct anvil_shape *shape, struct anvil_str_view member);

void anvil__validate_paginated(const struct anvil_model *model, struct anvil_events *events);
void anvil__validate_waitable(const struct anvil_model *model, struct anvil_events *events);
void anvil__validate_traits(const struct anvil_model *model, struct anvil_events *events);

#endif
