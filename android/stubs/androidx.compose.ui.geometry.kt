// From developer.android.com/reference/kotlin/androidx/compose/ui/geometry/{Offset, Size}.
package androidx.compose.ui.geometry

@JvmInline
value class Offset(val packedValue: Long) {
    val x: Float get() = 0f
    val y: Float get() = 0f

    companion object {
        val Zero = Offset(0L)
        val Unspecified = Offset(-1L)
    }
}

fun Offset(x: Float, y: Float): Offset = Offset(0L)

@JvmInline
value class Size(val packedValue: Long) {
    val width: Float get() = 0f
    val height: Float get() = 0f
    val minDimension: Float get() = minOf(width, height)
    val maxDimension: Float get() = maxOf(width, height)

    companion object {
        val Zero = Size(0L)
        val Unspecified = Size(-1L)
    }
}

fun Size(width: Float, height: Float): Size = Size(0L)
