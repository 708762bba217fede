// Serving Swift's main queue (where the main actor runs) from a thread that Java owns.
//
// libdispatch binds its main queue to the thread that loaded it: in an Android app, the UI
// thread that ran System.loadLibrary. Only that thread may drain it. On Android its Looper
// does (ilotoki_main_queue_serve_from_looper); on a desktop JVM, which has no Looper, a
// thread that loaded the library runs ilotoki_main_queue_run until told to stop.
#pragma once

#include <stdbool.h>

/// Runs what is waiting on the main queue. Only on the thread that loaded the library.
void ilotoki_main_queue_drain(void);

/// Waits up to `milliseconds` for work on the main queue and runs it. Only on the thread
/// that loaded the library. Returns false if the queue's handle cannot be polled.
bool ilotoki_main_queue_wait_and_drain(int milliseconds);

/// Drains the main queue whenever work arrives, from the calling thread's Android Looper.
/// Returns false where there is no Looper on this thread (or not on Android).
bool ilotoki_main_queue_serve_from_looper(void);

/// Serves the main queue on the calling thread until ilotoki_main_queue_stop.
void ilotoki_main_queue_run(void);

/// Makes ilotoki_main_queue_run return.
void ilotoki_main_queue_stop(void);
