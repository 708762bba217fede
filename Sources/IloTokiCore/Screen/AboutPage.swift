/// The About page as plain values: what ilo toki is, the licences of everything in it, and
/// what runs the models.
public struct AboutPage: Equatable, Sendable, Encodable {
    public var text: String
    public var licencesTitle: String
    public var licences: [String]
    /// "ilo toki 0.1.0 · llama.cpp b1234"
    public var versionLine: String
}

extension AboutPage {
    /// The app's version, for the About page and `ilotoki --version`.
    public static let version = "0.1.0"

    @MainActor
    public init(model: TranslatorModel, strings: UIStrings) {
        let models = ModelCatalog.modelLicence
        self.init(
            text: strings[.aboutText], licencesTitle: strings[.licences],
            licences: [
                strings[.licenceApp], strings[.licenceLlama],
                strings(.licenceModels, "\(models.name) (\(models.url.absoluteString))"),
                strings[.licenceUIFont], strings[.licenceSitelenFont], strings[.licenceWords],
            ],
            versionLine: "ilo toki \(Self.version) · \(model.engineDescription)")
    }
}
