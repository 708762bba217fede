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
        modelState = idleStateWithoutModel()
    }

    /// The model launching would load: the chosen one if it is here, else any that is.
    public var usableModel: ModelChoice? { library.usableModel(chosen: settings.selectedModelID) }

    /// Loads the model launching would load; with none on the device, says so.
    public func loadUsableModel() async {
        if let usable = usableModel {
            await load(usable)
        } else {
            modelState = idleStateWithoutModel()
        }
    }

    /// Loads a particular model for this session, without changing the chosen one (the
    /// command line's `--model ID`).
    public func use(_ choice: ModelChoice) async {
        await load(choice)
    }

    /// Uses a model file from outside the store for this session (the command line's `--model`).
    public func useModelFile(_ url: URL, format: PromptFormat) async {
        let model = SideloadedModel(
            id: SideloadedModel.sessionFileID, name: url.deletingPathExtension().lastPathComponent, path: url.path,
            format: format, addedAt: Date())
        selectedModel = .sideloaded(model)
        await load(.sideloaded(model))
    }

    // MARK: - Models

    /// Chooses the model to translate with. An installed model is loaded (the one in use is
    /// unloaded first); one that is not keeps the current model translating until it is downloaded.
    public func selectModel(id: String) async {
        guard let choice = library.choice(id: id) else {
            note(StoreError.unknownModel(id).localizedDescription)
            return
        }
        selectedModel = choice
        preferences.change { $0.selectedModelID = id }
        if library.isAvailable(choice) {
            await load(choice)
        } else if engine == nil {
            modelState = idleStateWithoutModel()
        }
    }

    /// Deletes a catalog model's file (and any partial download), or forgets a sideloaded one.
    /// A download of it in this process is stopped first, and waited for; one in another
    /// process makes the delete refuse, with a notice.
    public func deleteModel(id: String) async {
        guard let choice = library.choice(id: id) else { return }
        if loadedModel?.id == id { unload() }
        do {
            try await library.delete(choice)
        } catch {
            note(error.localizedDescription)
        }
        if engine == nil {
            if let other = library.statuses.first(where: { $0.state == .installed }) {
                await load(.catalog(other.entry))
            } else {
                modelState = idleStateWithoutModel()
            }
        }
    }

    /// Adds a model file from elsewhere on the device, once it has proved it can translate:
    /// a file of an architecture this build cannot run, or without a readable vocabulary, is
    /// refused (it would otherwise become the model every later translation fails with).
    /// - Throws: `StoreError.notAModelFile`, or the engine's error naming what is wrong.
    @discardableResult
    public func addSideloadedModel(path: String, name: String?, format: PromptFormat) async throws -> SideloadedModel {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.notAModelFile(path, reason: "there is no such file")
        }
        try await engineLoader.check(path: path)
        return try library.add(path: path, name: name, format: format)
    }

    /// Loads the selected model again after a failure.
    public func retryLoading() async {
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
            modelState = .failed(
                "\(choice.displayName) needs about \(ByteSize.text(bytes + DeviceMemory.overhead)) of memory, and only "
                    + "\(ByteSize.text(available)) is free. Close other apps and try again.")
            return
        }
        modelState = .loading
        do {
            let loaded = try await engineLoader.load(path: url.path)
            guard id == loadID else { return }  // another load started meanwhile
            engine = loaded
            loadedModel = choice
            modelState = .ready
        } catch {
            guard id == loadID else { return }
            modelState = .failed(error.localizedDescription)
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
    }

    func idleStateWithoutModel() -> ModelState {
        guard let entry = modelToDownload else { return .notDownloaded }
        if case .partial(let bytes) = library.state(of: entry) {
            return .paused(DownloadProgress(bytes: bytes, total: entry.bytes, bytesPerSecond: 0))
        }
        return .notDownloaded
    }

    // MARK: - Downloads

    /// Records that the user has seen and accepted the model licence.
    public func acceptModelLicence() {
        preferences.change { $0.acceptedModelLicence = true }
    }

    /// Starts (or resumes) downloading the model the slab offers.
    /// - Returns: `false` when the licence must be accepted first (nothing is downloaded).
    @discardableResult
    public func startDownload() -> Bool {
        guard let entry = modelToDownload else { return false }
        return startDownload(entry)
    }

    /// Starts (or resumes) downloading a catalog model.
    /// - Returns: `false` when the licence must be accepted first (nothing is downloaded).
    @discardableResult
    public func startDownload(_ entry: CatalogEntry) -> Bool {
        downloadEvents(entry) != nil
    }

    /// Starts (or resumes) downloading a catalog model, and returns its events for a front end
    /// that shows more than the library does (the command line's progress bar).
    /// - Returns: `nil` when the licence must be accepted first (nothing is downloaded).
    public func downloadEvents(_ entry: CatalogEntry) -> AsyncThrowingStream<DownloadEvent, Error>? {
        guard settings.acceptedModelLicence else { return nil }
        let events = library.startDownload(entry)
        if engine == nil, case .running(let progress)? = library.activeDownload?.phase { modelState = .downloading(progress) }
        return events
    }

    /// Pauses the running download; the `.part` file is kept.
    public func pauseDownload() {
        library.pauseDownload()
    }

    /// Stops the download and deletes what was downloaded.
    public func cancelDownload() async {
        guard let entry = activeDownload?.entry else { return }
        do {
            try await library.delete(.catalog(entry))
        } catch {
            note(error.localizedDescription)
        }
        if engine == nil { modelState = idleStateWithoutModel() }
    }

    /// What the app model does as the library's download goes on.
    func follow(_ event: DownloadEvent, for entry: CatalogEntry) async {
        switch event {
        case .started(let offset, let total):
            if engine == nil { modelState = .downloading(DownloadProgress(bytes: offset, total: total, bytesPerSecond: 0)) }
        case .progress(let progress):
            if engine == nil { modelState = .downloading(progress) }
        case .stalled:
            break
        case .verifying:
            if engine == nil { modelState = .verifying }
        case .paused(let progress):
            if engine == nil { modelState = .paused(progress) }
        case .installed:
            // The new model is used if it is the chosen one, or if there was none to translate with.
            if selectedModel?.id == entry.id || engine == nil {
                selectedModel = .catalog(entry)
                preferences.change { $0.selectedModelID = entry.id }
                await load(.catalog(entry))
            }
        }
    }
}
