import Foundation
import IloTokiCore
import IloTokiTestSupport
import Testing

@Suite struct ModelCatalogTests {
    let catalog = ModelCatalog.standard

    @Test func idsAndFileNamesAreUnique() {
        #expect(Set(catalog.entries.map(\.id)).count == catalog.entries.count)
        #expect(Set(catalog.entries.map(\.fileName)).count == catalog.entries.count)
    }

    @Test func urlsAreHTTPSAndEndInTheFileName() throws {
        for entry in catalog.entries {
            #expect(entry.fileName.hasSuffix(".gguf"), "\(entry.id)")
            guard let url = entry.url else {
                #expect(entry.repository.map { HubAccess.isRepositoryName($0.name) } == true, "\(entry.id)")
                continue
            }
            #expect(url.scheme == "https", "\(entry.id)")
            #expect(url.lastPathComponent == entry.fileName, "\(entry.id)")
            #expect(url.host == "huggingface.co", "\(entry.id)")
        }
    }

    @Test func sizesArePositiveAndHashesWellFormed() {
        for entry in catalog.entries {
            #expect((entry.bytes ?? entry.approximateBytes ?? 0) > 0, "\(entry.id)")
            if let sha256 = entry.sha256 {
                #expect(sha256.count == 64 && sha256.allSatisfy { "0123456789abcdef".contains($0) }, "\(entry.id)")
            }
        }
    }

    /// Fails if anyone changes what a model answers to: the wrong format does not fail loudly.
    @Test func eachModelKeepsTheFormatItWasTrainedOn() {
        let formats = Dictionary(uniqueKeysWithValues: catalog.entries.map { ($0.id, $0.format) })
        #expect(
            formats == [
                "milmmt-46-1b-v1-3-q8-0": .sourceTarget,
                "milmmt-46-1b-v1-1-q8-0": .sourceTarget,
                "milmmt-46-1b-q8-0": .sourceTarget,
                "gemma-2-2b-q6-k": .queryAnswer,
            ])
    }

    @Test func theCatalogIsTheOneInTheSpecification() throws {
        let newest = try #require(catalog.entry(id: "milmmt-46-1b-v1-3-q8-0"))
        #expect(newest.displayName == "ilo-toki-1.3-MiLMMT-46-1b" && newest.quantization == "Q8_0" && !newest.deprecated)
        #expect(
            newest.source
                == .hub(repository: "NetherQuartz/ilo-toki-1.3-MiLMMT-46-1b-merged", revision: "main", approximateBytes: 1_390_169_824))
        #expect(newest.bytes == nil && newest.url == nil && newest.sha256 == nil)
        #expect(newest.fileName == "ilo-toki-1.3-MiLMMT-46-1b-Q8_0.gguf")
        let entry = try #require(catalog.entry(id: "milmmt-46-1b-v1-1-q8-0"))
        #expect(entry.displayName == "ilo-toki-1.1-MiLMMT-46-1b")
        #expect(entry.quantization == "Q8_0")
        #expect(entry.bytes == 1_390_169_824)
        #expect(entry.fileName == "ilo-toki-1.1-MiLMMT-46-1b-Q8_0.gguf")
        #expect(entry.deprecated)
        #expect(catalog.entry(id: "milmmt-46-1b-q8-0")?.deprecated == true)
        let gemma = try #require(catalog.entry(id: "gemma-2-2b-q6-k"))
        #expect(gemma.deprecated && gemma.quantization == "Q6_K" && gemma.bytes == 2_151_392_800)
    }

    @Test func theDefaultIsTheFirstEntryNotDeprecated() {
        #expect(catalog.defaultEntry?.id == "milmmt-46-1b-v1-3-q8-0")
        let allDeprecated = ModelCatalog(entries: Array(catalog.entries.dropFirst()))
        #expect(allDeprecated.defaultEntry?.id == "milmmt-46-1b-v1-1-q8-0")
    }

    @Test func lookupById() {
        #expect(catalog.entry(id: "gemma-2-2b-q6-k")?.format == .queryAnswer)
        #expect(catalog.entry(id: "no-such-model") == nil)
    }

    @Test func aMirrorReplacesTheHuggingFaceHost() throws {
        let entry = try #require(catalog.entry(id: "milmmt-46-1b-v1-1-q8-0"))
        let mirrored = try #require(entry.url(endpoint: "http://127.0.0.1:8080"))
        #expect(
            mirrored.absoluteString
                == "http://127.0.0.1:8080/NetherQuartz/ilo-toki-1.1-MiLMMT-46-1b-merged/resolve/main/ilo-toki-1.1-MiLMMT-46-1b-Q8_0.gguf")
        #expect(entry.url(endpoint: "https://hf-mirror.example/")?.host == "hf-mirror.example")
        #expect(entry.url(endpoint: nil) == entry.url)
        #expect(entry.url(endpoint: "") == entry.url)
    }

    @Test func aCatalogFileMayNameARepository() throws {
        let directory = TemporaryDirectory("catalog")
        let file = directory.file("catalog.json")
        try Data(
            #"""
            {"entries": [{"id": "n", "displayName": "New", "quantization": "Q8_0", "repository": "o/r", "format": "sourceTarget"},
                         {"id": "f", "displayName": "Old", "quantization": "Q8_0", "url": "https://huggingface.co/o/r/resolve/main/f.gguf",
                          "bytes": 10, "format": "sourceTarget", "deprecated": true}]}
            """#.utf8
        ).write(to: file)
        let loaded = try ModelCatalog.load(from: file)
        try #require(loaded.entries.count == 2)
        #expect(loaded.entries[0].source == ModelSource.hub(repository: "o/r", revision: "main", approximateBytes: nil))
        #expect(loaded.entries[0].fileName == "New-Q8_0.gguf")
        #expect(loaded.entries[1].bytes == 10 && loaded.entries[1].deprecated)
        // What is encoded reads back the same.
        let again = try JSONDecoder().decode([CatalogEntry].self, from: JSONEncoder().encode(ModelCatalog.standard.entries))
        #expect(again == ModelCatalog.standard.entries)

        try Data(
            #"{"entries": [{"id": "n", "displayName": "New", "quantization": "Q8_0", "repository": "not a repo", "format": "sourceTarget"}]}"#
                .utf8
        )
        .write(to: file)
        #expect(throws: CatalogError.self) { try ModelCatalog.load(from: file) }
    }
}
