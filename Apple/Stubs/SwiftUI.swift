// Stub of the part of SwiftUI the app uses, for type-checking the Apple app on Linux
// (scripts/check-apple.sh). Written from Apple's documented declarations
// (developer.apple.com/documentation/swiftui, the iOS 18 / macOS 15 SDK), with their isolation:
// `View`, `App`, `Scene`, `Commands` and `ViewModifier` are main-actor protocols; the value
// types (Color, Font, Alignment…) are Sendable; action closures run on the main actor.
// Compiled once with the UIKit stub (the iOS branch) and once with the AppKit stub (macOS).
//
// Signatures keep Apple's labels, defaults and generic constraints, so the app's calls resolve
// as they do in Xcode; the bodies only satisfy the compiler. A pass means the app agrees with
// these declarations, not that it builds with the real SDK.
@_exported import CoreGraphics
@_exported import Observation

#if canImport(UIKit)
    @_exported import UIKit
#elseif canImport(AppKit)
    @_exported import AppKit
#endif

import UniformTypeIdentifiers

// MARK: - Views and result builders

@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

/// A view the stub does not look inside: every modifier returns one.
public struct _ModifiedView: View {
    public var body: Never { fatalError() }
    nonisolated init() {}
}

public struct TupleView<T>: View {
    public var body: Never { fatalError() }
    nonisolated init() {}
}

public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    public var body: Never { fatalError() }
    nonisolated init() {}
}

extension Optional: View where Wrapped: View {
    public var body: Never { fatalError() }
}

public struct EmptyView: View {
    public nonisolated init() {}
    public var body: Never { fatalError() }
}

public struct AnyView: View {
    public nonisolated init<V: View>(_ view: V) {}
    public var body: Never { fatalError() }
}

@resultBuilder
public enum ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> { TupleView() }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> { _ConditionalContent() }
    public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> { _ConditionalContent() }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

// MARK: - Values

public struct Alignment: Equatable, Sendable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
}

public protocol AlignmentID {
    static func defaultValue(in context: ViewDimensions) -> CGFloat
}

public struct HorizontalAlignment: Equatable, Sendable {
    private let name: String
    public init(_ id: any AlignmentID.Type) { name = String(describing: id) }
    private init(name: String) { self.name = name }
    public static let leading = HorizontalAlignment(name: "leading")
    public static let center = HorizontalAlignment(name: "center")
    public static let trailing = HorizontalAlignment(name: "trailing")
}

public struct VerticalAlignment: Equatable, Sendable {
    private let name: String
    public init(_ id: any AlignmentID.Type) { name = String(describing: id) }
    private init(name: String) { self.name = name }
    public static let top = VerticalAlignment(name: "top")
    public static let center = VerticalAlignment(name: "center")
    public static let bottom = VerticalAlignment(name: "bottom")
    public static let firstTextBaseline = VerticalAlignment(name: "firstTextBaseline")
}

public struct ViewDimensions {
    public var width: CGFloat { 0 }
    public var height: CGFloat { 0 }
    public subscript(guide: HorizontalAlignment) -> CGFloat { 0 }
    public subscript(guide: VerticalAlignment) -> CGFloat { 0 }
}

public enum Edge: Int8, CaseIterable, Sendable {
    case top, leading, bottom, trailing

    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let top = Set(rawValue: 1)
        public static let leading = Set(rawValue: 2)
        public static let bottom = Set(rawValue: 4)
        public static let trailing = Set(rawValue: 8)
        public static let all: Set = [.top, .leading, .bottom, .trailing]
        public static let horizontal: Set = [.leading, .trailing]
        public static let vertical: Set = [.top, .bottom]
    }
}

public enum Axis: Int8, CaseIterable, Sendable {
    case horizontal, vertical

    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let horizontal = Set(rawValue: 1)
        public static let vertical = Set(rawValue: 2)
    }
}

public enum ColorScheme: CaseIterable, Hashable, Sendable {
    case light, dark
}

public enum ScenePhase: Comparable, Hashable, Sendable {
    case background, inactive, active
}

public enum Visibility: Hashable, CaseIterable, Sendable {
    case automatic, visible, hidden
}

public protocol ShapeStyle: Sendable {}

public struct ForegroundStyle: ShapeStyle {
    public init() {}
}

extension ShapeStyle where Self == ForegroundStyle {
    public static var foreground: ForegroundStyle { ForegroundStyle() }
}

