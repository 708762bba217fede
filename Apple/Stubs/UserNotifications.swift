// Stub of the part of Apple's UserNotifications the app uses, for type-checking the Apple app
// on Linux (scripts/check-apple.sh). Written from Apple's documented declarations
// (developer.apple.com/documentation/usernotifications): UNUserNotificationCenter and its
// async methods, UNMutableNotificationContent, UNNotificationRequest. No behaviour.
import Foundation

public struct UNAuthorizationOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
}

public enum UNAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case denied = 1
    case authorized = 2
    case provisional = 3
    case ephemeral = 4
}

open class UNNotificationSettings: NSObject, @unchecked Sendable {
    open var authorizationStatus: UNAuthorizationStatus { .notDetermined }
}

open class UNNotificationSound: NSObject, @unchecked Sendable {
    open class var `default`: UNNotificationSound { UNNotificationSound() }
}

open class UNNotificationContent: NSObject, @unchecked Sendable {}

open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    open var title: String = ""
    open var body: String = ""
    open var sound: UNNotificationSound?
}

open class UNNotificationTrigger: NSObject, @unchecked Sendable {}

open class UNNotificationRequest: NSObject, @unchecked Sendable {
    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {}
}

open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    open class func current() -> UNUserNotificationCenter { UNUserNotificationCenter() }
    open func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool { false }
    open func notificationSettings() async -> UNNotificationSettings { UNNotificationSettings() }
    open func add(_ request: UNNotificationRequest) async throws {}
}
