#ifndef ANVIL_MODEL_IDL_TEXT_H
#define ANVIL_MODEL_IDL_TEXT_H

/*
 * IDL text out (internal), for the IDL writer: the code writer Smithy's
 * serializer writes through (utils/AbstractCodeWriter.java), its string
 * escapes and its number format, and the IDL's identifier rules.
 *
 * The code writer indents a line by four spaces per `indent` when the line's
 * first byte is written, trims trailing spaces when the line ends (but not in
 * doc comments, where each line starts with `/// `), keeps runs of blank
 * lines to one and drops blank lines at the start. Nothing is written for a
 * blank line until more text follows, so a file never ends with one.
 *
 * Failures are sticky: the first failure of an append (ANVIL_ENOMEM, or
 * ANVIL_ELIMIT at the buffer's cap) or a number the IDL cannot spell
 * (ANVIL_EMODEL) is kept in `rc`, and every later call does nothing.
 */

#include <stdbool.h>
#include <stddef.h>

#include "anvil/buffer.h"
#include "anvil/json.h"
#include "anvil/str_view.h"

/* Zero-initialise, then anvil__idl_out_start(). */
struct anvil__idl_out {
    struct anvil_buf *buf;
    size_t indent;      /* levels of four spaces */
    bool doc;           /* lines are `/// ` doc comment lines */
    bool line_start;    /* nothing of the current line is written yet */
    bool blank_pending; /* a blank line is due before the next text */
    bool any;           /* some line has been written */
    size_t line_begin;  /* where the current line starts in buf */
    int rc;             /* ANVIL_OK, or the first failure */
};

/** Starts writing to the end of `buf` at the start of a line, indent 0; `rc` stays as it was. */
void anvil__idl_out_start(struct anvil__idl_out *o, struct anvil_buf *buf);

/** Appends bytes as they are: no indentation, no line handling. */
void anvil__idl_out_raw(struct anvil__idl_out *o, const char *bytes, size_t len);

/** Text holding no newline, indented when it begins a line. */
void anvil__idl_out_text(struct anvil__idl_out *o, const char *bytes, size_t len);
void anvil__idl_out_cstr(struct anvil__idl_out *o, const char *cstr);
void anvil__idl_out_sv(struct anvil__idl_out *o, struct anvil_str_view sv);

/** Ends the line; ending an empty line asks for one blank line. */
void anvil__idl_out_nl(struct anvil__idl_out *o);

/**
 * A quoted IDL string with Java's escapes (StringUtils.escapeJavaString):
 * `"`, `\`, \b \t \n \f \r, other C0 controls, DEL and the C1 controls as
 * \u00XX; everything else (valid UTF-8 or not) as it is.
 */
void anvil__idl_out_quoted(struct anvil__idl_out *o, struct anvil_str_view s);

/** An object key or metadata key: bare when it is an identifier, else quoted. */
void anvil__idl_out_key(struct anvil__idl_out *o, struct anvil_str_view key);

/** A JSON number: integers as they are, doubles as Java's Double.toString; EMODEL when not finite. */
void anvil__idl_out_number(struct anvil__idl_out *o, const struct anvil_json *v);

/**
 * `v` as compact JSON, escaped as Smithy's JSON writer escapes it (the
 * `= value` of defaults and enum values). Recursive: the caller makes sure
 * `v` nests no deeper than ANVIL_JSON_MAX_DEPTH.
 */
void anvil__idl_out_json(struct anvil__idl_out *o, const struct anvil_json *v);

/**
 * Java's Double.toString of a finite `d`: the shortest decimal that reads
 * back as `d`, plain for 1e-3 <= |d| < 1e7 ("100.0", "0.001"), else with an
 * exponent ("1.557128360711E9"). `out` holds at least 40 bytes; returns the
 * length written (NUL-terminated).
 */
size_t anvil__idl_java_double(double d, char *out);

/** Identifier = (1*"_" (ALPHA / DIGIT) / ALPHA) *(ALPHA / DIGIT / "_"), ASCII only. */
bool anvil__idl_is_identifier(struct anvil_str_view s);

/** Namespace = Identifier *("." Identifier). */
bool anvil__idl_is_namespace(struct anvil_str_view s);

#endif
