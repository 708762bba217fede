// From developer.android.com/reference/android/view/{View, HapticFeedbackConstants}.
package android.view

open class View {
    /** `boolean performHapticFeedback(int feedbackConstant)` */
    fun performHapticFeedback(feedbackConstant: Int): Boolean = false
}

/** Java's static int constants, as Kotlin sees them. */
object HapticFeedbackConstants {
    const val LONG_PRESS = 0
    const val VIRTUAL_KEY = 1
    const val KEYBOARD_TAP = 3
    const val CLOCK_TICK = 4
}
