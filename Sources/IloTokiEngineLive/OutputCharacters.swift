import IloTokiCore
import IloTokiLLM

extension GenerationOptions {
    /// These options for a translation into `language`: the trimmed head keeps the rows of
    /// the language's characters and widens to the four languages', both from Core's table
    /// (`Language.outputCharacters`).
    public func writing(_ language: Language) -> GenerationOptions {
        var options = self
        options.outputCharacters = language.outputCharacters.ranges
        options.widerCharacters = CharacterClass.allLanguages.ranges
        return options
    }
}
