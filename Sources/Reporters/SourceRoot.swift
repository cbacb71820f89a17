import EntitlintCore
import EntitlintWorkspace

/// The repository a run is in: code hosts (GitHub code scanning, GitHub annotations, GitLab Code
/// Quality) resolve report paths against the repository root, while findings carry paths relative
/// to the current folder. Without a `SourceRoot` the formats use the paths as shown.
///
/// GitHub: "Code scanning interprets results that are reported with relative paths as relative to
/// the root of the repository analyzed" (docs.github.com, "SARIF support for code scanning",
/// "Specifying the root for source files"). GitLab: `location.path` is "the relative path to the
/// file" (docs.gitlab.com, "Code Quality", "Implement a custom tool").
public struct SourceRoot: Sendable, Hashable {
    /// Absolute, without a trailing `/`.
    public var root: String
    /// Absolute: the folder finding paths are relative to.
    public var currentDirectory: String

    public init(root: String, currentDirectory: String) {
        self.root = Paths.absolute(root)
        self.currentDirectory = Paths.absolute(currentDirectory)
    }

    /// The nearest folder at or above `directory` holding `.git` (a folder, or the file a linked
    /// worktree or submodule has); nil outside a git work tree.
    public static func find(from directory: String = ".") -> SourceRoot? {
        let cwd = Paths.absolute(directory)
        var dir = cwd
        while true {
            if Paths.kind((dir == "/" ? "" : dir) + "/.git") != .missing {
                return SourceRoot(root: dir, currentDirectory: cwd)
            }
            if dir == "/" { return nil }
            dir = Paths.directoryName(dir)
        }
    }

    /// `path` (relative to the current folder, or absolute) relative to the root, with `/`;
    /// nil when it lies outside the root.
    public func relative(_ path: String) -> String? {
        let abs = Paths.absolute(path, cwd: currentDirectory)
        if root == "/" { return String(abs.dropFirst()) }
        guard abs.hasPrefix(root + "/") else { return nil }
        return String(abs.dropFirst(root.count + 1))
    }
}

extension Report {
    /// A finding's path as code hosts want it: relative to the repository root when known and
    /// inside it, absolute when outside it, and as shown when there is no repository.
    func repositoryPath(_ path: String) -> String {
        guard let sourceRoot else { return path }
        return sourceRoot.relative(path) ?? Paths.absolute(path, cwd: sourceRoot.currentDirectory)
    }
}

/// URI references for SARIF `artifactLocation.uri` (RFC 3986).
enum URIReference {
    /// Every byte outside RFC 3986 section 2.3's unreserved set (`ALPHA / DIGIT / "-" / "." / "_" /
    /// "~"`) and the `/` separator is percent-encoded (section 2.1, upper-case hex digits). That
    /// covers spaces and `%`, and a `:` that would otherwise make `a:b/c` read as a scheme
    /// (section 4.2).
    static func encodePath(_ path: String) -> String {
        var out = ""
        out.reserveCapacity(path.utf8.count)
        let hex = Array("0123456789ABCDEF")
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out.append("%")
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0xF)])
            }
        }
        return out
    }

    /// A relative path as a relative reference; an absolute one as a `file:` URI (RFC 8089).
    static func reference(forPath path: String) -> String {
        path.hasPrefix("/") ? "file://" + encodePath(path) : encodePath(path)
    }

    /// A folder as an absolute `file:` URI ending in `/`: what a `uriBaseId` in `originalUriBaseIds`
    /// must resolve to (SARIF 2.1.0 section 3.4.4; the SARIF multitool checks it as SARIF1004 and
    /// SARIF1018, "the uri ... must be absolute ... and must end with a slash").
    static func folder(_ absolutePath: String) -> String {
        let p = absolutePath.hasSuffix("/") ? absolutePath : absolutePath + "/"
        return "file://" + encodePath(p)
    }
}
