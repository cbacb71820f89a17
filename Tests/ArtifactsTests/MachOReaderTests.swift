import EntitlintCore
import PropertyList
import Provisioning
import XCTest
@testable import Artifacts

/// The Mach-O reader on files the writers build.
final class MachOReaderTests: XCTestCase {
    static let entitlements = Plist.xml("<key>application-identifier</key><string>ABCDE12345.com.example.App</string><key>keychain-access-groups</key><array><string>ABCDE12345.com.example.App</string></array><key>get-task-allow</key><false/>")
    static var der: [UInt8] { DERWriter.entitlements(Plist.parse("<key>application-identifier</key><string>ABCDE12345.com.example.App</string><key>keychain-access-groups</key><array><string>ABCDE12345.com.example.App</string></array><key>get-task-allow</key><false/>")) }

    func read(_ bytes: [UInt8]) throws -> MachOFile {
        try MachOReader.read(ArrayBytes(storage: bytes), maxBlob: 1 << 20)
    }

    func readError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> ArtifactError? {
        do {
            let f = try read(bytes)
            return f.slices.compactMap(\.error).first
        } catch let e as ArtifactError {
            return e
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
            return nil
        }
    }

    func testThinSignedBinaryGivesBothSlots() throws {
        let file = try read(MachOWriter(xmlEntitlements: Self.entitlements, derEntitlements: Self.der).bytes())
        XCTAssertFalse(file.isFat)
        XCTAssertEqual(file.slices.count, 1)
        let s = file.slices[0]
        XCTAssertEqual(s.architecture, "arm64")
        XCTAssertTrue(s.isSigned)
        XCTAssertEqual(s.xmlEntitlements, Self.entitlements)
        XCTAssertEqual(s.derEntitlements, Self.der)
        XCTAssertNil(s.simulatorEntitlements)
    }

    func testDEREntitlementsDecodeToTheXMLTree() throws {
        let decoded = try DEREntitlements.decode(Self.der)
        let xml = try PropertyListReader.parse(Self.entitlements).root
        XCTAssertTrue(PlistComparison.equal(decoded, xml), "\(PlistComparison.differences(decoded, xml))")
        let nested = Plist.parse("<key>a</key><dict><key>n</key><integer>-300</integer><key>list</key><array><true/><string>é</string></array></dict>")
        XCTAssertTrue(PlistComparison.equal(try DEREntitlements.decode(DERWriter.entitlements(nested)), nested))
    }

    func testUnsignedBinaryHasNoEntitlements() throws {
        let s = try read(MachOWriter(signed: false).bytes()).slices[0]
        XCTAssertFalse(s.isSigned)
        XCTAssertNil(s.xmlEntitlements)
        XCTAssertNil(s.derEntitlements)
    }

    func testSimulatorSectionIsRead() throws {
        for is64 in [true, false] {
            let s = try read(MachOWriter(cpuType: is64 ? 0x0100_0007 : 7, simulatorEntitlements: Self.entitlements, signed: false, is64: is64).bytes()).slices[0]
            XCTAssertEqual(s.simulatorEntitlements, Self.entitlements)
            XCTAssertEqual(s.architecture, is64 ? "x86_64" : "i386")
        }
    }

    func testBigEndian32BitBinary() throws {
        let s = try read(MachOWriter(cpuType: 0x12, xmlEntitlements: Self.entitlements, bigEndian: true, is64: false).bytes()).slices[0]
        XCTAssertEqual(s.architecture, "ppc")
        XCTAssertEqual(s.xmlEntitlements, Self.entitlements)
    }

    func testFatBinaryReadsEverySlice() throws {
        for magic64 in [false, true] {
            let arm = MachOWriter(xmlEntitlements: Self.entitlements, derEntitlements: Self.der).bytes()
            let x86 = MachOWriter(cpuType: 0x0100_0007, cpuSubtype: 3, xmlEntitlements: Self.entitlements).bytes()
            let file = try read(MachOWriter.fat([(0x0100_0007, 3, x86), (0x0100_000c, 2, arm)], magic64: magic64))
            XCTAssertTrue(file.isFat)
            XCTAssertEqual(file.slices.map(\.architecture), ["x86_64", "arm64"])
            XCTAssertEqual(file.slices.map(\.xmlEntitlements), [Self.entitlements, Self.entitlements])
            XCTAssertNil(file.slices[0].derEntitlements)
            XCTAssertEqual(file.slices[1].derEntitlements, Self.der)
        }
    }

