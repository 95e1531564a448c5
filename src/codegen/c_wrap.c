/* Generated C lines wider than 120 columns broken where clang-format (the project's .clang-format) breaks them:
 * anvil__c_line and anvil__c_declaration (c_rewrap.c applies them to a whole file). */
#include <stdint.h>
#include <string.h>

#include "codegen/codegen_internal.h"

#define S_LIMIT ANVIL__C_LIMIT
#define S_PIECES 128 /* the most operands of one chain, or arguments of one call, that a line is broken at */

struct s_wrap {
    struct anvil_buf *out;
    int col;
    int indent;       /* the statement's */
    bool declaration; /* a function's head: parameters aligned after the '(' whenever they fit */
    int rc;
    int *trials;   /* the statement's: how many more groups may be laid out both ways to compare them */
    bool fit_head; /* a call is broken after its '(' only where the text up to it fits (there is another break) */
    bool lenient;  /* the last try (s_line): a call's arguments may run past the limit where no break keeps them in */
};

/* Each comparison of a group's two places lays it out twice, and each of those its inner groups, as each break
 * after the '(' of a call of one argument lays out the rest, which may hold such calls in turn: so many per
 * statement, then a group goes on the next line uncompared and no more such breaks are tried (a nest made to be too
 * wide would otherwise take time exponential in its depth). */
#define S_TRIALS 256

struct s_piece {
    const char *ptr;
    size_t len;
};

static void s_put(struct s_wrap *w, const char *ptr, size_t len) {
    if (w->rc == ANVIL_OK) {
        w->rc = anvil_buf_append(w->out, ptr, len);
    }
    w->col += (int)len;
}

static void s_newline(struct s_wrap *w, int col) {
    s_put(w, "\n", 1);
    for (int i = 0; i < col; i++) {
        s_put(w, " ", 1);
    }
    w->col = col;
}

/* A copy of `w` that writes into `scratch` instead (a layout tried, to count or weigh it). */
static struct s_wrap s_dry(const struct s_wrap *w, struct anvil_buf *scratch) {
    struct s_wrap dry = *w;
    dry.out = scratch;
    dry.rc = ANVIL_OK;
    return dry;
}

enum { S_TRACE = 64 };

/* A laid-out statement's breaks as clang-format's search meets them (s_penalty): before which token each line starts
 * and what the break there costs. */
struct s_trace {
    int n;                 /* breaks traced (more than S_TRACE: -1) */
    int tokens;            /* tokens in the statement */
    int at[S_TRACE];       /* the token each break comes before */
    int64_t cost[S_TRACE]; /* the penalty of that break */
};

/* The layout of least penalty among those tried so far (s_keep). */
struct s_kept {
    struct anvil_buf text; /* none yet: len 0 */
    int64_t penalty;
    struct s_trace trace;
};

static int64_t s_penalty(const char *text, size_t len, int col, char lead, struct s_trace *trace);
static bool s_met_first(const struct s_trace *a, const struct s_trace *b);

/* Keeps the layout in `scratch` (its first line starting at column `col`, after `lead` as s_penalty has it) in `kept`
 * when its penalty is less than that kept, or equal and clang-format's search meets it first (s_met_first), or none
 * is kept; empties `scratch`. */
static void s_keep(struct s_kept *kept, struct anvil_buf *scratch, int col, char lead) {
    struct s_trace trace;
    int64_t penalty = s_penalty(scratch->data, scratch->len, col, lead, &trace);
    if (kept->text.len == 0 || penalty < kept->penalty ||
        (penalty == kept->penalty && s_met_first(&trace, &kept->trace))) {
        struct anvil_buf old = kept->text;
        kept->text = *scratch, *scratch = old;
        kept->penalty = penalty;
        kept->trace = trace;
    }
    anvil_buf_clean_up(scratch);
}

size_t anvil__c_skip_literal(const char *t, size_t len, size_t i) {
    char quote = t[i];
    for (i++; i < len && t[i] != quote; i++) {
        i += t[i] == '\\';
    }
    return i < len ? i + 1 : len;
}

/* 1 for an opening bracket, -1 for a closing one, else 0. */
static int s_bracket(char c) {
    return (c == '(' || c == '[' || c == '{') - (c == ')' || c == ']' || c == '}');
}

/* The index of the bracket closing the one at t[open], or `len`. */
static size_t s_close_of(const char *t, size_t len, size_t open) {
    int depth = 0;
    for (size_t i = open; i < len;) {
        if (t[i] == '"' || t[i] == '\'') {
            i = anvil__c_skip_literal(t, len, i);
            continue;
        }
        depth += s_bracket(t[i]);
        if (depth == 0) {
            return i;
        }
        i++;
    }
    return len;
}

bool anvil__c_has(const char *t, size_t from, size_t to, char c) {
    for (size_t i = from; i < to; i++) {
        if (t[i] == '"' || t[i] == '\'') {
            i = anvil__c_skip_literal(t, to, i) - 1;
        } else if (t[i] == c) {
            return true;
        }
    }
    return false;
}

/* How deep brackets nest in t[from, to), outside string and character literals. */
static int s_depth(const char *t, size_t from, size_t to) {
    int depth = 0, most = 0;
    for (size_t i = from; i < to; i++) {
        if (t[i] == '"' || t[i] == '\'') {
            i = anvil__c_skip_literal(t, to, i) - 1;
        } else if (s_bracket(t[i]) != 0) {
            depth += s_bracket(t[i]);
            most = depth > most ? depth : most;
        }
    }
    return most;
}

struct anvil_str_view anvil__c_unparen(struct anvil_str_view text) {
    if (text.len >= 2 && text.ptr[0] == '(' && s_close_of(text.ptr, text.len, 0) == text.len - 1) {
        return anvil_sv(text.ptr + 1, text.len - 2);
    }
    return text;
}

/*
 * Splits t[from, to) after each `sep` outside brackets and literals, the
 * separator kept at the end of the piece before it and the blanks after
 * it dropped. The count, or 0 when there are more than `max` pieces or
 * the last is empty (`f(a, )`); `out` NULL only counts.
 */
static size_t s_split(const char *t, size_t from, size_t to, const char *sep, struct s_piece *out, size_t max) {
    size_t n = 0, start = from, seplen = strlen(sep);
    int depth = 0;
    for (size_t i = from; i < to;) {
        if (t[i] == '"' || t[i] == '\'') {
            i = anvil__c_skip_literal(t, to, i);
            continue;
        }
        depth += s_bracket(t[i]);
        if (depth == 0 && i + seplen <= to && memcmp(t + i, sep, seplen) == 0) {
            if (n == max) {
                return 0;
            }
            if (out) {
                out[n] = (struct s_piece){t + start, i + seplen - start};
            }
            n++;
            for (i += seplen; i < to && t[i] == ' '; i++) {
            }
            start = i;
            continue;
        }
        i++;
    }
    if (n == max || start >= to) {
        return 0;
    }
    if (out) {
        out[n] = (struct s_piece){t + start, to - start};
    }
    return n + 1;
}

/* `a` then `b` copied into `buf` (`cap` bytes) as one piece; false when they do not fit there. */
static bool s_join(char *buf, size_t cap, struct s_piece a, struct s_piece b, struct s_piece *out) {
    if (a.len + b.len > cap) {
        return false;
    }
    memcpy(buf, a.ptr, a.len);
    memcpy(buf + a.len, b.ptr, b.len);
    *out = (struct s_piece){buf, a.len + b.len};
    return true;
}

bool anvil__c_ident_char(char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Where the run of name characters from t[from] ends (`from` itself when there is none), at `to` at the latest. */
static size_t s_name_end(const char *t, size_t from, size_t to) {
    while (from < to && anvil__c_ident_char(t[from])) {
        from++;
    }
    return from;
}

/* Whether the string literal `t` (its quotes included) reads as a label: its text, blanks trimmed, longer than one
 * character and ending in ':' or '='. */
static bool s_label_text(const char *t, size_t len) {
    if (len < 2 || t[len - 1] != '"') {
        return false;
    }
    size_t end = len - 1; /* the closing quote */
    while (end > 1 && t[end - 1] == ' ') {
        end--;
    }
    size_t start = 1;
    while (start < end && t[start] == ' ') {
        start++;
    }
    return end - start > 1 && (t[end - 1] == ':' || t[end - 1] == '=');
}

/* Whether piece `i` is a string literal that reads as a label (its text, blanks trimmed, ends in ':' or '=') and the
 * comma after it: clang-format weighs a break after such a comma at 50 where any other comma costs 1 (unless it is
 * a call's only comma), so it keeps the label on the line of what follows. */
static bool s_label(const struct s_piece *pieces, size_t n, size_t i) {
    const char *t = pieces[i].ptr;
    size_t len = pieces[i].len;
    return n >= 3 && i + 1 < n && len >= 3 && t[0] == '"' && t[len - 1] == ',' &&
           anvil__c_skip_literal(t, len, 0) == len - 1 && s_label_text(t, len - 1);
}

/*
 * Whether piece `i` of `n` (i > 0) goes on the line after the piece before
 * it, the line at column `col`, continuations at `align`: when it fits,
 * unless it is a label (s_label) whose next piece would then start a line
 * while the two fit together on the next.
 */
static bool s_goes_here(const struct s_piece *pieces, size_t n, size_t i, int col, int align, size_t suffix) {
    int width = (int)pieces[i].len + (i + 1 == n ? (int)suffix : 0);
    if (col + 1 + width > S_LIMIT) {
        return false;
    }
    if (!s_label(pieces, n, i)) {
        return true;
    }
    int next = (int)pieces[i + 1].len + (i + 2 == n ? (int)suffix : 0);
    return col + 1 + width + 1 + next <= S_LIMIT || align + width + 1 + next > S_LIMIT;
}

/* The call that `piece` starts with (`f(` or `!f(`) as out[0], its text up to the '(', then its arguments as
 * out[1..]: their count, 0 when the piece starts with no call. */
static size_t s_call_args(struct s_piece piece, struct s_piece *out) {
    const char *p = piece.ptr;
    size_t name = p[0] == '!' ? 1 : 0, open = s_name_end(p, name, piece.len);
    size_t close = open > name && open < piece.len && p[open] == '(' ? s_close_of(p, piece.len, open) : piece.len;
    size_t n = close < piece.len ? s_split(p, open + 1, close, ",", out + 1, S_PIECES) : 0;
    out[0] = (struct s_piece){p, open + 1};
    return n;
}

static size_t s_split_logical(const char *t, size_t from, size_t to, struct s_piece *out, size_t max);
static size_t s_split_comparison(const char *t, size_t len, struct s_piece *out);
static int s_pack_dry(const struct s_wrap *w, int col, const struct s_piece *pieces, size_t n, int align,
                      struct s_piece suffix, int *end);
static int s_pack_lines(const struct s_piece *pieces, size_t n, int col, int align, size_t suffix);
static int s_args_loose(struct s_wrap *w, const struct s_piece *args, size_t n, int col, struct s_piece tail, bool dry);
static void s_put_text(struct s_wrap *w, const struct anvil_buf *text);

/*
 * An operand of a chain too wide for a line that is a call, `f(a, b) &&` or
 * `!f(a, b)`: its arguments packed, each whole, after its '(' with the call
 * on this line after `gap` blanks (gap -1: not on this line) or on a line
 * of its own at `align`, or on the line after the call's '(' four columns
 * in from the call, whichever takes fewest lines (see below). False, with
 * nothing written, when it is no call or fits none of these ways.
 */
static bool s_pack_call(struct s_wrap *w, struct s_piece piece, struct s_piece suffix, int align, int gap) {
    const char *p = piece.ptr;
    struct s_piece call[S_PIECES + 1];
    size_t n = s_call_args(piece, call);
    if (n == 0 || memchr(p, '\n', piece.len)) {
        return false;
    }
    const struct s_piece *args = call + 1;
    size_t open = call[0].len - 1, close = (size_t)(args[n - 1].ptr + args[n - 1].len - p);
    /* The text after the call (its separator) and then the suffix close the last argument. */
    int tail = (int)(piece.len - close) + (int)suffix.len;
    /* On this line only when that takes fewer lines than starting the call on the next: clang-format would
       rather break before the operand than twice inside it. Failing both, or when it saves a line, the call
       starts on this line with its arguments on the next, four columns in from the call. */
    int start = w->col + gap, here = 0, after = 0;
    if (gap >= 0) {
        here = n > 1 ? s_pack_lines(args, n, start + (int)open + 1, start + (int)open + 1, (size_t)tail) : 0;
        after = start + (int)open + 1 <= S_LIMIT ? s_pack_lines(args, n, start + 4, start + 4, (size_t)tail) : 0;
    }
    int below = n > 1 ? s_pack_lines(args, n, align + (int)open + 1, align + (int)open + 1, (size_t)tail) : 0;
    bool on_this = here > 0 && (below == 0 || here < below + 1);
    int best = on_this ? here : below > 0 ? below + 1 : 0;
    /* (A call of one argument, already too wide for its line, has only the breaks after its '('.) Also, after an
       operator, the call on a line of its own with its arguments below it, where that takes no more lines than
       its arguments below it started on this line: clang-format weighs a break after the operator less than one
       between arguments, a bracket level further in. */
    int own = (gap > 0 || (best == 0 && after == 0)) && align + (int)open + 1 <= S_LIMIT
                  ? s_pack_lines(args, n, align + 4, align + 4, (size_t)tail)
                  : 0;
    /* Where the call starts (after the operator, or on a line of its own), and whether its arguments go on the
       line after its '(', four columns in from the call, or after the '(' itself. */
    bool call_here, args_below;
    if (own > 0 && own + 1 <= after && (best == 0 || own + 2 < best)) {
        call_here = false, args_below = true;
    } else if (after > 0 && (best == 0 || after + 1 < best)) {
        call_here = true, args_below = true;
    } else if (own > 0 && best == 0 && after == 0) {
        call_here = false, args_below = true; /* not even that: the call on a line of its own */
    } else if (best > 0) {
        call_here = on_this, args_below = false;
    } else if (w->lenient && (gap >= 0 && start <= align ? start : align) + (int)open + 1 <= S_LIMIT) {
        /* No break keeps the arguments in: below the call, which starts a line of its own unless it starts the
           chain (the arguments then run least past the limit). */
        call_here = gap >= 0 && start <= align, args_below = true;
    } else {
        return false;
    }
    if (call_here) {
        s_put(w, " ", (size_t)gap);
    } else {
        s_newline(w, align);
    }
    int col = w->col + (args_below ? 4 : (int)open + 1);
    s_put(w, p, open + 1);
    if (args_below) {
        s_newline(w, col);
    }
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && s_goes_here(args, n, i, w->col, col, (size_t)tail)) {
            s_put(w, " ", 1);
        } else if (i > 0) {
            s_newline(w, col);
        }
        s_put(w, args[i].ptr, args[i].len);
    }
    s_put(w, p + close, piece.len - close);
    s_put(w, suffix.ptr, suffix.len);
    return true;
}

