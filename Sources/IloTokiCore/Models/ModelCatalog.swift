import Foundation

/// Where a catalog model's file comes from.
public enum ModelSource: Hashable, Sendable {
    /// A file at a fixed address, of a known size.
    case file(URL, bytes: Int64)
    /// A Hugging Face repository: the file of the entry's quantization, its size and its sha256
    /// are read from the Hub's listing when the download starts (`HubResolver`).
    /// `approximateBytes` is what the page says before that (a model of the same base and
    /// quantization), shown as an estimate.
    case hub(repository: String, revision: String, approximateBytes: Int64?)
}

/// A model the app can download.
public struct CatalogEntry: Identifiable, Hashable, Codable, Sendable {
    /// Stable identifier, persisted in settings and history; never changes.
    public let id: String
    /// The name shown to people.
    public let displayName: String
    /// The quantization, e.g. "Q8_0".
    public let quantization: String
    /// Where the file is downloaded from.
    public let source: ModelSource
    /// The prompt format the model was fine-tuned on.
    public let format: PromptFormat
    /// Superseded: still usable, no longer offered first. Deleted a release later.
    public let deprecated: Bool
    /// The file's sha256 (lowercase hex) when pinned; otherwise the server's `X-Linked-Etag`
    /// verifies the download.
    public let sha256: String?

    /// An entry whose file has a fixed address and size.
    public init(
        id: String, displayName: String, quantization: String, url: URL, bytes: Int64, format: PromptFormat,
        deprecated: Bool, sha256: String?
    ) {
        self.init(
            id: id, displayName: displayName, quantization: quantization, source: .file(url, bytes: bytes), format: format,
            deprecated: deprecated, sha256: sha256)
    }

    public init(
        id: String, displayName: String, quantization: String, source: ModelSource, format: PromptFormat,
        deprecated: Bool, sha256: String?
    ) {
        self.id = id
        self.displayName = displayName
        self.quantization = quantization
        self.source = source
        self.format = format
        self.deprecated = deprecated
        self.sha256 = sha256
    }

    /// The file's address, when the catalog names one (a Hub entry's comes from its listing).
    public var url: URL? {
        if case .file(let url, _) = source { return url }
        return nil
    }

    /// The file's exact size, when the catalog knows it (a Hub entry's comes from its listing).
    public var bytes: Int64? {
        if case .file(_, let bytes) = source { return bytes }
        return nil
    }

    /// The Hub repository the file is resolved from, if it is.
    public var repository: (name: String, revision: String)? {
        if case .hub(let name, let revision, _) = source { return (name, revision) }
        return nil
    }

    /// The size to show before the exact one is known.
    public var approximateBytes: Int64? {
        switch source {
        case .file(_, let bytes): bytes
        case .hub(_, _, let approximate): approximate
        }
    }

    /// The file name in the models directory: the last part of the URL; for a Hub entry, its
    /// name and quantization (the Hub's own file name may change, this one never does).
    public var fileName: String {
        switch source {
        case .file(let url, _): url.lastPathComponent
        case .hub: "\(displayName)-\(quantization).gguf"
        }
    }

    /// The download URL through a mirror: like huggingface_hub's `HF_ENDPOINT`, `endpoint`
    /// replaces `https://huggingface.co` at the start of the URL.
    public func url(endpoint: String?) -> URL? {
        guard let url else { return nil }
        return HubAccess.mirrored(url, endpoint: endpoint)
    }

    // MARK: - Coding: a file entry has `url` and `bytes`; a Hub entry `repository` (and
    // `revision`, `approximateBytes`).

