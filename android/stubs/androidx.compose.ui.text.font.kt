// From developer.android.com/reference/kotlin/androidx/compose/ui/text/font/{Font, FontFamily, FontWeight}.
package androidx.compose.ui.text.font

import android.content.res.AssetManager

interface Font

/** The Android-only `Font(path: String, assetManager: AssetManager, weight, style, variationSettings)`. */
fun Font(path: String, assetManager: AssetManager, weight: FontWeight = FontWeight.Normal): Font = object : Font {}

abstract class FontFamily

fun FontFamily(vararg fonts: Font): FontFamily = object : FontFamily() {}

class FontWeight(val weight: Int) {
    companion object {
        val Normal = FontWeight(400)
        val Medium = FontWeight(500)
        val Bold = FontWeight(700)
    }
}