/*
 * Writes the pieces one after another (a blank between), a piece that
 * does not fit the line starting a new one at `align`; `suffix` follows
 * the last. A piece too wide for a line of its own is broken inside (a
 * comparison after its operator, a call at its arguments, a parenthesized
 * chain at its operators), and the piece after it starts a line of its
 * own. False when a piece does not fit even so.
 */
static bool s_pack(struct s_wrap *w, const struct s_piece *pieces, size_t n, int align, struct s_piece suffix) {
    bool broke = false; /* the piece before was broken over lines: this one starts a line of its own */
    for (size_t i = 0; i < n; i++) {
        int width = (int)pieces[i].len + (i + 1 == n ? (int)suffix.len : 0);
        bool here = i == 0 || !broke; /* this piece may go on the current line */
        broke = false;
        int gap = i > 0 ? 1 : 0;
        if (here && (i == 0 ? w->col + width <= S_LIMIT : s_goes_here(pieces, n, i, w->col, align, suffix.len))) {
            s_put(w, " ", (size_t)gap);
            s_put(w, pieces[i].ptr, pieces[i].len);
            continue;
        }
        if (i > 0 && align + width <= S_LIMIT) {
            s_newline(w, align);
            s_put(w, pieces[i].ptr, pieces[i].len);
            continue;
        }
        /* Too wide even for a line of its own, so broken inside. Of three operands or more, one after its operator
           is broken only where it starts a line: clang-format lets no line break into an operand that follows its
           operator on the same line unless the chain has just two. */
        here = here && (i == 0 || n == 2);
        /* A comparison broken after its operator, the right side four columns in from the left's start, as
           clang-format breaks it before a call's arguments; */
        struct s_piece after = i + 1 == n ? suffix : (struct s_piece){"", 0};
        struct s_piece sides[2];
        if (s_split_comparison(pieces[i].ptr, pieces[i].len, sides) == 2) {
            bool start_here = here && w->col + gap + (int)sides[0].len <= S_LIMIT;
            int start = start_here ? w->col + gap : align;
            if (start + (int)sides[0].len <= S_LIMIT && start + 4 + (int)(sides[1].len + after.len) <= S_LIMIT) {
                if (start_here) {
                    s_put(w, " ", (size_t)gap);
                } else {
                    s_newline(w, align);
                }
                s_put(w, sides[0].ptr, sides[0].len);
                s_newline(w, start + 4);
                s_put(w, sides[1].ptr, sides[1].len);
                if (i + 1 == n) {
                    s_put(w, suffix.ptr, suffix.len);
                    return true;
                }
                broke = true;
                continue;
            }
            /* or a call on the left too wide for its line: its arguments aligned after its '(' with the operator
               after the last, the right side on the next line four columns in from the call, where the whole
               comparison after the arguments would need a break after the '(' (clang-format weighs a break there
               above one after the comparison's operator, a bracket level further out); */
            int at = here ? w->col + gap : align;
            struct s_piece call[S_PIECES + 1];
            size_t m = s_call_args(sides[0], call);
            int paren = at + (int)(m > 0 ? call[0].len : 0);
            size_t op_tail = m > 0 ? (size_t)(sides[0].ptr + sides[0].len - (call[m].ptr + call[m].len)) : 0;
            size_t whole_tail = op_tail + 1 + sides[1].len + after.len;
            int below = align + (int)(m > 0 ? call[0].len : 0);
            if (m > 0 && paren <= S_LIMIT && s_pack_lines(call + 1, m, paren, paren, whole_tail) == 0 &&
                (below > S_LIMIT || s_pack_lines(call + 1, m, below, below, whole_tail) == 0) &&
                s_pack_lines(call + 1, m, at + 4, at + 4, whole_tail) != 1 &&
                s_pack_lines(call + 1, m, paren, paren, op_tail) > 0 &&
                at + 4 + (int)(sides[1].len + after.len) <= S_LIMIT) {
                if (here) {
                    s_put(w, " ", (size_t)gap);
                } else {
                    s_newline(w, align);
                }
                s_put(w, call[0].ptr, call[0].len);
                const char *close = call[m].ptr + call[m].len;
                if (!s_pack(w, call + 1, m, w->col,
                            (struct s_piece){close, (size_t)(sides[0].ptr + sides[0].len - close)})) {
                    return false;
                }
                s_newline(w, at + 4);
                s_put(w, sides[1].ptr, sides[1].len);
                if (i + 1 == n) {
                    s_put(w, suffix.ptr, suffix.len);
                    return true;
                }
                broke = true;
                continue;
            }
        }
        /* else a call broken at its arguments, on this line if it can start here. */
        if (s_pack_call(w, pieces[i], after, align, here ? gap : -1)) {
            if (i + 1 == n) {
                return true;
            }
            broke = true;
            continue;
        }
        /* A parenthesized chain (`(a && b) ||`, `!(a || b) &&`): its own operands packed inside it, the group
           started on this line when it is the chain's last operand and that takes fewer lines than starting it
           on the next. */
        const char *p = pieces[i].ptr;
        size_t open = p[0] == '!' ? 1 : 0;
        size_t close = p[open] == '(' ? s_close_of(p, pieces[i].len, open) : pieces[i].len;
        struct s_piece inner[S_PIECES];
        size_t m = close < pieces[i].len ? s_split_logical(p, open + 1, close, inner, S_PIECES) : 0;
        if (m < 2) {
            return false;
        }
        struct s_piece rest = {p + close, pieces[i].len - close};
        char tail[16];
        if (i + 1 == n && !s_join(tail, sizeof tail - 1, rest, suffix, &rest)) {
            return false;
        }
        if (i > 0) {
            bool compare = here && i + 1 == n && *w->trials > 0; /* only the chain's last operand */
            *w->trials -= compare;
            int below = compare ? s_pack_dry(w, align + (int)open + 1, inner, m, align + (int)open + 1, rest, NULL) : 0;
            int col = w->col + 1 + (int)open + 1;
            int same = compare ? s_pack_dry(w, col, inner, m, col, rest, NULL) : 0;
            if (same > 0 && (below == 0 || same <= below)) {
                s_put(w, " ", 1);
            } else {
                s_newline(w, align);
            }
        }
        s_put(w, p, open + 1);
        if (!s_pack(w, inner, m, w->col, rest)) {
            return false;
        }
        if (i + 1 == n) {
            return true;
        }
        broke = true;
    }
    s_put(w, suffix.ptr, suffix.len);
    return true;
}

/* The lines of `text` (its first starting at column `col`), and 1000 more for each column they run past the limit. */
static int s_lines_over(const char *text, size_t len, int col) {
    int lines = 1, excess = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') {
            excess += col > S_LIMIT ? col - S_LIMIT : 0;
            lines++;
            col = 0;
        } else {
            col++;
        }
    }
    excess += col > S_LIMIT ? col - S_LIMIT : 0;
    return lines + 1000 * excess;
}

/* The lines s_pack() makes from column `col` (0: it cannot), written nowhere; `end` (may be NULL) gets the column
 * where the last line ends. */
static int s_pack_dry(const struct s_wrap *w, int col, const struct s_piece *pieces, size_t n, int align,
                      struct s_piece suffix, int *end) {
    struct anvil_buf scratch;
    anvil_buf_init(&scratch, NULL, 0);
    struct s_wrap dry = s_dry(w, &scratch);
    dry.col = col;
    bool ok = s_pack(&dry, pieces, n, align, suffix) && dry.rc == ANVIL_OK;
    /* (Only the last try lets a line run past the limit: there a column past it weighs more than any line, as
       clang-format's penalty for it does, so every choice made by counting lines takes the least excess.) */
    int lines = ok ? s_lines_over(scratch.data, scratch.len, col) : 0;
    anvil_buf_clean_up(&scratch);
    if (end) {
        *end = dry.col;
    }
    return ok ? lines : 0;
}

/* A chain of one logical operator (a && b && c) as pieces; 0 when there is none or `||` and `&&` mix. */
static size_t s_split_logical(const char *t, size_t from, size_t to, struct s_piece *out, size_t max) {
    size_t and = s_split(t, from, to, "&&", out, max);
    if (and > 1) {
        return s_split(t, from, to, "||", NULL, SIZE_MAX) > 1 ? 0 : and;
    }
    size_t or = s_split(t, from, to, "||", out, max);
    return or > 1 ? or : 0;
}

/* The lines s_pack makes of the pieces from column `col` (continuations at `align`); 0 when one does not fit. */
static int s_pack_lines(const struct s_piece *pieces, size_t n, int col, int align, size_t suffix) {
    int lines = 1;
    for (size_t i = 0; i < n; i++) {
        int width = (int)pieces[i].len + (i + 1 == n ? (int)suffix : 0);
        if (i > 0 && s_goes_here(pieces, n, i, col, align, suffix)) {
            col += 1 + width;
            continue;
        }
        if (i > 0) {
            lines++;
            col = align;
        }
        if (col + width > S_LIMIT) {
            return 0;
        }
        col += width;
    }
    return lines;
}

/*
 * Arguments that are a string split over lines (a literal longer than a
 * line, as anvil__c_string writes it): each piece of it starts a line of its
 * own at `col`, as do the arguments before and after it, and the rest are
 * packed. The pieces are separated by a bare '\n' (s_line). The lines it
 * takes (0: a piece does not fit); `dry` writes nothing.
 */
static int s_call_lines(struct s_wrap *w, const char *t, size_t open, const struct s_piece *args, size_t n,
                        struct s_piece tail, int col, bool dry) {
    if (!dry) {
        s_put(w, t, open + 1);
    }
    int at = col, lines = 1;
    bool after_split = false;
    for (size_t i = 0; i < n; i++) {
        const char *nl = memchr(args[i].ptr, '\n', args[i].len);
        size_t first = nl ? (size_t)(nl - args[i].ptr) : args[i].len;
        int width = (int)first + (nl ? 0 : i + 1 == n ? (int)tail.len : 0);
        if (i > 0 && !nl && !after_split && at + 1 + width <= S_LIMIT) {
            at += 1;
            if (!dry) {
                s_put(w, " ", 1);
            }
        } else if (i > 0) {
            at = col;
            lines++;
            if (!dry) {
                s_newline(w, col);
            }
        }
        after_split = nl != NULL;
        /* The argument, a piece a line. */
        for (size_t from = 0; from < args[i].len;) {
            const char *end = memchr(args[i].ptr + from, '\n', args[i].len - from);
            size_t piece = end ? (size_t)(end - args[i].ptr) - from : args[i].len - from;
            int trail = end ? 0 : i + 1 == n ? (int)tail.len : 0;
            if (from > 0) {
                at = col;
                lines++;
                if (!dry) {
                    s_newline(w, col);
                }
            }
            if (at + (int)piece + trail > S_LIMIT) {
                return 0;
            }
            if (!dry) {
                s_put(w, args[i].ptr + from, piece);
            }
            at += (int)piece;
            from += piece + (end != NULL);
        }
    }
    if (!dry) {
        s_put(w, tail.ptr, tail.len);
    }
    return lines;
}

