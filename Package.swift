// swift-tools-version: 6.2
//
// ilo toki: a private, on-device translator between Toki Pona and English, Russian and
// Vietnamese. Layers, lowest first: llm/ (C over llama.cpp) → IloTokiLLM → IloTokiEngineLive,
// and IloTokiCore (which knows no llama.cpp) → front ends. Run scripts/build-llm.sh before
// building a front end: it makes build/llm/lib.
import Foundation
import PackageDescription

let root = Context.packageDirectory
// scripts/build-llm.sh makes build/llm/lib; ILOTOKI_LLM_LIB names another build of it (the
// AVX2 one that valgrind can run, for scripts/bench-swift-layer.sh).
let llmLibrary = Context.environment["ILOTOKI_LLM_LIB"] ?? "\(root)/build/llm/lib"
// ILOTOKI_WITHOUT_LLM=1 leaves out everything that links the inference library (the engine, the
// front ends and their tests), so Core, the design and their tests build and run on a
// machine that never built llama.cpp: `ILOTOKI_WITHOUT_LLM=1 swift test`. An environment
// variable rather than a look at build/llm: SwiftPM caches what the manifest says, and only
// a change of the environment makes it read the manifest again.
let withoutLLM = Context.environment["ILOTOKI_WITHOUT_LLM"] != nil
// The manifest is read on the machine that builds. On a Mac (for iOS, iPadOS and macOS) the
// inference library is the XCFramework scripts/build-apple.sh makes, and nothing uses unsafe
// flags (SwiftPM refuses them in a package an app depends on); on Linux it is the archive
// scripts/build-llm.sh makes. ILOTOKI_MANIFEST=apple reads the Apple branch on Linux, so
// scripts/check-apple.sh can check it with `swift package dump-package`.
#if os(Linux)
    let apple = Context.environment["ILOTOKI_MANIFEST"] == "apple"
#else
    let apple = true
#endif

// The JNI bridge of the Android app (Sources/IloTokiJNI) needs jni.h: from the JDK that
// JAVA_HOME or `javac` names (Debian's default-jdk-headless), or, building for Android with
// ILOTOKI_JNI=android (scripts/build-android.sh), from the NDK.
let jdkInclude: String? = {
    var homes: [String] = []
    if let home = Context.environment["JAVA_HOME"] { homes.append(home) }
    for javac in ["/usr/bin/javac", "/usr/lib/jvm/default-java/bin/javac"] {
        let real = URL(fileURLWithPath: javac).resolvingSymlinksInPath()
        homes.append(real.deletingLastPathComponent().deletingLastPathComponent().path)
    }
    return homes.map { "\($0)/include" }.first { FileManager.default.fileExists(atPath: "\($0)/jni.h") }
}()
let jni = !apple && (jdkInclude != nil || Context.environment["ILOTOKI_JNI"] != nil)

