internal import CLibXML2

extension SAXBuilder {
    /// The SAX2 callbacks, each handing the event to the builder that is the context's user data.
    nonisolated(unsafe) static let handler: xmlSAXHandler = {
        var h = xmlSAXHandler()
        h.initialized = UInt32(XML_SAX2_MAGIC)
        h.startElementNs = { ctx, localname, prefix, _, nbNamespaces, namespaces, nbAttributes, _, attributes in
            guard let localname else { return }
            let quoted = (nbNamespaces > 0 || nbAttributes > 0)
                && SAXBuilder.quotedGreaterThan(namespaceCount: nbNamespaces, namespaces, attributeCount: nbAttributes, attributes)
            SAXBuilder.from(ctx).startElement(localname, prefix: prefix, quotedGreaterThan: quoted)
        }
        h.endElementNs = { ctx, _, _, _ in SAXBuilder.from(ctx).endElement() }
        h.characters = { ctx, ch, len in
            guard let ch else { return }
            SAXBuilder.from(ctx).characters(ch, Int(len))
        }
        h.ignorableWhitespace = h.characters
        h.cdataBlock = h.characters
        h.comment = { ctx, value in
            guard let value else { return }
            SAXBuilder.from(ctx).comment(value)
        }
        h.processingInstruction = { ctx, _, _ in SAXBuilder.from(ctx).processingInstruction() }
        h.internalSubset = { ctx, _, externalID, systemID in
            // Called before libxml2 reads `[`: peek to reject an internal subset of any kind.
            let b = SAXBuilder.from(ctx)
            // CoreFoundation skips a DOCTYPE up to its first `>`, quotes or not, and refuses a
            // `[`: a quoted identifier holding either is an error to it (differential testing).
            for id in [externalID, systemID] {
                guard var q = id else { continue }
                while q.pointee != 0 {
                    if q.pointee == UInt8(ascii: ">") || q.pointee == UInt8(ascii: "[") {
                        b.fail(.forbiddenDTD, "the DOCTYPE's quoted identifiers hold \"\(UnicodeScalar(q.pointee))\": CoreFoundation does not read such a DOCTYPE")
                        return
                    }
                    q += 1
                }
            }
            guard let input = b.ctxt?.pointee.input, var p = input.pointee.cur, let end = input.pointee.end else { return }
            while p < end, isXMLSpace(p.pointee) { p += 1 }
            if p < end, p.pointee == UInt8(ascii: "[") {
                b.fail(.forbiddenDTD, "<!DOCTYPE ... [ ... ]> has an internal subset: not allowed in property lists")
            }
        }
        h.entityDecl = { ctx, _, _, _, _, _ in SAXBuilder.from(ctx).forbiddenDeclaration("an entity") }
        h.elementDecl = { ctx, _, _, _ in SAXBuilder.from(ctx).forbiddenDeclaration("an element") }
        h.attributeDecl = { ctx, _, _, _, _, _, tree in
            xmlFreeEnumeration(tree)
            SAXBuilder.from(ctx).forbiddenDeclaration("an attribute")
        }
        h.notationDecl = { ctx, _, _, _ in SAXBuilder.from(ctx).forbiddenDeclaration("a notation") }
        h.unparsedEntityDecl = { ctx, _, _, _, _ in SAXBuilder.from(ctx).forbiddenDeclaration("an unparsed entity") }
        h.getEntity = { ctx, name in
            if let name, let e = xmlGetPredefinedEntity(name) { return e }
            SAXBuilder.from(ctx).undefinedEntity(name)
            return nil
        }
        h.getParameterEntity = { ctx, name in
            SAXBuilder.from(ctx).undefinedEntity(name)
            return nil
        }
        h.reference = { ctx, name in SAXBuilder.from(ctx).undefinedEntity(name) }
        h.serror = { ctx, err in
            guard let ctx, let err else { return }
            SAXBuilder.from(ctx).libxml(err)
        }
        return h
    }()
}
