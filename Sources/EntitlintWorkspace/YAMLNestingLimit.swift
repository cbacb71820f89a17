// The system libyaml: the very parser whose events YAMLReader composes into nodes.
import CLibYAML

/// How deeply YAML text nests, measured before YAMLReader composes it: the composer refuses
/// nesting past its own bound, and the configuration and XcodeGen readers want a smaller one
/// reported as their own message with its line, before any node is built (`[[[[...` or
/// `- - - ...` in `.entitlint.yml` or an XcodeGen `project.yml`).
///
/// The depth is counted on libyaml's own event stream, the one YAMLReader composes: every
/// SEQUENCE-START and MAPPING-START opens a level, every matching END closes it. So the bound
/// holds by construction for every way YAML nests — flow `[` and `{`, single-pair mappings
/// inside flow sequences, block indentation, compact `- - x`, `? - x`, `: - x` — and for every
/// line break libyaml knows (LF, CR, CRLF, NEL U+0085, LS U+2028, PS U+2029: libyaml's
/// `IS_BREAK` in yaml_private.h); a line-based guess can disagree with libyaml, this cannot.
///
/// The check parses once more than composing does (linear in the text, no node is built), and
/// stops at the first collection past the limit, so libyaml's own stacks stay as small as the
/// limit. Text libyaml rejects passes the check: composing then stops at the same event with
/// the same error, having opened no more levels than were counted here.
public enum YAMLNestingLimit {
    /// The line (1-based) of the first collection that opens more than `limit` levels deep, or nil.
    public static func firstLineDeeperThan(_ limit: Int, in text: String) -> Int? {
        var steps = 0
        return firstLineDeeperThan(limit, in: text, events: &steps)
    }

    /// `firstLineDeeperThan`, counting the events read (at most one per token of the text).
    static func firstLineDeeperThan(_ limit: Int, in text: String, events: inout Int) -> Int? {
        let bytes = Array(text.utf8)
        if bytes.isEmpty { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            var parser = yaml_parser_t()
            // Out of memory before the first byte: the text cannot be shown to be shallow.
            guard yaml_parser_initialize(&parser) == 1 else { return 1 }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var depth = 0
            while true {
                var event = yaml_event_t()
                // A text libyaml rejects: composing reports the same error at the same place.
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                events += 1
                let type = event.type
                let line = Int(event.start_mark.line) + 1
                yaml_event_delete(&event)
                switch type {
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    depth += 1
                    if depth > limit { return line }
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    depth -= 1
                case YAML_STREAM_END_EVENT:
                    return nil
                default:
                    break
                }
            }
        }
    }
}