public struct Color: Hashable, ShapeStyle, View {
    public enum RGBColorSpace: Sendable {
        case sRGB, sRGBLinear, displayP3
    }

    public init(_ colorSpace: RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1) {}
    public init(_ name: String, bundle: Bundle? = nil) {}
    public func opacity(_ opacity: Double) -> Color { self }
    public var body: Never { fatalError() }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let clear = Color(red: 0, green: 0, blue: 0, opacity: 0)
}

public struct Font: Hashable, Sendable {
    public enum TextStyle: CaseIterable, Hashable, Sendable {
        case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
    }

    public enum Weight: Hashable, Sendable {
        case regular, medium, semibold, bold
    }

    public static func custom(_ name: String, size: CGFloat, relativeTo textStyle: Font.TextStyle) -> Font { Font() }
    public static func custom(_ name: String, size: CGFloat) -> Font { Font() }
    public static func system(_ style: Font.TextStyle) -> Font { Font() }
    public static let body = Font()
    public static let title = Font()
    public static let footnote = Font()
    public static let caption = Font()
    public func bold() -> Font { self }
    public func weight(_ weight: Weight) -> Font { self }
}

public struct KeyEquivalent: ExpressibleByExtendedGraphemeClusterLiteral, Hashable, Sendable {
    public var character: Character
    public init(_ character: Character) { self.character = character }
    public init(extendedGraphemeClusterLiteral: Character) { character = extendedGraphemeClusterLiteral }
    public static let `return` = KeyEquivalent("\r")
    public static let escape = KeyEquivalent("\u{1B}")
    public static let delete = KeyEquivalent("\u{8}")
    public static let tab = KeyEquivalent("\t")
}

public struct EventModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let shift = EventModifiers(rawValue: 1)
    public static let control = EventModifiers(rawValue: 2)
    public static let option = EventModifiers(rawValue: 4)
    public static let command = EventModifiers(rawValue: 8)
}

public struct ButtonRole: Equatable, Sendable {
    public static let cancel = ButtonRole()
    public static let destructive = ButtonRole()
}

public struct AccessibilityTraits: SetAlgebra, Sendable {
    private var bits: Set<Int>
    public init() { bits = [] }
    private init(_ bit: Int) { bits = [bit] }
    public static let isButton = AccessibilityTraits(1)
    public static let isHeader = AccessibilityTraits(2)
    public static let isSelected = AccessibilityTraits(3)
    public func union(_ other: AccessibilityTraits) -> AccessibilityTraits { AccessibilityTraits() }
    public func intersection(_ other: AccessibilityTraits) -> AccessibilityTraits { AccessibilityTraits() }
    public func symmetricDifference(_ other: AccessibilityTraits) -> AccessibilityTraits { AccessibilityTraits() }
    public func contains(_ member: AccessibilityTraits) -> Bool { false }
    public mutating func insert(_ newMember: AccessibilityTraits) -> (inserted: Bool, memberAfterInsert: AccessibilityTraits) { (true, newMember) }
    public mutating func remove(_ member: AccessibilityTraits) -> AccessibilityTraits? { nil }
    public mutating func update(with newMember: AccessibilityTraits) -> AccessibilityTraits? { nil }
    public mutating func formUnion(_ other: AccessibilityTraits) {}
    public mutating func formIntersection(_ other: AccessibilityTraits) {}
    public mutating func formSymmetricDifference(_ other: AccessibilityTraits) {}
}

public enum AccessibilityChildBehavior: Sendable {
    case ignore, contain, combine
}

public struct PresentationDetent: Hashable, Sendable {
    public static let medium = PresentationDetent()
    public static let large = PresentationDetent()
}

// MARK: - State and the environment

@propertyWrapper
public struct State<Value>: DynamicProperty {
    public init(wrappedValue value: Value) { storage = value }
    public init(initialValue value: Value) { storage = value }
    private var storage: Value
    public var wrappedValue: Value {
        get { storage }
        nonmutating set {}
    }
    public var projectedValue: Binding<Value> { fatalError() }
}

extension State: Sendable where Value: Sendable {}

@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    /// `init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void)`:
    /// the closures keep the isolation of where they are written (the main actor, in a view).
    public init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void) {}
    public static func constant(_ value: Value) -> Binding<Value> { fatalError() }
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set {}
    }
    public var projectedValue: Binding<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> { fatalError() }
}

public protocol DynamicProperty {}

