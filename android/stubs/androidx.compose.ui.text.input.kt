// From developer.android.com/reference/kotlin/androidx/compose/ui/text/input/{KeyboardCapitalization, KeyboardType}:
// value classes whose values are their companions' constants.
package androidx.compose.ui.text.input

@JvmInline
value class KeyboardCapitalization private constructor(private val value: Int) {
    companion object {
        val Unspecified = KeyboardCapitalization(-1)
        val None = KeyboardCapitalization(0)
        val Characters = KeyboardCapitalization(1)
        val Words = KeyboardCapitalization(2)
        val Sentences = KeyboardCapitalization(3)
    }
}

@JvmInline
value class KeyboardType private constructor(private val value: Int) {
    companion object {
        val Unspecified = KeyboardType(0)
        val Text = KeyboardType(1)
        val Ascii = KeyboardType(2)
        val Number = KeyboardType(3)
        val Phone = KeyboardType(4)
        val Uri = KeyboardType(5)
        val Email = KeyboardType(6)
        val Password = KeyboardType(7)
        val NumberPassword = KeyboardType(8)
        val Decimal = KeyboardType(9)
    }
}
