// From developer.android.com/reference/android/app/{Activity, Application, Application.ActivityLifecycleCallbacks, Service,
// Notification, NotificationChannel, NotificationManager, PendingIntent}.
package android.app

import android.content.ComponentCallbacks2
import android.content.Context
import android.content.ContextWrapper
import android.content.Intent
import android.os.Bundle
import android.os.IBinder

open class Application : ContextWrapper(null), ComponentCallbacks2 {
    open fun onCreate() {}
    override fun onTrimMemory(level: Int) {}
    fun registerActivityLifecycleCallbacks(callback: ActivityLifecycleCallbacks) {}

    /** Its seven required methods (the pre- and post- ones have default bodies). */
    interface ActivityLifecycleCallbacks {
        /** `savedInstanceState` is `@Nullable` in the reference. */
        fun onActivityCreated(activity: Activity, savedInstanceState: Bundle?)
        fun onActivityStarted(activity: Activity)
        fun onActivityResumed(activity: Activity)
        fun onActivityPaused(activity: Activity)
        fun onActivityStopped(activity: Activity)
        fun onActivitySaveInstanceState(activity: Activity, outState: Bundle)
        fun onActivityDestroyed(activity: Activity)
    }
}

open class Activity : ContextWrapper(null) {
    /** `Application getApplication()` */
    val application: Application get() = Application()
    protected open fun onCreate(savedInstanceState: Bundle?) {}
    protected open fun onStart() {}
    protected open fun onStop() {}
    protected open fun onDestroy() {}
    fun requestPermissions(permissions: Array<String>, requestCode: Int) {}
    fun runOnUiThread(action: Runnable) {}
    /** `Intent getIntent()` */
    val intent: Intent get() = Intent("")
    /** `ComponentName getCallingActivity()`, nullable: who started this activity for a result. */
    val callingActivity: android.content.ComponentName? get() = null
    protected open fun onNewIntent(intent: Intent) {}
    fun setResult(resultCode: Int, data: Intent?) {}
    open fun finish() {}

    companion object {
        const val RESULT_OK = -1
    }
}

abstract class Service : ContextWrapper(null) {
    abstract fun onBind(intent: Intent?): IBinder?
    open fun onStartCommand(intent: Intent?, flags: Int, startId: Int): Int = START_STICKY
    fun startForeground(id: Int, notification: Notification) {}
    fun startForeground(id: Int, notification: Notification, foregroundServiceType: Int) {}
    fun stopForeground(flags: Int) {}

    companion object {
        const val START_STICKY = 1
        const val START_NOT_STICKY = 2
    }
}

open class Notification {
    open class Builder(context: Context, channelId: String) {
        fun setSmallIcon(icon: Int): Builder = this
        fun setContentTitle(title: CharSequence?): Builder = this
        fun setContentText(text: CharSequence?): Builder = this
        fun setProgress(max: Int, progress: Int, indeterminate: Boolean): Builder = this
        fun setOngoing(ongoing: Boolean): Builder = this
        fun setContentIntent(intent: PendingIntent): Builder = this
        fun setAutoCancel(autoCancel: Boolean): Builder = this
        fun build(): Notification = Notification()
    }
}

open class NotificationChannel(id: String, name: CharSequence, importance: Int)

open class NotificationManager {
    fun createNotificationChannel(channel: NotificationChannel) {}
    fun notify(id: Int, notification: Notification) {}

    companion object {
        const val IMPORTANCE_LOW = 2
        const val IMPORTANCE_DEFAULT = 3
    }
}

open class PendingIntent private constructor() {
    companion object {
        const val FLAG_IMMUTABLE = 0x04000000
        /** `static PendingIntent getActivity(Context, int, Intent, int)`, nullable. */
        @JvmStatic fun getActivity(context: Context, requestCode: Int, intent: Intent, flags: Int): PendingIntent? = null
    }
}
