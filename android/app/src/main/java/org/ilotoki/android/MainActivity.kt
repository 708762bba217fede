package org.ilotoki.android

import android.Manifest
import android.content.ClipData
import android.content.ClipboardManager
import android.content.Intent
import android.content.pm.PackageManager
import android.net.Uri
import android.os.Build
import android.os.Bundle
import android.os.ParcelFileDescriptor
import android.provider.OpenableColumns
import android.widget.Toast
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
import android.view.HapticFeedbackConstants
import androidx.compose.ui.platform.LocalView
import java.io.File
import java.io.IOException

/** The one activity: the main screen and the places beside it, all drawn from Core's values. */
class MainActivity : ComponentActivity() {
    private val bridge get() = (application as IloTokiApplication).bridge

    /** Text from another app's selection menu whose caller takes the translation back. */
    private var replying by mutableStateOf(false)

    /** The picked files lent to an import under way: closed once no import runs. */
    private val lent = mutableListOf<ParcelFileDescriptor>()

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        val fonts = Fonts(assets)
        bridge.onChanged = ::closeFinishedImports
        useWordList()
        receive(intent)
        setContent {
            val generation = bridge.generation
            val dark = isSystemInDarkTheme()
            LaunchedEffect(dark) { bridge.setSystemPrefersDark(dark) }
            val main = remember(generation) { bridge.main() }
            val palette = if (main.appearance == Appearance.DARK) Palette.dark else Palette.light
            var place by remember { mutableStateOf(Place.MAIN) }
            var licence by remember { mutableStateOf<LicenceOffer?>(null) }
            DownloadNotification(main)
            // In front, a model that has just loaded needs no notification (the application
            // posts one while the app is away).
            LaunchedEffect(main.readyNotice) { if (main.readyNotice != null) bridge.perform(Action.ReadyNoticeHandled) }
            BackHandler(enabled = place != Place.MAIN) { place = Place.MAIN }
            var pendingFormat by remember { mutableStateOf(PromptFormat.SOURCE_TARGET) }
            val pickModel = rememberLauncherForActivityResult(ActivityResultContracts.OpenDocument()) { uri ->
                if (uri != null) importModel(uri, pendingFormat)
            }
            // Haptics while Core says they are on: a tick as words land (Core ticks at most once
            // per 60 ms), a light tap on every press.
            val view = LocalView.current
            val ticks = main.haptics?.wordTicks
            LaunchedEffect(ticks) { if (ticks != null && ticks > 0) view.performHapticFeedback(HapticFeedbackConstants.CLOCK_TICK) }
            /** Performs an action and does what its outcome asks of this front end. */
            fun perform(action: Action) {
                if (main.haptics != null && action !is Action.SetSourceText) view.performHapticFeedback(HapticFeedbackConstants.VIRTUAL_KEY)
                when (val outcome = bridge.perform(action)) {
                    is ActionOutcome.ShowLicence -> licence = outcome.value
                    is ActionOutcome.Copy -> copy(outcome.text)
                    is ActionOutcome.Share -> share(outcome.text)
                    is ActionOutcome.Failed -> Toast.makeText(this, outcome.reason, Toast.LENGTH_LONG).show()
                    is ActionOutcome.ShowMain -> place = Place.MAIN
                    is ActionOutcome.Added, is ActionOutcome.Done -> Unit
                }
            }
            CompositionLocalProvider(LocalPalette provides palette) {
                val ui = Ui(bridge, fonts, palette, perform = ::perform, go = { next ->
                    // What the command line changed while the app ran appears when a list is shown.
                    if (next != Place.MAIN) perform(Action.Refresh)
                    place = next
                }, pickModel = { format -> pendingFormat = format; pickModel.launch(arrayOf("*/*")) })
                val link = main.header.places.firstOrNull { it.place == place }
                // The caller of "Translate with ilo toki" takes the translation back in place of its text.
                val reply = if (replying && main.target.canCopy && main.slab.action != SlabAction.Stop) ({ replyWith(main.target.text) }) else null
                if (link == null) ui.Main(main, reply) else ui.Place(link, generation)
                licence?.let { offer ->
                    ui.LicenceDialog(offer) { accepted ->
                        licence = null
                        if (accepted) perform(Action.AcceptLicenceAndDownload(offer.entry.id))
                    }
                }
            }
        }
    }

    override fun onNewIntent(intent: Intent) {
        super.onNewIntent(intent)
        receive(intent)
    }

    /**
     * Text another app sent: "Translate with ilo toki" in its text-selection menu
     * (ACTION_PROCESS_TEXT) or a share of plain text (ACTION_SEND). Core puts it on the source
     * plate, detects its direction and translates it (once the model is ready).
     */
    private fun receive(intent: Intent?) {
        val text = when (intent?.action) {
            Intent.ACTION_PROCESS_TEXT -> intent.getCharSequenceExtra(Intent.EXTRA_PROCESS_TEXT)?.toString()
            Intent.ACTION_SEND -> intent.getStringExtra(Intent.EXTRA_TEXT)
            else -> null
        }
        if (text.isNullOrBlank()) return
        replying = intent?.action == Intent.ACTION_PROCESS_TEXT && callingActivity != null &&
            !intent.getBooleanExtra(Intent.EXTRA_PROCESS_TEXT_READONLY, false)
        bridge.perform(Action.TranslateIncoming(text))
    }

    /** Hands the translation back to the app whose selected text it replaces, and closes. */
    private fun replyWith(translation: String) {
        setResult(RESULT_OK, Intent().putExtra(Intent.EXTRA_PROCESS_TEXT, translation))
        replying = false
        finish()
    }

    override fun onStart() {
        super.onStart()
        bridge.perform(Action.Refresh)
    }

    override fun onStop() {
        super.onStop()
        // The system may end a process in the background without a word: what is pending is written now.
        bridge.perform(Action.WentToBackground)
    }

    /** The notification of a running download, so leaving the app does not end it. */
    @Composable
    private fun DownloadNotification(main: MainScreen) {
        val download = main.header.download
        val running = download?.isRunning == true
        LaunchedEffect(running, download?.fraction) {
            if (running && Build.VERSION.SDK_INT >= 33 &&
                checkSelfPermission(Manifest.permission.POST_NOTIFICATIONS) != PackageManager.PERMISSION_GRANTED) {
                requestPermissions(arrayOf(Manifest.permission.POST_NOTIFICATIONS), 0)
            }
            if (download != null && running) {
                DownloadService.show(this@MainActivity, main.header.modelLine, download.fraction)
            } else {
                DownloadService.hide(this@MainActivity)
            }
        }
    }

    /** The system's share sheet, with the translation as plain text. */
    private fun share(text: String) {
        val send = Intent(Intent.ACTION_SEND).putExtra(Intent.EXTRA_TEXT, text)
        send.type = "text/plain"
        startActivity(Intent.createChooser(send, null))
    }

    private fun copy(text: String) {
        getSystemService(ClipboardManager::class.java).setPrimaryClip(ClipData.newPlainText("ilo toki", text))
    }

    /**
     * The document picker's file is only lent to the app: Core copies it into the app's own
     * files (whole, under a temporary name, then renamed), checks it is a model and adds it, or
     * says why not. It reads the file through the descriptor, which stays open until then.
     */
    private fun importModel(uri: Uri, format: PromptFormat) {
        val descriptor = try {
            contentResolver.openFileDescriptor(uri, "r")
        } catch (failure: Exception) {
            Toast.makeText(this, failure.message, Toast.LENGTH_LONG).show()
            return
        } ?: return
        val name = contentResolver.query(uri, arrayOf(OpenableColumns.DISPLAY_NAME), null, null, null)?.use { cursor ->
            if (cursor.moveToFirst()) cursor.getString(0) else null
        }?.removeSuffix(".gguf")
        lent.add(descriptor)
        val request = ModelImport(path = "/proc/self/fd/${descriptor.fd}", format = format, name = name, copiesIntoApp = true)
        when (val outcome = bridge.perform(Action.ImportModel(request))) {
            is ActionOutcome.Failed -> Toast.makeText(this, outcome.reason, Toast.LENGTH_LONG).show()
            else -> Unit
        }
        closeFinishedImports()
    }

    /**
     * lipu Linku's Toki Pona words ship as an asset; Core reads a file, so the asset is copied
     * into the app's files (again only when an update changed it) and that file given to Core.
     */
    private fun useWordList() {
        val file = File(filesDir, "linku-words.json")
        try {
            val bytes = assets.open("linku-words.json").use { it.readBytes() }
            if (!file.exists() || !file.readBytes().contentEquals(bytes)) {
                val partial = File(filesDir, "linku-words.json.part")
                partial.writeBytes(bytes)
                if (!partial.renameTo(file)) throw IOException("could not replace ${file.path}")
            }
        } catch (error: IOException) {
            // Without the list a lookup says the dictionary is not here; translating is unaffected.
            return
        }
        bridge.perform(Action.UseWordList(file.path))
    }

    private fun closeFinishedImports() {
        if (lent.isEmpty() || bridge.models().isImporting) return
        lent.forEach { it.close() }
        lent.clear()
    }
}
