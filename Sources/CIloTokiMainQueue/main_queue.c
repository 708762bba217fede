#include "ilotoki_main_queue.h"

#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stddef.h>

#if defined(__ANDROID__)
#include <android/looper.h>
#endif

/* libdispatch's hooks for run loops other than its own (CoreFoundation uses the same). */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

static atomic_bool stop_requested;

void ilotoki_main_queue_drain(void) { _dispatch_main_queue_callback_4CF(NULL); }

bool ilotoki_main_queue_wait_and_drain(int milliseconds) {
    struct pollfd fd = {.fd = _dispatch_get_main_queue_handle_4CF(), .events = POLLIN, .revents = 0};
    if (fd.fd < 0) return false;
    int ready = poll(&fd, 1, milliseconds);
    if (ready < 0 && errno != EINTR) return false;
    ilotoki_main_queue_drain();
    return true;
}

#if defined(__ANDROID__)
static int on_looper_event(int fd, int events, void *data) {
    (void)fd;
    (void)events;
    (void)data;
    ilotoki_main_queue_drain();
    return 1; /* keep the callback registered */
}
#endif

bool ilotoki_main_queue_serve_from_looper(void) {
#if defined(__ANDROID__)
    ALooper *looper = ALooper_forThread();
    if (looper == NULL) return false;
    int fd = _dispatch_get_main_queue_handle_4CF();
    if (fd < 0) return false;
    return ALooper_addFd(looper, fd, ALOOPER_POLL_CALLBACK, ALOOPER_EVENT_INPUT, on_looper_event, NULL) == 1;
#else
    return false;
#endif
}

void ilotoki_main_queue_run(void) {
    atomic_store(&stop_requested, false);
    while (!atomic_load(&stop_requested)) {
        if (!ilotoki_main_queue_wait_and_drain(50)) break;
    }
}

void ilotoki_main_queue_stop(void) { atomic_store(&stop_requested, true); }
