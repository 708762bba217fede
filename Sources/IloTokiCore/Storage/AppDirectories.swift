import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Android)
    import Android
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// llama.cpp's own log lines (`llama.log`, size-bounded; see `EngineLog`).
    public var engineLogFile: URL { home.appendingPathComponent("llama.log") }
    /// Models added from elsewhere on the device (`sideloaded.json`).
    public var sideloadedFile: URL { home.appendingPathComponent("sideloaded.json") }

    /// The directories for this platform and environment.
    /// - Parameter environment: the process environment (passed in so tests need not change it).
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> AppDirectories {
        if let home = environment["ILOTOKI_HOME"], !home.isEmpty {
            return AppDirectories(home: URL(fileURLWithPath: home, isDirectory: true))
        }
        #if canImport(Darwin)
            let support =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
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

    /// Creates the directories that are missing, readable only by the user (what people
    /// translate is private).
    ///
    /// A directory that already exists keeps the mode its owner gave it: forcing 0700 on an
    /// existing `ILOTOKI_HOME` could strip a sticky bit or make a read-only directory writable.
    /// Missing parents are made with the usual mode (the umask decides).
    /// - Throws: `StoreError.cannotCreateDirectory` naming the directory.
    public func create() throws {
        for directory in [home, models] {
            try Self.makeDirectory(directory)
        }
    }

    private static func makeDirectory(_ directory: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StoreError.cannotCreateDirectory(directory.path, reason: "a file of that name is in the way")
            }
            return
        }
        do {
            let parent = directory.deletingLastPathComponent()
            if !FileManager.default.fileExists(atPath: parent.path) {
                try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            }
            // mkdir itself applies the mode, so the directory is never readable by others, not even for a moment.
            guard mkdir(directory.path, 0o700) == 0 || errno == EEXIST else {
                throw StoreError.cannotCreateDirectory(directory.path, reason: String(cString: strerror(errno)))
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.cannotCreateDirectory(directory.path, reason: error.localizedDescription)
        }
    }
}
