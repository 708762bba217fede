import Foundation

/// Where ilo toki keeps its files.
///
/// `$ILOTOKI_HOME` when set; otherwise `$XDG_DATA_HOME/ilotoki` or `~/.local/share/ilotoki` on
/// Linux, and Application Support on Apple platforms. Settings and history live there; models
/// in its `models/` subdirectory, the only directory that is ever swept.
public struct AppDirectories: Sendable, Equatable {
    /// The app's own directory.
    public let home: URL

    public init(home: URL) {
        self.home = home.standardizedFileURL
    }

    /// Downloaded models.
    public var models: URL { home.appendingPathComponent("models", isDirectory: true) }
    /// Settings (`settings.json`).
    public var settingsFile: URL { home.appendingPathComponent("settings.json") }
    /// Translation history (`history.json`).
    public var historyFile: URL { home.appendingPathComponent("history.json") }
    /// Models added from elsewhere on the device (`sideloaded.json`).
    public var sideloadedFile: URL { home.appendingPathComponent("sideloaded.json") }

    /// The directories for this platform and environment.
    /// - Parameter environment: the process environment (passed in so tests need not change it).
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> AppDirectories {
        if let home = environment["ILOTOKI_HOME"], !home.isEmpty {
            return AppDirectories(home: URL(fileURLWithPath: home, isDirectory: true))
        }
        #if canImport(Darwin)
            let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
            return AppDirectories(home: support.appendingPathComponent("ilotoki", isDirectory: true))
        #else
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
                return AppDirectories(home: URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("ilotoki"))
            }
            let user = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            return AppDirectories(home: URL(fileURLWithPath: user, isDirectory: true).appendingPathComponent(".local/share/ilotoki"))
        #endif
    }

    /// Creates the directories, readable only by the user (what people translate is private).
    /// - Throws: `StoreError.cannotCreateDirectory` naming the directory.
    public func create() throws {
        for directory in [home, models] {
            do {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
            } catch {
                throw StoreError.cannotCreateDirectory(directory.path, reason: error.localizedDescription)
            }
        }
    }
}
