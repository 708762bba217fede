/// Writes the Kotlin mirror of a `Schema`: a data class per struct, a sealed interface per enum
/// with payloads, an enum class per string enum, each with `from(JSON)` and `toJson()` in the
/// JSON the bridge carries.
struct KotlinWriter {
    let schema: Schema
    /// Enum constants by type: (Swift case name, raw value).
    let enumerations: [String: [(name: String, raw: String)]]

    static let keywords: Set<String> = [
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface",
        "is", "null", "object", "package", "return", "super", "this", "throw", "true", "try", "typealias", "val", "var", "when", "while",
    ]

    func file(header: String) -> String {
        var parts = [header]
        for name in enumerations.keys.sorted() { parts.append(enumeration(name)) }
        for name in schema.objects.keys.sorted() { parts.append(object(name)) }
        for name in schema.unions.keys.sorted() { parts.append(union(name)) }
        return parts.joined(separator: "\n\n") + "\n"
    }

    // MARK: - Names

    static func typeName(_ swiftName: String) -> String { swiftName.replacingOccurrences(of: ".", with: "") }

    static func property(_ name: String) -> String {
        if name == "_0" { return "value" }
        return keywords.contains(name) ? "`\(name)`" : name
    }

    static func constant(_ caseName: String) -> String {
        var result = ""
        for character in caseName {
            if character.isUppercase, !result.isEmpty { result += "_" }
            result += character.uppercased()
        }
        return result
    }

    static func caseClass(_ name: String) -> String { name.prefix(1).uppercased() + name.dropFirst() }

    func type(_ shape: Shape) -> String {
        switch shape {
        case .string: "String"
        case .bool: "Boolean"
        case .integer: "Long"
        case .double: "Double"
        case .enumeration(let name), .object(let name), .union(let name), .pending(let name): Self.typeName(name)
        case .list(let element): "List<\(type(element))>"
        }
    }

    // MARK: - Reading and writing

    func read(_ shape: Shape, from json: String, key: String) -> String {
        let quoted = "\"\(key)\""
        switch shape {
        case .string: return "\(json).getString(\(quoted))"
        case .bool: return "\(json).getBoolean(\(quoted))"
        case .integer: return "\(json).getLong(\(quoted))"
        case .double: return "\(json).getDouble(\(quoted))"
        case .enumeration(let name): return "\(Self.typeName(name)).from(\(json).getString(\(quoted)))"
        case .object(let name), .union(let name), .pending(let name): return "\(Self.typeName(name)).from(\(json).getJSONObject(\(quoted)))"
        case .list(let element): return "\(json).getJSONArray(\(quoted)).let { a -> List(a.length()) { i -> \(readElement(element)) } }"
        }
    }

    func readElement(_ shape: Shape) -> String {
        switch shape {
        case .string: "a.getString(i)"
        case .bool: "a.getBoolean(i)"
        case .integer: "a.getLong(i)"
        case .double: "a.getDouble(i)"
        case .enumeration(let name): "\(Self.typeName(name)).from(a.getString(i))"
        case .object(let name), .union(let name), .pending(let name): "\(Self.typeName(name)).from(a.getJSONObject(i))"
        case .list: "error(\"lists of lists are not in the contract\")"
        }
    }

    func write(_ shape: Shape, _ value: String) -> String {
        switch shape {
        case .string, .bool, .integer, .double: value
        case .enumeration: "\(value).json"
        case .object, .union, .pending: "\(value).toJson()"
        case .list(let element): "JSONArray(\(value).map { \(write(element, "it")) })"
        }
    }

    func fieldRead(_ field: Field, from json: String) -> String {
        let shape = field.shape ?? .string
        let value = read(shape, from: json, key: field.name)
        return field.optional ? "if (\(json).isNull(\"\(field.name)\")) null else \(value)" : value
    }

    func puts(_ fields: [Field], indent: String) -> String {
        fields.map { field in
            let name = Self.property(field.name)
            let put = "put(\"\(field.name)\", \(write(field.shape ?? .string, name)))"
            return indent + (field.optional ? "if (\(name) != null) \(put)" : put)
        }.joined(separator: "\n")
    }

    func parameters(_ fields: [Field], indent: String) -> String {
        fields.map { "\(indent)val \(Self.property($0.name)): \(type($0.shape ?? .string))\($0.optional ? "?" : ""),\n" }.joined()
    }

    // MARK: - Declarations

    func enumeration(_ name: String) -> String {
        let kotlin = Self.typeName(name)
        let constants = (enumerations[name] ?? []).map { "    \(Self.constant($0.name))(\"\($0.raw)\")" }.joined(separator: ",\n")
        return """
            /** Core's `\(name)`, as the bridge writes it. */
            enum class \(kotlin)(val json: String) {
            \(constants);

                companion object {
                    fun from(json: String): \(kotlin) = entries.firstOrNull { it.json == json } ?: throw JSONException("no \(kotlin) called $json")
                }
            }
            """
    }

    func object(_ name: String) -> String {
        let kotlin = Self.typeName(name)
        let fields = schema.objects[name] ?? []
        let reads = fields.map { "            \(Self.property($0.name)) = \(fieldRead($0, from: "json")),\n" }.joined()
        return """
            /** Core's `\(name)`. */
            data class \(kotlin)(
            \(parameters(fields, indent: "    "))) {
                fun toJson(): JSONObject = JSONObject().apply {
            \(puts(fields, indent: "        "))
                }

                companion object {
                    fun from(json: JSONObject) = \(kotlin)(
            \(reads)        )
                }
            }
            """
    }

    func union(_ name: String) -> String {
        let kotlin = Self.typeName(name)
        let cases = schema.unions[name] ?? []
        var declarations: [String] = []
        var reads: [String] = []
        for item in cases {
            let caseName = Self.caseClass(item.name)
            if item.fields.isEmpty {
                declarations.append(
                    """
                        data object \(caseName) : \(kotlin) {
                            override fun toJson(): JSONObject = JSONObject().put("\(item.name)", JSONObject())
                        }
                    """)
                reads.append("                \"\(item.name)\" -> \(caseName)")
            } else {
                declarations.append(
                    """
                        data class \(caseName)(
                    \(parameters(item.fields, indent: "        "))    ) : \(kotlin) {
                            override fun toJson(): JSONObject = JSONObject().put("\(item.name)", JSONObject().apply {
                    \(puts(item.fields, indent: "            "))
                            })
                        }
                    """)
                let arguments = item.fields.map { "\(Self.property($0.name)) = \(fieldRead($0, from: "body"))" }.joined(separator: ", ")
                reads.append("                \"\(item.name)\" -> \(caseName)(\(arguments))")
            }
        }
        return """
            /** Core's `\(name)`: one case of it, as `{"case": {fields}}`. */
            sealed interface \(kotlin) {
                fun toJson(): JSONObject

            \(declarations.joined(separator: "\n\n"))

                companion object {
                    fun from(json: JSONObject): \(kotlin) {
                        val key = json.keys().next()
                        val body = json.getJSONObject(key)
                        return when (key) {
            \(reads.joined(separator: "\n"))
                            else -> throw JSONException("no \(kotlin) called $key")
                        }
                    }
                }
            }
            """
    }
}
