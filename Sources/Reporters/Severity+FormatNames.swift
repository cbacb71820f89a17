import EntitlintCore

extension Severity {
    /// What a format calls (or how it draws) this severity: each format names the three its own
    /// way, and this keeps each format's choice one line, read as a table.
    func named(error: String, warning: String, note: String) -> String {
        switch self {
        case .error: return error
        case .warning: return warning
        case .note: return note
        }
    }
}
