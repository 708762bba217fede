import AppIntents
import Foundation
import IloTokiCore
import Observation
import UserNotifications

#if canImport(AppKit) && !canImport(UIKit)
    import AppKit
#endif

/// The app model every way into the app shares: the window, the App Intent, the Services menu.
@MainActor
enum SharedModel {
    static var model: TranslatorModel?
}

/// "Translate with ilo toki" for Shortcuts, Siri and the share sheet (a shortcut made from it
/// can be shown there): the text goes onto the source plate of the app, which comes forward,
/// its direction is detected, and the translation is what the intent returns.
struct TranslateWithIloToki: AppIntent {
    static let title: LocalizedStringResource = "Translate with ilo toki"
    static let description = IntentDescription("Translates between Toki Pona and English, Russian or Vietnamese, on this device.")
    static let openAppWhenRun = true

    @Parameter(title: "Text")
    var text: String

    init() {}

    @MainActor
    func perform() async throws -> some IntentResult & ReturnsValue<String> {
        guard let model = SharedModel.model else { return .result(value: "") }
        model.perform(.translateIncoming(text: text))
        // The translation streams into the plate; the intent returns it once it is complete (or
        // what is there if the model is not on the device: the plate says why).
        let deadline = ContinuousClock.now + .seconds(120)
        try? await Task.sleep(for: .milliseconds(50))
        while ContinuousClock.now < deadline {
            switch model.translationState {
            case .done, .failed: return .result(value: model.targetText)
            case .translating: break
            case .idle:
                // It waits for a model that is loading; one still to be downloaded is said on the plate.
                if !model.translateWhenReady || model.modelState != .loading { return .result(value: model.targetText) }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return .result(value: model.targetText)
    }
}

/// The phrases Siri and Shortcuts know the intent by.
struct IloTokiShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: TranslateWithIloToki(), phrases: ["Translate with \(.applicationName)"], shortTitle: "Translate",
            systemImageName: "character.bubble")
    }
}

#if canImport(AppKit) && !canImport(UIKit)
    /// The Services menu's "Translate with ilo toki" (`NSServices` in Info.plist): the selected
    /// text of any app goes onto the source plate and is translated; the window comes forward.
    @MainActor
    final class ServicesProvider: NSObject {
        // The message NSServices names (NSMessage = translate), in the selector's Objective-C
        // shape; Linux, where this is only type-checked, has no Objective-C runtime.
        #if canImport(ObjectiveC)
            @objc func translate(_ pasteboard: NSPasteboard, userData: String?, error: AutoreleasingUnsafeMutablePointer<NSString>) {
                receive(pasteboard)
            }
        #else
            func translate(_ pasteboard: NSPasteboard, userData: String?, error: AutoreleasingUnsafeMutablePointer<NSString>) {
                receive(pasteboard)
            }
        #endif

        private func receive(_ pasteboard: NSPasteboard) {
            guard let text = pasteboard.string(forType: .string), !text.isEmpty, let model = SharedModel.model else { return }
            model.perform(.translateIncoming(text: text))
            NSApp.activate(ignoringOtherApps: true)
        }

        /// Offers the service to the system, once, at launch.
        static func register() {
            NSApp.servicesProvider = ServicesProvider()
            NSUpdateDynamicServices()
        }
    }
#endif

/// Once a downloaded model has loaded while the app is not in front, one notification says the
/// translator is ready (UserNotifications). Follows the model through Observation, so it works
/// while no view is drawn; permission is asked when a download begins, while the app is in front.
@MainActor
final class ReadyNotifier {
    private let model: TranslatorModel
    private let strings: UIStrings
    private let isInFront: @MainActor () -> Bool
    private var askedPermission = false

    init(model: TranslatorModel, strings: UIStrings, isInFront: @escaping @MainActor () -> Bool) {
        self.model = model
        self.strings = strings
        self.isInFront = isInFront
        observe()
    }

    private func observe() {
        withObservationTracking {
            _ = model.readyNoticeModel
            _ = model.activeDownload
        } onChange: { [weak self] in
            Task { @MainActor in
                self?.follow()
                self?.observe()
            }
        }
    }

    private func follow() {
        if model.activeDownload != nil, !askedPermission {
            askedPermission = true
            Task { _ = try? await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound]) }
        }
        guard let notice = MainScreen(model: model, strings: strings).readyNotice else { return }
        model.perform(.readyNoticeHandled)
        guard !isInFront() else { return }
        let content = UNMutableNotificationContent()
        content.title = notice.title
        content.body = notice.body
        content.sound = .default
        let request = UNNotificationRequest(identifier: "ready", content: content, trigger: nil)
        Task { try? await UNUserNotificationCenter.current().add(request) }
    }
}
