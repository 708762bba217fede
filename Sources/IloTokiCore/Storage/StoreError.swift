import Foundation

/// A failure of the app's own files: the directory, the model store, settings, history.
public enum StoreError: Error, LocalizedError, Equatable, Sendable {
    case cannotCreateDirectory(String, reason: String)
    case cannotWrite(String, reason: String)
    case cannotDelete(String, reason: String)
    case notAModelFile(String, reason: String)
    case unknownModel(String)

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
        }
    }
}
