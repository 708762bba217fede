// From developer.android.com/reference/android/app/{Activity, Application, Service, Notification, NotificationChannel, NotificationManager}.
package android.app

import android.content.Context
import android.content.ContextWrapper
import android.content.Intent
import android.os.Bundle
import android.os.IBinder

open class Application : ContextWrapper(null) {
    open fun onCreate() {}
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
