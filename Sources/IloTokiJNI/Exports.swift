import CJNI
import Foundation
import IloTokiCore
import IloTokiLocking

// The native methods of org.ilotoki.android.NativeBridge (android/app/src/main/java/org/
// ilotoki/android/NativeBridge.java): marshalling only. Every one turns a failure into a Java
// exception and returns a neutral value, so no call, however wrong, can crash the VM.

/// An open store behind a handle. Handles are numbers from a table, never pointers, so a
/// stale or made-up handle is found out instead of followed.
private struct Open: Sendable {
    let session: Session
    let callbacks: Callbacks
}

private let sessions = Locked<[Int64: Open]>([:])
private let lastHandle = Locked<Int64>(0)

private func session(_ handle: jlong) throws -> Open {
    guard let open = sessions.withLock({ $0[Int64(handle)] }) else { throw BridgeError.noSession(Int64(handle)) }
    return open
}

/// Runs `body` with the calling thread's JNI, raising a Java exception for what it throws.
private func bridged<T>(_ env: UnsafeMutablePointer<JNIEnv?>?, _ fallback: T, _ body: (JNI) throws -> T) -> T {
    guard let env else { return fallback }
    let jni = JNI(env: env)
    do {
        return try body(jni)
    } catch let error as BridgeError {
        jni.throwException(error.javaClass, error.message)
    } catch {
        jni.throwException("org/ilotoki/android/NativeBridge$Failure", error.localizedDescription)
    }
    return fallback
}

@_cdecl("JNI_OnLoad")
public func bridgeLoaded(_ vm: UnsafeMutablePointer<JavaVM?>?, _ reserved: UnsafeMutableRawPointer?) -> jint {
    MainQueue.loadedOnCurrentThread()
    return jint(JNI_VERSION_1_6)
}

/// `static native String version()`
@_cdecl("Java_org_ilotoki_android_NativeBridge_version")
public func bridgeVersion(_ env: UnsafeMutablePointer<JNIEnv?>?, _ type: jclass?) -> jstring? {
    bridged(env, nil) { $0.javaString("ilo toki \(AboutPage.version)") }
}

/// `static native void runMainQueue()`: a desktop JVM's stand-in for the UI thread's Looper.
@_cdecl("Java_org_ilotoki_android_NativeBridge_runMainQueue")
public func bridgeRunMainQueue(_ env: UnsafeMutablePointer<JNIEnv?>?, _ type: jclass?) {
    bridged(env, ()) { _ in try MainQueue.serve() }
}

/// `static native void stopMainQueue()`
@_cdecl("Java_org_ilotoki_android_NativeBridge_stopMainQueue")
public func bridgeStopMainQueue(_ env: UnsafeMutablePointer<JNIEnv?>?, _ type: jclass?) {
    MainQueue.stop()
}

/// `static native long open(String home, String language, String[] fontFamilies, Listener listener)`
@_cdecl("Java_org_ilotoki_android_NativeBridge_open")
public func bridgeOpen(
    _ env: UnsafeMutablePointer<JNIEnv?>?, _ type: jclass?, _ home: jstring?, _ language: jstring?, _ fonts: jobjectArray?,
    _ listener: jobject?
) -> jlong {
    bridged(env, 0) { jni in
        guard let path = jni.string(home), !path.isEmpty else { throw BridgeError.null("open needs the store's directory") }
        guard let listener else { throw BridgeError.null("open needs a listener") }
        let language = jni.string(language).flatMap { InterfaceLanguage(code: $0) } ?? .english
        let families = jni.strings(fonts)
        guard let changed = jni.method(of: listener, "onStateChanged", "()V"),
            let piece = jni.method(of: listener, "onPiece", "(Ljava/lang/String;)V")
        else { throw BridgeError.badArgument("the listener has no onStateChanged() or onPiece(String)") }
        guard let vm = jni.javaVM, let global = jni.globalRef(listener) else { throw BridgeError.misuse("the VM refused a reference") }
        let callbacks = Callbacks(Callbacks.Listener(vm: vm, object: global, changed: changed, piece: piece))
        let session: Session
        do {
            session = try MainQueue.run {
                try Session(
                    home: URL(fileURLWithPath: path, isDirectory: true), language: language, fontFamilies: families, callbacks: callbacks)
            }
        } catch {
            callbacks.close()
            throw error
        }
        let handle = lastHandle.withLock { last -> Int64 in
            last += 1
            return last
        }
        sessions.withLock { $0[handle] = Open(session: session, callbacks: callbacks) }
        return jlong(handle)
    }
}