public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Self.Value { get }
}

public struct EnvironmentValues {
    public init() {}
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { K.defaultValue }
        set {}
    }
    public var colorScheme: ColorScheme {
        get { .light }
        set {}
    }
    public var scenePhase: ScenePhase {
        get { .active }
        set {}
    }
}

@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    private let keyPath: KeyPath<EnvironmentValues, Value>
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }
    public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
}

extension Environment: @unchecked Sendable where Value: Sendable {}

// MARK: - Primitive views

public struct Text: View, Equatable, Sendable {
    public init<S: StringProtocol>(_ content: S) {}
    public init(verbatim content: String) {}
    public var body: Never { fatalError() }
    public func font(_ font: Font?) -> Text { self }
    public func bold(_ isActive: Bool = true) -> Text { self }
    public func italic(_ isActive: Bool = true) -> Text { self }
    public func tracking(_ tracking: CGFloat) -> Text { self }
    public func foregroundColor(_ color: Color?) -> Text { self }
}

public struct Button<Label: View>: View {
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    public init(role: ButtonRole?, action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    public var body: Never { fatalError() }
}

extension Button where Label == Text {
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
    public init<S: StringProtocol>(_ title: S, role: ButtonRole?, action: @escaping @MainActor () -> Void) {}
}

public struct VStack<Content: View>: View {
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

public struct HStack<Content: View>: View {
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

public struct ZStack<Content: View>: View {
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

public struct Spacer: View {
    public init(minLength: CGFloat? = nil) {}
    public var body: Never { fatalError() }
}

public struct ScrollView<Content: View>: View {
    public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

public struct ViewThatFits<Content: View>: View {
    public init(in axes: Axis.Set = [.horizontal, .vertical], @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

public struct GeometryProxy {
    public var size: CGSize { .zero }
}

public struct GeometryReader<Content: View>: View {
    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) {}
    public var body: Never { fatalError() }
}

public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
    public var body: Never { fatalError() }
}

extension ForEach where ID == Data.Element.ID, Data.Element: Identifiable {
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
}

extension ForEach where Data == Range<Int>, ID == Int {
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {}
}

public struct Menu<Label: View, Content: View>: View {
    public init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {}
    public var body: Never { fatalError() }
}

public struct Picker<Label: View, SelectionValue: Hashable, Content: View>: View {
    public var body: Never { fatalError() }
}

extension Picker where Label == Text {
    public init<S: StringProtocol>(_ title: S, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {}
}

public struct Toggle<Label: View>: View {
    public var body: Never { fatalError() }
}

extension Toggle where Label == Text {
    public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {}
}

public struct TextField<Label: View>: View {
    public var body: Never { fatalError() }
}

extension TextField where Label == Text {
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) {}
}

public struct TextEditor: View {
    public init(text: Binding<String>) {}
    public var body: Never { fatalError() }
}

public struct Link<Label: View>: View {
    public var body: Never { fatalError() }
}

extension Link where Label == Text {
    public init<S: StringProtocol>(_ title: S, destination: URL) {}
}

public struct ProgressView<Label: View, CurrentValueLabel: View>: View {
    public var body: Never { fatalError() }
}

extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    public init() {}
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) {}
}

public struct NavigationStack<Data, Root: View>: View {
    public init(@ViewBuilder root: () -> Root) where Data == [AnyHashable] {}
    public init(path: Binding<Data>, @ViewBuilder root: () -> Root)
    where Data: MutableCollection, Data: RandomAccessCollection, Data: RangeReplaceableCollection, Data.Element: Hashable {}
    public var body: Never { fatalError() }
}

// MARK: - Shapes

public struct FillStyle: Equatable, Sendable {
    public init(eoFill: Bool = false, antialiased: Bool = true) {}
}

public struct Path: Equatable, Sendable {
    public init() {}
    public init(_ rect: CGRect) {}
    public init(ellipseIn rect: CGRect) {}
    public var boundingRect: CGRect { .zero }
    public var isEmpty: Bool { true }
    public mutating func move(to end: CGPoint) {}
    public mutating func addLine(to end: CGPoint) {}
    public mutating func closeSubpath() {}
    public mutating func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {}
    public mutating func addPath(_ path: Path, transform: CGAffineTransform = .identity) {}
    public func subtracting(_ other: Path, eoFill: Bool = false) -> Path { self }
}

public protocol Shape: View, Sendable {
    func path(in rect: CGRect) -> Path
}

extension Shape {
    public var body: _ModifiedView { _ModifiedView() }
    public func fill<S: ShapeStyle>(_ content: S = .foreground, style: FillStyle = FillStyle()) -> _ModifiedView { _ModifiedView() }
    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> _ModifiedView { _ModifiedView() }
}

public protocol InsettableShape: Shape {}

extension InsettableShape {
    public func strokeBorder<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1, antialiased: Bool = true) -> _ModifiedView {
        _ModifiedView()
    }
}

public struct Rectangle: InsettableShape {
    public init() {}
    public nonisolated func path(in rect: CGRect) -> Path { Path(rect) }
}

public struct Circle: InsettableShape {
    public init() {}
    public nonisolated func path(in rect: CGRect) -> Path { Path(ellipseIn: rect) }
}

public struct Capsule: InsettableShape {
    public init() {}
    public nonisolated func path(in rect: CGRect) -> Path { Path(rect) }
}

// MARK: - Styles

public protocol PrimitiveButtonStyle {}
public struct PlainButtonStyle: PrimitiveButtonStyle {
    public init() {}
}
public struct BorderlessButtonStyle: PrimitiveButtonStyle {
    public init() {}
}
extension PrimitiveButtonStyle where Self == PlainButtonStyle {
    public static var plain: PlainButtonStyle { PlainButtonStyle() }
}
extension PrimitiveButtonStyle where Self == BorderlessButtonStyle {
    public static var borderless: BorderlessButtonStyle { BorderlessButtonStyle() }
}

public protocol MenuStyle {}
public struct ButtonMenuStyle: MenuStyle {
    public init() {}
}
extension MenuStyle where Self == ButtonMenuStyle {
    public static var button: ButtonMenuStyle { ButtonMenuStyle() }
}

public protocol TextSelectability {}
public struct EnabledTextSelectability: TextSelectability {}
extension TextSelectability where Self == EnabledTextSelectability {
    public static var enabled: EnabledTextSelectability { EnabledTextSelectability() }
}

// MARK: - View modifiers

@MainActor @preconcurrency
public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
    public var body: Never { fatalError() }
}

public struct SubmitTriggers: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let text = SubmitTriggers(rawValue: 1)
}

