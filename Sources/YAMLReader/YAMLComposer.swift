import CLibYAML

extension YAMLNode {
    /// How many collections may be open at once unless a caller says otherwise.
    public static let defaultMaxDepth = 512

    /// The one document of `text` as nodes, or nil when the text holds no document (empty, or
    /// only comments). Composition is a loop over libyaml's events with an explicit stack, so no
    /// input can exhaust the call stack; the stack is bounded by `maxDepth` (a collection opened
    /// deeper is a composer error), anchors by the number of events. A second document, an alias
    /// to an anchor not yet complete, and everything libyaml rejects are errors.
    public static func compose(yaml text: String, maxDepth: Int = defaultMaxDepth) throws(YAMLError) -> YAMLNode? {
        let bytes = Array(text.utf8)
        if bytes.isEmpty { return nil }
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<YAMLNode?, YAMLError> in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return .failure(.memory) }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var composer = Composer(maxDepth: maxDepth)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return .failure(YAMLError(parser)) }
                let step = composer.take(event)
                yaml_event_delete(&event)
                switch step {
                case .more: continue
                case .done(let root): return .success(root)
                case .failed(let error): return .failure(error)
                }
            }
        }
        return try result.get()
    }
}

/// Builds nodes from events, one event at a time.
private struct Composer {
    enum Step { case more, done(YAMLNode?), failed(YAMLError) }

    /// A collection whose end event has not come yet.
    struct Open {
        let isMapping: Bool
        let tag: YAMLTag
        let mark: YAMLMark
        let anchor: String?
        var items: [YAMLNode] = []
        var pairs: [YAMLMapping.Element] = []
        var key: YAMLNode?
    }

    let maxDepth: Int
    var stack: [Open] = []
    var anchors: [String: YAMLNode] = [:]
    var root: YAMLNode?
    var documents = 0

    init(maxDepth: Int) { self.maxDepth = maxDepth }

    mutating func take(_ event: yaml_event_t) -> Step {
        let mark = YAMLMark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                let context = YAMLError.Context(text: "expected a single document in the stream", mark: YAMLMark(line: 1, column: 1))
                return .failed(.composer(context: context, problem: "but found another document", mark: mark))
            }
        case YAML_STREAM_END_EVENT:
            return .done(root)
        case YAML_ALIAS_EVENT:
            let name = cText(event.data.alias.anchor) ?? ""
            guard let node = anchors[name] else {
                return .failed(.composer(context: nil, problem: "found undefined alias", mark: mark))
            }
            add(node)
        case YAML_SCALAR_EVENT:
            let s = event.data.scalar
            let value = String(decoding: UnsafeBufferPointer(start: s.value, count: Int(s.length)), as: UTF8.self)
            let style: YAMLScalar.Style
            switch s.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .plain
            }
            let tag: YAMLTag
            if s.quoted_implicit == 1 {
                tag = .str
            } else if let written = cText(s.tag) {
                tag = written == "!" ? .str : YAMLTag(rawValue: written)
            } else {
                tag = YAMLImplicitTag.resolve(value)
            }
            let node = YAMLNode(.scalar(YAMLScalar(string: value, style: style)), tag: tag, mark: mark)
            if let anchor = cText(s.anchor) { anchors[anchor] = node }
            add(node)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            guard stack.count < maxDepth else {
                return .failed(.composer(context: nil, problem: "nested more than \(maxDepth) levels deep", mark: mark))
            }
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            let (anchor, written, implicit) = isMapping
                ? (cText(event.data.mapping_start.anchor), cText(event.data.mapping_start.tag), event.data.mapping_start.implicit)
                : (cText(event.data.sequence_start.anchor), cText(event.data.sequence_start.tag), event.data.sequence_start.implicit)
            let standard: YAMLTag = isMapping ? .map : .seq
            let tag = implicit == 0 ? written.map { $0 == "!" ? standard : YAMLTag(rawValue: $0) } ?? standard : standard
            stack.append(Open(isMapping: isMapping, tag: tag, mark: mark, anchor: anchor))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            // libyaml pairs every end with its start; an empty stack cannot happen, but costs nothing to refuse.
            guard let open = stack.popLast() else {
                return .failed(.composer(context: nil, problem: "unbalanced collection end", mark: mark))
            }
            let content: YAMLNode.Content = open.isMapping ? .mapping(YAMLMapping(pairs: open.pairs)) : .sequence(open.items)
            let node = YAMLNode(content, tag: open.tag, mark: open.mark)
            if let anchor = open.anchor { anchors[anchor] = node }
            add(node)
        default:
            break
        }
        return .more
    }

    /// Puts a finished node where it belongs: the root, the next item, a key, or a key's value.
    mutating func add(_ node: YAMLNode) {
        guard !stack.isEmpty else { root = node; return }
        let top = stack.count - 1
        if !stack[top].isMapping {
            stack[top].items.append(node)
        } else if let key = stack[top].key {
            stack[top].pairs.append((key: key, value: node))
            stack[top].key = nil
        } else {
            stack[top].key = node
        }
    }
}

/// A NUL-terminated libyaml string (anchor, tag), or nil.
private func cText(_ p: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    guard let p else { return nil }
    return String(cString: p)
}

extension YAMLError {
    /// libyaml's error after a failed `yaml_parser_parse`. Marks become 1-based.
    init(_ parser: yaml_parser_t) {
        func text(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
        func mark(_ m: yaml_mark_t) -> YAMLMark { YAMLMark(line: Int(m.line) + 1, column: Int(m.column) + 1) }
        let context = parser.context.map { Context(text: String(cString: $0), mark: mark(parser.context_mark)) }
        switch parser.error {
        case YAML_READER_ERROR:
            self = .reader(problem: text(parser.problem), offset: Int(parser.problem_offset), value: Int(parser.problem_value))
        case YAML_SCANNER_ERROR:
            self = .scanner(context: context, problem: text(parser.problem), mark: mark(parser.problem_mark))
        case YAML_PARSER_ERROR:
            self = .parser(context: context, problem: text(parser.problem), mark: mark(parser.problem_mark))
        case YAML_COMPOSER_ERROR:
            self = .composer(context: context, problem: text(parser.problem), mark: mark(parser.problem_mark))
        default:
            self = .memory
        }
    }
}
