package org.ilotoki.android

import android.os.Handler
import android.os.Looper
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableIntStateOf
import androidx.compose.runtime.setValue
import java.io.File
import org.json.JSONObject

/**
 * The store behind NativeBridge, for Compose: a change the listener hears bumps [generation]
 * on the UI thread, and the screens read Core's values again.
 */
class Bridge(home: File, language: String) : NativeBridge.Listener {
    private val ui = Handler(Looper.getMainLooper())

    /** Read by every screen, so Compose redraws when the core says something changed. */
    var generation by mutableIntStateOf(0)
        private set

    val handle: Long = NativeBridge.open(home.path, language, arrayOf(Design.Font.UI, Design.Font.SITELEN_PONA), this)

    /** Every UI string in the app's language, from Core. */
    val strings: JSONObject = JSONObject(NativeBridge.strings(handle))

    fun text(key: String): String = strings.optString(key, key)

    override fun onStateChanged() {
        ui.post { generation++ }
    }

    override fun onPiece(piece: String) {
        // The plate is read again on the change that follows; nothing to keep here.
    }

    /** "main", "models", "history", "olin", "settings" or "about". */
    fun screen(place: String): JSONObject = JSONObject(NativeBridge.screen(handle, place))

    fun perform(action: String, argument: String? = null): String? = NativeBridge.perform(handle, action, argument)
}
