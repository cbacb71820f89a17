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
