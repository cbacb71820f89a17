/// Why a text is not one YAML document: libyaml's own error (the stage, its problem and
/// context texts, which quote nothing of the document, and their places), or the composer's.
public enum YAMLError: Error, Equatable, Sendable {
    /// What libyaml was reading when it met the problem, and where that began.
    public struct Context: Equatable, Sendable {
        public let text: String
        public let mark: YAMLMark
    }

    /// The bytes cannot be decoded (invalid UTF-8, a control character): `offset` is the byte.
    case reader(problem: String, offset: Int, value: Int)
    case scanner(context: Context?, problem: String, mark: YAMLMark)
    case parser(context: Context?, problem: String, mark: YAMLMark)
    /// Composing the events into nodes: an undefined alias, a second document, nesting past the limit.
    case composer(context: Context?, problem: String, mark: YAMLMark)
    /// libyaml could not allocate.
    case memory
}
