import Foundation

// Every case of `Action` and `ActionOutcome` by name, with one example value each: what the
// Kotlin contract is generated from (`ilotoki-contract`) and what the tests round-trip. The two
// exhaustive switches keep the lists complete: a new case does not compile until it has a
// kind, and a new kind does not compile until it has an example.

extension Action {
    /// The name of a case, as its JSON key.
    public enum Kind: String, CaseIterable, Sendable {
        case setSourceText, pressSlab, translate, stop, swap, setOtherLanguage, setDirection, flipScript, useSample, copy, share,
            dismissNotice
        case dismissFirstRunHint, useWordList, lookUpWord, closeWord
        case toggleDownload, download, acceptLicence, acceptLicenceAndDownload, pauseDownload, cancelDownload
        case use, delete, retry, importModel, setImportFormat, useFileForSession, useForSession
        case filterHistory, setOlin, removeHistoryEntry, reuse, clearHistory, refresh
        case setKeepHistory, setTranslateAsYouType, setHaptics, setTranslateBySentence, setTheme, setSitelenPonaFont
        case wentToBackground
        case translateIncoming, readyNoticeHandled
    }

    public var kind: Kind {
        switch self {
        case .setSourceText: .setSourceText
        case .pressSlab: .pressSlab
        case .translate: .translate
        case .stop: .stop
        case .swap: .swap
        case .setOtherLanguage: .setOtherLanguage
        case .setDirection: .setDirection
        case .flipScript: .flipScript
        case .useSample: .useSample
        case .copy: .copy
        case .share: .share
        case .dismissNotice: .dismissNotice
        case .dismissFirstRunHint: .dismissFirstRunHint
        case .useWordList: .useWordList
        case .lookUpWord: .lookUpWord
        case .closeWord: .closeWord
        case .toggleDownload: .toggleDownload
        case .download: .download
        case .acceptLicence: .acceptLicence
        case .acceptLicenceAndDownload: .acceptLicenceAndDownload
        case .pauseDownload: .pauseDownload
        case .cancelDownload: .cancelDownload
        case .use: .use
        case .delete: .delete
        case .retry: .retry
        case .importModel: .importModel
        case .setImportFormat: .setImportFormat
        case .useFileForSession: .useFileForSession
        case .useForSession: .useForSession
        case .filterHistory: .filterHistory
        case .setOlin: .setOlin
        case .removeHistoryEntry: .removeHistoryEntry
        case .reuse: .reuse
        case .clearHistory: .clearHistory
        case .refresh: .refresh
        case .setKeepHistory: .setKeepHistory
        case .setTranslateAsYouType: .setTranslateAsYouType
        case .setHaptics: .setHaptics
        case .setTranslateBySentence: .setTranslateBySentence
        case .setTheme: .setTheme
        case .setSitelenPonaFont: .setSitelenPonaFont
        case .wentToBackground: .wentToBackground
        case .translateIncoming: .translateIncoming
        case .readyNoticeHandled: .readyNoticeHandled
        }
    }