    func testJavaClassFileIsNotMachO() {
        // 0xcafebabe, then minor 0 and major 52 (Java 8): 52 "architectures" is implausible.
        XCTAssertFalse(MachOReader.looksLikeMachO([0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x34]))
        XCTAssertTrue(MachOReader.looksLikeMachO([0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x02]))
        XCTAssertTrue(MachOReader.looksLikeMachO([0xcf, 0xfa, 0xed, 0xfe, 0x0c, 0x00, 0x00, 0x01]))
        XCTAssertFalse(MachOReader.looksLikeMachO(Array("<?xml ve".utf8)))
    }

    // MARK: - Hostile input, each named for the attack

    func put32(_ bytes: inout [UInt8], _ at: Int, _ v: UInt32, big: Bool = false) {
        let b = MachOWriter().u32(v, big: big)
        for i in 0..<4 { bytes[at + i] = b[i] }
    }

    func testTruncatedHeader() {
        let full = MachOWriter(xmlEntitlements: Self.entitlements).bytes()
        for n in [0, 4, 7, 20, 31] {
            XCTAssertNotNil(readError(Array(full.prefix(n))), "\(n) bytes")
        }
    }

    func testTruncatedSignature() {
        let full = MachOWriter(xmlEntitlements: Self.entitlements).bytes()
        XCTAssertEqual(readError(Array(full.dropLast(10)))?.code, .outOfBounds)
    }

    func testFatHeaderClaimingThousandsOfArchitectures() {
        var bytes = MachOWriter.fat([(0x0100_000c, 0, MachOWriter(xmlEntitlements: Self.entitlements).bytes())])
        put32(&bytes, 4, 5000, big: true)
        XCTAssertEqual(readError(bytes)?.code, .implausibleCount)
    }

    func testFatSliceOutsideTheFile() {
        var bytes = MachOWriter.fat([(0x0100_000c, 0, MachOWriter(xmlEntitlements: Self.entitlements).bytes())])
        put32(&bytes, 16, 0xffff_fff0, big: true)   // offset of slice 0
        XCTAssertEqual(readError(bytes)?.code, .outOfBounds)
    }

    func testOverlappingFatSlices() throws {
        let slice = MachOWriter(xmlEntitlements: Self.entitlements).bytes()
        var bytes = MachOWriter.fat([(0x0100_000c, 0, slice), (0x0100_0007, 3, slice)])
        put32(&bytes, 8 + 20 + 8, 4096, big: true)   // slice 1 starts where slice 0 does
        let file = try read(bytes)
        XCTAssertNil(file.slices[0].error)
        XCTAssertEqual(file.slices[1].error?.code, .outOfBounds)
    }

    func testHugeLoadCommandCount() {
        var bytes = MachOWriter(xmlEntitlements: Self.entitlements).bytes()
        put32(&bytes, 16, 0x7fff_ffff)   // ncmds
        XCTAssertEqual(readError(bytes)?.code, .implausibleCount)
    }

    func testLoadCommandsPastTheEnd() {
        var bytes = MachOWriter(xmlEntitlements: Self.entitlements).bytes()
        put32(&bytes, 20, 0x7fff_0000)   // sizeofcmds
        XCTAssertEqual(readError(bytes)?.code, .outOfBounds)
    }

    func testZeroSizedLoadCommand() {
        var bytes = MachOWriter(xmlEntitlements: Self.entitlements).bytes()
        put32(&bytes, 32 + 4, 0)   // cmdsize of the first command: would loop forever if trusted
        XCTAssertEqual(readError(bytes)?.code, .malformed)
    }

    func testCodeSignaturePointingOutsideTheFile() {
        var bytes = MachOWriter(xmlEntitlements: Self.entitlements).bytes()
        put32(&bytes, 32 + 8, 0x7fff_fff0)   // LC_CODE_SIGNATURE dataoff
        XCTAssertEqual(readError(bytes)?.code, .outOfBounds)
    }

    func signatureStart(_ bytes: [UInt8]) -> Int { Int(bytes.u32(32 + 8, bigEndian: false)) }

    func testSuperBlobWithHugeBlobCount() {
        var bytes = MachOWriter(xmlEntitlements: Self.entitlements).bytes()
        put32(&bytes, signatureStart(bytes) + 8, 0x1000_0000, big: true)
        XCTAssertEqual(readError(bytes)?.code, .implausibleCount)
    }