/*
 * One entry of a list of braced lists, `{a, b, c},` (its ',' kept), from
 * column `col` with `tail` more columns after it: whole when it fits, else
 * its elements packed after its '{'. The lines it takes (0: it does not
 * fit so either).
 */
static int s_entry_lines(struct s_piece entry, int col, size_t tail) {
    if (col + (int)entry.len + (int)tail <= S_LIMIT) {
        return 1;
    }
    size_t close = entry.ptr[0] == '{' ? s_close_of(entry.ptr, entry.len, 0) : entry.len;
    struct s_piece parts[S_PIECES];
    size_t n = close < entry.len ? s_split(entry.ptr, 1, close, ",", parts, S_PIECES) : 0;
    return n > 1 ? s_pack_lines(parts, n, col + 1, col + 1, entry.len - close + tail) : 0;
}

/* Writes an entry as s_entry_lines() lays it out, `suffix` after it. */
static void s_entry(struct s_wrap *w, struct s_piece entry, struct s_piece suffix) {
    if (w->col + (int)entry.len + (int)suffix.len <= S_LIMIT) {
        s_put(w, entry.ptr, entry.len);
        s_put(w, suffix.ptr, suffix.len);
        return;
    }
    size_t close = s_close_of(entry.ptr, entry.len, 0);
    struct s_piece parts[S_PIECES];
    size_t n = s_split(entry.ptr, 1, close, ",", parts, S_PIECES);
    /* The entry's own '}' (and ',') and the list's closing after it end the last element's line, as
       s_entry_lines() counted them. */
    char buf[32];
    struct s_piece closing;
    if (!s_join(buf, sizeof buf, (struct s_piece){entry.ptr + close, entry.len - close}, suffix, &closing)) {
        s_put(w, entry.ptr, entry.len); /* not a shape the generator writes: left whole */
        s_put(w, suffix.ptr, suffix.len);
        return;
    }
    s_put(w, "{", 1);
    if (w->lenient && s_pack_lines(parts, n, w->col, w->col, closing.len) == 0) {
        s_args_loose(w, parts, n, w->col, closing, false); /* the last try: an element wider than any line */
        return;
    }
    s_pack(w, parts, n, w->col, closing);
}

/* Where the last ` - ` or ` + ` of `piece` outside brackets and literals is (the index of its blank), or 0. */
static size_t s_last_sum(struct s_piece piece) {
    size_t found = 0;
    int depth = 0;
    for (size_t i = 0; i + 2 < piece.len; i++) {
        if (piece.ptr[i] == '"' || piece.ptr[i] == '\'') {
            i = anvil__c_skip_literal(piece.ptr, piece.len, i) - 1;
            continue;
        }
        depth += s_bracket(piece.ptr[i]);
        if (depth == 0 && i > 0 && piece.ptr[i] == ' ' && (piece.ptr[i + 1] == '-' || piece.ptr[i + 1] == '+') &&
            piece.ptr[i + 2] == ' ') {
            found = i;
        }
    }
    return found;
}

/*
 * The last try's arguments (w->lenient), where no break keeps one of them
 * within the limit: each after the one before where it fits, else on a
 * line of its own at `col` however wide, `tail` after the last. Its lines,
 * and 1000 more for each column they run past the limit (as s_pack_dry
 * counts them); `dry` writes nothing.
 */
static int s_args_loose(struct s_wrap *w, const struct s_piece *args, size_t n, int col, struct s_piece tail,
                        bool dry) {
    int at = col, lines = 1, excess = 0;
    bool broke = false; /* the argument before was broken over lines: this one starts a line of its own */
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && !broke && s_goes_here(args, n, i, at, col, tail.len)) {
            at += 1;
            if (!dry) {
                s_put(w, " ", 1);
            }
        } else if (i > 0) {
            excess += at > S_LIMIT ? at - S_LIMIT : 0;
            lines++;
            at = col;
            if (!dry) {
                s_newline(w, col);
            }
        }
        /* An argument `A - B` (or `A + B`) that runs past the limit: broken after its operator, the rest four
           columns in from it (clang-format's excess penalty outweighs the break). */
        size_t op = at + (int)args[i].len + (i + 1 == n ? (int)tail.len : 0) > S_LIMIT ? s_last_sum(args[i]) : 0;
        if (op > 0) {
            int from = at;
            at += (int)op + 2;
            excess += at > S_LIMIT ? at - S_LIMIT : 0;
            lines++;
            if (!dry) {
                s_put(w, args[i].ptr, op + 2);
                s_newline(w, from + 4);
            }
            at = from + 4 + (int)(args[i].len - op - 3);
            if (!dry) {
                s_put(w, args[i].ptr + op + 3, args[i].len - op - 3);
            }
            broke = true;
            continue;
        }
        broke = false;
        at += (int)args[i].len;
        if (!dry) {
            s_put(w, args[i].ptr, args[i].len);
        }
    }
    at += (int)tail.len;
    excess += at > S_LIMIT ? at - S_LIMIT : 0;
    if (!dry) {
        s_put(w, tail.ptr, tail.len);
    }
    return lines + 1000 * excess;
}

/*
 * s_call_at's last try: the arguments after the '(' (s_args_loose) or on
 * the line after it, four columns in from the statement, whichever runs
 * less past the limit, as clang-format's penalty for each such column
 * outweighs any break. What s_args_loose counts (with the break's line).
 */
static int s_call_loose(struct s_wrap *w, const char *t, size_t open, const struct s_piece *args, size_t n,
                        struct s_piece tail, bool dry) {
    int col = w->col + (int)open + 1;
    int here = n > 1 ? s_args_loose(w, args, n, col, tail, true) : 0;
    int below = s_args_loose(w, args, n, w->indent + 4, tail, true) + 1;
    bool break_first = here == 0 || below < here;
    if (!dry) {
        s_put(w, t, open + 1);
        if (break_first) {
            s_newline(w, w->indent + 4);
        }
        s_args_loose(w, args, n, w->col, tail, false);
    }
    return break_first ? below : here;
}

/*
 * What clang-format's penalty charges the breaks of a list of `n` braced
 * lists laid out one a line (s_call_at), as s_penalty counts them: after
 * each entry but the last a break at the list's depth (41, the first 15
 * more), and when `below` one after the '{' before them (74: 19 for the
 * bracket and the 15 of a first, the bracket's breaks and its elements'
 * being two lists).
 */
static int s_list_breaks(int n, bool below) {
    return (below ? 74 : 0) + (n > 1 ? 56 + 41 * (n - 2) : 0);
}

/* What the breaks inside an entry laid out on `lines` lines cost (its elements packed after its '{', one list
 * deeper, as s_penalty counts them): 76 for the first (61 and the first's 15), 61 for each after it. */
static int s_entry_breaks(int lines) {
    return lines > 1 ? 76 + 61 * (lines - 2) : 0;
}

/*
 * The call (or braced list) whose bracket is t[open] and t[close]: its
 * arguments packed with continuation lines aligned after the bracket, or,
 * when that takes more lines, all of them on the lines after it, four
 * columns in from the statement. The lines it takes (0: not a shape it
 * handles, nothing written); `dry` writes nothing. Each argument stays on
 * one line, but for an entry of a list of braced lists too wide for its
 * line, packed inside its braces.
 */
static int s_call_at(struct s_wrap *w, const char *t, size_t len, size_t open, size_t close, bool dry) {
    struct s_piece args[S_PIECES];
    size_t n = s_split(t, open + 1, close, ",", args, S_PIECES);
    if (n == 0) {
        return 0;
    }
    /* Nothing around the call that clang-format would rather break at (other arguments, operators). */
    for (size_t i = 0; i + 1 < len; i = i + 1 == open ? close : i + 1) {
        if (t[i] == '"' || t[i] == '\'') {
            i = anvil__c_skip_literal(t, len, i) - 1;
            continue;
        }
        if (t[i] == ',' || t[i] == '?' || (t[i] == '&' && t[i + 1] == '&') || (t[i] == '|' && t[i + 1] == '|')) {
            return 0;
        }
    }
    size_t tail = len - close;
    int col = w->col + (int)open + 1;
    if (memchr(t, '\n', open) || memchr(t + close, '\n', tail)) {
        return 0; /* a split string outside this call: not this call to break */
    }
    if (memchr(t + open, '\n', close - open)) {
        return s_call_lines(w, t, open, args, n, (struct s_piece){t + close, tail}, col, dry);
    }
    if (t[open] == '{' && args[0].len > 0 && args[0].ptr[0] == '{') {
        /* A list of braced lists: all on the line after the '{' when they fit there and that takes fewer lines than
           one a line aligned after the '{'; else one a line, aligned after the '{' or four columns in on the lines
           after it, whichever clang-format's penalty chooses (s_list_breaks); an entry too wide for its line is
           packed inside its braces. */
        bool whole = true;
        for (size_t i = 0; i < n; i++) {
            whole = whole && col + (int)args[i].len + (i + 1 == n ? (int)tail : 0) <= S_LIMIT;
        }
        if (col > S_LIMIT) {
            return 0; /* the '{' itself past the limit: broken after the '=' instead (s_wrap_at) */
        }
        bool below = (n > 2 || !whole) && w->indent + 4 + (int)(len - open - 1) <= S_LIMIT;
        int aligned = 0, each = 1, aligned_cost = s_list_breaks((int)n, false), each_cost = s_list_breaks((int)n, true);
        for (size_t i = 0; i < n && !below; i++) {
            int here = s_entry_lines(args[i], col, i + 1 == n ? tail : 0);
            int four_in = s_entry_lines(args[i], w->indent + 4, i + 1 == n ? tail : 0);
            aligned = here && (i == 0 || aligned) ? aligned + here : 0;
            each = four_in && each ? each + four_in : 0;
            aligned_cost += s_entry_breaks(here);
            each_cost += s_entry_breaks(four_in);
        }
        bool each_below = !below && !whole && (aligned == 0 || (each > 0 && each_cost <= aligned_cost));
        int lines = below ? 2 : each_below ? each : aligned;
        if (lines == 0 && w->lenient && s_depth(t, open + 1, close) <= 9) {
            /* The last try, an entry wider than any line: one a line below the '{', as clang-format lays them
               out, that entry's elements each after the one before where it fits, else on a line of its own
               (s_entry). Its lines, and 1000 more for each column they run past the limit. (Not a nest ten
               deep, a search clang-format gives up, leaving the line as it is.) */
            struct anvil_buf scratch;
            anvil_buf_init(&scratch, NULL, 0);
            struct s_wrap loose = s_dry(w, &scratch);
            s_put(&loose, t, open + 1);
            for (size_t i = 0; i < n; i++) {
                s_newline(&loose, w->indent + 4);
                s_entry(&loose, args[i], i + 1 == n ? (struct s_piece){t + close, tail} : (struct s_piece){"", 0});
            }
            lines = loose.rc == ANVIL_OK ? s_lines_over(scratch.data, scratch.len, w->col) : 0;
            if (!dry && lines > 0) {
                s_put_text(w, &scratch);
            }
            anvil_buf_clean_up(&scratch);
            return lines;
        }
        if (lines == 0 || dry) {
            return lines;
        }
        s_put(w, t, open + 1);
        if (below) {
            s_newline(w, w->indent + 4);
            s_put(w, t + open + 1, len - open - 1);
            return lines;
        }
        for (size_t i = 0; i < n; i++) {
            if (i > 0 || each_below) {
                s_newline(w, each_below ? w->indent + 4 : col);
            }
            s_entry(w, args[i], i + 1 == n ? (struct s_piece){t + close, tail} : (struct s_piece){"", 0});
        }
        return lines;
    }
    if (col > S_LIMIT && w->fit_head) {
        return 0;
    }
    int aligned = col <= S_LIMIT && n > 1 ? s_pack_lines(args, n, col, col, tail) : 0;
    int after = s_pack_lines(args, n, w->indent + 4, w->indent + 4, tail) + 1;
    if (aligned == 0 && after == 1) {
        /* (Only a call's whose arguments hold no nest of calls: an `if (` is not broken after its parenthesis,
           and a deep nest is a search clang-format gives up, leaving the line as it is.) */
        bool call = ((open > 0 && anvil__c_ident_char(t[open - 1]) && t[open] == '(') ||
                     (open > 2 && memcmp(t + open - 2, "= {", 3) == 0)) &&
                    s_depth(t, open + 1, close) <= 1;
        return w->lenient && call && col <= S_LIMIT
                   ? s_call_loose(w, t, open, args, n, (struct s_piece){t + close, tail}, dry)
                   : 0;
    }
    /* (after 1: the arguments fit no line four columns in) */
    bool break_first = aligned == 0 || (after > 1 && after < aligned && !w->declaration);
    if (dry) {
        return break_first ? after : aligned;
    }
    s_put(w, t, open + 1);
    if (break_first) {
        s_newline(w, w->indent + 4);
    }
    /* Every argument fits where s_pack_lines() counted it, so s_pack() lays them out just so. */
    s_pack(w, args, n, break_first ? w->indent + 4 : col, (struct s_piece){t + close, tail});
    return break_first ? after : aligned;
}

