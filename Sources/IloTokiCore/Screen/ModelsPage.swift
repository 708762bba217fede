/// The model list as plain values: a row per catalog model and per added file, each with the
/// actions it offers now. Drawn from the library's cached state: no disk is read to draw it.
public struct ModelsPage: Equatable, Sendable, Encodable {
    /// What a row offers.
    public enum Action: Equatable, Sendable, Encodable {
        /// The model translates now: a label, not a button.
        case inUse
        /// Translate with it (`TranslatorModel.selectModel(id:)`).
        case use(id: String)
        /// Pause its download (`TranslatorModel.pauseDownload()`).
        case pause
        /// Download it (`TranslatorModel.requestDownload(_:)`).
        case download(CatalogEntry)
        /// Delete its files, or forget an added file (`TranslatorModel.deleteModel(id:)`).
        case delete(id: String)
    }

    public struct Button: Equatable, Sendable, Encodable {
        public var title: String
        public var action: Action
    }

    public struct Row: Equatable, Sendable, Identifiable, Encodable {
        public var id: String
        public var name: String
        /// Size, quantization, state; or the file's path and format.
        public var facts: String
        public var isDeprecated: Bool
        public var buttons: [Button]
    }

    public var rows: [Row]
    /// The formats a file can be added with, and their names.
    public var formats: [(format: PromptFormat, title: String)]
    public var formatTitle: String
    public var addTitle: String

    public static func == (lhs: ModelsPage, rhs: ModelsPage) -> Bool {
        lhs.rows == rhs.rows && lhs.formats.map(\.format) == rhs.formats.map(\.format) && lhs.addTitle == rhs.addTitle
    }

    private enum CodingKeys: String, CodingKey { case rows, formats, formatTitle, addTitle }
    private struct Format: Encodable { var format: PromptFormat, title: String }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rows, forKey: .rows)
        try container.encode(formats.map { Format(format: $0.format, title: $0.title) }, forKey: .formats)
        try container.encode(formatTitle, forKey: .formatTitle)
        try container.encode(addTitle, forKey: .addTitle)
    }
}

extension ModelsPage {
    @MainActor
    public init(model: TranslatorModel, strings: UIStrings) {
        let format = Formatting(strings)
        let library = model.library
        let loaded = model.loadedModel?.id
        var rows: [Row] = []
        for status in library.statuses {
            let entry = status.entry
            var facts = "\(format.size(entry.bytes)) · \(entry.quantization) · "
            switch status.state {
            case .installed: facts += strings[.modelInstalled]
            case .partial(let bytes): facts += strings(.modelPartial, format.percent(Double(bytes) / Double(entry.bytes)))
            case .notInstalled, .damaged: facts += strings[.modelNotInstalled]
            }
            if entry.deprecated { facts += " · " + strings[.modelDeprecated] }
            var buttons: [Button] = []
            if loaded == entry.id {
                buttons.append(Button(title: strings[.inUse], action: .inUse))
            } else if status.state == .installed {
                buttons.append(Button(title: strings[.use], action: .use(id: entry.id)))
            } else if library.activeDownload?.entry.id == entry.id, case .running? = library.activeDownload?.phase {
                buttons.append(Button(title: strings[.pauseDownload], action: .pause))
            } else {
                buttons.append(Button(title: strings[.download], action: .download(entry)))
            }
            if status.bytesOnDisk > 0 { buttons.append(Button(title: strings[.delete], action: .delete(id: entry.id))) }
            rows.append(Row(id: entry.id, name: entry.displayName, facts: facts, isDeprecated: entry.deprecated, buttons: buttons))
        }
        for added in library.sideloaded {
            let facts = "\(added.path) · \(added.format.displayName)" + (added.isMissing ? " · " + strings[.modelMissingFile] : "")
            var buttons: [Button] = []
            if loaded == added.id {
                buttons.append(Button(title: strings[.inUse], action: .inUse))
            } else if !added.isMissing {
                buttons.append(Button(title: strings[.use], action: .use(id: added.id)))
            }
            buttons.append(Button(title: strings[.delete], action: .delete(id: added.id)))
            rows.append(Row(id: added.id, name: added.name, facts: facts, isDeprecated: false, buttons: buttons))
        }
        self.init(
            rows: rows, formats: PromptFormat.allCases.map { ($0, $0.displayName) }, formatTitle: strings[.promptFormat],
            addTitle: strings[.addModel])
    }
}

extension TranslatorModel {
    /// Does what a model row's button offers.
    /// - Returns: `.showLicence` when a download needs the licence accepted first.
    @discardableResult
    public func perform(_ action: ModelsPage.Action) -> ActionOutcome {
        switch action {
        case .inUse: break
        case .use(let id): Task { await selectModel(id: id) }
        case .pause: pauseDownload()
        case .download(let entry): return requestDownload(entry)
        case .delete(let id): Task { await deleteModel(id: id) }
        }
        return .done
    }
}
