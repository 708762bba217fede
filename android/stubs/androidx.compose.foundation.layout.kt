// From developer.android.com/reference/kotlin/androidx/compose/foundation/layout/package-summary.
package androidx.compose.foundation.layout

import androidx.compose.runtime.Composable
import androidx.compose.ui.Alignment
import androidx.compose.ui.Modifier
import androidx.compose.ui.unit.Dp

object Arrangement {
    interface Horizontal
    interface Vertical
    interface HorizontalOrVertical : Horizontal, Vertical

    val Start: Horizontal = object : Horizontal {}
    val End: Horizontal = object : Horizontal {}
    val Top: Vertical = object : Vertical {}
    val Bottom: Vertical = object : Vertical {}
    val Center: HorizontalOrVertical = object : HorizontalOrVertical {}
    val SpaceBetween: HorizontalOrVertical = object : HorizontalOrVertical {}

    fun spacedBy(space: Dp): HorizontalOrVertical = object : HorizontalOrVertical {}
}

interface BoxScope {
    fun Modifier.align(alignment: Alignment): Modifier = this
}

interface BoxWithConstraintsScope : BoxScope {
    val maxWidth: Dp
    val maxHeight: Dp
    val minWidth: Dp
    val minHeight: Dp
}

interface RowScope {
    fun Modifier.weight(weight: Float, fill: Boolean = true): Modifier = this
    fun Modifier.align(alignment: Alignment.Vertical): Modifier = this
}

interface ColumnScope {
    fun Modifier.weight(weight: Float, fill: Boolean = true): Modifier = this
    fun Modifier.align(alignment: Alignment.Horizontal): Modifier = this
}

@Composable
inline fun Box(
    modifier: Modifier = Modifier, contentAlignment: Alignment = Alignment.TopStart, propagateMinConstraints: Boolean = false,
    content: @Composable BoxScope.() -> Unit,
) {}

@Composable
fun Box(modifier: Modifier) {}

@Composable
fun BoxWithConstraints(
    modifier: Modifier = Modifier, contentAlignment: Alignment = Alignment.TopStart, propagateMinConstraints: Boolean = false,
    content: @Composable BoxWithConstraintsScope.() -> Unit,
) {}

@Composable
inline fun Column(
    modifier: Modifier = Modifier, verticalArrangement: Arrangement.Vertical = Arrangement.Top,
    horizontalAlignment: Alignment.Horizontal = Alignment.Start, content: @Composable ColumnScope.() -> Unit,
) {}

@Composable
inline fun Row(
    modifier: Modifier = Modifier, horizontalArrangement: Arrangement.Horizontal = Arrangement.Start,
    verticalAlignment: Alignment.Vertical = Alignment.Top, content: @Composable RowScope.() -> Unit,
) {}

@Composable
fun Spacer(modifier: Modifier) {}

fun Modifier.padding(all: Dp): Modifier = this
fun Modifier.padding(horizontal: Dp = Dp(0f), vertical: Dp = Dp(0f)): Modifier = this
fun Modifier.padding(start: Dp = Dp(0f), top: Dp = Dp(0f), end: Dp = Dp(0f), bottom: Dp = Dp(0f)): Modifier = this
fun Modifier.fillMaxSize(fraction: Float = 1.0f): Modifier = this
fun Modifier.fillMaxWidth(fraction: Float = 1.0f): Modifier = this
fun Modifier.fillMaxHeight(fraction: Float = 1.0f): Modifier = this
fun Modifier.height(height: Dp): Modifier = this
fun Modifier.heightIn(min: Dp = Dp.Unspecified, max: Dp = Dp.Unspecified): Modifier = this
fun Modifier.size(size: Dp): Modifier = this
fun Modifier.size(width: Dp, height: Dp): Modifier = this
fun Modifier.sizeIn(minWidth: Dp = Dp.Unspecified, minHeight: Dp = Dp.Unspecified, maxWidth: Dp = Dp.Unspecified, maxHeight: Dp = Dp.Unspecified): Modifier =
    this
fun Modifier.safeDrawingPadding(): Modifier = this