static int s_wrap_call(struct s_wrap *w, const char *t, size_t len, char opener, bool dry);

/*
 * `f(g(h(a, b)))TAIL`, a call at the start of `t` whose one argument is a
 * call, and so on inward. Each '(' of that chain is a place to break, the
 * rest then laid out from the next line four columns in; or, at the first
 * call with two arguments or more, its arguments are broken (s_call_at)
 * with the calls around it kept on this line. The way that takes fewest
 * lines, a tie going to the outermost break, as clang-format prefers. The
 * lines it takes (0: not this shape); `dry` writes nothing.
 */
static int s_wrap_single(struct s_wrap *w, const char *t, size_t len, bool dry) {
    size_t open = s_name_end(t, 0, len);
    int best = 0;
    size_t best_open = 0;
    bool best_args = false; /* the best breaks the arguments of the call at best_open */
    for (int level = 0; open > 0 && open < len && t[open] == '('; level++) {
        size_t close = s_close_of(t, len, open);
        if (close == len) {
            return 0;
        }
        for (size_t i = close + 1; level == 0 && i < len; i++) {
            if (t[i] != ')' && t[i] != ';' && t[i] != ' ' && t[i] != '{') {
                return 0; /* the call is an operand: not all of the text */
            }
        }
        struct s_piece args[2];
        size_t n = s_split(t, open + 1, close, ",", args, 2);
        if (n != 1) {
            /* Two arguments or more: the first call's are for the other shapes; an inner call's broken here. */
            /* (Only where the text up to its '(' fits the line: else another break does better.) */
            int lines = level > 0 && w->col + (int)open + 1 <= S_LIMIT ? s_call_at(w, t, len, open, close, true) : 0;
            if (lines > 0 && (best == 0 || lines < best)) {
                best = lines, best_open = open, best_args = true;
            }
            break;
        }
        /* Broken after this '(': the rest whole on the next line, or laid out from there. */
        if (w->col + (int)open + 1 <= S_LIMIT && *w->trials > 0) {
            *w->trials -= 1; /* laying out the rest below, which may hold calls of one argument in turn */
            struct s_wrap below = {w->out,   w->indent + 4, w->indent + 4, w->declaration,
                                   ANVIL_OK, w->trials,     false,         w->lenient};
            size_t rest = len - open - 1;
            int lines = below.col + (int)rest <= S_LIMIT ? 1 : s_wrap_call(&below, t + open + 1, rest, '(', true);
            if (lines > 0 && (best == 0 || lines + 1 < best)) {
                best = lines + 1, best_open = open, best_args = false;
            }
        }
        /* Inward, when the argument is a call and all of it. */
        size_t inner = s_name_end(t, open + 1, close);
        if (inner == open + 1 || t[inner] != '(' || s_close_of(t, len, inner) != close - 1) {
            break;
        }
        open = inner;
    }
    if (best == 0 || dry) {
        return best;
    }
    if (best_args) {
        return s_call_at(w, t, len, best_open, s_close_of(t, len, best_open), false);
    }
    s_put(w, t, best_open + 1);
    s_newline(w, w->indent + 4);
    const char *rest = t + best_open + 1;
    size_t rest_len = len - best_open - 1;
    if (w->col + (int)rest_len <= S_LIMIT) {
        s_put(w, rest, rest_len);
        return best;
    }
    w->indent += 4;
    int lines = s_wrap_call(w, rest, rest_len, '(', false);
    w->indent -= 4;
    return lines > 0 ? best : 0;
}

/*
 * `HEAD(a, b, c)TAIL` (or `HEAD{a, b, c}TAIL`) broken at the arguments of
 * a call that holds no parentheses (a braced list's may be braced lists),
 * the first such call with two or more; failing that, at the arguments of
 * the outermost call, each kept whole. The lines it takes (0: not a shape
 * it handles, nothing written); `dry` writes nothing.
 */
static int s_wrap_call(struct s_wrap *w, const char *t, size_t len, char opener, bool dry) {
    int single = opener == '(' && !w->declaration && !memchr(t, '\n', len) ? s_wrap_single(w, t, len, dry) : 0;
    if (single > 0) {
        return single;
    }
    size_t outermost = len;
    for (size_t open = 0; open < len; open++) {
        if (t[open] == '"' || t[open] == '\'') {
            open = anvil__c_skip_literal(t, len, open) - 1;
            continue;
        }
        if (t[open] != opener) {
            continue;
        }
        size_t close = s_close_of(t, len, open);
        outermost = outermost == len ? open : outermost;
        /* A braced list may hold braced lists (`{{"a", 1}, {"b", 2}}`), each then one argument. */
        if (close == len || anvil__c_has(t, open + 1, close, '(') ||
            (opener == '(' && anvil__c_has(t, open + 1, close, '{'))) {
            continue;
        }
        struct s_piece args[S_PIECES];
        if (s_split(t, open + 1, close, ",", args, S_PIECES) < 2) {
            continue;
        }
        int lines = s_call_at(w, t, len, open, close, dry);
        if (lines > 0) {
            return lines;
        }
        break;
    }
    if (opener != '(' || outermost == len || w->declaration) {
        return 0; /* a function's head with no call to break: anvil__c_declaration moves its return type */
    }
    size_t close = s_close_of(t, len, outermost);
    return close < len && !anvil__c_has(t, outermost + 1, close, '{') ? s_call_at(w, t, len, outermost, close, dry) : 0;
}

/*
 * `COND ? A : B;` (what follows '='): `COND ? A` and `: B` under the '?'
 * when that fits, else the two branches on lines of their own, four
 * columns in. `dry` only says whether it fits.
 */
static bool s_wrap_ternary(struct s_wrap *w, const char *t, size_t len, bool dry) {
    struct s_piece q[2], c[2];
    if (s_split(t, 0, len, " ?", q, 2) != 2 || s_split(q[1].ptr, 0, q[1].len, " :", c, 2) != 2) {
        return false;
    }
    int col = w->col;
    /* The pieces keep their separator (" ?", " :"), which goes; each branch is written after "? " or ": ". */
    if (col + (int)q[0].len - 2 > S_LIMIT || col + 4 + (int)c[0].len > S_LIMIT || col + 6 + (int)c[1].len > S_LIMIT) {
        return false;
    }
    if (dry) {
        return true;
    }
    if (col + (int)q[0].len + (int)c[0].len - 2 <= S_LIMIT) {
        /* `COND ? A` fits: `: B` under the '?'. */
        s_put(w, q[0].ptr, q[0].len - 2);
        int question = w->col + 1;
        s_put(w, " ? ", 3);
        s_put(w, c[0].ptr, c[0].len - 2);
        s_newline(w, question);
        s_put(w, ": ", 2);
        s_put(w, c[1].ptr, c[1].len);
        return true;
    }
    s_put(w, q[0].ptr, q[0].len - 2);
    s_newline(w, col + 4);
    s_put(w, "? ", 2);
    s_put(w, c[0].ptr, c[0].len - 2);
    s_newline(w, col + 4);
    s_put(w, ": ", 2);
    s_put(w, c[1].ptr, c[1].len);
    return true;
}

/* Where s_wrap_chain_call breaks a call of one logical chain. */
enum s_chain_break {
    S_CHAIN_PACKED,     /* the chain's operands packed from the column after its '(' */
    S_CHAIN_AFTER_CALL, /* after the call's '(', the argument whole on the next line, four columns in */
    S_CHAIN_AFTER_NOT,  /* after the `!(` of a negated chain, the chain whole on the next line */
    S_CHAIN_NOT_BELOW,  /* after the `!(` of a negated chain (or of `!(a || b)` itself), its operands packed from the
                           next line, four columns in */
};

/*
 * `f(a && b && c)TAIL` or `f(!(a || b))TAIL`: a call whose one argument is a
 * chain of one logical operator, broken as `how` says. The head before the
 * '(' may also be an operator (`!(a || b)`, `c_or || (a && b)`). The lines it takes
 * (0: not this shape, or it does not fit); `dry` writes nothing.
 */
static int s_wrap_chain_call(struct s_wrap *w, const char *t, size_t len, enum s_chain_break how, bool dry) {
    const char *open = memchr(t, '(', len);
    if (!open || open == t) {
        return 0;
    }
    size_t first = (size_t)(open - t), close = s_close_of(t, len, first);
    if (close == len) {
        return 0;
    }
    for (size_t i = close + 1; i < len; i++) {
        if (t[i] != ')' && t[i] != ';') {
            return 0; /* `!(a && b) || c;`: the call is an operand of a chain around it, not all of the text */
        }
    }
    bool negated =
        close > first + 3 && t[first + 1] == '!' && t[first + 2] == '(' && s_close_of(t, len, first + 2) == close - 1;
    size_t from = first + (negated ? 3 : 1), to = negated ? close - 1 : close;
    struct s_piece ops[S_PIECES];
    size_t n = s_split_logical(t, from, to, ops, S_PIECES);
    bool not_group = first == 1 && t[0] == '!'; /* the right side `!(a || b)` itself */
    if (n < 2 || (how == S_CHAIN_AFTER_NOT && !negated) || (how == S_CHAIN_NOT_BELOW && !negated && !not_group) ||
        (how == S_CHAIN_AFTER_CALL && !anvil__c_ident_char(t[first - 1]))) {
        return 0; /* a break after '(' is a call's, not a group's (`c_or || (a && b)`) */
    }
    if (how == S_CHAIN_NOT_BELOW) {
        int below = w->indent + 4;
        int lines = w->col + (int)from <= S_LIMIT
                        ? s_pack_dry(w, below, ops, n, below, (struct s_piece){t + to, len - to}, NULL)
                        : 0;
        if (dry || lines == 0) {
            return lines ? lines + 1 : 0;
        }
        s_put(w, t, from);
        s_newline(w, below);
        return s_pack(w, ops, n, below, (struct s_piece){t + to, len - to}) ? lines + 1 : 0;
    }
    if (how != S_CHAIN_PACKED) {
        size_t cut = how == S_CHAIN_AFTER_CALL ? first + 1 : from;
        if (w->col + (int)cut > S_LIMIT || w->indent + 4 + (int)(len - cut) > S_LIMIT) {
            return 0;
        }
        if (!dry) {
            s_put(w, t, cut);
            s_newline(w, w->indent + 4);
            s_put(w, t + cut, len - cut);
        }
        return 2;
    }
    int col = w->col + (int)from;
    int lines = s_pack_dry(w, col, ops, n, col, (struct s_piece){t + to, len - to}, NULL);
    if (dry || lines == 0) {
        return lines;
    }
    s_put(w, t, from);
    return s_pack(w, ops, n, w->col, (struct s_piece){t + to, len - to}) ? lines : 0;
}

/*
 * `a && b && c;` or `(a || b);` (what follows '='): the chain's operands
 * packed from the column of the first. The lines it takes (0: not this
 * shape, or it does not fit); `dry` writes nothing.
 */
static int s_wrap_chain_rhs(struct s_wrap *w, const char *t, size_t len, bool dry) {
    if (len < 2 || t[len - 1] != ';') {
        return 0;
    }
    bool paren = t[0] == '(' && s_close_of(t, len, 0) == len - 2;
    size_t from = paren ? 1 : 0, to = paren ? len - 2 : len - 1;
    struct s_piece ops[S_PIECES];
    size_t n = s_split_logical(t, from, to, ops, S_PIECES);
    int col = w->col + (int)from;
    int lines = n > 1 ? s_pack_dry(w, col, ops, n, col, (struct s_piece){t + to, len - to}, NULL) : 0;
    if (dry || lines == 0) {
        return lines;
    }
    s_put(w, t, from);
    return s_pack(w, ops, n, w->col, (struct s_piece){t + to, len - to}) ? lines : 0;
}

