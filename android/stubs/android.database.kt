// From developer.android.com/reference/android/database/Cursor.
package android.database

interface Cursor : java.io.Closeable {
    fun moveToFirst(): Boolean
    fun getString(columnIndex: Int): String?
    fun getColumnIndex(columnName: String): Int
}
