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
import androidx.compose.foundation.text.KeyboardOptions
import androidx.compose.foundation.horizontalScroll
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
import androidx.compose.ui.semantics.ProgressBarRangeInfo
import androidx.compose.ui.semantics.heading
import androidx.compose.ui.semantics.progressBarRangeInfo
import androidx.compose.ui.semantics.semantics
import androidx.compose.ui.semantics.stateDescription
import androidx.compose.ui.text.font.FontWeight
import androidx.compose.ui.text.input.KeyboardCapitalization
import androidx.compose.ui.text.input.KeyboardType
import androidx.compose.ui.text.intl.LocaleList
import androidx.compose.ui.unit.dp
import androidx.compose.ui.window.Dialog
import androidx.compose.ui.zIndex

/**
 * The screens, drawn from Core's values (MainScreen and the pages, in Contract.kt's types):
 * this file decides nothing about the app's state, it picks a widget for each value and sends
 * actions. What a screen reader says of each control comes from Core too.
 */
class Ui(
    private val bridge: Bridge,
    private val fonts: Fonts,
    private val palette: Palette,
    private val perform: (Action) -> Unit,
    private val go: (Place) -> Unit,
    private val pickModel: (PromptFormat) -> Unit,
) {
    /** The main screen; `reply` (text from another app's selection) offers its translation back. */
    @Composable
    fun Main(screen: MainScreen, reply: (() -> Unit)? = null) {
        Column(Modifier.fillMaxSize().background(palette.paper).safeDrawingPadding()) {
            Header(screen.header)
            // Under the header, the width of the screen: it names a model, which the header has no room for.
            screen.header.standIn?.let {
                BasicText(it, Modifier.fillMaxWidth().padding(horizontal = Design.Spacing.MEDIUM.dp),
                    style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet), maxLines = 2)
            }
            screen.header.download?.let { ProgressLine(it.fraction) }
            Column(Modifier.weight(1f).verticalScroll(rememberScrollState()).padding(Design.Spacing.LARGE.dp)) {
                Plates(screen)
                screen.hint?.let { hint ->
                    Spacer(Modifier.height(Design.Spacing.LARGE.dp))
                    Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.MEDIUM.dp)) {
                        BasicText(hint.text, style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet), modifier = Modifier.weight(1f))
                        RowButton(hint.dismissTitle) { perform(Action.DismissFirstRunHint) }
                    }
                }
                screen.word?.let { card ->
                    Spacer(Modifier.height(Design.Spacing.LARGE.dp))
                    WordCard(card)
                }
                screen.notice?.let { notice ->
                    Spacer(Modifier.height(Design.Spacing.LARGE.dp))
                    BasicText(notice, style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
                }
            }
            reply?.let { back ->
                Row(Modifier.fillMaxWidth().padding(horizontal = Design.Spacing.LARGE.dp), horizontalArrangement = Arrangement.End) {
                    RowButton(screen.replaceLabel, action = back)
                }
            }
            Slab(screen.slab)
        }
    }

    @Composable
    private fun Header(header: MainScreenHeader) {
        Row(Modifier.fillMaxWidth().padding(horizontal = Design.Spacing.MEDIUM.dp, vertical = Design.Spacing.SMALL.dp),
            verticalAlignment = Alignment.CenterVertically) {
            Column(Modifier.weight(1f)) {
                BasicText(header.title, style = fonts.body(palette, Design.TypeSize.TITLE).copy(fontWeight = FontWeight.Bold))
                Row(verticalAlignment = Alignment.CenterVertically) {
                    BasicText(header.modelLine, style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
                    if (header.showsNewerModelDot) {
                        Box(Modifier.padding(start = Design.Spacing.HAIRLINE.dp).size(10.dp).background(palette.ink, CircleShape)
                            .semantics { contentDescription = header.newerModelLabel })
                    }
                }
            }
            header.download?.let { download ->
                IconButton(download.icon, download.label) { perform(Action.ToggleDownload) }
            }
            for (link in header.places) IconButton(link.icon, link.title) { go(link.place) }
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
    private fun Plates(screen: MainScreen) {
        BoxWithConstraints {
            if (maxWidth >= Design.Window.WIDE_LAYOUT.dp) {
                Box(contentAlignment = Alignment.TopCenter) {
                    Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.EXTRA_LARGE.dp)) {
                        Box(Modifier.weight(1f)) { Plate(screen.source, screen, isTarget = false) }
                        Box(Modifier.weight(1f)) { Plate(screen.target, screen, isTarget = true) }
                    }
                    Box(Modifier.padding(top = (Design.Spacing.EXTRA_LARGE * 2).dp)) { Knob(screen.swapLabel) }
                }
            } else {
                Column {
                    Plate(screen.source, screen, isTarget = false)
                    // The knob is taller than the gap: drawn above both plates, on their seam.
                    Box(Modifier.fillMaxWidth().height(Design.Spacing.EXTRA_LARGE.dp).zIndex(1f), contentAlignment = Alignment.Center) {
                        Knob(screen.swapLabel)
                    }
                    Plate(screen.target, screen, isTarget = true)
                }
            }
        }
    }

    @Composable
    private fun Knob(label: String) {
        Box(Modifier.size(Design.KNOB.dp).round(palette.paper, palette.ink).clickable { perform(Action.Swap) }
            .semantics { contentDescription = label }, contentAlignment = Alignment.Center) {
            Icon(IconName.SWAP.json, palette.ink, 24.dp)
        }
    }

    /** The target plate is the one jelo surface. */
    @Composable
    private fun Plate(plate: MainScreenPlate, screen: MainScreen, isTarget: Boolean) {
        val fill = if (isTarget) palette.jelo else palette.paper
        val ink = if (isTarget) palette.onJelo else palette.ink
        val style = if (plate.inSitelenPona) fonts.sitelen(ink) else fonts.body(palette, Design.TypeSize.PLATE, ink)
        Column(Modifier.fillMaxWidth().heightIn(min = 160.dp).cut(fill, palette.ink).padding(Design.Spacing.MEDIUM.dp)) {
            Row(verticalAlignment = Alignment.CenterVertically) {
                LanguageLabel(plate, ink)
                Spacer(Modifier.weight(1f))
                plate.pill?.let { pill ->
                    BasicText(pill, style = fonts.body(palette, Design.TypeSize.SMALL, ink),
                        modifier = Modifier.border(Design.OUTLINE.dp, palette.ink, CircleShape).background(palette.paper, CircleShape)
                            .clickable { perform(Action.FlipScript) }.padding(horizontal = 12.dp, vertical = 4.dp)
                            .semantics { contentDescription = plate.pillLabel; stateDescription = plate.scriptName })
                }
                if (plate.canCopy) IconButton(IconName.SHARE, screen.shareLabel) { perform(Action.Share) }
                if (plate.canCopy) IconButton(IconName.COPY, screen.copyLabel) { perform(Action.Copy) }
            }
            if (isTarget) {
                BasicText(plate.text, style = if (plate.isMessage) fonts.body(palette, Design.TypeSize.BODY, ink) else style,
                    modifier = Modifier.semantics { contentDescription = plate.textLabel })
                // A long text's progress: a thin bar that TalkBack announces as a progress bar.
                screen.translationBar?.let { bar ->
                    val fraction = bar.fraction.toFloat().coerceIn(0f, 1f)
                    Box(Modifier.fillMaxWidth().padding(top = Design.Spacing.SMALL.dp).height(4.dp)
                        .semantics { contentDescription = bar.label; progressBarRangeInfo = ProgressBarRangeInfo(fraction, 0f..1f) }) {
                        Box(Modifier.fillMaxHeight().fillMaxWidth(fraction).background(ink))
                    }
                }
                if (plate.dictionaryWords.isNotEmpty()) DictionaryWords(plate.dictionaryWords)
            } else {
                // What is typed is the truth until the model's text changes by itself (swap,
                // a sample phrase, a history entry): then the field takes the model's text.
                var editing by remember { mutableStateOf(plate.text) }
                var seen by remember { mutableStateOf(plate.text) }
                if (plate.text != seen) {
                    seen = plate.text
                    if (plate.text != editing) editing = plate.text
                }
                BasicTextField(editing, { editing = it; perform(Action.SetSourceText(it)) }, textStyle = style,
                    keyboardOptions = keyboardOptions(plate.keyboard),
                    modifier = Modifier.fillMaxWidth().heightIn(min = 96.dp).semantics { contentDescription = plate.textLabel },
                    decorationBox = { field ->
                        if (editing.isEmpty()) BasicText(bridge.text(UIText.SOURCE_PLACEHOLDER), style = fonts.body(palette, Design.TypeSize.BODY, palette.quiet))
                        field()
                    })
                if (plate.dictionaryWords.isNotEmpty()) DictionaryWords(plate.dictionaryWords)
                if (plate.samplePhrases.isNotEmpty()) {
                    BasicText(bridge.text(UIText.SAMPLES_TITLE), style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
                    for (phrase in plate.samplePhrases) RowButton(phrase) { perform(Action.UseSample(phrase)) }
                }
            }
        }
    }

    /**
     * The keyboard Core asks for the plate's language: on the Toki Pona plate no corrections, no
     * automatic capitals and an ASCII keyboard; on the other the language's own keyboard, where the
     * input method honours the hint (EditorInfo.hintLocales).
     */
    private fun keyboardOptions(keyboard: MainScreenKeyboard) = KeyboardOptions(
        capitalization = if (keyboard.capitalizesSentences) KeyboardCapitalization.Sentences else KeyboardCapitalization.None,
        autoCorrectEnabled = keyboard.corrects,
        keyboardType = if (keyboard.asciiOnly) KeyboardType.Ascii else KeyboardType.Text,
        hintLocales = keyboard.languageTag?.let { LocaleList(it) },
    )

    /** The dictionary words of a Toki Pona plate, to tap: each shows its entry. */
    @Composable
    private fun DictionaryWords(words: List<String>) {
        Row(Modifier.horizontalScroll(rememberScrollState()), horizontalArrangement = Arrangement.spacedBy(Design.Spacing.SMALL.dp)) {
            for (word in words) RowButton(word) { perform(Action.LookUpWord(word)) }
        }
    }

    /** A Toki Pona word's entry in lipu Linku's dictionary (its definition is English). */
    @Composable
    private fun WordCard(card: MainScreenWordCard) {
        Column(Modifier.fillMaxWidth().cut(palette.paper, palette.ink).padding(Design.Spacing.MEDIUM.dp),
            verticalArrangement = Arrangement.spacedBy(Design.Spacing.SMALL.dp)) {
            Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.MEDIUM.dp)) {
                card.glyph?.let { BasicText(it, style = fonts.sitelen(palette.ink)) }
                Column(Modifier.weight(1f)) {
                    BasicText(card.word, style = fonts.body(palette, Design.TypeSize.PLATE))
                    if (card.usage.isNotEmpty()) BasicText(card.usage, style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
                }
                IconButton(IconName.CLOSE, card.closeLabel) { perform(Action.CloseWord) }
            }
            BasicText(card.definition, style = fonts.body(palette))
            if (card.seeAlso.isNotEmpty()) {
                BasicText(card.seeAlsoTitle, style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
                Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.SMALL.dp)) {
                    for (word in card.seeAlso) RowButton(word) { perform(Action.LookUpWord(word)) }
                }
            }
            BasicText(card.credit, style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
        }
    }

    @Composable
    private fun LanguageLabel(plate: MainScreenPlate, ink: Color) {
        var open by remember { mutableStateOf(false) }
        val describe = Modifier.semantics { contentDescription = plate.languageLabel; stateDescription = plate.languageTitle }
        BasicText(plate.languageTitle.uppercase(), style = fonts.body(palette, Design.TypeSize.SMALL, ink).copy(fontWeight = FontWeight.Bold),
            modifier = if (plate.choosesLanguage) describe.clickable { open = !open } else describe)
        if (open) {
            Dialog(onDismissRequest = { open = false }) {
                Column(Modifier.cut(palette.paper, palette.ink).padding(Design.Spacing.MEDIUM.dp)) {
                    for (choice in plate.languageChoices) {
                        RowButton(choice.title, chosen = choice.isChosen) {
                            open = false
                            perform(Action.SetOtherLanguage(choice.language))
                        }
                    }
                }
            }
        }
    }

    @Composable
    private fun Slab(slab: MainScreenSlab) {
        Row(Modifier.padding(Design.Spacing.LARGE.dp).fillMaxWidth().heightIn(min = 56.dp)
            .cut(palette.ink, palette.ink, palette.quiet)
            .clickable(enabled = slab.isEnabled) { perform(Action.PressSlab) }.padding(Design.Spacing.LARGE.dp)
            .semantics { contentDescription = slab.title },
            verticalAlignment = Alignment.CenterVertically) {
            BasicText(slab.title, Modifier.weight(1f),
                style = fonts.body(palette, Design.TypeSize.BODY + 1, palette.paper.copy(alpha = if (slab.isEnabled) 1f else 0.5f))
                    .copy(fontWeight = FontWeight.Bold))
            Icon(slab.icon.json, palette.paper)
        }
    }

    @Composable
    fun IconButton(icon: IconName, label: String, action: () -> Unit) {
        Box(Modifier.sizeIn(minWidth = Design.TOUCH_TARGET.dp, minHeight = Design.TOUCH_TARGET.dp).clickable(onClick = action)
            .semantics { contentDescription = label }, contentAlignment = Alignment.Center) {
            Icon(icon.json, palette.ink)
        }
    }

    @Composable
    fun RowButton(title: String, chosen: Boolean = false, label: String = title, action: () -> Unit) {
        BasicText(title, style = fonts.body(palette, Design.TypeSize.BODY, if (chosen) palette.paper else palette.ink),
            modifier = Modifier.padding(vertical = Design.Spacing.HAIRLINE.dp).cut(if (chosen) palette.ink else palette.paper, palette.ink)
                .clickable(onClick = action).padding(horizontal = 14.dp, vertical = 8.dp)
                .semantics { contentDescription = label })
    }

    // MARK: The places

    @Composable
    fun Place(link: MainScreenPlaceLink, generation: Int) {
        Column(Modifier.fillMaxSize().background(palette.paper).safeDrawingPadding().verticalScroll(rememberScrollState())
            .padding(Design.Spacing.LARGE.dp), verticalArrangement = Arrangement.spacedBy(Design.Spacing.MEDIUM.dp)) {
            Row(verticalAlignment = Alignment.CenterVertically) {
                IconButton(IconName.CLOSE, bridge.text(UIText.BACK)) { go(Place.MAIN) }
                BasicText(link.title, style = fonts.body(palette, Design.TypeSize.TITLE).copy(fontWeight = FontWeight.Bold))
            }
            when (link.place) {
                Place.HISTORY -> History(remember(generation) { bridge.history() })
                Place.MODELS -> Models(remember(generation) { bridge.models() })
                Place.SETTINGS -> Settings(remember(generation) { bridge.settings() })
                Place.ABOUT -> About(remember(generation) { bridge.about() })
                Place.MAIN -> Unit
            }
        }
    }

    @Composable
    private fun History(page: HistoryPage) {
        Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.SMALL.dp)) {
            RowButton(page.allTitle, chosen = !page.onlyOlin) { perform(Action.FilterHistory(false)) }
            RowButton(page.olinTitle, chosen = page.onlyOlin) { perform(Action.FilterHistory(true)) }
            Spacer(Modifier.weight(1f))
            RowButton(page.clearTitle) { perform(Action.ClearHistory) }
        }
        page.note?.let { BasicText(it, style = fonts.body(palette, color = palette.quiet)) }
        page.empty?.let { BasicText(it, style = fonts.body(palette, color = palette.quiet)) }
        for (day in page.days) {
            BasicText(day.title.uppercase(), style = fonts.body(palette, Design.TypeSize.SMALL).copy(fontWeight = FontWeight.Bold),
                modifier = Modifier.padding(top = Design.Spacing.SMALL.dp).semantics { heading() })
            for (row in day.rows) HistoryRow(row)
        }
    }

    @Composable
    private fun HistoryRow(row: HistoryPageRow) {
        Column(Modifier.fillMaxWidth().cut(palette.paper, palette.ink).clickable { perform(Action.Reuse(row.id)) }
            .padding(Design.Spacing.MEDIUM.dp)) {
            Row(verticalAlignment = Alignment.CenterVertically) {
                BasicText(row.meta, Modifier.weight(1f), style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
                Box(Modifier.size(Design.TOUCH_TARGET.dp).clickable { perform(Action.SetOlin(row.id, !row.isOlin)) }
                    .semantics { contentDescription = row.olinLabel }, contentAlignment = Alignment.Center) {
                    Icon(IconName.OLIN.json, if (row.isOlin) palette.ink else palette.quiet.copy(alpha = 0.35f), 20.dp)
                }
            }
            BasicText(row.source, style = if (row.sourceInSitelenPona) fonts.sitelen(palette.ink) else fonts.body(palette))
            BasicText(row.result, style = if (row.resultInSitelenPona) fonts.sitelen(palette.ink)
                else fonts.body(palette).copy(fontWeight = FontWeight.Bold))
        }
    }

    @Composable
    private fun Models(page: ModelsPage) {
        BasicText(page.storage, style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
        for (row in page.rows) {
            Column(Modifier.fillMaxWidth().cut(palette.paper, palette.ink).padding(Design.Spacing.MEDIUM.dp),
                verticalArrangement = Arrangement.spacedBy(Design.Spacing.SMALL.dp)) {
                BasicText(row.name, style = fonts.body(palette).copy(fontWeight = FontWeight.Bold))
                BasicText(row.facts, style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
                Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.SMALL.dp)) {
                    for (button in row.buttons) {
                        val action = button.action
                        if (action == null) {
                            BasicText(button.title, style = fonts.body(palette).copy(fontWeight = FontWeight.Bold),
                                modifier = Modifier.semantics { contentDescription = button.accessibleName })
                        } else {
                            RowButton(button.title, label = button.accessibleName) { perform(action) }
                        }
                    }
                }
            }
        }
        BasicText(page.formatTitle, style = fonts.body(palette, color = palette.quiet))
        Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.SMALL.dp)) {
            for (choice in page.formats) RowButton(choice.title, chosen = choice.format == page.chosenFormat) {
                perform(Action.SetImportFormat(choice.format))
            }
        }
        if (page.isImporting) {
            BasicText(page.addTitle + "…", style = fonts.body(palette, color = palette.quiet))
        } else {
            RowButton(page.addTitle) { pickModel(page.chosenFormat) }
        }
        page.importError?.let { BasicText(it, style = fonts.body(palette, color = palette.quiet)) }
    }

    @Composable
    private fun Settings(page: SettingsPage) {
        for ((setting, action) in listOf(
            page.keepHistory to { on: Boolean -> Action.SetKeepHistory(on) },
            page.translateAsYouType to { on: Boolean -> Action.SetTranslateAsYouType(on) },
            page.translateBySentence to { on: Boolean -> Action.SetTranslateBySentence(on) },
            page.haptics to { on: Boolean -> Action.SetHaptics(on) },
        )) {
            Row(Modifier.fillMaxWidth().clickable { perform(action(!setting.isOn)) }.padding(vertical = Design.Spacing.SMALL.dp)
                .semantics { contentDescription = setting.title; stateDescription = if (setting.isOn) "on" else "off" },
                verticalAlignment = Alignment.CenterVertically) {
                BasicText(setting.title, Modifier.weight(1f), style = fonts.body(palette))
                Box(Modifier.size(28.dp).cut(if (setting.isOn) palette.ink else palette.paper, palette.ink))
            }
        }
        BasicText(page.themeTitle, style = fonts.body(palette, color = palette.quiet))
        Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.SMALL.dp)) {
            for (theme in page.themes) RowButton(theme.title, chosen = theme.isChosen) { perform(Action.SetTheme(theme.theme)) }
        }
        BasicText(page.fontTitle, style = fonts.body(palette, color = palette.quiet))
        BasicText(page.fontFamily, style = fonts.body(palette))
        page.fontNote?.let { BasicText(it, style = fonts.body(palette, color = palette.quiet)) }
    }

    @Composable
    private fun About(page: AboutPage) {
        BasicText(page.text, style = fonts.body(palette))
        BasicText(page.licencesTitle, style = fonts.body(palette).copy(fontWeight = FontWeight.Bold))
        for (licence in page.licences) BasicText(licence, style = fonts.body(palette, Design.TypeSize.SMALL))
        BasicText(page.versionLine, style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
    }

    /** The model licence, before the first download. */
    @Composable
    fun LicenceDialog(offer: LicenceOffer, answer: (Boolean) -> Unit) {
        Dialog(onDismissRequest = { answer(false) }) {
            Column(Modifier.cut(palette.paper, palette.ink).padding(Design.Spacing.LARGE.dp),
                verticalArrangement = Arrangement.spacedBy(Design.Spacing.MEDIUM.dp)) {
                BasicText(bridge.text(UIText.LICENCE_TITLE), style = fonts.body(palette, Design.TypeSize.TITLE).copy(fontWeight = FontWeight.Bold))
                BasicText(offer.entry.displayName, style = fonts.body(palette).copy(fontWeight = FontWeight.Bold))
                BasicText(offer.summary, style = fonts.body(palette))
                BasicText(offer.url, style = fonts.body(palette, Design.TypeSize.SMALL, palette.quiet))
                Row(horizontalArrangement = Arrangement.spacedBy(Design.Spacing.MEDIUM.dp)) {
                    RowButton(bridge.text(UIText.CANCEL)) { answer(false) }
                    RowButton(bridge.text(UIText.LICENCE_ACCEPT), chosen = true) { answer(true) }
                }
            }
        }
    }
}
