package org.ilotoki.android

import android.app.Activity
import android.app.Application
import android.app.Notification
import android.app.NotificationChannel
import android.app.NotificationManager
import android.app.PendingIntent
import android.content.ComponentCallbacks2
import android.content.Intent
import android.os.Bundle
import android.os.Handler
import android.os.Looper
import java.io.File
import java.util.Locale

/**
 * Loads the Swift core on the UI thread (whose Looper then serves Swift's main queue) and
 * opens the one store of the app in its private files directory. It also knows whether the app
 * is in front, for the one notification that says a downloaded model is ready.
 */
class IloTokiApplication : Application(), Application.ActivityLifecycleCallbacks {
    lateinit var bridge: Bridge
        private set

    /** Activities of the app on the screen now (resumed). */
    private var inFront = 0

    override fun onCreate() {
        super.onCreate()
        System.loadLibrary(NativeBridge.LIBRARY)
        val language = Locale.getDefault().language.let { if (it in setOf("en", "ru", "vi", "tok")) it else "en" }
        bridge = Bridge(File(filesDir, "ilotoki"), language)
        bridge.onChangedAway = ::tellReadyIfAway
        registerActivityLifecycleCallbacks(this)
    }

    /**
     * A downloaded model has loaded while no screen of the app is in front (the download went
     * on in its foreground service): one notification says the translator is ready, and a tap
     * opens it. In front, the main screen marks the notice handled (it needs no telling): the
     * screen is read here only while the app is away.
     */
    private fun tellReadyIfAway() {
        if (inFront > 0) return
        val notice = bridge.main().readyNotice ?: return
        val manager = getSystemService(NotificationManager::class.java)
        manager.createNotificationChannel(NotificationChannel(READY_CHANNEL, notice.title, NotificationManager.IMPORTANCE_DEFAULT))
        val builder = Notification.Builder(this, READY_CHANNEL)
            .setSmallIcon(android.R.drawable.stat_sys_download_done)
            .setContentTitle(notice.title)
            .setContentText(notice.body)
            .setAutoCancel(true)
        PendingIntent.getActivity(this, 0, Intent(this, MainActivity::class.java), PendingIntent.FLAG_IMMUTABLE)?.let { builder.setContentIntent(it) }
        manager.notify(READY_NOTIFICATION, builder.build())
        bridge.perform(Action.ReadyNoticeHandled)
    }

    /**
     * The system asks the app to give memory back: while it runs low (or the app waits in the
     * background on a device short of memory), the engine keeps less of the model in memory,
     * with the same translations. Android never says that memory is plentiful again, so the
     * word lapses [RELIEF_AFTER_MS] after the last request.
     */
    override fun onTrimMemory(level: Int) {
        super.onTrimMemory(level)
        if (level == ComponentCallbacks2.TRIM_MEMORY_UI_HIDDEN || level < ComponentCallbacks2.TRIM_MEMORY_RUNNING_LOW) return
        bridge.setShortOfMemory(true)
        relief.removeCallbacks(relieve)
        relief.postDelayed(relieve, RELIEF_AFTER_MS)
    }

    private val relief = Handler(Looper.getMainLooper())
    private val relieve = Runnable { bridge.setShortOfMemory(false) }

    override fun onActivityResumed(activity: Activity) {
        inFront++
    }

    override fun onActivityPaused(activity: Activity) {
        inFront--
    }

    override fun onActivityCreated(activity: Activity, savedInstanceState: Bundle?) {}
    override fun onActivityStarted(activity: Activity) {}
    override fun onActivityStopped(activity: Activity) {}
    override fun onActivitySaveInstanceState(activity: Activity, outState: Bundle) {}
    override fun onActivityDestroyed(activity: Activity) {}

    companion object {
        private const val READY_CHANNEL = "ready"
        private const val READY_NOTIFICATION = 2
        private const val RELIEF_AFTER_MS = 120_000L
    }
}
