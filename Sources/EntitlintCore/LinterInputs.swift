import Dispatch
public import PropertyList
public import Provisioning

/// Which files a run reads, and how each is parsed.
extension Linter {
    /// Whether `path` ends in `.ext` for one of `exts` (ASCII, case-insensitive), without
    /// allocating.
    public static func hasExtension(_ path: String, in exts: [[UInt8]]) -> Bool {
        func check(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
            for e in exts where b.count > e.count {
                let start = b.count - e.count
                guard b[start - 1] == UInt8(ascii: ".") else { continue }
                var ok = true
                for (k, c) in e.enumerated() {
                    var x = b[start + k]
                    if x >= 65 && x <= 90 { x += 32 }
                    if x != c { ok = false; break }
                }
                if ok { return true }
            }
            return false
        }
        // Over the contiguous bytes: indexing `utf8` generically costs several times more.
        if let answer = path.utf8.withContiguousStorageIfAvailable(check) { return answer }
        return Array(path.utf8).withUnsafeBufferPointer(check)
    }

    static let walkedExtensions: [[UInt8]] = (entitlementsExtensions.sorted() + profileExtensions.sorted()).map { Array($0.utf8) }

    static func ext(_ path: String) -> String {
        let b = Paths.baseName(path)
        guard let dot = b.lastIndex(of: ".") else { return "" }
        return String(b[b.index(after: dot)...]).lowercased()
    }

    public static func isProfilePath(_ path: String) -> Bool { hasExtension(path, in: profileExtensionBytes) }
    /// `profileExtensions` as bytes, from literals: building the Set first would cost a pre-commit
    /// run the Swift runtime's scan for `String: Hashable` (ProfilePathTests checks they agree).
    static let profileExtensionBytes: [[UInt8]] = [Array("mobileprovision".utf8), Array("provisionprofile".utf8)]

    /// `project.pbxproj`, `*.xcconfig`, `project.yml` and `contents.xcworkspacedata`: project files,
    /// read by the discoverer (`LintOptions.discoverer`), never as loose property lists. Swift and
    /// Objective-C sources too: named on the command line (a hook passes the changed ones), they
    /// bring the targets that compile them into the run, and are read only as code.
    public static func isProjectFile(_ path: String) -> Bool {
        let base = Paths.baseName(path)
        if base == "project.pbxproj" || base == "project.yml" || base == "contents.xcworkspacedata" { return true }
        return ext(path) == "xcconfig" || isSourceFile(path)
    }

    /// `.swift`, `.m`, `.mm` and `.h`: what the code rules scan.
    public static func isSourceFile(_ path: String) -> Bool {
        switch ext(path) {
        case "swift", "m", "mm", "h": return true
        default: return false
        }
    }

    /// Parses one file's bytes as what its name says it is.
    public static func parse(bytes: [UInt8], path: String, limits: PlistLimits) -> ParsedInput {
        if isProfilePath(path) {
            do {
                return .profile(try ProfileDecoder.decode(bytes, limits: limits))
            } catch {
                return .failed(reason: RunLimits.explain(error.reason, error.limit), location: error.location)
            }
        }
        // Decide by content when the name does not say: a DER/BER SEQUENCE is a CMS profile, and a
        // plist with the top-level keys of a profile is a decoded profile (`security cms -D` output).
        if bytes.first == 0x30 {
            do {
                return .profile(try ProfileDecoder.decode(bytes, limits: limits))
            } catch {
                return .failed(reason: RunLimits.explain(error.reason, error.limit), location: error.location)
            }
        }
        do {
            let doc = try PropertyListReader.parse(bytes, limits: limits)
            if let root = doc.root.dict, root["Entitlements"]?.dict != nil,
               root["UUID"] != nil || root["TeamIdentifier"] != nil || root["ProvisionedDevices"] != nil,
               let profile = try? ProvisioningProfile(document: doc, envelope: .plainPlist) {
                return .profile(profile)
            }
            return .entitlements(doc)
        } catch {
            return .failed(reason: RunLimits.explain(error.reason, error.limit), location: error.location)
        }
    }

    public static func parse(path: String, limits: PlistLimits) -> ParsedInput {
        let bytes: [UInt8]
        do {
            bytes = try FileReader.read(path, limit: limits.maxBytes)
        } catch {
            return .failed(reason: "cannot read the file: \(error)", location: .unknown)
        }
        return parse(bytes: bytes, path: path, limits: limits)
    }

    /// Collects the input files: explicit files as given, folders walked for entitlements and
    /// profiles, config apps' files; exclude globs apply to walked files.
    public func collectFiles(_ options: LintOptions) throws(UsageError) -> [String] {
        var refused: [String] = []
        var unreadable: [(String, String)] = []
        var nested: [String] = []
        return try collectFiles(options, refusedLinks: &refused, unreadable: &unreadable, nestedConfigurations: &nested)
    }

