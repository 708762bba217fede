// From developer.android.com/reference/kotlin/androidx/compose/ui/semantics/package-summary.
package androidx.compose.ui.semantics

import androidx.compose.ui.Modifier

interface SemanticsPropertyReceiver

var SemanticsPropertyReceiver.contentDescription: String
    get() = throw UnsupportedOperationException()
    set(value) {}

var SemanticsPropertyReceiver.stateDescription: String
    get() = throw UnsupportedOperationException()
    set(value) {}

fun SemanticsPropertyReceiver.heading() {}

fun Modifier.semantics(mergeDescendants: Boolean = false, properties: SemanticsPropertyReceiver.() -> Unit): Modifier = this

class ProgressBarRangeInfo(val current: Float, val range: ClosedFloatingPointRange<Float>, val steps: Int = 0)

var SemanticsPropertyReceiver.progressBarRangeInfo: ProgressBarRangeInfo
    get() = throw UnsupportedOperationException()
    set(value) {}
