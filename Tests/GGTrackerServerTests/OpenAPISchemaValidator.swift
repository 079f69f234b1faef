import Foundation

/// Checks JSON values against the JSON Schemas of an OpenAPI 3.1 document (the subset Discord's spec uses:
/// `$ref`, `type` with nullable unions, `properties`, `required`, `enum`, `oneOf`/`anyOf`/`allOf`, string
/// lengths, array sizes, numeric bounds, `additionalProperties: false`).
struct OpenAPISchemaValidator {
    let schemas: [String: Any]

    init(data: Data) throws {
        let root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        schemas = (root["components"] as! [String: Any])["schemas"] as! [String: Any]
    }

    /// Problems found, each with its JSON path; empty when the value conforms.
    func validate(_ value: Any, against name: String, ignoring: Set<String> = []) -> [String] {
        var problems: [String] = []
        check(
            value, schema: ["$ref": "#/components/schemas/\(name)"], path: "$", problems: &problems, ignoring: ignoring)
        return problems
    }

    private func resolve(_ schema: [String: Any]) -> [String: Any] {
        guard let ref = schema["$ref"] as? String else { return schema }
        let name = String(ref.split(separator: "/").last!)
        return resolve(schemas[name] as! [String: Any])
    }

    private func typeName(_ value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case let n as NSNumber:
            if String(describing: type(of: n)).contains("Boolean") || String(cString: n.objCType) == "c" {
                return "boolean"
            }
            return n.doubleValue == n.doubleValue.rounded() ? "integer" : "number"
        case is String: return "string"
        case is [Any]: return "array"
        case is [String: Any]: return "object"
        default: return "unknown"
        }
    }

    private func check(
        _ value: Any, schema raw: [String: Any], path: String, problems: inout [String], ignoring: Set<String>
    ) {
        let schema = resolve(raw)
        let actual = typeName(value)
        if let type = schema["type"] {
            let allowed = (type as? [String]) ?? [type as! String]
            let ok = allowed.contains(actual) || (actual == "integer" && allowed.contains("number"))
            if !ok {
                problems.append("\(path): expected \(allowed.joined(separator: "|")), got \(actual)")
                return
            }
        }
        if let constant = schema["const"], "\(constant)" != "\(value)" {
            problems.append("\(path): \(value) is not \(constant)")
        }
        if let options = schema["enum"] as? [Any] {
            let matches = options.contains { "\($0)" == "\(value)" }
            if !matches { problems.append("\(path): \(value) is not one of \(options)") }
        }
        for sub in schema["allOf"] as? [[String: Any]] ?? [] {
            check(value, schema: sub, path: path, problems: &problems, ignoring: ignoring)
        }
        for key in ["oneOf", "anyOf"] {
            guard let alternatives = schema[key] as? [[String: Any]] else { continue }
            var results: [[String]] = []
            for alternative in alternatives {
                var sub: [String] = []
                check(value, schema: alternative, path: path, problems: &sub, ignoring: ignoring)
                results.append(sub)
            }
            let passing = results.filter(\.isEmpty).count
            if passing == 0 {
                let closest = results.min { $0.count < $1.count } ?? []
                problems.append(
                    "\(path): matches none of \(key) (closest: \(closest.prefix(3).joined(separator: "; ")))")
            } else if key == "oneOf" && passing > 1 {
                problems.append("\(path): matches \(passing) alternatives of oneOf")
            }
        }
        switch value {
        case let s as String:
            if let max = schema["maxLength"] as? Int, s.count > max {
                problems.append("\(path): \(s.count) characters > \(max)")
            }
            if let min = schema["minLength"] as? Int, s.count < min {
                problems.append("\(path): \(s.count) characters < \(min)")
            }
        case let n as NSNumber where actual != "boolean":
            if let max = schema["maximum"] as? Double, n.doubleValue > max { problems.append("\(path): \(n) > \(max)") }
            if let min = schema["minimum"] as? Double, n.doubleValue < min { problems.append("\(path): \(n) < \(min)") }
        case let array as [Any]:
            if let max = schema["maxItems"] as? Int, array.count > max {
                problems.append("\(path): \(array.count) items > \(max)")
            }
            if let min = schema["minItems"] as? Int, array.count < min {
                problems.append("\(path): \(array.count) items < \(min)")
            }
            if let items = schema["items"] as? [String: Any] {
                for (i, item) in array.enumerated() {
                    check(item, schema: items, path: "\(path)[\(i)]", problems: &problems, ignoring: ignoring)
                }
            }
        case let object as [String: Any]:
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for required in schema["required"] as? [String] ?? [] where object[required] == nil {
                problems.append("\(path): missing \(required)")
            }
            for (key, child) in object {
                if ignoring.contains(key) { continue }
                if let sub = properties[key] as? [String: Any] {
                    check(child, schema: sub, path: "\(path).\(key)", problems: &problems, ignoring: ignoring)
                } else if let extra = schema["additionalProperties"] as? [String: Any] {
                    check(child, schema: extra, path: "\(path).\(key)", problems: &problems, ignoring: ignoring)
                } else if schema["additionalProperties"] as? Bool == false || !properties.isEmpty {
                    problems.append("\(path): unexpected property \(key)")
                }
            }
        default:
            break
        }
    }
}
