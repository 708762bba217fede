// From developer.android.com/reference/kotlin/androidx/compose/ui/graphics/{Color, Path, Shape, RectangleShape}.
package androidx.compose.ui.graphics

@JvmInline
value class Color(val value: ULong) {
    val alpha: Float get() = 1f
    fun copy(alpha: Float = this.alpha, red: Float = 0f, green: Float = 0f, blue: Float = 0f): Color = this

    companion object {
        val Black = Color(0xFF000000UL)
        val White = Color(0xFFFFFFFFUL)
        val Transparent = Color(0UL)
        val Unspecified = Color(16UL)
    }
}

fun Color(color: Long): Color = Color(color.toULong())
fun Color(color: Int): Color = Color(color.toULong())

interface Path {
    fun moveTo(x: Float, y: Float)
    fun lineTo(x: Float, y: Float)
    fun close()
}

fun Path(): Path = object : Path {
    override fun moveTo(x: Float, y: Float) {}
    override fun lineTo(x: Float, y: Float) {}
    override fun close() {}
}

interface Shape

val RectangleShape: Shape = object : Shape {}
