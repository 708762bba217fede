// ilotoki-test-server: serves one file on 127.0.0.1 the way Hugging Face serves a model
// (a resolve/ URL that redirects to a CDN path, with X-Linked-Etag and X-Linked-Size), and
// can misbehave. For benchmarks and for trying the downloader by hand; never for real use.
//
//   ilotoki-test-server FILE [--port-file PATH] [--repo OWNER/NAME] [--cut-every BYTES]
//                       [--ignore-range] [--linked-etag SHA256]
//
// The file is served at /OWNER/NAME/resolve/main/<file name> (redirecting to /cdn/<file name>),
// so HF_ENDPOINT=http://127.0.0.1:PORT makes catalog URLs point here. It prints the port and
// runs until killed.
import Foundation
import IloTokiCore
import IloTokiTestSupport

var arguments = Array(CommandLine.arguments.dropFirst())
var options: [String: String] = [:]
var flags: Set<String> = []
var operands: [String] = []
while !arguments.isEmpty {
    let word = arguments.removeFirst()
    if word == "--ignore-range" {
        flags.insert(word)
    } else if word.hasPrefix("--"), !arguments.isEmpty {
        options[word] = arguments.removeFirst()
    } else {
        operands.append(word)
    }
}
guard operands.count == 1 else {
    FileHandle.standardError.write(
        Data(
            "usage: ilotoki-test-server FILE [--port-file PATH] [--repo OWNER/NAME] [--cut-every BYTES] [--ignore-range] [--linked-etag SHA256]\n"
                .utf8))
    exit(2)
}
let file = URL(fileURLWithPath: operands[0])
let name = file.lastPathComponent
let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
let server = try TestHTTPServer()
try server.serve("/cdn/\(name)", file: file)
let repo = options["--repo"] ?? "NetherQuartz/ilo-toki-1.1-MiLMMT-46-1b-merged"
let linked = try options["--linked-etag"] ?? SHA256.hash(fileAt: file)
server.redirect("/\(repo)/resolve/main/\(name)", to: "/cdn/\(name)", linkedEtag: linked, linkedSize: size)
if let every = options["--cut-every"].flatMap(Int.init), every > 0 {
    server.cut("/cdn/\(name)", atOffsets: Array(stride(from: every, to: size, by: every)))
}
if flags.contains("--ignore-range") { server.setPersistentFault(.ignoreRange, for: "/cdn/\(name)") }
if let portFile = options["--port-file"] {
    try "\(server.port)\n".write(toFile: portFile, atomically: true, encoding: .utf8)
}
print("serving \(name) (\(size) bytes) at http://127.0.0.1:\(server.port)/\(repo)/resolve/main/\(name)")
fflush(nil)
while true { sleep(3600) }
