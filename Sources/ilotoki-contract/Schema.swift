import Foundation

/// The shape of Core's `Codable` values as the JSON bridge carries them, learnt by encoding
/// example values with a recording encoder: the names and types of every field, which fields
/// are optional (absent or nil in some example), which types are enums with payloads. The
/// Kotlin contract is written from it, so it follows the Swift types and cannot drift from them.
indirect enum Shape: Equatable {
    case string, bool, integer, double
    /// A Swift enum with `String` raw values (`Language`, `PromptFormat`): a Kotlin enum.
    case enumeration(String)
    /// A struct: its fields are in `Schema.objects`.
    case object(String)
    /// An enum with payloads (`Action`): its cases are in `Schema.unions`.
    case union(String)
    case list(Shape)
    /// A type known by name only (the element of a list that was empty), until a value of it is seen.
    case pending(String)
}

/// What an empty list still says: the type of its elements.
protocol ListMarker {
    static var elementType: Any.Type { get }
}

extension Array: ListMarker {
    static var elementType: Any.Type { Element.self }
}

struct Field: Equatable {
    var name: String
    /// `nil` while only nil values were seen.
    var shape: Shape?
    var optional: Bool
}

struct SchemaError: Error, CustomStringConvertible {
    let description: String
}

final class Schema {
    private(set) var objects: [String: [Field]] = [:]
    /// Each union's cases in the order first seen, with the payload's fields.
    private(set) var unions: [String: [(name: String, fields: [Field])]] = [:]
    private(set) var enumerations: [String: [String]] = [:]
    private(set) var errors: [String] = []

    /// Learns the shape of `value` (and of everything in it); returns it.
    @discardableResult
    func learn<T: Encodable>(_ value: T) -> Shape {
        if let primitive = Self.primitive(T.self) { return primitive }
        if let cases = Self.stringCases(T.self) {
            let name = Self.name(of: T.self)
            enumerations[name] = cases
            return .enumeration(name)
        }
        let recorder = Recorder(schema: self)
        do {
            try value.encode(to: recorder)
        } catch {
            errors.append("\(Self.name(of: T.self)): \(error)")
        }
        if case .list(let elements) = recorder.kind, elements.isEmpty, let list = T.self as? any ListMarker.Type {
            return .list(shape(ofAny: list.elementType))
        }
        return recorder.result(named: Self.name(of: T.self))
    }

    private func shape(ofAny type: Any.Type) -> Shape {
        if type == String.self { return .string }
        if type == Bool.self { return .bool }
        if type == Int.self || type == Int64.self { return .integer }
        if type == Double.self { return .double }
        if let iterable = type as? any CaseIterable.Type {
            let values = Self.allRawValues(iterable)
            if !values.isEmpty {
                enumerations[Self.name(of: type)] = values
                return .enumeration(Self.name(of: type))
            }
        }
        return .pending(Self.name(of: type))
    }

    /// A shape with every type known by name replaced by what the examples showed it to be.
    func resolve(_ shape: Shape) -> Shape {
        switch shape {
        case .list(let element): return .list(resolve(element))
        case .pending(let name):
            if objects[name] != nil { return .object(name) }
            if unions[name] != nil { return .union(name) }
            errors.append("no example shows a \(name)")
            return shape
        default: return shape
        }
    }

    /// The shape of a type without a value (a nil optional), where the type alone says it.
    func shape<T>(of type: T.Type) -> Shape? {
        if let primitive = Self.primitive(type) { return primitive }
        if let cases = Self.stringCases(type) {
            let name = Self.name(of: type)
            enumerations[name] = cases
            return .enumeration(name)
        }
        return nil
    }

    /// Every field that no example filled, every type no example showed.
    func check() throws {
        for (name, fields) in objects { objects[name] = fields.map { resolved($0) } }
        for (name, cases) in unions { unions[name] = cases.map { ($0.name, $0.fields.map { resolved($0) }) } }
        var problems = errors
        for (name, fields) in objects {
            for field in fields where field.shape == nil { problems.append("no example fills \(name).\(field.name)") }
        }
        for (name, cases) in unions {
            for item in cases {
                for field in item.fields where field.shape == nil { problems.append("no example fills \(name).\(item.name).\(field.name)") }
            }
        }
        guard problems.isEmpty else { throw SchemaError(description: problems.sorted().joined(separator: "\n")) }
    }

    private func resolved(_ field: Field) -> Field {
        var field = field
        field.shape = field.shape.map(resolve)
        return field
    }

    fileprivate func record(object name: String, fields: [Field]) {
        objects[name] = Self.merge(objects[name], fields)
    }

