import Foundation

/// History, settings and notices: what the app model keeps for the user (through `preferences`).
extension TranslatorModel {
    /// Puts a history entry back on the plates.
    func reuse(_ entry: HistoryEntry) {
        cancelTranslation()
        setDirection(entry.direction)
        settingSourceQuietly = true
        sourceText = entry.source
        settingSourceQuietly = false
        targetText = entry.result
        translationState = .done
    }

    /// Adds a notice, once: the same thing is not said twice while it is still shown.
    func note(_ text: String) {
        guard !notices.contains(text) else { return }
        notices.append(text)
    }

    /// Returns once every pending settings and history write is on disk.
    public func flushWrites() async {
        await preferences.flush()
    }
}
