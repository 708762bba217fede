import Foundation

/// How the Hugging Face Hub is reached: through a mirror or not (`HF_ENDPOINT`), and with
/// which token (`HF_TOKEN`), read as huggingface_hub reads them.
///
/// The token goes only to the endpoint's own scheme, host and port: never to the CDN a
/// `resolve/` URL redirects to, nor to any other host (as huggingface_hub does, through
/// `requests`, which drops `Authorization` on a redirect to another host).
public struct HubAccess: Equatable, Sendable {
    /// The Hub itself.
    public static let official = "https://huggingface.co"

    /// A mirror that stands in for the Hub, if one is set.
    public var mirror: String?
    /// The access token, if one is set.
    public var token: String?

    public init(mirror: String? = nil, token: String? = nil) {
        self.mirror = mirror.flatMap { $0.isEmpty ? nil : $0 }
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `HF_ENDPOINT` and the token: `HF_TOKEN`, else the file `HF_TOKEN_PATH` names, else
    /// `$HF_HOME/token` (by default `~/.cache/huggingface/token`, where `hf auth login` keeps
    /// it).
    public static func from(environment: [String: String]) -> HubAccess {
        let mirror = environment["HF_ENDPOINT"]?.trimmingCharacters(in: .whitespaces)
        if let token = environment["HF_TOKEN"]?.trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty {
            return HubAccess(mirror: mirror, token: token)
        }
        return HubAccess(mirror: mirror, token: tokenFile(in: environment).flatMap(readToken))
    }

    /// Where huggingface_hub keeps a token, for this environment.
    static func tokenFile(in environment: [String: String]) -> URL? {
        if let path = environment["HF_TOKEN_PATH"], !path.isEmpty { return URL(fileURLWithPath: path) }
        if let home = environment["HF_HOME"], !home.isEmpty { return URL(fileURLWithPath: home).appendingPathComponent("token") }
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty {
            return URL(fileURLWithPath: cache).appendingPathComponent("huggingface/token")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/huggingface/token")
    }

    private static func readToken(_ file: URL) -> String? {
        guard let data = try? FileBytes.contents(of: file), data.count <= 4096 else { return nil }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty || token.contains(where: \.isNewline) ? nil : token
    }

    /// Where the Hub's API and files are: the mirror, else the Hub.
    public var endpoint: URL {
        let text = mirror.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? Self.official
        return URL(string: text) ?? URL(string: Self.official)!
    }

    /// The host people are told about: the mirror's, else huggingface.co.
    public var host: String { endpoint.host ?? "huggingface.co" }

    /// `Authorization` for a request to `url`: the token, only for the endpoint's own scheme,
    /// host and port.
    public func authorization(for url: URL?) -> String? {
        guard let token, let url, Self.sameOrigin(url, endpoint) else { return nil }
        return "Bearer \(token)"
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        guard let schemeA = a.scheme?.lowercased(), let schemeB = b.scheme?.lowercased(), schemeA == schemeB,
            let hostA = a.host?.lowercased(), let hostB = b.host?.lowercased(), hostA == hostB
        else { return false }
        func port(_ url: URL, _ scheme: String) -> Int? { url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil) }
        return port(a, schemeA) == port(b, schemeB)
    }

    /// `url` through the mirror: like huggingface_hub's `HF_ENDPOINT`, the mirror replaces
    /// `https://huggingface.co` at the start of a URL; other URLs stay as they are.
    public static func mirrored(_ url: URL, endpoint mirror: String?) -> URL {
        guard let mirror, !mirror.isEmpty else { return url }
        let text = url.absoluteString
        guard text.hasPrefix(official) else { return url }
        let base = mirror.hasSuffix("/") ? String(mirror.dropLast()) : mirror
        return URL(string: base + text.dropFirst(official.count)) ?? url
    }

    /// Whether `name` is a repository id the Hub could have: `owner/name`, each part of
    /// letters, digits, `-`, `_` and `.`, not starting with `.`.
    public static func isRepositoryName(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 96 && !part.hasPrefix(".") && !part.contains("..")
                && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
        }
    }
}
