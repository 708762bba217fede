package androidx.activity.result.contract

import android.net.Uri

abstract class ActivityResultContract<I, O>

class ActivityResultContracts private constructor() {
    /** Input: the MIME types to offer; output: the picked document, or null. */
    open class OpenDocument : ActivityResultContract<Array<String>, Uri?>()
}
