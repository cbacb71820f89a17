import Foundation
import XCTest

/// Runs the real validators: `Scripts/validate-report.py` (Python `jsonschema`) for JSON formats
/// (`report`: the access report of `entitlint report --format json`),
/// `xmllint --schema` for XML ones, against the schemas in `../shared/schemas`. Skips, saying why,
/// when a tool or a schema is missing.
public enum SchemaValidator {
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // TestSupport
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()
    public static var schemaDirectory: URL { packageRoot.deletingLastPathComponent().appendingPathComponent("shared/schemas") }

    static let schemaFile = [
        "sarif": "sarif-schema-2.1.0.json",
        "gitlab": "gitlab-codequality-codeclimate.json",
        "json": "Rules/reference/report.schema.json",
        "report": "Rules/reference/access-report.schema.json",
        "junit": "junit-10-jenkins-xunit.xsd",
        "checkstyle": "checkstyle-report-1.0.0.xsd",
    ]

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Validates `text` as a `format` report; fails the test with the validator's words.
    public static func validate(_ text: String, format: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (valid, output) = try check(text, format: format)
        XCTAssertTrue(valid, "\(format) report is not valid:\n\(output)\n--- report:\n\(text)", file: file, line: line)
    }

    /// Whether `text` is a valid `format` report, and what the validator said.
    public static func check(_ text: String, format: String) throws -> (valid: Bool, output: String) {
        guard let schemaName = schemaFile[format] else { throw XCTSkip("no schema for \(format)") }
        // Entitlint's own JSON formats (lint's, and report's access report) have their schemas in the repository.
        let own = format == "json" || format == "report"
        let schema = own ? packageRoot.appendingPathComponent(schemaName) : schemaDirectory.appendingPathComponent(schemaName)
        guard FileManager.default.fileExists(atPath: schema.path) else {
            throw XCTSkip("schema \(schema.path) is absent: cannot validate the \(format) report")
        }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("entitlint-\(UUID().uuidString).\(format)")
        try text.write(to: report, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: report) }
        let result: (status: Int32, output: String)
        if format == "sarif" || format == "gitlab" || own {
            let script = packageRoot.appendingPathComponent("Scripts/validate-report.py").path
            result = try run(["python3", script, format, report.path, schemaDirectory.path])
            if result.status == 127 { throw XCTSkip("python3 is not installed: cannot validate the \(format) report") }
            if result.status == 3 { throw XCTSkip("the Python package jsonschema is missing (pip install jsonschema): cannot validate the \(format) report") }
        } else {
            result = try run(["xmllint", "--noout", "--schema", schema.path, report.path])
            if result.status == 127 { throw XCTSkip("xmllint is not installed (apt-get install libxml2-utils): cannot validate the \(format) report") }
        }
        return (result.status == 0, result.output)
    }
}
