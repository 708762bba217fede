// From developer.android.com/reference/kotlin/androidx/compose/ui/platform/package-summary (LocalView).
package androidx.compose.ui.platform

import androidx.compose.runtime.ProvidableCompositionLocal
import androidx.compose.runtime.staticCompositionLocalOf

/** The Android View that hosts the composition. */
val LocalView: ProvidableCompositionLocal<android.view.View> = staticCompositionLocalOf { throw IllegalStateException("no view") }
