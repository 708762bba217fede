import Foundation

/// `perform(_:)`: the one way every front end acts on the app model.
extension TranslatorModel {
    /// Does what the user asked. Returns at once: long work (a load, a delete, an import)
    /// starts and goes on, its progress and end show in the screen values, and a failure of
    /// it becomes a notice under the plates. `settled()` waits for it; `run(_:)` performs and
    /// waits, and returns the work's own outcome instead of a notice.
    @discardableResult
    public func perform(_ action: Action) -> ActionOutcome {
        switch action {
        case .setSourceText(let text): sourceText = text
        case .pressSlab: return pressSlab()
        case .translate: if slabAction == .translate { translate() }
        case .stop: stopTranslation()
        case .swap: swap()
        case .setOtherLanguage(let language):
            guard language != .tokiPona else { return .failed(reason: "Toki Pona is always on one of the plates.") }
            setDirection(direction.with(otherLanguage: language))
        case .setDirection(let direction): setDirection(direction)
        case .flipScript: flipScript()
        case .useSample(let phrase): sourceText = phrase
        case .copy:
            guard !targetText.isEmpty else { return .failed(reason: "There is no translation to copy.") }
            flash = .copied
            return .copy(text: targetText)
        case .share:
            guard !targetText.isEmpty else { return .failed(reason: "There is no translation to share.") }
            return .share(text: targetText)
        case .dismissNotice(let index):
            if notices.indices.contains(index) { notices.remove(at: index) }
        case .dismissFirstRunHint: preferences.change { $0.firstRunHintDone = true }
        case .useWordList(let path):
            do {
                wordList = try WordList(contentsOf: URL(fileURLWithPath: path))
            } catch {
                return .failed(reason: error.message)
            }
        case .lookUpWord(let word):
            guard let wordList else { return .failed(reason: "The dictionary of Toki Pona words is not here.") }
            guard let entry = wordList.entry(for: word) else {
                return .failed(reason: "“\(word)” is not in lipu Linku's dictionary of Toki Pona words.")
            }
            lookedUpWord = entry
        case .closeWord: lookedUpWord = nil

        case .toggleDownload:
            guard let download = activeDownload else { return .done }
            if case .running = download.phase {
                library.pauseDownload()
                return .done
            }
            return requestDownload(download.entry)
        case .download(let id):
            guard let entry = store.catalog.entry(id: id) else { return unknownModel(id) }
            return requestDownload(entry)
        case .acceptLicence: preferences.change { $0.acceptedModelLicence = true }
        case .acceptLicenceAndDownload(let id):
            guard let entry = store.catalog.entry(id: id) else { return unknownModel(id) }
            preferences.change { $0.acceptedModelLicence = true }
            return requestDownload(entry)
        case .pauseDownload: library.pauseDownload()
        case .cancelDownload: begin { await $0.cancelDownload() }

        case .use(let id):
            guard let choice = library.choice(id: id) else { return unknownModel(id) }
            begin { await $0.selectModel(choice) }
        case .useForSession(let id):
            guard let choice = library.choice(id: id) else { return unknownModel(id) }
            begin { await $0.load(choice) }
        case .delete(let id):
            guard let choice = library.choice(id: id) else { return unknownModel(id) }
            begin { await $0.deleteModel(choice) }
        case .retry: begin { await $0.retryLoading() }
        case .importModel(let request):
            importsUnderWay += 1
            importError = nil
            begin { model in
                defer { model.importsUnderWay -= 1 }
                let outcome = await model.importModel(request)
                if case .failed(let reason) = outcome { model.importError = reason }
                return outcome
            }
        case .setImportFormat(let format): importFormat = format
        case .useFileForSession(let path, let format):
            begin { await $0.useModelFile(URL(fileURLWithPath: path), format: format) }

        case .filterHistory(let onlyOlin): historyShowsOnlyOlin = onlyOlin
        case .setOlin(let id, let olin): preferences.changeHistory { $0.setOlin(olin, for: id) }
        case .removeHistoryEntry(let id): preferences.changeHistory { $0.remove(id) }
        case .reuse(let id):
            guard let entry = history.entries.first(where: { $0.id == id }) else {
                return .failed(reason: "That translation is no longer in the history.")
            }
            reuse(entry)
            return .showMain
        case .clearHistory: preferences.changeHistory { $0.clear() }
        case .refresh:
            preferences.refreshHistory()
            library.refresh()

        case .setKeepHistory(let on): preferences.change { $0.keepHistory = on }
        case .setTranslateAsYouType(let on): preferences.change { $0.translateAsYouType = on }
        case .setHaptics(let on): preferences.change { $0.haptics = on }
        case .setTranslateBySentence(let on): preferences.change { $0.translateBySentence = on }
        case .setTheme(let theme): preferences.change { $0.theme = theme }
        case .setSitelenPonaFont(let text):
            let family = text.trimmingCharacters(in: .whitespaces)
            preferences.change { $0.sitelenPonaFont = family.isEmpty || family == AppSettings.bundledSitelenPonaFont ? nil : family }

        case .wentToBackground: begin { await $0.flushWrites() }
        case .translateIncoming(let text):
            receive(text)
            return .showMain
        case .readyNoticeHandled: readyNoticeModel = nil
        }
        return .done
    }

    /// Performs `action` and waits for the work it started: for the command line, tests, and
    /// a front end that must hold something open meanwhile (a picked file's permission).
    /// - Returns: the work's outcome; a failure is returned, not noted.
    @discardableResult
    public func run(_ action: Action) async -> ActionOutcome {
        let before = nextWorkID
        let outcome = perform(action)
        guard outcome == .done, let task = work[before], nextWorkID == before + 1 else { return outcome }
        awaited.insert(before)
        return await task.value
    }

    /// Returns once every piece of work that `perform` started has ended, including work that
    /// work started (a delete loads the next model).
    public func settled() async {
        while let task = work.values.first { _ = await task.value }
    }

    /// Whether work that `perform` started is still going on.
    var isWorking: Bool { !work.isEmpty }

    /// The app is about to exit: waits here, on the calling thread, until every pending
    /// settings and history write is on disk. The desktop app calls it when its window
    /// closes, the Mac and phone apps when the system terminates them.
    public func willTerminate() {
        preferences.flushBeforeExit()
    }

    // MARK: - Work

    /// Starts long work for an action and remembers it until it ends.
    private func begin(_ body: @escaping @MainActor (TranslatorModel) async -> Void) {
        begin { model -> ActionOutcome in
            await body(model)
            return .done
        }
    }

    private func begin(_ body: @escaping @MainActor (TranslatorModel) async -> ActionOutcome) {
        let id = nextWorkID
        nextWorkID += 1
        work[id] = Task { [weak self] in
            guard let self else { return .done }
            let outcome = await body(self)
            self.work[id] = nil
            if self.awaited.remove(id) == nil, case .failed(let reason) = outcome { self.note(reason) }
            return outcome
        }
    }

    private func unknownModel(_ id: String) -> ActionOutcome {
        .failed(reason: StoreError.unknownModel(id).localizedDescription)
    }

    /// The slab, pressed: translate, stop, download, resume or retry, whatever it offers now.
    private func pressSlab() -> ActionOutcome {
        switch slabAction {
        case .translate, .stop: translate()
        case .download(let entry), .resumeDownload(let entry): return requestDownload(entry)
        case .retry: begin { await $0.retryLoading() }
        case .busy: break
        }
        return .done
    }
}
