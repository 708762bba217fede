// From developer.android.com/reference/android/content/res/AssetManager.
package android.content.res

class AssetManager private constructor()
