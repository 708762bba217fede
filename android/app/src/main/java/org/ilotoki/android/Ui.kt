package org.ilotoki.android

import androidx.compose.foundation.background
import androidx.compose.foundation.border
import androidx.compose.foundation.clickable
import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Box
import androidx.compose.foundation.layout.BoxWithConstraints
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.Row
import androidx.compose.foundation.layout.Spacer
import androidx.compose.foundation.layout.fillMaxSize
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.height
import androidx.compose.foundation.layout.heightIn
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.layout.safeDrawingPadding
import androidx.compose.foundation.layout.size
import androidx.compose.foundation.layout.sizeIn
import androidx.compose.foundation.layout.fillMaxHeight
import androidx.compose.foundation.rememberScrollState
import androidx.compose.foundation.shape.CircleShape
import androidx.compose.foundation.text.BasicText
import androidx.compose.foundation.text.BasicTextField
import androidx.compose.foundation.verticalScroll
import androidx.compose.runtime.Composable
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.remember
import androidx.compose.runtime.setValue
import androidx.compose.ui.Alignment
import androidx.compose.ui.Modifier
import androidx.compose.ui.graphics.Color
import androidx.compose.ui.semantics.contentDescription
import androidx.compose.ui.semantics.semantics
import androidx.compose.ui.text.font.FontWeight
import androidx.compose.ui.unit.dp
import androidx.compose.ui.window.Dialog
import androidx.compose.ui.zIndex
import org.json.JSONArray
import org.json.JSONObject

/**
 * The screens, drawn from Core's values (the JSON of MainScreen and the pages): this file
 * decides nothing about the app's state, it picks a widget for each value and sends actions.
 */