public struct ToolbarItemPlacement: Sendable {
    public static let automatic = ToolbarItemPlacement()
    public static let primaryAction = ToolbarItemPlacement()
}

@MainActor @preconcurrency
public protocol ToolbarContent {}

@resultBuilder
public enum ToolbarContentBuilder {
    public static func buildBlock<Content: ToolbarContent>(_ content: Content) -> Content { content }
}

public struct ToolbarItemGroup<Content: View>: ToolbarContent {
    public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {}
}

extension View {
    public func modifier<T: ViewModifier>(_ modifier: T) -> _ModifiedView { _ModifiedView() }

    public func padding(_ length: CGFloat) -> _ModifiedView { _ModifiedView() }
    public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> _ModifiedView { _ModifiedView() }
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> _ModifiedView { _ModifiedView() }
    public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> _ModifiedView { _ModifiedView() }
    public func fixedSize() -> _ModifiedView { _ModifiedView() }
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> _ModifiedView { _ModifiedView() }
    public func opacity(_ opacity: Double) -> _ModifiedView { _ModifiedView() }
    public func alignmentGuide(_ g: VerticalAlignment, computeValue: @escaping @Sendable (ViewDimensions) -> CGFloat) -> _ModifiedView {
        _ModifiedView()
    }
    public func alignmentGuide(_ g: HorizontalAlignment, computeValue: @escaping @Sendable (ViewDimensions) -> CGFloat) -> _ModifiedView {
        _ModifiedView()
    }

