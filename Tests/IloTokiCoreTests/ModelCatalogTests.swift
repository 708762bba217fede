import Foundation
import IloTokiCore
import Testing

@Suite struct ModelCatalogTests {
    let catalog = ModelCatalog.standard

    @Test func idsAndFileNamesAreUnique() {
        #expect(Set(catalog.entries.map(\.id)).count == catalog.entries.count)
        #expect(Set(catalog.entries.map(\.fileName)).count == catalog.entries.count)
    }

    @Test func urlsAreHTTPSAndEndInTheFileName() {
        for entry in catalog.entries {
            #expect(entry.url.scheme == "https", "\(entry.id)")
            #expect(entry.url.lastPathComponent == entry.fileName, "\(entry.id)")
            #expect(entry.fileName.hasSuffix(".gguf"), "\(entry.id)")
            #expect(entry.url.host == "huggingface.co", "\(entry.id)")
        }
    }

    @Test func sizesArePositiveAndHashesWellFormed() {
        for entry in catalog.entries {
            #expect(entry.bytes > 0, "\(entry.id)")
            if let sha256 = entry.sha256 {
                #expect(sha256.count == 64 && sha256.allSatisfy { "0123456789abcdef".contains($0) }, "\(entry.id)")
            }
        }
    }

    /// Fails if anyone changes what a model answers to: the wrong format does not fail loudly.
    @Test func eachModelKeepsTheFormatItWasTrainedOn() {
        let formats = Dictionary(uniqueKeysWithValues: catalog.entries.map { ($0.id, $0.format) })
        #expect(formats == [
            "milmmt-46-1b-v1-1-q8-0": .sourceTarget,
            "milmmt-46-1b-q8-0": .sourceTarget,
            "gemma-2-2b-q6-k": .queryAnswer,
        ])
    }

    @Test func theCatalogIsTheOneInTheSpecification() throws {
        let entry = try #require(catalog.entry(id: "milmmt-46-1b-v1-1-q8-0"))
        #expect(entry.displayName == "ilo-toki-1.1-MiLMMT-46-1b")
        #expect(entry.quantization == "Q8_0")
        #expect(entry.bytes == 1_390_169_824)
        #expect(entry.fileName == "ilo-toki-1.1-MiLMMT-46-1b-Q8_0.gguf")
        #expect(!entry.deprecated)
        #expect(catalog.entry(id: "milmmt-46-1b-q8-0")?.deprecated == true)
        let gemma = try #require(catalog.entry(id: "gemma-2-2b-q6-k"))
        #expect(gemma.deprecated && gemma.quantization == "Q6_K" && gemma.bytes == 2_151_392_800)
    }

    @Test func theDefaultIsTheFirstEntryNotDeprecated() {
        #expect(catalog.defaultEntry?.id == "milmmt-46-1b-v1-1-q8-0")
        let allButFirstDeprecated = ModelCatalog(entries: Array(catalog.entries.dropFirst()) + [catalog.entries[0]])
        #expect(allButFirstDeprecated.defaultEntry?.id == "milmmt-46-1b-v1-1-q8-0")
    }

    @Test func lookupById() {
        #expect(catalog.entry(id: "gemma-2-2b-q6-k")?.format == .queryAnswer)
        #expect(catalog.entry(id: "no-such-model") == nil)
    }

    @Test func aMirrorReplacesTheHuggingFaceHost() throws {
        let entry = try #require(catalog.defaultEntry)
        let mirrored = entry.url(endpoint: "http://127.0.0.1:8080")
        #expect(mirrored.absoluteString == "http://127.0.0.1:8080/NetherQuartz/ilo-toki-1.1-MiLMMT-46-1b-merged/resolve/main/ilo-toki-1.1-MiLMMT-46-1b-Q8_0.gguf")
        #expect(entry.url(endpoint: "https://hf-mirror.example/").host == "hf-mirror.example")
        #expect(entry.url(endpoint: nil) == entry.url)
        #expect(entry.url(endpoint: "") == entry.url)
    }
}
