// From developer.android.com/reference/kotlin/androidx/compose/ui/window/Dialog.
package androidx.compose.ui.window

import androidx.compose.runtime.Composable

class DialogProperties(val dismissOnBackPress: Boolean = true, val dismissOnClickOutside: Boolean = true)

@Composable
fun Dialog(onDismissRequest: () -> Unit, properties: DialogProperties = DialogProperties(), content: @Composable () -> Unit) {}
