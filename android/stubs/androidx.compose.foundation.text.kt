// From developer.android.com/reference/kotlin/androidx/compose/foundation/text/{BasicText, BasicTextField, KeyboardOptions}.
package androidx.compose.foundation.text

import androidx.compose.runtime.Composable
import androidx.compose.ui.Modifier
import androidx.compose.ui.text.TextStyle
import androidx.compose.ui.text.input.KeyboardCapitalization
import androidx.compose.ui.text.input.KeyboardType
import androidx.compose.ui.text.intl.LocaleList

@Composable
fun BasicText(
    text: String, modifier: Modifier = Modifier, style: TextStyle = TextStyle.Default, softWrap: Boolean = true,
    maxLines: Int = Int.MAX_VALUE, minLines: Int = 1,
) {}

@Composable
fun BasicTextField(
    value: String, onValueChange: (String) -> Unit, modifier: Modifier = Modifier, enabled: Boolean = true,
    readOnly: Boolean = false, textStyle: TextStyle = TextStyle.Default,
    keyboardOptions: KeyboardOptions = KeyboardOptions.Default, singleLine: Boolean = false,
    maxLines: Int = if (singleLine) 1 else Int.MAX_VALUE, minLines: Int = 1,
    decorationBox: @Composable (innerTextField: @Composable () -> Unit) -> Unit = { innerTextField -> innerTextField() },
) {}

/** The constructor with `autoCorrectEnabled` (the one with `autoCorrect` is deprecated); the app names its arguments, so `imeAction` and `platformImeOptions`, which it does not pass, are left out. */
class KeyboardOptions(
    val capitalization: KeyboardCapitalization = KeyboardCapitalization.Unspecified,
    val autoCorrectEnabled: Boolean? = null,
    val keyboardType: KeyboardType = KeyboardType.Unspecified,
    val showKeyboardOnFocus: Boolean? = null,
    val hintLocales: LocaleList? = null,
) {
    companion object {
        val Default: KeyboardOptions = KeyboardOptions()
    }
}