/* `a < b` (or <=, >, >=, ==, !=, outside brackets) as the two pieces `a <` and `b`; 0 when there is no such one. */
static size_t s_split_comparison(const char *t, size_t len, struct s_piece *out) {
    int depth = 0;
    for (size_t i = 0; i + 2 < len; i++) {
        if (t[i] == '"' || t[i] == '\'') {
            i = anvil__c_skip_literal(t, len, i) - 1;
            continue;
        }
        depth += t[i] == '(' || t[i] == '[';
        depth -= t[i] == ')' || t[i] == ']';
        bool two = (t[i + 1] == '=' && (t[i] == '<' || t[i] == '>' || t[i] == '=' || t[i] == '!'));
        bool one = (t[i] == '<' || t[i] == '>') && t[i + 1] == ' ';
        size_t end = i + (two ? 2 : 1);
        if (depth == 0 && i > 0 && t[i - 1] == ' ' && (one || two) && end < len && t[end] == ' ') {
            out[0] = (struct s_piece){t, end};
            out[1] = (struct s_piece){t + end + 1, len - end - 1};
            return 2;
        }
    }
    return 0;
}

/* Whether `t` is one comparison (s_split_comparison's two pieces in `out`), not a chain of `&&` or `||` that holds
 * one. */
static bool s_comparison(const char *t, size_t len, struct s_piece *out) {
    return s_split_comparison(t, len, out) == 2 && s_split(t, 0, len, "&&", NULL, SIZE_MAX) == 1 &&
           s_split(t, 0, len, "||", NULL, SIZE_MAX) == 1;
}

static bool s_wrap_at(struct s_wrap *w, const char *t, size_t len);

/* `for (init; condition; step) {`: the three packed; a condition broken at its operators puts the step on a line of its
 * own. */
static bool s_wrap_for(struct s_wrap *w, const char *t, size_t len) {
    struct s_piece parts[3];
    if (s_split(t, 5, len - 3, ";", parts, 3) != 3) {
        return false;
    }
    s_put(w, "for (", 5);
    int align = w->col;
    bool forced = false;
    for (size_t i = 0; i < 3; i++) {
        const char *suffix = i == 2 ? ") {" : "";
        int width = (int)parts[i].len + (int)strlen(suffix);
        if (i > 0 && !forced && w->col + 1 + width <= S_LIMIT) {
            s_put(w, " ", 1);
        } else if (i > 0) {
            s_newline(w, align);
        }
        if (w->col + width <= S_LIMIT) {
            s_put(w, parts[i].ptr, parts[i].len);
            s_put(w, suffix, strlen(suffix));
            continue;
        }
        /* The part's own operators, its ';' kept after the last operand. */
        struct s_piece ops[S_PIECES];
        size_t own = parts[i].len - (i < 2);
        size_t n = s_split_logical(parts[i].ptr, 0, own, ops, S_PIECES);
        n = n ? n : s_split_comparison(parts[i].ptr, own, ops);
        if (n == 0 ||
            !s_pack(w, ops, n, w->col, i < 2 ? (struct s_piece){";", 1} : (struct s_piece){suffix, strlen(suffix)})) {
            return false;
        }
        forced = true;
    }
    return true;
}

static bool s_put_kept(struct s_wrap *w, struct s_kept *kept);

/*
 * s_compared_way's 'e': the arguments packed after the call's '(' as any
 * are, a label (s_label) too, with `)) != REST) {` after the last, from
 * column `col`. clang-format breaks after a label, at a weight of 50, where
 * keeping it with what follows costs two breaks elsewhere. False, with
 * nothing written, when an argument or the end does not fit so.
 */
static bool s_compared_plain(struct s_wrap *w, const char *t, size_t len, size_t open, size_t close,
                             const struct s_piece *args, size_t n, int col) {
    struct s_piece rest = {t + close, len - close};
    for (int pass = 0; pass < 2; pass++) {
        int at = col;
        if (pass == 1) {
            s_put(w, t, open + 1);
        }
        for (size_t i = 0; i < n; i++) {
            int width = (int)args[i].len + (i + 1 == n ? (int)rest.len : 0);
            bool here = i == 0 || at + 1 + width <= S_LIMIT;
            int start = i == 0 ? col : here ? at + 1 : col;
            if (start + width > S_LIMIT) {
                return false;
            }
            if (pass == 1 && i > 0) {
                if (here) {
                    s_put(w, " ", 1);
                } else {
                    s_newline(w, col);
                }
            }
            if (pass == 1) {
                s_put(w, args[i].ptr, args[i].len);
            }
            at = start + width;
        }
    }
    s_put(w, rest.ptr, rest.len);
    return true;
}

/*
 * Writes `if ((rc = f(ARGS)) != REST) {` (s_wrap_comparison: the call's
 * '(' at t[open], its ')' at t[close], the comparison at t[at]) broken as
 * `way` says: 'a' the arguments after the call's '('; 'b' the call on the
 * next line four columns in from `rc`, its arguments after its '('; 'c'
 * the arguments on the line after the call's '('; 'd' the call below and
 * its arguments on the line after it; 'e' as 'a', a label packed as any
 * argument is and REST after the last (s_compared_plain). REST follows the
 * last argument or goes on a line of its own. False, with nothing written,
 * when an argument does not fit so.
 */
static bool s_compared_way(struct s_wrap *w, const char *t, size_t len, size_t open, size_t close, size_t at,
                           const struct s_piece *args, size_t n, char way) {
    const size_t from = 10; /* `if ((rc = ` */
    int below = w->col + 5 + 4;
    int col = way == 'a' || way == 'e' ? w->col + (int)open + 1
              : way == 'b'             ? below + (int)(open - from) + 1
              : way == 'c'             ? below
                                       : below + 4;
    if (way == 'e') {
        return s_compared_plain(w, t, len, open, close, args, n, col);
    }
    struct s_piece closing = {t + close, at + 3 - close};
    /* (On the last try, an argument wider than any line: 'c', the arguments running past the limit as they must;
       not for a nest of calls ten deep, a search clang-format gives up, leaving the line as it is.) */
    bool loose = s_pack_lines(args, n, col, col, closing.len) == 0;
    if (loose) {
        /* (or a call among them broken inside, as s_pack breaks one too wide for a line of its own) */
        int inside = s_pack_dry(w, col, args, n, col, closing, NULL);
        loose = inside == 0 || inside >= 1000;
    }
    if (loose && (way != 'c' || !w->lenient || s_depth(t, open + 1, close) > 9)) {
        return false;
    }
    if (way == 'a' || way == 'c') {
        s_put(w, t, open + 1);
    } else {
        s_put(w, t, from - 1);
        s_newline(w, below);
        s_put(w, t + from, open + 1 - from);
    }
    if (way == 'c' || way == 'd') {
        s_newline(w, col);
    }
    if (loose) {
        s_args_loose(w, args, n, col, closing, false);
    } else {
        s_pack(w, args, n, col, closing);
    }
    if (w->col + 1 + (int)(len - at - 4) <= S_LIMIT) {
        s_put(w, " ", 1);
    } else {
        s_newline(w, w->indent + 4);
    }
    s_put(w, t + at + 4, len - at - 4);
    return true;
}

/*
 * `HEAD(ARGS) OP REST` (`call` as s_call_args gives it, `closing` the text
 * from the call's ')' to the operator, REST `rest`): the arguments packed
 * after the '(' with `closing` after the last, or with the last starting a
 * line of its own when `last_alone`, and REST after it or on the next line
 * at column `rest_col`. False when an argument does not fit so.
 */
static bool s_call_then_rest(struct s_wrap *w, const struct s_piece *call, size_t n, struct s_piece closing,
                             struct s_piece rest, int rest_col, bool last_alone) {
    const struct s_piece *args = call + 1;
    int align = w->col + (int)call[0].len;
    size_t packed = last_alone ? n - 1 : n;
    if (n <= (size_t)last_alone || align + (int)(args[n - 1].len + closing.len) > S_LIMIT ||
        s_pack_lines(args, packed, align, align, last_alone ? 0 : closing.len) == 0) {
        return false;
    }
    s_put(w, call[0].ptr, call[0].len);
    bool ok = s_pack(w, args, packed, align, last_alone ? (struct s_piece){"", 0} : closing);
    if (last_alone) {
        s_newline(w, align);
        s_put(w, args[n - 1].ptr, args[n - 1].len);
        s_put(w, closing.ptr, closing.len);
    }
    if (w->col + 1 + (int)rest.len <= S_LIMIT) {
        s_put(w, " ", 1);
    } else {
        s_newline(w, rest_col);
    }
    s_put(w, rest.ptr, rest.len);
    return ok;
}

/*
 * `if (f(ARGS) OP REST) {` (s_wrap_comparison: the blank before OP at t[at],
 * OP `op` long) whose `if (f(ARGS) OP` does not fit a line: the arguments
 * packed after the call's '(' with ` OP` after the last (or the last on a
 * line of its own) and REST after it or on the next line four columns in,
 * or the condition broken as a call is (s_wrap_call),
 * as clang-format's penalty chooses. False, with nothing written, when X is
 * no call or neither fits.
 */
static bool s_compared_call(struct s_wrap *w, const char *t, size_t len, size_t at, size_t op) {
    struct s_piece call[S_PIECES + 1];
    size_t n = s_call_args((struct s_piece){t + 4, at - 4}, call);
    if (n == 0 || call[n].ptr + call[n].len != t + at - 1) {
        return false; /* X is no call, or more follows its ')' */
    }
    call[0] = (struct s_piece){t, 4 + call[0].len}; /* `if (f(` */
    struct s_piece closing = {t + at - 1, op + 2}, rest = {t + at + op + 2, len - at - op - 2};
    struct s_kept best;
    anvil_buf_init(&best.text, NULL, 0);
    for (int way = 0; way < 3; way++) {
        struct anvil_buf scratch;
        anvil_buf_init(&scratch, NULL, 0);
        struct s_wrap dry = s_dry(w, &scratch);
        bool ok;
        if (way != 1) {
            ok = s_call_then_rest(&dry, call, n, closing, rest, w->indent + 4, way == 2);
        } else {
            dry.indent += 4;
            ok = s_wrap_call(&dry, t, len, '(', false) > 0;
        }
        if (ok && dry.rc == ANVIL_OK) {
            s_keep(&best, &scratch, w->col, 0);
        }
        anvil_buf_clean_up(&scratch);
    }
    return s_put_kept(w, &best);
}

/*
 * `if (X != Y) {` (or `==`, `<`, `<=`, `>`, `>=`), one comparison at the
 * top of the condition, when `if (X !=` fits: the rest on the next line
 * four columns in, which clang-format prefers to breaking inside X (`if
 * ((rc = f(...)) !=`). When it does not fit and X is `(rc = f(...))` and
 * the operator `!=` or `==`, the call is broken as below, and the rest
 * follows its arguments or goes on a line of its own.
 */
static bool s_wrap_comparison(struct s_wrap *w, const char *t, size_t len) {
    size_t at = 0, op = 0; /* the comparison's blank before its operator, the operator's length */
    int depth = 0;
    for (size_t i = 0; i + 3 < len; i++) {
        if (t[i] == '"' || t[i] == '\'') {
            i = anvil__c_skip_literal(t, len, i) - 1;
            continue;
        }
        depth += t[i] == '(';
        depth -= t[i] == ')';
        bool angle = t[i + 1] == '<' || t[i + 1] == '>';
        size_t width = 0; /* `== `, `!= `, `<= `, `>= ` 2, `< `, `> ` 1 */
        if (t[i] == ' ' && (angle || t[i + 1] == '!' || t[i + 1] == '=')) {
            width = t[i + 2] == '=' && t[i + 3] == ' ' ? 2 : angle && t[i + 2] == ' ' ? 1 : 0;
        }
        if (depth == 1 && width > 0) {
            if (at) {
                return false; /* two: not this shape */
            }
            at = i, op = width;
        }
    }
    if (!at || w->indent + 4 + (int)(len - at - op - 2) > S_LIMIT) {
        return false;
    }
    if (w->col + (int)at + (int)op + 1 > S_LIMIT) {
        if (at <= 10 || memcmp(t + 4, "(rc = ", 6) != 0) {
            return s_compared_call(w, t, len, at, op);
        }
        /* X is `(rc = f(a, b))`, its call's last ')' followed only by the ones closing X. */
        if (op != 2 || t[at + 1] == '<' || t[at + 1] == '>') {
            return false;
        }
        size_t from = 10;
        const char *call = memchr(t + from, '(', at - from);
        size_t open = call ? (size_t)(call - t) : 0;
        if (open <= from || !anvil__c_ident_char(t[open - 1]) || s_close_of(t, len, 3) != len - 3) {
            return false;
        }
        size_t close = s_close_of(t, len, open);
        if (close >= at) {
            return false;
        }
        for (size_t i = close; i < at; i++) {
            if (t[i] != ')') {
                return false;
            }
        }
        struct s_piece args[S_PIECES];
        size_t n = s_split(t, open + 1, close, ",", args, S_PIECES);
        /* A, B, C or, with a label among the arguments, E (s_compared_way) as clang-format's penalty (s_penalty)
           chooses, a tie to the first; when none fits, D (a name too long for even C). */
        bool labelled = false;
        for (size_t i = 0; i < n; i++) {
            labelled = labelled || s_label(args, n, i);
        }
        struct s_kept best; /* the way kept so far */
        anvil_buf_init(&best.text, NULL, 0);
        for (char way = 'a'; way <= 'e'; way++) {
            bool tried = way <= 'b'   ? n > 0
                         : way == 'c' ? w->col + (int)open + 1 <= S_LIMIT
                         : way == 'd' ? best.text.len == 0 && w->col + 9 + (int)(open - from) + 1 <= S_LIMIT
                                      : labelled;
            struct anvil_buf scratch;
            anvil_buf_init(&scratch, NULL, 0);
            struct s_wrap dry = s_dry(w, &scratch);
            if (tried && s_compared_way(&dry, t, len, open, close, at, args, n, way) && dry.rc == ANVIL_OK) {
                s_keep(&best, &scratch, w->col, 0);
            }
            anvil_buf_clean_up(&scratch);
        }
        return s_put_kept(w, &best);
    }
    s_put(w, t, at + op + 1);
    s_newline(w, w->indent + 4);
    s_put(w, t + at + op + 2, len - at - op - 2);
    return true;
}