    public func font(_ font: Font?) -> _ModifiedView { _ModifiedView() }
    public func bold(_ isActive: Bool = true) -> _ModifiedView { _ModifiedView() }
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> _ModifiedView { _ModifiedView() }
    public func background<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> _ModifiedView { _ModifiedView() }
    /// Deprecated in the SDK (for `background(alignment:content:)`); where a value is both a
    /// view and a style (a `Color`), the SDK resolves to the style overload, as here.
    @_disfavoredOverload
    public func background<V: View>(_ background: V, alignment: Alignment = .center) -> _ModifiedView { _ModifiedView() }
    public func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> _ModifiedView { _ModifiedView() }
    public func overlay<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> _ModifiedView { _ModifiedView() }
    @_disfavoredOverload
    public func overlay<V: View>(_ overlay: V, alignment: Alignment = .center) -> _ModifiedView { _ModifiedView() }
    public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> _ModifiedView { _ModifiedView() }
    public func contentShape<S: Shape>(_ shape: S, eoFill: Bool = false) -> _ModifiedView { _ModifiedView() }
    public func textSelection<S: TextSelectability>(_ selectability: S) -> _ModifiedView { _ModifiedView() }
    public func scrollContentBackground(_ visibility: Visibility) -> _ModifiedView { _ModifiedView() }
    /// `func autocorrectionDisabled(_ disable: Bool = true) -> some View` (iOS 13, macOS 10.15)
    public func autocorrectionDisabled(_ disable: Bool = true) -> _ModifiedView { _ModifiedView() }

    public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> _ModifiedView { _ModifiedView() }
    public func menuStyle<S: MenuStyle>(_ style: S) -> _ModifiedView { _ModifiedView() }
    public func disabled(_ disabled: Bool) -> _ModifiedView { _ModifiedView() }
    public func allowsHitTesting(_ enabled: Bool) -> _ModifiedView { _ModifiedView() }
    public func tag<V: Hashable>(_ tag: V) -> _ModifiedView { _ModifiedView() }
    public func keyboardShortcut(_ key: KeyEquivalent, modifiers: EventModifiers = .command) -> _ModifiedView { _ModifiedView() }

    public func onAppear(perform action: (@MainActor () -> Void)? = nil) -> _ModifiedView { _ModifiedView() }
    public func onTapGesture(count: Int = 1, perform action: @escaping @MainActor () -> Void) -> _ModifiedView { _ModifiedView() }
    public func onSubmit(of triggers: SubmitTriggers = .text, _ action: @escaping @MainActor () -> Void) -> _ModifiedView {
        _ModifiedView()
    }
    /// `func task(priority: TaskPriority = .userInitiated, _ action: sending @escaping @isolated(any) () async -> Void) -> some View`
    public func task(priority: TaskPriority = .userInitiated, _ action: @escaping @MainActor () async -> Void) -> _ModifiedView {
        _ModifiedView()
    }

    public func accessibilityLabel(_ label: Text) -> _ModifiedView { _ModifiedView() }
    public func accessibilityLabel<S: StringProtocol>(_ label: S) -> _ModifiedView { _ModifiedView() }
    public func tint(_ tint: Color?) -> _ModifiedView { _ModifiedView() }
    public func accessibilityValue(_ value: Text) -> _ModifiedView { _ModifiedView() }
    public func accessibilityValue<S: StringProtocol>(_ value: S) -> _ModifiedView { _ModifiedView() }
    public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> _ModifiedView { _ModifiedView() }
    /// `func accessibilityHidden(_ hidden: Bool) -> ModifiedContent<Self, AccessibilityAttachmentModifier>` (iOS 14, macOS 11)
    public func accessibilityHidden(_ hidden: Bool) -> _ModifiedView { _ModifiedView() }
    public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> _ModifiedView { _ModifiedView() }
    public func accessibilityHint<S: StringProtocol>(_ hint: S) -> _ModifiedView { _ModifiedView() }

    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> _ModifiedView { _ModifiedView() }
    public func preferredColorScheme(_ colorScheme: ColorScheme?) -> _ModifiedView { _ModifiedView() }

    public func navigationTitle<S: StringProtocol>(_ title: S) -> _ModifiedView { _ModifiedView() }
    public func navigationDestination<D: Hashable, C: View>(for data: D.Type, @ViewBuilder destination: @escaping (D) -> C)
        -> _ModifiedView
    { _ModifiedView() }
    public func toolbar<Content: ToolbarContent>(@ToolbarContentBuilder content: () -> Content) -> _ModifiedView { _ModifiedView() }
    public func sheet<Item: Identifiable, Content: View>(
        item: Binding<Item?>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping (Item) -> Content
    ) -> _ModifiedView { _ModifiedView() }
    public func sheet<Content: View>(isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content)
        -> _ModifiedView
    { _ModifiedView() }
    public func presentationDetents(_ detents: Set<PresentationDetent>) -> _ModifiedView { _ModifiedView() }
    public func alert<S: StringProtocol, A: View>(_ title: S, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A) -> _ModifiedView {
        _ModifiedView()
    }
    public func fileImporter(
        isPresented: Binding<Bool>, allowedContentTypes: [UTType], onCompletion: @escaping (Result<URL, any Error>) -> Void
    ) -> _ModifiedView { _ModifiedView() }
}

