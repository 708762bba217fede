/// Every string the apps show, keyed. One table per language; front ends never write UI text
/// themselves, so a fifth language is one more table.
public enum UIText: String, CaseIterable, Sendable {
    case appName
    case translate, stop, retry, wait
    case downloadModel  // %@ = size
    case downloadModelUnsized  // a model whose size is not known before its download starts
    case resumeDownload  // %@ = per cent
    case pauseDownload, cancelDownload
    case modelNotDownloaded, modelLoading, downloading, verifying, downloadPaused  // downloading, paused: %@ = per cent
    case modelFailed  // %@ = reason
    case translationFailed  // %@ = reason
    case translationProgress  // %@ = "12 / 40": sentences translated of a long text's, while it translates
    case sourcePlaceholder, samplesTitle, emptyTranslation
    case swap, copy, copied, share
    case translateWith, replaceText  // from other apps: the entry in their menus; the translation back in place of their text
    case scriptLatin, scriptSitelenPona, sitelenFontMissing  // %@ = font family
    case sourceTextLabel, translationLabel, sourceLanguageLabel, targetLanguageLabel, scriptLabel  // what screen readers say
    case history, settings, models, about, back
    case today, yesterday  // the history's days
    case olin, unOlin, clearHistory, noHistory, historyOff
    case haptics
    case keepHistory, translateAsYouType, translateBySentence, theme, themeLight, themeDark, themeSystem, sitelenFont
    case modelInstalled, modelPartial, modelNotInstalled, modelDeprecated, newerModelAvailable, modelMissingFile  // partial: %@ = per cent
    case inUse, use, download, delete, addModel, promptFormat, modelName
    case modelsTake, freeOnDevice  // %@ = a size: what the models take, what is free on the device
    case licenceTitle, licenceAccept, cancel
    case aboutText, licences
    case licenceApp, licenceLlama, licenceUIFont, licenceSitelenFont, licenceWords
    case seeAlso, wordCredit, closeWord  // a Toki Pona word's dictionary entry
    case firstRunHint, firstRunHintDismiss  // hint: %@ = the host the translator comes from
    case standingIn  // %@ = the chosen model, not here yet: the loaded one answers until it is
    case readyTitle, readyBody  // the notification once a downloaded model has loaded; body: %@ = the model
    case usageCore, usageCommon, usageUncommon, usageObscure, usageSandbox
    case licenceModels  // %@ = the models' licence and where to read it
    case sitelenFontChosenMissing  // %@ = font family
}

/// A language the apps' interface is written in: apart from the languages ilo toki translates
/// (`Language`), so that a new translation language needs no interface of its own, and an
/// interface language needs no model.
public enum InterfaceLanguage: String, CaseIterable, Codable, Sendable, Hashable {
    case tokiPona = "tok"
    case english = "en"
    case russian = "ru"
    case vietnamese = "vi"

    /// The interface language with this code (`tok`, `en`, `ru`, `vi`), case-insensitively.
    public init?(code: String) {
        self.init(rawValue: code.lowercased())
    }
}

/// The UI strings in one language.
public struct UIStrings: Sendable {
    public let language: InterfaceLanguage

    public init(language: InterfaceLanguage) {
        self.language = language
    }

