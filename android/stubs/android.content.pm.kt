// From developer.android.com/reference/android/content/pm/{PackageManager, ServiceInfo}.
package android.content.pm

abstract class PackageManager {
    companion object {
        const val PERMISSION_GRANTED = 0
        const val PERMISSION_DENIED = -1
    }
}

open class ServiceInfo {
    companion object {
        const val FOREGROUND_SERVICE_TYPE_DATA_SYNC = 1
    }
}
