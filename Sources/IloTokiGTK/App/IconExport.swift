import Foundation
import IloTokiDesign

/// The icons as SVG files: the sheet in docs/, the app icon for installing.
enum IconExport {
    static func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Icon.sheet().write(to: directory.appendingPathComponent("icons.svg"), atomically: true, encoding: .utf8)
        try AppIcon.svg().write(to: directory.appendingPathComponent("org.ilotoki.IloToki.svg"), atomically: true, encoding: .utf8)
        for icon in Icon.all {
            try icon.svg().write(to: directory.appendingPathComponent("icon-\(icon.name.rawValue).svg"), atomically: true, encoding: .utf8)
        }
    }
}
