import Foundation
import PropertyList
import XCTest

/// Small writers for the built products the tests lint: DER entitlements,
/// Mach-O files (thin, fat, signed or not, simulator section), `.app` folders and `.ipa` zips.
/// Nothing from Apple's toolchain is needed; layouts follow `<mach-o/loader.h>`, `<mach-o/fat.h>`
/// and the SuperBlob of keychain-access-groups.md section 7.
enum DERWriter {
    static func tlv(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
        var out = [tag]
        if body.count < 128 {
            out.append(UInt8(body.count))
        } else {
            var n = body.count
            var len: [UInt8] = []
            while n > 0 { len.insert(UInt8(n & 0xff), at: 0); n >>= 8 }
            out.append(0x80 | UInt8(len.count))
            out += len
        }
        return out + body
    }

    static func integer(_ v: Int64) -> [UInt8] {
        var bytes = withUnsafeBytes(of: v.bigEndian, Array.init)
        while bytes.count > 1, (bytes[0] == 0 && bytes[1] & 0x80 == 0) || (bytes[0] == 0xff && bytes[1] & 0x80 != 0) {
            bytes.removeFirst()
        }
        return tlv(0x02, bytes)
    }

    static func utf8(_ s: String) -> [UInt8] { tlv(0x0c, Array(s.utf8)) }

    /// `[APPLICATION 16] { INTEGER 1, [CONTEXT 16] { SEQUENCE { key, value } ... } }`.
    static func entitlements(_ root: PlistNode) -> [UInt8] {
        tlv(0x70, integer(1) + value(root))
    }

    static func value(_ node: PlistNode) -> [UInt8] {
        switch node.value {
        case .string(let s): return utf8(s)
        case .bool(let b): return tlv(0x01, [b ? 0xff : 0x00])
        case .integer(let i): return integer(i.int64 ?? 0)
        case .array(let items): return tlv(0x30, items.flatMap(value))
        case .dict(let d):
            // DER sorts the pairs of a SET OF by their encodings (X.690 11.6).
            let pairs = d.keys.map { tlv(0x30, utf8($0) + value(d[$0]!)) }.sorted { $0.lexicographicallyPrecedes($1) }
            return tlv(0xb0, pairs.flatMap { $0 })
        default:
            fatalError("DER entitlements cannot hold \(node.value.typeName)")
        }
    }
}

/// A thin Mach-O (64-bit, little-endian unless told otherwise).
struct MachOWriter {
    var cpuType: UInt32 = 0x0100_000c   // arm64
    var cpuSubtype: UInt32 = 0
    var xmlEntitlements: [UInt8]?
    var derEntitlements: [UInt8]?
    var simulatorEntitlements: [UInt8]?
    /// Slot 0x10000: the CMS signature in a blob wrapper (`SignatureWriter`); `[]` for an ad hoc
    /// signature's empty wrapper, nil for none.
    var cmsSignature: [UInt8]?
    var signed = true
    /// Bytes of filler between the load commands and the signature (a big "code" section).
    var padding = 256
    var bigEndian = false
    var is64 = true

