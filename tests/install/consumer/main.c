/* Uses the installed headers and library; prints what it did. */
#include <anvil/anvil.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    struct anvil_arena *arena = NULL;
    if (anvil_arena_new(NULL, NULL, &arena) != ANVIL_OK) {
        return 1;
    }
    char *copy = anvil_arena_strndup(arena, "consumer", 8);
    struct anvil_buf buf;
    anvil_buf_init(&buf, NULL, 64);
    int rc = anvil_buf_appendf(&buf, "anvil %s %s %s", anvil_version_string(), copy, anvil_status_name(ANVIL_ELIMIT));
    if (rc == ANVIL_OK) {
        puts(buf.data);
    }
    anvil_buf_clean_up(&buf);
    anvil_arena_destroy(arena);
    return rc == ANVIL_OK && strcmp(ANVIL_VERSION_STRING, anvil_version_string()) == 0 ? 0 : 1;
}
