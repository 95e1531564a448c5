/*
 * Many waits on one thread: a binary min-heap of (due time, wait) pairs.
 * Each wait remembers its slot, so moving or removing one is O(log n).
 */

#include "behavior/behavior_internal.h"
#include "core/core_internal.h"

struct anvil_wait_group_entry {
    uint64_t at_ms;
    struct anvil_wait_state *state;
};

void anvil_wait_group_init(struct anvil_wait_group *group, struct anvil_allocator *allocator) {
    group->allocator = allocator;
    group->heap = NULL;
    group->count = 0;
    group->capacity = 0;
}

void anvil_wait_group_clean_up(struct anvil_wait_group *group) {
    for (size_t i = 0; i < group->count; i++) {
        group->heap[i].state->group_slot = 0;
    }
    anvil_mem_release(group->allocator, group->heap);
    anvil_wait_group_init(group, group->allocator);
}

size_t anvil_wait_group_count(const struct anvil_wait_group *group) {
    return group->count;
}

static void s_place(struct anvil_wait_group *g, size_t i, struct anvil_wait_group_entry e) {
    g->heap[i] = e;
    e.state->group_slot = (uint32_t)(i + 1);
}

static void s_sift_up(struct anvil_wait_group *g, size_t i) {
    struct anvil_wait_group_entry e = g->heap[i];
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

static void s_sift_down(struct anvil_wait_group *g, size_t i) {
    struct anvil_wait_group_entry e = g->heap[i];
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

static void s_take(struct anvil_wait_group *g, size_t i) {
    g->heap[i].state->group_slot = 0;
    g->count--;
    if (i == g->count) {
        return;
    }
    g->heap[i] = g->heap[g->count];
    s_sift_down(g, i);
    s_sift_up(g, g->heap[i].state->group_slot - 1);
}

void anvil_wait_group_remove(struct anvil_wait_group *group, struct anvil_wait_state *state) {
    size_t slot = state->group_slot;
    if (slot == 0 || slot > group->count || group->heap[slot - 1].state != state) {
        return;
    }
    s_take(group, slot - 1);
}

int anvil_wait_group_schedule(struct anvil_wait_group *group, struct anvil_wait_state *state, uint64_t now_ms) {
    (void)now_ms;
    anvil_wait_group_remove(group, state);
    if (state->phase != ANVIL__WAIT_DUE) {
        return ANVIL_OK;
    }
    if (group->count == group->capacity) {
        if (group->count >= UINT32_MAX - 1) {
            return ANVIL_ELIMIT;
        }
        int rc = anvil__mem_grow(group->allocator, (void **)&group->heap, &group->capacity, sizeof *group->heap,
                                 group->count + 1);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    struct anvil_wait_group_entry e = {state->next_at_ms, state};
    group->heap[group->count] = e;
    state->group_slot = (uint32_t)(group->count + 1);
    group->count++;
    s_sift_up(group, group->count - 1);
    return ANVIL_OK;
}

struct anvil_wait_state *anvil_wait_group_pop(struct anvil_wait_group *group, uint64_t now_ms,
                                              enum anvil_wait_action *action, uint64_t *wake_ms) {
    if (group->count == 0 || group->heap[0].at_ms > now_ms) {
        if (wake_ms) {
            *wake_ms = group->count ? group->heap[0].at_ms : UINT64_MAX;
        }
        return NULL;
    }
    struct anvil_wait_state *state = group->heap[0].state;
    s_take(group, 0);
    *action = anvil_wait_next(state, now_ms, NULL);
    return state;
}
