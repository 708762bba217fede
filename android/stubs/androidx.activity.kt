// From developer.android.com/reference/kotlin/androidx/activity/{ComponentActivity, compose, result}.
package androidx.activity

open class ComponentActivity : android.app.Activity()
