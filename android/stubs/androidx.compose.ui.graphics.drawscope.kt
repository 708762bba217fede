// From developer.android.com/reference/kotlin/androidx/compose/ui/graphics/drawscope/{DrawScope, Stroke, Fill}.
package androidx.compose.ui.graphics.drawscope

import androidx.compose.ui.geometry.Offset
import androidx.compose.ui.geometry.Size
import androidx.compose.ui.graphics.Color
import androidx.compose.ui.graphics.Path
import androidx.compose.ui.unit.Density

sealed class DrawStyle

object Fill : DrawStyle()

class Stroke(val width: Float = 0.0f, val miter: Float = 4.0f) : DrawStyle()

interface DrawScope : Density {
    val size: Size
    val center: Offset

    fun drawRect(
        color: Color, topLeft: Offset = Offset.Zero, size: Size = this.size, alpha: Float = 1.0f, style: DrawStyle = Fill,
    )

    fun drawCircle(
        color: Color, radius: Float = size.minDimension / 2.0f, center: Offset = this.center, alpha: Float = 1.0f,
        style: DrawStyle = Fill,
    )

    fun drawPath(path: Path, color: Color, alpha: Float = 1.0f, style: DrawStyle = Fill)
}

inline fun DrawScope.rotate(degrees: Float, pivot: Offset = center, block: DrawScope.() -> Unit) = block()
