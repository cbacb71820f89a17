import Foundation
import Provisioning

/// usage:
///   PlistDifferential LIST-FILE       for each path in LIST-FILE (one a line), print two JSON
///                                     lines: {"n":N,"p":"E",...} from Entitlint's reader, then
///                                     {"n":N,"p":"F",...} from Foundation. Output is flushed per
///                                     line, so whoever runs it knows which input a crash hit.
///   PlistDifferential extract-cms IN-DIR OUT-DIR
///                                     writes the encapsulated plist of every CMS profile in IN-DIR
///                                     to OUT-DIR (same name), for comparing profiles' plists.
@main
struct PlistDifferential {
    static func main() {
        let args = CommandLine.arguments.dropFirst()
        if args.first == "extract-cms", args.count == 3 {
            extract(from: args[args.startIndex + 1], to: args[args.startIndex + 2])
            return
        }
        guard args.count == 1, let list = try? String(contentsOfFile: args.first!, encoding: .utf8) else {
            FileHandle.standardError.write(Data("usage: PlistDifferential LIST-FILE | extract-cms IN-DIR OUT-DIR\n".utf8))
            exit(2)
        }
        for (n, path) in list.split(separator: "\n").enumerated() {
            guard let data = FileManager.default.contents(atPath: String(path)) else {
                emit("{\"n\":\(n),\"p\":\"E\",\"r\":{\"ok\":false,\"error\":\"unreadable\"}}")
                emit("{\"n\":\(n),\"p\":\"F\",\"r\":{\"ok\":false,\"error\":\"unreadable\"}}")
                continue
            }
            let bytes = [UInt8](data)
            emit("{\"n\":\(n),\"p\":\"E\",\"r\":\(EntitlintSide.result(bytes))}")
            emit("{\"n\":\(n),\"p\":\"F\",\"r\":\(FoundationSide.result(bytes))}")
        }
    }

    /// One line, written at once (FileHandle is unbuffered).
    static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func extract(from input: String, to output: String) {
        let fm = FileManager.default
        let names = ((try? fm.contentsOfDirectory(atPath: input)) ?? []).sorted()
        var written = 0
        for name in names {
            guard let data = fm.contents(atPath: input + "/" + name), data.first == 0x30,
                  let (content, _) = try? ProfileDecoder.encapsulatedContent(ofCMS: [UInt8](data)) else { continue }
            fm.createFile(atPath: output + "/" + name, contents: Data(content))
            written += 1
        }
        print("\(written) profile plists extracted")
    }
}
