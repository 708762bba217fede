// From developer.android.com/reference/android/os/{Build, Bundle, Handler, IBinder, Looper, ParcelFileDescriptor}.
package android.os

object Build {
    object VERSION {
        @JvmField val SDK_INT: Int = 0
    }

    object VERSION_CODES {
        const val Q = 29
        const val TIRAMISU = 33
    }
}

open class Bundle

interface IBinder

open class Looper private constructor() {
    companion object {
        @JvmStatic fun getMainLooper(): Looper = Looper()
        @JvmStatic fun myLooper(): Looper? = null
    }
}

open class Handler(looper: Looper) {
    fun post(r: Runnable): Boolean = true
    fun postDelayed(r: Runnable, delayMillis: Long): Boolean = true
    fun removeCallbacks(r: Runnable) {}
}

open class ParcelFileDescriptor : java.io.Closeable {
    /** `int getFd()` */
    val fd: Int get() = -1
    fun detachFd(): Int = -1
    override fun close() {}
}