    /// The language of the system locale (`LC_ALL`, `LC_MESSAGES`, `LANG`), English otherwise.
    public static func forLocale(environment: [String: String]) -> UIStrings {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].compactMap { environment[$0] }.first { !$0.isEmpty } ?? "en"
        let code = locale.prefix { $0.isLetter }.lowercased()
        return UIStrings(language: InterfaceLanguage(code: code) ?? .english)
    }

    public subscript(_ key: UIText) -> String {
        UIStrings.tables[language]?[key] ?? UIStrings.tables[.english]?[key] ?? key.rawValue
    }

    /// The string with `%@` replaced by `argument`.
    public func callAsFunction(_ key: UIText, _ argument: String) -> String {
        self[key].replacingOccurrences(of: "%@", with: argument)
    }

    public static let tables: [InterfaceLanguage: [UIText: String]] = [
        .english: english, .russian: russian, .vietnamese: vietnamese, .tokiPona: tokiPona,
    ]

    static let english: [UIText: String] = [
        .appName: "ilo toki",
        .translate: "Translate", .stop: "Stop", .retry: "Try again", .wait: "One moment…",
        .downloadModel: "Download the model · %@", .downloadModelUnsized: "Download the model", .resumeDownload: "Resume the download · %@",
        .pauseDownload: "Pause", .cancelDownload: "Cancel the download",
        .modelNotDownloaded: "The model is not downloaded yet. It stays on this device; nothing you type ever leaves it.",
        .modelLoading: "Loading the model…", .downloading: "Downloading the model… %@",
        .verifying: "Checking the download…", .downloadPaused: "Download paused at %@",
        .modelFailed: "The model cannot be used: %@", .translationFailed: "Could not translate: %@",
        .translationProgress: "Sentences translated: %@",
        .sourcePlaceholder: "Type or paste text", .samplesTitle: "Try one of these", .emptyTranslation: "(no translation)",
        .swap: "Swap the languages", .copy: "Copy the translation", .copied: "Copied", .share: "Share the translation",
        .translateWith: "Translate with ilo toki", .replaceText: "Replace the selected text",
        .scriptLatin: "Latin", .scriptSitelenPona: "sitelen pona",
        .sourceTextLabel: "Text to translate", .translationLabel: "Translation", .sourceLanguageLabel: "Language of the text",
        .targetLanguageLabel: "Language of the translation", .scriptLabel: "Script of the Toki Pona text",
        .sitelenFontMissing: "To see sitelen pona, install a sitelen pona font such as %@ (github.com/ETBCOR/nasin-nanpa).",
        .history: "History", .settings: "Settings", .models: "Models", .about: "About", .back: "Back",
        .today: "Today", .yesterday: "Yesterday",
        .olin: "Mark as favourite", .unOlin: "Unmark favourite", .clearHistory: "Clear history (favourites stay)",
        .noHistory: "No translations yet.", .historyOff: "History is switched off in the settings.",
        .keepHistory: "Keep history", .translateAsYouType: "Translate as you type", .translateBySentence: "Sentence by sentence",
        .theme: "Theme",
        .haptics: "Vibrate on touch and as words arrive",
        .themeLight: "Bone", .themeDark: "Ink", .themeSystem: "As the system", .sitelenFont: "sitelen pona font",
        .modelInstalled: "Installed", .modelPartial: "%@ downloaded", .modelNotInstalled: "Not downloaded",
        .modelDeprecated: "Older model", .newerModelAvailable: "A newer model is available",
        .modelMissingFile: "The file is missing",
        .inUse: "In use", .use: "Use", .download: "Download", .delete: "Delete", .addModel: "Add a model file…",
        .modelsTake: "Models take %@", .freeOnDevice: "%@ free on this device",
        .promptFormat: "Prompt format", .modelName: "Name",
        .licenceTitle: "The model licence", .licenceAccept: "Accept and download", .cancel: "Cancel",
        .aboutText:
            "ilo toki translates between Toki Pona and English, Russian and Vietnamese on this device. After the model is downloaded no network is used, and nothing you type ever leaves the device.",
        .licences: "Licences",
        .licenceApp: "ilo toki — MIT License",
        .licenceLlama: "llama.cpp, which runs the models — MIT License (github.com/ggml-org/llama.cpp)",
        .licenceModels: "The translation models — %@",
        .licenceUIFont: "Space Grotesk, the app's letters — SIL Open Font License 1.1",
        .licenceSitelenFont: "sitelen seli kiwen asuki by Kreative Korp, the sitelen pona font — SIL Open Font License 1.1",
        .licenceWords: "lipu Linku's dictionary of Toki Pona words (definitions in English) — CC BY-SA 4.0",
        .firstRunHint: "The translator comes from %@, once: press the button below.",
        .standingIn: "Answering until %@ is here",
        .readyTitle: "The translator is ready",
        .readyBody: "%@ is downloaded and loaded. It translates on this device, offline.",
        .firstRunHintDismiss: "Got it",
        .seeAlso: "See also", .wordCredit: "From lipu Linku (CC BY-SA 4.0). Definitions are in English.", .closeWord: "Close",
        .usageCore: "core word", .usageCommon: "common word", .usageUncommon: "uncommon word", .usageObscure: "obscure word",
        .usageSandbox: "new word",
        .sitelenFontChosenMissing: "%@ is not installed here, so the font that comes with ilo toki draws sitelen pona.",
    ]

    static let russian: [UIText: String] = [
        .appName: "ilo toki",
        .translate: "Перевести", .stop: "Стоп", .retry: "Ещё раз", .wait: "Секунду…",
        .downloadModel: "Скачать модель · %@", .downloadModelUnsized: "Скачать модель", .resumeDownload: "Продолжить загрузку · %@",
        .pauseDownload: "Пауза", .cancelDownload: "Отменить загрузку",
        .modelNotDownloaded: "Модель ещё не скачана. Она хранится только на этом устройстве; то, что вы пишете, никуда не уходит.",
        .modelLoading: "Загружаю модель…", .downloading: "Скачиваю модель… %@",
        .verifying: "Проверяю загрузку…", .downloadPaused: "Загрузка на паузе: %@",
        .modelFailed: "Модель нельзя использовать: %@", .translationFailed: "Не удалось перевести: %@",
        .translationProgress: "Переведено предложений: %@",
        .sourcePlaceholder: "Напишите или вставьте текст", .samplesTitle: "Попробуйте", .emptyTranslation: "(нет перевода)",
        .swap: "Поменять языки местами", .copy: "Скопировать перевод", .copied: "Скопировано", .share: "Поделиться переводом",
        .translateWith: "Перевести в ilo toki", .replaceText: "Заменить выделенный текст",
        .scriptLatin: "Латиница", .scriptSitelenPona: "sitelen pona",
        .sourceTextLabel: "Текст для перевода", .translationLabel: "Перевод", .sourceLanguageLabel: "Язык текста",
        .targetLanguageLabel: "Язык перевода", .scriptLabel: "Письмо текста на токи пона",
        .sitelenFontMissing: "Чтобы видеть sitelen pona, установите шрифт, например %@ (github.com/ETBCOR/nasin-nanpa).",
        .history: "История", .settings: "Настройки", .models: "Модели", .about: "О программе", .back: "Назад",
        .today: "Сегодня", .yesterday: "Вчера",
        .olin: "В избранное", .unOlin: "Убрать из избранного", .clearHistory: "Очистить историю (избранное останется)",
        .noHistory: "Переводов пока нет.", .historyOff: "История выключена в настройках.",
        .keepHistory: "Сохранять историю", .translateAsYouType: "Переводить при вводе", .translateBySentence: "По предложениям",
        .theme: "Тема",
        .haptics: "Вибрация при нажатии и по мере перевода",
        .themeLight: "Светлая", .themeDark: "Тёмная", .themeSystem: "Как в системе", .sitelenFont: "Шрифт sitelen pona",
        .modelInstalled: "Установлена", .modelPartial: "Скачано %@", .modelNotInstalled: "Не скачана",
        .modelDeprecated: "Старая модель", .newerModelAvailable: "Есть новая модель",
        .modelMissingFile: "Файл не найден",
        .inUse: "Используется", .use: "Использовать", .download: "Скачать", .delete: "Удалить", .addModel: "Добавить файл модели…",
        .modelsTake: "Модели занимают %@", .freeOnDevice: "свободно на устройстве: %@",
        .promptFormat: "Формат подсказки", .modelName: "Название",
        .licenceTitle: "Лицензия модели", .licenceAccept: "Принять и скачать", .cancel: "Отмена",
        .aboutText:
            "ilo toki переводит между токипоной и английским, русским и вьетнамским прямо на устройстве. После загрузки модели сеть не нужна, и ничего из написанного вами не покидает устройство.",
        .licences: "Лицензии",
        .licenceApp: "ilo toki — лицензия MIT",
        .licenceLlama: "llama.cpp, на котором работают модели, — лицензия MIT (github.com/ggml-org/llama.cpp)",
        .licenceModels: "Модели перевода — %@",
        .licenceUIFont: "Space Grotesk, шрифт приложения, — SIL Open Font License 1.1",
        .licenceSitelenFont: "sitelen seli kiwen asuki (Kreative Korp), шрифт sitelen pona, — SIL Open Font License 1.1",
        .licenceWords: "Словарь слов токипоны lipu Linku (определения на английском) — CC BY-SA 4.0",
        .firstRunHint: "Переводчик скачивается один раз, с %@: нажмите кнопку внизу.",
        .standingIn: "Отвечает, пока не скачается %@",
        .readyTitle: "Переводчик готов",
        .readyBody: "%@ скачан и загружен. Он переводит на этом устройстве, без сети.",
        .firstRunHintDismiss: "Понятно",
        .seeAlso: "См. также", .wordCredit: "Из lipu Linku (CC BY-SA 4.0). Определения на английском.", .closeWord: "Закрыть",
        .usageCore: "основное слово", .usageCommon: "частое слово", .usageUncommon: "редкое слово",
        .usageObscure: "малоизвестное слово", .usageSandbox: "новое слово",
        .sitelenFontChosenMissing: "Шрифт %@ не установлен, поэтому sitelen pona рисует шрифт, который идёт с ilo toki.",
    ]

    static let vietnamese: [UIText: String] = [
        .appName: "ilo toki",
        .translate: "Dịch", .stop: "Dừng", .retry: "Thử lại", .wait: "Chờ một chút…",
        .downloadModel: "Tải mô hình · %@", .downloadModelUnsized: "Tải mô hình", .resumeDownload: "Tiếp tục tải · %@",
        .pauseDownload: "Tạm dừng", .cancelDownload: "Huỷ tải",
        .modelNotDownloaded: "Mô hình chưa được tải. Nó chỉ nằm trên thiết bị này; những gì bạn gõ không bao giờ rời khỏi máy.",
        .modelLoading: "Đang nạp mô hình…", .downloading: "Đang tải mô hình… %@",
        .verifying: "Đang kiểm tra bản tải…", .downloadPaused: "Đã tạm dừng ở %@",
        .modelFailed: "Không dùng được mô hình: %@", .translationFailed: "Không dịch được: %@",
        .translationProgress: "Số câu đã dịch: %@",
        .sourcePlaceholder: "Gõ hoặc dán văn bản", .samplesTitle: "Thử một câu", .emptyTranslation: "(không có bản dịch)",
        .swap: "Đổi chiều ngôn ngữ", .copy: "Sao chép bản dịch", .copied: "Đã sao chép", .share: "Chia sẻ bản dịch",
        .translateWith: "Dịch bằng ilo toki", .replaceText: "Thay văn bản đã chọn",
        .scriptLatin: "Chữ Latinh", .scriptSitelenPona: "sitelen pona",
        .sourceTextLabel: "Văn bản cần dịch", .translationLabel: "Bản dịch", .sourceLanguageLabel: "Ngôn ngữ của văn bản",
        .targetLanguageLabel: "Ngôn ngữ của bản dịch", .scriptLabel: "Chữ viết của văn bản Toki Pona",
        .sitelenFontMissing: "Để xem sitelen pona, hãy cài một phông như %@ (github.com/ETBCOR/nasin-nanpa).",
        .history: "Lịch sử", .settings: "Cài đặt", .models: "Mô hình", .about: "Giới thiệu", .back: "Quay lại",
        .today: "Hôm nay", .yesterday: "Hôm qua",
        .olin: "Đánh dấu yêu thích", .unOlin: "Bỏ yêu thích", .clearHistory: "Xoá lịch sử (giữ mục yêu thích)",
        .noHistory: "Chưa có bản dịch nào.", .historyOff: "Lịch sử đang tắt trong cài đặt.",
        .keepHistory: "Lưu lịch sử", .translateAsYouType: "Dịch khi đang gõ", .translateBySentence: "Dịch từng câu", .theme: "Giao diện",
        .haptics: "Rung khi chạm và khi chữ hiện ra",
        .themeLight: "Sáng", .themeDark: "Tối", .themeSystem: "Theo hệ thống", .sitelenFont: "Phông sitelen pona",
        .modelInstalled: "Đã cài", .modelPartial: "Đã tải %@", .modelNotInstalled: "Chưa tải",
        .modelDeprecated: "Mô hình cũ", .newerModelAvailable: "Có mô hình mới hơn",
        .modelMissingFile: "Không tìm thấy tệp",
        .inUse: "Đang dùng", .use: "Dùng", .download: "Tải", .delete: "Xoá", .addModel: "Thêm tệp mô hình…",
        .modelsTake: "Các mô hình chiếm %@", .freeOnDevice: "còn trống %@ trên thiết bị",
        .promptFormat: "Định dạng câu lệnh", .modelName: "Tên",
        .licenceTitle: "Giấy phép mô hình", .licenceAccept: "Đồng ý và tải", .cancel: "Huỷ",
        .aboutText:
            "ilo toki dịch giữa Toki Pona và tiếng Anh, tiếng Nga, tiếng Việt ngay trên thiết bị. Sau khi tải mô hình, ứng dụng không dùng mạng, và những gì bạn gõ không bao giờ rời khỏi máy.",
        .licences: "Giấy phép",
        .licenceApp: "ilo toki — giấy phép MIT",
        .licenceLlama: "llama.cpp, phần chạy các mô hình — giấy phép MIT (github.com/ggml-org/llama.cpp)",
        .licenceModels: "Các mô hình dịch — %@",
        .licenceUIFont: "Space Grotesk, phông chữ của ứng dụng — SIL Open Font License 1.1",
        .licenceSitelenFont: "sitelen seli kiwen asuki (Kreative Korp), phông sitelen pona — SIL Open Font License 1.1",
        .licenceWords: "Từ điển lipu Linku các từ Toki Pona (định nghĩa bằng tiếng Anh) — CC BY-SA 4.0",
        .firstRunHint: "Bộ dịch được tải một lần, từ %@: bấm nút bên dưới.",
        .standingIn: "Tạm dịch cho đến khi có %@",
        .readyTitle: "Bộ dịch đã sẵn sàng",
        .readyBody: "%@ đã được tải và nạp. Nó dịch ngay trên thiết bị này, không cần mạng.",
        .firstRunHintDismiss: "Đã hiểu",
        .seeAlso: "Xem thêm", .wordCredit: "Theo lipu Linku (CC BY-SA 4.0). Định nghĩa bằng tiếng Anh.", .closeWord: "Đóng",
        .usageCore: "từ cốt lõi", .usageCommon: "từ thông dụng", .usageUncommon: "từ ít dùng", .usageObscure: "từ hiếm",
        .usageSandbox: "từ mới",
        .sitelenFontChosenMissing: "Phông %@ chưa được cài, nên sitelen pona được vẽ bằng phông đi kèm ilo toki.",
    ]

    static let tokiPona: [UIText: String] = [
        .appName: "ilo toki",
        .translate: "o ante", .stop: "o pini", .retry: "o pali sin", .wait: "o awen lili…",
        .downloadModel: "o kama jo e sona ilo · %@", .downloadModelUnsized: "o kama jo e sona ilo", .resumeDownload: "o awen kama jo · %@",
        .pauseDownload: "o awen", .cancelDownload: "o pini e kama jo",
        .modelNotDownloaded: "sona ilo li lon ala. ona li lon ilo sina taso; toki sina li tawa ala ma ante.",
        .modelLoading: "ilo li open e sona…", .downloading: "ilo li kama jo e sona… %@",
        .verifying: "ilo li lukin e sona…", .downloadPaused: "kama jo li awen lon %@",
        .modelFailed: "sona ilo li ken ala: %@", .translationFailed: "ilo li ken ala ante: %@",
        .translationProgress: "toki lili pini: %@",
        .sourcePlaceholder: "o sitelen e toki", .samplesTitle: "o lukin e ni", .emptyTranslation: "(ante li lon ala)",
        .swap: "o ante e nasin toki", .copy: "o jo e toki ante", .copied: "ilo li jo", .share: "o pana e toki ante",
        .translateWith: "o ante kepeken ilo toki", .replaceText: "o ante e toki ni",
        .scriptLatin: "sitelen Lasina", .scriptSitelenPona: "sitelen pona",
        .sourceTextLabel: "toki tawa ante", .translationLabel: "toki ante", .sourceLanguageLabel: "toki pi sitelen ni",
        .targetLanguageLabel: "toki pi toki ante", .scriptLabel: "nasin sitelen pi toki pona",
        .sitelenFontMissing: "o kama jo e sitelen pona sama %@ (github.com/ETBCOR/nasin-nanpa).",
        .history: "tenpo pini", .settings: "nasin", .models: "sona ilo", .about: "sona", .back: "o tawa monsi",
        .today: "tenpo suno ni", .yesterday: "tenpo suno pini",
        .olin: "o olin", .unOlin: "o olin ala", .clearHistory: "o weka e tenpo pini (olin li awen)",
        .noHistory: "toki ante li lon ala.", .historyOff: "tenpo pini li lon ala lon nasin.",
        .keepHistory: "o awen e tenpo pini", .translateAsYouType: "o ante lon tenpo sitelen",
        .translateBySentence: "o ante e toki lili wan lon tenpo wan", .theme: "kule",
        .haptics: "o tawa lili lon luka en lon kama nimi",
        .themeLight: "walo", .themeDark: "pimeja", .themeSystem: "sama ilo", .sitelenFont: "sitelen pi sitelen pona",
        .modelInstalled: "lon", .modelPartial: "%@ li lon", .modelNotInstalled: "lon ala",
        .modelDeprecated: "sona ilo majuna", .newerModelAvailable: "sona ilo sin li lon",
        .modelMissingFile: "lipu li lon ala",
        .inUse: "ni li pali", .use: "o kepeken", .download: "o kama jo", .delete: "o weka", .addModel: "o pana e lipu sona…",
        .modelsTake: "lipu sona li kepeken e %@", .freeOnDevice: "ma ken %@ li lon ilo ni",
        .promptFormat: "nasin toki", .modelName: "nimi",
        .licenceTitle: "lawa pi sona ilo", .licenceAccept: "mi wile. o kama jo", .cancel: "ala",
        .aboutText:
            "ilo toki li ante e toki pona e toki Inli e toki Losi e toki Wije lon ilo sina. sona ilo li lon la, ilo li kepeken ala linluwi. toki sina li tawa ala ma ante.",
        .licences: "lawa",
        .licenceApp: "ilo toki — lawa MIT",
        .licenceLlama: "ilo llama.cpp li pali e sona ilo — lawa MIT (github.com/ggml-org/llama.cpp)",
        .licenceModels: "sona ilo ante — %@",
        .licenceUIFont: "sitelen Space Grotesk — lawa SIL Open Font License 1.1",
        .licenceSitelenFont: "sitelen seli kiwen asuki (Kreative Korp) li sitelen e sitelen pona — lawa SIL Open Font License 1.1",
        .licenceWords: "lipu Linku pi nimi toki pona (sona li lon toki Inli) — lawa CC BY-SA 4.0",
        .firstRunHint: "ilo ante li kama tan %@ lon tenpo wan: o luka e nena anpa.",
        .standingIn: "ni li pali. %@ li kama",
        .readyTitle: "ilo ante li pona",
        .readyBody: "%@ li kama lon. ona li ante e toki lon ilo ni taso.",
        .firstRunHintDismiss: "sona",
        .seeAlso: "o lukin kin e", .wordCredit: "tan lipu Linku (CC BY-SA 4.0). sona li lon toki Inli.", .closeWord: "o pini",
        .usageCore: "nimi suli", .usageCommon: "nimi mute", .usageUncommon: "nimi lili", .usageObscure: "nimi pi jan lili",
        .usageSandbox: "nimi sin",
        .sitelenFontChosenMissing: "sitelen %@ li lon ala. sitelen pi ilo toki li sitelen e sitelen pona.",
    ]
}
