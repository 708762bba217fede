import Foundation
import IloTokiCore
import IloTokiEngineLive
import IloTokiTestSupport
import Testing

/// Start-up as every front end does it (`LiveApp.model`): the catalog the environment names,
/// the mirror, the live engine, and a catalog that cannot be read said plainly.
@MainActor
@Suite struct LiveAppTests {
    @Test func aCatalogThatCannotBeReadIsReportedNotReplaced() throws {
        let home = TemporaryDirectory("live-app-bad-catalog")
        let catalog = home.file("catalog.json")
        try Data("{ this is not a catalog".utf8).write(to: catalog)
        do {
            _ = try LiveApp.model(directories: AppDirectories(home: home.url), environment: ["ILOTOKI_CATALOG": catalog.path])
            Issue.record("a broken catalog was accepted")
        } catch {
            #expect(error.localizedDescription.contains("catalog.json"), "\(error.localizedDescription)")
        }
        do {
            _ = try LiveApp.model(
                directories: AppDirectories(home: home.url), environment: ["ILOTOKI_CATALOG": home.file("missing.json").path])
            Issue.record("a missing catalog was accepted")
        } catch {
            #expect(error.localizedDescription.contains("missing.json"), "\(error.localizedDescription)")
        }
    }

    @Test func theModelUsesTheStandardCatalogAndTheLiveEngine() throws {
        let home = TemporaryDirectory("live-app")
        let model = try LiveApp.model(directories: AppDirectories(home: home.url), environment: [:])
        #expect(model.store.catalog.entries.map(\.id) == ModelCatalog.standard.entries.map(\.id))
        #expect(model.engineDescription.hasPrefix("llama.cpp "))
        #expect(model.isFontInstalled("any family"))
    }
}
