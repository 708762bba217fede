#include <gtk/gtk.h>
#include <fontconfig/fontconfig.h>