// MARK: - Apps, scenes and commands

@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

extension App {
    @MainActor @preconcurrency public static func main() {}
}

@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

public struct _ModifiedScene: Scene {
    public var body: Never { fatalError() }
    nonisolated init() {}
}

extension Never: Scene {}

@resultBuilder
public enum SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
    public static func buildExpression<Content: Scene>(_ content: Content) -> Content { content }
}

public struct WindowGroup<Content: View>: Scene {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

@MainActor @preconcurrency
public protocol Commands {}

@resultBuilder
public enum CommandsBuilder {
    public static func buildBlock<Content: Commands>(_ content: Content) -> Content { content }
    public static func buildExpression<Content: Commands>(_ content: Content) -> Content { content }
}

public struct CommandMenu<Content: View>: Commands {
    public init<S: StringProtocol>(_ name: S, @ViewBuilder content: () -> Content) {}
}

extension Scene {
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void) -> _ModifiedScene {
        _ModifiedScene()
    }
    public func commands<Content: Commands>(@CommandsBuilder content: () -> Content) -> _ModifiedScene { _ModifiedScene() }
    public func defaultSize(width: CGFloat, height: CGFloat) -> _ModifiedScene { _ModifiedScene() }
}

extension View {
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void) -> _ModifiedView {
        _ModifiedView()
    }
}

#if canImport(UIKit)
    @MainActor @preconcurrency @propertyWrapper
    public struct UIApplicationDelegateAdaptor<DelegateType: NSObject & UIApplicationDelegate>: DynamicProperty {
        public init(_ delegateType: DelegateType.Type = DelegateType.self) {}
        public var wrappedValue: DelegateType { fatalError() }
    }
#elseif canImport(AppKit)
    @MainActor @preconcurrency @propertyWrapper
    public struct NSApplicationDelegateAdaptor<DelegateType: NSObject & NSApplicationDelegate>: DynamicProperty {
        public init(_ delegateType: DelegateType.Type = DelegateType.self) {}
        public var wrappedValue: DelegateType { fatalError() }
    }
#endif

#if canImport(UIKit)
    /// `struct ShareLink<Data, PreviewImage, PreviewIcon, Label>` (iOS 16), here the initialiser
    /// for one string item and a custom label: `init(item: String, subject: Text? = nil,
    /// message: Text? = nil, @ViewBuilder label: () -> Label)`.
    public struct ShareLink<Label: View>: View {
        public init(item: String, subject: Text? = nil, message: Text? = nil, @ViewBuilder label: () -> Label) {}
        public var body: Never { fatalError() }
    }

    /// Haptic and audio feedback (iOS 17).
    public struct SensoryFeedback: Equatable, Sendable {
        public struct Weight: Equatable, Sendable {
            public static let light = Weight()
            public static let medium = Weight()
            public static let heavy = Weight()
        }
        public static let selection = SensoryFeedback()
        public static let success = SensoryFeedback()
        public static func impact(weight: Weight = .medium, intensity: Double = 1.0) -> SensoryFeedback { SensoryFeedback() }
    }

    extension View {
        /// `func sensoryFeedback<T: Equatable>(_ feedback: SensoryFeedback, trigger: T) -> some View` (iOS 17)
        public func sensoryFeedback<T: Equatable>(_ feedback: SensoryFeedback, trigger: T) -> _ModifiedView { _ModifiedView() }
    }

    /// How a text field capitalizes what is typed (iOS 15).
    public struct TextInputAutocapitalization: Sendable {
        public static var never: TextInputAutocapitalization { TextInputAutocapitalization() }
        public static var words: TextInputAutocapitalization { TextInputAutocapitalization() }
        public static var sentences: TextInputAutocapitalization { TextInputAutocapitalization() }
        public static var characters: TextInputAutocapitalization { TextInputAutocapitalization() }
    }

    extension View {
        /// `func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?) -> some View` (iOS 15)
        public func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?) -> _ModifiedView { _ModifiedView() }
        /// `func keyboardType(_ type: UIKeyboardType) -> some View` (iOS 13; not on macOS)
        public func keyboardType(_ type: UIKeyboardType) -> _ModifiedView { _ModifiedView() }
    }
#endif
