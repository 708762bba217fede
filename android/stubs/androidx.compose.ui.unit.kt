// From developer.android.com/reference/kotlin/androidx/compose/ui/unit/package-summary.
package androidx.compose.ui.unit

@JvmInline
value class Dp(val value: Float) : Comparable<Dp> {
    override fun compareTo(other: Dp): Int = value.compareTo(other.value)
    operator fun plus(other: Dp): Dp = Dp(value + other.value)
    operator fun minus(other: Dp): Dp = Dp(value - other.value)
    operator fun times(other: Float): Dp = Dp(value * other)
    operator fun times(other: Int): Dp = Dp(value * other)
    operator fun div(other: Float): Dp = Dp(value / other)

    companion object {
        val Unspecified = Dp(Float.NaN)
        val Hairline = Dp(0f)
    }
}

val Int.dp: Dp get() = Dp(toFloat())
val Float.dp: Dp get() = Dp(this)
val Double.dp: Dp get() = Dp(toFloat())

@JvmInline
value class TextUnit(val packedValue: Long) {
    companion object {
        val Unspecified = TextUnit(0)
    }
}

val Int.sp: TextUnit get() = TextUnit(toLong())
val Float.sp: TextUnit get() = TextUnit(toLong())
val Double.sp: TextUnit get() = TextUnit(toLong())

interface Density {
    val density: Float
    val fontScale: Float
    fun Dp.toPx(): Float = value * density
    fun Int.toDp(): Dp = Dp(this / density)
}
