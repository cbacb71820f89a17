public enum EntitlintVersion {
    public static let current = "0.1.0"
}
