public import EntitlintCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FuzzCheck {
    /// What the rules read from a unit: the entitlements tree, the facts, the access groups.
    public static func unit(_ unit: SigningUnit) {
        walk(unit.document.root)
        sink &+= unit.name.utf8.count &+ unit.entitlementsPath.utf8.count
        sink &+= (unit.bundleID?.value.utf8.count ?? 0) &+ (unit.teamID?.value.utf8.count ?? 0)
            &+ (unit.appIDPrefix?.value.utf8.count ?? 0) &+ (unit.appID?.utf8.count ?? 0)
        let groups = unit.accessGroups
        for entry in groups.entries { sink &+= entry.value.utf8.count &+ entry.keyPath.utf8.count }
        if let artifact = unit.artifact {
            if let der = artifact.derEntitlements { walk(der) }
            sink &+= artifact.architectures.count &+ artifact.bundlePath.utf8.count
                &+ (artifact.derEntitlementsError?.utf8.count ?? 0) &+ artifact.sliceDisagreements.count
        }
    }

    /// Every finding must say what is wrong and where.
    public static func finding(_ finding: Finding) {
        precondition(!finding.message.isEmpty, "a finding without a message")
        precondition(!finding.path.isEmpty, "a finding without a path")
        sink &+= finding.message.utf8.count &+ finding.line &+ finding.column
    }

    /// The result of reading a built product (Mach-O file or `.ipa`).
    public static func artifact(_ result: ArtifactReadResult) {
        for unit in result.units { self.unit(unit) }
        for finding in result.findings { self.finding(finding) }
        for profile in result.profiles { walk(profile.profile.document.root) }
        sink &+= result.paths.count
    }
}

/// A file that holds the current input, for readers that only take a path (the built-product
/// reader opens Mach-O files and `.ipa` archives itself, with `pread`). In `/dev/shm` (a
/// tmpfs: no disk writes, several times faster) when there is one, else `/tmp`. One per process,
/// rewritten on every run, removed at exit.
public final class FuzzInputFile: @unchecked Sendable {
    public let path: String
    let folder: String

    /// `name` is the file's name: its extension decides how the reader takes it (`App.ipa`).
    public init(name: String) {
        var st = stat()
        let base = stat("/dev/shm", &st) == 0 && st.st_mode & S_IFMT == S_IFDIR && access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        folder = "\(base)/entitlint-fuzz-\(getpid())"
        path = folder + "/" + name
        mkdir(folder, 0o700)
        let (f, p) = (folder, path)
        FuzzInputFile.cleanup = { unlink(p); rmdir(f) }
        atexit { FuzzInputFile.cleanup?() }
    }

    nonisolated(unsafe) static var cleanup: (() -> Void)?

    /// Replaces the file's contents with `bytes`.
    public func store(_ data: UnsafePointer<UInt8>?, _ size: Int) { fuzzWriteFile(path, data, size) }
}

/// Creates or replaces the file at `path` with `size` bytes from `data` (stops the run if it
/// cannot: the harness would test nothing).
public func fuzzWriteFile(_ path: String, _ data: UnsafePointer<UInt8>?, _ size: Int) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "cannot create \(path): \(String(cString: strerror(errno)))")
    var done = 0
    while done < size, let data {
        let n = write(fd, data + done, size - done)
        if n < 0 && errno == EINTR { continue }
        precondition(n > 0, "cannot write \(path): \(String(cString: strerror(errno)))")
        done += n
    }
    close(fd)
}