    func u32(_ v: UInt32, big: Bool) -> [UInt8] {
        big ? [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)]
            : [UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24)]
    }
    func u64(_ v: UInt64, big: Bool) -> [UInt8] {
        big ? u32(UInt32(v >> 32), big: true) + u32(UInt32(v & 0xffff_ffff), big: true)
            : u32(UInt32(v & 0xffff_ffff), big: false) + u32(UInt32(v >> 32), big: false)
    }
    func name16(_ s: String) -> [UInt8] { Array(s.utf8) + [UInt8](repeating: 0, count: 16 - s.utf8.count) }

    /// The SuperBlob: a CodeDirectory stand-in (slot 0), then slots 5, 7 and 0x10000 when given.
    func superBlob() -> [UInt8] {
        var blobs: [(UInt32, [UInt8])] = [(0, u32(0xfade_0c02, big: true) + u32(16, big: true) + [UInt8](repeating: 0, count: 8))]
        if let x = xmlEntitlements { blobs.append((5, u32(0xfade_7171, big: true) + u32(UInt32(x.count + 8), big: true) + x)) }
        if let d = derEntitlements { blobs.append((7, u32(0xfade_7172, big: true) + u32(UInt32(d.count + 8), big: true) + d)) }
        if let c = cmsSignature { blobs.append((0x10000, u32(0xfade_0b01, big: true) + u32(UInt32(c.count + 8), big: true) + c)) }
        var offset = 12 + blobs.count * 8
        var index: [UInt8] = []
        var body: [UInt8] = []
        for (slot, blob) in blobs {
            index += u32(slot, big: true) + u32(UInt32(offset), big: true)
            body += blob
            offset += blob.count
        }
        return u32(0xfade_0cc0, big: true) + u32(UInt32(offset), big: true) + u32(UInt32(blobs.count), big: true) + index + body
    }

    func bytes() -> [UInt8] {
        let big = bigEndian
        let headerSize = is64 ? 32 : 28
        var commandsSize = 0
        if simulatorEntitlements != nil { commandsSize += is64 ? 72 + 80 : 56 + 68 }
        if signed { commandsSize += 16 }
        let sectionOffset = headerSize + commandsSize + padding
        let section = simulatorEntitlements ?? []
        var signatureOffset = sectionOffset + section.count
        signatureOffset = (signatureOffset + 15) / 16 * 16
        let signature = signed ? superBlob() : []

        var out = u32(is64 ? 0xfeed_facf : 0xfeed_face, big: big) + u32(cpuType, big: big) + u32(cpuSubtype, big: big)
            + u32(2, big: big) + u32(UInt32((simulatorEntitlements != nil ? 1 : 0) + (signed ? 1 : 0)), big: big)
            + u32(UInt32(commandsSize), big: big) + u32(0, big: big)
        if is64 { out += u32(0, big: big) }
        if let sim = simulatorEntitlements {
            if is64 {
                out += u32(0x19, big: big) + u32(72 + 80, big: big) + name16("__TEXT") + u64(0, big: big) + u64(0, big: big)
                    + u64(0, big: big) + u64(UInt64(sectionOffset + sim.count), big: big) + u32(5, big: big) + u32(5, big: big)
                    + u32(1, big: big) + u32(0, big: big)
                out += name16("__entitlements") + name16("__TEXT") + u64(0, big: big) + u64(UInt64(sim.count), big: big)
                    + u32(UInt32(sectionOffset), big: big) + [UInt8](repeating: 0, count: 28)
            } else {
                out += u32(0x1, big: big) + u32(56 + 68, big: big) + name16("__TEXT") + u32(0, big: big) + u32(0, big: big)
                    + u32(0, big: big) + u32(UInt32(sectionOffset + sim.count), big: big) + u32(5, big: big) + u32(5, big: big)
                    + u32(1, big: big) + u32(0, big: big)
                out += name16("__entitlements") + name16("__TEXT") + u32(0, big: big) + u32(UInt32(sim.count), big: big)
                    + u32(UInt32(sectionOffset), big: big) + [UInt8](repeating: 0, count: 24)
            }
        }
        if signed {
            out += u32(0x1d, big: big) + u32(16, big: big) + u32(UInt32(signatureOffset), big: big) + u32(UInt32(signature.count), big: big)
        }
        // Filler that compresses like code, not like zeros.
        var x: UInt32 = 0x1234_5678
        for _ in 0..<padding {
            x = x &* 1_664_525 &+ 1_013_904_223
            out.append(UInt8(x >> 24))
        }
        out += section
        out += [UInt8](repeating: 0, count: signatureOffset - out.count)
        out += signature
        return out
    }

    /// A fat file of the given slices, each at a 4096-byte boundary.
    static func fat(_ slices: [(cpu: UInt32, sub: UInt32, bytes: [UInt8])], magic64: Bool = false) -> [UInt8] {
        let w = MachOWriter()
        var header = w.u32(magic64 ? 0xcafe_babf : 0xcafe_babe, big: true) + w.u32(UInt32(slices.count), big: true)
        var offset = 4096
        var body: [UInt8] = []
        for s in slices {
            header += w.u32(s.cpu, big: true) + w.u32(s.sub, big: true)
            if magic64 {
                header += w.u64(UInt64(offset), big: true) + w.u64(UInt64(s.bytes.count), big: true) + w.u32(12, big: true) + w.u32(0, big: true)
            } else {
                header += w.u32(UInt32(offset), big: true) + w.u32(UInt32(s.bytes.count), big: true) + w.u32(12, big: true)
            }
            body += [UInt8](repeating: 0, count: offset - 4096 - body.count) + s.bytes
            offset = (4096 + body.count + 4095) / 4096 * 4096
        }
        return header + [UInt8](repeating: 0, count: 4096 - header.count) + body
    }
}