class Ui(
    private val bridge: Bridge,
    private val fonts: Fonts,
    private val palette: Palette,
    private val onLicence: (JSONObject) -> Unit,
    private val copy: (String) -> Unit,
    private val go: (String) -> Unit,
    private val pickModel: (String) -> Unit,
) {
    private fun act(action: String, argument: String? = null) {
        val outcome = bridge.perform(action, argument) ?: return
        JSONObject(outcome).optJSONObject("licence")?.let(onLicence)
    }

    @Composable
    fun Main(screen: JSONObject) {
        Column(Modifier.fillMaxSize().background(palette.paper).safeDrawingPadding()) {
            Header(screen.getJSONObject("header"))
            screen.getJSONObject("header").optJSONObject("download")?.let { ProgressLine(it.getDouble("fraction")) }
            Column(Modifier.weight(1f).verticalScroll(rememberScrollState()).padding(Design.Spacing.LARGE.dp)) {
                Plates(screen.getJSONObject("source"), screen.getJSONObject("target"))
                if (screen.has("notice")) {
                    Spacer(Modifier.height(Design.Spacing.LARGE.dp))
                    BasicText(screen.getString("notice"), style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
                }
            }
            Slab(screen.getJSONObject("slab"))
        }
    }

    @Composable
    private fun Header(header: JSONObject) {
        Row(Modifier.fillMaxWidth().padding(horizontal = Design.Spacing.MEDIUM.dp, vertical = Design.Spacing.SMALL.dp),
            verticalAlignment = Alignment.CenterVertically) {
            Column(Modifier.weight(1f)) {
                BasicText(header.getString("title"), style = fonts.body(palette, Design.TypeSize.TITLE).copy(fontWeight = FontWeight.Bold))
                Row(verticalAlignment = Alignment.CenterVertically) {
                    BasicText(header.getString("modelLine"), style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
                    if (header.getBoolean("showsNewerModelDot")) {
                        Box(Modifier.padding(start = Design.Spacing.HAIRLINE.dp).size(10.dp).background(palette.ink, CircleShape)
                            .semantics { contentDescription = header.getString("newerModelLabel") })
                    }
                }
            }
            header.optJSONObject("download")?.let { download ->
                IconButton(if (download.getBoolean("isRunning")) "pause" else "download", download.getString("label")) { act("toggleDownload") }
            }
            IconButton("history", bridge.text("history")) { go("history") }
            IconButton("models", bridge.text("models")) { go("models") }
            IconButton("settings", bridge.text("settings")) { go("settings") }
            IconButton("about", bridge.text("about")) { go("about") }
        }
    }

    @Composable
    private fun ProgressLine(fraction: Double) {
        Box(Modifier.fillMaxWidth().height(Design.PROGRESS_LINE.dp).background(palette.paper)
            .border(Design.OUTLINE.dp, palette.ink)) {
            Box(Modifier.fillMaxHeight().fillMaxWidth(fraction.toFloat().coerceIn(0f, 1f)).background(palette.ink))
        }
    }

    /** Stacked on a phone, side by side from the wide layout; the knob on the seam. */
    @Composable
    private fun Plates(source: JSONObject, target: JSONObject) {
        BoxWithConstraints {
            if (maxWidth >= Design.Window.WIDE_LAYOUT.dp) {
                Box(contentAlignment = Alignment.TopCenter) {
                    Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.EXTRA_LARGE.dp)) {
                        Box(Modifier.weight(1f)) { Plate(source, isTarget = false) }
                        Box(Modifier.weight(1f)) { Plate(target, isTarget = true) }
                    }
                    Box(Modifier.padding(top = (Design.Spacing.EXTRA_LARGE * 2).dp)) { Knob() }
                }
            } else {
                Column {
                    Plate(source, isTarget = false)
                    // The knob is taller than the gap: drawn above both plates, on their seam.
                    Box(Modifier.fillMaxWidth().height(Design.Spacing.EXTRA_LARGE.dp).zIndex(1f), contentAlignment = Alignment.Center) {
                        Knob()
                    }
                    Plate(target, isTarget = true)
                }
            }
        }
    }

    @Composable
    private fun Knob() {
        Box(Modifier.size(Design.KNOB.dp).round(palette.paper, palette.ink).clickable { act("swap") }
            .semantics { contentDescription = bridge.text("swap") }, contentAlignment = Alignment.Center) {
            Icon("swap", palette.ink, 24.dp)
        }
    }

    /** The target plate is the one jelo surface. */
    @Composable
    private fun Plate(plate: JSONObject, isTarget: Boolean) {
        val fill = if (isTarget) palette.jelo else palette.paper
        val ink = if (isTarget) palette.onJelo else palette.ink
        val text = plate.getString("text")
        val style = if (plate.getBoolean("inSitelenPona")) fonts.sitelen(ink) else fonts.body(palette, Design.TypeSize.PLATE, ink)
        Column(Modifier.fillMaxWidth().heightIn(min = 160.dp).cut(fill, palette.ink).padding(Design.Spacing.MEDIUM.dp)) {
            Row(verticalAlignment = Alignment.CenterVertically) {
                LanguageLabel(plate, ink)
                Spacer(Modifier.weight(1f))
                if (plate.has("pill")) {
                    BasicText(plate.getString("pill"), style = fonts.body(palette, Design.TypeSize.SMALL, ink),
                        modifier = Modifier.border(Design.OUTLINE.dp, palette.ink, CircleShape).background(palette.paper, CircleShape)
                            .clickable { act("flipScript") }.padding(horizontal = 12.dp, vertical = 4.dp))
                }
                if (plate.getBoolean("canCopy")) IconButton("copy", bridge.text("copy")) { bridge.perform("copy")?.let(copy) }
            }
            if (isTarget) {
                val message = plate.getBoolean("isMessage")
                BasicText(text, style = if (message) fonts.body(palette, Design.TypeSize.BODY, ink) else style)
            } else {
                // What is typed is the truth until the model's text changes by itself (swap,
                // a sample phrase, a history entry): then the field takes the model's text.
                var editing by remember { mutableStateOf(text) }
                var seen by remember { mutableStateOf(text) }
                if (text != seen) {
                    seen = text
                    if (text != editing) editing = text
                }
                BasicTextField(editing, { editing = it; act("setSourceText", it) }, textStyle = style,
                    modifier = Modifier.fillMaxWidth().heightIn(min = 96.dp)
                        .semantics { contentDescription = bridge.text("sourcePlaceholder") },
                    decorationBox = { field ->
                        if (editing.isEmpty()) BasicText(bridge.text("sourcePlaceholder"), style = fonts.body(palette, Design.TypeSize.BODY, palette.quiet))
                        field()
                    })
                val samples = plate.getJSONArray("samplePhrases")
                if (samples.length() > 0) {
                    BasicText(bridge.text("samplesTitle"), style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
                    for (i in 0 until samples.length()) {
                        val phrase = samples.getString(i)
                        RowButton(phrase) { act("useSample", phrase) }
                    }
                }
            }
        }
    }

    @Composable
    private fun LanguageLabel(plate: JSONObject, ink: Color) {
        var open by remember { mutableStateOf(false) }
        val name = bridge.text("language." + plate.getString("language")).uppercase()
        BasicText(name, style = fonts.body(palette, Design.TypeSize.SMALL, ink).copy(fontWeight = FontWeight.Bold),
            modifier = if (plate.getBoolean("choosesLanguage")) Modifier.clickable { open = !open } else Modifier)
        if (open) {
            Dialog(onDismissRequest = { open = false }) {
                Column(Modifier.cut(palette.paper, palette.ink).padding(Design.Spacing.MEDIUM.dp)) {
                    for (code in listOf("en", "ru", "vi")) {
                        RowButton(bridge.text("language.$code"), chosen = code == plate.getString("language")) {
                            open = false
                            act("setOtherLanguage", code)
                        }
                    }
                }
            }
        }
    }

    @Composable
    private fun Slab(slab: JSONObject) {
        val enabled = slab.getBoolean("isEnabled")
        Row(Modifier.padding(Design.Spacing.LARGE.dp).fillMaxWidth().heightIn(min = 56.dp)
            .cut(palette.ink, palette.ink, palette.quiet)
            .clickable(enabled = enabled) { act("pressSlab") }.padding(Design.Spacing.LARGE.dp),
            verticalAlignment = Alignment.CenterVertically) {
            BasicText(slab.getString("title"), Modifier.weight(1f),
                style = fonts.body(palette, Design.TypeSize.BODY + 1, palette.paper.copy(alpha = if (enabled) 1f else 0.5f))
                    .copy(fontWeight = FontWeight.Bold))
            val action = slab.getJSONObject("action").keys().next()
            Icon(if (action == "stop") "pause" else if (action.startsWith("download") || action == "resumeDownload") "download" else "translate", palette.paper)
        }
    }

    @Composable
    fun IconButton(icon: String, label: String, action: () -> Unit) {
        Box(Modifier.sizeIn(minWidth = Design.TOUCH_TARGET.dp, minHeight = Design.TOUCH_TARGET.dp).clickable(onClick = action)
            .semantics { contentDescription = label }, contentAlignment = Alignment.Center) {
            Icon(icon, palette.ink)
        }
    }

    @Composable
    fun RowButton(title: String, chosen: Boolean = false, action: () -> Unit) {
        BasicText(title, style = fonts.body(palette, Design.TypeSize.BODY, if (chosen) palette.paper else palette.ink),
            modifier = Modifier.padding(vertical = Design.Spacing.HAIRLINE.dp).cut(if (chosen) palette.ink else palette.paper, palette.ink)
                .clickable(onClick = action).padding(horizontal = 14.dp, vertical = 8.dp))
    }

    // MARK: The places

    @Composable
    fun Place(place: String, generation: Int) {
        var olin by remember { mutableStateOf(false) }
        val page = remember(place, olin, generation) { bridge.screen(if (place == "history" && olin) "olin" else place) }
        Column(Modifier.fillMaxSize().background(palette.paper).safeDrawingPadding().verticalScroll(rememberScrollState())
            .padding(Design.Spacing.LARGE.dp), verticalArrangement = Arrangement.spacedBy(Design.Spacing.MEDIUM.dp)) {
            Row(verticalAlignment = Alignment.CenterVertically) {
                IconButton("close", bridge.text("back")) { go("main") }
                BasicText(bridge.text(place), style = fonts.body(palette, Design.TypeSize.TITLE).copy(fontWeight = FontWeight.Bold))
            }
            when (place) {
                "history" -> History(page, olin) { olin = it }
                "models" -> Models(page)
                "settings" -> Settings(page)
                "about" -> About(page)
            }
        }
    }

    @Composable
    private fun History(page: JSONObject, olin: Boolean, filter: (Boolean) -> Unit) {
        Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.SMALL.dp)) {
            RowButton(page.getString("allTitle"), chosen = !olin) { filter(false) }
            RowButton(page.getString("olinTitle"), chosen = olin) { filter(true) }
            Spacer(Modifier.weight(1f))
            RowButton(page.getString("clearTitle")) { act("clearHistory") }
        }
        page.optString("note").takeIf { it.isNotEmpty() }?.let { BasicText(it, style = fonts.body(palette, color = palette.quiet)) }
        page.optString("empty").takeIf { it.isNotEmpty() }?.let { BasicText(it, style = fonts.body(palette, color = palette.quiet)) }
        val rows = page.getJSONArray("rows")
        for (i in 0 until rows.length()) {
            val row = rows.getJSONObject(i)
            Column(Modifier.fillMaxWidth().cut(palette.paper, palette.ink).clickable { act("reuse", row.getString("id")); go("main") }
                .padding(Design.Spacing.MEDIUM.dp)) {
                Row(verticalAlignment = Alignment.CenterVertically) {
                    BasicText(row.getString("meta"), Modifier.weight(1f), style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
                    val isOlin = row.getBoolean("isOlin")
                    Box(Modifier.size(Design.TOUCH_TARGET.dp).clickable { act("setOlin", row.getString("id") + " " + !isOlin) }
                        .semantics { contentDescription = row.getString("olinLabel") }, contentAlignment = Alignment.Center) {
                        Icon("olin", if (isOlin) palette.ink else palette.quiet.copy(alpha = 0.35f), 20.dp)
                    }
                }
                BasicText(row.getString("source"), style = if (row.getBoolean("sourceInSitelenPona")) fonts.sitelen(palette.ink) else fonts.body(palette))
                BasicText(row.getString("result"), style = if (row.getBoolean("resultInSitelenPona")) fonts.sitelen(palette.ink)
                    else fonts.body(palette).copy(fontWeight = FontWeight.Bold))
            }
        }
    }

    @Composable
    private fun Models(page: JSONObject) {
        val rows = page.getJSONArray("rows")
        for (i in 0 until rows.length()) {
            val row = rows.getJSONObject(i)
            Column(Modifier.fillMaxWidth().cut(palette.paper, palette.ink).padding(Design.Spacing.MEDIUM.dp),
                verticalArrangement = Arrangement.spacedBy(Design.Spacing.SMALL.dp)) {
                BasicText(row.getString("name"), style = fonts.body(palette).copy(fontWeight = FontWeight.Bold))
                BasicText(row.getString("facts"), style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
                Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.SMALL.dp)) {
                    val buttons = row.getJSONArray("buttons")
                    for (b in 0 until buttons.length()) {
                        val button = buttons.getJSONObject(b)
                        val action = button.getJSONObject("action")
                        when (val kind = action.keys().next()) {
                            "inUse" -> BasicText(button.getString("title"), style = fonts.body(palette).copy(fontWeight = FontWeight.Bold))
                            "use", "delete" -> RowButton(button.getString("title")) { act(kind, action.getJSONObject(kind).getString("id")) }
                            "pause" -> RowButton(button.getString("title")) { act("pauseDownload") }
                            "download" -> RowButton(button.getString("title")) { act("download", row.getString("id")) }
                        }
                    }
                }
            }
        }
        var format by remember { mutableStateOf("sourceTarget") }
        BasicText(page.getString("formatTitle"), style = fonts.body(palette, color = palette.quiet))
        Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.SMALL.dp)) {
            val formats: JSONArray = page.getJSONArray("formats")
            for (i in 0 until formats.length()) {
                val choice = formats.getJSONObject(i)
                RowButton(choice.getString("title"), chosen = choice.getString("format") == format) { format = choice.getString("format") }
            }
        }
        RowButton(page.getString("addTitle")) { pickModel(format) }
    }

    @Composable
    private fun Settings(page: JSONObject) {
        for ((key, action) in listOf("keepHistory" to "setKeepHistory", "translateAsYouType" to "setTranslateAsYouType")) {
            val setting = page.getJSONObject(key)
            val on = setting.getBoolean("isOn")
            Row(Modifier.fillMaxWidth().clickable { act(action, (!on).toString()) }.padding(vertical = Design.Spacing.SMALL.dp),
                verticalAlignment = Alignment.CenterVertically) {
                BasicText(setting.getString("title"), Modifier.weight(1f), style = fonts.body(palette))
                Box(Modifier.size(28.dp).cut(if (on) palette.ink else palette.paper, palette.ink))
            }
        }
        BasicText(page.getString("themeTitle"), style = fonts.body(palette, color = palette.quiet))
        Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.SMALL.dp)) {
            val themes = page.getJSONArray("themes")
            for (i in 0 until themes.length()) {
                val theme = themes.getJSONObject(i)
                RowButton(theme.getString("title"), chosen = theme.getBoolean("isChosen")) { act("setTheme", theme.getString("theme")) }
            }
        }
        BasicText(page.getString("fontTitle"), style = fonts.body(palette, color = palette.quiet))
        BasicText(page.getString("fontFamily"), style = fonts.body(palette))
        page.optString("fontNote").takeIf { it.isNotEmpty() }?.let { BasicText(it, style = fonts.body(palette, color = palette.quiet)) }
    }

    @Composable
    private fun About(page: JSONObject) {
        BasicText(page.getString("text"), style = fonts.body(palette))
        BasicText(page.getString("licencesTitle"), style = fonts.body(palette).copy(fontWeight = FontWeight.Bold))
        val licences = page.getJSONArray("licences")
        for (i in 0 until licences.length()) BasicText(licences.getString(i), style = fonts.body(palette, Design.TypeSize.SMALL))
        BasicText(page.getString("versionLine"), style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
    }

    /** The model licence, before the first download: {"entry", "name", "summary", "url"}. */
    @Composable
    fun LicenceDialog(offer: JSONObject, answer: (Boolean) -> Unit) {
        Dialog(onDismissRequest = { answer(false) }) {
            Column(Modifier.cut(palette.paper, palette.ink).padding(Design.Spacing.LARGE.dp),
                verticalArrangement = Arrangement.spacedBy(Design.Spacing.MEDIUM.dp)) {
                BasicText(bridge.text("licenceTitle"), style = fonts.body(palette, Design.TypeSize.TITLE).copy(fontWeight = FontWeight.Bold))
                BasicText(offer.getJSONObject("entry").getString("displayName"), style = fonts.body(palette).copy(fontWeight = FontWeight.Bold))
                BasicText(offer.getString("summary"), style = fonts.body(palette))
                BasicText(offer.getString("url"), style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
                Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.MEDIUM.dp)) {
                    RowButton(bridge.text("cancel")) { answer(false) }
                    RowButton(bridge.text("licenceAccept"), chosen = true) { answer(true) }
                }
            }
        }
    }
}