    fileprivate func record(union name: String, cases: [(String, [Field])]) {
        var known = unions[name] ?? []
        for (caseName, fields) in cases {
            if let index = known.firstIndex(where: { $0.name == caseName }) {
                known[index].fields = Self.merge(known[index].fields, fields)
            } else {
                known.append((caseName, fields))
            }
        }
        unions[name] = known
    }

    fileprivate func fail(_ message: String) { errors.append(message) }

    /// Two sightings of one type: a field missing from either is optional.
    private static func merge(_ old: [Field]?, _ new: [Field]) -> [Field] {
        guard let old else { return new }
        var merged = old
        for field in new {
            if let index = merged.firstIndex(where: { $0.name == field.name }) {
                merged[index].optional = merged[index].optional || field.optional
                if merged[index].shape == nil || merged[index].shape.map(isPending) == true, field.shape != nil {
                    merged[index].shape = field.shape
                }
            } else {
                merged.append(Field(name: field.name, shape: field.shape, optional: true))
            }
        }
        for index in merged.indices where !new.contains(where: { $0.name == merged[index].name }) {
            merged[index].optional = true
        }
        return merged
    }

    private static func isPending(_ shape: Shape) -> Bool {
        switch shape {
        case .pending: true
        case .list(let element): isPending(element)
        default: false
        }
    }

    static func primitive<T>(_ type: T.Type) -> Shape? {
        switch type {
        case is String.Type, is UUID.Type, is URL.Type, is Date.Type: .string
        case is Bool.Type: .bool
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type: .integer
        case is Double.Type, is Float.Type: .double
        default: nil
        }
    }

    /// The raw values of an enum with `String` raw values, in declaration order.
    static func stringCases<T>(_ type: T.Type) -> [String]? {
        guard let iterable = type as? any CaseIterable.Type else { return nil }
        let values = allRawValues(iterable)
        return values.isEmpty ? nil : values
    }

    private static func allRawValues<C: CaseIterable>(_ type: C.Type) -> [String] {
        C.allCases.compactMap { ($0 as? any RawRepresentable)?.rawValue as? String }
    }

    /// "MainScreen.Header" for `IloTokiCore.MainScreen.Header`; the app model's own nested
    /// types go by their own name ("SlabAction").
    static func name(of type: Any.Type) -> String {
        // A private type's name carries "(unknown context at $…)", which says nothing and changes.
        var parts = String(reflecting: type).split(separator: ".").map(String.init).filter { !$0.hasPrefix("(") }
        if parts.count > 1 { parts.removeFirst() }
        if parts.first == "TranslatorModel", parts.count > 1 { parts.removeFirst() }
        return parts.joined(separator: ".")
    }
}

/// The recording encoder: one per value.
private final class Recorder: Encoder {
    let schema: Schema
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    enum Kind {
        case none
        case single(Shape?)
        case list([Shape])
        case keyed
    }

    var kind = Kind.none
    var fields: [Field] = []
    /// Keys that hold a nested keyed container: the cases of an enum with payloads.
    var cases: [(String, Recorder)] = []

