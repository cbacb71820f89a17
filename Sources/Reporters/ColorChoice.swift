/// `--color auto|always|never`. `auto` colours a terminal unless `NO_COLOR` is set to anything
/// but the empty string (no-color.org: software "should check for a NO_COLOR environment variable
/// that, when present and not an empty string, prevents the addition of ANSI color", while
/// command-line arguments may override it: `always` does).
public enum ColorChoice: String, CaseIterable, Sendable {
    case auto, always, never

    public func enabled(isTerminal: Bool, noColor: String?) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto: return isTerminal && (noColor ?? "").isEmpty
        }
    }
}
