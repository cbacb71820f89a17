/// A Mach-O file's slices and the entitlements signed into each (keychain-access-groups.md section 7).
///
/// Layouts, from `<mach-o/fat.h>` and `<mach-o/loader.h>`:
///
/// - fat header (always big-endian): `magic` `0xcafebabe` (`FAT_MAGIC`, 20-byte `fat_arch`
///   entries `cputype, cpusubtype, offset, size, align`) or `0xcafebabf` (`FAT_MAGIC_64`, 32-byte
///   `fat_arch_64` entries with 64-bit `offset` and `size`), then `nfat_arch`;
/// - thin header: `magic` `0xfeedface` (32-bit, 28 bytes) or `0xfeedfacf` (64-bit, 32 bytes), in
///   the file's byte order, then `cputype, cpusubtype, filetype, ncmds, sizeofcmds, flags`;
/// - load commands follow the header: `cmd, cmdsize, ...`; `LC_CODE_SIGNATURE` (`0x1d`) is a
///   `linkedit_data_command` whose `dataoff, datasize` give the code signature's place, from the
///   start of the slice; `LC_SEGMENT` (`0x1`) / `LC_SEGMENT_64` (`0x19`) list sections
///   (`sectname, segname, addr, size, offset, ...`), where a simulator build keeps its
///   entitlements in `__TEXT,__entitlements`.
///
/// Every count, offset and length is checked against the slice and the file before it is used:
/// a lying header is an `ArtifactError`, never a crash or a huge allocation.
public struct MachOFile: Sendable, Hashable {
    public var isFat: Bool
    public var slices: [MachOSlice]
}

/// One architecture of a Mach-O file, with what its code signature holds.
public struct MachOSlice: Sendable, Hashable {
    public var architecture: String
    public var offset: Int
    public var size: Int
    public var is64Bit: Bool
    /// `LC_CODE_SIGNATURE` is present.
    public var isSigned: Bool
    /// Slot 5: the XML entitlements blob's payload (an XML plist).
    public var xmlEntitlements: [UInt8]?
    /// Slot 7: the DER entitlements blob's payload.
    public var derEntitlements: [UInt8]?
    /// A simulator build's `__TEXT,__entitlements` section (an XML plist).
    public var simulatorEntitlements: [UInt8]?
    /// Slot `0x10000`: the blob wrapper's payload, a CMS SignedData (DER) naming the signing
    /// certificate; empty for an ad hoc signature, nil when the slot is absent.
    public var cmsSignature: [UInt8]?
    /// Why this slice could not be read, when it could not (the others may still be fine).
    public var error: ArtifactError?
}

public enum MachOReader {
    static let fatMagic: UInt32 = 0xcafe_babe
    static let fatMagic64: UInt32 = 0xcafe_babf
    static let magic32: UInt32 = 0xfeed_face
    static let magic64: UInt32 = 0xfeed_facf
    static let lcSegment: UInt32 = 0x1
    static let lcSegment64: UInt32 = 0x19
    static let lcCodeSignature: UInt32 = 0x1d

    /// Fat files are capped at this many architectures: Java class files share the magic
    /// `0xcafebabe`, and their version number (45 and up) sits where `nfat_arch` would; `file(1)`
    /// tells them apart the same way.
    static let maxArchitectures: UInt32 = 30

    /// Whether the first 8 bytes look like a Mach-O file (thin or fat).
    public static func looksLikeMachO(_ head: [UInt8]) -> Bool {
        guard head.count >= 4 else { return false }
        let be = head.u32(0, bigEndian: true)
        if be == fatMagic || be == fatMagic64 {
            guard head.count >= 8 else { return false }
            let n = head.u32(4, bigEndian: true)
            return n >= 1 && n <= maxArchitectures
        }
        let le = head.u32(0, bigEndian: false)
        return le == magic32 || le == magic64 || be == magic32 || be == magic64
    }