    private enum CodingKeys: String, CodingKey {
        case id, displayName, quantization, url, bytes, repository, revision, approximateBytes, format, deprecated, sha256
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let source: ModelSource
        if let repository = try container.decodeIfPresent(String.self, forKey: .repository) {
            source = .hub(
                repository: repository, revision: try container.decodeIfPresent(String.self, forKey: .revision) ?? "main",
                approximateBytes: try container.decodeIfPresent(Int64.self, forKey: .approximateBytes))
        } else {
            source = .file(try container.decode(URL.self, forKey: .url), bytes: try container.decode(Int64.self, forKey: .bytes))
        }
        self.init(
            id: try container.decode(String.self, forKey: .id), displayName: try container.decode(String.self, forKey: .displayName),
            quantization: try container.decode(String.self, forKey: .quantization), source: source,
            format: try container.decode(PromptFormat.self, forKey: .format),
            deprecated: try container.decodeIfPresent(Bool.self, forKey: .deprecated) ?? false,
            sha256: try container.decodeIfPresent(String.self, forKey: .sha256))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(quantization, forKey: .quantization)
        switch source {
        case .file(let url, let bytes):
            try container.encode(url, forKey: .url)
            try container.encode(bytes, forKey: .bytes)
        case .hub(let repository, let revision, let approximate):
            try container.encode(repository, forKey: .repository)
            try container.encode(revision, forKey: .revision)
            try container.encodeIfPresent(approximate, forKey: .approximateBytes)
        }
        try container.encode(format, forKey: .format)
        try container.encode(deprecated, forKey: .deprecated)
        try container.encodeIfPresent(sha256, forKey: .sha256)
    }
}

/// A catalog file that cannot be used.
public struct CatalogError: Error, LocalizedError, Equatable, Sendable {
    public let file: String
    public let problem: String

    public var errorDescription: String? { "The model catalog \(file) cannot be used: \(problem)." }
}

/// Everything the app can download. Retiring a model means deleting its entry: files no entry
/// claims are swept from the models directory at launch. Mark an entry deprecated one release
/// before deleting it, so nobody is left without a translator.
public struct ModelCatalog: Sendable {
    public let entries: [CatalogEntry]

    public init(entries: [CatalogEntry]) {
        self.entries = entries
    }

    /// The first entry that is not deprecated (or the first entry when all are).
    public var defaultEntry: CatalogEntry? { entries.first { !$0.deprecated } ?? entries.first }

    /// The entry with this id.
    public func entry(id: String) -> CatalogEntry? { entries.first { $0.id == id } }

    /// The entry whose file has this name.
    public func entry(fileName: String) -> CatalogEntry? { entries.first { $0.fileName == fileName } }

    /// Reads a catalog from a JSON file (`{"entries": [...]}`, each entry with the fields of
    /// `CatalogEntry`): what the model pipeline writes for a new model, and what
    /// `ILOTOKI_CATALOG` points at to try one before it is in a release.
    /// - Throws: `CatalogError` naming the file and what is wrong in it.
    public static func load(from file: URL) throws -> ModelCatalog {
        let data: Data
        do {
            data = try FileBytes.contents(of: file)
        } catch {
            throw CatalogError(file: file.path, problem: "it cannot be read (\(error.localizedDescription))")
        }
        struct File: Decodable { let entries: [CatalogEntry] }
        let entries: [CatalogEntry]
        do {
            entries = try JSONDecoder().decode(File.self, from: data).entries
        } catch let error as DecodingError {
            throw CatalogError(file: file.path, problem: "it is not a catalog (\(error.summary))")
        } catch {
            throw CatalogError(file: file.path, problem: "it is not a catalog")
        }
        guard !entries.isEmpty else { throw CatalogError(file: file.path, problem: "it has no entries") }
        var seen = Set<String>()
        for entry in entries {
            guard seen.insert(entry.id).inserted else { throw CatalogError(file: file.path, problem: "the id \(entry.id) appears twice") }
            switch entry.source {
            case .file(let url, let bytes):
                guard bytes > 0 else { throw CatalogError(file: file.path, problem: "\(entry.id) has no size") }
                guard ["http", "https"].contains(url.scheme ?? ""), !entry.fileName.isEmpty, entry.fileName.hasSuffix(".gguf") else {
                    throw CatalogError(file: file.path, problem: "\(entry.id) does not point at a .gguf file over HTTP(S)")
                }
            case .hub(let repository, let revision, _):
                guard HubAccess.isRepositoryName(repository) else {
                    throw CatalogError(
                        file: file.path, problem: "\(entry.id) names the repository \"\(repository)\", which is not owner/name")
                }
                guard !revision.isEmpty, !revision.contains(".."), !entry.quantization.isEmpty, !entry.displayName.contains("/") else {
                    throw CatalogError(
                        file: file.path, problem: "\(entry.id) needs a revision, a quantization and a display name without /")
                }
            }
            if let sha256 = entry.sha256, !(sha256.count == 64 && sha256.allSatisfy(\.isHexDigit)) {
                throw CatalogError(file: file.path, problem: "\(entry.id) has a sha256 that is not 64 hex digits")
            }
        }
        return ModelCatalog(entries: entries)
    }

