import Foundation

/// A GGUF file the user added from elsewhere on the device, with the format it answers to.
public struct SideloadedModel: Codable, Identifiable, Hashable, Sendable {
    /// `local-` and a UUID; never the id of a catalog entry.
    public let id: String
    /// The name shown to people.
    public var name: String
    /// Absolute path of the file (it stays where it is: models are gigabytes).
    public var path: String
    /// The prompt format the model was fine-tuned on.
    public var format: PromptFormat
    public var addedAt: Date

    public var url: URL { URL(fileURLWithPath: path) }

    /// Whether the file has gone (moved, deleted, on a removed card): reported, never dropped silently.
    public var isMissing: Bool { !FileManager.default.fileExists(atPath: path) }

    static let idPrefix = "local-"

    /// The id of a file used for one session only (the command line's `--model PATH`).
    public static let sessionFileID = "local-file"
}
