#ifndef ANVIL_TEST_WALK_H
#define ANVIL_TEST_WALK_H

/*
 * Calls fn(path, user) for every file under `dir` (at any depth, names
 * starting with '.' skipped) whose name ends in `suffix`, in sorted order.
 */
void anvil_test_walk(const char *dir, const char *suffix, void (*fn)(const char *path, void *user), void *user);

#endif
