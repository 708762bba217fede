package org.ilotoki.android

import android.app.Application
import java.io.File
import java.util.Locale

/**
 * Loads the Swift core on the UI thread (whose Looper then serves Swift's main queue) and
 * opens the one store of the app in its private files directory.
 */
class IloTokiApplication : Application() {
    lateinit var bridge: Bridge
        private set

    override fun onCreate() {
        super.onCreate()
        System.loadLibrary(NativeBridge.LIBRARY)
        val language = Locale.getDefault().language.let { if (it in setOf("en", "ru", "vi", "tok")) it else "en" }
        bridge = Bridge(File(filesDir, "ilotoki"), language)
    }
}