    /// The catalog to use: the file `ILOTOKI_CATALOG` names, else the one of this release.
    /// - Throws: `CatalogError` when that file cannot be used.
    public static func forEnvironment(_ environment: [String: String]) throws -> ModelCatalog {
        guard let path = environment["ILOTOKI_CATALOG"], !path.isEmpty else { return .standard }
        return try load(from: URL(fileURLWithPath: path))
    }

    /// The models of this release.
    public static let standard = ModelCatalog(entries: [
        CatalogEntry(
            id: "milmmt-46-1b-v1-3-q8-0",
            displayName: "ilo-toki-1.3-MiLMMT-46-1b",
            quantization: "Q8_0",
            // The 15,000-step checkpoint. Its file, size and sha256 are read from the Hub when
            // the download starts; until then the page shows 1.1's size, the same base model in
            // the same quantization.
            source: .hub(repository: "NetherQuartz/ilo-toki-1.3-MiLMMT-46-1b-merged", revision: "main", approximateBytes: 1_390_169_824),
            format: .sourceTarget,
            deprecated: false,
            sha256: nil
        ),
        CatalogEntry(
            id: "milmmt-46-1b-v1-1-q8-0",
            displayName: "ilo-toki-1.1-MiLMMT-46-1b",
            quantization: "Q8_0",
            url: literalURL(
                "https://huggingface.co/NetherQuartz/ilo-toki-1.1-MiLMMT-46-1b-merged/resolve/main/ilo-toki-1.1-MiLMMT-46-1b-Q8_0.gguf"
            ),
            bytes: 1_390_169_824,
            format: .sourceTarget,
            deprecated: true,
            sha256: nil
        ),
        CatalogEntry(
            id: "milmmt-46-1b-q8-0",
            displayName: "ilo-toki-MiLMMT-46-1b",
            quantization: "Q8_0",
            url: literalURL(
                "https://huggingface.co/NetherQuartz/ilo-toki-MiLMMT-46-1b-merged/resolve/main/ilo-toki-MiLMMT-46-1b-Q8_0.gguf"
            ),
            bytes: 1_390_169_824,
            format: .sourceTarget,
            deprecated: true,
            sha256: nil
        ),
        CatalogEntry(
            id: "gemma-2-2b-q6-k",
            displayName: "tatoeba-tok-multi-gemma-2-2b",
            quantization: "Q6_K",
            url: literalURL(
                "https://huggingface.co/NetherQuartz/tatoeba-tok-multi-gemma-2-2b-merged-Q6_K-GGUF/resolve/main/tatoeba-tok-multi-gemma-2-2b-merged-q6_k.gguf"
            ),
            bytes: 2_151_392_800,
            format: .queryAnswer,
            deprecated: true,
            sha256: nil
        ),
    ])

    /// The licence every catalog model comes under, shown before the first download.
    public static let modelLicence = ModelLicence(
        name: "Gemma Terms of Use",
        url: literalURL("https://ai.google.dev/gemma/terms"),
        summary: "These models are fine-tunes of Google's Gemma and are provided under the Gemma Terms of Use. "
            + "By downloading one you agree to those terms, including the Gemma Prohibited Use Policy."
    )
}

/// A licence shown to people before they download something under it.
public struct ModelLicence: Equatable, Sendable {
    public let name: String
    public let url: URL
    public let summary: String
}

/// A URL written in the source; a typo there is a programming error caught by the catalog test.
func literalURL(_ text: StaticString) -> URL {
    guard let url = URL(string: "\(text)") else { preconditionFailure("invalid URL literal \(text)") }
    return url
}
