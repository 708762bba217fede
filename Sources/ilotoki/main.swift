import Foundation
import IloTokiCLI

// The main thread runs the main run loop, which serves the main actor. (An async main would
// park it in dispatch_main, whose sigsuspend trips up valgrind's callgrind, used to count
// the Swift layer's instructions.)
Task { @MainActor in
    exit(await CLI.main())
}
RunLoop.main.run()
