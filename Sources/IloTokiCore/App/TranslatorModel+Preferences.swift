import Foundation

/// History, settings and notices: what the app model keeps for the user (through `preferences`).
extension TranslatorModel {
    // MARK: - History

    public func setOlin(_ olin: Bool, for id: UUID) {
        preferences.changeHistory { $0.setOlin(olin, for: id) }
    }

    public func removeHistoryEntry(_ id: UUID) {
        preferences.changeHistory { $0.remove(id) }
    }

    /// Clears the history but the favourites.
    public func clearHistory() {
        preferences.changeHistory { $0.clear() }
    }

    /// Reads the history again, with what other processes (the command line while the app
    /// runs) added since: for a front end about to show it.
    public func refreshHistory() {
        preferences.refreshHistory()
    }

    /// Puts a history entry back on the plates.
    public func reuse(_ entry: HistoryEntry) {
        cancelTranslation()
        setDirection(entry.direction)
        settingSourceQuietly = true
        sourceText = entry.source
        settingSourceQuietly = false
        targetText = entry.result
        translationState = .done
    }

    // MARK: - Settings

    public func setKeepHistory(_ keep: Bool) {
        preferences.change { $0.keepHistory = keep }
    }

    public func setTranslateAsYouType(_ enabled: Bool) {
        preferences.change { $0.translateAsYouType = enabled }
    }

    public func setTheme(_ theme: AppSettings.Theme) {
        preferences.change { $0.theme = theme }
    }

    /// Chooses the font that draws sitelen pona; `nil` (or an empty name) goes back to the
    /// one that comes with the app.
    public func setSitelenPonaFont(_ family: String?) {
        let family = family.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        preferences.change { $0.sitelenPonaFont = family }
    }

    public func dismissNotice(at index: Int) {
        guard notices.indices.contains(index) else { return }
        notices.remove(at: index)
    }

    /// Adds a notice, once: the same thing is not said twice while it is still shown.
    func note(_ text: String) {
        guard !notices.contains(text) else { return }
        notices.append(text)
    }

    // MARK: - Files

    /// Returns once every pending settings and history write is on disk.
    public func flushWrites() async {
        await preferences.flush()
    }

    /// Waits here until every pending write is on disk: for a front end that is about to exit.
    public func flushWritesBeforeExit() {
        preferences.flushBeforeExit()
    }
}
