// Stub of the part of Apple's UIKit the app uses (the iOS and iPadOS branch), for
// type-checking the Apple app on Linux (scripts/check-apple.sh). Written from Apple's
// documented declarations with their isolation (UIApplication and UIPasteboard are
// main-actor classes; developer.apple.com/documentation/uikit). No behaviour.
@_exported import CoreGraphics

@MainActor
open class UIResponder: NSObject {}

/// The keyboard a text input asks for (`UIKeyboardType`, an `Int` enum in the SDK).
public enum UIKeyboardType: Int, Sendable {
    case `default` = 0
    case asciiCapable = 1
    case numbersAndPunctuation = 2
    case URL = 3
    case numberPad = 4
    case phonePad = 5
    case namePhonePad = 6
    case emailAddress = 7
    case decimalPad = 8
    case twitter = 9
    case webSearch = 10
    case asciiCapableNumberPad = 11
}

/// `UIApplication.State`: whether the app is in front.
public enum UIApplicationState: Int, Sendable {
    case active = 0
    case inactive = 1
    case background = 2
}

public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}

@MainActor
open class UIApplication: UIResponder {
    public class var shared: UIApplication { UIApplication() }

    /// `func beginBackgroundTask(withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil) -> UIBackgroundTaskIdentifier`
    open func beginBackgroundTask(
        withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier {
        .invalid
    }

    open func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {}

    public typealias State = UIApplicationState
    open var applicationState: State { .active }

    /// `class let didReceiveMemoryWarningNotification: NSNotification.Name`
    public static let didReceiveMemoryWarningNotification = NSNotification.Name("UIApplicationDidReceiveMemoryWarningNotification")
}

@MainActor
public protocol UIApplicationDelegate: AnyObject {
    func applicationWillTerminate(_ application: UIApplication)
}

extension UIApplicationDelegate {
    public func applicationWillTerminate(_ application: UIApplication) {}
}

@MainActor
open class UIPasteboard: NSObject {
    public class var general: UIPasteboard { UIPasteboard() }
    open var string: String?
}
