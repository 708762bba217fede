import Foundation

/// The model files the tests use, made by scripts/fetch-test-models.sh in build/test-models/.
public enum TestModels {
    /// The repository's root directory.
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Sources/IloTokiTestSupport/TestModels.swift
        return url
    }()

    public static let directory = repositoryRoot.appendingPathComponent("build/test-models")

    /// A tiny random-weight llama model with a real 32k vocabulary: fast plumbing tests.
    public static var tiny: String { directory.appendingPathComponent("tiny.gguf").path }

    /// A well-formed GGUF file whose architecture llama.cpp does not know.
    public static var unknownArchitecture: String { directory.appendingPathComponent("unknown-architecture.gguf").path }

    /// Gemma 3 270M (Q4_K_M): the same architecture and tokenizer as the real translators.
    public static var gemma: String { directory.appendingPathComponent("gemma-3-270m-q4_k_m.gguf").path }

    /// The sitelen pona font that comes with the app (sitelen seli kiwen asuki), put in
    /// build/fonts by scripts/fetch-fonts.sh: the GTK tests and screenshots use it.
    public static let sitelenPonaFont = repositoryRoot.appendingPathComponent("build/fonts/sitelen-seli-kiwen-asuki.ttf").path

    /// lipu Linku's words as the app ships them, put in build/words by scripts/fetch-words.sh.
    public static let wordList = repositoryRoot.appendingPathComponent("build/words/linku-words.json").path

    /// The file, or an error that says how to make it.
    public static func require(_ path: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else {
            throw MissingTestModel(path: path)
        }
        return path
    }

    public struct MissingTestModel: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "Test model \(path) is missing: run scripts/fetch-test-models.sh" }
    }
}
