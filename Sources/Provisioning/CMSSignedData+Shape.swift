internal import SwiftASN1

// The shape checks of a CMS SignedData: each node's tag and form (constructed or primitive), the end
// of a sequence, and the concatenated octets of an OCTET STRING.

extension CMSSignedData {
    // MARK: - Shape checks

    /// The children of a constructed node with tag `identifier`.
    static func children(of node: ASN1Node?, expecting identifier: ASN1Identifier, _ what: String) throws(ProfileError) -> ASN1NodeCollection.Iterator {
        guard let node else {
            throw ProfileError(.malformedCMS, "\(what) is missing")
        }
        guard node.identifier == identifier, case .constructed(let nodes) = node.content else {
            throw ProfileError(.malformedCMS, "\(what): expected a constructed \(name(identifier)), found \(describe(node))")
        }
        return nodes.makeIterator()
    }

    static func primitive(_ node: ASN1Node?, expecting identifier: ASN1Identifier, _ what: String) throws(ProfileError) {
        guard let node else {
            throw ProfileError(.malformedCMS, "\(what) is missing")
        }
        guard node.identifier == identifier, case .primitive = node.content else {
            throw ProfileError(.malformedCMS, "\(what): expected a primitive \(name(identifier)), found \(describe(node))")
        }
    }

    static func oid(_ node: ASN1Node?, _ what: String) throws(ProfileError) -> ASN1ObjectIdentifier {
        try primitive(node, expecting: .objectIdentifier, what)
        do {
            return try ASN1ObjectIdentifier(berEncoded: node!)
        } catch {
            throw ProfileError(.malformedCMS, "\(what) is not a valid OBJECT IDENTIFIER: \(reason(error))")
        }
    }

    static func expectEnd(_ iterator: inout ASN1NodeCollection.Iterator, _ what: String) throws(ProfileError) {
        if let extra = iterator.next() {
            throw ProfileError(.malformedCMS, "\(what) has an unexpected extra element: \(describe(extra))")
        }
    }

    /// Appends the octets of an OCTET STRING, primitive or constructed (X.690 8.7.3: every piece
    /// of a constructed OCTET STRING is itself an OCTET STRING, primitive or constructed).
    /// Returns true if any part was constructed. The recursion is bounded by the parser's depth
    /// limit (50) on the tree it walks.
    static func appendOctets(of node: ASN1Node, to out: inout [UInt8], _ what: String) throws(ProfileError) -> Bool {
        guard node.identifier == .octetString else {
            throw ProfileError(.malformedCMS, "\(what): expected an OCTET STRING, found \(describe(node))")
        }
        switch node.content {
        case .primitive(let bytes):
            out.append(contentsOf: bytes)
        case .constructed(let pieces):
            for piece in pieces {
                _ = try appendOctets(of: piece, to: &out, "a piece of the constructed OCTET STRING in \(what)")
            }
            return true
        }
        return false
    }
}
