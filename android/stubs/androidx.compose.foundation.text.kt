// From developer.android.com/reference/kotlin/androidx/compose/foundation/text/{BasicText, BasicTextField}.
package androidx.compose.foundation.text

import androidx.compose.runtime.Composable
import androidx.compose.ui.Modifier
import androidx.compose.ui.text.TextStyle

@Composable
fun BasicText(
    text: String, modifier: Modifier = Modifier, style: TextStyle = TextStyle.Default, softWrap: Boolean = true,
    maxLines: Int = Int.MAX_VALUE, minLines: Int = 1,
) {}

@Composable
fun BasicTextField(
    value: String, onValueChange: (String) -> Unit, modifier: Modifier = Modifier, enabled: Boolean = true,
    readOnly: Boolean = false, textStyle: TextStyle = TextStyle.Default, singleLine: Boolean = false,
    maxLines: Int = if (singleLine) 1 else Int.MAX_VALUE, minLines: Int = 1,
    decorationBox: @Composable (innerTextField: @Composable () -> Unit) -> Unit = { innerTextField -> innerTextField() },
) {}
