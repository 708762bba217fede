import Foundation

/// A model the app can download.
public struct CatalogEntry: Identifiable, Hashable, Sendable {
    /// Stable identifier, persisted in settings and history; never changes.
    public let id: String
    /// The name shown to people.
    public let displayName: String
    /// The quantization, e.g. "Q8_0".
    public let quantization: String
    /// Where the file is downloaded from.
    public let url: URL
    /// The file's exact size in bytes.
    public let bytes: Int64
    /// The prompt format the model was fine-tuned on.
    public let format: PromptFormat
    /// Superseded: still usable, no longer offered first. Deleted a release later.
    public let deprecated: Bool
    /// The file's sha256 (lowercase hex) when pinned; otherwise the server's `X-Linked-Etag`
    /// verifies the download.
    public let sha256: String?

    public init(
        id: String, displayName: String, quantization: String, url: URL, bytes: Int64, format: PromptFormat,
        deprecated: Bool, sha256: String?
    ) {
        self.id = id
        self.displayName = displayName
        self.quantization = quantization
        self.url = url
        self.bytes = bytes
        self.format = format
        self.deprecated = deprecated
        self.sha256 = sha256
    }

    /// The file name in the models directory: the last part of the URL.
    public var fileName: String { url.lastPathComponent }

    /// The download URL through a mirror: like huggingface_hub's `HF_ENDPOINT`, `endpoint`
    /// replaces `https://huggingface.co` at the start of the URL.
    public func url(endpoint: String?) -> URL {
        guard let endpoint, !endpoint.isEmpty else { return url }
        let official = ModelCatalog.huggingFace
        let text = url.absoluteString
        guard text.hasPrefix(official) else { return url }
        let base = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        return URL(string: base + text.dropFirst(official.count)) ?? url
    }
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

    static let huggingFace = "https://huggingface.co"

    /// The models of this release.
    public static let standard = ModelCatalog(entries: [
        CatalogEntry(
            id: "milmmt-46-1b-v1-1-q8-0",
            displayName: "ilo-toki-1.1-MiLMMT-46-1b",
            quantization: "Q8_0",
            url: literalURL(
                "https://huggingface.co/NetherQuartz/ilo-toki-1.1-MiLMMT-46-1b-merged/resolve/main/ilo-toki-1.1-MiLMMT-46-1b-Q8_0.gguf"
            ),
            bytes: 1_390_169_824,
            format: .sourceTarget,
            deprecated: false,
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
