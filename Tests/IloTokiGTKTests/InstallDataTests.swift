import Foundation
import IloTokiGTK
import IloTokiTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What scripts/install-gtk.sh installs so that launchers (GNOME, Phosh) show the app: the
/// .desktop file, the icon and the AppStream metadata, all named by the application id.
@Suite struct InstallDataTests {
    let data = TestModels.repositoryRoot.appendingPathComponent("data")
    let id = IloTokiApp.applicationID

    func desktopEntry() throws -> [String: String] {
        let text = try String(contentsOf: data.appendingPathComponent("\(id).desktop"), encoding: .utf8)
        var entry: [String: String] = [:]
        for line in text.split(separator: "\n") where line.contains("=") && !line.hasPrefix("#") {
            let parts = line.split(separator: "=", maxSplits: 1)
            entry[String(parts[0])] = String(parts[1])
        }
        return entry
    }

    @Test func theDesktopEntryStartsTheAppWithItsIcon() throws {
        let entry = try desktopEntry()
        #expect(entry["Exec"] == "ilotoki-gtk")
        #expect(entry["Icon"] == id)
        #expect(entry["Name"] == "ilo toki")
        #expect(entry["Type"] == "Application")
        #expect(entry["X-Purism-FormFactor"]?.contains("Mobile") == true, "Phosh lists it on phones")
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("\(id).svg").path))
    }

    @Test func theMetadataNamesTheLaunchableAndTheBinary() throws {
        let xml = try XMLDocument(contentsOf: data.appendingPathComponent("\(id).metainfo.xml"))
        #expect(try xml.nodes(forXPath: "/component/id").first?.stringValue == id)
        #expect(try xml.nodes(forXPath: "/component/launchable").first?.stringValue == "\(id).desktop")
        #expect(try xml.nodes(forXPath: "/component/provides/binary").first?.stringValue == "ilotoki-gtk")
        #expect(try xml.nodes(forXPath: "/component/project_license").first?.stringValue == "MIT AND OFL-1.1")
    }

    @Test func theProjectAndWhatItInstallsCarryTheirLicences() throws {
        let root = TestModels.repositoryRoot
        let mit = try String(contentsOf: root.appendingPathComponent("LICENSE"), encoding: .utf8)
        #expect(mit.hasPrefix("MIT License"))
        let licences = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("licenses").path)
        #expect(Set(licences).isSuperset(of: ["SpaceGrotesk-OFL.txt", "sitelen-seli-kiwen-asuki-OFL.txt", "llama.cpp-MIT.txt"]))
    }

    @Test func theValidatorsAcceptTheFiles() async throws {
        for (tool, arguments) in [
            ("/usr/bin/desktop-file-validate", [data.appendingPathComponent("\(id).desktop").path]),
            ("/usr/bin/appstreamcli", ["validate", "--no-net", data.appendingPathComponent("\(id).metainfo.xml").path]),
        ] {
            guard FileManager.default.isExecutableFile(atPath: tool) else {
                Issue.record("\(tool) is missing: scripts/setup.sh --with-test-tools installs it")
                continue
            }
            let result = try await ToolProcess.run(URL(fileURLWithPath: tool), arguments, environment: ProcessInfo.processInfo.environment)
            #expect(result.status == 0, "\(tool): \(result.stdout) \(result.stderr)")
        }
    }
}
