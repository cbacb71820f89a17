/// Where a node starts in the text: 1-based line and column (libyaml counts columns in Unicode
/// scalars).
public struct YAMLMark: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A node's tag once resolved: the explicit tag when one was written (`!!int` arrives from
/// libyaml as `tag:yaml.org,2002:int`), `str` for a quoted scalar or one tagged `!`, else the
/// YAML 1.1 implicit tag of a plain scalar, `seq` or `map` for a collection.
public struct YAMLTag: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let str = YAMLTag(rawValue: "tag:yaml.org,2002:str")
    public static let int = YAMLTag(rawValue: "tag:yaml.org,2002:int")
    public static let float = YAMLTag(rawValue: "tag:yaml.org,2002:float")
    public static let bool = YAMLTag(rawValue: "tag:yaml.org,2002:bool")
    public static let null = YAMLTag(rawValue: "tag:yaml.org,2002:null")
    public static let timestamp = YAMLTag(rawValue: "tag:yaml.org,2002:timestamp")
    public static let merge = YAMLTag(rawValue: "tag:yaml.org,2002:merge")
    public static let value = YAMLTag(rawValue: "tag:yaml.org,2002:value")
    public static let binary = YAMLTag(rawValue: "tag:yaml.org,2002:binary")
    public static let seq = YAMLTag(rawValue: "tag:yaml.org,2002:seq")
    public static let map = YAMLTag(rawValue: "tag:yaml.org,2002:map")
}

/// A scalar as written: its text (escapes and folding applied by libyaml) and its style.
public struct YAMLScalar: Equatable, Sendable {
    public enum Style: Equatable, Sendable { case plain, singleQuoted, doubleQuoted, literal, folded }
    public let string: String
    public let style: Style
}

/// A mapping's pairs in the order written. Duplicate keys are kept (a caller reports them);
/// the string subscript answers with the last pair whose key is that string.
public struct YAMLMapping: Sequence, Sendable {
    public typealias Element = (key: YAMLNode, value: YAMLNode)
    public let pairs: [Element]

    public init(pairs: [Element]) { self.pairs = pairs }

    public func makeIterator() -> IndexingIterator<[Element]> { pairs.makeIterator() }
    public var count: Int { pairs.count }
    public var isEmpty: Bool { pairs.isEmpty }
    public var keys: [YAMLNode] { pairs.map(\.key) }
    public var values: [YAMLNode] { pairs.map(\.value) }

    /// The value of the last pair whose key is a string scalar equal to `key`.
    public subscript(_ key: String) -> YAMLNode? {
        pairs.last(where: { $0.key.tag == .str && $0.key.scalar?.string == key })?.value
    }
}

/// One node of a composed document. An alias is the node its anchor named (the same value,
/// shared, not copied element by element), so reading it never expands anything at compose time.
public struct YAMLNode: Sendable {
    public indirect enum Content: Sendable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        case mapping(YAMLMapping)
    }

    public let content: Content
    /// The resolved tag (see `YAMLTag`).
    public let tag: YAMLTag
    public let mark: YAMLMark

    public init(_ content: Content, tag: YAMLTag, mark: YAMLMark) {
        self.content = content
        self.tag = tag
        self.mark = mark
    }

    public var scalar: YAMLScalar? {
        if case .scalar(let s) = content { return s }
        return nil
    }

    public var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    public var mapping: YAMLMapping? {
        if case .mapping(let m) = content { return m }
        return nil
    }

    /// The text of a scalar, whatever its tag; nil for a collection.
    public var string: String? { scalar?.string }

    /// A scalar YAML 1.1 reads as a boolean (`true`/`yes`/`on`, `false`/`no`/`off`, in any
    /// casing), whatever its tag; nil for any other text or a collection. Callers check `tag`.
    public var bool: Bool? {
        switch scalar?.string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// The value of a mapping for a string key (the last pair with it); nil for anything else.
    public subscript(_ key: String) -> YAMLNode? { mapping?[key] }
}
