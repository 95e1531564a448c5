#ifndef ANVIL_VALIDATE_H
#define ANVIL_VALIDATE_H

/**
 * Model validation, reported like Smithy's: events with a severity, the shape
 * they concern, a message and an event id, printed as
 * `[SEVERITY] shape-id: message | EventId`. The ids, severities and messages
 * follow the Smithy reference implementation, so tools and people that read
 * Smithy's output read anvil's.
 */

#include "anvil/buffer.h"
#include "anvil/model.h"

ANVIL_EXTERN_C_BEGIN

enum anvil_severity { ANVIL_SEVERITY_NOTE, ANVIL_SEVERITY_WARNING, ANVIL_SEVERITY_DANGER, ANVIL_SEVERITY_ERROR };

struct anvil_event {
    enum anvil_severity severity;
    /** The shape (or member, `ns#Shape$member`) the event is about. */
    struct anvil_str_view shape_id;
    /** NUL-terminated; owned by the event list. */
    const char *message;
    /** e.g. "PaginatedTrait" or "PaginatedTrait.WrongShapeType.inputToken". */
    const char *event_id;
};

struct anvil_events;

/**
 * Validates `model` and stores its events, sorted by shape id, then
 * severity (most severe first), then event id and message, in `*out` (free
 * with anvil_events_destroy()). Returns ANVIL_OK (whatever the events say)
 * or ANVIL_ENOMEM. Thread-safe.
 *
 * Rules implemented: unresolved member targets (`Target`, when the model was
 * loaded with allow_unresolved); every @paginated rule (`PaginatedTrait`),
 * including the service merge and its "When bound within the `svc` service, "
 * variants; and the @waitable rules (`WaitableTrait`, `TraitValue`,
 * `TraitTarget`, `UniqueWaiterNames`, `WaitableTraitInvalidErrorType`, and the
 * return type against the comparator, `WaitableTraitJmespathProblem.ReturnTypeMismatch`);
 * @requestCompression (`RequestCompressionTrait`); @idempotencyToken placement
 * (`TraitTarget`, `IdempotencyTokenIgnored`).
 */
ANVIL_API int anvil_model_validate(const struct anvil_model *model, struct anvil_allocator *allocator,
                                   struct anvil_events **out);

ANVIL_API void anvil_events_destroy(struct anvil_events *events);
ANVIL_API size_t anvil_events_count(const struct anvil_events *events);
ANVIL_API const struct anvil_event *anvil_events_at(const struct anvil_events *events, size_t index);

/** Number of events of `severity` or worse. */
ANVIL_API size_t anvil_events_count_at_least(const struct anvil_events *events, enum anvil_severity severity);

/**
 * The order anvil lists events in (anvil_model_validate(), anvil_model_assemble()):
 * by shape id, then the worse severity first, then event id, then message.
 * Negative, zero or positive, as strcmp().
 */
ANVIL_API int anvil_event_compare(const struct anvil_event *x, const struct anvil_event *y);

/** "ERROR", "DANGER", "WARNING" or "NOTE". */
ANVIL_API const char *anvil_severity_name(enum anvil_severity severity);

/**
 * Appends `[SEVERITY] shape-id: message | EventId` as one line (no newline;
 * `-` for the shape id of an event about no shape),
 * the model's text escaped as anvil_text_append_escaped() does.
 */
ANVIL_API int anvil_event_format(const struct anvil_event *event, struct anvil_buf *out);

ANVIL_EXTERN_C_END

#endif