    /// `collectFiles(_:)`; `refusedLinks` gets the symlinked files the walks met that lead
    /// outside the project root (`ProjectRoot`): not followed, not read; `unreadable` the folders
    /// a walk could not read (path and why); `nestedConfigurations` the folders left out because
    /// they hold their own configuration (`LintOptions.nestedConfigurations`).
    public func collectFiles(_ options: LintOptions, refusedLinks: inout [String],
                             unreadable: inout [(String, String)], nestedConfigurations: inout [String]) throws(UsageError) -> [String] {
        var files: [String] = []
        var root: ProjectRoot?
        var refused: [String] = []
        defer { refusedLinks = Array(Set(refused)).sorted() }
        var problems: [(String, String)] = []
        defer { unreadable = problems }
        var seen = Set<String>()
        let cwd = Paths.currentDirectory()
        func add(_ p: String) {
            let key = Paths.absolute(p, cwd: cwd)
            if seen.insert(key).inserted { files.append(p) }
        }
        // The files of one walk are distinct paths: the set of absolute paths is built only when
        // a second path (or a configured app) could repeat one of them.
        var deduplicating = false
        func startDeduplicating() {
            guard !deduplicating else { return }
            deduplicating = true
            seen.reserveCapacity(files.count)
            for f in files { seen.insert(Paths.absolute(f, cwd: cwd)) }
        }
        let config = options.configuration
        let configFolder = config?.path.map { Paths.directoryName(Paths.absolute($0, cwd: cwd)) }
        var nestedConfigFiles: [String] = []
        for path in options.paths {
            switch options.kind(path) {
            case .missing:
                throw UsageError("no such file or folder: \(path)")
            case .directory:
                var found = options.walk(path, followsLink: { link in
                    if root == nil { root = options.projectRoot(cwd: cwd) }
                    if root!.contains(link, cwd: cwd) { return true }
                    refused.append(link)
                    return false
                }, unreadable: { problems.append(($0, $1)) }) { p in
                    // Project files too when projects are discovered (one walk: ProjectUnits.swift).
                    guard Linter.hasExtension(p, in: Linter.walkedExtensions)
                            || (options.discoverer != nil && Linter.isProjectMarker(p))
                            || (options.nestedConfigurations && Paths.baseName(p) == Configuration.fileName) else { return false }
                    return !(config?.excludes(p, cwd: cwd) ?? false)
                }
                if options.nestedConfigurations {
                    found.removeAll { p in
                        guard Paths.baseName(p) == Configuration.fileName else { return false }
                        if Paths.directoryName(Paths.absolute(p, cwd: cwd)) != configFolder { nestedConfigFiles.append(p) }
                        return true
                    }
                }
                if files.isEmpty && !deduplicating {
                    files = found
                } else {
                    startDeduplicating()
                    found.forEach(add)
                }
            case .file, .other:
                // Excludes apply to files named explicitly too (ruff's force-exclude): a hook passes
                // every changed file. Xcode project files are not read yet.
                guard !Self.isProjectFile(path), !(config?.excludes(path, cwd: cwd) ?? false) else { continue }
                if files.isEmpty && !deduplicating {
                    files = [path]
                } else {
                    startDeduplicating()
                    add(path)
                }
            }
        }
        if !nestedConfigFiles.isEmpty {
            // The outermost folders with their own configuration; their files are theirs.
            let folders = Set(nestedConfigFiles.map { Paths.directoryName(Paths.absolute($0, cwd: cwd)) + "/" })
            let outermost = folders.filter { f in !folders.contains { $0 != f && f.hasPrefix($0) } }.sorted()
            files.removeAll { p in
                let a = Paths.absolute(p, cwd: cwd)
                return outermost.contains { a.hasPrefix($0) }
            }
            seen = Set(seen.filter { a in !outermost.contains { a.hasPrefix($0) } })
            nestedConfigurations = outermost.map { String($0.dropLast()) }
        }
        if let config = options.configuration {
            for app in config.apps {
                let p = config.resolve(app.entitlements)
                // Config apps are linted when they lie below a path given on the command line.
                let abs = Paths.absolute(p)
                let covered = options.paths.contains { given in
                    let g = Paths.absolute(given)
                    return abs == g || abs.hasPrefix(g.hasSuffix("/") ? g : g + "/")
                }
                if covered {
                    guard options.kind(p) != .missing else {
                        throw UsageError("\(config.path ?? ".entitlint.yml"): app entitlements not found: \(app.entitlements)")
                    }
                    startDeduplicating()
                    add(p)
                }
            }
        }
        return files
    }
}
