// Stub of the part of Apple's AppKit the app uses (the macOS branch), for type-checking the
// Apple app on Linux (scripts/check-apple.sh). Written from Apple's documented declarations
// with their isolation (NSApplication and its delegate are main-actor;
// developer.apple.com/documentation/appkit). AppKit's optional Objective-C requirements are
// given default implementations here, as Linux has no Objective-C runtime. No behaviour.
@_exported import CoreGraphics

@MainActor
open class NSResponder: NSObject {}

@MainActor
open class NSApplication: NSResponder {
    public class var shared: NSApplication { NSApplication() }
    /// The object that answers the Services menu's messages (`NSServices` in Info.plist).
    open var servicesProvider: Any?
    open var isActive: Bool { false }
    open func activate(ignoringOtherApps flag: Bool) {}
}

/// `NSApp`, the shared application.
@MainActor public var NSApp: NSApplication { NSApplication.shared }

/// The Swift standard library's on Apple's systems (Objective-C's `NSString **`); Linux has none.
public typealias AutoreleasingUnsafeMutablePointer<Pointee> = UnsafeMutablePointer<Pointee>

/// Tells the system to read the Services again (after `servicesProvider` is set).
public func NSUpdateDynamicServices() {}

@MainActor
public protocol NSApplicationDelegate: NSObjectProtocol {
    func applicationWillTerminate(_ notification: Notification)
    func applicationDidFinishLaunching(_ notification: Notification)
}

extension NSApplicationDelegate {
    public func applicationWillTerminate(_ notification: Notification) {}
    public func applicationDidFinishLaunching(_ notification: Notification) {}
}

public struct NSPasteboardTypeName: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

public typealias NSPasteboard_PasteboardType = NSPasteboardTypeName

open class NSPasteboard: NSObject, @unchecked Sendable {
    public typealias PasteboardType = NSPasteboardTypeName
    public class var general: NSPasteboard { NSPasteboard() }
    @discardableResult open func clearContents() -> Int { 0 }
    @discardableResult open func setString(_ string: String, forType dataType: PasteboardType) -> Bool { true }
    open func string(forType dataType: PasteboardType) -> String? { nil }
    open func declareTypes(_ newTypes: [PasteboardType], owner newOwner: Any?) -> Int { 0 }
}

extension NSPasteboardTypeName {
    public static let string = NSPasteboardTypeName(rawValue: "public.utf8-plain-text")
}
