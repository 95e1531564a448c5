#ifndef ANVIL_TEXT_H
#define ANVIL_TEXT_H

/**
 * Text that came from elsewhere (a server's error, a command's output, a
 * model file) made safe to show: valid UTF-8, cut between characters, and
 * for a terminal or a line-oriented reader, with every character that could
 * move the cursor, start an escape sequence, reorder what is shown or break
 * a line escaped. The CLI prints every such string through these.
 */

#include "anvil/buffer.h"
#include "anvil/str_view.h"

ANVIL_EXTERN_C_BEGIN

/**
 * Appends at most `max_bytes` of `s` to `out` as valid UTF-8: each byte that
 * does not start a valid sequence becomes U+FFFD (3 bytes, counted against
 * `max_bytes`), and the cut never splits a character. Every other byte,
 * control characters and NUL included, is kept. ANVIL_OK, ANVIL_ENOMEM,
 * ANVIL_ELIMIT (the buffer's cap). Thread-safe.
 */
ANVIL_API int anvil_text_append_utf8(struct anvil_buf *out, struct anvil_str_view s, size_t max_bytes);

/**
 * Appends `s` as one line of plain text: valid UTF-8 is kept, except C0
 * controls and DEL (\\n, \\r, \\t, else \\xNN), C1 controls and the
 * bidirectional overrides and isolates (\\u{NNNN}); a byte that is not UTF-8
 * becomes \\xNN. A backslash stays as it is. ANVIL_OK, ANVIL_ENOMEM,
 * ANVIL_ELIMIT. Thread-safe.
 */
ANVIL_API int anvil_text_append_escaped(struct anvil_buf *out, struct anvil_str_view s);

/**
 * Appends `s` with the ASCII whitespace (space, tab, CR, LF) at its ends
 * dropped and each run of it inside as one space: a header value as SigV4
 * canonicalises it, a documentation paragraph on one line. ANVIL_OK,
 * ANVIL_ENOMEM, ANVIL_ELIMIT. Thread-safe.
 */
ANVIL_API int anvil_text_append_collapsed(struct anvil_buf *out, struct anvil_str_view s);

ANVIL_EXTERN_C_END

#endif