    /// An example of each case, with every optional field filled.
    public static func example(of kind: Kind) -> Action {
        let id = UUID(uuidString: "00000000-0000-4000-8000-000000000001") ?? UUID()
        return switch kind {
        case .setSourceText: .setSourceText(text: "mi olin e sina")
        case .pressSlab: .pressSlab
        case .translate: .translate
        case .stop: .stop
        case .swap: .swap
        case .setOtherLanguage: .setOtherLanguage(language: .russian)
        case .setDirection: .setDirection(direction: .englishToTokiPona)
        case .flipScript: .flipScript
        case .useSample: .useSample(phrase: "toki!")
        case .copy: .copy
        case .share: .share
        case .dismissNotice: .dismissNotice(index: 0)
        case .dismissFirstRunHint: .dismissFirstRunHint
        case .useWordList: .useWordList(path: "/usr/share/ilotoki/linku-words.json")
        case .lookUpWord: .lookUpWord(word: "moku")
        case .closeWord: .closeWord
        case .toggleDownload: .toggleDownload
        case .download: .download(id: "milmmt-46-1b-v1-1-q8-0")
        case .acceptLicence: .acceptLicence
        case .acceptLicenceAndDownload: .acceptLicenceAndDownload(id: "milmmt-46-1b-v1-1-q8-0")
        case .pauseDownload: .pauseDownload
        case .cancelDownload: .cancelDownload
        case .use: .use(id: "milmmt-46-1b-v1-1-q8-0")
        case .delete: .delete(id: "milmmt-46-1b-v1-1-q8-0")
        case .retry: .retry
        case .importModel: .importModel(ModelImport(path: "/proc/self/fd/42", format: .sourceTarget, name: "mine", copiesIntoApp: true))
        case .setImportFormat: .setImportFormat(format: .queryAnswer)
        case .useFileForSession: .useFileForSession(path: "/models/mine.gguf", format: .queryAnswer)
        case .useForSession: .useForSession(id: "milmmt-46-1b-v1-1-q8-0")
        case .filterHistory: .filterHistory(onlyOlin: true)
        case .setOlin: .setOlin(id: id, olin: true)
        case .removeHistoryEntry: .removeHistoryEntry(id: id)
        case .reuse: .reuse(id: id)
        case .clearHistory: .clearHistory
        case .refresh: .refresh
        case .setKeepHistory: .setKeepHistory(on: false)
        case .setTranslateAsYouType: .setTranslateAsYouType(on: true)
        case .setHaptics: .setHaptics(on: false)
        case .setTranslateBySentence: .setTranslateBySentence(on: false)
        case .setTheme: .setTheme(theme: .dark)
        case .setSitelenPonaFont: .setSitelenPonaFont(family: "nasin-nanpa")
        case .wentToBackground: .wentToBackground
        case .translateIncoming: .translateIncoming(text: "I love you.")
        case .readyNoticeHandled: .readyNoticeHandled
        }
    }
}

extension ActionOutcome {
    public enum Kind: String, CaseIterable, Sendable {
        case done, showLicence, added, copy, share, failed, showMain
    }

    public var kind: Kind {
        switch self {
        case .done: .done
        case .showLicence: .showLicence
        case .added: .added
        case .copy: .copy
        case .share: .share
        case .failed: .failed
        case .showMain: .showMain
        }
    }

    /// An example of each case, with every optional field filled.
    public static func example(of kind: Kind) -> ActionOutcome {
        switch kind {
        case .done: return .done
        case .showLicence: return .showLicence(LicenceOffer(entry: ModelCatalog.standard.entries[0]))
        case .added:
            return .added(
                SideloadedModel(
                    id: "local-00000000-0000-4000-8000-000000000001", name: "mine", path: "/models/mine.gguf", format: .sourceTarget,
                    addedAt: Date(timeIntervalSince1970: 1_800_000_000)))
        case .copy: return .copy(text: "I love you.")
        case .share: return .share(text: "I love you.")
        case .failed: return .failed(reason: "The file is not a model.")
        case .showMain: return .showMain
        }
    }
}

extension TranslatorModel.SlabAction {
    public enum Kind: String, CaseIterable, Sendable {
        case translate, stop, download, resumeDownload, busy, retry
    }

    public var kind: Kind {
        switch self {
        case .translate: .translate
        case .stop: .stop
        case .download: .download
        case .resumeDownload: .resumeDownload
        case .busy: .busy
        case .retry: .retry
        }
    }

    /// An example of each case.
    public static func example(of kind: Kind) -> Self {
        let entry = ModelCatalog.standard.entries[0]
        return switch kind {
        case .translate: .translate
        case .stop: .stop
        case .download: .download(entry)
        case .resumeDownload: .resumeDownload(entry)
        case .busy: .busy
        case .retry: .retry
        }
    }
}
