package org.ilotoki.android

import android.content.res.AssetManager
import androidx.compose.foundation.Canvas
import androidx.compose.foundation.background
import androidx.compose.foundation.border
import androidx.compose.foundation.layout.Box
import androidx.compose.foundation.layout.size
import androidx.compose.foundation.shape.CircleShape
import androidx.compose.runtime.Composable
import androidx.compose.runtime.staticCompositionLocalOf
import androidx.compose.ui.Modifier
import androidx.compose.ui.draw.drawBehind
import androidx.compose.ui.geometry.Offset
import androidx.compose.ui.geometry.Size
import androidx.compose.ui.graphics.Color
import androidx.compose.ui.graphics.Path
import androidx.compose.ui.graphics.RectangleShape
import androidx.compose.ui.graphics.drawscope.DrawScope
import androidx.compose.ui.graphics.drawscope.Stroke
import androidx.compose.ui.graphics.drawscope.rotate
import androidx.compose.ui.text.TextStyle
import androidx.compose.ui.text.font.Font
import androidx.compose.ui.text.font.FontFamily
import androidx.compose.ui.unit.Dp
import androidx.compose.ui.unit.dp
import androidx.compose.ui.unit.sp

/** The colours of one theme, from the generated Design constants. */
data class Palette(val paper: Color, val ink: Color, val jelo: Color, val onJelo: Color, val quiet: Color) {
    companion object {
        val light = Palette(
            Color(Design.Light.PAPER), Color(Design.Light.INK), Color(Design.Light.JELO), Color(Design.Light.ON_JELO), Color(Design.Light.QUIET))
        val dark = Palette(
            Color(Design.Dark.PAPER), Color(Design.Dark.INK), Color(Design.Dark.JELO), Color(Design.Dark.ON_JELO), Color(Design.Dark.QUIET))
    }
}

/** Space Grotesk and the sitelen pona font, from the APK's assets. */
class Fonts(assets: AssetManager) {
    val ui = FontFamily(Font("SpaceGrotesk[wght].ttf", assets))
    val sitelenPona = FontFamily(Font("sitelen-seli-kiwen-asuki.ttf", assets))

    fun body(palette: Palette, size: Float = Design.TypeSize.BODY, color: Color = palette.ink) =
        TextStyle(fontFamily = ui, fontSize = size.sp, color = color)

    /** Plain Latin Toki Pona, drawn as sitelen pona by the font's ligatures. */
    fun sitelen(color: Color) = TextStyle(
        fontFamily = sitelenPona, fontSize = Design.TypeSize.SITELEN_PONA.sp, color = color,
        fontFeatureSettings = Design.Font.SITELEN_PONA_FEATURES)
}

val LocalPalette = staticCompositionLocalOf { Palette.light }

/** The 2 dp ink outline and the hard 4 dp offset shadow of everything that stands on the paper. */
fun Modifier.cut(fill: Color, ink: Color, shadow: Color = ink): Modifier = this
    .drawBehind {
        val offset = Design.SHADOW_OFFSET.dp.toPx()
        drawRect(shadow, topLeft = Offset(offset, offset), size = size)
    }
    .background(fill, RectangleShape)
    .border(Design.OUTLINE.dp, ink, RectangleShape)

/** The round knob's outline and shadow. */
fun Modifier.round(fill: Color, ink: Color): Modifier = this
    .drawBehind {
        val offset = Design.SHADOW_OFFSET.dp.toPx()
        drawCircle(ink, radius = size.minDimension / 2, center = Offset(size.width / 2 + offset, size.height / 2 + offset))
    }
    .background(fill, CircleShape)
    .border(Design.OUTLINE.dp, ink, CircleShape)

/** An icon of IloTokiDesign, drawn from its shapes: the same as on every other front end. */
@Composable
fun Icon(name: String, color: Color, size: Dp = 22.dp) {
    val shapes = Design.ICONS[name] ?: return
    Box(Modifier.size(size)) {
        Canvas(Modifier.size(size)) { shapes.forEach { draw(it, color) } }
    }
}

private fun DrawScope.draw(shape: Design.IconShape, color: Color) {
    val scale = size.minDimension / Design.ICON_GRID
    fun at(x: Float, y: Float) = Offset(x * scale, y * scale)
    when (shape) {
        is Design.IconShape.Rectangle -> rotate(shape.rotation, pivot = at(shape.x + shape.width / 2, shape.y + shape.height / 2)) {
            drawRect(color, topLeft = at(shape.x, shape.y), size = Size(shape.width * scale, shape.height * scale))
        }
        is Design.IconShape.Frame -> {
            val line = shape.lineWidth * scale
            drawRect(
                color, topLeft = Offset(shape.x * scale + line / 2, shape.y * scale + line / 2),
                size = Size(shape.width * scale - line, shape.height * scale - line), style = Stroke(line))
        }
        is Design.IconShape.Triangle -> drawPath(Path().apply {
            moveTo(shape.ax * scale, shape.ay * scale)
            lineTo(shape.bx * scale, shape.by * scale)
            lineTo(shape.cx * scale, shape.cy * scale)
            close()
        }, color)
        is Design.IconShape.Circle -> drawCircle(color, radius = shape.radius * scale, center = at(shape.centerX, shape.centerY))
        is Design.IconShape.Ring -> drawCircle(
            color, radius = shape.radius * scale, center = at(shape.centerX, shape.centerY), style = Stroke(shape.lineWidth * scale))
    }
}
