import IloTokiCore
import Testing

@Suite struct UIStringsTests {
    @Test(arguments: InterfaceLanguage.allCases)
    func everyLanguageHasEveryString(language: InterfaceLanguage) {
        let table = UIStrings.tables[language] ?? [:]
        let missing = UIText.allCases.filter { (table[$0] ?? "").isEmpty }
        #expect(missing.isEmpty, "\(language) lacks \(missing)")
    }

    @Test(arguments: InterfaceLanguage.allCases)
    func placeholdersMatchEnglish(language: InterfaceLanguage) {
        let english = UIStrings(language: .english)
        let strings = UIStrings(language: language)
        for key in UIText.allCases {
            let expected = english[key].components(separatedBy: "%@").count
            #expect(strings[key].components(separatedBy: "%@").count == expected, "\(language) \(key): \(strings[key])")
        }
    }

    @Test func theLocalePicksTheLanguage() {
        #expect(UIStrings.forLocale(environment: ["LANG": "ru_RU.UTF-8"]).language == .russian)
        #expect(UIStrings.forLocale(environment: ["LANG": "vi_VN.UTF-8"]).language == .vietnamese)
        #expect(UIStrings.forLocale(environment: ["LANG": "tok"]).language == .tokiPona)
        #expect(UIStrings.forLocale(environment: ["LC_ALL": "ru_RU.UTF-8", "LANG": "vi_VN"]).language == .russian)
        #expect(UIStrings.forLocale(environment: ["LANG": "C.UTF-8"]).language == .english)
        #expect(UIStrings.forLocale(environment: ["LANG": "de_DE.UTF-8"]).language == .english)
        #expect(UIStrings.forLocale(environment: [:]).language == .english)
    }

    @Test func argumentsFillThePlaceholder() {
        let strings = UIStrings(language: .english)
        #expect(strings(.downloadModel, "1.39 GB").contains("1.39 GB"))
        #expect(!strings(.downloadModel, "1.39 GB").contains("%@"))
    }
}
