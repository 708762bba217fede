// From developer.android.com/reference/kotlin/androidx/compose/foundation/package-summary.
package androidx.compose.foundation

import androidx.compose.runtime.Composable
import androidx.compose.ui.Modifier
import androidx.compose.ui.graphics.Color
import androidx.compose.ui.graphics.RectangleShape
import androidx.compose.ui.graphics.Shape
import androidx.compose.ui.graphics.drawscope.DrawScope
import androidx.compose.ui.unit.Dp

fun Modifier.background(color: Color, shape: Shape = RectangleShape): Modifier = this

fun Modifier.border(width: Dp, color: Color, shape: Shape = RectangleShape): Modifier = this

fun Modifier.clickable(enabled: Boolean = true, onClickLabel: String? = null, onClick: () -> Unit): Modifier = this

@Composable
fun isSystemInDarkTheme(): Boolean = false

class ScrollState(initial: Int)

@Composable
fun rememberScrollState(initial: Int = 0): ScrollState = ScrollState(initial)

fun Modifier.verticalScroll(state: ScrollState, enabled: Boolean = true, reverseScrolling: Boolean = false): Modifier = this

fun Modifier.horizontalScroll(state: ScrollState, enabled: Boolean = true, reverseScrolling: Boolean = false): Modifier = this

@Composable
fun Canvas(modifier: Modifier, onDraw: DrawScope.() -> Unit) {}
