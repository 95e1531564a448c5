#ifndef ANVIL_TEST_READ_FILE_H
#define ANVIL_TEST_READ_FILE_H

#include <stddef.h>

/* Reads a whole file with malloc; NULL when it cannot. The caller frees it. */
char *anvil_test_read_file(const char *path, size_t *len);

#endif
