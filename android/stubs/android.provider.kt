// From developer.android.com/reference/android/provider/OpenableColumns.
package android.provider

interface OpenableColumns {
    companion object {
        const val DISPLAY_NAME = "_display_name"
        const val SIZE = "_size"
    }
}