    /// Reads the file: its slices and their signed entitlements. `maxBlob` bounds any one
    /// entitlements or CMS signature payload (they are a few kilobytes).
    static func read(_ source: some ByteSource, maxBlob: Int) throws(ArtifactError) -> MachOFile {
        guard source.count >= 8 else {
            throw ArtifactError(.truncated, "\(source.count) bytes: too short for a Mach-O header")
        }
        let head = try source.bytes(at: 0, count: 8)
        let be = head.u32(0, bigEndian: true)
        if be == fatMagic || be == fatMagic64 {
            return try readFat(source, is64: be == fatMagic64, maxBlob: maxBlob)
        }
        guard looksLikeMachO(head) else {
            throw ArtifactError(.notMachO, "not a Mach-O file: the magic number is 0x\(String(be, radix: 16))")
        }
        var slice = try readSlice(source, offset: 0, size: source.count, maxBlob: maxBlob)
        slice.offset = 0
        return MachOFile(isFat: false, slices: [slice])
    }

    static func readFat(_ source: some ByteSource, is64: Bool, maxBlob: Int) throws(ArtifactError) -> MachOFile {
        let n = try source.bytes(at: 4, count: 4).u32(0, bigEndian: true)
        guard n >= 1, n <= maxArchitectures else {
            throw ArtifactError(.implausibleCount, "the fat header claims \(n) architectures (at most \(maxArchitectures) are plausible)")
        }
        let entrySize = is64 ? 32 : 20
        let tableSize = Int(n) * entrySize
        try source.check(8, tableSize, "the fat architecture table")
        let table = try source.bytes(at: 8, count: tableSize)
        var ranges: [Range<Int>] = []
        var slices: [MachOSlice] = []
        for i in 0..<Int(n) {
            let e = i * entrySize
            let cpu = table.u32(e, bigEndian: true)
            let sub = table.u32(e + 4, bigEndian: true)
            let offset: UInt64 = is64 ? table.u64(e + 8, bigEndian: true) : UInt64(table.u32(e + 8, bigEndian: true))
            let size: UInt64 = is64 ? table.u64(e + 16, bigEndian: true) : UInt64(table.u32(e + 12, bigEndian: true))
            let arch = architectureName(cpu, sub)
            guard let o = Int(exactly: offset), let s = Int(exactly: size), o >= 8 + tableSize, o <= source.count, s <= source.count - o else {
                slices.append(MachOSlice(architecture: arch, offset: 0, size: 0, is64Bit: false, isSigned: false,
                                         error: ArtifactError(.outOfBounds, "the \(arch) slice (offset \(offset), \(size) bytes) lies outside the \(source.count)-byte file")))
                continue
            }
            if ranges.contains(where: { $0.overlaps(o..<(o + s)) }) {
                slices.append(MachOSlice(architecture: arch, offset: o, size: s, is64Bit: false, isSigned: false,
                                         error: ArtifactError(.outOfBounds, "the \(arch) slice overlaps another slice")))
                continue
            }
            ranges.append(o..<(o + s))
            do throws(ArtifactError) {
                var slice = try readSlice(source, offset: o, size: s, maxBlob: maxBlob)
                slice.architecture = slice.architecture == "unknown" ? arch : slice.architecture
                slices.append(slice)
            } catch {
                if error.code == .needBytes { throw error }
                slices.append(MachOSlice(architecture: arch, offset: o, size: s, is64Bit: false, isSigned: false, error: error))
            }
        }
        return MachOFile(isFat: true, slices: slices)
    }

    /// `arm64`, `arm64e`, `x86_64`, ... from `cputype` / `cpusubtype` (`<mach/machine.h>`).
    static func architectureName(_ cpu: UInt32, _ sub: UInt32) -> String {
        let s = sub & 0x00ff_ffff
        switch cpu {
        case 0x0100_000c: return s == 2 ? "arm64e" : "arm64"
        case 0x0200_000c: return "arm64_32"
        case 0x0000_000c: return s == 11 ? "armv7s" : s == 12 ? "armv7k" : "armv7"
        case 0x0100_0007: return s == 8 ? "x86_64h" : "x86_64"
        case 0x0000_0007: return "i386"
        case 0x0000_0012: return "ppc"
        case 0x0100_0012: return "ppc64"
        default: return "cpu 0x\(String(cpu, radix: 16))"
        }
    }
}
