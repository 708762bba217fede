// From developer.android.com/reference/android/net/Uri.
package android.net

abstract class Uri {
    /** `String getLastPathSegment()`, nullable. */
    abstract val lastPathSegment: String?
    abstract val path: String?
}
