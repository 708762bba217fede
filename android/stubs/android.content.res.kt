// From developer.android.com/reference/android/content/res/AssetManager.
package android.content.res

class AssetManager private constructor() {
    /** `InputStream open(String fileName) throws IOException` */
    fun open(fileName: String): java.io.InputStream = throw java.io.IOException(fileName)
}