let package = Package(
    name: "ilotoki",
    // The first releases with Observation.
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "IloTokiCore", targets: ["IloTokiCore"]),
        .library(name: "IloTokiDesign", targets: ["IloTokiDesign"]),
        .executable(name: "ilotoki-fetch", targets: ["ilotoki-fetch"]),
    ],
    targets: [
        // SHA-256 for verifying downloads; on Linux optimised even in debug builds so a model
        // hashes in seconds (an app's release build is optimised anyway).
        .target(
            name: "CSHA256",
            cSettings: apple ? [] : [.unsafeFlags(["-O3"])]
        ),
        // A value behind a lock, on every platform the app supports.
        .target(name: "IloTokiLocking"),
        // Languages, prompts, catalog, model store, history, settings, the app model and the
        // screen it derives (naming the design's icons). Knows the engine and the downloader
        // only through its own seams.
        .target(
            name: "IloTokiCore",
            dependencies: ["CSHA256", "IloTokiLocking", "IloTokiDesign"]
        ),
        // The design tokens and icons: plain data every front end draws from.
        .target(name: "IloTokiDesign"),
        // Core's download seam over HTTP (URLSession): resumable, verified downloads from the
        // Hugging Face Hub or a mirror. Front ends wire it in, as they do the live engine.
        .target(
            name: "IloTokiDownloadLive",
            dependencies: ["IloTokiCore", "IloTokiLocking"]
        ),
        // Downloads one URL with the product's downloader (tests, benchmarks, mirrors by hand).
        .executableTarget(
            name: "ilotoki-fetch",
            dependencies: ["IloTokiCore", "IloTokiDownloadLive"]
        ),
        // Serves a file like Hugging Face does, misbehaving on request (benchmarks, trying by hand).
        .executableTarget(
            name: "ilotoki-test-server",
            dependencies: ["IloTokiCore", "IloTokiTestSupport"]
        ),
        // Prints the design tokens and icons as Kotlin for the Android app (scripts/generate-android-design.sh).
        .executableTarget(name: "ilotoki-design", dependencies: ["IloTokiDesign"]),
        // Writes the Kotlin mirror of Core's contract (actions, outcomes, screen values) for the Android app.
        .executableTarget(name: "ilotoki-contract", dependencies: ["IloTokiCore", "IloTokiDesign"]),
        // Fixtures shared by the test targets: test models, temporary directories, servers, clocks.
        .target(name: "IloTokiTestSupport", dependencies: ["IloTokiCore", "IloTokiLocking"]),
        .testTarget(
            name: "IloTokiCoreTests",
            dependencies: ["IloTokiCore", "IloTokiDownloadLive", "CSHA256", "IloTokiLocking", "IloTokiTestSupport"]
        ),
        .testTarget(name: "IloTokiDesignTests", dependencies: ["IloTokiDesign"]),
    ],
    swiftLanguageModes: [.v6]
)