enum Plist {
    /// An XML plist whose root dict has this body.
    static func xml(_ body: String) -> [UInt8] {
        Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(body)
        </dict>
        </plist>

        """.utf8)
    }

    static func parse(_ body: String) -> PlistNode {
        try! PropertyListReader.parse(xml(body)).root
    }

    static func info(bundleID: String, executable: String) -> [UInt8] {
        xml("<key>CFBundleIdentifier</key><string>\(bundleID)</string><key>CFBundleExecutable</key><string>\(executable)</string>")
    }

    /// A plain-plist profile: App ID, team, expiry, kind (devices), entitlements body.
    static func profile(appID: String, team: String = "ABCDE12345", expires: String = "2030-01-01T00:00:00Z",
                        devices: Bool = false, macOS: Bool = false, entitlements: String) -> [UInt8] {
        let appIDKey = macOS ? "com.apple.application-identifier" : "application-identifier"
        return xml("""
        <key>Name</key><string>Test Profile</string>
        <key>UUID</key><string>11111111-2222-3333-4444-555555555555</string>
        <key>TeamIdentifier</key><array><string>\(team)</string></array>
        <key>ApplicationIdentifierPrefix</key><array><string>\(team)</string></array>
        <key>Platform</key><array><string>\(macOS ? "OSX" : "iOS")</string></array>
        <key>ExpirationDate</key><date>\(expires)</date>
        \(devices ? "<key>ProvisionedDevices</key><array><string>00008030-001A2B3C4D5E6F70</string></array>" : "")
        <key>Entitlements</key><dict><key>\(appIDKey)</key><string>\(appID)</string>\(entitlements)</dict>
        """)
    }
}

/// Files of a product, by relative path.
typealias FileMap = [String: [UInt8]]

enum ProductWriter {
    /// Writes the files under `root` (a fresh folder).
    static func folder(_ files: FileMap, at root: URL) throws {
        for (path, bytes) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
    }

    /// Writes a zip with the files (deflated, unless `stored`) in path order.
    static func zip(_ files: FileMap, at url: URL, stored: Bool = false) throws {
        var writer = ZipWriter()
        for path in files.keys.sorted() { writer.add(path, files[path]!, stored: stored) }
        try Data(writer.finish()).write(to: url)
    }

    /// An iOS app bundle's files under `prefix` (`Payload/App.app`).
    static func iOSApp(_ prefix: String, name: String, bundleID: String, binary: [UInt8], profile: [UInt8]?) -> FileMap {
        var files: FileMap = ["\(prefix)/Info.plist": Plist.info(bundleID: bundleID, executable: name), "\(prefix)/\(name)": binary]
        if let profile { files["\(prefix)/embedded.mobileprovision"] = profile }
        return files
    }

    /// A macOS app bundle's files under `prefix` (`Contents/` layout).
    static func macOSApp(_ prefix: String, name: String, bundleID: String, binary: [UInt8], profile: [UInt8]?) -> FileMap {
        var files: FileMap = ["\(prefix)/Contents/Info.plist": Plist.info(bundleID: bundleID, executable: name),
                              "\(prefix)/Contents/MacOS/\(name)": binary]
        if let profile { files["\(prefix)/Contents/embedded.provisionprofile"] = profile }
        return files
    }
}

extension XCTestCase {
    /// A fresh temporary folder, removed after the test.
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("entitlint-artifacts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
