import CoreText
import Foundation
import IloTokiCore
import SwiftUI
import UniformTypeIdentifiers

#if canImport(UIKit)
    import UIKit
#elseif canImport(AppKit)
    import AppKit
#endif

/// What the app needs from the platform: fonts, the clipboard, backups, the picker's file types.
enum Platform {
    /// The interface language: the first of the user's languages that ilo toki speaks.
    static var preferredLanguage: InterfaceLanguage {
        for identifier in Locale.preferredLanguages {
            let code = String(identifier.prefix { $0.isLetter }).lowercased()
            if let language = InterfaceLanguage(code: code) { return language }
        }
        return .english
    }

    /// Registers Space Grotesk and the sitelen pona font from the app bundle, for this process.
    static func registerBundledFonts() {
        for name in ["SpaceGrotesk[wght]", "sitelen-seli-kiwen-asuki"] {
            guard let url = Bundle.main.url(forResource: name, withExtension: "ttf") else { continue }
            CTFontManagerRegisterFontsForURL(url as CFURL, .process, nil)
        }
    }

    /// Whether a font family can draw text here (the bundled ones count once registered).
    static func isFontInstalled(_ family: String) -> Bool {
        let families = CTFontManagerCopyAvailableFontFamilyNames() as? [String] ?? []
        return families.contains { $0.caseInsensitiveCompare(family) == .orderedSame }
    }

    /// On the main actor: the pasteboard belongs to the app's UI.
    @MainActor
    static func copyToClipboard(_ text: String) {
        #if canImport(UIKit)
            UIPasteboard.general.string = text
        #elseif canImport(AppKit)
            NSPasteboard.general.clearContents()
            NSPasteboard.general.setString(text, forType: .string)
        #endif
    }

    /// Keeps the app's directory (models of a gigabyte and more) out of iCloud and device backups.
    static func excludeFromBackup(_ directory: URL) {
        var url = directory
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        try? url.setResourceValues(values)
    }

    /// Whether the app is in front (the ready notification is for when it is not).
    @MainActor
    static func isInFront() -> Bool {
        #if canImport(UIKit)
            UIApplication.shared.applicationState == .active
        #elseif canImport(AppKit)
            NSApp.isActive
        #endif
    }

    /// GGUF files, for the document picker.
    static let modelFileTypes: [UTType] = [UTType(filenameExtension: "gguf") ?? .data]
}

/// Downloads keep their guarantees when the app leaves the screen: the system lends a little
/// time to finish; when that runs out the download pauses (its `.part` file and the bytes in it
/// are kept and verified on resume), and it resumes when the app is back.
@MainActor
final class BackgroundDownloads {
    private var pausedByUs = false
    #if canImport(UIKit)
        private var task: UIBackgroundTaskIdentifier = .invalid
    #endif

    func follow(_ phase: ScenePhase, model: TranslatorModel) {
        switch phase {
        case .background:
            guard case .running? = model.activeDownload?.phase else { return }
            #if canImport(UIKit)
                task = UIApplication.shared.beginBackgroundTask(withName: "ilotoki.download") { [weak self] in
                    MainActor.assumeIsolated { self?.pause(model) }
                }
            #endif
        case .active:
            endBackgroundTask()
            if pausedByUs, case .paused? = model.activeDownload?.phase {
                model.perform(.toggleDownload)
            }
            pausedByUs = false
        default:
            break
        }
    }

    private func pause(_ model: TranslatorModel) {
        if case .running? = model.activeDownload?.phase {
            model.perform(.pauseDownload)
            pausedByUs = true
        }
        endBackgroundTask()
    }

    private func endBackgroundTask() {
        #if canImport(UIKit)
            if task != .invalid {
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
            }
        #endif
    }
}

/// iOS's memory warning, passed on to Core (`TranslatorModel.setShortOfMemory`): the engine
/// then streams the trimmed head's checks instead of keeping the rows they rule out in memory,
/// with the same translations. iOS never says memory is plentiful again, so the word lapses two
/// minutes after the last warning. A Mac sends no such warning: there nothing is said.
@MainActor
enum MemoryWarnings {
    private static var lapse: Task<Void, Never>?

    static func follow(_ model: TranslatorModel) {
        #if canImport(UIKit)
            _ = NotificationCenter.default.addObserver(
                forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: .main
            ) { [weak model] _ in
                Task { @MainActor in warned(model) }
            }
        #endif
    }

    private static func warned(_ model: TranslatorModel?) {
        guard let model else { return }
        model.setShortOfMemory(true)
        lapse?.cancel()
        lapse = Task { [weak model] in
            try? await Task.sleep(for: .seconds(120))
            guard !Task.isCancelled else { return }
            model?.setShortOfMemory(false)
        }
    }
}