/// `static native String screen(long handle, String place)`
@_cdecl("Java_org_ilotoki_android_NativeBridge_screen")
public func bridgeScreen(_ env: UnsafeMutablePointer<JNIEnv?>?, _ type: jclass?, _ handle: jlong, _ place: jstring?) -> jstring? {
    bridged(env, nil) { jni in
        let open = try session(handle)
        guard let place = jni.string(place) else { throw BridgeError.null("screen needs a place") }
        return jni.javaString(try MainQueue.run { try open.session.screen(place) })
    }
}

/// `static native String strings(long handle)`: every UI string in the store's language.
@_cdecl("Java_org_ilotoki_android_NativeBridge_strings")
public func bridgeStrings(_ env: UnsafeMutablePointer<JNIEnv?>?, _ type: jclass?, _ handle: jlong) -> jstring? {
    bridged(env, nil) { jni in
        let open = try session(handle)
        return jni.javaString(try MainQueue.run { try ScreenJSON.strings(open.session.strings) })
    }
}

/// `static native String perform(long handle, String action)`: the JSON of an `Action` in,
/// the JSON of its `ActionOutcome` out, at once (long work goes on; the listener hears of it).
@_cdecl("Java_org_ilotoki_android_NativeBridge_perform")
public func bridgePerform(_ env: UnsafeMutablePointer<JNIEnv?>?, _ type: jclass?, _ handle: jlong, _ action: jstring?) -> jstring? {
    bridged(env, nil) { jni in
        let open = try session(handle)
        guard let action = jni.string(action) else { throw BridgeError.null("perform needs an action") }
        return jni.javaString(try MainQueue.run { try open.session.perform(action) })
    }
}

/// `static native void setSystemPrefersDark(long handle, boolean dark)`: Android's night mode,
/// which the "system" theme follows.
@_cdecl("Java_org_ilotoki_android_NativeBridge_setSystemPrefersDark")
public func bridgeSetSystemPrefersDark(_ env: UnsafeMutablePointer<JNIEnv?>?, _ type: jclass?, _ handle: jlong, _ dark: jboolean) {
    bridged(env, ()) { _ in
        let open = try session(handle)
        try MainQueue.run { open.session.systemPrefersDark = dark != 0 }
        open.callbacks.post(.changed)
    }
}

/// `static native void setShortOfMemory(long handle, boolean shortOfMemory)`: Android's
/// `onTrimMemory`, passed on to the app model (the engine keeps less of the model in memory).
@_cdecl("Java_org_ilotoki_android_NativeBridge_setShortOfMemory")
public func bridgeSetShortOfMemory(_ env: UnsafeMutablePointer<JNIEnv?>?, _ type: jclass?, _ handle: jlong, _ short: jboolean) {
    bridged(env, ()) { _ in
        let open = try session(handle)
        try MainQueue.run { open.session.model.setShortOfMemory(short != 0) }
    }
}

/// `static native void close(long handle)`: stops what runs, writes what is pending, and
/// ends the listener's thread. The handle is dead from the moment this begins.
@_cdecl("Java_org_ilotoki_android_NativeBridge_close")
public func bridgeClose(_ env: UnsafeMutablePointer<JNIEnv?>?, _ type: jclass?, _ handle: jlong) {
    bridged(env, ()) { _ in
        guard let open = sessions.withLock({ $0.removeValue(forKey: Int64(handle)) }) else { throw BridgeError.noSession(Int64(handle)) }
        try MainQueue.runAndWait { await open.session.close() }
        open.callbacks.close()
    }
}
