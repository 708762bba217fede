#include "ilotoki_line_editor.h"

#include <histedit.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ilotoki_line_editor {
    EditLine *edit;
    History *history;
    HistEvent event;
    char *prompt;
    int cancelled;
};

static char *prompt_of(EditLine *edit) {
    ilotoki_line_editor *editor = NULL;
    el_get(edit, EL_CLIENTDATA, &editor);
    return editor != NULL && editor->prompt != NULL ? editor->prompt : "";
}

/* Bound to Ctrl-C while a line is edited: ends the read, and the line is dropped. */
static unsigned char cancel_line(EditLine *edit, int character) {
    (void)character;
    ilotoki_line_editor *editor = NULL;
    el_get(edit, EL_CLIENTDATA, &editor);
    if (editor != NULL) editor->cancelled = 1;
    return CC_NEWLINE;
}

/* libedit decodes what is typed (and the prompt) with the C library's multibyte functions,
 * which read UTF-8 only under a UTF-8 LC_CTYPE. Toki Pona may be Latin, but Russian and
 * Vietnamese are not: take the user's locale, or C.UTF-8 where that is not UTF-8. */
static void use_utf8_characters(void) {
    const char *chosen = setlocale(LC_CTYPE, "");
    const char *codeset = chosen != NULL ? nl_langinfo(CODESET) : NULL;
    if (codeset == NULL || strcmp(codeset, "UTF-8") != 0) {
        if (setlocale(LC_CTYPE, "C.UTF-8") == NULL) setlocale(LC_CTYPE, "en_US.UTF-8");
    }
}

ilotoki_line_editor *ilotoki_line_editor_open(const char *program) {
    use_utf8_characters();
    ilotoki_line_editor *editor = calloc(1, sizeof *editor);
    if (editor == NULL) return NULL;
    editor->edit = el_init(program != NULL ? program : "ilotoki", stdin, stdout, stderr);
    editor->history = history_init();
    if (editor->edit == NULL || editor->history == NULL) {
        ilotoki_line_editor_close(editor);
        return NULL;
    }
    history(editor->history, &editor->event, H_SETSIZE, 500);
    history(editor->history, &editor->event, H_SETUNIQUE, 1);
    el_set(editor->edit, EL_CLIENTDATA, editor);
    el_set(editor->edit, EL_PROMPT, prompt_of);
    el_set(editor->edit, EL_EDITOR, "emacs");
    el_set(editor->edit, EL_HIST, history, editor->history);
    /* While a line is edited, Ctrl-C is a key (not SIGINT) that drops the line; during a
     * translation the terminal is back in its usual mode and Ctrl-C stops the translation. */
    el_set(editor->edit, EL_SETTY, "-d", "-isig", NULL);
    el_set(editor->edit, EL_ADDFN, "ilotoki-cancel-line", "Drop the line being typed", cancel_line);
    el_set(editor->edit, EL_BIND, "^C", "ilotoki-cancel-line", NULL);
    /* The user's own ~/.editrc, as every libedit program reads it. */
    el_source(editor->edit, NULL);
    return editor;
}

void ilotoki_line_editor_set_prompt(ilotoki_line_editor *editor, const char *prompt) {
    if (editor == NULL) return;
    free(editor->prompt);
    editor->prompt = prompt != NULL ? strdup(prompt) : NULL;
}

ilotoki_line_status ilotoki_line_editor_read(ilotoki_line_editor *editor, const char **line, int *length) {
    if (line != NULL) *line = NULL;
    if (length != NULL) *length = 0;
    if (editor == NULL) return ILOTOKI_LINE_END;
    editor->cancelled = 0;
    int count = 0;
    const char *text = el_gets(editor->edit, &count);
    if (editor->cancelled) return ILOTOKI_LINE_CANCELLED;
    if (text == NULL || count <= 0) return ILOTOKI_LINE_END;
    while (count > 0 && (text[count - 1] == '\n' || text[count - 1] == '\r')) count -= 1;
    if (line != NULL) *line = text;
    if (length != NULL) *length = count;
    return ILOTOKI_LINE_ENTERED;
}

void ilotoki_line_editor_remember(ilotoki_line_editor *editor, const char *line) {
    if (editor == NULL || line == NULL || line[0] == '\0') return;
    history(editor->history, &editor->event, H_ENTER, line);
}

void ilotoki_line_editor_close(ilotoki_line_editor *editor) {
    if (editor == NULL) return;
    if (editor->edit != NULL) el_end(editor->edit);
    if (editor->history != NULL) history_end(editor->history);
    free(editor->prompt);
    free(editor);
}
