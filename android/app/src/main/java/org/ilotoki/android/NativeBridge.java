package org.ilotoki.android;

/**
 * The Swift core of ilo toki (libIloTokiJNI.so), seen from Java: a handful of coarse calls.
 *
 * <p>The screen is Core's: {@link #screen} returns the values of a place as JSON (the same
 * values the Apple and Linux apps draw), {@link #perform} sends an action, and the listener
 * hears of every change and every streamed piece of a translation, always on one thread the
 * bridge attached. Wrong use raises an exception (IllegalStateException for a closed or unknown
 * handle, IllegalArgumentException for an unknown action or argument, NullPointerException for
 * a missing one, {@link Failure} with Core's message for what the app itself refuses); nothing
 * crashes the VM.
 *
 * <p>Threads: Swift's main queue (where the app model lives) belongs to the thread that loaded
 * the library. Load it on the UI thread: its Looper then serves the queue, and calls may come
 * from any thread. A JVM without a Looper (the test harness) calls {@link #runMainQueue} on the
 * loading thread instead.
 *
 * <p>This file is compiled both by the Android app and by the Linux test harness.
 */
public final class NativeBridge {
    private NativeBridge() {}

    /** What the app itself refuses (a file that is not a model, a store that cannot be written…). */
    public static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Failure(String message) {
            super(message);
        }
    }

    /** Called on the bridge's own thread, never on the caller's. */
    public interface Listener {
        /** Something a screen shows has changed: read the places on screen again. */
        void onStateChanged();

        /** The translation grew by this text (streamed token by token). */
        void onPiece(String piece);
    }

    public static final String LIBRARY = "IloTokiJNI";

    /** "ilo toki 0.1.0". */
    public static native String version();

    /**
     * Opens the store in a directory (created if missing) and loads its model in the background.
     *
     * @param language the interface language: "en", "ru", "vi" or "tok"
     * @param fontFamilies the font families the app can draw with (its bundled fonts)
     * @return the handle for the other calls
     */
    public static native long open(String home, String language, String[] fontFamilies, Listener listener);

    /**
     * The values of a place as JSON: a {@code Place}'s name from Contract.kt ("main", "models",
     * "history", "settings" or "about"); the history's filter is the model's
     * ({@code filterHistory}).
     */
    public static native String screen(long handle, String place);

    /** Every UI string in the store's language, keyed by name, as JSON. */
    public static native String strings(long handle);

    /**
     * Does an action, given as the JSON of Core's {@code Action} ({@code {"use": {"id": "…"}}};
     * the Kotlin types in Contract.kt write it). Returns at once, also for actions whose work
     * takes long (use, delete, importModel): that work goes on, and the listener hears of its
     * progress and end.
     *
     * @return the JSON of Core's {@code ActionOutcome}: {@code {"done": {}}}, {@code {"copy":
     *     {"text"}}}, {@code {"showLicence": {"_0": {"entry", "name", "summary", "url"}}}} (show
     *     it, then perform acceptLicence with the entry's id), {@code {"failed": {"reason"}}} or
     *     {@code {"showMain": {}}}
     */
    public static native String perform(long handle, String action);

    /** Whether the system asks for a dark look now (night mode): the "system" theme follows it. */
    public static native void setSystemPrefersDark(long handle, boolean dark);

    /**
     * Whether the device is short of memory (the system's {@code onTrimMemory}): the engine then
     * keeps less of the model in memory, with the same translations.
     */
    public static native void setShortOfMemory(long handle, boolean shortOfMemory);

    /** Stops what runs, writes what is pending, ends the listener's thread. */
    public static native void close(long handle);

    /** Serves Swift's main queue on the thread that loaded the library, until stopMainQueue. */
    public static native void runMainQueue();

    public static native void stopMainQueue();
}
