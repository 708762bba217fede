package androidx.compose.foundation.shape

import androidx.compose.ui.graphics.Shape

val CircleShape: Shape = object : Shape {}
