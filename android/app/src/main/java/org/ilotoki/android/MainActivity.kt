package org.ilotoki.android

import android.Manifest
import android.content.ClipData
import android.content.ClipboardManager
import android.content.pm.PackageManager
import android.net.Uri
import android.os.Build
import android.os.Bundle
import androidx.activity.ComponentActivity
import androidx.activity.compose.BackHandler
import androidx.activity.compose.rememberLauncherForActivityResult
import androidx.activity.compose.setContent
import androidx.activity.result.contract.ActivityResultContracts
import androidx.compose.foundation.isSystemInDarkTheme
import androidx.compose.runtime.Composable
import androidx.compose.runtime.CompositionLocalProvider
import androidx.compose.runtime.LaunchedEffect
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.remember
import androidx.compose.runtime.setValue
import java.io.File
import org.json.JSONObject

/** The one activity: the main screen and the places beside it, all drawn from Core's values. */
class MainActivity : ComponentActivity() {
    private val bridge get() = (application as IloTokiApplication).bridge

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        val fonts = Fonts(assets)
        setContent {
            val generation = bridge.generation
            val settings = remember(generation) { bridge.screen("settings") }
            val palette = when (chosenTheme(settings)) {
                "dark" -> Palette.dark
                "light" -> Palette.light
                else -> if (isSystemInDarkTheme()) Palette.dark else Palette.light
            }
            var place by remember { mutableStateOf("main") }
            var licence by remember { mutableStateOf<JSONObject?>(null) }
            val main = remember(generation) { bridge.screen("main") }
            DownloadNotification(main)
            BackHandler(enabled = place != "main") { place = "main" }
            val pickModel = rememberLauncherForActivityResult(ActivityResultContracts.OpenDocument()) { uri ->
                if (uri != null) importModel(uri, pendingFormat)
            }
            CompositionLocalProvider(LocalPalette provides palette) {
                val ui = Ui(bridge, fonts, palette, onLicence = { licence = it }, copy = ::copy, go = { place = it },
                    pickModel = { format -> pendingFormat = format; pickModel.launch(arrayOf("*/*")) })
                if (place == "main") ui.Main(main) else ui.Place(place, generation)
                licence?.let { entry -> ui.LicenceDialog(entry) { accepted ->
                    licence = null
                    if (accepted) bridge.perform("acceptLicence", entry.getJSONObject("entry").getString("id"))
                } }
            }
        }
    }

    private var pendingFormat = "sourceTarget"

    override fun onStart() {
        super.onStart()
        bridge.perform("refresh")
    }

    private fun chosenTheme(settings: JSONObject): String {
        val themes = settings.getJSONArray("themes")
        for (i in 0 until themes.length()) {
            val theme = themes.getJSONObject(i)
            if (theme.getBoolean("isChosen")) return theme.getString("theme")
        }
        return "system"
    }

    /** The notification of a running download, so leaving the app does not end it. */
    @Composable
    private fun DownloadNotification(main: JSONObject) {
        val download = main.getJSONObject("header").optJSONObject("download")
        val running = download?.optBoolean("isRunning") == true
        LaunchedEffect(running, download?.optDouble("fraction")) {
            if (running && Build.VERSION.SDK_INT >= 33 &&
                checkSelfPermission(Manifest.permission.POST_NOTIFICATIONS) != PackageManager.PERMISSION_GRANTED) {
                requestPermissions(arrayOf(Manifest.permission.POST_NOTIFICATIONS), 0)
            }
            if (running) {
                DownloadService.show(this@MainActivity, main.getJSONObject("header").getString("modelLine"), download!!.getDouble("fraction"))
            } else {
                DownloadService.hide(this@MainActivity)
            }
        }
    }

    private fun copy(text: String) {
        getSystemService(ClipboardManager::class.java).setPrimaryClip(ClipData.newPlainText("ilo toki", text))
    }

    /**
     * The document picker's file is only lent to the app: copy it into the app's own files
     * (whole, under a temporary name, then renamed), then add it; Core checks it is a model.
     */
    private fun importModel(uri: Uri, format: String) {
        Thread {
            val directory = File(filesDir, "ilotoki/imported").apply { mkdirs() }
            val name = uri.lastPathSegment?.substringAfterLast('/')?.takeIf { it.endsWith(".gguf") } ?: "imported.gguf"
            val partial = File(directory, ".$name.part")
            val destination = File(directory, name)
            try {
                contentResolver.openInputStream(uri)!!.use { input -> partial.outputStream().use { input.copyTo(it, 1 shl 20) } }
                if (!partial.renameTo(destination)) throw java.io.IOException("cannot rename $partial")
                val request = JSONObject().put("path", destination.path).put("format", format)
                bridge.perform("addModel", request.toString())
            } catch (failure: Exception) {
                partial.delete()
                destination.delete()
                runOnUiThread { android.widget.Toast.makeText(this, failure.message, android.widget.Toast.LENGTH_LONG).show() }
            }
        }.start()
    }
}
