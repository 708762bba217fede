/*
 * ilotoki_gtk_support.h — the few things Swift cannot do with GTK directly: C macros and
 * variadic functions, the dispatch main queue inside GLib's loop, application fonts.
 */
#ifndef ILOTOKI_GTK_SUPPORT_H
#define ILOTOKI_GTK_SUPPORT_H

#include <gtk/gtk.h>
#include <stdbool.h>

/** Serves the dispatch main queue (where Swift's main actor runs) from GLib's main loop, so
 *  async work reaches the screen while GTK runs. Call once, before the loop starts. */
void ilotoki_gtk_serve_main_queue(void);

/** g_signal_connect, which is a macro. `destroy` releases `data` when the handler goes. */
gulong ilotoki_gtk_connect(gpointer instance, const char *signal, GCallback callback, gpointer data,
                           GClosureNotify destroy);

/** Adds a font file (or every font in a directory) for this process. Must run before GTK
 *  creates its font map (before the first widget). Returns false if fontconfig refused it. */
bool ilotoki_gtk_add_fonts(const char *path);

/** Whether fontconfig knows a font family with this name. */
bool ilotoki_gtk_has_font_family(const char *family);

/** Sets the name a screen reader says for a widget (icon-only buttons). */
void ilotoki_gtk_set_accessible_label(GtkWidget *widget, const char *label);

/// Sets what a screen reader says after a control's name: its state (the language chosen).
void ilotoki_gtk_set_accessible_description(GtkWidget *widget, const char *description);

/// Whether the widget is a GtkToggleButton (the button inside a GtkDropDown).
bool ilotoki_gtk_is_toggle_button(GtkWidget *widget);

/** Installs CSS for the whole display at application priority. */
void ilotoki_gtk_install_css(GtkCssProvider *provider);

/** Renders `widget` (realised, in a window) to a PNG file. */
bool ilotoki_gtk_save_png(GtkWidget *widget, const char *path, char *error, size_t error_len);

/**
 * Adds a keyboard shortcut (e.g. "<Control>Return") that activates `callback(widget, data)`.
 * With `before_focus` it runs before the focused widget sees the key (a text view would
 * otherwise take Ctrl+Return as a new line).
 */
void ilotoki_gtk_add_shortcut(GtkWidget *widget, const char *trigger, gboolean before_focus, GtkShortcutFunc callback,
                              gpointer data, GDestroyNotify destroy);

/**
 * Ends `application`'s loop cleanly on SIGTERM, SIGINT or SIGHUP, even where the parent left
 * those signals blocked.
 */
void ilotoki_gtk_quit_on_signals(GApplication *application);

/** Handles one start's arguments (argv[0] first): the first start's own, and in a unique
 *  application every later start's, sent over D-Bus to the running one. Returns the exit
 *  status that start ends with. */
typedef int (*IlotokiCommandLineHandler)(int argc, char **argv, void *data);

/** Connects "command-line" of `application` (which has G_APPLICATION_HANDLES_COMMAND_LINE). */
void ilotoki_gtk_on_command_line(GApplication *application, IlotokiCommandLineHandler handler, void *data);

/** Receives the text read from a selection, or NULL when it held none. */
typedef void (*IlotokiTextHandler)(const char *text, void *data);

/** Reads the text of the primary selection (what is highlighted, in any app) and hands it to
 *  `done` on the main loop. */
void ilotoki_gtk_read_primary_selection(IlotokiTextHandler done, void *data);

#endif
