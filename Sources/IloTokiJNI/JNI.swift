import CJNI

// The NDK's jni.h and a JDK's name the function tables differently and type `JNIEnv **`
// differently in AttachCurrentThread.
#if os(Android)
    typealias JNIFunctions = JNINativeInterface
#else
    typealias JNIFunctions = JNINativeInterface_
#endif

/// The few JNI calls the bridge makes, over one thread's `JNIEnv`. Strings cross as UTF-16 in
/// both directions (`GetStringChars`, `NewString`): Java's "modified UTF-8" cannot carry
/// characters outside the BMP, and a lone surrogate from Java becomes U+FFFD here instead of
/// invalid text.
struct JNI {
    let env: UnsafeMutablePointer<JNIEnv?>

    private var functions: JNIFunctions { env.pointee!.pointee }

    /// A Java string as Swift text; `nil` for a Java `null`.
    func string(_ value: jstring?) -> String? {
        guard let value else { return nil }
        let length = Int(functions.GetStringLength!(env, value))
        guard let chars = functions.GetStringChars!(env, value, nil) else { return nil }
        defer { functions.ReleaseStringChars!(env, value, chars) }
        return String(decoding: UnsafeBufferPointer(start: chars, count: length), as: UTF16.self)
    }

    /// Swift text as a new Java string (`nil` if the VM is out of memory: an exception is pending).
    func javaString(_ text: String) -> jstring? {
        let units = Array(text.utf16)
        return units.withUnsafeBufferPointer { functions.NewString!(env, $0.baseAddress, jsize($0.count)) }
    }

    /// The elements of a `String[]`; `nil` elements are left out.
    func strings(_ array: jobjectArray?) -> [String] {
        guard let array else { return [] }
        return (0..<functions.GetArrayLength!(env, array)).compactMap { index in
            guard let element = functions.GetObjectArrayElement!(env, array, index) else { return nil }
            defer { functions.DeleteLocalRef!(env, element) }
            return string(element)
        }
    }

    /// Raises a Java exception of `className` ("java/lang/IllegalStateException"), which the
    /// VM throws when the native method returns.
    func throwException(_ className: String, _ message: String) {
        guard functions.ExceptionCheck!(env) == 0 else { return }
        guard let type = functions.FindClass!(env, className) else { return }
        _ = functions.ThrowNew!(env, type, message)
        functions.DeleteLocalRef!(env, type)
    }

    func globalRef(_ object: jobject) -> jobject? { functions.NewGlobalRef!(env, object) }
    func deleteGlobalRef(_ object: jobject) { functions.DeleteGlobalRef!(env, object) }

    func method(of object: jobject, _ name: String, _ signature: String) -> jmethodID? {
        guard let type = functions.GetObjectClass!(env, object) else { return nil }
        defer { functions.DeleteLocalRef!(env, type) }
        let method = functions.GetMethodID!(env, type, name, signature)
        if method == nil { functions.ExceptionClear!(env) }
        return method
    }

    /// Calls a `void` method; an exception the Java side throws is reported and cleared, so
    /// a failing listener never takes the bridge down.
    func callVoid(_ object: jobject, _ method: jmethodID, _ arguments: [jvalue]) {
        arguments.withUnsafeBufferPointer { functions.CallVoidMethodA!(env, object, method, $0.baseAddress) }
        if functions.ExceptionCheck!(env) != 0 {
            functions.ExceptionDescribe!(env)
            functions.ExceptionClear!(env)
        }
    }

    func deleteLocalRef(_ object: jobject?) { functions.DeleteLocalRef!(env, object) }

    var javaVM: UnsafeMutablePointer<JavaVM?>? {
        var vm: UnsafeMutablePointer<JavaVM?>?
        return functions.GetJavaVM!(env, &vm) == JNI_OK ? vm : nil
    }
}

extension UnsafeMutablePointer where Pointee == JavaVM? {
    /// Attaches the calling thread to the VM as a daemon (it never keeps the VM alive).
    func attachCurrentThread() -> JNI? {
        #if os(Android)
            var env: UnsafeMutablePointer<JNIEnv?>?
            guard pointee!.pointee.AttachCurrentThreadAsDaemon!(self, &env, nil) == JNI_OK, let env else { return nil }
            return JNI(env: env)
        #else
            var env: UnsafeMutableRawPointer?
            guard pointee!.pointee.AttachCurrentThreadAsDaemon!(self, &env, nil) == JNI_OK, let env else { return nil }
            return JNI(env: env.assumingMemoryBound(to: JNIEnv?.self))
        #endif
    }

    func detachCurrentThread() { _ = pointee!.pointee.DetachCurrentThread!(self) }
}
