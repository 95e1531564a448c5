/*
 * Many waits on one thread: a binary min-heap of (due time, wait) pairs.
 * Each wait remembers its slot, so moving or removing one is O(log n).
 */

#include <string.h>

#include "behavior/behavior_internal.h"

struct anvil__wait_group_entry {
    uint64_t at_ms;
    struct anvil__wait_state *state;
};

void anvil_wait_group_init(struct anvil_wait_group *group, struct anvil_allocator *allocator) {
    memset(group, 0, sizeof *group);
    anvil__group_of(group)->allocator = allocator;
}

void anvil_wait_group_clean_up(struct anvil_wait_group *group) {
    struct anvil__wait_group *g = anvil__group_of(group);
    for (size_t i = 0; i < g->count; i++) {
        g->heap[i].state->group_slot = 0;
    }
    anvil_mem_release(g->allocator, g->heap);
    anvil_wait_group_init(group, g->allocator);
}

size_t anvil_wait_group_count(const struct anvil_wait_group *group) {
    return anvil__group_of_const(group)->count;
}

size_t anvil_wait_group_memory(const struct anvil_wait_group *group) {
    return anvil__group_of_const(group)->capacity * sizeof(struct anvil__wait_group_entry);
}

static void s_place(struct anvil__wait_group *g, size_t i, struct anvil__wait_group_entry e) {
    g->heap[i] = e;
    e.state->group_slot = (uint32_t)(i + 1);
}

static void s_sift_up(struct anvil__wait_group *g, size_t i) {
    struct anvil__wait_group_entry e = g->heap[i];
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (g->heap[parent].at_ms <= e.at_ms) {
            break;
        }
        s_place(g, i, g->heap[parent]);
        i = parent;
    }
    s_place(g, i, e);
}

static void s_sift_down(struct anvil__wait_group *g, size_t i) {
    struct anvil__wait_group_entry e = g->heap[i];
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= g->count) {
            break;
        }
        if (child + 1 < g->count && g->heap[child + 1].at_ms < g->heap[child].at_ms) {
            child++;
        }
        if (e.at_ms <= g->heap[child].at_ms) {
            break;
        }
        s_place(g, i, g->heap[child]);
        i = child;
    }
    s_place(g, i, e);
}

static void s_take(struct anvil__wait_group *g, size_t i) {
    g->heap[i].state->group_slot = 0;
    g->count--;
    if (i == g->count) {
        return;
    }
    g->heap[i] = g->heap[g->count];
    s_sift_down(g, i);
    s_sift_up(g, g->heap[i].state->group_slot - 1);
}

static void s_remove(struct anvil__wait_group *g, struct anvil__wait_state *state) {
    size_t slot = state->group_slot;
    if (slot == 0 || slot > g->count || g->heap[slot - 1].state != state) {
        return;
    }
    s_take(g, slot - 1);
}

void anvil_wait_group_remove(struct anvil_wait_group *group, struct anvil_wait_state *state) {
    s_remove(anvil__group_of(group), anvil__wait_of(state));
}

int anvil_wait_group_schedule(struct anvil_wait_group *group, struct anvil_wait_state *wait, uint64_t now_ms) {
    (void)now_ms;
    struct anvil__wait_group *g = anvil__group_of(group);
    struct anvil__wait_state *state = anvil__wait_of(wait);
    s_remove(g, state);
    if (state->phase != ANVIL__WAIT_DUE) {
        return ANVIL_OK;
    }
    if (g->count == g->capacity) {
        if (g->count >= UINT32_MAX - 1) {
            return ANVIL_ELIMIT;
        }
        int rc = anvil__mem_grow(g->allocator, (void **)&g->heap, &g->capacity, sizeof *g->heap, g->count + 1);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    struct anvil__wait_group_entry e = {state->next_at_ms, state};
    g->heap[g->count] = e;
    state->group_slot = (uint32_t)(g->count + 1);
    g->count++;
    s_sift_up(g, g->count - 1);
    return ANVIL_OK;
}

struct anvil_wait_state *anvil_wait_group_pop(struct anvil_wait_group *group, uint64_t now_ms,
                                              enum anvil_wait_action *action, uint64_t *wake_ms) {
    struct anvil__wait_group *g = anvil__group_of(group);
    if (g->count == 0 || g->heap[0].at_ms > now_ms) {
        if (wake_ms) {
            *wake_ms = g->count ? g->heap[0].at_ms : UINT64_MAX;
        }
        return NULL;
    }
    /* The caller's own storage, as it was scheduled. */
    struct anvil_wait_state *state = (struct anvil_wait_state *)(void *)g->heap[0].state;
    s_take(g, 0);
    *action = anvil_wait_next(state, now_ms, NULL);
    return state;
}
