import Foundation
import IloTokiCLI

exit(await CLI.run(Array(CommandLine.arguments.dropFirst())))