    init(schema: Schema) {
        self.schema = schema
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        kind = .keyed
        return KeyedEncodingContainer(KeyedRecorder<Key>(recorder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .list = kind {} else { kind = .list([]) }
        return UnkeyedRecorder(recorder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleRecorder(recorder: self)
    }

    func result(named name: String) -> Shape {
        switch kind {
        case .none:
            schema.fail("\(name) encoded nothing")
            return .string
        case .single(let shape):
            return shape ?? .string
        case .list(let elements):
            guard let first = elements.first else {
                schema.fail("no example of \(name) has an element")
                return .list(.string)
            }
            return .list(first)
        case .keyed:
            if !cases.isEmpty {
                schema.record(union: name, cases: cases.map { ($0.0, $0.1.fields) })
                return .union(name)
            }
            schema.record(object: name, fields: fields)
            return .object(name)
        }
    }

    func add(_ name: String, _ shape: Shape?, optional: Bool) {
        if let index = fields.firstIndex(where: { $0.name == name }) {
            if fields[index].shape == nil { fields[index].shape = shape }
            fields[index].optional = fields[index].optional || optional
        } else {
            fields.append(Field(name: name, shape: shape, optional: optional))
        }
    }
}

private struct KeyedRecorder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let recorder: Recorder
    var codingPath: [any CodingKey] = []

    mutating func encodeNil(forKey key: Key) throws { recorder.add(key.stringValue, nil, optional: true) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { recorder.add(key.stringValue, .bool, optional: false) }
    mutating func encode(_ value: String, forKey key: Key) throws { recorder.add(key.stringValue, .string, optional: false) }
    mutating func encode(_ value: Double, forKey key: Key) throws { recorder.add(key.stringValue, .double, optional: false) }
    mutating func encode(_ value: Float, forKey key: Key) throws { recorder.add(key.stringValue, .double, optional: false) }
    mutating func encode(_ value: Int, forKey key: Key) throws { recorder.add(key.stringValue, .integer, optional: false) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { recorder.add(key.stringValue, .integer, optional: false) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { recorder.add(key.stringValue, .integer, optional: false) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { recorder.add(key.stringValue, .integer, optional: false) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { recorder.add(key.stringValue, .integer, optional: false) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { recorder.add(key.stringValue, .integer, optional: false) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { recorder.add(key.stringValue, .integer, optional: false) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { recorder.add(key.stringValue, .integer, optional: false) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { recorder.add(key.stringValue, .integer, optional: false) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { recorder.add(key.stringValue, .integer, optional: false) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        recorder.add(key.stringValue, recorder.schema.learn(value), optional: false)
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value {
            recorder.add(key.stringValue, recorder.schema.learn(value), optional: true)
        } else {
            recorder.add(key.stringValue, recorder.schema.shape(of: T.self), optional: true)
        }
    }

    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeIfPresent(value as String??, key) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeIfPresent(value as Bool??, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeIfPresent(value as Int??, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeIfPresent(value as Int64??, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeIfPresent(value as Double??, key) }

    private mutating func encodeIfPresent<T: Encodable>(_ value: T??, _ key: Key) throws {
        try encodeIfPresent(value ?? nil, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<
        NestedKey
    > {
        let nested = Recorder(schema: recorder.schema)
        recorder.cases.append((key.stringValue, nested))
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        recorder.schema.fail("a nested list under \(key.stringValue) is not supported")
        return Recorder(schema: recorder.schema).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { recorder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { recorder }
}

private struct UnkeyedRecorder: UnkeyedEncodingContainer {
    let recorder: Recorder
    var codingPath: [any CodingKey] = []
    var count = 0

    mutating func encodeNil() throws { recorder.schema.fail("a nil inside a list") }

    mutating func encode<T: Encodable>(_ value: T) throws { append(recorder.schema.learn(value)) }
    mutating func encode(_ value: Bool) throws { append(.bool) }
    mutating func encode(_ value: String) throws { append(.string) }
    mutating func encode(_ value: Double) throws { append(.double) }
    mutating func encode(_ value: Float) throws { append(.double) }
    mutating func encode(_ value: Int) throws { append(.integer) }
    mutating func encode(_ value: Int8) throws { append(.integer) }
    mutating func encode(_ value: Int16) throws { append(.integer) }
    mutating func encode(_ value: Int32) throws { append(.integer) }
    mutating func encode(_ value: Int64) throws { append(.integer) }
    mutating func encode(_ value: UInt) throws { append(.integer) }
    mutating func encode(_ value: UInt8) throws { append(.integer) }
    mutating func encode(_ value: UInt16) throws { append(.integer) }
    mutating func encode(_ value: UInt32) throws { append(.integer) }
    mutating func encode(_ value: UInt64) throws { append(.integer) }

    private mutating func append(_ shape: Shape) {
        if case .list(var shapes) = recorder.kind {
            shapes.append(shape)
            recorder.kind = .list(shapes)
        }
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        recorder.schema.fail("a nested keyed container inside a list is not supported")
        return Recorder(schema: recorder.schema).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        recorder.schema.fail("a list inside a list is not supported")
        return Recorder(schema: recorder.schema).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { recorder }
}

private struct SingleRecorder: SingleValueEncodingContainer {
    let recorder: Recorder
    var codingPath: [any CodingKey] = []

    mutating func encodeNil() throws { recorder.kind = .single(nil) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        recorder.kind = .single(recorder.schema.learn(value))
    }
    mutating func encode(_ value: Bool) throws { recorder.kind = .single(.bool) }
    mutating func encode(_ value: String) throws { recorder.kind = .single(.string) }
    mutating func encode(_ value: Double) throws { recorder.kind = .single(.double) }
    mutating func encode(_ value: Float) throws { recorder.kind = .single(.double) }
    mutating func encode(_ value: Int) throws { recorder.kind = .single(.integer) }
    mutating func encode(_ value: Int8) throws { recorder.kind = .single(.integer) }
    mutating func encode(_ value: Int16) throws { recorder.kind = .single(.integer) }
    mutating func encode(_ value: Int32) throws { recorder.kind = .single(.integer) }
    mutating func encode(_ value: Int64) throws { recorder.kind = .single(.integer) }
    mutating func encode(_ value: UInt) throws { recorder.kind = .single(.integer) }
    mutating func encode(_ value: UInt8) throws { recorder.kind = .single(.integer) }
    mutating func encode(_ value: UInt16) throws { recorder.kind = .single(.integer) }
    mutating func encode(_ value: UInt32) throws { recorder.kind = .single(.integer) }
    mutating func encode(_ value: UInt64) throws { recorder.kind = .single(.integer) }
}
