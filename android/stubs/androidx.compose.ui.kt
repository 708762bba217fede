// From developer.android.com/reference/kotlin/androidx/compose/ui/{Modifier, Alignment, zIndex}.
package androidx.compose.ui

interface Modifier {
    infix fun then(other: Modifier): Modifier = other

    companion object : Modifier
}

interface Alignment {
    interface Horizontal
    interface Vertical

    companion object {
        val TopStart: Alignment = object : Alignment {}
        val TopCenter: Alignment = object : Alignment {}
        val TopEnd: Alignment = object : Alignment {}
        val CenterStart: Alignment = object : Alignment {}
        val Center: Alignment = object : Alignment {}
        val BottomCenter: Alignment = object : Alignment {}
        val Top: Vertical = object : Vertical {}
        val CenterVertically: Vertical = object : Vertical {}
        val Bottom: Vertical = object : Vertical {}
        val Start: Horizontal = object : Horizontal {}
        val CenterHorizontally: Horizontal = object : Horizontal {}
        val End: Horizontal = object : Horizontal {}
    }
}

fun Modifier.zIndex(zIndex: Float): Modifier = this
