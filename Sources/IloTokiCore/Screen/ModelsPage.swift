/// The model list as plain values: a row per catalog model and per added file, each with the
/// actions it offers now. Drawn from the library's cached state: no disk is read to draw it.
public struct ModelsPage: Equatable, Sendable, Encodable {
    /// What a row offers: a button that performs its action, or (the model in use) a label.
    public struct Button: Equatable, Sendable, Encodable {
        public var title: String
        /// What pressing it performs; `nil` for a label ("In use").
        public var action: Action?
        /// What a screen reader says: the title and the model it acts on.
        public var accessibleName: String
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
    /// The space the models take and the space free on the device, in one line.
    public var storage: String
    /// The formats a file can be added with, and their names.
    public var formats: [(format: PromptFormat, title: String)]
    /// The format the next file is added with (choosing one performs `.setImportFormat`).
    public var chosenFormat: PromptFormat
    public var formatTitle: String
    public var addTitle: String
    /// A model file is being copied and checked: the add button waits.
    public var isImporting: Bool
    /// Why the last file added was refused, said beside the form.
    public var importError: String?

    public static func == (lhs: ModelsPage, rhs: ModelsPage) -> Bool {
        lhs.rows == rhs.rows && lhs.storage == rhs.storage && lhs.formats.map(\.format) == rhs.formats.map(\.format)
            && lhs.addTitle == rhs.addTitle
            && lhs.isImporting == rhs.isImporting && lhs.chosenFormat == rhs.chosenFormat && lhs.importError == rhs.importError
    }

    private enum CodingKeys: String, CodingKey {
        case rows, storage, formats, chosenFormat, formatTitle, addTitle, isImporting, importError
    }
    private struct Format: Encodable { var format: PromptFormat, title: String }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rows, forKey: .rows)
        try container.encode(storage, forKey: .storage)
        try container.encode(formats.map { Format(format: $0.format, title: $0.title) }, forKey: .formats)
        try container.encode(chosenFormat, forKey: .chosenFormat)
        try container.encode(formatTitle, forKey: .formatTitle)
        try container.encode(addTitle, forKey: .addTitle)
        try container.encode(isImporting, forKey: .isImporting)
        try container.encodeIfPresent(importError, forKey: .importError)
    }
}

extension ModelsPage {
    @MainActor
    public init(model: TranslatorModel, strings: UIStrings) {
        let format = Formatting(strings)
        let library = model.library
        let loaded = model.loadedModel?.id
        /// A button for a model's row; a screen reader hears which model it acts on.
        func button(_ title: UIText, _ action: Action?, for name: String) -> Button {
            Button(title: strings[title], action: action, accessibleName: "\(strings[title]), \(name)")
        }
        /// Delete, with what it frees where it frees anything ("Delete · 1.4 GB").
        func deleteButton(id: String, for name: String) -> Button {
            let freed = library.bytesFreed(byDeleting: id)
            let title = freed > 0 ? "\(strings[.delete]) · \(format.size(freed))" : strings[.delete]
            return Button(title: title, action: .delete(id: id), accessibleName: "\(title), \(name)")
        }
        var rows: [Row] = []
        for status in library.statuses {
            let entry = status.entry
            // The download under way knows more than the disk did when it was last read.
            let live = library.activeDownload.flatMap { $0.entry.id == entry.id ? $0 : nil }
            var facts = "\(format.size(of: entry, exact: status.expectedBytes ?? live?.total)) · \(entry.quantization) · "
            switch status.state {
            case .installed: facts += strings[.modelInstalled]
            case .partial: facts += strings(.modelPartial, format.percent(live?.fraction ?? status.fractionDownloaded))
            case .notInstalled, .damaged: facts += strings[.modelNotInstalled]
            }
            if entry.deprecated { facts += " · " + strings[.modelDeprecated] }
            var buttons: [Button] = []
            if loaded == entry.id {
                buttons.append(button(.inUse, nil, for: entry.displayName))
            } else if status.state == .installed {
                buttons.append(button(.use, .use(id: entry.id), for: entry.displayName))
            } else if library.activeDownload?.entry.id == entry.id, case .running? = library.activeDownload?.phase {
                buttons.append(button(.pauseDownload, .pauseDownload, for: entry.displayName))
            } else {
                buttons.append(button(.download, .download(id: entry.id), for: entry.displayName))
            }
            if status.bytesOnDisk > 0 { buttons.append(deleteButton(id: entry.id, for: entry.displayName)) }
            rows.append(Row(id: entry.id, name: entry.displayName, facts: facts, isDeprecated: entry.deprecated, buttons: buttons))
        }
        for added in library.sideloaded {
            let facts = "\(added.path) · \(added.format.displayName)" + (added.isMissing ? " · " + strings[.modelMissingFile] : "")
            var buttons: [Button] = []
            if loaded == added.id {
                buttons.append(button(.inUse, nil, for: added.name))
            } else if !added.isMissing {
                buttons.append(button(.use, .use(id: added.id), for: added.name))
            }
            buttons.append(deleteButton(id: added.id, for: added.name))
            rows.append(Row(id: added.id, name: added.name, facts: facts, isDeprecated: false, buttons: buttons))
        }
        var storage = strings(.modelsTake, format.size(library.modelBytes))
        if let free = library.freeBytes { storage += " · " + strings(.freeOnDevice, format.size(free)) }
        self.init(
            rows: rows, storage: storage, formats: PromptFormat.allCases.map { ($0, $0.displayName) }, chosenFormat: model.importFormat,
            formatTitle: strings[.promptFormat], addTitle: strings[.addModel], isImporting: model.importsUnderWay > 0,
            importError: model.importError)
    }
}
