import IloTokiCore
import Testing

@testable import IloTokiCLI

@Suite struct ArgumentParserTests {
    let commands = CLI.commands

    func parse(_ words: [String]) throws -> (CommandSpec, ParsedArguments) {
        try parseArguments(words, commands: commands, defaultCommand: ["translate"])
    }

    @Test func bareTextTranslates() throws {
        let (spec, parsed) = try parse(["jan", "li", "moku"])
        #expect(spec.path == ["translate"])
        #expect(parsed.operands == ["jan", "li", "moku"])
    }

    @Test func optionsInEveryForm() throws {
        let (_, parsed) = try parse(["translate", "--from", "en", "--to=tok", "-m", "x.gguf", "--json", "I", "love", "you"])
        #expect(parsed.value("--from") == "en")
        #expect(parsed.value("--to") == "tok")
        #expect(parsed.value("--model") == "x.gguf")
        #expect(parsed.has("--json"))
        #expect(parsed.operands == ["I", "love", "you"])
    }

    @Test func doubleDashEndsOptions() throws {
        let (_, parsed) = try parse(["translate", "--", "--json", "-f"])
        #expect(parsed.operands == ["--json", "-f"])
        #expect(!parsed.has("--json"))
    }

    @Test func theLongestCommandWins() throws {
        let (spec, parsed) = try parse(["models", "download", "some-id"])
        #expect(spec.path == ["models", "download"])
        #expect(parsed.operands == ["some-id"])
        #expect(try parse(["models"]).0.path == ["models"])
    }

    @Test func unknownOptionsAndCommandsAreUsageErrors() {
        #expect(throws: UsageError.self) { try parse(["translate", "--bogus"]) }
        #expect(throws: UsageError.self) { try parse(["models", "frobnicate"]) }
        #expect(throws: UsageError.self) { try parse(["--json=yes", "text"]) }
        #expect(throws: UsageError.self) { try parse(["translate", "--from"]) }
        #expect(throws: UsageError.self) { try parse(["models", "download"]) }
        #expect(throws: UsageError.self) { try parse(["models", "remove", "a", "b"]) }
    }

    @Test func helpNeedsNoOperands() throws {
        let (spec, parsed) = try parse(["models", "download", "--help"])
        #expect(spec.path == ["models", "download"])
        #expect(parsed.has("--help"))
    }

    @Test func directionsFromOptions() throws {
        let last = TranslationDirection.tokiPonaToEnglish
        #expect(try TranslateCommand.direction(from: nil, to: nil, current: last) == nil)
        #expect(try TranslateCommand.direction(from: "ru", to: nil, current: last) == .toTokiPona(from: .russian))
        #expect(try TranslateCommand.direction(from: "tok", to: nil, current: last) == .tokiPonaToEnglish)
        #expect(try TranslateCommand.direction(from: "tok", to: nil, current: .toTokiPona(from: .russian)) == .fromTokiPona(to: .russian))
        #expect(try TranslateCommand.direction(from: nil, to: "vi", current: last) == .fromTokiPona(to: .vietnamese))
        #expect(try TranslateCommand.direction(from: nil, to: "tok", current: last) == .englishToTokiPona)
        #expect(throws: UsageError.self) { try TranslateCommand.direction(from: "en", to: "ru", current: last) }
        #expect(throws: UsageError.self) { try TranslateCommand.direction(from: "de", to: nil, current: last) }
    }

    @Test func everyCommandHasHelp() {
        for command in commands {
            let text = Help.command(command)
            #expect(text.hasPrefix("Usage: ilotoki \(command.name)"))
            #expect(text.contains("--help"))
        }
        let overview = Help.overview(commands: commands)
        for command in commands { #expect(overview.contains(command.name)) }
    }
}
