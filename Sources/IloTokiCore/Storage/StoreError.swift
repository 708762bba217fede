import Foundation

/// A failure of the app's own files: the directory, the model store, settings, history.
public enum StoreError: Error, LocalizedError, Equatable, Sendable {
    case cannotCreateDirectory(String, reason: String)
    case cannotWrite(String, reason: String)
    case cannotDelete(String, reason: String)
    case notAModelFile(String, reason: String)
    case unknownModel(String)
    /// A file that cannot be read could not be moved aside either: it is left as it is and
    /// not written over.
    case cannotKeepDamagedFile(String, reason: String)
    /// A download (in this or another process) is writing the model's files.
    case downloadInProgress(model: String)

    public var errorDescription: String? {
        switch self {
        case .cannotCreateDirectory(let path, let reason):
            "Cannot create the directory \(path): \(reason). Check its permissions, or set ILOTOKI_HOME to a writable place."
        case .cannotWrite(let path, let reason):
            "Cannot write \(path): \(reason). Check that the disk is not full and the directory is writable."
        case .cannotDelete(let path, let reason):
            "Cannot delete \(path): \(reason)."
        case .notAModelFile(let path, let reason):
            "\(path) cannot be added as a model: \(reason)."
        case .unknownModel(let id):
            "There is no model '\(id)'. Run `ilotoki models` to see the models there are."
        case .cannotKeepDamagedFile(let path, let reason):
            reason.hasPrefix(path)
                ? reason : "\(path) cannot be read and cannot be moved aside (\(reason)); it is left as it is and nothing is written to it."
        case .downloadInProgress(let model):
            "\(model) is being downloaded right now; pause that download (Ctrl-C, or the pause button) before removing it."
        }
    }
}
