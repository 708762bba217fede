// From developer.android.com/reference/kotlin/androidx/compose/runtime/package-summary.
package androidx.compose.runtime

import kotlin.reflect.KProperty
import kotlinx.coroutines.CoroutineScope

@MustBeDocumented
@Retention(AnnotationRetention.BINARY)
@Target(AnnotationTarget.FUNCTION, AnnotationTarget.TYPE, AnnotationTarget.TYPE_PARAMETER, AnnotationTarget.PROPERTY_GETTER)
annotation class Composable

abstract class CompositionContext

interface State<out T> {
    val value: T
}

interface MutableState<T> : State<T> {
    override var value: T
}

interface IntState : State<Int> {
    val intValue: Int
}

interface MutableIntState : IntState, MutableState<Int> {
    override var intValue: Int
}

@Suppress("NOTHING_TO_INLINE")
inline operator fun <T> State<T>.getValue(thisObj: Any?, property: KProperty<*>): T = value

@Suppress("NOTHING_TO_INLINE")
inline operator fun <T> MutableState<T>.setValue(thisObj: Any?, property: KProperty<*>, value: T) {
    this.value = value
}

@Suppress("NOTHING_TO_INLINE")
inline operator fun IntState.getValue(thisObj: Any?, property: KProperty<*>): Int = intValue

@Suppress("NOTHING_TO_INLINE")
inline operator fun MutableIntState.setValue(thisObj: Any?, property: KProperty<*>, value: Int) {
    intValue = value
}

interface SnapshotMutationPolicy<T>

fun <T> structuralEqualityPolicy(): SnapshotMutationPolicy<T> = object : SnapshotMutationPolicy<T> {}

fun <T> mutableStateOf(value: T, policy: SnapshotMutationPolicy<T> = structuralEqualityPolicy()): MutableState<T> =
    throw UnsupportedOperationException()

fun mutableIntStateOf(value: Int): MutableIntState = throw UnsupportedOperationException()

@Composable
inline fun <T> remember(crossinline calculation: () -> T): T = calculation()

@Composable
inline fun <T> remember(key1: Any?, crossinline calculation: () -> T): T = calculation()

@Composable
inline fun <T> remember(key1: Any?, key2: Any?, crossinline calculation: () -> T): T = calculation()

@Composable
inline fun <T> remember(key1: Any?, key2: Any?, key3: Any?, crossinline calculation: () -> T): T = calculation()

@Composable
fun LaunchedEffect(key1: Any?, block: suspend CoroutineScope.() -> Unit) {}

@Composable
fun LaunchedEffect(key1: Any?, key2: Any?, block: suspend CoroutineScope.() -> Unit) {}

sealed class CompositionLocal<T> {
    /** `inline val current: T @Composable @ReadOnlyComposable get()` */
    val current: T get() = throw UnsupportedOperationException()
}

open class ProvidedValue<T>

abstract class ProvidableCompositionLocal<T> : CompositionLocal<T>() {
    infix fun provides(value: T): ProvidedValue<T> = ProvidedValue()
}

fun <T> staticCompositionLocalOf(defaultFactory: () -> T): ProvidableCompositionLocal<T> = object : ProvidableCompositionLocal<T>() {}

@Composable
fun CompositionLocalProvider(vararg values: ProvidedValue<*>, content: @Composable () -> Unit) {}
