import Foundation
import TestSupport
import XCTest

/// The wheel writer of Scripts/build-wheel.sh (Scripts/python/entitlint_wheel.py), run with
/// Python on small binaries of this machine: the binary lands as an executable script of the wheel,
/// RECORD hashes what the archive holds, the platform tag claims manylinux only for a binary that
/// loads nothing but glibc, versions map to PEP 440, and the placeholder package that pre-commit's
/// `pip install .` builds is an empty, pure wheel. (Installing it with pip and pre-commit is
/// Scripts/pre-commit-e2e.sh's part.)
final class WheelTests: XCTestCase {
    /// Python's view of the wheels the writer produced: JSON printed by `script` after it imported
    /// the writer; `tmp` is a fresh folder.
    func python(_ body: String) throws -> [String: Any] {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("wheel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let script = """
        import base64, hashlib, json, os, sys, zipfile
        sys.path.insert(0, os.path.join(sys.argv[1], "Scripts", "python"))
        sys.dont_write_bytecode = True
        import entitlint_wheel as w
        root, tmp = sys.argv[1], sys.argv[2]
        def describe(path):
            with zipfile.ZipFile(path) as z:
                names = z.namelist()
                info = [n for n in names if n.endswith(".dist-info/RECORD")][0].rsplit("/", 1)[0]
                record = {}
                for line in z.read(info + "/RECORD").decode().splitlines():
                    p, h, s = line.rsplit(",", 2)
                    record[p] = (h, s)
                bad = []
                for n in names:
                    if n.endswith("/RECORD"):
                        continue
                    data = z.read(n)
                    h = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                    if record.get(n) != (h, str(len(data))):
                        bad.append(n)
                return {"file": os.path.basename(path), "names": names, "badRecord": bad,
                        "modes": {n: (z.getinfo(n).external_attr >> 16) & 0o777 for n in names},
                        "wheel": z.read(info + "/WHEEL").decode(), "metadata": z.read(info + "/METADATA").decode()}
        out = {}
        \(body)
        print(json.dumps(out))
        """
        let text = try ExternalTool.run(["python3", "-c", script, CLI.packageRoot.path, tmp.path], input: "", package: "python3")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func testTheBinaryIsAnExecutableScriptOfAGlibcOnlyWheelAndRecordHashesEveryFile() throws {
        let out = try python("""
        name, reason = w.build_binary_wheel("/bin/true", "1.2.3", tmp, "x86_64")
        out["reason"] = reason
        out["wheel"] = describe(os.path.join(tmp, name))
        """)
        let wheel = try XCTUnwrap(out["wheel"] as? [String: Any])
        let file = try XCTUnwrap(wheel["file"] as? String)
        XCTAssertTrue(file.hasPrefix("entitlint-1.2.3-py3-none-manylinux_2_"), file)
        XCTAssertTrue(file.hasSuffix("_x86_64.whl"), file)
        XCTAssertEqual(wheel["names"] as? [String], [
            "entitlint-1.2.3.data/scripts/entitlint", "entitlint/__init__.py", "entitlint/__main__.py",
            "entitlint-1.2.3.dist-info/METADATA", "entitlint-1.2.3.dist-info/WHEEL", "entitlint-1.2.3.dist-info/RECORD",
        ])
        XCTAssertEqual(wheel["badRecord"] as? [String], [])
        let modes = try XCTUnwrap(wheel["modes"] as? [String: Int])
        XCTAssertEqual(modes["entitlint-1.2.3.data/scripts/entitlint"], 0o755)
        XCTAssertEqual(modes["entitlint/__init__.py"], 0o644)
        let tag = String(file.dropFirst("entitlint-1.2.3-".count).dropLast(".whl".count))
        let wheelFile = try XCTUnwrap(wheel["wheel"] as? String)
        XCTAssertTrue(wheelFile.contains("Tag: \(tag)\n"), wheelFile)
        XCTAssertTrue(wheelFile.contains("Root-Is-Purelib: false\n"), wheelFile)
        XCTAssertTrue((wheel["metadata"] as? String ?? "").contains("Name: entitlint\nVersion: 1.2.3\n"))
    }

    func testABinaryLoadingLibrariesBeyondGlibcIsTaggedLinuxNotManylinux() throws {
        // This test process loads the Swift runtime and XCTest from the toolchain.
        let out = try python("""
        name, reason = w.build_binary_wheel("/proc/\(ProcessInfo.processInfo.processIdentifier)/exe", "1.2.3", tmp, "x86_64")
        out["file"] = name
        out["reason"] = reason
        """)
        XCTAssertEqual(out["file"] as? String, "entitlint-1.2.3-py3-none-linux_x86_64.whl")
        let reason = try XCTUnwrap(out["reason"] as? String)
        XCTAssertTrue(reason.contains("libswiftCore.so"), reason)
        XCTAssertTrue(reason.hasSuffix("which manylinux does not promise"), reason)
    }

    func testVersionsMapToPEP440AndOthersAreRefused() throws {
        let out = try python("""
        out["mapped"] = [w.pep440_version(v) for v in ["0.1.0", "1.2.3-alpha.1", "1.2.3-beta.2", "10.0.0-rc.3"]]
        refused = []
        for v in ["1.2", "v1.2.3", "1.2.3-preview.1", "1.2.3-beta", "01.2.3"]:
            try:
                w.pep440_version(v)
            except ValueError:
                refused.append(v)
        out["refused"] = refused
        """)
        XCTAssertEqual(out["mapped"] as? [String], ["0.1.0", "1.2.3a1", "1.2.3b2", "10.0.0rc3"])
        XCTAssertEqual(out["refused"] as? [String], ["1.2", "v1.2.3", "1.2.3-preview.1", "1.2.3-beta", "01.2.3"])
    }

    func testThePreCommitPlaceholderIsAnEmptyPureWheelOfTheRepositorysVersion() throws {
        let out = try python("""
        os.chdir(root)
        out["requires"] = w.get_requires_for_build_wheel()
        out["wheel"] = describe(os.path.join(tmp, w.build_wheel(tmp)))
        """)
        XCTAssertEqual(out["requires"] as? [String], [])
        let wheel = try XCTUnwrap(out["wheel"] as? [String: Any])
        let version = try XCTUnwrap(Self.repositoryVersion())
        XCTAssertEqual(wheel["file"] as? String, "entitlint_pre_commit_hook-\(version)-py3-none-any.whl")
        let info = "entitlint_pre_commit_hook-\(version).dist-info"
        XCTAssertEqual(wheel["names"] as? [String], ["\(info)/METADATA", "\(info)/WHEEL", "\(info)/RECORD"])
        XCTAssertEqual(wheel["badRecord"] as? [String], [])
        XCTAssertTrue((wheel["wheel"] as? String ?? "").contains("Root-Is-Purelib: true\nTag: py3-none-any\n"))
    }

    /// The version the pyproject.toml's backend reads, from the same line release.sh reads.
    static func repositoryVersion() throws -> String? {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Sources/EntitlintCore/Version.swift"), encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.contains("static let current = \"") }) else { return nil }
        return line.split(separator: "\"").dropFirst().first.map(String.init)
    }
}
