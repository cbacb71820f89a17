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

    /// One thin Mach-O at `offset` (`size` bytes): header, load commands, code signature.
    static func readSlice(_ source: some ByteSource, offset: Int, size: Int, maxBlob: Int) throws(ArtifactError) -> MachOSlice {
        guard size >= 28 else { throw ArtifactError(.truncated, "a \(size)-byte slice is too short for a Mach-O header") }
        let head = try source.bytes(at: offset, count: min(32, size))
        let le = head.u32(0, bigEndian: false)
        let bigEndian: Bool
        let is64: Bool
        switch le {
        case magic32: (bigEndian, is64) = (false, false)
        case magic64: (bigEndian, is64) = (false, true)
        default:
            switch head.u32(0, bigEndian: true) {
            case magic32: (bigEndian, is64) = (true, false)
            case magic64: (bigEndian, is64) = (true, true)
            default: throw ArtifactError(.notMachO, "the slice at offset \(offset) is not a Mach-O (magic 0x\(String(le, radix: 16)))")
            }
        }
        let headerSize = is64 ? 32 : 28
        guard size >= headerSize else { throw ArtifactError(.truncated, "a \(size)-byte slice is too short for its header") }
        let cpu = head.u32(4, bigEndian: bigEndian)
        let sub = head.u32(8, bigEndian: bigEndian)
        let ncmds = Int(head.u32(16, bigEndian: bigEndian))
        let sizeofcmds = Int(head.u32(20, bigEndian: bigEndian))
        let arch = architectureName(cpu, sub)
        guard sizeofcmds <= size - headerSize else {
            throw ArtifactError(.outOfBounds, "the \(arch) load commands (\(sizeofcmds) bytes) run past the end of the \(size)-byte slice")
        }
        guard ncmds <= sizeofcmds / 8 else {
            throw ArtifactError(.implausibleCount, "the \(arch) header claims \(ncmds) load commands in \(sizeofcmds) bytes (each takes at least 8)")
        }
        let commands = try source.bytes(at: offset + headerSize, count: sizeofcmds)
        var slice = MachOSlice(architecture: arch, offset: offset, size: size, is64Bit: is64, isSigned: false)
        var signature: (Int, Int)?
        var section: (Int, Int)?
        var at = 0
        for i in 0..<ncmds {
            guard at + 8 <= sizeofcmds else {
                throw ArtifactError(.outOfBounds, "\(arch) load command \(i) starts past the end of the load commands")
            }
            let cmd = commands.u32(at, bigEndian: bigEndian)
            let cmdsize = Int(commands.u32(at + 4, bigEndian: bigEndian))
            guard cmdsize >= 8, cmdsize <= sizeofcmds - at else {
                throw ArtifactError(.malformed, "\(arch) load command \(i) (0x\(String(cmd, radix: 16))) has size \(cmdsize), outside the load commands")
            }
            if cmd == lcCodeSignature {
                guard cmdsize >= 16 else { throw ArtifactError(.malformed, "\(arch) LC_CODE_SIGNATURE is \(cmdsize) bytes, not 16") }
                guard signature == nil else { throw ArtifactError(.malformed, "\(arch) has two LC_CODE_SIGNATURE commands") }
                signature = (Int(commands.u32(at + 8, bigEndian: bigEndian)), Int(commands.u32(at + 12, bigEndian: bigEndian)))
            } else if cmd == lcSegment64 || cmd == lcSegment {
                let wide = cmd == lcSegment64
                let fixed = wide ? 72 : 56
                let sectSize = wide ? 80 : 68
                guard cmdsize >= fixed else { throw ArtifactError(.malformed, "\(arch) segment command \(i) is \(cmdsize) bytes, shorter than its header") }
                if commands.name16(at + 8) == "__TEXT" {
                    let nsects = Int(commands.u32(at + (wide ? 64 : 48), bigEndian: bigEndian))
                    guard nsects <= (cmdsize - fixed) / sectSize else {
                        throw ArtifactError(.implausibleCount, "\(arch) __TEXT claims \(nsects) sections in a \(cmdsize)-byte command")
                    }
                    for s in 0..<nsects {
                        let base = at + fixed + s * sectSize
                        guard commands.name16(base) == "__entitlements" else { continue }
                        let secSize = wide ? commands.u64(base + 40, bigEndian: bigEndian) : UInt64(commands.u32(base + 36, bigEndian: bigEndian))
                        let secOffset = Int(commands.u32(base + (wide ? 48 : 40), bigEndian: bigEndian))
                        guard let n = Int(exactly: secSize) else { throw ArtifactError(.outOfBounds, "\(arch) __TEXT,__entitlements is too large") }
                        section = (secOffset, n)
                    }
                }
            }
            at += cmdsize
        }
        if let (dataoff, datasize) = signature {
            slice.isSigned = true
            guard dataoff <= size, datasize <= size - dataoff else {
                throw ArtifactError(.outOfBounds, "the \(arch) code signature (offset \(dataoff), \(datasize) bytes) lies outside the \(size)-byte slice")
            }
            let blobs = try CodeSignature.blobs(source, at: offset + dataoff, size: datasize, maxBlob: maxBlob, arch: arch)
            slice.xmlEntitlements = blobs.xml
            slice.derEntitlements = blobs.der
            slice.cmsSignature = blobs.cms
        }
        if let (secOffset, n) = section {
            guard secOffset <= size, n <= size - secOffset else {
                throw ArtifactError(.outOfBounds, "the \(arch) __TEXT,__entitlements section (offset \(secOffset), \(n) bytes) lies outside the slice")
            }
            guard n <= maxBlob else { throw ArtifactError(.tooLarge, "the \(arch) __TEXT,__entitlements section is \(n) bytes (limit \(maxBlob))") }
            slice.simulatorEntitlements = try source.bytes(at: offset + secOffset, count: n)
        }
        return slice
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

/// The code signature: a SuperBlob of blobs, all big-endian (keychain-access-groups.md section 7):
///
///     SuperBlob { magic 0xfade0cc0, length, count, index[count] { type, offset } }
///     Blob      { magic, length (header included), payload }
///
/// `offset` is from the start of the SuperBlob; slot 5 holds the XML entitlements blob
/// (`0xfade7171`), slot 7 the DER entitlements blob (`0xfade7172`), and slot `0x10000`
/// (`CSSLOT_SIGNATURESLOT`, `<Security/CSCommonPriv.h>`) a blob wrapper (`CSMAGIC_BLOBWRAPPER`,
/// `0xfade0b01`) whose payload is the CMS signature (`CodeSignatureCMS`): empty for an ad hoc
/// signature.
enum CodeSignature {
    static let superBlobMagic: UInt32 = 0xfade_0cc0
    static let xmlMagic: UInt32 = 0xfade_7171
    static let derMagic: UInt32 = 0xfade_7172
    static let blobWrapperMagic: UInt32 = 0xfade_0b01
    static let signatureSlot: UInt32 = 0x10000

    /// The payloads of slots 5, 7 and `0x10000`, each checked against the SuperBlob and `maxBlob`.
    static func blobs(_ source: some ByteSource, at start: Int, size: Int, maxBlob: Int, arch: String)
        throws(ArtifactError) -> (xml: [UInt8]?, der: [UInt8]?, cms: [UInt8]?) {
        guard size >= 12 else { throw ArtifactError(.truncated, "the \(arch) code signature is \(size) bytes, too short for a SuperBlob") }
        let header = try source.bytes(at: start, count: 12)
        let magic = header.u32(0, bigEndian: true)
        guard magic == superBlobMagic else {
            throw ArtifactError(.malformed, "the \(arch) code signature starts with 0x\(String(magic, radix: 16)), not the SuperBlob magic 0xfade0cc0")
        }
        let length = Int(header.u32(4, bigEndian: true))
        let count = Int(header.u32(8, bigEndian: true))
        guard length >= 12, length <= size else {
            throw ArtifactError(.outOfBounds, "the \(arch) SuperBlob claims \(length) bytes, but LC_CODE_SIGNATURE gives \(size)")
        }
        guard count <= (length - 12) / 8 else {
            throw ArtifactError(.implausibleCount, "the \(arch) SuperBlob claims \(count) blobs in \(length) bytes")
        }
        let index = try source.bytes(at: start + 12, count: count * 8)
        var xml: [UInt8]?
        var der: [UInt8]?
        var cms: [UInt8]?
        for i in 0..<count {
            let type = index.u32(i * 8, bigEndian: true)
            guard type == 5 || type == 7 || type == signatureSlot else { continue }
            let slot = type == signatureSlot ? "0x10000 (CMS signature)" : "\(type)"
            let offset = Int(index.u32(i * 8 + 4, bigEndian: true))
            guard offset >= 12 + count * 8, offset <= length - 8 else {
                throw ArtifactError(.outOfBounds, "the \(arch) slot \(slot) blob offset \(offset) lies outside the \(length)-byte SuperBlob")
            }
            let blobHeader = try source.bytes(at: start + offset, count: 8)
            let blobMagic = blobHeader.u32(0, bigEndian: true)
            let blobLength = Int(blobHeader.u32(4, bigEndian: true))
            let expected = type == 5 ? xmlMagic : type == 7 ? derMagic : blobWrapperMagic
            guard blobMagic == expected else {
                throw ArtifactError(.malformed, "the \(arch) slot \(slot) blob has magic 0x\(String(blobMagic, radix: 16)), expected 0x\(String(expected, radix: 16))")
            }
            guard blobLength >= 8, blobLength <= length - offset else {
                throw ArtifactError(.outOfBounds, "the \(arch) slot \(slot) blob claims \(blobLength) bytes, past the end of the SuperBlob")
            }
            guard blobLength - 8 <= maxBlob else {
                let what = type == signatureSlot ? "CMS signature" : "entitlements"
                throw ArtifactError(.tooLarge, "the \(arch) slot \(slot) \(what) \(type == signatureSlot ? "is" : "are") \(blobLength - 8) bytes (limit \(maxBlob))")
            }
            let payload = try source.bytes(at: start + offset + 8, count: blobLength - 8)
            switch type {
            case 5: xml = payload
            case 7: der = payload
            default: cms = payload
            }
        }
        return (xml, der, cms)
    }
}
