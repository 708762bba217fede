package org.ilotoki.android

import android.os.Handler
import android.os.Looper
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableIntStateOf
import androidx.compose.runtime.setValue
import java.io.File
import org.json.JSONObject

/**
 * The store behind NativeBridge, in Core's own types (Contract.kt, generated from the Swift
 * ones): a change the listener hears bumps [generation] on the UI thread, and the screens read
 * Core's values again. Every call returns at once: an action's long work (a load, a delete, an
 * import) goes on in the core, and its progress arrives as changes.
 */
class Bridge(home: File, language: String) : NativeBridge.Listener {
    private val ui = Handler(Looper.getMainLooper())

    /** Read by every screen, so Compose redraws when the core says something changed. */
    var generation by mutableIntStateOf(0)
        private set

    /** Told on the UI thread after every change (the imports that wait for their end). */
    var onChanged: (() -> Unit)? = null

    /** Told on the UI thread after every change too, by the application: whatever activity
     *  is or is not on the screen (the ready notification). */
    var onChangedAway: (() -> Unit)? = null

    val handle: Long = NativeBridge.open(home.path, language, arrayOf(Design.Font.UI, Design.Font.SITELEN_PONA), this)

    /** Every UI string in the app's language, from Core. */
    private val strings: JSONObject = JSONObject(NativeBridge.strings(handle))

    fun text(key: UIText): String = strings.optString(key.json, key.json)

    override fun onStateChanged() {
        ui.post {
            generation++
            onChanged?.invoke()
            onChangedAway?.invoke()
        }
    }

    override fun onPiece(piece: String) {
        // The plate is read again on the change that follows; nothing to keep here.
    }

    /** The values of one place, as Core gives them. */
    private fun screen(place: Place): JSONObject = JSONObject(NativeBridge.screen(handle, place.json))

    fun main(): MainScreen = MainScreen.from(screen(Place.MAIN))

    fun models(): ModelsPage = ModelsPage.from(screen(Place.MODELS))

    /** The history, filtered as the model says (`Action.FilterHistory`). */
    fun history(): HistoryPage = HistoryPage.from(screen(Place.HISTORY))

    fun settings(): SettingsPage = SettingsPage.from(screen(Place.SETTINGS))

    fun about(): AboutPage = AboutPage.from(screen(Place.ABOUT))

    fun perform(action: Action): ActionOutcome = ActionOutcome.from(JSONObject(NativeBridge.perform(handle, action.toJson().toString())))

    /** Night mode, which the "system" theme follows. */
    fun setSystemPrefersDark(dark: Boolean) = NativeBridge.setSystemPrefersDark(handle, dark)

    /** The device is short of memory, or no longer (the application's `onTrimMemory`). */
    fun setShortOfMemory(short: Boolean) = NativeBridge.setShortOfMemory(handle, short)
}
