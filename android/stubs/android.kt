// From developer.android.com/reference/android/Manifest.permission and android/R.
package android

object Manifest {
    object permission {
        const val POST_NOTIFICATIONS = "android.permission.POST_NOTIFICATIONS"
        const val INTERNET = "android.permission.INTERNET"
    }
}

object R {
    object drawable {
        const val stat_sys_download = 0x01080081
        const val stat_sys_download_done = 0x01080082
    }
}
