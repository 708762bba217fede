// From developer.android.com/reference/android/content/{ComponentCallbacks2, Context, ContextWrapper, ContentResolver, Intent, ClipData, ClipboardManager}.
package android.content

import android.content.res.AssetManager
import android.database.Cursor
import android.net.Uri
import android.os.Bundle
import android.os.ParcelFileDescriptor
import java.io.File

/** Its one method the app overrides (`onConfigurationChanged` and `onLowMemory`, from
 * `ComponentCallbacks`, are left out), and the trim levels (`int` constants). */
interface ComponentCallbacks2 {
    fun onTrimMemory(level: Int)

    companion object {
        const val TRIM_MEMORY_RUNNING_MODERATE = 5
        const val TRIM_MEMORY_RUNNING_LOW = 10
        const val TRIM_MEMORY_RUNNING_CRITICAL = 15
        const val TRIM_MEMORY_UI_HIDDEN = 20
        const val TRIM_MEMORY_BACKGROUND = 40
        const val TRIM_MEMORY_MODERATE = 60
        const val TRIM_MEMORY_COMPLETE = 80
    }
}

abstract class Context {
    /** `ContentResolver getContentResolver()` */
    abstract val contentResolver: ContentResolver
    /** `AssetManager getAssets()` */
    abstract val assets: AssetManager
    /** `File getFilesDir()` */
    abstract val filesDir: File
    fun <T> getSystemService(serviceClass: Class<T>): T = throw UnsupportedOperationException()
    abstract fun checkSelfPermission(permission: String): Int
    fun getString(resId: Int): String = ""
    abstract fun startForegroundService(service: Intent): ComponentName?
    abstract fun stopService(service: Intent): Boolean
    /** `void startActivity(Intent intent)` */
    open fun startActivity(intent: Intent) {}
}

open class ContextWrapper(base: Context?) : Context() {
    override val contentResolver: ContentResolver get() = throw UnsupportedOperationException()
    override val assets: AssetManager get() = throw UnsupportedOperationException()
    override val filesDir: File get() = File("/")
    override fun checkSelfPermission(permission: String): Int = 0
    override fun startForegroundService(service: Intent): ComponentName? = null
    override fun stopService(service: Intent): Boolean = false
}

class ComponentName(pkg: String, cls: String)

abstract class ContentResolver {
    /** `ParcelFileDescriptor openFileDescriptor(Uri, String)`, nullable; throws FileNotFoundException. */
    fun openFileDescriptor(uri: Uri, mode: String): ParcelFileDescriptor? = null
    /** `Cursor query(Uri, String[], String, String[], String)`, nullable. */
    fun query(uri: Uri, projection: Array<String>?, selection: String?, selectionArgs: Array<String>?, sortOrder: String?): Cursor? = null
}

open class Intent {
    constructor(packageContext: Context, cls: Class<*>)
    /** `Intent(String action)` */
    constructor(action: String?)
    constructor()
    /** `String getAction()` */
    val action: String? get() = null
    /** `String getType()` / `Intent setType(String)` */
    var type: String? = null
    fun putExtra(name: String, value: String?): Intent = this
    fun putExtra(name: String, value: Int): Intent = this
    fun getStringExtra(name: String): String? = null
    fun getIntExtra(name: String, defaultValue: Int): Int = defaultValue
    fun getBooleanExtra(name: String, defaultValue: Boolean): Boolean = defaultValue
    /** `CharSequence getCharSequenceExtra(String)`, nullable. */
    fun getCharSequenceExtra(name: String): CharSequence? = null
    val extras: Bundle? get() = null

    companion object {
        const val ACTION_SEND = "android.intent.action.SEND"
        const val ACTION_PROCESS_TEXT = "android.intent.action.PROCESS_TEXT"
        const val EXTRA_TEXT = "android.intent.extra.TEXT"
        const val EXTRA_PROCESS_TEXT = "android.intent.extra.PROCESS_TEXT"
        const val EXTRA_PROCESS_TEXT_READONLY = "android.intent.extra.PROCESS_TEXT_READONLY"
        /** `static Intent createChooser(Intent target, CharSequence title)` */
        @JvmStatic fun createChooser(target: Intent, title: CharSequence?): Intent = target
    }
}

open class ClipData {
    companion object {
        @JvmStatic fun newPlainText(label: CharSequence?, text: CharSequence?): ClipData = ClipData()
    }
}

open class ClipboardManager {
    fun setPrimaryClip(clip: ClipData) {}
}
