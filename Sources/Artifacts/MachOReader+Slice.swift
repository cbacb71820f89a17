// One thin Mach-O slice: its header, its load commands (the code signature's place and a simulator
// build's `__TEXT,__entitlements` section), each checked against the slice before it is read.

extension MachOReader {
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
        let (signature, section) = try loadCommands(commands, count: ncmds, size: sizeofcmds, bigEndian: bigEndian, arch: arch)
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

    /// Walks the `ncmds` load commands in `commands` (`sizeofcmds` bytes), each checked to lie
    /// inside them, for the code signature's place (`dataoff`, `datasize`) and a simulator
    /// build's `__TEXT,__entitlements` section (`offset`, `size`); the caller checks both against
    /// the slice.
    private static func loadCommands(_ commands: [UInt8], count ncmds: Int, size sizeofcmds: Int, bigEndian: Bool, arch: String)
        throws(ArtifactError) -> (signature: (Int, Int)?, section: (Int, Int)?) {
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
        return (signature, section)
    }
}
