import Foundation
import PackagePlugin

/// `swift package plugin check-layering [--graph]`: fails with every dependency edge
/// (declared in the manifest, or imported in a source file) that breaks the
/// layering in Layers.swift.
@main
struct LayeringCheck: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) throws {
    let targets = context.package.targets
    let local = Set(targets.map(\.name))
    var problems: [String] = []
    var edges = 0
    var graph: [String] = []
    for target in targets {
      let path = target.directoryURL.path
      guard let layer = Layers.layer(name: target.name, path: path) else {
        problems.append("target '\(target.name)' has no layer: put it in a layer's folder, Modules/LAYER/\(target.name) (Plugins/LayeringCheck/Layers.swift names the folders)")
        continue
      }
      var declared = Set<String>()
      for dependency in target.dependencies {
        guard case .target(let other) = dependency else { continue }
        declared.insert(other.name)
        edges += 1
        let otherLayer = Layers.layer(name: other.name, path: other.directoryURL.path)
        // Every layer may take the base; its edges would only crowd the picture.
        if layer != .test, otherLayer != .base { graph.append("  \(target.name) --> \(other.name)") }
        guard let otherLayer else { continue }
        if !layer.allowed.contains(otherLayer) {
          problems.append("\(target.name) (\(layer.rawValue)) -> \(other.name) (\(otherLayer.rawValue)): the \(layer.rawValue) layer may not depend on the \(otherLayer.rawValue) layer")
        }
      }
      guard let sources = target.sourceModule?.sourceFiles(withSuffix: "swift") else { continue }
      for file in sources {
        let text = (try? String(contentsOf: file.url, encoding: .utf8)) ?? ""
        for module in Self.imports(in: text) where local.contains(module) && module != target.name && !declared.contains(module) {
          problems.append("\(file.url.path): imports \(module), which \(target.name) does not declare as a dependency")
        }
      }
    }
    if arguments.contains("--graph") {
      print("```mermaid\ngraph TD")
      graph.forEach { print($0) }
      print("```")
    }
    if problems.isEmpty {
      print("layering ok: \(targets.count) targets, \(edges) edges checked")
    } else {
      for problem in problems { Diagnostics.error(problem) }
      throw LayeringError(count: problems.count)
    }
  }

  /// Module names from `import X`, `@testable import X`, `import struct X.Y`.
  static func imports(in text: String) -> [String] {
    text.split(separator: "\n").compactMap { line in
      let words = line.split(separator: " ").map(String.init)
      guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") }) else { return nil }
      let rest = words.dropFirst(index + 1)
      let name = rest.count > 1 && ["struct", "class", "enum", "protocol", "func", "typealias", "var", "let"].contains(rest.first!)
        ? rest.dropFirst().first : rest.first
      return name.map { String($0.split(separator: ".")[0]) }
    }
  }
}

struct LayeringError: Error, CustomStringConvertible {
  let count: Int
  var description: String { "\(count) layering violation(s); see ARCHITECTURE.md and Plugins/LayeringCheck/Layers.swift" }
}
