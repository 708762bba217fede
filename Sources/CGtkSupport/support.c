#include "ilotoki_gtk_support.h"

#include <fontconfig/fontconfig.h>
#include <glib-unix.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* libdispatch's hooks for run loops other than its own (CoreFoundation uses the same). On
 * Linux the handle is an eventfd that becomes readable when work is queued on the main queue. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

static gboolean drain_main_queue(gint fd, GIOCondition condition, gpointer data) {
    (void)condition;
    (void)data;
    uint64_t count;
    while (read(fd, &count, sizeof count) > 0) {
    }
    _dispatch_main_queue_callback_4CF(NULL);
    return G_SOURCE_CONTINUE;
}

void ilotoki_gtk_serve_main_queue(void) {
    static gboolean attached = FALSE;
    if (attached) return;
    attached = TRUE;
    g_unix_fd_add(_dispatch_get_main_queue_handle_4CF(), G_IO_IN, drain_main_queue, NULL);
    /* Work queued before the loop started would otherwise wait for the next poke. */
    _dispatch_main_queue_callback_4CF(NULL);
}

gulong ilotoki_gtk_connect(gpointer instance, const char *signal, GCallback callback, gpointer data,
                           GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, callback, data, destroy, 0);
}

bool ilotoki_gtk_add_fonts(const char *path) {
    struct stat info;
    if (stat(path, &info) != 0) return false;
    FcConfig *config = FcConfigGetCurrent();
    if (S_ISDIR(info.st_mode)) return FcConfigAppFontAddDir(config, (const FcChar8 *)path) == FcTrue;
    return FcConfigAppFontAddFile(config, (const FcChar8 *)path) == FcTrue;
}

bool ilotoki_gtk_has_font_family(const char *family) {
    FcPattern *pattern = FcPatternCreate();
    FcPatternAddString(pattern, FC_FAMILY, (const FcChar8 *)family);
    FcObjectSet *objects = FcObjectSetBuild(FC_FAMILY, (char *)NULL);
    FcFontSet *fonts = FcFontList(NULL, pattern, objects);
    const bool found = fonts != NULL && fonts->nfont > 0;
    if (fonts) FcFontSetDestroy(fonts);
    FcObjectSetDestroy(objects);
    FcPatternDestroy(pattern);
    return found;
}

void ilotoki_gtk_set_accessible_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
    gtk_widget_set_tooltip_text(widget, label);
}

void ilotoki_gtk_set_accessible_description(GtkWidget *widget, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

bool ilotoki_gtk_is_toggle_button(GtkWidget *widget) { return GTK_IS_TOGGLE_BUTTON(widget); }

void ilotoki_gtk_install_css(GtkCssProvider *provider) {
    gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(provider),
                                               GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

bool ilotoki_gtk_save_png(GtkWidget *widget, const char *path, char *error, size_t error_len) {
    const int width = gtk_widget_get_width(widget);
    const int height = gtk_widget_get_height(widget);
    if (width <= 0 || height <= 0) {
        g_strlcpy(error, "the widget has no size yet", error_len);
        return false;
    }
    GdkPaintable *paintable = gtk_widget_paintable_new(widget);
    GtkSnapshot *snapshot = gtk_snapshot_new();
    gdk_paintable_snapshot(paintable, GDK_SNAPSHOT(snapshot), width, height);
    GskRenderNode *node = gtk_snapshot_free_to_node(snapshot);
    bool saved = false;
    if (node != NULL) {
        GskRenderer *renderer = gtk_native_get_renderer(gtk_widget_get_native(widget));
        GdkTexture *texture = gsk_renderer_render_texture(renderer, node, &GRAPHENE_RECT_INIT(0, 0, width, height));
        saved = gdk_texture_save_to_png(texture, path);
        if (!saved) g_strlcpy(error, "could not write the PNG file", error_len);
        g_object_unref(texture);
        gsk_render_node_unref(node);
    } else {
        g_strlcpy(error, "nothing was drawn", error_len);
    }
    g_object_unref(paintable);
    return saved;
}

void ilotoki_gtk_add_shortcut(GtkWidget *widget, const char *trigger, gboolean before_focus, GtkShortcutFunc callback,
                              gpointer data, GDestroyNotify destroy) {
    GtkEventController *controller = gtk_shortcut_controller_new();
    gtk_shortcut_controller_set_scope(GTK_SHORTCUT_CONTROLLER(controller), GTK_SHORTCUT_SCOPE_GLOBAL);
    if (before_focus) gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE);
    GtkShortcut *shortcut =
        gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger), gtk_callback_action_new(callback, data, destroy));
    gtk_shortcut_controller_add_shortcut(GTK_SHORTCUT_CONTROLLER(controller), shortcut);
    gtk_widget_add_controller(widget, controller);
}

static gboolean quit_application(gpointer application) {
    g_application_quit(G_APPLICATION(application));
    return G_SOURCE_CONTINUE;
}

void ilotoki_gtk_quit_on_signals(GApplication *application) {
    const int signals[] = {SIGTERM, SIGINT, SIGHUP};
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < G_N_ELEMENTS(signals); i++) {
        sigaddset(&set, signals[i]);
        g_unix_signal_add(signals[i], quit_application, application);
    }
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

typedef struct {
    IlotokiCommandLineHandler handler;
    void *data;
} CommandLineHandler;

static int on_command_line(GApplication *application, GApplicationCommandLine *command_line, gpointer user_data) {
    (void)application;
    CommandLineHandler *handler = user_data;
    int argc = 0;
    char **argv = g_application_command_line_get_arguments(command_line, &argc);
    int status = handler->handler(argc, argv, handler->data);
    g_strfreev(argv);
    return status;
}

static void free_handler(gpointer data, GClosure *closure) {
    (void)closure;
    g_free(data);
}

void ilotoki_gtk_on_command_line(GApplication *application, IlotokiCommandLineHandler handler, void *data) {
    CommandLineHandler *held = g_new(CommandLineHandler, 1);
    held->handler = handler;
    held->data = data;
    g_signal_connect_data(application, "command-line", G_CALLBACK(on_command_line), held, free_handler, 0);
}

typedef struct {
    IlotokiTextHandler done;
    void *data;
} TextRead;

static void selection_read(GObject *source, GAsyncResult *result, gpointer user_data) {
    TextRead *read = user_data;
    char *text = gdk_clipboard_read_text_finish(GDK_CLIPBOARD(source), result, NULL);
    read->done(text, read->data);
    g_free(text);
    g_free(read);
}

void ilotoki_gtk_read_primary_selection(IlotokiTextHandler done, void *data) {
    GdkDisplay *display = gdk_display_get_default();
    if (display == NULL) {
        done(NULL, data);
        return;
    }
    TextRead *read = g_new(TextRead, 1);
    read->done = done;
    read->data = data;
    gdk_clipboard_read_text_async(gdk_display_get_primary_clipboard(display), NULL, selection_read, read);
}
