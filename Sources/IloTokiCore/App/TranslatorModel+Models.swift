import Foundation

/// The model the app translates with: launching, loading, choosing, adding and deleting
/// models, and downloads (through the library).
extension TranslatorModel {
    // MARK: - Launch

    /// Starts the app: sweeps model files nothing claims, reads settings and history, and
    /// loads the chosen model if it is on the device (otherwise the one that is). Nothing is
    /// downloaded.
    /// - Parameter keeping: files the sweep must leave alone (a `--model` file).
    public func launch(keeping: [URL] = []) async {
        prepare(keeping: keeping)
        await loadUsableModel()
    }

    /// The part of launching that every front end shares, without loading a model (the
    /// command line's `models` and `history` need no model): the orphan sweep, settings, history.
    public func prepare(keeping: [URL] = []) {
        if let homeProblem = store.homeProblem {
            note(homeProblem.localizedDescription + " Nothing is kept: no history, no settings.")
        }
        store.sweepOrphans(keeping: keeping)
        library.refresh()
        preferences.load()
        direction = settings.lastDirection
        selectedModel = settings.selectedModelID.flatMap(library.choice(id:)) ?? store.catalog.defaultEntry.map(ModelChoice.catalog)
        fallBackIfTheChoiceIsGone()
    }

    /// When the chosen model is no longer on the device (deleted, its file gone) and is not on
    /// its way (no download, nothing partial), the newest model that is here becomes the choice.
    /// With nothing here, the choice stays: it is what the slab offers to download.
    func fallBackIfTheChoiceIsGone() {
        guard let chosen = selectedModel, !library.isAvailable(chosen) else { return }
        if case .catalog(let entry) = chosen {
            if library.activeDownload?.entry.id == entry.id { return }
            if case .partial = library.state(of: entry) { return }
        }
        guard let newest = library.newestOnDevice else { return }
        selectedModel = newest
        if store.homeProblem == nil, settings.selectedModelID != nil { preferences.change { $0.selectedModelID = newest.id } }
    }

    /// The chosen model while another one answers in its place: it is downloading, paused, or
    /// not downloaded, and the model that is loaded translates until it is here.
    public var awaitedModel: ModelChoice? {
        guard let chosen = selectedModel, let loaded = loadedModel, chosen.id != loaded.id, !library.isAvailable(chosen) else { return nil }
        return chosen
    }

    /// The model launching would load: the chosen one if it is here, else any that is.
    public var usableModel: ModelChoice? { library.usableModel(chosen: settings.selectedModelID) }

    /// The part of launching that loads the model launching would load, if one is on the
    /// device (the command line prepares first, and loads only to translate).
    public func loadUsableModel() async {
        if let usable = usableModel { await load(usable) }
    }

    /// Uses a model file from outside the store for this session (the command line's `--model`).
    func useModelFile(_ url: URL, format: PromptFormat) async {
        let model = SideloadedModel(
            id: SideloadedModel.sessionFileID, name: url.deletingPathExtension().lastPathComponent, path: url.path,
            format: format, addedAt: Date())
        selectedModel = .sideloaded(model)
        await load(.sideloaded(model))
    }

    // MARK: - Models

    /// Chooses the model to translate with. An installed model is loaded (the one in use is
    /// unloaded first); one that is not keeps the current model translating until it is downloaded.
    func selectModel(_ choice: ModelChoice) async {
        selectedModel = choice
        preferences.change { $0.selectedModelID = choice.id }
        if library.isAvailable(choice) { await load(choice) }
    }

    /// Deletes a catalog model's file (and any partial download), or forgets a sideloaded one.
    /// A download of it in this process is stopped first, and waited for; one in another
    /// process makes the delete refuse, with a notice.
    /// - Returns: `.failed` when the files could not go.
    func deleteModel(_ choice: ModelChoice) async -> ActionOutcome {
        if loadedModel?.id == choice.id { unload() }
        var outcome = ActionOutcome.done
        do {
            try await library.delete(choice)
        } catch {
            outcome = .failed(reason: error.localizedDescription)
        }
        // What failed to load may be what went; the state then says what is on disk.
        if case .failed = loadPhase { loadPhase = .idle }
        fallBackIfTheChoiceIsGone()
        if engine == nil, let usable = usableModel { await load(usable) }
        return outcome
    }

    /// Adds a model file from elsewhere on the device, once it has proved it can translate:
    /// a file of an architecture this build cannot run, or without a readable vocabulary, is
    /// refused (it would otherwise become the model every later translation fails with).
    /// - Returns: `.added`, or `.failed` naming the file and what is wrong with it.
    func importModel(_ request: ModelImport) async -> ActionOutcome {
        let loader = engineLoader
        do {
            return .added(try await library.importModel(request) { try await loader.check(path: $0) })
        } catch {
            return .failed(reason: error.localizedDescription)
        }
    }