    func testSuperBlobLongerThanTheSignature() {
        var bytes = MachOWriter(xmlEntitlements: Self.entitlements).bytes()
        put32(&bytes, signatureStart(bytes) + 4, 0x7fff_ffff, big: true)
        XCTAssertEqual(readError(bytes)?.code, .outOfBounds)
    }

    func testBlobOffsetOutsideTheSuperBlob() {
        var bytes = MachOWriter(xmlEntitlements: Self.entitlements).bytes()
        put32(&bytes, signatureStart(bytes) + 12 + 8 + 4, 0x00ff_ffff, big: true)   // index[1].offset (slot 5)
        XCTAssertEqual(readError(bytes)?.code, .outOfBounds)
    }

    func testBlobLengthLying() {
        var bytes = MachOWriter(xmlEntitlements: Self.entitlements).bytes()
        let start = signatureStart(bytes)
        let offset = Int(bytes.u32(start + 12 + 8 + 4, bigEndian: true))
        put32(&bytes, start + offset + 4, 0x7fff_ffff, big: true)
        XCTAssertEqual(readError(bytes)?.code, .outOfBounds)
    }

    func testBlobWithTheWrongMagic() {
        var bytes = MachOWriter(xmlEntitlements: Self.entitlements).bytes()
        let start = signatureStart(bytes)
        let offset = Int(bytes.u32(start + 12 + 8 + 4, bigEndian: true))
        put32(&bytes, start + offset, 0xfade_0c02, big: true)
        XCTAssertEqual(readError(bytes)?.code, .malformed)
    }

    func testSimulatorSectionOutsideTheFile() {
        var bytes = MachOWriter(simulatorEntitlements: Self.entitlements, signed: false).bytes()
        put32(&bytes, 32 + 72 + 48, 0x7fff_0000)   // section offset
        XCTAssertEqual(readError(bytes)?.code, .outOfBounds)
    }

    func testEntitlementsBlobAboveTheLimit() {
        let bytes = MachOWriter(xmlEntitlements: Self.entitlements).bytes()
        XCTAssertThrowsError(try MachOReader.read(ArrayBytes(storage: bytes), maxBlob: 16)) { error in
            XCTAssertEqual((error as? ArtifactError)?.code, .tooLarge)
        }
    }

    func testEveryTruncationIsAnErrorNotACrash() {
        let full = MachOWriter.fat([(0x0100_000c, 0, MachOWriter(xmlEntitlements: Self.entitlements, derEntitlements: Self.der).bytes())])
        for n in stride(from: 0, to: full.count, by: 97) {
            _ = readError(Array(full.prefix(n)))
        }
    }

    // MARK: - DER entitlements

    func testDamagedDEREntitlements() {
        XCTAssertThrowsError(try DEREntitlements.decode([]))
        XCTAssertThrowsError(try DEREntitlements.decode(Array(Self.der.dropLast(3))))
        XCTAssertThrowsError(try DEREntitlements.decode([0x30, 0x00]))   // a SEQUENCE, not [APPLICATION 16]
        // An OCTET STRING where a value should be.
        let bad = DERWriter.tlv(0x70, DERWriter.integer(1) + DERWriter.tlv(0xb0, DERWriter.tlv(0x30, DERWriter.utf8("k") + DERWriter.tlv(0x04, [1]))))
        XCTAssertThrowsError(try DEREntitlements.decode(bad)) { error in
            XCTAssertTrue("\(error)".contains("k"), "\(error)")
        }
        // Invalid UTF-8 in a key.
        let badKey = DERWriter.tlv(0x70, DERWriter.integer(1) + DERWriter.tlv(0xb0, DERWriter.tlv(0x30, DERWriter.tlv(0x0c, [0xff, 0xfe]) + DERWriter.utf8("v"))))
        XCTAssertThrowsError(try DEREntitlements.decode(badKey))
    }

    func testDeeplyNestedDERIsRefused() {
        var v = DERWriter.utf8("x")
        for _ in 0..<200 { v = DERWriter.tlv(0x30, v) }
        let blob = DERWriter.tlv(0x70, DERWriter.integer(1) + DERWriter.tlv(0xb0, DERWriter.tlv(0x30, DERWriter.utf8("k") + v)))
        XCTAssertThrowsError(try DEREntitlements.decode(blob))
    }
}
