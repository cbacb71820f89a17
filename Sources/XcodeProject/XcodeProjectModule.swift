/// Xcode projects -> signing units (issue 3).
public enum XcodeProjectModule {}
