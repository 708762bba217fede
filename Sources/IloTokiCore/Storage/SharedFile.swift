import Foundation

/// A small JSON file that more than one process may change at once: the command line while
/// the app runs, two translations in two terminals.
///
/// Every read and every change holds an advisory lock (`flock` on `<file>.lock` beside it),
/// and a change is read–merge–write: it is applied to what is on disk now, not to a copy
/// read earlier, so no process writes over another's work. Writes stay atomic (a temporary
/// file renamed over the old one). A file that cannot be read is moved aside, never
/// overwritten; if it cannot be moved, nothing is written.
struct SharedFile<Value: Sendable>: Sendable {
    /// What decoding the file's bytes gave.
    struct Decoded {
        var value: Value
        /// Set when part of the file could not be read: the rest is used, and the file is
        /// moved aside so the part that was lost can still be recovered by hand.
        var lost: String?
    }

    /// What reading the file gave.
    struct Contents {
        /// The value; `nil` when there is no file, or it could not be read at all.
        var value: Value?
        /// What the user should know: the file was damaged and where its bytes went.
        var problem: String?
        /// A damaged file is still in place (it could not be moved aside): it must not be written over.
        var blocked = false
    }

    let url: URL
    private let decode: @Sendable (Data) throws -> Decoded
    private let encode: @Sendable (Value) throws -> Data
    /// Keeps a damaged file's bytes; replaceable so tests can make it fail.
    var setAside: @Sendable (URL) throws -> URL = { try DamagedFile.setAside($0) }

    init(url: URL, decode: @escaping @Sendable (Data) throws -> Decoded, encode: @escaping @Sendable (Value) throws -> Data) {
        self.url = url
        self.decode = decode
        self.encode = encode
    }

    /// `<file>.lock`, beside the file.
    var lockURL: URL { url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".lock") }

    /// Reads the file under its lock. A damaged file is moved aside.
    func read() -> Contents {
        // A home that cannot be written can still be read: then there is no lock to take.
        let lock = try? FileLock.wait(for: lockURL)
        defer { lock?.release() }
        return readHoldingLock()
    }

    /// Applies `change` to what is on disk now and writes the result, all under the lock.
    /// - Parameter change: gets the value on disk (`nil` when there is none) and returns the
    ///   value to write.
    /// - Returns: the value written, and a problem found on the way (a damaged file set aside).
    /// - Throws: `StoreError` when the lock or the file cannot be written, or a damaged file
    ///   could not be kept (then nothing is written).
    @discardableResult
    func update(_ change: (Value?) throws -> Value) throws -> (value: Value, problem: String?) {
        let lock = try FileLock.wait(for: lockURL)
        defer { lock.release() }
        let contents = readHoldingLock()
        if contents.blocked {
            throw StoreError.cannotKeepDamagedFile(url.path, reason: contents.problem ?? "it could not be moved aside")
        }
        let value = try change(contents.value)
        let data: Data
        do {
            data = try encode(value)
        } catch {
            throw StoreError.cannotWrite(url.path, reason: error.localizedDescription)
        }
        try AtomicFile.replace(url, with: data)
        return (value, contents.problem)
    }

    /// Reads the file without taking the lock, for files one process owns (a download's notes,
    /// guarded by the download's own lock).
    func readWithoutLock() -> Contents { readHoldingLock() }

    /// `update` for a value changed in place: `empty` stands in when there is no file yet.
    @discardableResult
    func change(from empty: @autoclosure () -> Value, _ change: (inout Value) throws -> Void) throws -> (value: Value, problem: String?) {
        try update { current in
            var value = current ?? empty()
            try change(&value)
            return value
        }
    }

    private func readHoldingLock() -> Contents {
        let data: Data
        do {
            data = try FileBytes.contents(of: url)
        } catch FileBytes.Failure.noSuchFile {
            return Contents()
        } catch {
            guard FileManager.default.fileExists(atPath: url.path) else { return Contents() }
            return setAside(because: "it cannot be read (\(error.localizedDescription))", keeping: nil)
        }
        do {
            let decoded = try decode(data)
            guard let lost = decoded.lost else { return Contents(value: decoded.value) }
            return setAside(because: lost, keeping: decoded.value)
        } catch let error as DecodingError {
            return setAside(because: "it is damaged (\(error.summary))", keeping: nil)
        } catch {
            return setAside(because: "it is damaged (\(error.localizedDescription))", keeping: nil)
        }
    }

    private func setAside(because failure: String, keeping value: Value?) -> Contents {
        do {
            let aside = try setAside(url)
            let kept = value == nil ? "" : " What could be read is kept."
            return Contents(
                value: value, problem: "\(url.lastPathComponent) was set aside because \(failure); the old file is \(aside.path).\(kept)")
        } catch {
            return Contents(
                value: value,
                problem: "\(url.path) is left as it is because \(failure), and it could not be moved aside "
                    + "(\(error.localizedDescription)); nothing will be written to it until it is moved or removed.",
                blocked: true)
        }
    }
}

extension SharedFile where Value: Codable {
    /// A file holding one JSON value.
    init(url: URL) {
        self.init(
            url: url,
            decode: { Decoded(value: try JSONFile.decoder.decode(Value.self, from: $0)) },
            encode: { try JSONFile.encoder.encode($0) })
    }
}

/// Decodes an element of an array on its own, so one damaged element does not take the
/// others with it.
struct Lenient<Element: Decodable>: Decodable {
    let element: Element?

    init(from decoder: any Decoder) throws {
        element = try? Element(from: decoder)
    }
}
