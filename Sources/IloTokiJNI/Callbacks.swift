import CJNI
import Foundation

/// The one thread through which state changes and streamed pieces reach the Java listener.
/// It is attached to the VM for its whole life, so the listener is always called on the same
/// thread; consecutive "changed" events are merged, pieces are delivered in order.
final class Callbacks: @unchecked Sendable {
    enum Event: Equatable {
        case changed
        case piece(String)
    }

    private let condition = NSCondition()
    private var events: [Event] = []
    private var closed = false
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    /// The listener and what reaching it takes. The VM pointer, the global reference and the
    /// method ids are valid on every thread.
    struct Listener: @unchecked Sendable {
        let vm: UnsafeMutablePointer<JavaVM?>
        /// A global reference, released by the callback thread when it ends.
        let object: jobject
        let changed: jmethodID
        let piece: jmethodID
    }

    init(_ listener: Listener) {
        let thread = Thread { [self] in run(listener) }
        thread.name = "ilotoki-callbacks"
        self.thread = thread
        thread.start()
    }

    func post(_ event: Event) {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return }
        if event == .changed, events.last == .changed { return }
        events.append(event)
        condition.signal()
    }

    /// Delivers what is queued, then ends the thread; waits for it unless called from it.
    func close() {
        condition.lock()
        closed = true
        condition.signal()
        condition.unlock()
        if Thread.current != thread { finished.wait() }
    }

    private func run(_ listener: Listener) {
        defer { finished.signal() }
        guard let jni = listener.vm.attachCurrentThread() else { return }
        defer {
            jni.deleteGlobalRef(listener.object)
            listener.vm.detachCurrentThread()
        }
        while true {
            condition.lock()
            while events.isEmpty && !closed { condition.wait() }
            let batch = events
            events.removeAll()
            let ending = closed
            condition.unlock()
            for event in batch {
                switch event {
                case .changed:
                    jni.callVoid(listener.object, listener.changed, [])
                case .piece(let text):
                    let string = jni.javaString(text)
                    jni.callVoid(listener.object, listener.piece, [jvalue(l: string)])
                    jni.deleteLocalRef(string)
                }
            }
            if ending { return }
        }
    }
}