/* The commas after t[i] up to the bracket that closes the one open there, outside literals and inner brackets. */
static int s_commas_after(const char *t, size_t len, size_t i) {
    int depth = 0, commas = 0;
    for (i++; i < len && depth >= 0; i++) {
        if (t[i] == '"' || t[i] == '\'') {
            i = anvil__c_skip_literal(t, len, i) - 1;
            continue;
        }
        depth += s_bracket(t[i]);
        commas += depth == 0 && t[i] == ',';
    }
    return commas;
}

/* 1 when text[i], not blank and outside a literal, starts a token (C's two-character operators one token). */
static int s_token_starts(const char *text, size_t i) {
    char c = text[i], before = i > 0 ? text[i - 1] : ' ';
    if (c == ' ') {
        return 0;
    }
    if (anvil__c_ident_char(c)) {
        return !anvil__c_ident_char(before);
    }
    static const char pairs[][3] = {"&&", "||", "==", "!=", "<=", ">=", "->", "++", "--", "<<", ">>"};
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        if (before == pairs[k][0] && c == pairs[k][1]) {
            return 0;
        }
    }
    return 1;
}

/*
 * clang-format's penalty for the breaks of a laid-out statement, `text`
 * (its lines joined by '\n', the first starting at column `col`): each break
 * costs 20 for each bracket open at it, plus one, and what breaking after
 * its last token costs (an operator by its precedence: `=` 2, `||` 4, `&&`
 * 5, `==` 9, `<` 10; `,` 1; `(` 19); the first break in each list of
 * operands (a bracket's arguments, one operator's chain inside one bracket)
 * costs 15 more, and each column past the limit far more than any break.
 * A break right after an opening bracket is a list of its own, apart from
 * the breaks between the arguments (clang-format's state for the bracket
 * and the one for the comma list inside it): breaking after `f(` and then
 * at a comma pays the 15 twice.
 * clang-format takes the layout of least penalty; the line breaker asks
 * this where its own rules leave layouts of a statement to choose from.
 * `lead` is the last character before `text` on its line (`=` where a
 * right side is laid out, 0 for none), so that a break before the first
 * token costs what a break after it does. `trace` gets the breaks, each as
 * the token it comes before and its cost (the columns past the limit of the
 * line it ends included).
 */
static int64_t s_penalty(const char *text, size_t len, int col, char lead, struct s_trace *trace) {
    enum { S_MAX_DEPTH = 64, S_MAX_LISTS = 128 };
    int64_t penalty = 0;
    int depth = 0, brackets = 0, lists = 0;
    int open[S_MAX_DEPTH] = {0};   /* the bracket open at each depth, by number */
    int commas[S_MAX_DEPTH] = {0}; /* the commas so far inside it */
    int seen[S_MAX_LISTS];         /* the lists broken so far: bracket number * 8 + operator kind */
    trace->n = 0, trace->tokens = 0;
    size_t label = 0; /* just past the last string literal that reads as a label (s_label), 0 for none */
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '"' || c == '\'') {
            size_t next = anvil__c_skip_literal(text, len, i);
            col += (int)(next - i);
            label = c == '"' && s_label_text(text + i, next - i) ? next : 0;
            i = next - 1;
            trace->tokens++;
            continue;
        }
        if (c != '\n') {
            trace->tokens += s_token_starts(text, i);
            int step = s_bracket(c);
            depth += step > 0 || depth > 0 ? step : 0;
            if (step > 0 && depth < S_MAX_DEPTH) {
                open[depth] = ++brackets, commas[depth] = 0;
            }
            commas[depth < S_MAX_DEPTH ? depth : 0] += c == ',';
            col++;
            continue;
        }
        int64_t cost = col > S_LIMIT ? INT64_C(1000000) * (col - S_LIMIT) : 0;
        col = 0;
        size_t end = i;
        while (end > 0 && text[end - 1] == ' ') {
            end--;
        }
        char last = end > 0 ? text[end - 1] : lead, before = end > 1 ? text[end - 2] : end > 0 ? lead : ' ';
        int after = 3, kind = 0;
        if (last == ',' || last == '(' || last == '{' || last == '[') {
            /* (After a label, unless its comma is its bracket's only one, 50.) */
            bool labelled = last == ',' && label > 0 && label + 1 == end &&
                            (depth < S_MAX_DEPTH ? commas[depth] : 0) + s_commas_after(text, len, i) >= 2;
            after = last != ',' ? 19 : labelled ? 50 : 1, kind = last != ',' ? 6 : 1;
        } else if (last == '=' && (before == '=' || before == '!' || before == '<' || before == '>')) {
            after = before == '=' || before == '!' ? 9 : 10, kind = 2;
        } else if (last == '=') {
            after = 2, kind = 3;
        } else if (last == '|' && before == '|') {
            after = 4, kind = 4;
        } else if (last == '&' && before == '&') {
            after = 5, kind = 5;
        } else if (last == '<' || last == '>') {
            after = 10, kind = 2;
        }
        cost += 20 * (int64_t)(depth + 1) + after;
        int list = (depth < S_MAX_DEPTH ? open[depth] : brackets) * 8 + kind;
        bool first = true;
        for (int k = 0; k < lists && first; k++) {
            first = seen[k] != list;
        }
        if (first) {
            cost += 15;
            if (lists < S_MAX_LISTS) {
                seen[lists++] = list;
            }
        }
        penalty += cost;
        if (trace->n >= 0 && trace->n < S_TRACE) {
            trace->at[trace->n] = trace->tokens, trace->cost[trace->n++] = cost;
        } else {
            trace->n = -1;
        }
    }
    return penalty + (col > S_LIMIT ? INT64_C(1000000) * (col - S_LIMIT) : 0);
}

/*
 * Whether clang-format's search, finding layouts `a` and `b` of one
 * statement at one penalty, completes `a` first. It expands the state of
 * least penalty so far, of those the one queued first, one token at a time;
 * where one layout breaks before a token and the other does not, the state
 * without the break is queued first. So the layouts advance in turn while
 * their penalties are equal, and the one with fewer tokens to place after
 * its last costly break wins. A layout not traced (too many breaks) loses.
 */
static bool s_met_first(const struct s_trace *a, const struct s_trace *b) {
    if (a->n < 0 || b->n < 0 || a->tokens != b->tokens) {
        return b->n < 0 && a->n >= 0;
    }
    const struct s_trace *t[2] = {a, b};
    int i = 0;
    while (i < a->n && i < b->n && a->at[i] == b->at[i]) {
        i++; /* (the same breaks of the same text cost the same) */
    }
    int next[2] = {i, i}, at[2];
    int64_t penalty[2] = {0, 0};
    unsigned queued[2], count = 2;
    int diverge = i < a->n && (i >= b->n || a->at[i] < b->at[i]) ? a->at[i] : i < b->n ? b->at[i] : a->tokens;
    for (int k = 0; k < 2; k++) {
        bool breaks = next[k] < t[k]->n && t[k]->at[next[k]] == diverge;
        penalty[k] += breaks ? t[k]->cost[next[k]++] : 0;
        queued[k] = breaks, at[k] = diverge;
    }
    for (;;) {
        int k = penalty[0] < penalty[1] || (penalty[0] == penalty[1] && queued[0] < queued[1]) ? 0 : 1;
        if (at[k] + 1 >= t[k]->tokens) {
            return k == 0;
        }
        at[k]++;
        if (next[k] < t[k]->n && t[k]->at[next[k]] == at[k]) {
            penalty[k] += t[k]->cost[next[k]++];
        }
        queued[k] = count++;
    }
}

/* The ways a right side that is a chain, or a call of one, is laid out after `LHS =` (s_chain_way). */
enum s_chain_way {
    S_WAY_AFTER_CALL,  /* `f(` on this line, the chain whole on the next */
    S_WAY_CALL_BELOW,  /* after a break after '=', the call's chain packed after its '(' */
    S_WAY_CALL_HERE,   /* on this line, the call's chain packed after its '(' */
    S_WAY_AFTER_NOT,   /* `!(` on this line, the chain whole on the next */
    S_WAY_NOT_BELOW,   /* `!(` on this line, the chain's operands packed from the next */
    S_WAY_CHAIN_BELOW, /* after a break after '=', the chain's operands packed (a group one of them) */
    S_WAY_CHAIN_HERE,  /* on this line, the chain's operands packed */
};

/* Writes the right side `rhs` after `LHS =` (w->col just past the '=', the statement at `col`) in the way `way`;
 * false when it does not fit so (having written part of it). */
static bool s_chain_way(struct s_wrap *w, const char *rhs, size_t rhs_len, int col, enum s_chain_way way) {
    if (way == S_WAY_CALL_BELOW || way == S_WAY_CHAIN_BELOW) {
        s_newline(w, col + 4);
    } else {
        s_put(w, " ", 1);
    }
    if (way == S_WAY_CHAIN_BELOW || way == S_WAY_CHAIN_HERE) {
        return s_wrap_chain_rhs(w, rhs, rhs_len, false) > 0;
    }
    enum s_chain_break how = way == S_WAY_AFTER_CALL  ? S_CHAIN_AFTER_CALL
                             : way == S_WAY_AFTER_NOT ? S_CHAIN_AFTER_NOT
                             : way == S_WAY_NOT_BELOW ? S_CHAIN_NOT_BELOW
                                                      : S_CHAIN_PACKED;
    return s_wrap_chain_call(w, rhs, rhs_len, how, false) > 0;
}

/* Writes `text`, a way laid out into a scratch buffer and kept, the column where it ends then w->col. */
static void s_put_text(struct s_wrap *w, const struct anvil_buf *text) {
    s_put(w, text->data, text->len);
    for (size_t i = text->len; i > 0; i--) {
        if (text->data[i - 1] == '\n') {
            w->col = (int)(text->len - i);
            break;
        }
    }
}

/* Writes the layout `kept` holds, as it was scored (not laid out again), and frees it; false when it holds none. */
static bool s_put_kept(struct s_wrap *w, struct s_kept *kept) {
    if (kept->text.len == 0) {
        return false;
    }
    s_put_text(w, &kept->text);
    anvil_buf_clean_up(&kept->text);
    return true;
}

/*
 * Writes the right side `rhs` of `LHS = RHS;` as a call (s_assign_call):
 * on this line, its continuation lines from `here_indent`, or, when
 * `below`, on the next line four columns in, there a comparison broken
 * after its operator when `at_operator` (its sides `sides`), or a subscript
 * on a line of its own when the call fits no way there (`below_fails`).
 * False when it does not fit.
 */
