// From kotlinlang.org/api/kotlinx.coroutines (CoroutineScope), which LaunchedEffect's block receives.
package kotlinx.coroutines

interface CoroutineScope
