import CGtk
import CGtkSupport
import Foundation
import IloTokiCore

/// The app's fonts: Space Grotesk, which ships with the app, and a sitelen pona ligature font,
/// which is found on the system.
public enum Fonts {
    /// Adds the app's own fonts for this process. Must run before GTK creates its font map.
    /// Looks in `ILOTOKI_FONT_DIRS` (colon-separated files or directories), then beside the
    /// executable (`../share/ilotoki/fonts` once installed), then `build/fonts` of a checkout.
    public static func loadAppFonts(environment: [String: String]) {
        var places = (environment["ILOTOKI_FONT_DIRS"] ?? "").split(separator: ":").map(String.init)
        // Installed: share/ilotoki/fonts; in a checkout: the fonts scripts/setup.sh put in build/.
        places += FileSystem.bundledDataPlaces(executable: FileSystem.runningExecutable, installed: "fonts", built: "fonts").map(\.path)
        for place in places where FileManager.default.fileExists(atPath: place) {
            _ = ilotoki_gtk_add_fonts(place)
        }
    }

    /// Whether a font family is installed (or was added for this process).
    public static func has(_ family: String) -> Bool { ilotoki_gtk_has_font_family(family) }

    /// Adds a font file or directory for this process (before the first widget).
    @discardableResult
    public static func add(_ path: String) -> Bool { ilotoki_gtk_add_fonts(path) }
}