static bool s_assign_way(struct s_wrap *w, const char *rhs, size_t rhs_len, int col, int here_indent, bool at_operator,
                         const struct s_piece *sides, bool below, bool below_fails) {
    if (!below) {
        s_put(w, " ", 1);
        bool fit_head = w->fit_head;
        int indent = w->indent;
        w->fit_head = true;
        w->indent = here_indent;
        bool ok = s_wrap_call(w, rhs, rhs_len, '(', false) > 0;
        w->fit_head = fit_head;
        w->indent = indent;
        return ok;
    }
    s_newline(w, col + 4);
    if (at_operator) {
        s_put(w, sides[0].ptr, sides[0].len);
        s_newline(w, col + 4);
        s_put(w, sides[1].ptr, sides[1].len);
        return true;
    }
    if (below_fails && rhs_len > 2 && rhs[rhs_len - 2] == ']' && !anvil__c_has(rhs, 0, rhs_len, '(')) {
        /* `&items[i];`: the subscript on a line of its own, four columns further in. */
        const char *subscript = memchr(rhs, '[', rhs_len);
        size_t at = subscript ? (size_t)(subscript - rhs) : 0;
        if (at > 0 && col + 4 + (int)at <= S_LIMIT && col + 8 + (int)(rhs_len - at) <= S_LIMIT) {
            s_put(w, rhs, at);
            s_newline(w, col + 8);
            s_put(w, rhs + at, rhs_len - at);
            return true;
        }
    }
    w->indent += 4;
    return s_wrap_call(w, rhs, rhs_len, '(', false) > 0;
}

/*
 * The right side `rhs` of `LHS = RHS;` as a call (w->col just past the '=' at
 * t[eq], the statement at `col`): `LHS = f(` with its arguments aligned
 * after the parenthesis, or the call on the next line four columns in (a
 * comparison there broken after its operator when each side fits a line),
 * as clang-format's penalty (s_penalty) chooses when both fit; else the one
 * that does.
 */
static bool s_assign_call(struct s_wrap *w, const char *rhs, size_t rhs_len, int col, size_t eq) {
    struct s_wrap here = *w, below = *w;
    here.col += 1;
    here.fit_head = true; /* the break after '=' is there instead */
    struct s_piece sides[2];
    bool compared = s_comparison(rhs, rhs_len, sides);
    if (compared) {
        /* The right side a comparison: clang-format indents what follows a break inside it from where it starts
           (LastSpace at a binary expression after '='), not from the statement. */
        here.indent = col + (int)eq + 2;
    }
    below.col = col + 4;
    below.indent += 4;
    int same_line = s_wrap_call(&here, rhs, rhs_len, '(', true);
    int next_line = s_wrap_call(&below, rhs, rhs_len, '(', true);
    /* On the next line, a comparison whose sides each fit a line is broken after its operator, the right side
       aligned with the left (clang-format aligns the operands of a binary expression that starts a line, and a
       break there weighs less than one inside the call's parentheses). */
    bool at_operator =
        compared && next_line != 1 && col + 4 + (int)sides[0].len <= S_LIMIT && col + 4 + (int)sides[1].len <= S_LIMIT;
    next_line = at_operator ? 2 : next_line;
    if (same_line > 0 && next_line > 0) {
        struct s_kept best;
        anvil_buf_init(&best.text, NULL, 0);
        for (int way = 0; way < 2; way++) {
            struct anvil_buf scratch;
            anvil_buf_init(&scratch, NULL, 0);
            struct s_wrap dry = s_dry(w, &scratch);
            bool ok = s_assign_way(&dry, rhs, rhs_len, col, here.indent, at_operator, sides, way == 1, false);
            if (ok && dry.rc == ANVIL_OK) {
                s_keep(&best, &scratch, w->col, '=');
            }
            anvil_buf_clean_up(&scratch);
        }
        return s_put_kept(w, &best);
    }
    return s_assign_way(w, rhs, rhs_len, col, here.indent, at_operator, sides, same_line <= 0, next_line == 0);
}

/*
 * `LHS = RHS;` with its '=' at t[eq]: RHS after the '=' or on the next line
 * four columns in, broken again as its shape asks (a conditional, a call of
 * one chain, a chain, a call, a subscript); `split` when it holds a string
 * split over lines.
 */
static bool s_wrap_assignment(struct s_wrap *w, const char *t, size_t len, size_t eq, bool split) {
    int col = w->col;
    const char *rhs = t + eq + 2;
    size_t rhs_len = len - eq - 2;
    if (split) {
        /* A call holding a split string: after '=' if its pieces fit there, else on the next line. */
        struct s_wrap here = *w;
        here.col += (int)eq + 2;
        if (s_wrap_call(&here, rhs, rhs_len, '(', true) > 0) {
            s_put(w, t, eq + 2);
            return s_wrap_call(w, rhs, rhs_len, '(', false) > 0;
        }
        s_put(w, t, eq + 1);
        s_newline(w, col + 4);
        return s_wrap_call(w, rhs, rhs_len, '(', false) > 0;
    }
    size_t name = eq > 0 ? eq - 1 : 0;
    while (name > 0 && t[name - 1] != ' ') {
        name--;
    }
    if (col + (int)eq + 1 > S_LIMIT && name > 1 && col + (int)name - 1 <= S_LIMIT) {
        /* `TYPE NAME =` too wide for its line: the declarator (`*NAME = RHS;`) goes on the next, four columns in,
           laid out from there as a statement of its own. */
        s_put(w, t, name - 1);
        s_newline(w, col + 4);
        if (w->col + (int)(len - name) <= S_LIMIT) {
            s_put(w, t + name, len - name);
            return true;
        }
        int indent = w->indent;
        w->indent = col + 4;
        bool ok = s_wrap_assignment(w, t + name, len - name, eq - name, false);
        w->indent = indent;
        return ok;
    }
    if ((col + (int)eq + 1 <= S_LIMIT || w->lenient) && col + 4 + (int)rhs_len <= S_LIMIT) {
        s_put(w, t, eq + 1);
        s_newline(w, col + 4);
        return s_wrap_at(w, rhs, rhs_len);
    }
    /* A conditional right after '=' when its condition and branches fit there. */
    struct s_wrap after = *w;
    after.col += (int)eq + 2;
    if (s_wrap_ternary(&after, rhs, rhs_len, true)) {
        s_put(w, t, eq + 2);
        return s_wrap_ternary(w, rhs, rhs_len, false);
    }
    s_put(w, t, eq + 1);
    if (w->col > S_LIMIT && !w->lenient) {
        return false; /* (on the last try, a name wider than its line is left so) */
    }
    after.col = col + 4; /* the conditional on the next line */
    if (s_wrap_ternary(&after, rhs, rhs_len, true)) {
        s_newline(w, col + 4);
        return s_wrap_ternary(w, rhs, rhs_len, false);
    }
    /* A call of one logical chain (`f(a && b)`, `!(a || b)`), or a group after an operator (`c_or || (a && b)`),
       or a chain: on this line, after '=', or broken inside its parentheses, in the way of least penalty
       (s_penalty), as clang-format chooses. */
    const char *paren = memchr(rhs, '(', rhs_len);
    size_t head = paren ? (size_t)(paren - rhs) : 0;
    bool group = head > 1 && (rhs[head - 1] == ' ' || (rhs[head - 1] == '!' && rhs[head - 2] == ' '));
    struct s_kept best; /* the layout of least penalty so far */
    anvil_buf_init(&best.text, NULL, 0);
    static const enum s_chain_way ways[] = {S_WAY_AFTER_CALL, S_WAY_CALL_HERE,  S_WAY_AFTER_NOT,  S_WAY_NOT_BELOW,
                                            S_WAY_CALL_BELOW, S_WAY_CHAIN_HERE, S_WAY_CHAIN_BELOW};
    for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
        enum s_chain_way way = ways[i];
        if (way == S_WAY_CHAIN_HERE && !group && best.text.len > 0) {
            break; /* a chain as such only when the call of one is a group, or there is none */
        }
        struct anvil_buf scratch;
        anvil_buf_init(&scratch, NULL, 0);
        struct s_wrap dry = s_dry(w, &scratch);
        if (s_chain_way(&dry, rhs, rhs_len, col, way) && dry.rc == ANVIL_OK) {
            s_keep(&best, &scratch, w->col, '=');
        }
        anvil_buf_clean_up(&scratch);
    }
    if (s_put_kept(w, &best)) {
        return true;
    }
    /* A comparison whose left side and operator fit on this line, and its right side aligned under the left on
       the next; or whose left side is a call, its arguments packed after its '(' and the right side after them
       or aligned under the left; or the layouts of a call (s_assign_call): as clang-format's penalty chooses. */
    struct s_piece sides[2], call[S_PIECES + 1];
    int align = col + (int)eq + 2;
    bool compared = s_comparison(rhs, rhs_len, sides);
    bool whole = compared && align + (int)sides[0].len <= S_LIMIT && align + (int)sides[1].len <= S_LIMIT;
    /* (Or a left side that is a call, `f(ARGS) OP`: its arguments packed after its '(', OP after the last.) */
    size_t n = compared ? s_call_args(sides[0], call) : 0;
    const char *end = n > 0 ? call[n].ptr + call[n].len : NULL; /* the call's ')' */
    struct s_piece closing = {end, end ? (size_t)(sides[0].ptr + sides[0].len - end) : 0};
    bool called = n > 0 && closing.len > 2 && closing.ptr[1] == ' ' && !anvil__c_has(closing.ptr, 2, closing.len, ' ');
    if (whole || called) {
        for (int way = whole ? 0 : 1; way < (called ? 4 : 2); way++) {
            struct anvil_buf scratch;
            anvil_buf_init(&scratch, NULL, 0);
            struct s_wrap dry = s_dry(w, &scratch);
            bool ok = true;
            if (way == 0) {
                s_put(&dry, " ", 1);
                s_put(&dry, sides[0].ptr, sides[0].len);
                s_newline(&dry, align);
                s_put(&dry, sides[1].ptr, sides[1].len);
            } else if (way == 1) {
                ok = s_assign_call(&dry, rhs, rhs_len, col, eq);
            } else {
                s_put(&dry, " ", 1);
                ok = s_call_then_rest(&dry, call, n, closing, sides[1], align, way == 3);
            }
            if (ok && dry.rc == ANVIL_OK) {
                s_keep(&best, &scratch, w->col, '=');
            }
            anvil_buf_clean_up(&scratch);
        }
        return s_put_kept(w, &best);
    }
    return s_assign_call(w, rhs, rhs_len, col, eq);
}

/*
 * `TYPE NAME;` or `TYPE *NAME;` (words, blanks and '*' only) too wide for its
 * line: broken before the declarator, which goes four columns in; its '*'
 * stays on the first line where the declarator with it would run past the
 * limit there (clang-format takes the break of less excess). False for any
 * other statement.
 */
static bool s_wrap_declaration(struct s_wrap *w, const char *t, size_t len) {
    size_t name = 0; /* where the declarator starts: after the last blank */
    for (size_t i = 0; i + 1 < len; i++) {
        if (!anvil__c_ident_char(t[i]) && t[i] != ' ' && t[i] != '*') {
            return false;
        }
        name = t[i] == ' ' ? i + 1 : name;
    }
    if (len < 4 || t[len - 1] != ';' || name < 2 || name + 1 >= len || t[name - 2] == ' ' ||
        !anvil__c_ident_char(t[0]) || (name == 7 && memcmp(t, "return ", 7) == 0) ||
        (name == 5 && memcmp(t, "goto ", 5) == 0)) {
        return false; /* (`return x;` and `goto x;` clang-format leaves on their line) */
    }
    size_t stars = name + (t[name] == '*');
    if (t[stars] == '*') {
        return false; /* `**NAME`: clang-format breaks between the '*'s, a shape never generated */
    }
    int col = w->col;
    size_t cut = col + 4 + (int)(len - name) <= S_LIMIT ? name : stars;
    s_put(w, t, cut == name ? name - 1 : cut);
    s_newline(w, col + 4);
    s_put(w, t + cut, len - cut);
    return true;
}

/* `.member = VALUE,` (a designated initializer, VALUE a name or a number, perhaps followed by the braces it closes:
 * `.member = VALUE},`) too wide for its line: broken after the '=', VALUE four columns in, however wide, as
 * clang-format breaks it. False for any other line. */
static bool s_wrap_designator(struct s_wrap *w, const char *t, size_t len) {
    size_t eq = s_name_end(t, 1, len);
    if (len < 6 || t[0] != '.' || eq == 1 || t[len - 1] != ',' || eq + 3 >= len || memcmp(t + eq, " = ", 3) != 0) {
        return false;
    }
    size_t name_end = len - 1; /* the name, before the ',' and the braces it closes (a row's last member) */
    while (name_end > eq + 3 && t[name_end - 1] == '}') {
        name_end--;
    }
    for (size_t i = eq + 3; i < name_end; i++) {
        if (!anvil__c_ident_char(t[i]) && t[i] != '&' && t[i] != '.') {
            return false;
        }
    }
    int col = w->col;
    s_put(w, t, eq + 2);
    s_newline(w, col + 4);
    s_put(w, t + eq + 3, len - eq - 3);
    return true;
}