    /// Loads the selected model again after a failure.
    func retryLoading() async {
        guard let choice = selectedModel ?? loadedModel else { return }
        if library.isAvailable(choice) { await load(choice) }
    }

    func load(_ choice: ModelChoice) async {
        loadID += 1
        let id = loadID
        loadsInFlight += 1
        defer {
            loadsInFlight -= 1
            if loadsInFlight == 0 {
                for waiter in loadWaiters { waiter.resume() }
                loadWaiters.removeAll()
            }
        }
        unload()
        let url = store.fileURL(for: choice)
        if let bytes = store.bytes(of: choice), let available = availableMemory(), bytes + DeviceMemory.overhead > available {
            loadPhase = .failed(
                "\(choice.displayName) needs about \(ByteSize.text(bytes + DeviceMemory.overhead)) of memory, and only "
                    + "\(ByteSize.text(available)) is free. Close other apps and try again.")
            return
        }
        loadPhase = .loading
        do {
            let loaded = try await engineLoader.load(path: url.path)
            guard id == loadID else { return }  // another load started meanwhile
            engine = loaded
            loadedModel = choice
            loadPhase = .loaded
            modelBecameReady()
        } catch {
            guard id == loadID else { return }
            loadPhase = .failed(error.localizedDescription)
        }
    }

    /// Ends this model's work for good: the translation and translating as you type stop, a
    /// download pauses (its `.part` is kept), a load under way is waited for and dropped, the
    /// engine is stopped and waited for, and every pending settings and history write reaches
    /// the disk. For a front end whose session ends (the Android bridge's `close`) or whose
    /// process is about to exit.
    public func close() async {
        loadID += 1  // a load under way is dropped when it lands
        cancelTranslation()
        await library.stopDownload()
        if loadsInFlight > 0 {
            await withCheckedContinuation { loadWaiters.append($0) }
        }
        let engine = engine
        unload()
        await engine?.stopAndWait()
        await flushWrites()
    }

    /// Lets go of the engine: a running translation is cancelled, and the model's memory is
    /// released once its generation has stopped.
    func unload() {
        cancelTranslation()
        engine = nil
        loadedModel = nil
        if loadPhase == .loaded { loadPhase = .idle }
    }

    // MARK: - Downloads

    /// Downloads a catalog model, once its licence has been accepted: every way of starting
    /// a download (the slab, the header's control, a model row) comes here.
    func requestDownload(_ entry: CatalogEntry) -> ActionOutcome {
        guard !needsLicenceAcceptance else { return .showLicence(LicenceOffer(entry: entry)) }
        _ = downloadEvents(entry)
        return .done
    }

    /// The model being downloaded becomes the choice: the loaded one stands in until it is here.
    private func choose(_ entry: CatalogEntry) {
        guard selectedModel?.id != entry.id else { return }
        selectedModel = .catalog(entry)
        preferences.change { $0.selectedModelID = entry.id }
    }

    /// Starts (or resumes) downloading a catalog model, as `.download(id:)` does, and returns
    /// its events for a front end that shows more than the library does (the command line's
    /// progress bar).
    /// - Returns: `nil` when the licence must be accepted first (nothing is downloaded).
    public func downloadEvents(_ entry: CatalogEntry) -> AsyncThrowingStream<DownloadEvent, Error>? {
        guard settings.acceptedModelLicence else { return nil }
        // The first-run hint pointed here: once a download has begun it has done its work.
        if !settings.firstRunHintDone { preferences.change { $0.firstRunHintDone = true } }
        choose(entry)
        return library.startDownload(entry)
    }

    /// Stops the download and deletes what was downloaded.
    func cancelDownload() async -> ActionOutcome {
        guard let entry = activeDownload?.entry else { return .done }
        do {
            try await library.delete(.catalog(entry))
            fallBackIfTheChoiceIsGone()
            return .done
        } catch {
            return .failed(reason: error.localizedDescription)
        }
    }

    /// What the app model does as the library's download goes on.
    func follow(_ event: DownloadEvent, for entry: CatalogEntry) async {
        switch event {
        case .started, .progress, .stalled, .verifying, .paused:
            break  // the library's `activeDownload` shows it (`modelState` derives from it)
        case .installed:
            // The new model is used if it is the chosen one, or if there was none to translate with.
            if selectedModel?.id == entry.id || engine == nil {
                selectedModel = .catalog(entry)
                preferences.change { $0.selectedModelID = entry.id }
                await load(.catalog(entry))
                // Fetched and loaded: the front end may tell the system (when the app is not in front).
                if loadedModel?.id == entry.id { readyNoticeModel = .catalog(entry) }
            }
        }
    }
}
