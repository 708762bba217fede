/// What a front end does after an action that may need the user first.
public enum ActionOutcome: Equatable, Sendable {
    /// Done (or under way); nothing to show.
    case done
    /// The model licence must be shown and accepted before this model is downloaded: show
    /// it, and on acceptance call `acceptLicenceAndDownload(_:)`.
    case showLicence(CatalogEntry)
}

extension TranslatorModel {
    /// The slab, pressed: translate, stop, download, resume or retry, whatever it offers now.
    @discardableResult
    public func pressSlab() -> ActionOutcome {
        switch slabAction {
        case .translate, .stop: translate()
        case .download(let entry), .resumeDownload(let entry): return requestDownload(entry)
        case .retry: Task { await retryLoading() }
        case .busy: break
        }
        return .done
    }

    /// Ctrl+Enter: translates when the slab would translate, and does nothing else (it never
    /// starts a download).
    public func translateIfReady() {
        if slabAction == .translate { translate() }
    }

    /// Escape on the main screen: stops a translation.
    public func stopIfTranslating() {
        stopTranslation()
    }

    /// The header's download control: pauses a running download, resumes one that is not.
    @discardableResult
    public func toggleDownload() -> ActionOutcome {
        guard let download = activeDownload else { return .done }
        if case .running = download.phase {
            pauseDownload()
            return .done
        }
        return requestDownload(download.entry)
    }

    /// Downloads a catalog model, once its licence has been accepted.
    @discardableResult
    public func requestDownload(_ entry: CatalogEntry) -> ActionOutcome {
        guard !needsLicenceAcceptance else { return .showLicence(entry) }
        startDownload(entry)
        return .done
    }

    /// The licence was shown and accepted: remember it, and download.
    public func acceptLicenceAndDownload(_ entry: CatalogEntry) {
        acceptModelLicence()
        startDownload(entry)
    }
}
