// Stub of the part of Apple's App Intents the app uses, for type-checking the Apple app on Linux
// (scripts/check-apple.sh). Written from Apple's documented declarations
// (developer.apple.com/documentation/appintents): AppIntent with its static title and
// openAppWhenRun, @Parameter, a result that returns a value, and AppShortcutsProvider with its
// phrases. LocalizedStringResource is Foundation's on Apple's systems; Linux's Foundation has
// none, so it is declared here. No behaviour.
import Foundation

public struct LocalizedStringResource: ExpressibleByStringLiteral, Sendable {
    public init(stringLiteral value: String) {}
}

public protocol IntentResult: Sendable {}

public protocol ReturnsValue<Value>: IntentResult {
    associatedtype Value
}

public struct IntentResultContainer<Value: Sendable>: ReturnsValue {}

extension IntentResult {
    /// `static func result<Result>(value: Result) -> Self`
    public static func result<Value: Sendable>(value: Value) -> Self where Self == IntentResultContainer<Value> {
        IntentResultContainer()
    }
}

public protocol AppIntent: Sendable {
    associatedtype PerformResult: IntentResult
    static var title: LocalizedStringResource { get }
    static var description: IntentDescription { get }
    static var openAppWhenRun: Bool { get }
    init()
    func perform() async throws -> PerformResult
}

extension AppIntent {
    public static var description: IntentDescription { IntentDescription("") }
    public static var openAppWhenRun: Bool { false }
}

public struct IntentDescription: Sendable {
    public init(_ description: LocalizedStringResource) {}
}

@propertyWrapper
public final class IntentParameter<Value: Sendable>: @unchecked Sendable {
    private var value: Value?
    public init(title: LocalizedStringResource) {}
    public var wrappedValue: Value {
        get { value! }
        set { value = newValue }
    }
}

extension AppIntent {
    /// `@Parameter`: the `IntentParameter` property wrapper, as the SDK names it in an intent.
    public typealias Parameter<Value: Sendable> = IntentParameter<Value>
}

public struct AppShortcutPhraseToken: Sendable {
    public static let applicationName = AppShortcutPhraseToken()
}

public struct AppShortcutPhrase<Intent: AppIntent>: ExpressibleByStringInterpolation, Sendable {
    public struct StringInterpolation: StringInterpolationProtocol {
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) {}
        public mutating func appendInterpolation(_ token: AppShortcutPhraseToken) {}
    }
    public init(stringLiteral value: String) {}
    public init(stringInterpolation: StringInterpolation) {}
}

public struct AppShortcut: Sendable {
    public init<Intent: AppIntent>(
        intent: Intent, phrases: [AppShortcutPhrase<Intent>], shortTitle: LocalizedStringResource, systemImageName: String
    ) {}
}

@resultBuilder
public struct AppShortcutsBuilder {
    public static func buildBlock(_ components: AppShortcut...) -> [AppShortcut] { components }
}

public protocol AppShortcutsProvider {
    @AppShortcutsBuilder static var appShortcuts: [AppShortcut] { get }
}
