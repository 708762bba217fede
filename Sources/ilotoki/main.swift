import Foundation
import IloTokiCLI

// Before any thread starts: Ctrl-C and the requests to end wait for the command's own handling
// instead of being lost in its first milliseconds.
CLI.holdInterrupts()

// The main thread runs the main run loop, which serves the main actor. (An async main would
// park it in dispatch_main, whose sigsuspend trips up valgrind's callgrind, used to count
// the Swift layer's instructions.)
Task { @MainActor in
    exit(await CLI.main())
}
RunLoop.main.run()