/*
 * A row of designated initializers, `{.a = X, .b = Y},` (a table's row), too
 * wide for its line: one member a line, aligned after the '{', each member
 * still too wide broken after its '=' (s_wrap_designator), as clang-format
 * lays it out. False for any other line.
 */
static bool s_wrap_row(struct s_wrap *w, const char *t, size_t len) {
    size_t close = len > 2 && t[0] == '{' && t[1] == '.' ? s_close_of(t, len, 0) : len;
    if (close == len || (close + 1 != len && (close + 2 != len || t[len - 1] != ','))) {
        return false;
    }
    struct s_piece members[S_PIECES];
    size_t n = s_split(t, 1, close, ",", members, S_PIECES);
    if (n == 0) {
        return false;
    }
    s_put(w, "{", 1);
    int col = w->col;
    for (size_t i = 0; i < n; i++) {
        if (i > 0) {
            s_newline(w, col);
        }
        /* The member with what follows it on its line: its ',' (in the piece), or the row's closing. */
        char buf[S_LIMIT * 4];
        const struct s_piece *m = &members[i];
        size_t tail = i + 1 == n ? len - close : 0;
        if (m->len + tail > sizeof buf) {
            return false;
        }
        memcpy(buf, m->ptr, m->len);
        memcpy(buf + m->len, t + close, tail);
        size_t whole = m->len + tail;
        if (w->col + (int)whole <= S_LIMIT) {
            s_put(w, buf, whole);
        } else if (!s_wrap_designator(w, buf, whole)) {
            return false;
        }
    }
    return true;
}

/* Breaks the line that starts at column w->col; false when its shape is not one handled here. */
static bool s_wrap_at(struct s_wrap *w, const char *t, size_t len) {
    /* A string split over lines (s_line) is laid out only as a call's argument. */
    bool split = memchr(t, '\n', len) != NULL;
    if (!split && w->col + (int)len <= S_LIMIT) {
        s_put(w, t, len);
        return true;
    }
    bool block = len > 3 && memcmp(t + len - 3, ") {", 3) == 0;
    if (block && len > 5 && memcmp(t, "for (", 5) == 0) {
        return !split && s_wrap_for(w, t, len);
    }
    if (block && len > 4 && memcmp(t, "if (", 4) == 0) {
        if (!split) {
            /* `if (a && b) {`, `if (!(a || b)) {` or `if ((a && b)) {`: the operands packed after the parenthesis. */
            struct s_piece ops[S_PIECES];
            bool negated = len > 9 && (memcmp(t, "if (!(", 6) == 0 || memcmp(t, "if ((", 5) == 0) &&
                           s_close_of(t, len, t[4] == '!' ? 5 : 4) == len - 4;
            size_t head = negated ? (t[4] == '!' ? 6 : 5) : 4;
            size_t n = s_split_logical(t, head, len - (negated ? 4 : 3), ops, S_PIECES);
            if (n > 1) {
                s_put(w, t, head);
                return s_pack(w, ops, n, w->col, negated ? (struct s_piece){")) {", 4} : (struct s_piece){") {", 3});
            }
            if (s_wrap_comparison(w, t, len)) {
                return true;
            }
        }
        /* A call broken after its '(' goes on eight columns in, not four: clang-format's continuation inside the
         * condition's own parenthesis; nine in `if ((rc = f(`, four from the assignment's left side. */
        size_t name = s_name_end(t, 5, len);
        int inner = t[4] == '(' && name > 5 && name + 3 < len && memcmp(t + name, " = ", 3) == 0 ? 5 : 4;
        size_t mark = w->out->len;
        int col = w->col;
        w->indent += inner;
        bool ok = s_wrap_call(w, t, len, '(', false) > 0;
        w->indent -= inner;
        if (ok || split || w->rc != ANVIL_OK) {
            return ok;
        }
        anvil_buf_truncate(w->out, mark); /* what the call's breaks wrote before they failed */
        w->col = col;
        /* None fits: a condition that is one call (`!f(x)`), broken after its '(', the argument four columns in
           from the condition. */
        struct s_piece cond = {t + 4, len - 7};
        if (s_pack_dry(w, w->col + 4, &cond, 1, w->col + 4, (struct s_piece){") {", 3}, NULL) == 0) {
            return false;
        }
        s_put(w, t, 4);
        return s_pack(w, &cond, 1, w->col, (struct s_piece){") {", 3});
    }
    if (!split && (s_wrap_designator(w, t, len) || s_wrap_row(w, t, len))) {
        return true;
    }
    /* `LHS = RHS;` */
    for (size_t i = 1; i + 1 < len && t[len - 1] == ';'; i++) {
        if (t[i] == '"' || t[i] == '\'') {
            i = anvil__c_skip_literal(t, len, i) - 1;
            continue;
        }
        size_t bracket = t[i] == '[' ? s_close_of(t, len, i) : len;
        if (bracket < len) {
            i = bracket; /* past an array's declarator, `keys[]` */
            continue;
        }
        if (t[i] == '(' || t[i] == '{') {
            break;
        }
        if (t[i] == '=' && t[i - 1] == ' ' && t[i + 1] == ' ') {
            /* A braced list after '=' (s_call_at, which writes nothing when it fails), else, as for any right
               side, broken after the '='. */
            return (t[i + 2] == '{' && s_wrap_call(w, t, len, '{', false) > 0) ||
                   s_wrap_assignment(w, t, len, i, split);
        }
    }
    return s_wrap_declaration(w, t, len) || s_wrap_call(w, t, len, '(', false) > 0;
}

/*
 * A statement holding a string split over lines (anvil__c_string: `"..."`, a
 * newline and blanks, `"..."`) with each break reduced to a bare '\n'
 * between the pieces, which s_wrap_at lays out again. False when a newline
 * stands anywhere else.
 */
static bool s_join_split(const char *text, size_t len, struct anvil_buf *out) {
    for (size_t i = 0; i < len;) {
        size_t end = i + 1;
        if (text[i] == '"' || text[i] == '\'') {
            end = anvil__c_skip_literal(text, len, i);
        } else if (text[i] == '\n') {
            return false;
        }
        if (anvil_buf_append(out, text + i, end - i) != ANVIL_OK) {
            return false;
        }
        i = end;
        if (text[end - 1] == '"' && end < len && text[end] == '\n') {
            size_t next = end + 1;
            while (next < len && text[next] == ' ') {
                next++;
            }
            if (next == len || text[next] != '"' || anvil_buf_append_byte(out, '\n') != ANVIL_OK) {
                return false;
            }
            i = next;
        }
    }
    return true;
}

/* Whether `a` is `b` with only blanks and line breaks added or taken away, and has no line of blanks alone: never
 * inside a string or character literal, and never where they part two names (or take the place of none there). */
static bool s_same_text(const char *a, size_t alen, const char *b, size_t blen) {
    size_t i = 0, j = 0;
    bool blank_line = false;  /* the line of `a` so far holds only blanks */
    char quote = 0, prev = 0; /* the literal being compared (its blanks are its text); the byte compared last */
    for (;;) {
        if (quote) {
            size_t n = j < blen && b[j] == '\\' ? 2 : 1; /* an escape and what it escapes */
            if (i + n > alen || j + n > blen || memcmp(a + i, b + j, n) != 0) {
                return false;
            }
            quote = n == 1 && b[j] == quote ? 0 : quote;
            i += n, j += n;
            continue;
        }
        size_t i0 = i, j0 = j;
        while (i < alen && (a[i] == ' ' || a[i] == '\n')) {
            if (a[i] == '\n' && blank_line) {
                return false;
            }
            blank_line = a[i] == '\n' ? true : blank_line;
            i++;
        }
        while (j < blen && (b[j] == ' ' || b[j] == '\n')) {
            j++;
        }
        if (i == alen || j == blen) {
            return i == alen && j == blen && !blank_line;
        }
        if (anvil__c_ident_char(prev) && anvil__c_ident_char(b[j]) && (i > i0) != (j > j0)) {
            return false;
        }
        if (a[i] != b[j]) {
            return false;
        }
        quote = b[j] == '"' || b[j] == '\'' ? b[j] : 0;
        prev = b[j];
        i++, j++;
        blank_line = false;
    }
}

static int s_line(struct anvil_buf *out, int indent, const char *text, size_t len, bool declaration) {
    struct anvil_buf wrapped, joined;
    anvil_buf_init(&wrapped, NULL, 0);
    anvil_buf_init(&joined, NULL, 0);
    int trials = S_TRIALS;
    struct s_wrap w = {&wrapped, indent, indent, declaration, ANVIL_OK, &trials, false, false};
    bool ok;
    if (memchr(text, '\n', len)) {
        ok = s_join_split(text, len, &joined) && s_wrap_at(&w, joined.data, joined.len);
    } else {
        ok = indent + (int)len > S_LIMIT && s_wrap_at(&w, text, len);
        /* (Not after a statement that used up its trials: a nest that deep is left on one line.) */
        if (!ok && w.rc == ANVIL_OK && indent + (int)len > S_LIMIT && trials > 0) {
            /* Nothing keeps it within the limit: again, letting a call's arguments run past it where they must. */
            anvil_buf_truncate(&wrapped, 0);
            trials = S_TRIALS;
            w = (struct s_wrap){&wrapped, indent, indent, declaration, ANVIL_OK, &trials, false, true};
            ok = s_wrap_at(&w, text, len);
        }
    }
    /* A layout holds exactly the statement's text, only blanks and line breaks added or taken away, and no line of
       blanks alone; else the statement is written on one line (a shape the breaker lays out wrongly loses no code). */
    if (ok && w.rc == ANVIL_OK) {
        ok = joined.len ? s_same_text(wrapped.data, wrapped.len, joined.data, joined.len)
                        : s_same_text(wrapped.data, wrapped.len, text, len);
    }
    anvil_buf_clean_up(&joined);
    int rc = ANVIL_OK;
    for (int i = 0; i < indent && rc == ANVIL_OK; i++) {
        rc = anvil_buf_append_byte(out, ' ');
    }
    if (rc == ANVIL_OK && (w.rc != ANVIL_OK || !ok)) {
        rc = w.rc != ANVIL_OK ? w.rc : anvil_buf_append(out, text, len);
    } else if (rc == ANVIL_OK) {
        rc = anvil_buf_append(out, wrapped.data, wrapped.len);
    }
    anvil_buf_clean_up(&wrapped);
    return rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
}

int anvil__c_line(struct anvil_buf *out, int indent, const char *text, size_t len) {
    return s_line(out, indent, text, len, false);
}

/* Whether a line written to `out` from `from` on runs past the limit. */
static bool s_wide(const struct anvil_buf *out, size_t from) {
    for (size_t i = from, col = 0; i < out->len; i++) {
        col = out->data[i] == '\n' ? 0 : col + 1;
        if (col > S_LIMIT) {
            return true;
        }
    }
    return false;
}

int anvil__c_declaration(struct anvil_buf *out, int indent, const char *text, size_t len) {
    const char *open = memchr(text, '(', len);
    size_t name = open ? (size_t)(open - text) : 0;
    while (name > 0 && anvil__c_ident_char(text[name - 1])) {
        name--;
    }
    size_t before = out->len;
    int rc = s_line(out, indent, text, len, true);
    if (rc != ANVIL_OK || !s_wide(out, before) || name == 0 || indent != 0) {
        return rc;
    }
    out->len = before;
    size_t type_end = name;
    while (type_end > 0 && text[type_end - 1] == ' ') {
        type_end--;
    }
    if (!memchr(text, ' ', type_end) && !memchr(text, '*', type_end)) {
        /* A return type of one token (`int`): clang-format never breaks after it, and lays the head out as it
           lays out a call (the parameters after a break after the '('). */
        return s_line(out, indent, text, len, false);
    }
    /* Nothing to break inside the parentheses: the return type on a line of its own, as clang-format does. Where
       the rest is still too wide, the head is laid out as a call is, the return type kept on its line if it then
       fits (one break after the '(' weighs less than that and a break after the type), else on its own line. */
    rc = anvil_buf_append(out, text, type_end);
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
    size_t rest = out->len;
    rc = rc == ANVIL_OK ? s_line(out, 0, text + name, len - name, true) : rc;
    if (rc != ANVIL_OK || !s_wide(out, rest)) {
        return rc;
    }
    out->len = before;
    rc = s_line(out, indent, text, len, false);
    if (rc != ANVIL_OK || !s_wide(out, before)) {
        return rc;
    }
    out->len = before;
    rc = anvil_buf_append(out, text, type_end);
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
    return rc == ANVIL_OK ? s_line(out, 0, text + name, len - name, false) : rc;
}
