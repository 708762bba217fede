/*
 * ilotoki_line_editor.h — line editing for the interactive `ilotoki` session, over libedit
 * (the library shells use): arrow keys, Ctrl-A/E, recall of earlier lines within the
 * session, Ctrl-C to drop the line being typed.
 *
 * libedit is configured through variadic calls, which Swift cannot make; this small C layer
 * makes them and offers a plain API. One editor reads standard input and writes standard
 * output; it must be used from one thread at a time.
 */
#ifndef ILOTOKI_LINE_EDITOR_H
#define ILOTOKI_LINE_EDITOR_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ilotoki_line_editor ilotoki_line_editor;

/** What `ilotoki_line_editor_read` gave. */
typedef enum ilotoki_line_status {
    /** A line was entered. */
    ILOTOKI_LINE_ENTERED = 0,
    /** The input ended (Ctrl-D on an empty line, or end of file). */
    ILOTOKI_LINE_END = 1,
    /** Ctrl-C: the line being typed was dropped; ask again. */
    ILOTOKI_LINE_CANCELLED = 2,
} ilotoki_line_status;

/** Opens an editor on standard input and output; NULL if libedit cannot start. Free with `close`. */
ilotoki_line_editor *ilotoki_line_editor_open(const char *program);

/** Sets the prompt shown before each line (copied). */
void ilotoki_line_editor_set_prompt(ilotoki_line_editor *editor, const char *prompt);

/**
 * Reads one line, letting the user edit it.
 * - Parameters:
 *   - line, length: receive the line without its newline (not NUL-terminated, owned by the
 *     editor until the next call) with `ILOTOKI_LINE_ENTERED`.
 */
ilotoki_line_status ilotoki_line_editor_read(ilotoki_line_editor *editor, const char **line, int *length);

/** Adds a line to the session's history, so the up arrow brings it back. */
void ilotoki_line_editor_remember(ilotoki_line_editor *editor, const char *line);

/** Restores the terminal and releases the editor. NULL is ignored. */
void ilotoki_line_editor_close(ilotoki_line_editor *editor);

#ifdef __cplusplus
}
#endif

#endif /* ILOTOKI_LINE_EDITOR_H */
