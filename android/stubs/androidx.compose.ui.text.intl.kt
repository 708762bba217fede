// From developer.android.com/reference/kotlin/androidx/compose/ui/text/intl/{LocaleList, Locale}.
package androidx.compose.ui.text.intl

class Locale(languageTag: String) {
    val language: String = languageTag.substringBefore('-')
    fun toLanguageTag(): String = language
}

class LocaleList(val localeList: List<Locale>) {
    /** Comma-separated BCP 47 tags ("ru,en"). */
    constructor(languageTags: String) : this(languageTags.split(",").map { Locale(it.trim()) })
    constructor(vararg locales: Locale) : this(locales.toList())
}