if !withoutLLM {
    package.products += [
        .executable(name: "ilotoki", targets: ["ilotoki"]),
        .library(name: "IloTokiLLM", targets: ["IloTokiLLM"]),
        .library(name: "IloTokiEngineLive", targets: ["IloTokiEngineLive"]),
    ]
    package.targets += [
        // The plain-C inference library (llm/include/ilotoki_llm.h) and llama.cpp: one archive on
        // Linux, an XCFramework (device, simulator, Mac; Metal where there is a GPU) on Apple.
        apple
            ? .binaryTarget(name: "CIloTokiLLM", path: "build/apple/CIloTokiLLM.xcframework")
            : .systemLibrary(name: "CIloTokiLLM", path: "Sources/CIloTokiLLM"),
        .target(
            name: "IloTokiLLM",
            dependencies: ["CIloTokiLLM", "IloTokiLocking"],
            linkerSettings: apple
                ? [.linkedLibrary("c++"), .linkedFramework("Foundation"), .linkedFramework("Metal"), .linkedFramework("Accelerate")]
                : [
                    .unsafeFlags(["-L\(llmLibrary)"]),
                    // llama.cpp is C++: GNU's runtime on Linux, the NDK's on Android.
                    .linkedLibrary("stdc++", .when(platforms: [.linux])),
                    .linkedLibrary("c++_shared", .when(platforms: [.android])),
                ]
        ),
        // The live engine behind Core's seam: llama.cpp through IloTokiLLM. Front ends wire it in.
        .target(
            name: "IloTokiEngineLive",
            dependencies: ["IloTokiCore", "IloTokiDownloadLive", "IloTokiLLM"]
        ),
        // `ilotoki bench`'s measuring: the one part of the command line that reaches the engine
        // itself (IloTokiLLM), for its decode rates, the trimmed head and the batches.
        .target(
            name: "IloTokiBench",
            dependencies: ["IloTokiCore", "IloTokiEngineLive", "IloTokiLLM"]
        ),
        // Line editing for the interactive session, over libedit (Debian's libedit-dev).
        .target(
            name: "CLineEditor",
            linkerSettings: [.linkedLibrary("edit")]
        ),
        // The command line: parsing and commands (a library, so tests can reach it), and its executable.
        .target(
            name: "IloTokiCLI",
            dependencies: [
                "IloTokiCore", "IloTokiEngineLive", "IloTokiBench", "IloTokiLocking", "CLineEditor",
                // `ilotoki serve` needs libmicrohttpd, which Debian packages; on Linux only.
                .target(name: "IloTokiServer", condition: .when(platforms: [.linux])),
            ]
        ),
        // `ilotoki serve`'s HTTP layer: GNU libmicrohttpd (Debian's libmicrohttpd-dev), a
        // thread per connection, bodies gathered within a limit, slow clients cut off.
        .target(
            name: "CHTTPServer",
            linkerSettings: [.linkedLibrary("microhttpd")]
        ),
        // The LibreTranslate API over Core's translator (`ilotoki serve`).
        .target(
            name: "IloTokiServer",
            dependencies: ["CHTTPServer", "IloTokiCore", "IloTokiLocking"]
        ),
        .executableTarget(
            name: "ilotoki",
            dependencies: ["IloTokiCLI"]
        ),
        .testTarget(
            name: "IloTokiLLMTests",
            dependencies: ["IloTokiLLM", "CIloTokiLLM", "IloTokiLocking", "IloTokiTestSupport"]
        ),
        .testTarget(
            name: "IloTokiEngineLiveTests",
            dependencies: ["IloTokiEngineLive", "IloTokiCore", "IloTokiDownloadLive", "IloTokiTestSupport"]
        ),
        .testTarget(
            name: "IloTokiCLITests",
            dependencies: [
                "IloTokiCLI", "IloTokiBench", "IloTokiCore", "IloTokiEngineLive", "IloTokiLLM", "IloTokiLocking", "IloTokiTestSupport",
                .target(name: "IloTokiServer", condition: .when(platforms: [.linux])),
            ]
        ),
    ]

    if jni {
        // The Android app's native library: the JNI bridge over Core and the live engine.
        let include = jdkInclude ?? ""
        package.products.append(.library(name: "IloTokiJNI", type: .dynamic, targets: ["IloTokiJNI"]))
        package.targets += [
            .systemLibrary(name: "CJNI", path: "Sources/CJNI"),
            .target(name: "CIloTokiMainQueue", linkerSettings: [.linkedLibrary("android", .when(platforms: [.android]))]),
            .target(
                name: "IloTokiJNI",
                dependencies: ["CJNI", "CIloTokiMainQueue", "IloTokiCore", "IloTokiEngineLive", "IloTokiLocking"],
                // For Android (ILOTOKI_JNI=android) jni.h is the NDK's, never the host JDK's.
                swiftSettings: jdkInclude == nil || Context.environment["ILOTOKI_JNI"] == "android"
                    ? [] : [.unsafeFlags(["-Xcc", "-I\(include)", "-Xcc", "-I\(include)/linux"])]
            ),
        ]
    }

    // The GTK 4 app (Debian's libgtk-4-dev).
    if !apple {
        package.products.append(.executable(name: "ilotoki-gtk", targets: ["ilotoki-gtk"]))
        package.targets += [
            .systemLibrary(name: "CGtk", path: "Sources/CGtk", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
            .target(name: "CGtkSupport", dependencies: ["CGtk"], linkerSettings: [.linkedLibrary("fontconfig")]),
            .target(name: "IloTokiGTK", dependencies: ["CGtk", "CGtkSupport", "IloTokiCore", "IloTokiDesign", "IloTokiEngineLive"]),
            .executableTarget(name: "ilotoki-gtk", dependencies: ["IloTokiGTK"]),
            .testTarget(name: "IloTokiGTKTests", dependencies: ["IloTokiGTK", "IloTokiCore", "IloTokiDesign", "IloTokiTestSupport", "CGtk"]),
        ]
    }
}
