import Foundation
import IloTokiGTK

// A synchronous main: GTK's loop runs here and serves the main actor. (An async main would
// park this thread in dispatch_main and fight GTK's loop.)
let status = MainActor.assumeIsolated {
    IloTokiApp.run(arguments: Array(CommandLine.arguments.dropFirst()))
}
exit(status)
